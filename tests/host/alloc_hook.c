/* The model's allocations through the hook of paddlec_rt/rt_alloc.h:
 *
 *   alloc_hook WEIGHTS scope   what the local scope allocates and releases
 *                              (num_iteration_per_drop_scope, fetches,
 *                              drop_local_exe_scopes, reserve)
 *   alloc_hook WEIGHTS fail    every call of a create / strategy / threads /
 *                              run / reserve / destroy sequence with the
 *                              allocations after the first N failing, for
 *                              N = 0, 1, ... until none fails: each call
 *                              returns 0 or MODEL_ERR_NOMEM, and nothing
 *                              stays allocated after destroy. */
#include "host_util.h"
#include "model.h"

enum { MAX_BATCH = 4 };
static float x[MAX_BATCH * 4096], y[MAX_BATCH * 4096];
static const void *in[] = {x};
static void *out[] = {y};

static Counting c;

/* Runs at `batch`, printing what it allocated and released. */
static void counted_run(model_model *m, const char *what, int64_t batch, int fetch) {
  long a = c.allocs, f = c.frees;
  int st = model_run(m, batch, in, fetch ? out : NULL);
  printf("%s: status %d allocs %ld frees %ld\n", what, st, c.allocs - a, c.frees - f);
}

static int scope(const char *weights) {
  use_counting(&c, -1);
  model_model *m;
  if (model_create(&m, weights)) return 1;
  model_exec_strategy s;
  model_exec_strategy_defaults(&s);
  s.num_threads = 1;
  s.num_iteration_per_run = 10;
  s.num_iteration_per_drop_scope = 3;
  model_set_exec_strategy(m, &s);
  counted_run(m, "batch4 iterations10 drop3", 4, 1);
  s.num_iteration_per_drop_scope = 100;
  model_set_exec_strategy(m, &s);
  counted_run(m, "batch4 iterations10 drop100", 4, 1);
  s.num_iteration_per_run = 1;
  model_set_exec_strategy(m, &s);
  counted_run(m, "batch4 nofetch", 4, 0);
  counted_run(m, "batch4 nofetch again", 4, 0);
  long f = c.frees;
  model_drop_local_exe_scopes(m);
  printf("drop_local_exe_scopes: frees %ld\n", c.frees - f);
  counted_run(m, "batch1", 1, 1);
  long a = c.allocs;
  int st = model_reserve(m, 4);
  printf("reserve4: status %d allocs %ld\n", st, c.allocs - a);
  counted_run(m, "batch4 reserved", 4, 1);
  model_destroy(m);
  printf("after destroy: live %ld\n", c.live);
  return 0;
}

static int fail(const char *weights) {
  for (long n = 0;; n++) {
    use_counting(&c, n);
    model_model *m = NULL;
    int st[8] = {0}, k = 0;
    st[k++] = model_create(&m, weights);
    if (!st[0]) {
      model_exec_strategy s;
      model_exec_strategy_defaults(&s);
      s.num_threads = 2;
      s.num_iteration_per_run = 2;
      s.num_iteration_per_drop_scope = 1;
      st[k++] = model_set_exec_strategy(m, &s);
      st[k++] = model_set_num_threads(m, 2);
      st[k++] = model_run(m, 1, in, out);
      st[k++] = model_run(m, 4, in, out);
      st[k++] = model_reserve(m, 3);
      st[k++] = model_run(m, 3, in, out);
      model_destroy(m);
    }
    printf("fail_after %ld: failed %ld statuses", n, c.failed);
    for (int i = 0; i < k; i++) printf(" %d", st[i]);
    printf(" live %ld\n", c.live);
    if (!c.failed) return 0;
  }
}

int main(int argc, char **argv) {
  if (argc != 3) return fprintf(stderr, "usage: %s WEIGHTS scope|fail\n", argv[0]), 2;
  int64_t dims[8];
  if (model_input_shape(0, MAX_BATCH, dims) > MAX_BATCH * 4096 || model_output_shape(0, MAX_BATCH, dims) > MAX_BATCH * 4096)
    return fprintf(stderr, "model too large\n"), 2;
  fill(x, model_input_shape(0, MAX_BATCH, dims), 3);
  return !strcmp(argv[2], "scope") ? scope(argv[1]) : fail(argv[1]);
}

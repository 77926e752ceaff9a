/* The allocations of a model whose kernels make LoDs (im2sequence,
 * ctc_align: tests/oracle/e2e_lod_made.py's ctc_greedy_decoder), through
 * the hook of paddlec_rt/rt_alloc.h:
 *
 *   lod_alloc WEIGHTS grow   runs at batches 3, 1, 2, 3, 3 after reserve(3):
 *                            what each allocates and releases, and output
 *                            0's LoD after each (its count, its last offset
 *                            against the rows the run wrote)
 *   lod_alloc WEIGHTS fail   create / run(2) / run(3) / run(3) / destroy with
 *                            the allocations after the first N failing, for
 *                            N = 0, 1, ... until none fails: each call
 *                            returns 0 or MODEL_ERR_NOMEM, nothing stays
 *                            allocated after destroy. */
#include "host_util.h"
#include "model.h"

enum { MAX_BATCH = 3, MAX_ELEMS = 1 << 16 };
static float x[MAX_ELEMS], probs[MAX_ELEMS];
static int64_t ids[MAX_ELEMS];
static const void *in[] = {x};
static void *out[] = {ids, probs};

static Counting c;

/* Runs at `batch`, printing what it allocated and released and output 0's
 * LoD: its count and whether it ends at the rows written (or, when nothing
 * was kept, holds only zeros beside Paddle's one row of -1). */
static void counted_run(model_model *m, int64_t batch) {
  long a = c.allocs, f = c.frees;
  int st = model_run(m, batch, in, out);
  const int64_t *lod;
  int64_t n = model_output_lod(m, 0, &lod), dims[8];
  model_output_run_shape(m, 0, dims);
  int ends = n > 0 && (lod[n - 1] == dims[0] || (lod[n - 1] == 0 && dims[0] == 1 && ids[0] == -1));
  printf("batch%lld: status %d allocs %ld frees %ld lod %lld ends_at_rows %d\n", (long long)batch, st,
         c.allocs - a, c.frees - f, (long long)n, ends);
}

static int grow(const char *weights) {
  use_counting(&c, -1);
  model_model *m;
  if (model_create(&m, weights)) return 1;
  model_exec_strategy s;
  model_exec_strategy_defaults(&s);
  s.num_threads = 1;
  model_set_exec_strategy(m, &s);
  long a = c.allocs;
  int st = model_reserve(m, MAX_BATCH);
  printf("reserve%d: status %d allocs %ld\n", MAX_BATCH, st, c.allocs - a);
  const int64_t batches[] = {3, 1, 2, 3, 3};
  for (int i = 0; i < 5; i++) counted_run(m, batches[i]);
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
      st[k++] = model_run(m, 2, in, out);
      st[k++] = model_run(m, 3, in, out);
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
  if (argc != 3) return fprintf(stderr, "usage: %s WEIGHTS grow|fail\n", argv[0]), 2;
  int64_t dims[8];
  if (model_input_shape(0, MAX_BATCH, dims) > MAX_ELEMS || model_output_shape(0, MAX_BATCH, dims) > MAX_ELEMS ||
      model_output_shape(1, MAX_BATCH, dims) > MAX_ELEMS)
    return fprintf(stderr, "model too large\n"), 2;
  fill(x, model_input_shape(0, MAX_BATCH, dims), 5);
  return !strcmp(argv[2], "grow") ? grow(argv[1]) : fail(argv[1]);
}

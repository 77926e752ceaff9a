/* Soak: the model run RUNS times on 2 threads, at batches 1 and 3 in turn
 * (batch 3 goes beyond the static arena: a local scope made and dropped on
 * every such run), each output compared bit for bit with the first run at
 * that batch.  Prints the resident memory after the first tenth of the runs
 * and at the end.
 *
 *   soak WEIGHTS RUNS */
#include "host_util.h"
#include "model.h"

enum { MAX = 3 * 4096 };
static float x[MAX], y[MAX], first[2][MAX];

int main(int argc, char **argv) {
  if (argc != 3) return fprintf(stderr, "usage: %s WEIGHTS RUNS\n", argv[0]), 2;
  const long runs = atol(argv[2]);
  int64_t dims[8];
  if (model_input_shape(0, 3, dims) > MAX || model_output_shape(0, 3, dims) > MAX) return 2;
  fill(x, model_input_shape(0, 3, dims), 11);
  model_model *m;
  model_exec_strategy s;
  model_exec_strategy_defaults(&s);
  s.num_threads = 2;
  if (model_create(&m, argv[1]) || model_set_exec_strategy(m, &s)) return fprintf(stderr, "create failed\n"), 1;
  const void *in[] = {x};
  void *out[] = {y};
  long rss_early = 0, mismatches = 0;
  for (long r = 0; r < runs; r++) {
    const int b = r % 2 ? 3 : 1;
    const size_t bytes = sizeof(float) * (size_t)model_output_shape(0, b, dims);
    int st = model_run(m, b, in, out);
    if (st) return fprintf(stderr, "run %ld: %s\n", r, model_last_error(m)), 1;
    if (r < 2) memcpy(first[r], y, bytes);
    else mismatches += memcmp(first[r % 2], y, bytes) != 0;
    if (r == runs / 10) rss_early = rss_kib();
  }
  model_destroy(m);
  printf("runs %ld mismatches %ld rss_early_kib %ld rss_end_kib %ld\n", runs, mismatches, rss_early, rss_kib());
  return 0;
}

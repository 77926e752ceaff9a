/* Two generated models (prefixes `model` and `other`) run at the same time
 * in two threads of one process, each with its own 2-thread pool, RUNS
 * times; every output must equal, bit for bit, what the same model gave on
 * one thread before the threads started.
 *
 *   two_models MODEL_WEIGHTS OTHER_WEIGHTS RUNS */
#include <pthread.h>

#include "host_util.h"
#include "model.h"
#include "other.h"

enum { BATCH = 2, MAX = BATCH * 4096 };
static long runs;

/* One model's side: inputs, the reference output and the mismatch count. */
#define SIDE(P)                                                                  \
  static float P##_x[MAX], P##_ref[MAX];                                         \
  static long P##_bad = -1;                                                      \
  static int P##_reference(const char *weights, P##_model **m) {                  \
    int64_t d[8];                                                                \
    if (P##_input_shape(0, BATCH, d) > MAX || P##_output_shape(0, BATCH, d) > MAX) return 1; \
    fill(P##_x, P##_input_shape(0, BATCH, d), 5);                                \
    const void *in[] = {P##_x};                                                  \
    void *out[] = {P##_ref};                                                     \
    return P##_create(m, weights) || P##_run(*m, BATCH, in, out);                \
  }                                                                              \
  static void *P##_loop(void *arg) {                                             \
    P##_model *m = arg;                                                          \
    static float y[MAX];                                                         \
    int64_t d[8];                                                                \
    const size_t bytes = sizeof(float) * (size_t)P##_output_shape(0, BATCH, d);  \
    P##_exec_strategy s;                                                         \
    P##_exec_strategy_defaults(&s);                                              \
    s.num_threads = 2;                                                           \
    if (P##_set_exec_strategy(m, &s)) return NULL;                               \
    const void *in[] = {P##_x};                                                  \
    void *out[] = {y};                                                           \
    long bad = 0;                                                                \
    for (long r = 0; r < runs; r++)                                              \
      bad += P##_run(m, BATCH, in, out) != 0 || memcmp(y, P##_ref, bytes) != 0;  \
    P##_bad = bad;                                                               \
    return NULL;                                                                 \
  }
SIDE(model)
SIDE(other)

int main(int argc, char **argv) {
  if (argc != 4) return fprintf(stderr, "usage: %s MODEL_WEIGHTS OTHER_WEIGHTS RUNS\n", argv[0]), 2;
  runs = atol(argv[3]);
  model_model *a;
  other_model *b;
  if (model_reference(argv[1], &a) || other_reference(argv[2], &b)) return fprintf(stderr, "reference failed\n"), 1;
  pthread_t ta, tb;
  if (pthread_create(&ta, NULL, model_loop, a) || pthread_create(&tb, NULL, other_loop, b)) return 1;
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  printf("model mismatches %ld other mismatches %ld\n", model_bad, other_bad);
  model_destroy(a);
  other_destroy(b);
  return 0;
}

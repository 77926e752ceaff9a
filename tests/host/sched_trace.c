/* The scheduler seen from the kernels (a -DPADDLEC_TRACE build of a model
 * whose first two kernels are independent):
 *
 *   sched_trace WEIGHTS NUM_THREADS SEQUENTIAL ITERATIONS WAIT_MS
 *
 * runs the model once at batch 2 with that strategy ("-" keeps what was
 * compiled in) and the hook below, and
 * prints every kernel's begin and end ("B k" / "E k", in the order they
 * happened), how many kernels ran, and whether the outputs equal, bit for
 * bit, those of a run with one thread.  The hook holds kernel 0 until
 * kernel 1 begins or WAIT_MS pass: with two kernels at once kernel 1 starts
 * meanwhile; in program order it cannot. */
#include <pthread.h>
#include <time.h>

#include "host_util.h"
#include "model.h"

enum { MAX_EVENTS = 1 << 16 };
static struct {
  pthread_mutex_t mu;
  int n, kernel[MAX_EVENTS], begin[MAX_EVENTS];
  int started1; /* kernel 1 has begun */
  long wait_ms;
} trace = {PTHREAD_MUTEX_INITIALIZER, 0, {0}, {0}, 0, 0};

static void record(int kernel, int begin) {
  pthread_mutex_lock(&trace.mu);
  if (trace.n < MAX_EVENTS) trace.kernel[trace.n] = kernel, trace.begin[trace.n++] = begin;
  if (kernel == 1 && begin) trace.started1 = 1;
  pthread_mutex_unlock(&trace.mu);
}

static void hook(void *user, int kernel, int begin) {
  (void)user;
  record(kernel, begin);
  if (kernel != 0 || !begin) return;
  for (long waited = 0; waited < trace.wait_ms * 10; waited++) {
    pthread_mutex_lock(&trace.mu);
    int go = trace.started1;
    pthread_mutex_unlock(&trace.mu);
    if (go) break;
    nanosleep(&(struct timespec){0, 100000}, NULL);
  }
}

int main(int argc, char **argv) {
  if (argc != 6) return fprintf(stderr, "usage: %s WEIGHTS NUM_THREADS SEQUENTIAL ITERATIONS WAIT_MS\n", argv[0]), 2;
  enum { BATCH = 2 };
  static float x[BATCH * 4096], y1[BATCH * 4096], y[BATCH * 4096];
  int64_t dims[8];
  int64_t nin = model_input_shape(0, BATCH, dims), nout = model_output_shape(0, BATCH, dims);
  if (nin > BATCH * 4096 || nout > BATCH * 4096) return fprintf(stderr, "model too large\n"), 2;
  fill(x, nin, 7);
  const void *in[] = {x};
  void *out1[] = {y1}, *out[] = {y};
  model_model *m;
  if (model_create(&m, argv[1]) || model_run(m, BATCH, in, out1)) return fprintf(stderr, "reference run failed\n"), 1;
  model_exec_strategy s;
  model_exec_strategy_defaults(&s);
  if (strcmp(argv[2], "-")) s.num_threads = atoi(argv[2]);
  if (strcmp(argv[3], "-")) s.sequential = atoi(argv[3]);
  if (strcmp(argv[4], "-")) s.num_iteration_per_run = atoi(argv[4]);
  trace.wait_ms = atol(argv[5]);
  int st = model_set_exec_strategy(m, &s);
  if (!st) model_set_trace(m, hook, NULL);
  if (!st) st = model_run(m, BATCH, in, out);
  if (st) return fprintf(stderr, "run failed: %s (%s)\n", model_strerror(st), model_last_error(m)), 1;
  int begins = 0;
  for (int i = 0; i < trace.n; i++) printf("%c %d\n", trace.begin[i] ? 'B' : 'E', trace.kernel[i]), begins += trace.begin[i];
  printf("kernels %d (%d per iteration)\n", begins, MODEL_NUM_KERNELS);
  printf("identical %d\n", !memcmp(y, y1, sizeof(float) * (size_t)nout));
  model_destroy(m);
  return 0;
}

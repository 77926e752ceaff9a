/* A host program that trains a compiled training program through its
 * generated API (fit.h): the docs' fit_a_line (fc on 13 features,
 * square_error_cost, mean, SGD), on data it makes itself, with a learning
 * rate schedule it computes, then saves a checkpoint Paddle can load.
 *
 *   build/paddlec compile main.pdmodel --startup startup.pdmodel -o build/fit --name fit
 *   cc -O2 -Ibuild/fit samples/host_train.c build/fit/fit.c build/fit/fit_startup.c \
 *      build/fit/paddlec_rt/rt_*.c -lm -lpthread -o build/host_train
 *   build/host_train build/fit_ckpt      (writes build/fit_ckpt.pdparams, .pdopt)
 *
 * (tests/oracle/train_cases.py fit_a_line writes main.pdmodel and
 * startup.pdmodel; tests/test_train.py runs this program.) */
#include <stdio.h>
#include <string.h>

#include "fit.h"

enum { BATCH = 16, FEATURES = 13, STEPS = 300 };

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s CHECKPOINT_PREFIX\n", argv[0]);
    return 1;
  }
  fit_model *m;
  int st = fit_create(&m, NULL); /* no weights file: the state starts empty */
  if (!st) st = fit_run_startup(m, 1); /* the initializers, after paddle.seed(1) */
  if (st) {
    fprintf(stderr, "startup: %s (%s)\n", fit_strerror(st), fit_last_error(m));
    fit_destroy(m);
    return 1;
  }
  /* the feeds in the order the model lists them, whatever it is */
  const int ix = fit_input_index("x"), iy = fit_input_index("y");
  static float x[BATCH][FEATURES], y[BATCH][1];
  const void *inputs[2];
  inputs[ix] = x;
  inputs[iy] = y;
  float loss = 0, first = 0;
  unsigned seed = 12345;
  for (int step = 0; step < STEPS && !st; step++) {
    /* a linear target: y = 0.1 * (x0 + ... + x12) + 0.5, x uniform in [-1, 1) */
    for (int r = 0; r < BATCH; r++) {
      float sum = 0;
      for (int c = 0; c < FEATURES; c++) {
        seed = seed * 1103515245u + 12345u;
        x[r][c] = (float)((seed >> 8) & 0xffff) / 32768.0f - 1.0f;
        sum += x[r][c];
      }
      y[r][0] = 0.1f * sum + 0.5f;
    }
    /* step decay: 0.05, halved every 100 steps (what an LRScheduler feeds) */
    st = fit_set_learning_rate(m, 0.05 / (double)(1 << (step / 100)));
    void *fetches[1] = {&loss};
    if (!st) st = fit_train_step(m, BATCH, inputs, fetches);
    if (step == 0) first = loss;
  }
  if (!st) st = fit_save(m, argv[1]);
  if (st) fprintf(stderr, "training: %s (%s)\n", fit_strerror(st), fit_last_error(m));
  else printf("loss %.4f at step 0, %.6f at step %d; saved %s.pdparams\n", first, loss, STEPS - 1, argv[1]);
  int64_t dims[4];
  const int w = fit_state_index("fc_0.w_0");
  if (!st && w >= 0 && fit_state_shape(w, dims) == FEATURES) {
    const float *wt = fit_state(m, w);
    printf("fc_0.w_0[0..2] = %.3f %.3f %.3f (the target's 0.1)\n", wt[0], wt[1], wt[2]);
  }
  fit_destroy(m);
  return st ? 1 : 0;
}

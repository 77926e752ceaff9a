/* Firmware style: the sample classifier with its weights compiled in
 * (--embed-weights) and all memory in one static buffer — no malloc, no
 * files.
 *
 *   build/paddlec compile samples/mlp -o build/fw --name classifier --embed-weights
 *   cc -O2 -Ibuild/fw samples/host_static.c build/fw/classifier.c \
 *      build/fw/classifier_weights.c build/fw/paddlec_rt/rt_*.c -lm -o build/host_static
 */
#include <stdio.h>

#include "classifier.h"

#define MAX_BATCH 4

static unsigned char arena[CLASSIFIER_ARENA_BYTES(MAX_BATCH)];
static classifier_model model;

int main(void) {
  int st = classifier_init(&model, arena, sizeof arena, NULL, 0);
  if (st) {
    printf("init: %s\n", classifier_strerror(st));
    return 1;
  }
  /* the largest batch the arena was sized for: every buffer at its biggest */
  float x[MAX_BATCH][8] = {{2, -2, 2, -2, 2, -2, 2, -2},
                           {0.5f, 0.1f, -0.3f, 0.2f, 0.4f, -0.6f, 0.3f, 0.1f},
                           {-2, -2, -2, -2, -2, -2, -2, -2},
                           {2, 2, 2, 2, 2, 2, 2, 2}};
  float probs[MAX_BATCH][3];
  const void *inputs[] = {x};
  void *outputs[] = {probs};
  st = classifier_run(&model, MAX_BATCH, inputs, outputs);
  if (st) {
    printf("run: %s (%s)\n", classifier_strerror(st), classifier_last_error(&model));
    return 1;
  }
  for (int i = 0; i < MAX_BATCH; i++)
    printf("point %d: class probabilities %.3f %.3f %.3f\n", i, probs[i][0], probs[i][1], probs[i][2]);
  printf("arena %zu bytes\n", sizeof arena);
  return 0;
}

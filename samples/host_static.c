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
  float x[1][8] = {{2, -2, 2, -2, 2, -2, 2, -2}};
  float probs[1][3];
  const void *inputs[] = {x};
  void *outputs[] = {probs};
  st = classifier_run(&model, 1, inputs, outputs);
  if (st) {
    printf("run: %s (%s)\n", classifier_strerror(st), classifier_last_error(&model));
    return 1;
  }
  printf("class probabilities: %.3f %.3f %.3f (arena %zu bytes)\n", probs[0][0], probs[0][1], probs[0][2],
         sizeof arena);
  return 0;
}

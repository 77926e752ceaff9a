/* A host program that embeds the compiled sample classifier through its
 * generated API (classifier.h): create, look inputs and outputs up by their
 * Paddle names, run a batch, read the class probabilities.
 *
 *   build/paddlec compile samples/mlp -o build/host --name classifier
 *   cc -O2 -Ibuild/host samples/host_api.c build/host/classifier.c \
 *      build/host/paddlec_rt/rt_*.c -lm -o build/host_api
 *   build/host_api build/host/classifier.pdiparams
 */
#include <stdio.h>

#include "classifier.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s classifier.pdiparams\n", argv[0]);
    return 1;
  }
  classifier_model *m;
  int st = classifier_create(&m, argv[1]);
  if (st) {
    fprintf(stderr, "create: %s\n", classifier_strerror(st));
    return 1;
  }
  /* two points, one near each of the first two cluster centres */
  float x[2][8] = {{2, 2, 2, 2, 2, 2, 2, 2}, {-2, -2, -2, -2, -2, -2, -2, -2}};
  int in = classifier_input_index("x");
  int out = 0; /* the only output: class probabilities */
  int64_t dims[4];
  classifier_output_shape(out, 2, dims);
  float probs[2][3];
  const void *inputs[1];
  void *outputs[1] = {probs};
  inputs[in] = x;
  st = classifier_run(m, 2, inputs, outputs);
  if (st) {
    fprintf(stderr, "run: %s (%s)\n", classifier_strerror(st), classifier_last_error(m));
    classifier_destroy(m);
    return 1;
  }
  for (int i = 0; i < 2; i++) {
    int best = 0;
    for (int c = 1; c < (int)dims[1]; c++)
      if (probs[i][c] > probs[i][best]) best = c;
    printf("point %d: class %d (p = %.3f)\n", i, best, probs[i][best]);
  }
  classifier_destroy(m);
  return 0;
}

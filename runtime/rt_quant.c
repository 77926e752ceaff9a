/* Helpers of the fake-quantization ops. */
#include <math.h>

#include "rt_kernels.h"

float rt_abs_max(const float *x, int64_t n) {
  float m = 0.0f;
  for (int64_t i = 0; i < n; i++) m = fabsf(x[i]) > m ? fabsf(x[i]) : m;
  return m;
}

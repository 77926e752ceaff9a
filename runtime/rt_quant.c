/* Helpers of the fake-quantization ops. */
#include <math.h>

#include "rt_kernels.h"

/* Paddle's FindAbsMaxFunctor: |x[i]| for the first i of largest |x[i]|
 * (std::max_element under |a| < |b|), so a NaN counts only in x[0]. */
float rt_abs_max(const float *x, int64_t n) {
  float m = n > 0 ? fabsf(x[0]) : 0.0f;
  for (int64_t i = 1; i < n; i++) m = m < fabsf(x[i]) ? fabsf(x[i]) : m;
  return m;
}

/* Softmax and log-softmax over the middle dim of a [outer, n, inner] view,
 * numerically stable (the max is subtracted first), as Paddle computes them. */
#include <math.h>

#include "rt_kernels.h"

static void softmax_impl(const float *x, float *out, int64_t outer, int64_t n, int64_t inner, int log_out) {
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < inner; i++) {
      const float *xp = x + o * n * inner + i;
      float *op = out + o * n * inner + i;
      float mx = xp[0];
      for (int64_t k = 1; k < n; k++) mx = xp[k * inner] > mx ? xp[k * inner] : mx;
      float sum = 0.0f;
      for (int64_t k = 0; k < n; k++) {
        float v = expf(xp[k * inner] - mx);
        sum += v;
        if (!log_out) op[k * inner] = v;
      }
      if (log_out) {
        float ls = logf(sum);
        for (int64_t k = 0; k < n; k++) op[k * inner] = xp[k * inner] - mx - ls;
      } else {
        float inv = 1.0f / sum;
        for (int64_t k = 0; k < n; k++) op[k * inner] *= inv;
      }
    }
}

void rt_softmax(const float *x, float *out, int64_t outer, int64_t n, int64_t inner) {
  softmax_impl(x, out, outer, n, inner, 0);
}

void rt_log_softmax(const float *x, float *out, int64_t outer, int64_t n, int64_t inner) {
  softmax_impl(x, out, outer, n, inner, 1);
}

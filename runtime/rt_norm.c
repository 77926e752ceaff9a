/* Normalizations in inference: batch_norm with its stored statistics,
 * per-channel affine maps, layer_norm, group_norm and instance_norm.
 * Statistics are accumulated in double (Paddle accumulates in float; the
 * difference is far below the float rounding of the results). */
#include <math.h>

#include "rt_kernels.h"

void rt_channel_affine(const float *x, float *y, const float *scale, const float *bias, int64_t outer, int64_t c,
                       int64_t inner) {
  for (int64_t o = 0; o < outer; o++)
    for (int64_t ch = 0; ch < c; ch++) {
      const float s = scale[ch], b = bias[ch];
      const float *xp = x + (o * c + ch) * inner;
      float *yp = y + (o * c + ch) * inner;
      for (int64_t i = 0; i < inner; i++) yp[i] = xp[i] * s + b;
    }
}

void rt_batch_norm(const float *x, float *y, const float *scale, const float *bias, const float *mean,
                   const float *var, float eps, int64_t outer, int64_t c, int64_t inner) {
  /* Paddle's inference form: y = x * (scale / sqrt(var + eps)) + (bias - mean * that) */
  for (int64_t ch = 0; ch < c; ch++) {
    const float s = (scale ? scale[ch] : 1.0f) / sqrtf(var[ch] + eps), b = (bias ? bias[ch] : 0.0f) - mean[ch] * s;
    for (int64_t o = 0; o < outer; o++) {
      const float *xp = x + (o * c + ch) * inner;
      float *yp = y + (o * c + ch) * inner;
      for (int64_t i = 0; i < inner; i++) yp[i] = xp[i] * s + b;
    }
  }
}

/* Mean and 1 / sqrt(variance + eps) of n floats (two passes). */
static void moments(const float *x, int64_t n, float eps, float *mean, float *inv_std) {
  double sum = 0.0, sq = 0.0;
  for (int64_t i = 0; i < n; i++) sum += x[i];
  double m = sum / (double)n;
  for (int64_t i = 0; i < n; i++) sq += ((double)x[i] - m) * ((double)x[i] - m);
  *mean = (float)m;
  *inv_std = (float)(1.0 / sqrt(sq / (double)n + (double)eps));
}

void rt_layer_norm(const float *x, float *y, const float *scale, const float *bias, float eps, int64_t rows,
                   int64_t cols) {
  for (int64_t r = 0; r < rows; r++) {
    const float *xr = x + r * cols;
    float *yr = y + r * cols;
    float mean, inv;
    moments(xr, cols, eps, &mean, &inv);
    for (int64_t i = 0; i < cols; i++) {
      float v = (xr[i] - mean) * inv;
      if (scale) v *= scale[i];
      if (bias) v += bias[i];
      yr[i] = v;
    }
  }
}

void rt_group_norm(const float *x, float *y, const float *scale, const float *bias, float eps, int64_t n, int64_t c,
                   int64_t groups, int64_t inner) {
  const int64_t cg = c / groups, len = cg * inner;
  for (int64_t ng = 0; ng < n * groups; ng++) {
    const float *xg = x + ng * len;
    float *yg = y + ng * len;
    float mean, inv;
    moments(xg, len, eps, &mean, &inv);
    for (int64_t k = 0; k < cg; k++) {
      const int64_t ch = (ng % groups) * cg + k;
      const float s = scale ? scale[ch] * inv : inv, b = (bias ? bias[ch] : 0.0f) - mean * s;
      for (int64_t i = 0; i < inner; i++) yg[k * inner + i] = xg[k * inner + i] * s + b;
    }
  }
}

/* Normalizations: batch_norm with its stored statistics or its batch's,
 * per-channel affine maps, layer_norm, group_norm and instance_norm, their
 * gradients; float32 and float64 (rt_norm_t.h, instantiated below for
 * each).  Statistics are accumulated in double (Paddle accumulates float
 * tensors' in float; the difference is far below the float rounding of the
 * results). */
#include <math.h>

#include "rt_kernels.h"
#include "rt_parallel.h"
#include "rt_vmath.h"

#define NT float
#define NF(name) name
#define NSQRT sqrtf
#define NSUM rt_sum_f64
#define NSQDEV rt_sqdev_f64
#include "rt_norm_t.h"
#undef NT
#undef NF
#undef NSQRT
#undef NSUM
#undef NSQDEV

/* The sum of x[0..n), and of (x[i] - m)^2, for double x in index order. */
static double sum_d(const double *x, int64_t n) {
  double s = 0.0;
  for (int64_t i = 0; i < n; i++) s += x[i];
  return s;
}

static double sqdev_d(const double *x, int64_t n, double m) {
  double s = 0.0;
  for (int64_t i = 0; i < n; i++) s += (x[i] - m) * (x[i] - m);
  return s;
}

#define NT double
#define NF(name) name##_f64
#define NSQRT sqrt
#define NSUM sum_d
#define NSQDEV sqdev_d
#include "rt_norm_t.h"
#undef NT
#undef NF
#undef NSQRT
#undef NSUM
#undef NSQDEV

void rt_channel_affine(const float *x, float *y, const float *scale, const float *bias, int64_t outer, int64_t c,
                       int64_t inner) {
  NormJob j = {.x = x, .y = y, .scale = scale, .bias = bias, .outer = outer, .c = c, .inner = inner};
  rt_parallel_range(outer * c, outer * c * inner, affine_rows, &j);
}

/* ---- sync_batch_norm (float32) ---- */

void rt_batch_norm_sums(const float *x, int64_t outer, int64_t c, int64_t inner, double *sums) {
  for (int64_t ch = 0; ch < c; ch++) {
    double s = 0.0, q = 0.0;
    for (int64_t o = 0; o < outer; o++) {
      const float *xp = x + (o * c + ch) * inner;
      for (int64_t i = 0; i < inner; i++) {
        s += xp[i];
        q += (double)xp[i] * xp[i];
      }
    }
    sums[ch] = s;
    sums[c + ch] = q;
  }
  sums[2 * c] = (double)(outer * inner);
}

void rt_batch_norm_train_synced(const float *x, float *y, const float *scale, const float *bias, const float *mean_in,
                                const float *var_in, float eps, float momentum, int64_t outer, int64_t c,
                                int64_t inner, const double *sums, float *mean_out, float *var_out, float *saved_mean,
                                float *saved_inv_std) {
  BnTrainJob j = {x, scale, bias, mean_in, var_in, y, mean_out, var_out, saved_mean, saved_inv_std,
                  eps, momentum, outer, c, inner, sums};
  rt_parallel_range(c, outer * c * inner * 2, bn_train_channels, &j);
}

void rt_batch_norm_grad_sums(const float *x, const float *dy, const float *mean, const float *inv_std, int64_t outer,
                             int64_t c, int64_t inner, double *sums) {
  for (int64_t ch = 0; ch < c; ch++) {
    double sdy = 0.0, sdxm = 0.0;
    for (int64_t o = 0; o < outer; o++) {
      const float *xp = x + (o * c + ch) * inner, *dp = dy + (o * c + ch) * inner;
      for (int64_t i = 0; i < inner; i++) {
        sdy += dp[i];
        sdxm += (double)((xp[i] - mean[ch]) * inv_std[ch]) * dp[i];
      }
    }
    sums[ch] = sdy;
    sums[c + ch] = sdxm;
  }
}

void rt_batch_norm_grad_synced(const float *x, const float *dy, const float *scale, const float *mean,
                               const float *inv_std, int64_t outer, int64_t c, int64_t inner, const double *gsums,
                               const double *sums, float *dx, float *dscale, float *dbias) {
  BnGradJob j = {x, dy, scale, mean, inv_std, NULL, dx, dscale, dbias, 0.0f, 0, outer, c, inner, gsums, sums[2 * c]};
  rt_parallel_range(c, outer * c * inner * 3, bn_grad_channels, &j);
}

/* Normalizations in inference: batch_norm with its stored statistics,
 * per-channel affine maps, layer_norm, group_norm and instance_norm.
 * Statistics are accumulated in double (Paddle accumulates in float; the
 * difference is far below the float rounding of the results). */
#include <math.h>

#include "rt_kernels.h"
#include "rt_parallel.h"
#include "rt_vmath.h"

typedef struct NormJob {
  const float *x;             /* input */
  float *y;                   /* output */
  const float *scale, *bias;  /* per column (layer_norm) or channel */
  const float *mean, *var;    /* batch_norm statistics */
  float eps;                  /* epsilon */
  int64_t outer, c, inner;    /* the view: [outer, c, inner] (layer_norm: [rows, cols, 1]) */
  float *mean_out, *var_out;  /* layer_norm: each row's mean and variance, or NULL */
} NormJob;

/* Rows [lo, hi) of the [outer * c] planes of `inner` floats: y = x * s + b
 * with the plane's channel's s and b (batch_norm's from its statistics). */
static void affine_rows(void *ctx, int64_t lo, int64_t hi) {
  const NormJob *j = ctx;
  for (int64_t r = lo; r < hi; r++) {
    const int64_t ch = r % j->c;
    float s = j->scale ? j->scale[ch] : 1.0f, b = j->bias ? j->bias[ch] : 0.0f;
    if (j->var) { /* Paddle's inference form: y = x * (scale / sqrt(var + eps)) + (bias - mean * that) */
      s = s / sqrtf(j->var[ch] + j->eps);
      b = b - j->mean[ch] * s;
    }
    const float *xp = j->x + r * j->inner;
    float *yp = j->y + r * j->inner;
    for (int64_t i = 0; i < j->inner; i++) yp[i] = xp[i] * s + b;
  }
}

void rt_channel_affine(const float *x, float *y, const float *scale, const float *bias, int64_t outer, int64_t c,
                       int64_t inner) {
  NormJob j = {.x = x, .y = y, .scale = scale, .bias = bias, .outer = outer, .c = c, .inner = inner};
  rt_parallel_range(outer * c, outer * c * inner, affine_rows, &j);
}

void rt_batch_norm(const float *x, float *y, const float *scale, const float *bias, const float *mean,
                   const float *var, float eps, int64_t outer, int64_t c, int64_t inner) {
  NormJob j = {x, y, scale, bias, mean, var, eps, outer, c, inner, NULL, NULL};
  rt_parallel_range(outer * c, outer * c * inner, affine_rows, &j);
}

/* Mean, biased variance and 1 / sqrt(variance + eps) of n floats (two
 * passes, rt_vmath.h). */
static void moments(const float *x, int64_t n, float eps, float *mean, float *var, float *inv_std) {
  const double m = rt_sum_f64(x, n) / (double)n, v = rt_sqdev_f64(x, n, m) / (double)n;
  *mean = (float)m;
  *var = (float)v;
  *inv_std = (float)(1.0 / sqrt(v + (double)eps));
}


static void layer_norm_rows(void *ctx, int64_t lo, int64_t hi) {
  const NormJob *j = ctx;
  const int64_t cols = j->c;
  for (int64_t r = lo; r < hi; r++) {
    const float *xr = j->x + r * cols;
    float *yr = j->y + r * cols;
    float mean, var, inv;
    moments(xr, cols, j->eps, &mean, &var, &inv);
    if (j->mean_out) j->mean_out[r] = mean;
    if (j->var_out) j->var_out[r] = var;
    for (int64_t i = 0; i < cols; i++) {
      float v = (xr[i] - mean) * inv;
      if (j->scale) v *= j->scale[i];
      if (j->bias) v += j->bias[i];
      yr[i] = v;
    }
  }
}

void rt_layer_norm(const float *x, float *y, const float *scale, const float *bias, float eps, int64_t rows,
                   int64_t cols, float *mean, float *var) {
  NormJob j = {.x = x, .y = y, .scale = scale, .bias = bias, .eps = eps, .outer = rows, .c = cols, .inner = 1,
               .mean_out = mean, .var_out = var};
  rt_parallel_range(rows, rows * cols * 3, layer_norm_rows, &j);
}

void rt_group_norm(const float *x, float *y, const float *scale, const float *bias, float eps, int64_t n, int64_t c,
                   int64_t groups, int64_t inner, float *mean_out, float *var_out, float *inv_std_out) {
  const int64_t cg = c / groups, len = cg * inner;
  for (int64_t ng = 0; ng < n * groups; ng++) {
    const float *xg = x + ng * len;
    float *yg = y + ng * len;
    float mean, var, inv;
    moments(xg, len, eps, &mean, &var, &inv);
    if (mean_out) mean_out[ng] = mean;
    if (var_out) var_out[ng] = var;
    if (inv_std_out) inv_std_out[ng] = inv;
    for (int64_t k = 0; k < cg; k++) {
      const int64_t ch = (ng % groups) * cg + k;
      const float s = scale ? scale[ch] * inv : inv, b = (bias ? bias[ch] : 0.0f) - mean * s;
      for (int64_t i = 0; i < inner; i++) yg[k * inner + i] = xg[k * inner + i] * s + b;
    }
  }
}

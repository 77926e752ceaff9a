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

/* ---- batch_norm in training and its gradient ----
 * One task per range of channels: each channel's sums run over the
 * [outer, inner] elements of that channel in memory order (in double), so
 * every result is the same whatever the threads. */

typedef struct BnTrainJob {
  const float *x, *scale, *bias, *mean_in, *var_in;
  float *y, *mean_out, *var_out, *saved_mean, *saved_inv_std;
  float eps, momentum;
  int64_t outer, c, inner;
  const double *sums; /* synced: every place's sums (rt_batch_norm_sums), else NULL */
} BnTrainJob;

static void bn_train_channels(void *ctx, int64_t lo, int64_t hi) {
  const BnTrainJob *j = ctx;
  const int64_t c = j->c, inner = j->inner, n = j->outer * inner;
  for (int64_t ch = lo; ch < hi; ch++) {
    float mean, var;
    if (j->sums) { /* E[x^2] - mean^2 over every place's elements */
      const double m = j->sums[ch] / j->sums[2 * c], q = j->sums[c + ch] / j->sums[2 * c] - m * m;
      mean = (float)m;
      var = (float)(q > 0.0 ? q : 0.0);
    } else {
      double s = 0.0;
      for (int64_t o = 0; o < j->outer; o++) s += rt_sum_f64(j->x + (o * c + ch) * inner, inner);
      mean = (float)(s / (double)n);
      double q = 0.0;
      for (int64_t o = 0; o < j->outer; o++) q += rt_sqdev_f64(j->x + (o * c + ch) * inner, inner, mean);
      var = (float)(q / (double)n);
    }
    /* phi: saved_inv_std = (var + eps).inverse().sqrt() */
    const float inv = sqrtf(1.0f / (var + j->eps));
    j->saved_mean[ch] = mean;
    j->saved_inv_std[ch] = inv;
    j->mean_out[ch] = j->mean_in[ch] * j->momentum + mean * (1.0f - j->momentum);
    j->var_out[ch] = j->var_in[ch] * j->momentum + var * (1.0f - j->momentum);
    const float sc = j->scale ? j->scale[ch] : 1.0f, bi = j->bias ? j->bias[ch] : 0.0f;
    const float k = inv * sc, b = bi - mean * inv * sc; /* phi's new_scale, new_bias */
    for (int64_t o = 0; o < j->outer; o++) {
      const float *xp = j->x + (o * c + ch) * inner;
      float *yp = j->y + (o * c + ch) * inner;
      for (int64_t i = 0; i < inner; i++) yp[i] = xp[i] * k + b;
    }
  }
}

void rt_batch_norm_train(const float *x, float *y, const float *scale, const float *bias, const float *mean_in,
                         const float *var_in, float eps, float momentum, int64_t outer, int64_t c, int64_t inner,
                         float *mean_out, float *var_out, float *saved_mean, float *saved_inv_std) {
  if (outer * inner == 1) { /* phi: one element per channel: y = x, saved 0, running statistics untouched */
    for (int64_t i = 0; i < c; i++) {
      y[i] = x[i];
      saved_mean[i] = saved_inv_std[i] = 0.0f;
      mean_out[i] = mean_in[i];
      var_out[i] = var_in[i];
    }
    return;
  }
  BnTrainJob j = {x, scale, bias, mean_in, var_in, y, mean_out, var_out, saved_mean, saved_inv_std,
                  eps, momentum, outer, c, inner, NULL};
  rt_parallel_range(c, outer * c * inner * 3, bn_train_channels, &j);
}

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

typedef struct BnGradJob {
  const float *x, *dy, *scale, *mean, *inv_std, *var;
  float *dx, *dscale, *dbias;
  float eps;
  int global;
  int64_t outer, c, inner;
  const double *gsums; /* synced: every place's sum(dy), sum(dy * xhat) (rt_batch_norm_grad_sums) */
  double count;        /* and every place's elements per channel */
} BnGradJob;

static void bn_grad_channels(void *ctx, int64_t lo, int64_t hi) {
  const BnGradJob *j = ctx;
  const int64_t c = j->c, inner = j->inner, n = j->outer * inner;
  for (int64_t ch = lo; ch < hi; ch++) {
    const float mean = j->mean[ch];
    const float inv = j->global ? 1.0f / sqrtf(j->var[ch] + j->eps) : j->inv_std[ch];
    double sdy = 0.0, sdxm = 0.0;
    for (int64_t o = 0; o < j->outer; o++) {
      const float *xp = j->x + (o * c + ch) * inner, *dp = j->dy + (o * c + ch) * inner;
      for (int64_t i = 0; i < inner; i++) {
        sdy += dp[i];
        sdxm += (double)((xp[i] - mean) * inv) * dp[i];
      }
    }
    if (j->dbias) j->dbias[ch] = (float)sdy, j->dscale[ch] = (float)sdxm; /* this place's */
    if (!j->dx) continue;
    const float dy_sum = (float)(j->gsums ? j->gsums[ch] : sdy), dxm_sum = (float)(j->gsums ? j->gsums[j->c + ch] : sdxm);
    const float fn = (float)(j->gsums ? j->count : (double)n);
    const float sc = j->scale ? j->scale[ch] : 1.0f;
    const float k = sc * inv / (j->global ? 1.0f : fn);
    for (int64_t o = 0; o < j->outer; o++) {
      const float *xp = j->x + (o * c + ch) * inner, *dp = j->dy + (o * c + ch) * inner;
      float *gp = j->dx + (o * c + ch) * inner;
      if (j->global)
        for (int64_t i = 0; i < inner; i++) gp[i] = k * dp[i];
      else
        for (int64_t i = 0; i < inner; i++) gp[i] = k * (dp[i] * fn - dy_sum - (xp[i] - mean) * dxm_sum * inv);
    }
  }
}

void rt_batch_norm_grad(const float *x, const float *dy, const float *scale, const float *mean, const float *inv_std,
                        const float *var, float eps, int64_t outer, int64_t c, int64_t inner, float *dx,
                        float *dscale, float *dbias) {
  const int global = var != NULL;
  if (dx && !global && outer * inner == 1) { /* phi: dx = dy, zero dscale and dbias */
    for (int64_t i = 0; i < c; i++) {
      dx[i] = dy[i];
      if (dbias) dbias[i] = dscale[i] = 0.0f;
    }
    return;
  }
  BnGradJob j = {x, dy, scale, mean, inv_std, var, dx, dscale, dbias, eps, global, outer, c, inner, NULL, 0.0};
  rt_parallel_range(c, outer * c * inner * 3, bn_grad_channels, &j);
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

/* ---- layer_norm's gradient ---- */

typedef struct LnGradJob {
  const float *x, *dy, *mean, *var, *scale;
  float eps;
  int64_t cols;
  float *dx;
} LnGradJob;

/* Rows [lo, hi) of X@GRAD, with phi's steps: t = dy (* scale), dx = t -
 * mean(t), dx -= xn * mean(t * xn), dx /= sqrt(var + eps), xn = (x - mean)
 * / sqrt(var + eps); the row means in double. */
static void ln_grad_rows(void *ctx, int64_t lo, int64_t hi) {
  const LnGradJob *j = ctx;
  const int64_t n = j->cols;
  for (int64_t r = lo; r < hi; r++) {
    const float *xr = j->x + r * n, *dr = j->dy + r * n;
    float *gr = j->dx + r * n;
    const float m = j->mean[r], sd = sqrtf(j->var[r] + j->eps);
    double st = 0.0, stn = 0.0;
    for (int64_t i = 0; i < n; i++) {
      const float t = j->scale ? dr[i] * j->scale[i] : dr[i], xn = (xr[i] - m) / sd;
      st += t;
      stn += (double)(t * xn);
    }
    const float mt = (float)(st / (double)n), mtn = (float)(stn / (double)n);
    for (int64_t i = 0; i < n; i++) {
      const float t = j->scale ? dr[i] * j->scale[i] : dr[i], xn = (xr[i] - m) / sd;
      gr[i] = ((t - mt) - xn * mtn) / sd;
    }
  }
}

void rt_layer_norm_grad(const float *x, const float *dy, const float *mean, const float *var, const float *scale,
                        float eps, int64_t rows, int64_t cols, float *dx, float *dscale, float *dbias) {
  if (dscale || dbias) { /* column sums in row order (phi's ColwiseSum2D) */
    for (int64_t i = 0; i < cols; i++) {
      if (dscale) dscale[i] = 0.0f;
      if (dbias) dbias[i] = 0.0f;
    }
    for (int64_t r = 0; r < rows; r++) {
      const float *xr = x + r * cols, *dr = dy + r * cols;
      const float m = mean[r], sd = sqrtf(var[r] + eps);
      for (int64_t i = 0; i < cols; i++) {
        if (dbias) dbias[i] += dr[i];
        if (dscale) dscale[i] += (xr[i] - m) / sd * dr[i];
      }
    }
  }
  if (!dx) return;
  LnGradJob j = {x, dy, mean, var, scale, eps, cols, dx};
  rt_parallel_range(rows, rows * cols * 4, ln_grad_rows, &j);
}

/* ---- group_norm's gradient ----
 * phi GroupNormGradKernel step by step, from Y (the normalized X is
 * rebuilt as (y - bias) / scale), in float and in its order: per image and
 * group, dp_scale = sum((y - bias) * dy), dp_bias = sum(dy * scale) (0 when
 * there is no Scale, as there), then dx = (dy * scale - dp_scale * xhat / n
 * - dp_bias / n) / sqrt(var + eps); Scale@GRAD and Bias@GRAD accumulate
 * over the images in order. */
void rt_group_norm_grad(const float *y, const float *dy, const float *scale, const float *bias, const float *var,
                        float eps, int64_t n, int64_t c, int64_t groups, int64_t inner, int channel_last, float *dx,
                        float *dscale, float *dbias) {
  const int64_t gs = c / groups;
  for (int64_t i = 0; i < c; i++) {
    if (dscale) dscale[i] = 0.0f;
    if (dbias) dbias[i] = 0.0f;
  }
  for (int64_t b = 0; b < n; b++)
    for (int64_t g = 0; g < groups; g++) {
      const float var_inv = (float)(1.0 / (double)sqrtf(var[b * groups + g] + eps));
      const float number_inv = (float)(1.0 / (double)(gs * inner));
      float dp_scale = 0.0f, dp_bias = 0.0f;
      for (int64_t k = 0; k < gs; k++) {
        const int64_t ch = g * gs + k;
        for (int64_t i = 0; i < inner; i++) {
          const int64_t at = channel_last ? (b * inner + i) * c + ch : (b * c + ch) * inner + i;
          float val = y[at];
          if (bias) val -= bias[ch];
          const float dval = dy[at];
          dp_scale += val * dval;
          if (scale) dp_bias += dval * scale[ch];
          if (scale && scale[ch] != 0.0f) val /= scale[ch];
          if (dbias) dbias[ch] += dval;
          if (dscale) dscale[ch] += val * dval;
        }
      }
      if (!dx) continue;
      for (int64_t k = 0; k < gs; k++) {
        const int64_t ch = g * gs + k;
        const float s = scale ? scale[ch] : 1.0f, bi = bias ? bias[ch] : 0.0f;
        for (int64_t i = 0; i < inner; i++) {
          const int64_t at = channel_last ? (b * inner + i) * c + ch : (b * c + ch) * inner + i;
          float v = y[at] - bi;
          if (s != 0.0f) v /= s;
          dx[at] = (dy[at] * s - number_inv * dp_scale * v - number_inv * dp_bias) * var_inv;
        }
      }
    }
}

/* ---- instance_norm's gradient ----
 * phi InstanceNormGradKernel: per image and channel plane, t = (x - mean)
 * * inv_std, dx = scale * inv_std * (dy - mean(dy) - t * mean(dy * t));
 * Bias@GRAD and Scale@GRAD sum each plane's dy and dy * t, then the planes
 * over the images in order. */
void rt_instance_norm_grad(const float *x, const float *dy, const float *scale, const float *mean,
                           const float *inv_std, int64_t n, int64_t c, int64_t inner, float *dx, float *dscale,
                           float *dbias) {
  if (dscale)
    for (int64_t i = 0; i < c; i++) dscale[i] = dbias[i] = 0.0f;
  for (int64_t nc = 0; nc < n * c; nc++) {
    const float *xp = x + nc * inner, *dp = dy + nc * inner;
    const float m = mean[nc], inv = inv_std[nc];
    double sdy = 0.0, sdyt = 0.0;
    for (int64_t i = 0; i < inner; i++) {
      sdy += dp[i];
      sdyt += (double)(dp[i] * ((xp[i] - m) * inv));
    }
    if (dscale) {
      dbias[nc % c] += (float)sdy;
      dscale[nc % c] += (float)sdyt;
    }
    if (!dx) continue;
    const float k = (scale ? scale[nc % c] : 1.0f) * inv;
    const float mdy = (float)(sdy / (double)inner), mdyt = (float)(sdyt / (double)inner);
    float *gp = dx + nc * inner;
    for (int64_t i = 0; i < inner; i++) gp[i] = k * (dp[i] - mdy - (xp[i] - m) * inv * mdyt);
  }
}

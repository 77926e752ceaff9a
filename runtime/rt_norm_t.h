/* The normalization kernels of rt_norm.c for one element type, included
 * once per type (a template in the preprocessor's way).  The includer
 * defines:
 *   NT        the element type (float or double)
 *   NF(name)  a kernel's or helper's name for that type (rt_batch_norm,
 *             rt_batch_norm_f64)
 *   NSQRT     NT's square root
 *   NSUM, NSQDEV  the double sum of n NTs, and of their squared deviations
 *             from a double mean
 * epsilon and momentum are float attributes in either type (Paddle's double
 * kernels widen them).  Every float expression here is the one the float
 * kernels always had; the double instance computes the same steps in
 * double, as Paddle's double kernels do.  No include guard: meant to be
 * included more than once. */

typedef struct NF(NormJob) {
  const NT *x;             /* input */
  NT *y;                   /* output */
  const NT *scale, *bias;  /* per column (layer_norm) or channel */
  const NT *mean, *var;    /* batch_norm statistics */
  float eps;               /* epsilon */
  int64_t outer, c, inner; /* the view: [outer, c, inner] (layer_norm: [rows, cols, 1]) */
  NT *mean_out, *var_out;  /* layer_norm: each row's mean and variance, or NULL */
} NF(NormJob);

/* Rows [lo, hi) of the [outer * c] planes of `inner` elements: y = x * s + b
 * with the plane's channel's s and b (batch_norm's from its statistics). */
static void NF(affine_rows)(void *ctx, int64_t lo, int64_t hi) {
  const NF(NormJob) *j = ctx;
  for (int64_t r = lo; r < hi; r++) {
    const int64_t ch = r % j->c;
    NT s = j->scale ? j->scale[ch] : (NT)1, b = j->bias ? j->bias[ch] : (NT)0;
    if (j->var) { /* Paddle's inference form: y = x * (scale / sqrt(var + eps)) + (bias - mean * that) */
      s = s / NSQRT(j->var[ch] + j->eps);
      b = b - j->mean[ch] * s;
    }
    const NT *xp = j->x + r * j->inner;
    NT *yp = j->y + r * j->inner;
    for (int64_t i = 0; i < j->inner; i++) yp[i] = xp[i] * s + b;
  }
}

void NF(rt_batch_norm)(const NT *x, NT *y, const NT *scale, const NT *bias, const NT *mean, const NT *var, float eps,
                       int64_t outer, int64_t c, int64_t inner) {
  NF(NormJob) j = {x, y, scale, bias, mean, var, eps, outer, c, inner, NULL, NULL};
  rt_parallel_range(outer * c, outer * c * inner, NF(affine_rows), &j);
}

void NF(rt_channel_affine)(const NT *x, NT *y, const NT *scale, const NT *bias, int64_t outer, int64_t c,
                           int64_t inner) {
  NF(NormJob) j = {.x = x, .y = y, .scale = scale, .bias = bias, .outer = outer, .c = c, .inner = inner};
  rt_parallel_range(outer * c, outer * c * inner, NF(affine_rows), &j);
}

/* Mean, biased variance and 1 / sqrt(variance + eps) of n elements (two
 * passes, in double). */
static void NF(moments)(const NT *x, int64_t n, float eps, NT *mean, NT *var, NT *inv_std) {
  const double m = NSUM(x, n) / (double)n, v = NSQDEV(x, n, m) / (double)n;
  *mean = (NT)m;
  *var = (NT)v;
  *inv_std = (NT)(1.0 / sqrt(v + (double)eps));
}

static void NF(layer_norm_rows)(void *ctx, int64_t lo, int64_t hi) {
  const NF(NormJob) *j = ctx;
  const int64_t cols = j->c;
  for (int64_t r = lo; r < hi; r++) {
    const NT *xr = j->x + r * cols;
    NT *yr = j->y + r * cols;
    NT mean, var, inv;
    NF(moments)(xr, cols, j->eps, &mean, &var, &inv);
    if (j->mean_out) j->mean_out[r] = mean;
    if (j->var_out) j->var_out[r] = var;
    for (int64_t i = 0; i < cols; i++) {
      NT v = (xr[i] - mean) * inv;
      if (j->scale) v *= j->scale[i];
      if (j->bias) v += j->bias[i];
      yr[i] = v;
    }
  }
}

void NF(rt_layer_norm)(const NT *x, NT *y, const NT *scale, const NT *bias, float eps, int64_t rows, int64_t cols,
                       NT *mean, NT *var) {
  NF(NormJob) j = {.x = x, .y = y, .scale = scale, .bias = bias, .eps = eps, .outer = rows, .c = cols, .inner = 1,
                   .mean_out = mean, .var_out = var};
  rt_parallel_range(rows, rows * cols * 3, NF(layer_norm_rows), &j);
}

void NF(rt_group_norm)(const NT *x, NT *y, const NT *scale, const NT *bias, float eps, int64_t n, int64_t c,
                       int64_t groups, int64_t inner, NT *mean_out, NT *var_out, NT *inv_std_out) {
  const int64_t cg = c / groups, len = cg * inner;
  for (int64_t ng = 0; ng < n * groups; ng++) {
    const NT *xg = x + ng * len;
    NT *yg = y + ng * len;
    NT mean, var, inv;
    NF(moments)(xg, len, eps, &mean, &var, &inv);
    if (mean_out) mean_out[ng] = mean;
    if (var_out) var_out[ng] = var;
    if (inv_std_out) inv_std_out[ng] = inv;
    for (int64_t k = 0; k < cg; k++) {
      const int64_t ch = (ng % groups) * cg + k;
      const NT s = scale ? scale[ch] * inv : inv, b = (bias ? bias[ch] : (NT)0) - mean * s;
      for (int64_t i = 0; i < inner; i++) yg[k * inner + i] = xg[k * inner + i] * s + b;
    }
  }
}

/* ---- batch_norm in training and its gradient ----
 * One task per range of channels: each channel's sums run over the
 * [outer, inner] elements of that channel in memory order (in double), so
 * every result is the same whatever the threads. */

typedef struct NF(BnTrainJob) {
  const NT *x, *scale, *bias, *mean_in, *var_in;
  NT *y, *mean_out, *var_out, *saved_mean, *saved_inv_std;
  float eps, momentum;
  int64_t outer, c, inner;
  const double *sums; /* synced: every place's sums (rt_batch_norm_sums), else NULL */
} NF(BnTrainJob);

static void NF(bn_train_channels)(void *ctx, int64_t lo, int64_t hi) {
  const NF(BnTrainJob) *j = ctx;
  const int64_t c = j->c, inner = j->inner, n = j->outer * inner;
  for (int64_t ch = lo; ch < hi; ch++) {
    NT mean, var;
    if (j->sums) { /* E[x^2] - mean^2 over every place's elements */
      const double m = j->sums[ch] / j->sums[2 * c], q = j->sums[c + ch] / j->sums[2 * c] - m * m;
      mean = (NT)m;
      var = (NT)(q > 0.0 ? q : 0.0);
    } else {
      double s = 0.0;
      for (int64_t o = 0; o < j->outer; o++) s += NSUM(j->x + (o * c + ch) * inner, inner);
      mean = (NT)(s / (double)n);
      double q = 0.0;
      for (int64_t o = 0; o < j->outer; o++) q += NSQDEV(j->x + (o * c + ch) * inner, inner, mean);
      var = (NT)(q / (double)n);
    }
    /* phi: saved_inv_std = (var + eps).inverse().sqrt() */
    const NT inv = NSQRT((NT)1 / (var + j->eps));
    j->saved_mean[ch] = mean;
    j->saved_inv_std[ch] = inv;
    j->mean_out[ch] = j->mean_in[ch] * j->momentum + mean * ((NT)1 - j->momentum);
    j->var_out[ch] = j->var_in[ch] * j->momentum + var * ((NT)1 - j->momentum);
    const NT sc = j->scale ? j->scale[ch] : (NT)1, bi = j->bias ? j->bias[ch] : (NT)0;
    const NT k = inv * sc, b = bi - mean * inv * sc; /* phi's new_scale, new_bias */
    for (int64_t o = 0; o < j->outer; o++) {
      const NT *xp = j->x + (o * c + ch) * inner;
      NT *yp = j->y + (o * c + ch) * inner;
      for (int64_t i = 0; i < inner; i++) yp[i] = xp[i] * k + b;
    }
  }
}

void NF(rt_batch_norm_train)(const NT *x, NT *y, const NT *scale, const NT *bias, const NT *mean_in, const NT *var_in,
                             float eps, float momentum, int64_t outer, int64_t c, int64_t inner, NT *mean_out,
                             NT *var_out, NT *saved_mean, NT *saved_inv_std) {
  if (outer * inner == 1) { /* phi: one element per channel: y = x, saved 0, running statistics untouched */
    for (int64_t i = 0; i < c; i++) {
      y[i] = x[i];
      saved_mean[i] = saved_inv_std[i] = (NT)0;
      mean_out[i] = mean_in[i];
      var_out[i] = var_in[i];
    }
    return;
  }
  NF(BnTrainJob) j = {x, scale, bias, mean_in, var_in, y, mean_out, var_out, saved_mean, saved_inv_std,
                      eps, momentum, outer, c, inner, NULL};
  rt_parallel_range(c, outer * c * inner * 3, NF(bn_train_channels), &j);
}

typedef struct NF(BnGradJob) {
  const NT *x, *dy, *scale, *mean, *inv_std, *var;
  NT *dx, *dscale, *dbias;
  float eps;
  int global;
  int64_t outer, c, inner;
  const double *gsums; /* synced: every place's sum(dy), sum(dy * xhat) (rt_batch_norm_grad_sums) */
  double count;        /* and every place's elements per channel */
} NF(BnGradJob);

static void NF(bn_grad_channels)(void *ctx, int64_t lo, int64_t hi) {
  const NF(BnGradJob) *j = ctx;
  const int64_t c = j->c, inner = j->inner, n = j->outer * inner;
  for (int64_t ch = lo; ch < hi; ch++) {
    const NT mean = j->mean[ch];
    const NT inv = j->global ? (NT)1 / NSQRT(j->var[ch] + j->eps) : j->inv_std[ch];
    double sdy = 0.0, sdxm = 0.0;
    for (int64_t o = 0; o < j->outer; o++) {
      const NT *xp = j->x + (o * c + ch) * inner, *dp = j->dy + (o * c + ch) * inner;
      for (int64_t i = 0; i < inner; i++) {
        sdy += dp[i];
        sdxm += (double)((xp[i] - mean) * inv) * dp[i];
      }
    }
    if (j->dbias) j->dbias[ch] = (NT)sdy, j->dscale[ch] = (NT)sdxm; /* this place's */
    if (!j->dx) continue;
    const NT dy_sum = (NT)(j->gsums ? j->gsums[ch] : sdy), dxm_sum = (NT)(j->gsums ? j->gsums[j->c + ch] : sdxm);
    const NT fn = (NT)(j->gsums ? j->count : (double)n);
    const NT sc = j->scale ? j->scale[ch] : (NT)1;
    const NT k = sc * inv / (j->global ? (NT)1 : fn);
    for (int64_t o = 0; o < j->outer; o++) {
      const NT *xp = j->x + (o * c + ch) * inner, *dp = j->dy + (o * c + ch) * inner;
      NT *gp = j->dx + (o * c + ch) * inner;
      if (j->global)
        for (int64_t i = 0; i < inner; i++) gp[i] = k * dp[i];
      else
        for (int64_t i = 0; i < inner; i++) gp[i] = k * (dp[i] * fn - dy_sum - (xp[i] - mean) * dxm_sum * inv);
    }
  }
}

void NF(rt_batch_norm_grad)(const NT *x, const NT *dy, const NT *scale, const NT *mean, const NT *inv_std,
                            const NT *var, float eps, int64_t outer, int64_t c, int64_t inner, NT *dx, NT *dscale,
                            NT *dbias) {
  const int global = var != NULL;
  if (dx && !global && outer * inner == 1) { /* phi: dx = dy, zero dscale and dbias */
    for (int64_t i = 0; i < c; i++) {
      dx[i] = dy[i];
      if (dbias) dbias[i] = dscale[i] = (NT)0;
    }
    return;
  }
  NF(BnGradJob) j = {x, dy, scale, mean, inv_std, var, dx, dscale, dbias, eps, global, outer, c, inner, NULL, 0.0};
  rt_parallel_range(c, outer * c * inner * 3, NF(bn_grad_channels), &j);
}

/* ---- sync_batch_norm: the sums of this place, the synced kernels ----
 * (rt_cnn.h).  Sums in double in both types, as Paddle's GPU kernel keeps
 * them in its BatchNormParamType (float for float, double for double). */

void NF(rt_batch_norm_sums)(const NT *x, int64_t outer, int64_t c, int64_t inner, double *sums) {
  for (int64_t ch = 0; ch < c; ch++) {
    double s = 0.0, q = 0.0;
    for (int64_t o = 0; o < outer; o++) {
      const NT *xp = x + (o * c + ch) * inner;
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

void NF(rt_batch_norm_train_synced)(const NT *x, NT *y, const NT *scale, const NT *bias, const NT *mean_in,
                                    const NT *var_in, float eps, float momentum, int64_t outer, int64_t c,
                                    int64_t inner, const double *sums, NT *mean_out, NT *var_out, NT *saved_mean,
                                    NT *saved_inv_std) {
  NF(BnTrainJob) j = {x, scale, bias, mean_in, var_in, y, mean_out, var_out, saved_mean, saved_inv_std,
                      eps, momentum, outer, c, inner, sums};
  rt_parallel_range(c, outer * c * inner * 2, NF(bn_train_channels), &j);
}

void NF(rt_batch_norm_grad_sums)(const NT *x, const NT *dy, const NT *mean, const NT *inv_std, int64_t outer,
                                 int64_t c, int64_t inner, double *sums) {
  for (int64_t ch = 0; ch < c; ch++) {
    double sdy = 0.0, sdxm = 0.0;
    for (int64_t o = 0; o < outer; o++) {
      const NT *xp = x + (o * c + ch) * inner, *dp = dy + (o * c + ch) * inner;
      for (int64_t i = 0; i < inner; i++) {
        sdy += dp[i];
        sdxm += (double)((xp[i] - mean[ch]) * inv_std[ch]) * dp[i];
      }
    }
    sums[ch] = sdy;
    sums[c + ch] = sdxm;
  }
}

void NF(rt_batch_norm_grad_synced)(const NT *x, const NT *dy, const NT *scale, const NT *mean, const NT *inv_std,
                                   int64_t outer, int64_t c, int64_t inner, const double *gsums, const double *sums,
                                   NT *dx, NT *dscale, NT *dbias) {
  NF(BnGradJob) j = {x, dy, scale, mean, inv_std, NULL, dx, dscale, dbias, 0.0f, 0, outer, c, inner, gsums,
                     sums[2 * c]};
  rt_parallel_range(c, outer * c * inner * 3, NF(bn_grad_channels), &j);
}

/* ---- layer_norm's gradient ---- */

typedef struct NF(LnGradJob) {
  const NT *x, *dy, *mean, *var, *scale;
  float eps;
  int64_t cols;
  NT *dx;
} NF(LnGradJob);

/* Rows [lo, hi) of X@GRAD, with phi's steps: t = dy (* scale), dx = t -
 * mean(t), dx -= xn * mean(t * xn), dx /= sqrt(var + eps), xn = (x - mean)
 * / sqrt(var + eps); the row means in double. */
static void NF(ln_grad_rows)(void *ctx, int64_t lo, int64_t hi) {
  const NF(LnGradJob) *j = ctx;
  const int64_t n = j->cols;
  for (int64_t r = lo; r < hi; r++) {
    const NT *xr = j->x + r * n, *dr = j->dy + r * n;
    NT *gr = j->dx + r * n;
    const NT m = j->mean[r], sd = NSQRT(j->var[r] + j->eps);
    double st = 0.0, stn = 0.0;
    for (int64_t i = 0; i < n; i++) {
      const NT t = j->scale ? dr[i] * j->scale[i] : dr[i], xn = (xr[i] - m) / sd;
      st += t;
      stn += (double)(t * xn);
    }
    const NT mt = (NT)(st / (double)n), mtn = (NT)(stn / (double)n);
    for (int64_t i = 0; i < n; i++) {
      const NT t = j->scale ? dr[i] * j->scale[i] : dr[i], xn = (xr[i] - m) / sd;
      gr[i] = ((t - mt) - xn * mtn) / sd;
    }
  }
}

void NF(rt_layer_norm_grad)(const NT *x, const NT *dy, const NT *mean, const NT *var, const NT *scale, float eps,
                            int64_t rows, int64_t cols, NT *dx, NT *dscale, NT *dbias) {
  if (dscale || dbias) { /* column sums in row order (phi's ColwiseSum2D) */
    for (int64_t i = 0; i < cols; i++) {
      if (dscale) dscale[i] = (NT)0;
      if (dbias) dbias[i] = (NT)0;
    }
    for (int64_t r = 0; r < rows; r++) {
      const NT *xr = x + r * cols, *dr = dy + r * cols;
      const NT m = mean[r], sd = NSQRT(var[r] + eps);
      for (int64_t i = 0; i < cols; i++) {
        if (dbias) dbias[i] += dr[i];
        if (dscale) dscale[i] += (xr[i] - m) / sd * dr[i];
      }
    }
  }
  if (!dx) return;
  NF(LnGradJob) j = {x, dy, mean, var, scale, eps, cols, dx};
  rt_parallel_range(rows, rows * cols * 4, NF(ln_grad_rows), &j);
}

/* ---- group_norm's gradient ----
 * phi GroupNormGradKernel step by step, from Y (the normalized X is
 * rebuilt as (y - bias) / scale), in NT and in its order: per image and
 * group, dp_scale = sum((y - bias) * dy), dp_bias = sum(dy * scale) (0 when
 * there is no Scale, as there), then dx = (dy * scale - dp_scale * xhat / n
 * - dp_bias / n) / sqrt(var + eps); Scale@GRAD and Bias@GRAD accumulate
 * over the images in order. */
void NF(rt_group_norm_grad)(const NT *y, const NT *dy, const NT *scale, const NT *bias, const NT *var, float eps,
                            int64_t n, int64_t c, int64_t groups, int64_t inner, int channel_last, NT *dx, NT *dscale,
                            NT *dbias) {
  const int64_t gs = c / groups;
  for (int64_t i = 0; i < c; i++) {
    if (dscale) dscale[i] = (NT)0;
    if (dbias) dbias[i] = (NT)0;
  }
  for (int64_t b = 0; b < n; b++)
    for (int64_t g = 0; g < groups; g++) {
      const NT var_inv = (NT)(1.0 / (double)NSQRT(var[b * groups + g] + eps));
      const NT number_inv = (NT)(1.0 / (double)(gs * inner));
      NT dp_scale = (NT)0, dp_bias = (NT)0;
      for (int64_t k = 0; k < gs; k++) {
        const int64_t ch = g * gs + k;
        for (int64_t i = 0; i < inner; i++) {
          const int64_t at = channel_last ? (b * inner + i) * c + ch : (b * c + ch) * inner + i;
          NT val = y[at];
          if (bias) val -= bias[ch];
          const NT dval = dy[at];
          dp_scale += val * dval;
          if (scale) dp_bias += dval * scale[ch];
          if (scale && scale[ch] != (NT)0) val /= scale[ch];
          if (dbias) dbias[ch] += dval;
          if (dscale) dscale[ch] += val * dval;
        }
      }
      if (!dx) continue;
      for (int64_t k = 0; k < gs; k++) {
        const int64_t ch = g * gs + k;
        const NT s = scale ? scale[ch] : (NT)1, bi = bias ? bias[ch] : (NT)0;
        for (int64_t i = 0; i < inner; i++) {
          const int64_t at = channel_last ? (b * inner + i) * c + ch : (b * c + ch) * inner + i;
          NT v = y[at] - bi;
          if (s != (NT)0) v /= s;
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
void NF(rt_instance_norm_grad)(const NT *x, const NT *dy, const NT *scale, const NT *mean, const NT *inv_std, int64_t n,
                               int64_t c, int64_t inner, NT *dx, NT *dscale, NT *dbias) {
  if (dscale)
    for (int64_t i = 0; i < c; i++) dscale[i] = dbias[i] = (NT)0;
  for (int64_t nc = 0; nc < n * c; nc++) {
    const NT *xp = x + nc * inner, *dp = dy + nc * inner;
    const NT m = mean[nc], inv = inv_std[nc];
    double sdy = 0.0, sdyt = 0.0;
    for (int64_t i = 0; i < inner; i++) {
      sdy += dp[i];
      sdyt += (double)(dp[i] * ((xp[i] - m) * inv));
    }
    if (dscale) {
      dbias[nc % c] += (NT)sdy;
      dscale[nc % c] += (NT)sdyt;
    }
    if (!dx) continue;
    const NT k = (scale ? scale[nc % c] : (NT)1) * inv;
    const NT mdy = (NT)(sdy / (double)inner), mdyt = (NT)(sdyt / (double)inner);
    NT *gp = dx + nc * inner;
    for (int64_t i = 0; i < inner; i++) gp[i] = k * (dp[i] - mdy - (xp[i] - m) * inv * mdyt);
  }
}

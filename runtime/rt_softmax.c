/* Softmax and log-softmax over the middle dim of a [outer, n, inner] view,
 * numerically stable (the max is subtracted first, the difference clipped
 * below at -64: rt_softmax_shift), as Paddle computes them, with exp as
 * Eigen's vectorized exp (rt_vmath.h); float64 with libm's exp. */
#include <math.h>
#include <string.h>

#include "rt_kernels.h"
#include "rt_parallel.h"
#include "rt_vmath.h"

typedef struct SoftmaxJob {
  const float *x;          /* input */
  float *out;              /* output */
  int64_t n, inner;        /* the softmax dim and what follows it */
  int log_out;             /* log_softmax */
} SoftmaxJob;

/* out = softmax(x) (or log_softmax) of one contiguous row; out may be x.
 * The loops run in place on out: with two pointers that may overlap,
 * compilers keep the in-place call on their scalar fallback. */
static void softmax_row(const float *x, float *out, int64_t n, int log_out) {
  if (out != x) memcpy(out, x, (size_t)n * sizeof *out);
  float *r = out;
  const float mx = rt_max_f32(r, n);
  if (log_out) {
    float acc[RT_LANES] = {0}; /* the sum of exp(r - mx), lane by lane (rt_vmath.h) */
    int64_t k = 0;
    for (; k + RT_LANES <= n; k += RT_LANES)
      for (int l = 0; l < RT_LANES; l++) acc[l] += rt_expf(rt_softmax_shift(r[k + l], mx));
    for (int l = 0; k + l < n; l++) acc[l] += rt_expf(rt_softmax_shift(r[k + l], mx));
    const float ls = logf(rt_sum_f32(acc, RT_LANES));
    for (k = 0; k < n; k++) r[k] = rt_softmax_shift(r[k], mx) - ls;
    return;
  }
  const float inv = 1.0f / rt_exp_sub_sum(r, n, mx);
  for (int64_t k = 0; k < n; k++) r[k] *= inv;
}

void rt_softmax_row(const float *x, float *out, int64_t n) { softmax_row(x, out, n, 0); }

/* Rows [lo, hi) of the outer dim. */
static void softmax_rows(void *ctx, int64_t lo, int64_t hi) {
  const SoftmaxJob *j = ctx;
  const int64_t n = j->n, inner = j->inner;
  for (int64_t o = lo; o < hi; o++) {
    if (inner == 1) {
      softmax_row(j->x + o * n, j->out + o * n, n, j->log_out);
      continue;
    }
    for (int64_t i = 0; i < inner; i++) {
      const float *xp = j->x + o * n * inner + i;
      float *op = j->out + o * n * inner + i;
      float mx = xp[0];
      for (int64_t k = 1; k < n; k++) mx = xp[k * inner] > mx ? xp[k * inner] : mx;
      float sum = 0.0f;
      for (int64_t k = 0; k < n; k++) {
        float v = rt_expf(rt_softmax_shift(xp[k * inner], mx));
        sum += v;
        if (!j->log_out) op[k * inner] = v;
      }
      if (j->log_out) {
        float ls = logf(sum);
        for (int64_t k = 0; k < n; k++) op[k * inner] = rt_softmax_shift(xp[k * inner], mx) - ls;
      } else {
        float inv = 1.0f / sum;
        for (int64_t k = 0; k < n; k++) op[k * inner] *= inv;
      }
    }
  }
}

static void softmax_impl(const float *x, float *out, int64_t outer, int64_t n, int64_t inner, int log_out) {
  if (outer * n * inner == 0) return; /* an empty tensor: nothing to read or write */
  SoftmaxJob j = {x, out, n, inner, log_out};
  rt_parallel_range(outer, outer * n * inner * 4, softmax_rows, &j);
}

void rt_softmax(const float *x, float *out, int64_t outer, int64_t n, int64_t inner) {
  softmax_impl(x, out, outer, n, inner, 0);
}

void rt_log_softmax(const float *x, float *out, int64_t outer, int64_t n, int64_t inner) {
  softmax_impl(x, out, outer, n, inner, 1);
}

/* float64, as Paddle's Eigen SoftmaxFunctor / LogSoftmaxFunctor for double
 * compute each line of n elements: s = x - max clipped below at -64 (their
 * ValueClip), then softmax e = exp(s), out = e * (1 / sum(e)); log_softmax
 * out = s - log(sum(exp(s))); the sums in order along the line.  out may
 * be x. */
typedef struct SoftmaxJob64 {
  const double *x;
  double *out;
  int64_t n, inner;
  int log_out;
} SoftmaxJob64;

static double shift64(double v, double mx) {
  const double s = v - mx;
  return s < -64.0 ? -64.0 : s;
}

/* sum(exp(shift64(x[k * r], mx))) over k < n, in order (n >= 1). */
static double exp_sum64(const double *x, int64_t n, int64_t r, double mx) {
  double sum = exp(shift64(x[0], mx));
  for (int64_t k = 1; k < n; k++) sum += exp(shift64(x[k * r], mx));
  return sum;
}

static void softmax_rows_f64(void *ctx, int64_t lo, int64_t hi) {
  const SoftmaxJob64 *j = ctx;
  const int64_t n = j->n, r = j->inner;
  for (int64_t o = lo; o < hi; o++) {
    for (int64_t i = 0; i < r; i++) {
      const double *x = j->x + o * n * r + i;
      double *out = j->out + o * n * r + i;
      double mx = x[0];
      for (int64_t k = 1; k < n; k++) mx = x[k * r] > mx ? x[k * r] : mx;
      if (j->log_out) {
        const double ls = log(exp_sum64(x, n, r, mx));
        for (int64_t k = 0; k < n; k++) out[k * r] = shift64(x[k * r], mx) - ls;
      } else {
        double sum = 0.0;
        for (int64_t k = 0; k < n; k++) sum += out[k * r] = exp(shift64(x[k * r], mx));
        const double inv = 1.0 / sum;
        for (int64_t k = 0; k < n; k++) out[k * r] *= inv;
      }
    }
  }
}

static void softmax_f64(const double *x, double *out, int64_t outer, int64_t n, int64_t inner, int log_out) {
  if (outer * n * inner == 0) return; /* an empty tensor: nothing to read or write */
  SoftmaxJob64 j = {x, out, n, inner, log_out};
  rt_parallel_range(outer, outer * n * inner * 4, softmax_rows_f64, &j);
}

void rt_softmax_f64(const double *x, double *out, int64_t outer, int64_t n, int64_t inner) {
  softmax_f64(x, out, outer, n, inner, 0);
}

void rt_log_softmax_f64(const double *x, double *out, int64_t outer, int64_t n, int64_t inner) {
  softmax_f64(x, out, outer, n, inner, 1);
}

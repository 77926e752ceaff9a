/* Row reductions and exp written so that compilers vectorize them, in a
 * fixed order (the result is the same on every run and for every thread
 * count: a row is always reduced by one thread, lane by lane).
 *
 * A reduction such as `for (i) sum += x[i]` is a chain of dependent adds:
 * without -ffast-math no compiler may reorder it, so it runs one add per
 * add latency.  Here the row is reduced in RT_LANES interleaved partial
 * results (lane l takes x[l], x[l + RT_LANES], ...), combined at the end in
 * lane order; the lanes become vector registers. */
#ifndef PADDLEC_RT_VMATH_H
#define PADDLEC_RT_VMATH_H

#include <math.h>
#include <stdint.h>

enum { RT_LANES = 16 };

/* The sum of x[0..n) in double. */
static inline double rt_sum_f64(const float *x, int64_t n) {
  double acc[RT_LANES] = {0};
  int64_t i = 0;
  for (; i + RT_LANES <= n; i += RT_LANES)
    for (int l = 0; l < RT_LANES; l++) acc[l] += (double)x[i + l];
  for (int l = 0; i + l < n; l++) acc[l] += (double)x[i + l];
  double s = 0.0;
  for (int l = 0; l < RT_LANES; l++) s += acc[l];
  return s;
}

/* The sum of (x[i] - m)^2 over x[0..n), in double. */
static inline double rt_sqdev_f64(const float *x, int64_t n, double m) {
  double acc[RT_LANES] = {0};
  int64_t i = 0;
  for (; i + RT_LANES <= n; i += RT_LANES)
    for (int l = 0; l < RT_LANES; l++) {
      const double d = (double)x[i + l] - m;
      acc[l] += d * d;
    }
  for (int l = 0; i + l < n; l++) {
    const double d = (double)x[i + l] - m;
    acc[l] += d * d;
  }
  double s = 0.0;
  for (int l = 0; l < RT_LANES; l++) s += acc[l];
  return s;
}

/* The sum of x[0..n) in float (as Paddle's float kernels accumulate). */
static inline float rt_sum_f32(const float *x, int64_t n) {
  float acc[RT_LANES] = {0};
  int64_t i = 0;
  for (; i + RT_LANES <= n; i += RT_LANES)
    for (int l = 0; l < RT_LANES; l++) acc[l] += x[i + l];
  for (int l = 0; i + l < n; l++) acc[l] += x[i + l];
  float s = 0.0f;
  for (int l = 0; l < RT_LANES; l++) s += acc[l];
  return s;
}

/* The largest of x[0..n), n >= 1 (a NaN is passed over unless x[0] is one,
 * as the sequential `x[i] > mx ? x[i] : mx` does). */
static inline float rt_max_f32(const float *x, int64_t n) {
  float acc[RT_LANES];
  for (int l = 0; l < RT_LANES; l++) acc[l] = x[0];
  int64_t i = 0;
  for (; i + RT_LANES <= n; i += RT_LANES)
    for (int l = 0; l < RT_LANES; l++) acc[l] = x[i + l] > acc[l] ? x[i + l] : acc[l];
  for (int l = 0; i + l < n; l++) acc[l] = x[i + l] > acc[l] ? x[i + l] : acc[l];
  float mx = acc[0];
  for (int l = 1; l < RT_LANES; l++) mx = acc[l] > mx ? acc[l] : mx;
  return mx;
}

/* 2^e as a float, for e in [-126, 127]. */
static inline float rt_pow2i(int32_t e) {
  const union {
    uint32_t u;
    float f;
  } v = {.u = (uint32_t)(e + 127) << 23};
  return v.f;
}

/* exp(x) as Eigen's pexp computes it for float packets (Cephes' degree-5
 * polynomial after x = m ln 2 + r, |r| <= ln 2 / 2; relative error of a few
 * ulp), in plain arithmetic that vectorizes, unlike a call to expf.  NaN
 * stays NaN, x > 88.72 gives inf; results below FLT_MIN (x < -87.34) are
 * flushed to 0. */
static inline float rt_expf(float x) {
  const float hi = 88.7228394f, lo = -87.3365448f;
  const float xh = x < hi ? x : hi, xc = xh > lo ? xh : lo; /* NaN -> hi: the conversion below stays defined */
  /* m = floor(xc / ln 2 + 0.5), through a conversion of a positive value */
  const int32_t m = (int32_t)(xc * 1.44269504088896341f + 128.5f) - 128;
  const float mf = (float)m;
  float r = xc - mf * 0.693359375f;
  r = r + mf * 2.12194440e-4f;
  const float r2 = r * r, r3 = r2 * r;
  float y = 1.9875691500e-4f * r + 1.3981999507e-3f;
  float y1 = 4.1665795894e-2f * r + 1.6666665459e-1f;
  y = y * r + 8.3334519073e-3f;
  y1 = y1 * r + 5.0000001201e-1f;
  y = y * r3 + y1;
  y = y * r2 + (r + 1.0f);
  /* 2^m in two factors, so that m = 128 (x near hi) stays finite */
  const int32_t m1 = m / 2;
  float v = y * rt_pow2i(m1) * rt_pow2i(m - m1);
  v = x > hi ? (float)INFINITY : v;
  v = x < lo ? 0.0f : v;
  return x != x ? x : v;
}

/* x - mx clipped below at -64, as Paddle's softmax functors shift their
 * logits (ValueClip: a logit 100 below the max weighs exp(-64), and
 * log_softmax gives it -64 - log(sum)); NaN stays NaN. */
static inline float rt_softmax_shift(float x, float mx) {
  const float s = x - mx;
  return s < -64.0f ? -64.0f : s;
}

/* r[i] = exp(rt_softmax_shift(r[i], mx)) for i < n; returns their sum,
 * lane by lane as rt_sum_f32 (in blocks of RT_LANES: the form compilers
 * vectorize). */
static inline float rt_exp_sub_sum(float *r, int64_t n, float mx) {
  float acc[RT_LANES] = {0};
  int64_t i = 0;
  for (; i + RT_LANES <= n; i += RT_LANES)
    for (int l = 0; l < RT_LANES; l++) acc[l] += r[i + l] = rt_expf(rt_softmax_shift(r[i + l], mx));
  for (int l = 0; i + l < n; l++) acc[l] += r[i + l] = rt_expf(rt_softmax_shift(r[i + l], mx));
  float s = 0.0f;
  for (int l = 0; l < RT_LANES; l++) s += acc[l];
  return s;
}

#endif

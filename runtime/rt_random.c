/* Paddle's CPU random numbers (see rt_random.h): std::mt19937_64 and
 * libstdc++'s uniform_real_distribution and normal_distribution,
 * following the text of libstdc++'s bits/random.tcc. */
#include "rt_random.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

/* Every operation rounds on its own, as in Paddle's build (no fused
 * multiply-add; gcc in ISO C mode does not contract). */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

/* mt19937_64's parameters ([rand.predef]). */
enum { MT_M = 156 };
#define MT_A 0xb5026f5aa96619e9ull
#define MT_UPPER (~0ull << 31) /* the upper w - r = 33 bits */
#define MT_LOWER (~MT_UPPER)
#define MT_F 6364136223846793005ull

void rt_mt_seed(RtMt *mt, uint64_t seed) {
  mt->x[0] = seed;
  for (int i = 1; i < RT_MT_N; i++) {
    uint64_t x = mt->x[i - 1];
    x ^= x >> 62;
    x *= MT_F;
    x += (uint64_t)i;
    mt->x[i] = x;
  }
  mt->p = RT_MT_N;
}

/* std::seed_seq{v}.generate(out, out + n) for one 32-bit value v
 * ([rand.util.seedseq], as libstdc++ writes it). */
static void seed_seq_generate(uint32_t v, uint32_t *out, size_t n) {
  for (size_t i = 0; i < n; i++) out[i] = 0x8b8b8b8bu;
  const size_t s = 1;
  const size_t t = n >= 623 ? 11 : n >= 68 ? 7 : n >= 39 ? 5 : n >= 7 ? 3 : (n - 1) / 2;
  const size_t p = (n - t) / 2, q = p + t;
  const size_t m = s + 1 > n ? s + 1 : n;
  {
    uint32_t r1 = 1371501266u, r2 = r1 + (uint32_t)s;
    out[p] += r1;
    out[q] += r2;
    out[0] = r2;
  }
  for (size_t k = 1; k < m; k++) {
    const size_t kn = k % n, kpn = (k + p) % n, kqn = (k + q) % n;
    uint32_t arg = out[kn] ^ out[kpn] ^ out[(k - 1) % n];
    uint32_t r1 = 1664525u * (arg ^ (arg >> 27));
    uint32_t r2 = r1 + (uint32_t)kn + (k <= s ? v : 0u);
    out[kpn] += r1;
    out[kqn] += r2;
    out[kn] = r2;
  }
  for (size_t k = m; k < m + n; k++) {
    const size_t kn = k % n, kpn = (k + p) % n, kqn = (k + q) % n;
    uint32_t arg = out[kn] + out[kpn] + out[(k - 1) % n];
    uint32_t r3 = 1566083941u * (arg ^ (arg >> 27));
    uint32_t r4 = r3 - (uint32_t)kn;
    out[kpn] ^= r3;
    out[kqn] ^= r4;
    out[kn] = r4;
  }
}

void rt_mt_seed_seq(RtMt *mt, uint64_t s) {
  uint32_t arr[2 * RT_MT_N];
  seed_seq_generate((uint32_t)s, arr, 2 * RT_MT_N);
  int zero = 1;
  for (int i = 0; i < RT_MT_N; i++) {
    mt->x[i] = (uint64_t)arr[2 * i] | (uint64_t)arr[2 * i + 1] << 32;
    if (zero && (i == 0 ? (mt->x[0] & MT_UPPER) != 0 : mt->x[i] != 0)) zero = 0;
  }
  if (zero) mt->x[0] = 1ull << 63;
  mt->p = RT_MT_N;
}

/* Regenerates the whole state (libstdc++'s _M_gen_rand). */
static void mt_gen(RtMt *mt) {
  uint64_t *x = mt->x;
  for (int k = 0; k < RT_MT_N; k++) {
    uint64_t y = (x[k] & MT_UPPER) | (x[(k + 1) % RT_MT_N] & MT_LOWER);
    x[k] = x[(k + MT_M) % RT_MT_N] ^ (y >> 1) ^ ((y & 1) ? MT_A : 0);
  }
  mt->p = 0;
}

uint64_t rt_mt_next(RtMt *mt) {
  if (mt->p >= RT_MT_N) mt_gen(mt);
  uint64_t z = mt->x[mt->p++];
  z ^= (z >> 29) & 0x5555555555555555ull;
  z ^= (z << 17) & 0x71d67fffeda60000ull;
  z ^= (z << 37) & 0xfff7eee000000000ull;
  z ^= z >> 43;
  return z;
}

/* generate_canonical: (T(x) * 1) / 2^64 with x the draw (T(x) rounds to
 * nearest), 1 becomes the largest T below 1. */
float rt_canonical_f32(RtMt *mt) {
  float r = (float)rt_mt_next(mt) / 18446744073709551616.0f;
  return r >= 1.0f ? nextafterf(1.0f, 0.0f) : r;
}

double rt_canonical_f64(RtMt *mt) {
  double r = (double)rt_mt_next(mt) / 18446744073709551616.0;
  return r >= 1.0 ? nextafter(1.0, 0.0) : r;
}

float rt_uniform_f32(RtMt *mt, float a, float b) {
  float u = rt_canonical_f32(mt) * (b - a);
  return u + a;
}

double rt_uniform_f64(RtMt *mt, double a, double b) {
  double u = rt_canonical_f64(mt) * (b - a);
  return u + a;
}

void rt_normal_init(RtNormal *nd) {
  nd->saved = 0.0;
  nd->has_saved = 0;
}

/* The polar method as libstdc++ writes it: x = T(2) * u - 1.0 (the
 * subtraction in double, rounded to T), r2 = x*x + y*y in T, both accepted
 * when 0 < r2 <= 1; mult = sqrt(-2 * log(r2) / r2) in T; the pair's
 * second value y * mult is returned first, x * mult saved. */
float rt_normal_f32(RtNormal *nd, RtMt *mt, float mean, float stddev) {
  float ret;
  if (nd->has_saved) {
    nd->has_saved = 0;
    ret = (float)nd->saved;
  } else {
    float x, y, r2;
    do {
      x = (float)((double)(2.0f * rt_canonical_f32(mt)) - 1.0);
      y = (float)((double)(2.0f * rt_canonical_f32(mt)) - 1.0);
      float xx = x * x, yy = y * y;
      r2 = xx + yy;
    } while (r2 > 1.0 || r2 == 0.0);
    float l = -2.0f * logf(r2);
    float mult = sqrtf(l / r2);
    nd->saved = (double)(x * mult);
    nd->has_saved = 1;
    ret = y * mult;
  }
  float s = ret * stddev;
  return s + mean;
}

double rt_normal_f64(RtNormal *nd, RtMt *mt, double mean, double stddev) {
  double ret;
  if (nd->has_saved) {
    nd->has_saved = 0;
    ret = nd->saved;
  } else {
    double x, y, r2;
    do {
      x = 2.0 * rt_canonical_f64(mt) - 1.0;
      y = 2.0 * rt_canonical_f64(mt) - 1.0;
      double xx = x * x, yy = y * y;
      r2 = xx + yy;
    } while (r2 > 1.0 || r2 == 0.0);
    double l = -2.0 * log(r2);
    double mult = sqrt(l / r2);
    nd->saved = x * mult;
    nd->has_saved = 1;
    ret = y * mult;
  }
  double s = ret * stddev;
  return s + mean;
}

void rt_fill_uniform_f32(RtMt *mt, float *out, int64_t n, float lo, float hi) {
  for (int64_t i = 0; i < n; i++) out[i] = rt_uniform_f32(mt, lo, hi);
}

void rt_fill_uniform_f64(RtMt *mt, double *out, int64_t n, double lo, double hi) {
  for (int64_t i = 0; i < n; i++) out[i] = rt_uniform_f64(mt, lo, hi);
}

void rt_fill_normal_f32(RtMt *mt, float *out, int64_t n, float mean, float stddev) {
  RtNormal nd;
  rt_normal_init(&nd);
  for (int64_t i = 0; i < n; i++) out[i] = rt_normal_f32(&nd, mt, mean, stddev);
}

void rt_fill_normal_f64(RtMt *mt, double *out, int64_t n, double mean, double stddev) {
  RtNormal nd;
  rt_normal_init(&nd);
  for (int64_t i = 0; i < n; i++) out[i] = rt_normal_f64(&nd, mt, mean, stddev);
}

/* Paddle's Erfinv (phi funcs/truncated_normal.h, after
 * gist.github.com/lakshayg/d80172fe5ae3c5d2c2aedb53c250320e), with its
 * conversions spelled out: the constants are T, the polynomials are
 * evaluated in T, the arguments of the polynomials (r) are computed in
 * double from T operands and rounded to T.  T is float or double. */
#define RT_ERFINV(name, T, ABS)                                                                \
  static T name(T x) {                                                                         \
    if (x < -1 || x > 1) return (T)NAN;                                                        \
    if (x == 1.0) return (T)INFINITY;                                                          \
    if (x == -1.0) return -(T)INFINITY;                                                        \
    const T LN2 = 6.931471805599453094172321214581e-1;                                         \
    const T A0 = 1.1975323115670912564578e0, A1 = 4.7072688112383978012285e1;                  \
    const T A2 = 6.9706266534389598238465e2, A3 = 4.8548868893843886794648e3;                  \
    const T A4 = 1.6235862515167575384252e4, A5 = 2.3782041382114385731252e4;                  \
    const T A6 = 1.1819493347062294404278e4, A7 = 8.8709406962545514830200e2;                  \
    const T B0 = 1.0000000000000000000e0, B1 = 4.2313330701600911252e1;                        \
    const T B2 = 6.8718700749205790830e2, B3 = 5.3941960214247511077e3;                        \
    const T B4 = 2.1213794301586595867e4, B5 = 3.9307895800092710610e4;                        \
    const T B6 = 2.8729085735721942674e4, B7 = 5.2264952788528545610e3;                        \
    const T C0 = 1.42343711074968357734e0, C1 = 4.63033784615654529590e0;                      \
    const T C2 = 5.76949722146069140550e0, C3 = 3.64784832476320460504e0;                      \
    const T C4 = 1.27045825245236838258e0, C5 = 2.41780725177450611770e-1;                     \
    const T C6 = 2.27238449892691845833e-2, C7 = 7.74545014278341407640e-4;                    \
    const T D0 = 1.4142135623730950488016887e0, D1 = 2.9036514445419946173133295e0;            \
    const T D2 = 2.3707661626024532365971225e0, D3 = 9.7547832001787427186894837e-1;           \
    const T D4 = 2.0945065210512749128288442e-1, D5 = 2.1494160384252876777097297e-2;          \
    const T D6 = 7.7441459065157709165577218e-4, D7 = 1.4859850019840355905497876e-9;          \
    const T E0 = 6.65790464350110377720e0, E1 = 5.46378491116411436990e0;                      \
    const T E2 = 1.78482653991729133580e0, E3 = 2.96560571828504891230e-1;                     \
    const T E4 = 2.65321895265761230930e-2, E5 = 1.24266094738807843860e-3;                    \
    const T E6 = 2.71155556874348757815e-5, E7 = 2.01033439929228813265e-7;                    \
    const T F0 = 1.414213562373095048801689e0, F1 = 8.482908416595164588112026e-1;            \
    const T F2 = 1.936480946950659106176712e-1, F3 = 2.103693768272068968719679e-2;           \
    const T F4 = 1.112800997078859844711555e-3, F5 = 2.611088405080593625138020e-5;           \
    const T F6 = 2.010321207683943062279931e-7, F7 = 2.891024605872965461538222e-15;          \
    T abs_x = ABS(x), r, num, den;                                                             \
    if (abs_x <= 0.85) {                                                                       \
      r = (T)(0.180625 - 0.25 * (double)x * (double)x);                                        \
      num = (((((((A7 * r + A6) * r + A5) * r + A4) * r + A3) * r + A2) * r + A1) * r + A0);   \
      den = (((((((B7 * r + B6) * r + B5) * r + B4) * r + B3) * r + B2) * r + B1) * r + B0);   \
      return x * num / den;                                                                    \
    }                                                                                          \
    r = (T)sqrt((double)LN2 - log(1.0 - (double)abs_x));                                       \
    if (r <= 5.0) {                                                                            \
      r = (T)((double)r - 1.6);                                                                \
      num = (((((((C7 * r + C6) * r + C5) * r + C4) * r + C3) * r + C2) * r + C1) * r + C0);   \
      den = (((((((D7 * r + D6) * r + D5) * r + D4) * r + D3) * r + D2) * r + D1) * r + D0);   \
    } else {                                                                                   \
      r = (T)((double)r - 5.0);                                                                \
      num = (((((((E7 * r + E6) * r + E5) * r + E4) * r + E3) * r + E2) * r + E1) * r + E0);   \
      den = (((((((F7 * r + F6) * r + F5) * r + F4) * r + F3) * r + F2) * r + F1) * r + F0);   \
    }                                                                                          \
    return x < 0 ? -num / den : num / den;                                                     \
  }
RT_ERFINV(erfinv_f32, float, fabsf)
RT_ERFINV(erfinv_f64, double, fabs)

/* Paddle 2.6's TruncatedNormal<T>(mean, std) applied to draws of
 * uniform_real_distribution<T>(FLT_MIN, 1): the standard normal's CDF at
 * -2 and 2 in double, rounded to T; p = cdf(-2) + (cdf(2) - cdf(-2)) * u
 * in T; sqrt(2) * Erfinv(2 * p - 1) * std + mean in double, rounded to
 * T. */
#define RT_FILL_TRUNCATED(name, T, ERFINV, UNIFORM)                                  \
  void name(RtMt *mt, T *out, int64_t n, T mean, T stddev) {                         \
    const T lo = (T)((1.0 + erf((double)(T)-2.0 / sqrt(2.0))) / 2.0);                \
    const T hi = (T)((1.0 + erf((double)(T)2.0 / sqrt(2.0))) / 2.0);                 \
    for (int64_t i = 0; i < n; i++) {                                                \
      T u = UNIFORM(mt, FLT_MIN, 1);                                                 \
      T p = (hi - lo) * u;                                                           \
      p = lo + p;                                                                    \
      double z = sqrt(2.0) * (double)ERFINV(2 * p - 1);                              \
      z = z * (double)stddev;                                                        \
      out[i] = (T)(z + (double)mean);                                                \
    }                                                                                \
  }
RT_FILL_TRUNCATED(rt_fill_truncated_normal_f32, float, erfinv_f32, rt_uniform_f32)
RT_FILL_TRUNCATED(rt_fill_truncated_normal_f64, double, erfinv_f64, rt_uniform_f64)

/* Paddle's DropoutRawKernel when training: per element, in order, a draw u
 * of uniform_real_distribution<float>(0, 1); u < p drops (mask 0, y 0),
 * else mask 1 and y = x / T(1.0f - p) (upscale_in_train) or x. */
#define RT_DROPOUT(name, T)                                                                \
  void name(RtMt *mt, const T *x, T *y, uint8_t *mask, int64_t n, float p, int upscale) { \
    const T keep = (T)(1.0f - p);                                                          \
    for (int64_t i = 0; i < n; i++) {                                                      \
      if (rt_uniform_f32(mt, 0.0f, 1.0f) < p) {                                            \
        mask[i] = 0;                                                                       \
        y[i] = 0;                                                                          \
      } else {                                                                             \
        mask[i] = 1;                                                                       \
        y[i] = upscale ? x[i] / keep : x[i];                                               \
      }                                                                                    \
    }                                                                                      \
  }
RT_DROPOUT(rt_dropout_f32, float)
RT_DROPOUT(rt_dropout_f64, double)

#define RT_RRELU(name, T)                                                                           \
  void name(RtMt *mt, const T *x, T *y, T *noise, int64_t n, float lower, float upper) {            \
    for (int64_t i = 0; i < n; i++) {                                                               \
      const T v = x[i];                                                                             \
      const T slope = v < 0 ? (T)rt_uniform_f32(mt, lower, upper) : (T)1;                           \
      if (noise) noise[i] = slope;                                                                  \
      y[i] = v < 0 ? v * slope : v;                                                                 \
    }                                                                                               \
  }
RT_RRELU(rt_rrelu_f32, float)
RT_RRELU(rt_rrelu_f64, double)

int64_t rt_uniform_int(RtMt *mt, int64_t lo, int64_t hi) {
  const uint64_t range = (uint64_t)hi - (uint64_t)lo + 1; /* 0: all 2^64 values */
  if (!range) return (int64_t)rt_mt_next(mt);
  const uint64_t scaling = UINT64_MAX / range, past = range * scaling;
  uint64_t r;
  do r = rt_mt_next(mt);
  while (r >= past);
  return (int64_t)((uint64_t)lo + r / scaling);
}

void rt_dropout_mask(RtMt *mt, uint8_t *mask, int64_t n, float p) {
  for (int64_t i = 0; i < n; i++) mask[i] = p == 1.0f ? 0 : rt_uniform_f32(mt, 0.0f, 1.0f) < p ? 0 : 1;
}

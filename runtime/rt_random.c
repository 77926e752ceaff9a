/* Paddle's CPU random numbers (see rt_random.h): std::mt19937_64 and
 * libstdc++'s uniform_real_distribution and normal_distribution,
 * following the text of libstdc++'s bits/random.tcc. */
#include "rt_random.h"

#include <math.h>
#include <stddef.h>

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

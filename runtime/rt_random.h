/* Paddle's CPU random numbers, bit for bit (compiler/ops/random.c,
 * compiler/ops/dropout.c).
 *
 * Paddle draws every CPU random number from a std::mt19937_64 (phi
 * generator.cc):
 *   - an op whose `seed` attribute is not 0 makes a fresh engine seeded
 *     with that integer (engine.seed(seed): rt_mt_seed);
 *   - seed 0 draws from the global CPU generator, in program order;
 *     paddle.seed(s) re-seeds it with std::seed_seq{s}, which keeps the low
 *     32 bits of s (rt_mt_seed_seq).
 * The distributions are libstdc++'s (bits/random.h, random.tcc):
 *   - std::uniform_real_distribution<T>(a, b): u = generate_canonical<T>,
 *     one 64-bit draw, T(x) / 2^64 rounded in T, clamped below 1; then
 *     u * (b - a) + a in T (rt_uniform_*);
 *   - std::normal_distribution<T>(mean, std): Marsaglia's polar method,
 *     two canonical draws per pair, the second value of a pair kept in the
 *     distribution object (RtNormal, one per op call); then z * std + mean
 *     in T (rt_normal_*);
 *   - truncated normals by Paddle's own inverse CDF
 *     (rt_fill_truncated_normal_*).
 * Each multiply and add is its own statement so that no compiler contracts
 * them into a fused multiply-add (clang's -ffp-contract=on contracts within
 * an expression; gcc in ISO C mode does not contract). */
#ifndef PADDLEC_RT_RANDOM_H
#define PADDLEC_RT_RANDOM_H

#include <stdint.h>

#define RT_MT_N 312 /* mt19937_64's state words */

/* A std::mt19937_64: its state and position, as libstdc++ keeps them. */
typedef struct RtMt {
  uint64_t x[RT_MT_N]; /* the state */
  int p;               /* the next word of x to temper; RT_MT_N: regenerate first */
} RtMt;

/* libstdc++'s default seed of a default-constructed mt19937_64. */
#define RT_MT_DEFAULT_SEED 5489u

/* engine.seed(value): Knuth's initialization from one integer. */
void rt_mt_seed(RtMt *mt, uint64_t seed);
/* std::seed_seq seq{s}; engine.seed(seq): seed_seq keeps s mod 2^32. */
void rt_mt_seed_seq(RtMt *mt, uint64_t s);
/* The next 64-bit output, engine(). */
uint64_t rt_mt_next(RtMt *mt);

/* std::generate_canonical<T, digits(T)>(engine): one draw in [0, 1). */
float rt_canonical_f32(RtMt *mt);
double rt_canonical_f64(RtMt *mt);

/* std::uniform_real_distribution<T>(a, b)(engine). */
float rt_uniform_f32(RtMt *mt, float a, float b);
double rt_uniform_f64(RtMt *mt, double a, double b);

/* A std::normal_distribution<T>: the value saved from the last pair. */
typedef struct RtNormal {
  double saved; /* the pair's second value (a float for the f32 draw) */
  int has_saved; /* 1 when `saved` is the next value */
} RtNormal;

/* A fresh distribution object (nothing saved). */
void rt_normal_init(RtNormal *nd);
/* std::normal_distribution<T>(mean, stddev)(engine) with `nd`'s state. */
float rt_normal_f32(RtNormal *nd, RtMt *mt, float mean, float stddev);
double rt_normal_f64(RtNormal *nd, RtMt *mt, double mean, double stddev);

/* Fills out[0..n) as Paddle's uniform_random kernel does: draw k from
 * uniform_real_distribution<T>(lo, hi).  `mt` is a fresh engine seeded
 * with the op's seed, or the global generator. */
void rt_fill_uniform_f32(RtMt *mt, float *out, int64_t n, float lo, float hi);
void rt_fill_uniform_f64(RtMt *mt, double *out, int64_t n, double lo, double hi);
/* Fills out[0..n) as Paddle's gaussian_random kernel does: one
 * normal_distribution<T>(mean, std) for the whole tensor. */
void rt_fill_normal_f32(RtMt *mt, float *out, int64_t n, float mean, float stddev);
void rt_fill_normal_f64(RtMt *mt, double *out, int64_t n, double mean, double stddev);

/* Fills out[0..n) as Paddle 2.6's truncated_gaussian_random kernel does:
 * a normal(mean, std) truncated to mean +- 2 std by inverting the CDF, with
 * Paddle's own Erfinv (phi funcs/truncated_normal.h) on draws of
 * uniform_real_distribution<T>(FLT_MIN, 1). */
void rt_fill_truncated_normal_f32(RtMt *mt, float *out, int64_t n, float mean, float stddev);
void rt_fill_truncated_normal_f64(RtMt *mt, double *out, int64_t n, double mean, double stddev);

/* Paddle's dropout kernel when training (0 <= p < 1): for each element in
 * order one draw u of uniform_real_distribution<float>(0, 1); u < p drops
 * it (mask 0, y 0), else mask 1 and y = x / T(1.0f - p) when `upscale`
 * (upscale_in_train), x otherwise.  y may be x. */
void rt_dropout_f32(RtMt *mt, const float *x, float *y, uint8_t *mask, int64_t n, float p, int upscale);
/* std::uniform_int_distribution<T>(lo, hi) (T int or int64_t, hi >= lo)
 * on mt19937_64 as Paddle 2.6's wheel draws it (measured: libstdc++'s
 * downscaling before GCC 11, not the multiply-shift of later ones): with
 * range = hi - lo + 1 and scaling = (2^64 - 1) / range, draws r until r <
 * range * scaling, then lo + r / scaling. */
int64_t rt_uniform_int(RtMt *mt, int64_t lo, int64_t hi);

/* The mask alone, as the rnn op's CPU kernel draws it between layers
 * (phi DropoutCpuFunctionInplace): per element in order one draw u of
 * uniform_real_distribution<float>(0, 1), mask 0 where u < p, else 1; p 1
 * draws nothing and zeroes the mask. */
void rt_dropout_mask(RtMt *mt, uint8_t *mask, int64_t n, float p);
void rt_dropout_f64(RtMt *mt, const double *x, double *y, uint8_t *mask, int64_t n, float p, int upscale);

/* Paddle's rrelu kernel in training (is_test false): per element in
 * order, x < 0 takes one draw r of uniform_real_distribution<float>(lower,
 * upper), converted to T, as its slope: y = x * r; any other x (NaN too,
 * measured on 2.6.2) keeps x with slope 1 and draws nothing.  noise[i] gets the slope
 * (noise NULL: not kept).  y may be x. */
void rt_rrelu_f32(RtMt *mt, const float *x, float *y, float *noise, int64_t n, float lower, float upper);
void rt_rrelu_f64(RtMt *mt, const double *x, double *y, double *noise, int64_t n, float lower, float upper);

#endif

/* Products with many columns and a short sum (rt_kernels.h, rt_wide_conv):
 * the convolutions of the early, large-image layers of CNNs (1x1 products,
 * im2col passes), C [m, n] = W [m, k] x X [k, n] with n the pixels
 * (thousands) and k the sum (16 to about a thousand).  A general GEMM packs
 * both operands and zeroes C before it adds, and the convolution's epilogue
 * (bias, residual, activation) is one more pass over all of C; here nothing
 * is packed: the micro-kernel keeps MR rows x NV vectors of C in registers
 * (vectors along the row, so C is stored as it lies), reads NV vectors of
 * one row of X and broadcasts MR weights per step of k, and stores each
 * tile once; the epilogue (rt_act_epilogue) then runs over each row of a
 * block of columns while it is in cache.  The sum over k is in order, one
 * pass, whatever the threads.  The same kernel serves GEMMs
 * (rt_wide_gemm: C = A B, A's rows broadcast, B's rows as vectors, the
 * GEMM's epilogue with a bias per column): the linear layers of
 * transformers, whose weights a BLAS would repack on every call.  MR, NV
 * and the vector length VL by target: 6 x 4 x 16 with AVX-512, 6 x 2 x 8
 * with AVX, 6 x 4 x 4 with NEON, 4 x 2 x 4 otherwise (generic vectors of
 * GCC and Clang); plain loops for other compilers. */
#include <string.h>

#include "rt_kernels.h"
#include "rt_parallel.h"

#if defined(__GNUC__)
#if defined(__AVX512F__)
#define VL 16
#define MR 6
#define NV 4
#elif defined(__AVX__)
#define VL 8
#define MR 6
#define NV 2
#elif defined(__aarch64__)
#define VL 4
#define MR 6
#define NV 4
#else
#define VL 4
#define MR 4
#define NV 2
#endif
typedef float WVec __attribute__((vector_size(VL * 4)));
#else
#define VL 4
#define MR 4
#define NV 1
#endif

enum { CHUNK = NV * VL /* columns of one tile */, WIDE_TASKS = 16, WIDE_X_FLOATS = 48 << 10 };

/* One product and its epilogue: C = act(W X + bias[row] (+ res)), or
 * ep's (a GEMM's: bias per column). */
typedef struct WideJob {
  const float *w, *x, *bias, *res;
  const RtEpilogue *ep;
  float *c;
  int64_t m, n, k, ldw, ldx, ldc;
  RtAct act;
  float alpha, beta;
  float scale;            /* multiplies each sum (a GEMM's alpha; 1 for convolutions) */
  int64_t chunks, tiles;  /* column chunks, row tiles */
  int64_t ct, rt;         /* chunks and tiles per task */
  int64_t nrt;            /* tasks down the rows */
} WideJob;

/* Row i, cols columns stored at c (column j0): the epilogue. */
static void row_out(const WideJob *j, int64_t i, int64_t j0, float *c, int64_t cols) {
  if (j->ep) {
    rt_ep_row(j->ep, c, i, j0, cols);
    return;
  }
  rt_act_epilogue(j->act, j->alpha, j->beta, c, cols, j->bias ? j->bias + i : NULL,
                  j->res ? j->res + i * j->ldc + j0 : NULL);
}

#if defined(__GNUC__)
/* C[i0 .. i0 + mr, j0 .. j0 + nv * VL) of the product. */
static inline __attribute__((always_inline)) void tile_v(const WideJob *j, int mr, int nv, int64_t i0, int64_t j0) {
  const float *w = j->w + i0 * j->ldw, *x = j->x + j0;
  const int64_t k = j->k, ldw = j->ldw, ldx = j->ldx;
  WVec acc[MR][NV];
  memset(acc, 0, sizeof acc);
#if defined(__clang__) /* unrolled, the accumulators would no longer fit the registers */
#pragma clang loop unroll(disable) vectorize(disable) interleave(disable)
#endif
  for (int64_t p = 0; p < k; p++) {
    WVec xv[NV];
    for (int q = 0; q < nv; q++) memcpy(&xv[q], x + p * ldx + q * VL, sizeof xv[q]);
    for (int i = 0; i < mr; i++) {
      const float wv = w[i * ldw + p];
      for (int q = 0; q < nv; q++) acc[i][q] += wv * xv[q];
    }
  }
  if (j->scale != 1.0f)
    for (int i = 0; i < mr; i++)
      for (int q = 0; q < nv; q++) acc[i][q] *= j->scale;
  float out[MR][NV * VL];
  /* cppcheck-suppress bufferAccessOutOfBounds ; cppcheck sizes acc as floats: its vectors (vector_size) hold VL each */
  memcpy(out, acc, sizeof out);
  for (int i = 0; i < mr; i++) {
    float *c = j->c + (i0 + i) * j->ldc + j0;
    memcpy(c, out[i], sizeof(float) * (size_t)(nv * VL));
  }
}

/* mr <= MR rows of nv vectors (a constant where it is inlined). */
static inline __attribute__((always_inline)) void rows_v(const WideJob *j, int64_t mr, int nv, int64_t i0,
                                                         int64_t j0) {
  switch (mr) {
    case MR: tile_v(j, MR, nv, i0, j0); break;
    case MR - 1: tile_v(j, MR - 1, nv, i0, j0); break;
    case MR - 2: tile_v(j, MR - 2, nv, i0, j0); break;
    default:
      for (int64_t i = 0; i < mr; i++) tile_v(j, 1, nv, i0 + i, j0);
  }
}

/* A tile of mr <= MR rows and nv <= NV whole vectors. */
static void tile(const WideJob *j, int64_t mr, int64_t nv, int64_t i0, int64_t j0) {
  if (nv == NV)
    rows_v(j, mr, NV, i0, j0);
  else
    for (int64_t q = 0; q < nv; q++) rows_v(j, mr, 1, i0, j0 + q * VL);
}
#endif

/* Columns [j0, j0 + cols) of rows [i0, i0 + mr) one float at a time: the
 * tail of a row narrower than a vector (and every tile without vectors). */
static void tile_scalar(const WideJob *j, int64_t mr, int64_t cols, int64_t i0, int64_t j0) {
  for (int64_t i = i0; i < i0 + mr; i++) {
    float *c = j->c + i * j->ldc + j0;
    for (int64_t q = 0; q < cols; q++) {
      float s = 0.0f;
      for (int64_t p = 0; p < j->k; p++) s += j->w[i * j->ldw + p] * j->x[p * j->ldx + j0 + q];
      c[q] = s * j->scale;
    }
  }
}

/* A range of row tiles x a range of column chunks, by blocks of columns
 * whose rows of X stay in L2 across the row tiles: each tile's sums over
 * the block, then its rows' epilogue over them while they are in cache
 * (one call a row and block, not a chunk). */
static void wide_task(void *ctx, int64_t t, int tid) {
  const WideJob *j = ctx;
  (void)tid;
  const int64_t c0 = t / j->nrt * j->ct, c1 = c0 + j->ct < j->chunks ? c0 + j->ct : j->chunks;
  const int64_t r0 = t % j->nrt * j->rt, r1 = r0 + j->rt < j->tiles ? r0 + j->rt : j->tiles;
  const int64_t end = c1 * CHUNK < j->n ? c1 * CHUNK : j->n;
  int64_t bw = WIDE_X_FLOATS / (j->k > 0 ? j->k : 1) / CHUNK * CHUNK;
  if (bw < CHUNK) bw = CHUNK;
  for (int64_t j0 = c0 * CHUNK; j0 < end; j0 += bw) {
    const int64_t width = end - j0 < bw ? end - j0 : bw;
    for (int64_t r = r0; r < r1; r++) {
      const int64_t i0 = r * MR, mr = j->m - i0 < MR ? j->m - i0 : MR;
#if defined(__GNUC__)
      const int64_t nv = width / VL;
      for (int64_t q = 0; q < nv; q += NV) tile(j, mr, nv - q < NV ? nv - q : NV, i0, j0 + q * VL);
      if (width % VL) tile_scalar(j, mr, width % VL, i0, j0 + nv * VL);
#else
      tile_scalar(j, mr, width, i0, j0);
#endif
      for (int64_t i = i0; i < i0 + mr; i++) row_out(j, i, j0, j->c + i * j->ldc + j0, width);
    }
  }
}

static void run(WideJob *j) {
  if (j->m == 0 || j->n == 0) return;
  j->chunks = rt_div_up(j->n, CHUNK), j->tiles = rt_div_up(j->m, MR);
  /* tasks: ranges of column chunks over all rows, split by rows too when there are few chunks */
  j->rt = j->tiles;
  j->ct = rt_div_up(j->chunks, WIDE_TASKS);
  if (j->chunks < WIDE_TASKS) j->rt = rt_div_up(j->tiles, rt_div_up(WIDE_TASKS, j->chunks));
  j->nrt = rt_div_up(j->tiles, j->rt);
  rt_parallel(rt_div_up(j->chunks, j->ct) * j->nrt, wide_task, j);
}

void rt_wide_conv(const float *w, int64_t m, int64_t k, const float *x, int64_t ldx, int64_t n, const float *bias,
                  const float *res, RtAct act, float alpha, float beta, float *c, int64_t ldc) {
  WideJob j = {.w = w, .x = x, .bias = bias, .res = res, .c = c, .m = m, .n = n, .k = k, .ldw = k, .ldx = ldx,
               .ldc = ldc, .act = act, .alpha = alpha, .beta = beta, .scale = 1.0f};
  run(&j);
}

void rt_wide_gemm(const float *a, int64_t lda, int64_t m, int64_t k, float alpha, const float *b, int64_t ldb,
                  int64_t n, float *c, int64_t ldc, const RtEpilogue *ep) {
  WideJob j = {.w = a, .x = b, .c = c, .m = m, .n = n, .k = k, .ldw = lda, .ldx = ldb, .ldc = ldc, .ep = ep,
               .scale = alpha};
  run(&j);
}

int rt_wide_gemm_suits(int64_t m, int64_t n, int64_t k) {
#if !defined(__GNUC__) || (defined(PADDLEC_BLAS_OPENBLAS) && !defined(__AVX512F__))
  (void)m, (void)n, (void)k;
  return 0;
#else
  return n % VL == 0 && k <= 2048 && m * k <= (1 << 20);
#endif
}

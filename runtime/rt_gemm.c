/* Single-precision GEMM: C = alpha * op(A) * op(B) + beta * C, row-major.
 *
 * Built with PADDLEC_BLAS_OPENBLAS it calls cblas_sgemm.  Otherwise a
 * portable blocked kernel in plain C: B is packed into column panels of
 * RT_NR floats, A into row panels of RT_MR, and a fixed-size MR x NR
 * micro-kernel (plain loops that compilers vectorize for the target's -march)
 * accumulates over a K block.  No intrinsics, so it builds for any target. */
#include <stdlib.h>
#include <string.h>

#include "rt_kernels.h"

#ifdef PADDLEC_BLAS_OPENBLAS
#include <cblas.h>

void rt_sgemm(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float *a,
              int64_t lda, const float *b, int64_t ldb, float beta, float *c, int64_t ldc) {
  cblas_sgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans,
              (int)m, (int)n, (int)k, alpha, a, (int)lda, b, (int)ldb, beta, c, (int)ldc);
}

const char *rt_blas_name(void) { return "OpenBLAS"; }

#else

enum { RT_MR = 6, RT_NR = 16, RT_KC = 256, RT_MC = 96, RT_NC = 2048 };

static float at(const float *x, int64_t ld, int trans, int64_t r, int64_t col) {
  return trans ? x[col * ld + r] : x[r * ld + col];
}

/* Packs op(B)[k0:k0+kc, j0:j0+nc] into panels of RT_NR columns (zero padded). */
static void pack_b(const float *b, int64_t ldb, int tb, int64_t k0, int64_t kc, int64_t j0, int64_t nc,
                   float *out) {
  for (int64_t j = 0; j < nc; j += RT_NR)
    for (int64_t p = 0; p < kc; p++)
      for (int64_t jj = 0; jj < RT_NR; jj++)
        *out++ = j + jj < nc ? at(b, ldb, tb, k0 + p, j0 + j + jj) : 0.0f;
}

/* Packs alpha * op(A)[i0:i0+mc, k0:k0+kc] into panels of RT_MR rows. */
static void pack_a(const float *a, int64_t lda, int ta, int64_t i0, int64_t mc, int64_t k0, int64_t kc,
                   float alpha, float *out) {
  for (int64_t i = 0; i < mc; i += RT_MR)
    for (int64_t p = 0; p < kc; p++)
      for (int64_t ii = 0; ii < RT_MR; ii++)
        *out++ = i + ii < mc ? alpha * at(a, lda, ta, i0 + i + ii, k0 + p) : 0.0f;
}

/* acc[MR][NR] += Apanel[kc][MR] x Bpanel[kc][NR]; then adds into C.  With
 * GCC/Clang the accumulators are generic vectors (lowered to whatever SIMD
 * the target has, or to scalars), so they stay in registers. */
#if defined(__GNUC__)
#if defined(__AVX__)
#define RT_VL 8 /* 256-bit registers */
#else
#define RT_VL 4 /* 128-bit: SSE, NEON, or scalar lowering */
#endif
typedef float RtVec __attribute__((vector_size(RT_VL * 4)));

static void micro(int64_t kc, const float *ap, const float *bp, float *c, int64_t ldc, int64_t mr,
                  int64_t nr) {
  /* one row of accumulators = RT_NR floats = 16 / RT_VL vectors, named
   * explicitly so they live in registers */
  RtVec acc[RT_MR][4];
  memset(acc, 0, sizeof acc);
  for (int64_t p = 0; p < kc; p++) {
    RtVec b0, b1, b2 = {0}, b3 = {0};
    const float *br = bp + p * RT_NR;
    memcpy(&b0, br, sizeof b0);
    memcpy(&b1, br + RT_VL, sizeof b1);
    if (RT_VL == 4) {
      memcpy(&b2, br + 2 * RT_VL, sizeof b2);
      memcpy(&b3, br + 3 * RT_VL, sizeof b3);
    }
    const float *ar = ap + p * RT_MR;
    for (int i = 0; i < RT_MR; i++) {
      acc[i][0] += ar[i] * b0;
      acc[i][1] += ar[i] * b1;
      if (RT_VL == 4) {
        acc[i][2] += ar[i] * b2;
        acc[i][3] += ar[i] * b3;
      }
    }
  }
  float out[RT_MR][RT_NR];
  for (int i = 0; i < RT_MR; i++) memcpy(out[i], acc[i], sizeof out[i]);
  for (int64_t i = 0; i < mr; i++)
    for (int64_t j = 0; j < nr; j++) c[i * ldc + j] += out[i][j];
}
#else
static void micro(int64_t kc, const float *ap, const float *bp, float *c, int64_t ldc, int64_t mr,
                  int64_t nr) {
  float acc[RT_MR][RT_NR];
  memset(acc, 0, sizeof acc);
  for (int64_t p = 0; p < kc; p++) {
    const float *ar = ap + p * RT_MR, *br = bp + p * RT_NR;
    for (int i = 0; i < RT_MR; i++)
      for (int j = 0; j < RT_NR; j++) acc[i][j] += ar[i] * br[j];
  }
  for (int64_t i = 0; i < mr; i++)
    for (int64_t j = 0; j < nr; j++) c[i * ldc + j] += acc[i][j];
}
#endif

void rt_sgemm(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float *a,
              int64_t lda, const float *b, int64_t ldb, float beta, float *c, int64_t ldc) {
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) c[i * ldc + j] = beta == 0.0f ? 0.0f : beta * c[i * ldc + j];
  if (k == 0 || alpha == 0.0f) return;
  float *bp = malloc(sizeof(float) * RT_KC * (RT_NC + RT_NR));
  float *ap = malloc(sizeof(float) * RT_KC * (RT_MC + RT_MR));
  if (!bp || !ap) { /* no memory for packing: plain triple loop */
    for (int64_t i = 0; i < m; i++)
      for (int64_t p = 0; p < k; p++) {
        float av = alpha * at(a, lda, trans_a, i, p);
        for (int64_t j = 0; j < n; j++) c[i * ldc + j] += av * at(b, ldb, trans_b, p, j);
      }
    free(bp);
    free(ap);
    return;
  }
  for (int64_t j0 = 0; j0 < n; j0 += RT_NC) {
    int64_t nc = n - j0 < RT_NC ? n - j0 : RT_NC;
    for (int64_t k0 = 0; k0 < k; k0 += RT_KC) {
      int64_t kc = k - k0 < RT_KC ? k - k0 : RT_KC;
      pack_b(b, ldb, trans_b, k0, kc, j0, nc, bp);
      for (int64_t i0 = 0; i0 < m; i0 += RT_MC) {
        int64_t mc = m - i0 < RT_MC ? m - i0 : RT_MC;
        pack_a(a, lda, trans_a, i0, mc, k0, kc, alpha, ap);
        for (int64_t i = 0; i < mc; i += RT_MR)
          for (int64_t j = 0; j < nc; j += RT_NR)
            micro(kc, ap + i * kc, bp + j * kc, c + (i0 + i) * ldc + j0 + j, ldc,
                  mc - i < RT_MR ? mc - i : RT_MR, nc - j < RT_NR ? nc - j : RT_NR);
      }
    }
  }
  free(bp);
  free(ap);
}

const char *rt_blas_name(void) { return "portable C"; }

#endif

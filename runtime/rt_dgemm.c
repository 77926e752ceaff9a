/* Double-precision GEMM (rt_kernels.h): C = alpha * op(A) * op(B) + beta * C,
 * row-major.  float64 models are rare and small, so the portable path is
 * plain loops: each row of C accumulates alpha * a[i][p] * op(B)[p][:]
 * over p, a vectorizable update of the row. */
#include "rt_kernels.h"

#ifdef PADDLEC_BLAS_OPENBLAS
#include <cblas.h>

void rt_dgemm(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, double alpha, const double *a,
              int64_t lda, const double *b, int64_t ldb, double beta, double *c, int64_t ldc) {
  if (m == 0 || n == 0) return;
  cblas_dgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans, (int)m,
              (int)n, (int)k, alpha, a, (int)lda, b, (int)ldb, beta, c, (int)ldc);
}

#else

void rt_dgemm(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, double alpha, const double *a,
              int64_t lda, const double *b, int64_t ldb, double beta, double *c, int64_t ldc) {
  for (int64_t i = 0; i < m; i++) {
    double *restrict row = c + i * ldc;
    for (int64_t j = 0; j < n; j++) row[j] = beta == 0.0 ? 0.0 : beta * row[j];
    for (int64_t p = 0; p < k; p++) {
      const double s = alpha * (trans_a ? a[p * lda + i] : a[i * lda + p]);
      if (trans_b)
        for (int64_t j = 0; j < n; j++) row[j] += s * b[j * ldb + p];
      else
        for (int64_t j = 0; j < n; j++) row[j] += s * b[p * ldb + j];
    }
  }
}

#endif

/* Square matrices through their LU factorization, for inverse and
 * determinant and their grads (compiler/ops/inverse.c,
 * compiler/ops/determinant.c), and the Cholesky factorization
 * (compiler/ops/cholesky.c).
 *
 * Paddle's CPU kernels use Eigen's PartialPivLU: row pivoting on the
 * largest magnitude in the column (the first of equal ones), the column
 * below the pivot divided by it, the trailing block updated by the outer
 * product; the determinant is the pivots' product in order times the
 * permutation's sign; the inverse solves LU X = P I.  The same steps are
 * taken here (Eigen blocks matrices above 16 rows and its triangular
 * solves: the results agree to rounding).  Matrices are row-major, one
 * after another; `work` holds RT_LINALG_WORK_BYTES(n) bytes, 8-byte
 * aligned. */
#ifndef PADDLEC_RT_LINALG_H
#define PADDLEC_RT_LINALG_H

#include <stdint.h>

/* the LU copy (n * n doubles at most) and the pivots (n int64) */
#define RT_LINALG_WORK_BYTES(n) ((n) * (n) * 8 + (n) * 8)

/* det[b] = the determinant of matrix b of a [batch, n, n]. */
void rt_det_f32(const float *a, int64_t batch, int64_t n, float *det, void *work);
void rt_det_f64(const double *a, int64_t batch, int64_t n, double *det, void *work);
/* inv [batch, n, n] = the inverses of a's matrices; 1 (and inv partly
 * written) when one has a determinant of 0, where Paddle raises "Input is
 * not invertible". */
int rt_inverse_f32(const float *a, int64_t batch, int64_t n, float *inv, void *work);
int rt_inverse_f64(const double *a, int64_t batch, int64_t n, double *inv, void *work);
/* dx = -out^T dout out^T per matrix (Paddle's inverse_grad), out the
 * inverses; tmp holds [batch, n, n] (dout out^T). */
void rt_inverse_grad_f32(const float *out, const float *dout, int64_t batch, int64_t n, float *tmp, float *dx);
void rt_inverse_grad_f64(const double *out, const double *dout, int64_t batch, int64_t n, double *tmp, double *dx);
/* out [batch, n, n] = a's matrices to the power k (phi MatrixPowerFunction:
 * k = 0 the identity; a negative k the inverse's power; 2, 3 and 4 as
 * X X, (X X) X and (X X)(X X); above 4 by squaring, the squares
 * multiplied into out from the lowest bit up); each product summed in
 * order.  `work` holds RT_MATPOW_WORK_BYTES(n) bytes; 1 when a matrix of
 * a negative power is not invertible (Paddle raises). */
#define RT_MATPOW_WORK_BYTES(n) (3 * (n) * (n) * 8 + RT_LINALG_WORK_BYTES(n))
int rt_matrix_power_f32(const float *a, int64_t batch, int64_t n, int k, float *out, void *work);
int rt_matrix_power_f64(const double *a, int64_t batch, int64_t n, int k, double *out, void *work);
/* out [batch, n, n] = the Cholesky factors of a's matrices as Eigen's LLT
 * (unblocked) gives them: L from a's lower triangle (L L^T = a), or with
 * upper U = L^T from a's upper triangle, the other triangle zero; 1 when a
 * matrix is not positive definite (Paddle raises). */
int rt_cholesky_f32(const float *a, int64_t batch, int64_t n, int upper, float *out);
int rt_cholesky_f64(const double *a, int64_t batch, int64_t n, int upper, double *out);

#endif

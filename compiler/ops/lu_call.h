/* The kernels of inverse, determinant, cholesky, triangular_solve and
 * matrix_power and
 * the grads of the first two as the lowering decided them, and their C
 * printer: each matrix
 * of a [batch, n, n] tensor through its LU (or Cholesky) factorization
 * (runtime/rt_linalg.h), the grads from the inverse:
 *   inverse_grad (phi InverseGradKernel): dX = -Out^T (dOut Out^T);
 *   determinant_grad (phi DeterminantGradKernel): dX = (dOut * det) *
 *     inverse(X)^T per matrix, or zeros everywhere when any det is 0.
 * triangular_solve substitutes row by row (forward for a lower op(x),
 * backward for an upper one), each row's earlier rows subtracted in order
 * then divided by the diagonal (the BLAS's trsm orders its sums its own
 * way: the two agree to rounding).
 * The emitters (inverse.c, determinant.c, cholesky.c, triangular_solve.c,
 * matrix_power.c) check the tensors and fill one
 * record; lu_print_c prints the calls and loops; another backend prints
 * the same records. */
#ifndef PADDLEC_OPS_LU_CALL_H
#define PADDLEC_OPS_LU_CALL_H

#include "ops.h"

typedef enum LuKind {
  LU_INVERSE,      /* out = inverse(x); a singular matrix returns 1 */
  LU_INVERSE_GRAD, /* dx = -out^T (dout out^T), tmp the product in brackets */
  LU_DET,          /* out[b] = det(x[b]) */
  LU_DET_GRAD,     /* dx = (dout * out) * inverse(x)^T, or 0 when any out is 0; tmp holds the inverse */
  LU_CHOLESKY,     /* out = the Cholesky factors of x (upper: U); a matrix not positive definite returns 1 */
  LU_TRI_SOLVE,    /* out [batch, n, m] = op(x)^-1 y, x triangular (upper, transpose, unit diagonal) */
  LU_MATRIX_POWER, /* out = x to the power `power`; a singular x of a negative power returns 1 */
} LuKind;

typedef struct LuCall {
  LuKind kind;
  int f64;                /* float64, else float32 */
  const char *batch, *n;  /* the matrices and their side */
  const char *x, *out;    /* X read; Out written (INVERSE, DET), read (the grads) */
  const char *dout, *dx;  /* grads: Out@GRAD read, X@GRAD written */
  const char *work;       /* RT_LINALG_WORK_BYTES(n) bytes (INVERSE, DET, DET_GRAD) */
  const char *tmp;        /* INVERSE_GRAD, DET_GRAD: batch * n * n elements */
  int upper;              /* CHOLESKY, TRI_SOLVE */
  int transpose, unit;    /* TRI_SOLVE: op(x) = x^T; x's diagonal taken as ones */
  const char *y, *m;      /* TRI_SOLVE: Y read, its columns */
  int x_bcast, y_bcast;   /* TRI_SOLVE: one matrix of x (of y) serves every batch */
  int power;              /* MATRIX_POWER */
} LuCall;

void lu_print_c(Printer *p, const LuCall *c);

#endif

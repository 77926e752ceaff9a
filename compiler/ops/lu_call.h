/* The kernels of inverse, determinant and cholesky and the grads of the
 * first two as the lowering decided them, and their C printer: each matrix
 * of a [batch, n, n] tensor through its LU (or Cholesky) factorization
 * (runtime/rt_linalg.h), the grads from the inverse:
 *   inverse_grad (phi InverseGradKernel): dX = -Out^T (dOut Out^T);
 *   determinant_grad (phi DeterminantGradKernel): dX = (dOut * det) *
 *     inverse(X)^T per matrix, or zeros everywhere when any det is 0.
 * The emitters (inverse.c, determinant.c, cholesky.c) check the tensors and fill one
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
} LuKind;

typedef struct LuCall {
  LuKind kind;
  int f64;                /* float64, else float32 */
  const char *batch, *n;  /* the matrices and their side */
  const char *x, *out;    /* X read; Out written (INVERSE, DET), read (the grads) */
  const char *dout, *dx;  /* grads: Out@GRAD read, X@GRAD written */
  const char *work;       /* RT_LINALG_WORK_BYTES(n) bytes (INVERSE, DET, DET_GRAD) */
  const char *tmp;        /* INVERSE_GRAD, DET_GRAD: batch * n * n elements */
  int upper;              /* CHOLESKY */
} LuCall;

void lu_print_c(Printer *p, const LuCall *c);

#endif

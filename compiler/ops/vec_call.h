/* Vector products' kernels as the lowering decided them, and their C
 * printer: dot (rows of X and Y, each row's products summed in order,
 * phi DotKernel), mv (a matrix times a vector, phi MvKernel) and their
 * grads.  The emitters (dot.c, mv.c) check the tensors and fill one record:
 * the kind, the C type, the sizes as C expressions and the buffers;
 * vec_print_c prints the loops; another backend prints the same records. */
#ifndef PADDLEC_OPS_VEC_CALL_H
#define PADDLEC_OPS_VEC_CALL_H

#include "ops.h"

typedef enum VecKind {
  VEC_DOT,      /* out[r] = sum over j of x[r, j] * y[r, j], j in order */
  VEC_DOT_GRAD, /* dx[r, j] = dout[r] * y[r, j]; dy[r, j] = dout[r] * x[r, j] */
  VEC_MV,       /* out[i] = sum over j of x[i, j] * vec[j], j in order */
  VEC_MV_GRAD,  /* dx[i, j] = dout[i] * vec[j]; dvec[j] = sum over i of x[i, j] * dout[i], i in order */
} VecKind;

typedef struct VecCall {
  VecKind kind;
  const char *type;      /* C element type */
  const char *rows;      /* DOT: the rows (X's elements / cols); MV: X's rows */
  const char *cols;      /* DOT: a row's length (X's last dim); MV: X's cols */
  const char *x, *y;     /* read: X, and Y (DOT) or Vec (MV) */
  const char *out;       /* forward: written */
  const char *dout;      /* grads: Out@GRAD read */
  const char *dx, *dy;   /* grads: X@GRAD, and Y@GRAD or Vec@GRAD, written; either NULL when not asked */
} VecCall;

void vec_print_c(Printer *p, const VecCall *c);

#endif

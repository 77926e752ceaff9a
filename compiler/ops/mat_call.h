/* Small matrix kernels printed as loops, as the lowering decided them, and
 * their C printers: bilinear_tensor_product and its grad.
 *
 * Each op has its own record (its geometry is its own): the emitters
 * (bilinear_tensor_product.c) check the tensors and fill it with the
 * element type, the sizes and the buffers as C expressions; the printers
 * print the loops; another backend prints the same records. */
#ifndef PADDLEC_OPS_MAT_CALL_H
#define PADDLEC_OPS_MAT_CALL_H

#include "ops.h"

/* X [rows, m], Y [rows, n], Weight [k, m, n] -> Out [rows, k]. */
typedef struct BilinearCall {
  int grad;                     /* the grad: dx, dy, dw, db; else out */
  int dtype;                    /* RT_DT_FP32 or RT_DT_FP64 */
  const char *rows, *k, *m, *n; /* C expressions (k, m, n: constants) */
  const char *x, *y, *w;        /* read */
  const char *bias;             /* the forward's [k], or NULL */
  const char *out;              /* the forward's */
  const char *dout;             /* the grad's Out@GRAD [rows, k] */
  const char *dx, *dy, *dw, *db; /* the grad's outputs, each NULL when not wanted */
} BilinearCall;

void bilinear_print_c(Printer *p, const BilinearCall *c);

#endif

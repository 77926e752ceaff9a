/* One vector-norm kernel as the lowering decided it, and its C printer.
 *
 * p_norm and norm (the L2 normalization) and their grads walk the lines of
 * x viewed as [pre, n, post] around the axis (all of x as one line for
 * p_norm's asvector); a line's output element is at a * post + b.  The
 * emitters (p_norm.c) check the tensors and fill one record: the kind, the
 * element type, porder and epsilon, the geometry as C expressions and the
 * buffers; pnorm_print_c prints the loops; another backend prints the same
 * records. */
#ifndef PADDLEC_OPS_PNORM_CALL_H
#define PADDLEC_OPS_PNORM_CALL_H

#include "ops.h"

typedef enum PNormKind {
  PNORM_FORWARD,  /* out = (sum |x|^p)^(1/p) per line; p 0 counts non-zeros, +-inf the max / min |x| */
  PNORM_GRAD,     /* dx from x, out (the norm) and dout */
  L2NORM_FORWARD, /* norm = sqrt(sum x^2 + epsilon), out = x / norm */
  L2NORM_GRAD,    /* dx = (dout - (sum x * dout) * x / norm^2) / norm */
} PNormKind;

typedef struct PNormCall {
  PNormKind kind;
  int dtype;                  /* RT_DT_FP32 or RT_DT_FP64 */
  float porder;               /* PNORM_*: p, as Paddle's float attribute */
  double epsilon;             /* PNORM_GRAD (as double), L2NORM_FORWARD (its float value) */
  const char *pre, *n, *post; /* the lines: x as [pre, n, post] */
  const char *numel;          /* PNORM_GRAD with p 0: dx's elements */
  const char *x, *out, *norm; /* out: PNORM_FORWARD, L2NORM_FORWARD (written), PNORM_GRAD (the norm, read);
                                 norm: L2NORM_* (written by the forward, or NULL; read by the grad) */
  const char *dout, *dx;      /* the grads */
} PNormCall;

void pnorm_print_c(Printer *p, const PNormCall *c);

#endif

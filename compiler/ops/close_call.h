/* isclose's and allclose's kernel as the lowering decided it, and its C
 * printer: phi IscloseFunctor / AllCloseKernel on the CPU, element by
 * element in X's type, rtol and atol doubles (Paddle's Scalars), each
 * element close when a == b, when |a - b| <= atol + rtol * |b| (that bound
 * computed in double, then stored in X's type), or when the two differ by
 * at most 1e-15; NaNs close only to NaNs and only with equal_nan.  The
 * emitter (isclose.c) checks the tensors and fills one record; close_print_c
 * prints the loop; another backend prints the same record. */
#ifndef PADDLEC_OPS_CLOSE_CALL_H
#define PADDLEC_OPS_CLOSE_CALL_H

#include "ops.h"

typedef struct CloseCall {
  const char *type;       /* C element type of X and Y */
  const char *n;          /* their element count */
  const char *x, *y;      /* read */
  const char *out;        /* written: bool, one per element, or one in all (all) */
  int all;                /* allclose: out[0] = every element is close */
  const char *rtol, *atol; /* C expressions of type double: literals, or a float64 tensor's [0] */
  int equal_nan;
} CloseCall;

void close_print_c(Printer *p, const CloseCall *c);

#endif

/* One logsumexp kernel as the lowering decided it, and its C printer.
 *
 * logsumexp and its grad walk X with one loop per kept dim (outermost
 * first), each output element in turn, and inside it one loop per reduced
 * dim; X is addressed by its strides, the output elements in order.  The
 * forward takes m, the max over the reduced dims, then
 * m + log(sum(exp(x - m))) with the sum in double; the grad writes
 * dx = dout * exp(x - out) of each element's output element.  The emitters
 * (logsumexp.c) check the tensors, decide the reduced dims and fill one
 * record: the kind, the C type, the dims split into kept and reduced, X's
 * dims and strides as C expressions and the buffers; lse_print_c prints
 * the loops; another backend prints the same records. */
#ifndef PADDLEC_OPS_LSE_CALL_H
#define PADDLEC_OPS_LSE_CALL_H

#include "ops.h"

typedef enum LseKind {
  LSE_FORWARD, /* out[o++] = max + log(sum of exp(x - max)) over the reduced dims */
  LSE_GRAD,    /* dx = dout[o] * exp(x - out[o]), o the element's output element */
} LseKind;

typedef struct LseCall {
  LseKind kind;
  const char *type;                  /* C element type (float or double) */
  int f32;                           /* float: the math functions' f suffix */
  int nkept, kept[RT_MAX_RANK];      /* X's dims each output element keeps, in order (loops k<dim>) */
  int nred, red[RT_MAX_RANK];        /* X's dims reduced, in order (loops r<dim>) */
  const char *dims[RT_MAX_RANK];     /* X's dims */
  const char *strides[RT_MAX_RANK];  /* X's strides in elements */
  const char *x;                     /* read */
  const char *out;                   /* FORWARD: written; GRAD: read */
  const char *dout, *dx;             /* GRAD: Out@GRAD read, X@GRAD written */
} LseCall;

void lse_print_c(Printer *p, const LseCall *c);

#endif

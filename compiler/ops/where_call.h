/* One where kernel as the lowering decided it, and its C printer.
 *
 * where picks X's or Y's element by Condition's, element by element (the
 * three and Out of one shape); its grad sends Out@GRAD's element to X@GRAD
 * where Condition holds and to Y@GRAD where it does not, zeros to the
 * other.  The emitters (where.c) check the tensors and fill one record:
 * the kind, the C type, the element count and the buffers; where_print_c
 * prints the loop; another backend prints the same records. */
#ifndef PADDLEC_OPS_WHERE_CALL_H
#define PADDLEC_OPS_WHERE_CALL_H

#include "ops.h"

typedef enum WhereKind {
  WHERE_FORWARD, /* out = c ? x : y */
  WHERE_GRAD,    /* dx = c ? dout : 0, dy = c ? 0 : dout */
} WhereKind;

typedef struct WhereCall {
  WhereKind kind;
  const char *type;        /* C element type of X, Y, Out (the grads) */
  const char *numel;       /* the elements of each */
  const char *cond;        /* Condition (bool), read */
  const char *x, *y, *out; /* FORWARD: read, read, written */
  const char *dout;        /* GRAD: Out@GRAD, read */
  const char *dx, *dy;     /* GRAD: X@GRAD, Y@GRAD written, either NULL when not asked */
} WhereCall;

void where_print_c(Printer *p, const WhereCall *c);

#endif

/* One label-smoothing kernel as the lowering decided it, and its C
 * printer.
 *
 * label_smooth and its grad are one flat pass over X (X@GRAD), scaling by
 * 1 - epsilon and, forward, adding epsilon / K or epsilon times the prior
 * of the element's last-dim index.  The emitters (label_smooth.c) check
 * the tensors and fill one record: the kind, the C type, the coefficients
 * as C literals of that type (computed in float as Paddle's kernels do),
 * the element count and the buffers; smooth_print_c prints the loop;
 * another backend prints the same records. */
#ifndef PADDLEC_OPS_SMOOTH_CALL_H
#define PADDLEC_OPS_SMOOTH_CALL_H

#include "ops.h"

typedef enum SmoothKind {
  SMOOTH_FORWARD, /* out = keep * x + add, or + add * prior[i % k] with a prior */
  SMOOTH_GRAD,    /* dx = keep * dout */
} SmoothKind;

typedef struct SmoothCall {
  SmoothKind kind;
  const char *type;            /* C element type */
  const char *numel;           /* the elements of x and out (dout and dx) */
  const char *keep;            /* 1 - epsilon */
  const char *add;             /* FORWARD: epsilon / K, or epsilon with a prior */
  int64_t k;                   /* FORWARD with a prior: X's last dim K, the prior's length */
  const char *x, *prior, *out; /* FORWARD: read (prior NULL when not given), written */
  const char *dout, *dx;       /* GRAD: read, written */
} SmoothCall;

void smooth_print_c(Printer *p, const SmoothCall *c);

#endif

/* One Kronecker-product kernel as the lowering decided it, and its C
 * printer.
 *
 * kron and its grad walk X and Y padded with leading 1s to Out's rank r:
 * Out's index along dim i is a_i * Y.dims[i] + b_i, so loops over a_0,
 * b_0, a_1, b_1, ... visit Out in memory order.  The emitters (kron.c)
 * check the tensors and fill one record: the kind, the C type, the dims
 * and strides as C expressions and the buffers; kron_print_c prints the
 * loops; another backend prints the same records. */
#ifndef PADDLEC_OPS_KRON_CALL_H
#define PADDLEC_OPS_KRON_CALL_H

#include "ops.h"

typedef enum KronKind {
  KRON_FORWARD, /* out[o++] = x[a] * y[b], a and b in Out's memory order */
  KRON_GRAD,    /* dx[a] = sum over b of dout[a, b] * y[b]; dy[b] = sum over a of dout[a, b] * x[a] */
} KronKind;

typedef struct KronCall {
  KronKind kind;
  const char *type;                     /* C element type */
  int rank;                             /* Out's dims (r) */
  const char *xdims[RT_MAX_RANK];       /* X's dims padded with leading "1"s to r (a loop per dim but "1") */
  const char *ydims[RT_MAX_RANK];       /* Y's alike */
  const char *xstrides[RT_MAX_RANK];    /* X's strides along the padded dims, NULL along a padding 1 */
  const char *ystrides[RT_MAX_RANK];    /* Y's alike */
  const char *ostrides[RT_MAX_RANK];    /* GRAD: Out@GRAD's strides */
  const char *x, *y;                    /* read */
  const char *out;                      /* FORWARD: written */
  const char *dout, *dx, *dy;           /* GRAD: Out@GRAD read; X@GRAD, Y@GRAD written, either NULL when not asked */
} KronCall;

void kron_print_c(Printer *p, const KronCall *c);

#endif

/* One per-channel kernel as the lowering decided it, and its C printer.
 *
 * prelu, maxout, lrn, affine_channel's grad and their grads walk x viewed
 * as [outer, channels, inner] (images or leading dims, channels, pixels),
 * or as [outer, inner, channels] for the channels-last layouts (`last`).
 * The emitters (prelu.c, maxout.c, lrn.c, affine_channel.c) check the
 * tensors and fill one record: the kind, the element type, the op's
 * constants, the geometry as C expressions and the buffers; chan_print_c
 * prints the loops; another backend prints the same records. */
#ifndef PADDLEC_OPS_CHAN_CALL_H
#define PADDLEC_OPS_CHAN_CALL_H

#include <stdint.h>

#include "ops.h"

typedef enum ChanKind {
  CHAN_PRELU,       /* out = x > 0 ? x : slope[c] * x */
  CHAN_PRELU_GRAD,  /* dx = x > 0 ? dout : slope[c] * dout; dslope[c] = sum of x * dout where x <= 0 */
  CHAN_MAXOUT,      /* out channel c = the max of x's channels c * groups .. c * groups + groups - 1 */
  CHAN_MAXOUT_GRAD, /* dx = 0, then dout to the first x of its group equal to out */
  CHAN_LRN,         /* mid = k + alpha * the window's sum of squares, out = x * mid^-beta */
  CHAN_LRN_GRAD,    /* dx from x, out, mid and dout (lrn.c) */
  CHAN_AFFINE_GRAD, /* dx = dout * scale[c]; dscale[c], dbias[c]: sums of x * dout, dout */
} ChanKind;

typedef struct ChanCall {
  ChanKind kind;
  int dtype;                            /* RT_DT_FP32 or RT_DT_FP64 (LRN*: RT_DT_FP32) */
  const char *outer, *channels, *inner; /* the walk (MAXOUT*: channels of out; x has groups times as many) */
  int last;                             /* MAXOUT*, LRN*: channels are the last dim */
  int64_t groups;                       /* MAXOUT*: x's channels per channel of out */
  int64_t window;                       /* LRN*: n, the (odd) count of channels a window sums */
  float k, alpha, beta;                 /* LRN: its constants (LRN_GRAD: alpha and beta) */
  const char *x, *out, *mid;            /* out: written (PRELU, MAXOUT, LRN) or read (MAXOUT_GRAD, LRN_GRAD);
                                           mid: LRN's MidOut (NULL: not written), read by LRN_GRAD */
  const char *slope, *scale;            /* PRELU*: Alpha [channels]; AFFINE_GRAD: Scale [channels] */
  const char *dout, *dx;                /* the grads (PRELU_GRAD, AFFINE_GRAD: dx NULL when not computed) */
  const char *dslope, *dscale, *dbias;  /* PRELU_GRAD's, AFFINE_GRAD's parameter grads (NULL: not computed) */
  const char *numel;                    /* PRELU_GRAD: dslope's elements; MAXOUT_GRAD: dx's */
} ChanCall;

void chan_print_c(Printer *p, const ChanCall *c);

#endif

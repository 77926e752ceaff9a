/* One temporal-shift kernel as the lowering decided it, and its C printer.
 *
 * temporal_shift and its grad walk X (Out@GRAD) [N*T, C, H, W] (NHWC:
 * [N*T, H, W, C]) element by element: channels [0, c1) of frame t pair
 * with frame t - 1 of the same clip, [c1, c2) with frame t + 1, the rest
 * with frame t itself; a frame outside the clip pairs with nothing.  The
 * emitters (temporal_shift.c) check the tensors and fill one record: the
 * kind, the C type, the layout, the sizes and the buffers; shift_print_c
 * prints the loop; another backend prints the same records. */
#ifndef PADDLEC_OPS_SHIFT_CALL_H
#define PADDLEC_OPS_SHIFT_CALL_H

#include <stdint.h>

#include "ops.h"

typedef enum ShiftKind {
  SHIFT_FORWARD, /* out[i] = x[the paired element], 0 for none */
  SHIFT_GRAD,    /* dx = 0, dx[the paired element] = dout[i] */
} ShiftKind;

typedef struct ShiftCall {
  ShiftKind kind;
  const char *type;   /* C element type */
  int last;           /* channels last (NHWC) */
  int64_t t;          /* seg_num: frames per clip */
  int64_t C;          /* channels */
  const char *hw;     /* pixels per channel (C expression: the run's height and width, or a number) */
  const char *chw;    /* C * hw, the same way */
  int64_t c1, c2;     /* the channel bounds of the two shifts */
  const char *numel;  /* the elements (C expression) */
  const char *src;    /* x, or dout */
  const char *dst;    /* out, or dx */
} ShiftCall;

void shift_print_c(Printer *p, const ShiftCall *c);

#endif

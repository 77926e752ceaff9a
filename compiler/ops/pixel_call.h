/* One pixel-shuffle copy as the lowering decided it, and its C printer.
 *
 * pixel_shuffle, and the grads of pixel_shuffle and pixel_unshuffle, copy
 * between the [N, C, H*R, W*R] side ("big") and the [N, C*R*R, H, W] side
 * ("small") of a pixel shuffle (channels last for NHWC): channel c's R x R
 * block of pixels is channels c*R*R .. c*R*R + R*R - 1.  The emitters
 * (pixel_shuffle.c) check the tensors and fill one record: the C type, the
 * layout, the direction, the sizes and the buffers; pixel_print_c prints
 * the loops; another backend prints the same records. */
#ifndef PADDLEC_OPS_PIXEL_CALL_H
#define PADDLEC_OPS_PIXEL_CALL_H

#include "ops.h"

typedef struct PixelCall {
  const char *type;      /* C element type */
  int last;              /* channels last (NHWC) */
  int from_big;          /* src is the big side (dst the small one), else the reverse */
  int64_t C, R;          /* the big side's channels, the factor */
  const char *H, *W;     /* the small side's height and width, C expressions (the run's, where it gives them) */
  const char *batch;     /* N, a C expression */
  const char *src, *dst; /* read, written */
} PixelCall;

void pixel_print_c(Printer *p, const PixelCall *c);

#endif

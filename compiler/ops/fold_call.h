/* One image / column-matrix move as the lowering decided it, and its C
 * printer.
 *
 * unfold (im2col), fold (col2im) and their grads move, per image of the
 * batch, between an image [C, H, W] and its column matrix [C*kh*kw,
 * bh*bw]: column element (c, y, x) with c = (ch*kh + i)*kw + j is image
 * element (ch, y*sh - top + i*dh, x*sw - left + j*dw), 0 outside the
 * image (Paddle's Im2ColFunctor / Col2ImFunctor, kCFO).  The emitters
 * (unfold.c) check the tensors, count the blocks and fill one record: the
 * direction, the C type, the sizes and the buffers; fold_print_c prints
 * the loops; another backend prints the same records. */
#ifndef PADDLEC_OPS_FOLD_CALL_H
#define PADDLEC_OPS_FOLD_CALL_H

#include <stdint.h>

#include "ops.h"

typedef enum FoldKind {
  FOLD_IM2COL, /* dst (columns) = src (image) gathered, 0 outside the image */
  FOLD_COL2IM, /* dst (image) = 0, then each column element added, in column order */
} FoldKind;

typedef struct FoldCall {
  FoldKind kind;
  const char *type;      /* C element type */
  int64_t C, H, W;       /* the image's channels, height and width */
  int64_t k[2], s[2];    /* kernel and strides (height, width) */
  int64_t pad[2], d[2];  /* the top and left padding, dilations */
  int64_t bh, bw;        /* the blocks down and across */
  /* an image whose height and width the run gives (unfold): their C
   * expressions and those of the blocks (NULL: the numbers above) */
  const char *run_h, *run_w, *run_bh, *run_bw;
  const char *batch;     /* images (C expression) */
  const char *src, *dst; /* read, written */
} FoldCall;

void fold_print_c(Printer *p, const FoldCall *c);

#endif

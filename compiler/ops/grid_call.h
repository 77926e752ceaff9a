/* One affine-grid kernel as the lowering decided it, and its C printer.
 *
 * affine_grid and its grad walk the grid [N, D, H, W] (D 1 for a 2-D
 * grid) with, per pixel, the base coordinates (x, y[, z], 1), each
 * Paddle's Linspace from -1 to 1 over its dim; Theta is [N, nsp, nsp + 1].
 * The emitters (affine_grid.c) check the tensors and fill one record: the
 * kind, the C type, the grid's sizes, align_corners and the buffers;
 * grid_print_c prints the loops; another backend prints the same
 * records. */
#ifndef PADDLEC_OPS_GRID_CALL_H
#define PADDLEC_OPS_GRID_CALL_H

#include "ops.h"

typedef enum GridKind {
  GRID_AFFINE,      /* out[n, pixel, k] = base[pixel] . theta[n][k] */
  GRID_AFFINE_GRAD, /* dtheta[n][k][j] = sum over the pixels of dout[n, pixel, k] * base[pixel][j] */
} GridKind;

typedef struct GridCall {
  GridKind kind;
  const char *type;           /* C element type (float or double) */
  int nsp;                    /* spatial dims: 2 or 3 */
  int64_t size[3];            /* the grid's D, H, W (D 1 for nsp 2) */
  const char *run_size[3];    /* a size the run gives, as a C expression (NULL: size[i]; size[i] its bound) */
  int align;                  /* align_corners: Linspace steps 2/(n-1), else 2/n from -(n-1)/n */
  const char *batch;          /* N, a C expression */
  const char *src, *dst;      /* read, written: Theta and Output, or Output@GRAD and Theta@GRAD */
} GridCall;

void grid_print_c(Printer *p, const GridCall *c);

#endif

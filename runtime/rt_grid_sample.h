/* grid_sampler (paddle.nn.functional.grid_sample) on NCHW / NCDHW float32
 * images, as Paddle's CPU kernel computes it (phi grid_sample_kernel.cc and
 * grid_sample_utils.h), for compiler/ops/grid_sampler.c. */
#ifndef PADDLEC_RT_GRID_SAMPLE_H
#define PADDLEC_RT_GRID_SAMPLE_H

#include <stdint.h>

typedef enum RtGridPadding {
  RT_GRID_ZEROS = 0,      /* samples outside the image read 0 */
  RT_GRID_BORDER = 1,     /* positions clamped to the image */
  RT_GRID_REFLECTION = 2, /* positions reflected at the border */
} RtGridPadding;

typedef struct RtGridSample {
  int nsp;               /* 2 (grid [N, H', W', 2]) or 3 (grid [N, D', H', W', 3]) */
  int nearest;           /* mode "nearest", else "bilinear" */
  RtGridPadding padding; /* padding_mode */
  int align_corners;     /* -1 and 1 are the centers (0) or the outer edges (1) of the corner pixels */
  int64_t c;             /* channels */
  int64_t in[3];         /* input d, h, w (d = 1 in 2-D) */
  int64_t out[3];        /* grid d, h, w (d = 1 in 2-D) */
} RtGridSample;

/* out [N, C, (D',) H', W'] samples x [N, C, (D,) H, W] at the positions in
 * grid ((x, y) or (x, y, z) per output pixel, -1 .. 1 across the image):
 * unnormalized to pixel units, clipped by padding, then read bilinearly
 * (corners outside the image read 0) or at the nearest pixel.  A NaN
 * position, for which Paddle reads an undefined pixel, reads 0. */
void rt_grid_sample(const RtGridSample *p, int64_t batch, const float *x, const float *grid, float *out);

#endif

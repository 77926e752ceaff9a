/* grid_sampler (paddle.nn.functional.grid_sample) on NCHW / NCDHW images,
 * and its gradient, as Paddle's CPU kernels compute them (phi
 * grid_sample_kernel.cc, grid_sample_grad_kernel.cc and
 * grid_sample_utils.h), for compiler/ops/grid_sampler.c: float32, and
 * float64 in the _f64 routines (every step in double, as Paddle's double
 * kernels). */
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
void rt_grid_sample_f64(const RtGridSample *p, int64_t batch, const double *x, const double *grid, double *out);

/* grid_sampler_grad: dx (X@GRAD, x's shape) and dgrid (Grid@GRAD, grid's
 * shape) from dout (Output@GRAD), as Paddle's CPU grad kernel computes
 * them (phi grid_sample_grad_kernel.cc): bilinear scatters dOut times the
 * corner weights into dx one corner at a time, and gives dgrid the
 * channel sum of the corner value differences times dOut, times d(pixel
 * position)/d(grid value) (0 where border or reflection clipping holds the
 * position at an edge, negated where a reflection flips it); nearest adds
 * dOut at the pixel read and leaves dgrid 0.  Either output may be NULL. */
void rt_grid_sample_grad(const RtGridSample *p, int64_t batch, const float *x, const float *grid, const float *dout,
                         float *dx, float *dgrid);
void rt_grid_sample_grad_f64(const RtGridSample *p, int64_t batch, const double *x, const double *grid,
                             const double *dout, double *dx, double *dgrid);

#endif

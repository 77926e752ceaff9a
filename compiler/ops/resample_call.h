/* One resampling kernel call as the lowering decided it, and its C printer.
 *
 * The emitters of the interp ops (nearest, bilinear, linear, bicubic,
 * trilinear, v1 and v2), grid_sampler and their grads check the tensors,
 * compute the geometry (an RtResize or RtGridSample) and fill one record:
 * which routine, the geometry's values and name, the batch and the buffers
 * as C expressions (and, for an interp whose size comes from tensors the
 * run gives, the output sizes and ratios as C expressions too).  resample_print_c prints the geometry (a constant
 * RtInterp2d, RtResize or RtGridSample) and the call; it is the only code
 * that spells the runtime's resampling calls (rt_interp2d, rt_resize,
 * rt_resize_grad, rt_grid_sample, rt_grid_sample_grad, each with _f64 for
 * float64 tensors); another backend prints the same records. */
#ifndef PADDLEC_OPS_RESAMPLE_CALL_H
#define PADDLEC_OPS_RESAMPLE_CALL_H

#include "ops.h"
#include "rt_cnn.h"
#include "rt_grid_sample.h"
#include "rt_resize.h"

typedef enum ResampleKind {
  RESAMPLE_INTERP2D,    /* channel-first 1-D and 2-D resize of planes: out from x */
  RESAMPLE_RESIZE,      /* 3-D and channel-last resizes: out from x */
  RESAMPLE_RESIZE_GRAD, /* dx from dout, the task's planes lo..hi */
  RESAMPLE_GRID,        /* out: x sampled at grid */
  RESAMPLE_GRID_GRAD,   /* dx and dgrid from x, grid and dout */
} ResampleKind;

typedef struct ResampleCall {
  ResampleKind kind;
  int f64;                     /* float64 tensors (the _f64 routines) */
  const char *int_suffix;      /* RESIZE of integer tensors: "_u8", "_i32", "_i64"; else NULL */
  const char *geo;             /* the geometry's name */
  RtResize resize;             /* INTERP2D (its h and w: in[1..2], out[1..2], ratio[1..2]), RESIZE, RESIZE_GRAD */
  const char *run_out[3];      /* INTERP2D, RESIZE: set when the run gives the sizes: resize's out[] and ratio[] */
  const char *run_ratio[3];    /* as C expressions, the geometry a local (not a static constant), */
  const char *run_in[3];       /* and its in[] when the run gives X's (NULL: the constants) */
  RtGridSample sample;         /* GRID, GRID_GRAD */
  const char *run_grid_in[3], *run_grid_out[3]; /* GRID: sample's in[] and out[] the run gives (NULL: constants) */
  const char *batch;           /* planes (INTERP2D) or images; not RESIZE_GRAD */
  const char *lo, *hi;         /* RESIZE_GRAD: the range of planes */
  const char *x, *grid, *dout; /* input, sampling grid, output gradient (as the kind reads them) */
  const char *out;             /* INTERP2D, RESIZE, GRID */
  const char *dx, *dgrid;      /* the gradients (GRID_GRAD: NULL, not computed) */
} ResampleCall;

void resample_print_c(Printer *p, const ResampleCall *c);

/* The size arithmetic of a resize whose size the run gives, as C
 * expressions (rt_resize.h): the size a dim of `in` resized by `scale`
 * gets, and the ratio Paddle's kernel takes from in, out and scale. */
const char *resample_scaled_c(const char *in, const char *scale);
const char *resample_ratio_c(const char *in, const char *out, int align_corners, const char *scale);

#endif

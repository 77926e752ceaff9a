/* Resizing of 1-, 2- and 3-D images in either channel order, for the
 * interp ops (compiler/ops/interp.c) where rt_interp2d (channel first, 1-
 * and 2-D) does not apply: trilinear and 3-D nearest (NCDHW or NDHWC),
 * channel-last NWC / NHWC linear, bilinear, nearest and bicubic, and every
 * float64 resize but channel-first 1-D and 2-D nearest.  The
 * coordinate rules and the order of the weighted sums are those of Paddle's
 * CPU kernels (phi interpolate_kernel.cc). */
#ifndef PADDLEC_RT_RESIZE_H
#define PADDLEC_RT_RESIZE_H

#include <stdint.h>

#include "rt_cnn.h"

/* Sizes are kept as 3 spatial dims (d, h, w); a 2-D resize has d = 1 and a
 * 1-D one d = h = 1 (those dims are copied, never interpolated).  Element
 * (c, d, h, w) of an image sits at c * c_stride + ((d * H + h) * W + w) *
 * px_stride: channel first c_stride = D*H*W, px_stride = 1; channel last
 * c_stride = 1, px_stride = c. */
typedef struct RtResize {
  RtInterpMethod method;  /* nearest; BILINEAR = linear in every resized dim; bicubic (2-D) */
  int nsp;                /* resized dims: 1 (w), 2 (h, w) or 3 (d, h, w) */
  int64_t c;              /* channels */
  int64_t in[3], out[3];  /* input and output d, h, w */
  float ratio[3];         /* source step per output step (0 for a size-1 output) */
  int align_corners;      /* Paddle's align_corners */
  int align_mode;         /* Paddle's align_mode (linear: 0 = half-pixel) */
  int channel_last;       /* NWC / NHWC / NDHWC */
  int float_coord;        /* half-pixel source coordinates in float, not
                           * double: Paddle 2.6's phi (v2) grad kernels, and
                           * its v2 double forward kernels of the linear
                           * family (the table in rt_resize.c); only the
                           * float forward ignores it */
} RtResize;

/* `batch` images of c x in into c x out; a plain copy when the sizes are
 * equal, as Paddle does. */
void rt_resize(const RtResize *p, int64_t batch, const float *x, float *out);

/* The gradient of the resize (phi InterpolateGradKernel and fluid's v1
 * one): dx of channel planes [lo, hi) of the batch * c, plane n * c + ch,
 * from dout.  A plane's dx is zeroed, then each output element adds its
 * gradient times its weights at its source taps, in Paddle's order (output
 * elements in row-major order, taps in its kernel's order), so each dx
 * element sums the same terms in the same order as Paddle; a plain copy
 * when the sizes are equal.  Planes are independent: splitting [lo, hi)
 * does not change a result. */
void rt_resize_grad(const RtResize *p, int64_t lo, int64_t hi, const float *dout, float *dx);

/* The same two for float64 tensors, with the coordinates and weights of
 * Paddle's double kernels (rt_resize.c). */
void rt_resize_f64(const RtResize *p, int64_t batch, const double *x, double *out);
void rt_resize_grad_f64(const RtResize *p, int64_t lo, int64_t hi, const double *dout, double *dx);
/* Integer tensors, as Paddle's integer kernels resize them: nearest for
 * each of the three types, the linear family for uint8 (float weights, the
 * sum converted toward zero; rt_resize.c). */
void rt_resize_u8(const RtResize *p, int64_t batch, const uint8_t *x, uint8_t *out);
void rt_resize_i32(const RtResize *p, int64_t batch, const int32_t *x, int32_t *out);
void rt_resize_i64(const RtResize *p, int64_t batch, const int64_t *x, int64_t *out);

#endif

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

/* Paddle's source step per output step for one dim, as its kernels compute
 * it from the sizes: 0 for an output of one element or fewer; (in - 1) /
 * (out - 1) with align_corners; else 1 / scale for a positive scale (the v2
 * kernels; the v1 ones pass -1), else in / out.  The compiler uses it for
 * the sizes it knows, the emitted code for the sizes the run gives. */
static inline float rt_resize_ratio(int64_t in, int64_t out, int align_corners, float scale) {
  if (out <= 1) return 0.0f;
  if (align_corners) return (float)(in - 1) / (float)(out - 1);
  return scale > 0 ? (float)(1.0 / (double)scale) : (float)in / (float)out;
}

/* The size Paddle's kernel gives a dim of `in` resized by `scale` when the
 * run gives the scale: (int)(in * scale) in float arithmetic; 0 (which
 * the caller refuses, as Paddle's kernel does) when that is below 1, not a
 * number or past int's range (where Paddle's conversion is undefined). */
static inline int64_t rt_resize_scaled(int64_t in, float scale) {
  const float prod = (float)in * scale;
  return prod >= 1.0f && prod < 2147483648.0f ? (int64_t)(int32_t)prod : 0;
}

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

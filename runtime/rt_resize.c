/* Resizing in any channel order (see rt_resize.h), float and double: the
 * coordinate rules here and in rt_resample.h, the kernels in
 * rt_resize_body.h and rt_resize_grad_body.h.
 *
 * Paddle 2.6.2's CPU kernels, as built, compute the half-pixel source
 * coordinate ratio * (k + 0.5) - 0.5 (which their source writes in double)
 * in float or in double depending on the kernel, float in most of phi's
 * (v2) and double in fluid's (v1); the double kernels weigh the linear
 * family with float weights and bicubic in double.  Checked bit for bit
 * against Paddle
 * (numpy emulations on random cases; tests/oracle/e2e_grad_interp.py,
 * e2e_grad_interp64.py):
 *
 *   kernel                        half-pixel coordinate    weights
 *   float grad v2                 float                    float
 *   float grad v1                 double, rounded to float float
 *   double linear family, v2      float                    float (widened)
 *   double linear family, v1      double, rounded to float float (widened)
 *   double bicubic forward        double                   double
 *   double bicubic grad v2        float, widened           double
 *   double bicubic grad v1        double                   double
 *
 * The float forward here (rt_resample.h) computes the coordinate in double
 * for v2 too, where Paddle's float v2 kernels compute it in float: up to
 * ~1e-7 off at some half-pixel rows and columns (within the float32
 * tolerance; not changed with the float64 kernels, which left the float32
 * emitted code and results as they were).
 *
 * The compiler sets RtResize.float_coord where the coordinate is float. */
#include <math.h>
#include <string.h>

#include "rt_kernels.h"
#include "rt_resample.h"

/* The float forward, with the coordinate rules of rt_resample.h. */
#define RESAMPLE_T float
#define RESAMPLE_W float
#define RESAMPLE_NAME(n) n
#define RESAMPLE_TAPS(p, ratio, k, n) rt_linear_taps(ratio, k, n, (p)->align_mode == 0 && !(p)->align_corners)
#define RESAMPLE_CUBIC_SRC(p, ratio, k) rt_cubic_src(ratio, k, (p)->align_corners)
#define RESAMPLE_CUBIC_WEIGHTS(t, c) rt_cubic_weights(t, c)
#include "rt_resize_body.h"

/* From here on each product and sum is rounded on its own, as Paddle's
 * build rounds them: no fused multiply-adds (clang's -ffp-contract=on
 * would contract `dx += g * w` or `a * b - c`; gcc in ISO C mode does not
 * contract). */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

/* The taps and weights of output k along a dim of `in` elements: those of
 * rt_linear_taps, except that with p->float_coord the half-pixel source
 * coordinate is computed in float. */
static RtTaps resize_taps(const RtResize *p, float ratio, int64_t k, int64_t in) {
  const int flag = p->align_mode == 0 && !p->align_corners;
  RtTaps t;
  int64_t i0 = flag ? (int64_t)(int)(ratio * (k + 0.5) - 0.5) : (int64_t)(int)(ratio * (float)k);
  i0 = i0 > 0 ? i0 : 0;
  float d;
  if (flag) {
    float src = p->float_coord ? ratio * ((float)k + 0.5f) - 0.5f : (float)(ratio * (k + 0.5) - 0.5);
    src = src > 0 ? src : 0;
    d = src - (float)i0;
  } else {
    d = ratio * (float)k - (float)i0;
  }
  t.i0 = i0;
  t.i1 = i0 + 1 < in - 1 ? i0 + 1 : in - 1;
  t.w1 = d;
  t.w0 = 1.0f - d;
  return t;
}

/* The float grad's bicubic source coordinate of output k and its weights. */
static float grad_cubic_src(const RtResize *p, float ratio, int64_t k) {
  if (p->align_corners) return ratio * (float)k;
  return p->float_coord ? ratio * ((float)k + 0.5f) - 0.5f : (float)(ratio * (k + 0.5) - 0.5);
}

static void grad_cubic_weights(float t, float c[4]) { RT_CUBIC_WEIGHTS(t, c); }

/* The double kernels' bicubic source coordinate of output k (the
 * align_corners product in float) and its weights, in double. */
static double cubic_src_f64(const RtResize *p, float ratio, int64_t k) {
  if (p->align_corners) return (double)(ratio * (float)k);
  return p->float_coord ? (double)(ratio * ((float)k + 0.5f) - 0.5f) : (double)ratio * ((double)k + 0.5) - 0.5;
}

static void cubic_weights_f64(double t, double c[4]) { RT_CUBIC_WEIGHTS_T(double, t, c); }

#undef RESAMPLE_TAPS
#undef RESAMPLE_CUBIC_SRC
#undef RESAMPLE_CUBIC_WEIGHTS
#define RESAMPLE_TAPS(p, ratio, k, n) resize_taps(p, ratio, k, n)
#define RESAMPLE_CUBIC_SRC(p, ratio, k) cubic_src_f64(p, ratio, k)
#define RESAMPLE_CUBIC_WEIGHTS(t, c) cubic_weights_f64(t, c)

/* The double forward. */
#define RESAMPLE_T double
#define RESAMPLE_W double
#define RESAMPLE_NAME(n) n##_f64
#include "rt_resize_body.h"

/* The gradients: float, then double. */
#undef RESAMPLE_CUBIC_SRC
#undef RESAMPLE_CUBIC_WEIGHTS
#define RESAMPLE_CUBIC_SRC(p, ratio, k) grad_cubic_src(p, ratio, k)
#define RESAMPLE_CUBIC_WEIGHTS(t, c) grad_cubic_weights(t, c)
#define RESAMPLE_T float
#define RESAMPLE_W float
#define RESAMPLE_NAME(n) n
#include "rt_resize_grad_body.h"

#undef RESAMPLE_CUBIC_SRC
#undef RESAMPLE_CUBIC_WEIGHTS
#define RESAMPLE_CUBIC_SRC(p, ratio, k) cubic_src_f64(p, ratio, k)
#define RESAMPLE_CUBIC_WEIGHTS(t, c) cubic_weights_f64(t, c)
#define RESAMPLE_T double
#define RESAMPLE_W double
#define RESAMPLE_NAME(n) n##_f64
#include "rt_resize_grad_body.h"

/* The integer forwards: nearest for uint8, int32 and int64 (Paddle's
 * nearest kernels), the linear family for uint8 (its linear, bilinear and
 * trilinear kernels): the float taps and weights of the float kernels
 * (RtResize.float_coord as for them), the weighted sum in float converted
 * to the type toward zero, as Paddle's T out_t = <float sum> does.  No
 * bicubic kernel takes integers (the compiler refuses it: the float
 * bicubic helpers below only make the body compile). */
#undef RESAMPLE_CUBIC_SRC
#undef RESAMPLE_CUBIC_WEIGHTS
#define RESAMPLE_CUBIC_SRC(p, ratio, k) grad_cubic_src(p, ratio, k)
#define RESAMPLE_CUBIC_WEIGHTS(t, c) grad_cubic_weights(t, c)
#define RESAMPLE_T uint8_t
#define RESAMPLE_W float
#define RESAMPLE_NAME(n) n##_u8
#include "rt_resize_body.h"

#define RESAMPLE_T int32_t
#define RESAMPLE_W float
#define RESAMPLE_NAME(n) n##_i32
#include "rt_resize_body.h"

#define RESAMPLE_T int64_t
#define RESAMPLE_W float
#define RESAMPLE_NAME(n) n##_i64
#include "rt_resize_body.h"

/* Resizing in any channel order (see rt_resize.h), float and double: the
 * coordinate rules here and in rt_resample.h, the kernels in
 * rt_resize_body.h and rt_resize_grad_body.h. */
#include <math.h>
#include <string.h>

#include "rt_kernels.h"
#include "rt_resample.h"

#define RESAMPLE_T float
#define RESAMPLE_NAME(n) n
#include "rt_resize_body.h"

#define RESAMPLE_T double
#define RESAMPLE_NAME(n) n##_f64
#include "rt_resize_body.h"

/* The gradient is summed as Paddle's build sums it, each product rounded
 * before its addition: no fused multiply-adds from here on (clang's
 * -ffp-contract=on would contract `dx += g * w`; gcc in ISO C mode does
 * not contract). */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

/* The taps and weights of the gradient, computed here (after the pragma)
 * as Paddle's grad kernels compute them: linear_taps, except that with
 * p->float_coord the half-pixel source coordinate ratio * (k + 0.5) - 0.5
 * is computed in float (as Paddle 2.6.2's phi grad kernels, built,
 * compute the double expression their source writes; fluid's v1 kernels
 * keep double).  Checked bit for bit against Paddle 2.6.2
 * (tests/oracle/e2e_grad_interp.py). */
static RtTaps grad_taps(const RtResize *p, float ratio, int64_t k, int64_t in) {
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

/* rt_cubic_weights, rounded as Paddle's grad kernel rounds them. */
static void grad_cubic_weights(float t, float c[4]) { RT_CUBIC_WEIGHTS(t, c); }

/* The source coordinate of output k of a bicubic resize. */
static float grad_cubic_src(const RtResize *p, float ratio, int64_t k) {
  if (p->align_corners) return ratio * (float)k;
  return p->float_coord ? ratio * ((float)k + 0.5f) - 0.5f : (float)(ratio * (k + 0.5) - 0.5);
}

#define RESAMPLE_T float
#define RESAMPLE_NAME(n) n
#include "rt_resize_grad_body.h"

#define RESAMPLE_T double
#define RESAMPLE_NAME(n) n##_f64
#include "rt_resize_grad_body.h"

/* The coordinate rules of Paddle's interpolation kernels (phi
 * interpolate_kernel.cc, fluid interpolate_op.h), for the two resizers:
 * rt_interp.c (channel-first 2-D planes) and rt_resize.c (any channel
 * order, 1-D to 3-D, and the gradient).  Included at the top of each, so
 * these are compiled with the forward kernels' floating-point contraction
 * (rt_resize.c's gradient has its own, after its FP_CONTRACT pragma). */
#ifndef PADDLEC_RT_RESAMPLE_H
#define PADDLEC_RT_RESAMPLE_H

#include <math.h>
#include <stdint.h>

/* The two source indices of output index k along one dim and their
 * weights, as Paddle computes them (float and double mixed as it does):
 * i0 with weight w0 = 1 - d, i1 (clamped to the last index) with w1 = d.
 * align_flag: align_mode 0 without align_corners (half-pixel centers). */
typedef struct RtTaps {
  int64_t i0, i1;
  float w0, w1;
} RtTaps;

static inline RtTaps rt_linear_taps(float ratio, int64_t k, int64_t in, int align_flag) {
  RtTaps t;
  int64_t i0 = align_flag ? (int64_t)(int)(ratio * (k + 0.5) - 0.5) : (int64_t)(int)(ratio * (float)k);
  i0 = i0 > 0 ? i0 : 0;
  float src = (float)(ratio * (k + 0.5) - 0.5);
  src = src > 0 ? src : 0;
  const float d = align_flag ? src - (float)i0 : ratio * (float)k - (float)i0;
  t.i0 = i0;
  t.i1 = i0 + 1 < in - 1 ? i0 + 1 : in - 1;
  t.w1 = d;
  t.w0 = 1.0f - d;
  return t;
}

/* The nearest source index of output index k. */
static inline int64_t rt_nearest_index(float ratio, int64_t k, int align_corners) {
  return align_corners ? (int64_t)(int)(ratio * (float)k + 0.5) : (int64_t)(int)(ratio * (float)k);
}

/* The source coordinate of output index k of a bicubic resize. */
static inline float rt_cubic_src(float ratio, int64_t k, int align_corners) {
  return align_corners ? ratio * (float)k : (float)(ratio * (k + 0.5) - 0.5);
}

/* Keys' cubic convolution weights (A = -0.75) of the 4 taps around
 * fraction t into c[4] (Paddle's get_cubic_upsample_coefficients),
 * computed in type T (float, or double for Paddle's double kernels): one
 * text for the forward and the grad, which round it differently. */
#define RT_CUBIC_WEIGHTS_T(T, t, c)                                                                   \
  do {                                                                                                \
    const T A_ = -0.75f, x1_ = (t), x2_ = 1.0f - (t);                                                 \
    (c)[0] = ((A_ * (x1_ + 1.0f) - 5 * A_) * (x1_ + 1.0f) + 8 * A_) * (x1_ + 1.0f) - 4 * A_;          \
    (c)[1] = ((A_ + 2) * x1_ - (A_ + 3)) * x1_ * x1_ + 1;                                             \
    (c)[2] = ((A_ + 2) * x2_ - (A_ + 3)) * x2_ * x2_ + 1;                                             \
    (c)[3] = ((A_ * (x2_ + 1.0f) - 5 * A_) * (x2_ + 1.0f) + 8 * A_) * (x2_ + 1.0f) - 4 * A_;          \
  } while (0)

#define RT_CUBIC_WEIGHTS(t, c) RT_CUBIC_WEIGHTS_T(float, t, c)

static inline void rt_cubic_weights(float t, float c[4]) { RT_CUBIC_WEIGHTS(t, c); }

/* i clamped to [0, n). */
static inline int64_t rt_clamp_index(int64_t i, int64_t n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

#endif

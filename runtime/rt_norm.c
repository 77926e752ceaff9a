/* Normalizations: batch_norm with its stored statistics or its batch's,
 * per-channel affine maps, layer_norm, group_norm and instance_norm, their
 * gradients, and sync_batch_norm's; float32 and float64 (rt_norm_t.h,
 * instantiated below for each).  Statistics are accumulated in double (Paddle accumulates float
 * tensors' in float; the difference is far below the float rounding of the
 * results). */
#include <math.h>

#include "rt_kernels.h"
#include "rt_parallel.h"
#include "rt_vmath.h"

#define NT float
#define NF(name) name
#define NSQRT sqrtf
#define NSUM rt_sum_f64
#define NSQDEV rt_sqdev_f64
#include "rt_norm_t.h"
#undef NT
#undef NF
#undef NSQRT
#undef NSUM
#undef NSQDEV

/* The sum of x[0..n), and of (x[i] - m)^2, for double x in index order. */
static double sum_d(const double *x, int64_t n) {
  double s = 0.0;
  for (int64_t i = 0; i < n; i++) s += x[i];
  return s;
}

static double sqdev_d(const double *x, int64_t n, double m) {
  double s = 0.0;
  for (int64_t i = 0; i < n; i++) s += (x[i] - m) * (x[i] - m);
  return s;
}

#define NT double
#define NF(name) name##_f64
#define NSQRT sqrt
#define NSUM sum_d
#define NSQDEV sqdev_d
#include "rt_norm_t.h"
#undef NT
#undef NF
#undef NSQRT
#undef NSUM
#undef NSQDEV

/* 3-D max and average pooling (see rt_pool3d.h), float and double: the
 * window geometry here, the kernels in rt_pool3d_body.h. */
#include <float.h>
#include <math.h>

#include "rt_kernels.h"
#include "rt_parallel.h"

/* Paddle's AdaptStartIndex / AdaptEndIndex (float arithmetic, as rt_pool.c). */
static int64_t adapt_start(int64_t i, int64_t in, int64_t out) {
  return (int64_t)floorf((float)(i * in) / (float)out);
}

static int64_t adapt_end(int64_t i, int64_t in, int64_t out) {
  return (int64_t)ceilf((float)((i + 1) * in) / (float)out);
}

/* The window of output index o along dim a, clipped to the input, into
 * [*lo, *hi): adaptive bounds, or k at o * stride - pad with its end first
 * clipped to `end`.  Returns the extent after that first clip. */
static int64_t window(const RtPool3d *p, int a, int64_t o, int64_t end, int64_t *lo, int64_t *hi) {
  if (p->adaptive) {
    *lo = adapt_start(o, p->in[a], p->out[a]);
    *hi = adapt_end(o, p->in[a], p->out[a]);
    return *hi - *lo;
  }
  int64_t s = o * p->stride[a] - p->pad[a], e = s + p->k[a] < end ? s + p->k[a] : end;
  *lo = s > 0 ? s : 0;
  *hi = e < p->in[a] ? e : p->in[a];
  return e - s;
}

/* The window of output (od, oh, ow) on all three axes (padded ends, as
 * the pooling divisor counts them); returns the element count of the
 * window before clipping to the input. */
static int64_t window3(const RtPool3d *p, int64_t od, int64_t oh, int64_t ow, int64_t b[6]) {
  int64_t size = window(p, 0, od, p->in[0] + p->pad[0], &b[0], &b[1]);
  size *= window(p, 1, oh, p->in[1] + p->pad[1], &b[2], &b[3]);
  return size * window(p, 2, ow, p->in[2] + p->pad[2], &b[4], &b[5]);
}

/* The gradient's products are rounded before their sums, as in Paddle's
 * build (clang's -ffp-contract=on would fuse `dx += scale * g`). */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#define POOL_T float
#define POOL_NAME(n) n
#include "rt_pool3d_body.h"

#define POOL_T double
#define POOL_NAME(n) n##_f64
#include "rt_pool3d_body.h"

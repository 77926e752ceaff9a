/* 2-D max and average pooling with Paddle's window rule (phi
 * Pool2dFunctor, MaxPool2dWithIndexFunctor), NCHW or NHWC, float and
 * double: the window geometry here, the kernels in rt_pool2d_body.h. */
#include <float.h>
#include <math.h>

#include "rt_kernels.h"
#include "rt_parallel.h"

/* Paddle's AdaptStartIndex / AdaptEndIndex (float arithmetic). */
static int64_t adapt_start(int64_t i, int64_t in, int64_t out) {
  return (int64_t)floorf((float)(i * in) / (float)out);
}

static int64_t adapt_end(int64_t i, int64_t in, int64_t out) {
  return (int64_t)ceilf((float)((i + 1) * in) / (float)out);
}

/* The window of output (ph, pw), clipped to the input, into b = {hs, he, ws,
 * we} ([hs, he) x [ws, we)): AdaptStart/EndIndex when adaptive, else the
 * k_h x k_w window at (ph * stride_h - pad_t, pw * stride_w - pad_l) with its
 * ends first clipped to end_h x end_w.  Returns the window's area after that
 * first clip (1 when adaptive). */
static int64_t pool_bounds(const RtPool2d *p, int64_t ph, int64_t pw, int64_t end_h, int64_t end_w, int64_t b[4]) {
  if (p->adaptive) {
    b[0] = adapt_start(ph, p->h_in, p->h_out);
    b[1] = adapt_end(ph, p->h_in, p->h_out);
    b[2] = adapt_start(pw, p->w_in, p->w_out);
    b[3] = adapt_end(pw, p->w_in, p->w_out);
    return 1;
  }
  int64_t hs = ph * p->stride_h - p->pad_t, ws = pw * p->stride_w - p->pad_l;
  int64_t he = hs + p->k_h < end_h ? hs + p->k_h : end_h, we = ws + p->k_w < end_w ? ws + p->k_w : end_w;
  const int64_t size = (he - hs) * (we - ws);
  b[0] = hs > 0 ? hs : 0;
  b[1] = he < p->h_in ? he : p->h_in;
  b[2] = ws > 0 ? ws : 0;
  b[3] = we < p->w_in ? we : p->w_in;
  return size;
}

/* max_plane's run of outputs */
enum { POOL_RUN = 256 };

#define POOL_T float
#define POOL_NAME(n) n
#include "rt_pool2d_body.h"

#define POOL_T double
#define POOL_NAME(n) n##_f64
#include "rt_pool2d_body.h"

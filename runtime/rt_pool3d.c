/* 3-D max and average pooling (see rt_pool3d.h). */
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

void rt_pool3d(const RtPool3d *p, int64_t batch, const float *x, float *out) {
  const int64_t D = p->in[0], H = p->in[1], W = p->in[2];
  const int64_t OD = p->out[0], OH = p->out[1], OW = p->out[2];
  const int64_t in_vol = D * H * W, out_vol = OD * OH * OW;
  const int64_t cs_in = p->channel_last ? 1 : in_vol, cs_out = p->channel_last ? 1 : out_vol;
  const int64_t ps = p->channel_last ? p->c : 1;
  for (int64_t n = 0; n < batch; n++)
    for (int64_t c = 0; c < p->c; c++) {
      const float *xc = x + n * p->c * in_vol + c * cs_in;
      float *oc = out + n * p->c * out_vol + c * cs_out;
      for (int64_t od = 0; od < OD; od++)
        for (int64_t oh = 0; oh < OH; oh++)
          for (int64_t ow = 0; ow < OW; ow++) {
            int64_t b[6];
            int64_t size = window3(p, od, oh, ow, b);
            const int64_t d0 = b[0], d1 = b[1], h0 = b[2], h1 = b[3], w0 = b[4], w1 = b[5];
            float v = p->type == RT_POOL_MAX ? -FLT_MAX : 0.0f;
            for (int64_t d = d0; d < d1; d++)
              for (int64_t h = h0; h < h1; h++)
                for (int64_t w = w0; w < w1; w++) {
                  const float t = xc[((d * H + h) * W + w) * ps];
                  if (p->type == RT_POOL_MAX)
                    v = v > t ? v : t;
                  else
                    v += t;
                }
            if (p->type == RT_POOL_AVG) {
              if (p->exclusive || p->adaptive) size = (d1 - d0) * (h1 - h0) * (w1 - w0);
              v /= (float)size;
            }
            oc[((od * OH + oh) * OW + ow) * ps] = v;
          }
    }
}

void rt_max_pool3d_index(const RtPool3d *p, int64_t batch, const float *x, float *out, int32_t *mask) {
  const int64_t D = p->in[0], H = p->in[1], W = p->in[2];
  const int64_t OD = p->out[0], OH = p->out[1], OW = p->out[2];
  const int64_t in_vol = D * H * W, out_vol = OD * OH * OW;
  for (int64_t nc = 0; nc < batch * p->c; nc++) {
    const float *xc = x + nc * in_vol;
    for (int64_t od = 0; od < OD; od++)
      for (int64_t oh = 0; oh < OH; oh++)
        for (int64_t ow = 0; ow < OW; ow++) {
          int64_t d0, d1, h0, h1, w0, w1;
          window(p, 0, od, D, &d0, &d1);
          window(p, 1, oh, H, &h0, &h1);
          window(p, 2, ow, W, &w0, &w1);
          float v = -FLT_MAX;
          int32_t idx = -1;
          for (int64_t d = d0; d < d1; d++)
            for (int64_t h = h0; h < h1; h++)
              for (int64_t w = w0; w < w1; w++) {
                const int64_t at = (d * H + h) * W + w;
                if (v < xc[at]) {
                  v = xc[at];
                  idx = (int32_t)at;
                }
              }
          const int64_t o = nc * out_vol + (od * OH + oh) * OW + ow;
          out[o] = v;
          mask[o] = idx;
        }
  }
}

/* The gradient's products are rounded before their sums, as in Paddle's
 * build (clang's -ffp-contract=on would fuse `dx += scale * g`). */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

typedef struct Pool3dGradJob {
  const RtPool3d *p;
  const float *x, *out, *dout;
  float *dx;
} Pool3dGradJob;

/* Channels [lo, hi) (n * c + ch) of pool3d_grad. */
static void pool3d_grad_rows(void *ctx, int64_t lo, int64_t hi) {
  const Pool3dGradJob *j = ctx;
  const RtPool3d *p = j->p;
  const int64_t D = p->in[0], H = p->in[1], W = p->in[2];
  const int64_t OD = p->out[0], OH = p->out[1], OW = p->out[2];
  const int64_t in_vol = D * H * W, out_vol = OD * OH * OW;
  const int64_t cs_in = p->channel_last ? 1 : in_vol, cs_out = p->channel_last ? 1 : out_vol;
  const int64_t ps = p->channel_last ? p->c : 1;
  for (int64_t r = lo; r < hi; r++) {
    const int64_t n = r / p->c, c = r % p->c;
    const float *xc = j->x + n * p->c * in_vol + c * cs_in, *oc = j->out + n * p->c * out_vol + c * cs_out;
    const float *gc = j->dout + n * p->c * out_vol + c * cs_out;
    float *dc = j->dx + n * p->c * in_vol + c * cs_in;
    for (int64_t i = 0; i < in_vol; i++) dc[i * ps] = 0.0f;
    for (int64_t od = 0; od < OD; od++)
      for (int64_t oh = 0; oh < OH; oh++)
        for (int64_t ow = 0; ow < OW; ow++) {
          int64_t b[6];
          int64_t size = window3(p, od, oh, ow, b);
          const int64_t d0 = b[0], d1 = b[1], h0 = b[2], h1 = b[3], w0 = b[4], w1 = b[5];
          const int64_t o = ((od * OH + oh) * OW + ow) * ps;
          const float y = oc[o], g = gc[o];
          if (p->type == RT_POOL_MAX) {
            int stop = 0;
            for (int64_t d = d0; d < d1 && !stop; d++)
              for (int64_t h = h0; h < h1 && !stop; h++)
                for (int64_t w = w0; w < w1 && !stop; w++)
                  if (xc[((d * H + h) * W + w) * ps] == y) {
                    dc[((d * H + h) * W + w) * ps] += g;
                    stop = 1;
                  }
            continue;
          }
          if (p->exclusive || p->adaptive) size = (d1 - d0) * (h1 - h0) * (w1 - w0);
          const float scale = 1.0f / (float)size;
          for (int64_t d = d0; d < d1; d++)
            for (int64_t h = h0; h < h1; h++)
              for (int64_t w = w0; w < w1; w++) dc[((d * H + h) * W + w) * ps] += scale * g;
        }
  }
}

void rt_pool3d_grad(const RtPool3d *p, int64_t batch, const float *x, const float *out, const float *dout,
                    float *dx) {
  Pool3dGradJob j = {p, x, out, dout, dx};
  const int64_t win = p->adaptive ? (p->in[0] / p->out[0] + 1) * (p->in[1] / p->out[1] + 1) *
                                        (p->in[2] / p->out[2] + 1)
                                  : p->k[0] * p->k[1] * p->k[2];
  rt_parallel_range(batch * p->c, batch * p->c * p->out[0] * p->out[1] * p->out[2] * win, pool3d_grad_rows, &j);
}

/* Resizing in any channel order (see rt_resize.h). */
#include <math.h>
#include <string.h>

#include "rt_kernels.h"
#include "rt_resample.h"

/* One channel of one image: x and out point at its first element, ps is
 * the distance between two pixels. */
static void resize_channel(const RtResize *p, const float *x, float *out, int64_t ps) {
  const int64_t D = p->in[0], H = p->in[1], W = p->in[2], OD = p->out[0], OH = p->out[1], OW = p->out[2];
  const int flag = p->align_mode == 0 && !p->align_corners;
#define AT(d, h, w) x[(((d) * H + (h)) * W + (w)) * ps]
  for (int64_t od = 0; od < OD; od++)
    for (int64_t oh = 0; oh < OH; oh++)
      for (int64_t ow = 0; ow < OW; ow++) {
        float *o = out + ((od * OH + oh) * OW + ow) * ps;
        if (p->method == RT_INTERP_NEAREST) {
          const int64_t sd = p->nsp == 3 ? rt_nearest_index(p->ratio[0], od, p->align_corners) : od;
          const int64_t sh = p->nsp >= 2 ? rt_nearest_index(p->ratio[1], oh, p->align_corners) : oh;
          *o = AT(sd, sh, rt_nearest_index(p->ratio[2], ow, p->align_corners));
        } else if (p->method == RT_INTERP_BICUBIC) { /* 2-D: 4 rows across, then one column */
          const float sy = rt_cubic_src(p->ratio[1], oh, p->align_corners);
          const float sx = rt_cubic_src(p->ratio[2], ow, p->align_corners);
          const int64_t iy = (int64_t)floorf(sy), ix = (int64_t)floorf(sx);
          float cy[4], cx[4], row[4];
          rt_cubic_weights(sy - (float)iy, cy);
          rt_cubic_weights(sx - (float)ix, cx);
          for (int i = 0; i < 4; i++) {
            const int64_t h = rt_clamp_index(iy - 1 + i, H);
            row[i] = AT(od, h, rt_clamp_index(ix - 1, W)) * cx[0] + AT(od, h, rt_clamp_index(ix, W)) * cx[1] +
                     AT(od, h, rt_clamp_index(ix + 1, W)) * cx[2] + AT(od, h, rt_clamp_index(ix + 2, W)) * cx[3];
          }
          *o = row[0] * cy[0] + row[1] * cy[1] + row[2] * cy[2] + row[3] * cy[3];
        } else if (p->nsp == 1) {
          const RtTaps w = rt_linear_taps(p->ratio[2], ow, W, flag);
          *o = AT(od, oh, w.i0) * w.w0 + AT(od, oh, w.i1) * w.w1;
        } else if (p->nsp == 2) {
          const RtTaps h = rt_linear_taps(p->ratio[1], oh, H, flag), w = rt_linear_taps(p->ratio[2], ow, W, flag);
          *o = AT(od, h.i0, w.i0) * h.w0 * w.w0 + AT(od, h.i1, w.i0) * h.w1 * w.w0 + AT(od, h.i0, w.i1) * h.w0 * w.w1 +
               AT(od, h.i1, w.i1) * h.w1 * w.w1;
        } else {
          const RtTaps d = rt_linear_taps(p->ratio[0], od, D, flag), h = rt_linear_taps(p->ratio[1], oh, H, flag),
                     w = rt_linear_taps(p->ratio[2], ow, W, flag);
          *o = AT(d.i0, h.i0, w.i0) * d.w0 * h.w0 * w.w0 + AT(d.i0, h.i0, w.i1) * d.w0 * h.w0 * w.w1 +
               AT(d.i0, h.i1, w.i0) * d.w0 * h.w1 * w.w0 + AT(d.i0, h.i1, w.i1) * d.w0 * h.w1 * w.w1 +
               AT(d.i1, h.i0, w.i0) * d.w1 * h.w0 * w.w0 + AT(d.i1, h.i0, w.i1) * d.w1 * h.w0 * w.w1 +
               AT(d.i1, h.i1, w.i0) * d.w1 * h.w1 * w.w0 + AT(d.i1, h.i1, w.i1) * d.w1 * h.w1 * w.w1;
        }
      }
#undef AT
}

void rt_resize(const RtResize *p, int64_t batch, const float *x, float *out) {
  const int64_t in_vol = p->in[0] * p->in[1] * p->in[2], out_vol = p->out[0] * p->out[1] * p->out[2];
  if (p->in[0] == p->out[0] && p->in[1] == p->out[1] && p->in[2] == p->out[2]) { /* Paddle copies the input */
    memcpy(out, x, sizeof(float) * (size_t)(batch * p->c * in_vol));
    return;
  }
  const int64_t ps = p->channel_last ? p->c : 1;
  for (int64_t n = 0; n < batch; n++)
    for (int64_t c = 0; c < p->c; c++) {
      const int64_t ci = p->channel_last ? c : c * in_vol, co = p->channel_last ? c : c * out_vol;
      resize_channel(p, x + n * p->c * in_vol + ci, out + n * p->c * out_vol + co, ps);
    }
}

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

/* One channel's gradient: dx and dout point at its first element, ps is
 * the distance between two pixels; dx is zero. */
static void resize_channel_grad(const RtResize *p, const float *dout, float *dx, int64_t ps) {
  const int64_t D = p->in[0], H = p->in[1], W = p->in[2], OD = p->out[0], OH = p->out[1], OW = p->out[2];
#define AT(d, h, w) dx[(((d) * H + (h)) * W + (w)) * ps]
  for (int64_t od = 0; od < OD; od++)
    for (int64_t oh = 0; oh < OH; oh++)
      for (int64_t ow = 0; ow < OW; ow++) {
        const float g = dout[((od * OH + oh) * OW + ow) * ps];
        if (p->method == RT_INTERP_NEAREST) {
          const int64_t sd = p->nsp == 3 ? rt_nearest_index(p->ratio[0], od, p->align_corners) : od;
          const int64_t sh = p->nsp >= 2 ? rt_nearest_index(p->ratio[1], oh, p->align_corners) : oh;
          AT(sd, sh, rt_nearest_index(p->ratio[2], ow, p->align_corners)) += g;
        } else if (p->method == RT_INTERP_BICUBIC) { /* 2-D: taps by column, then by row */
          const float sy = grad_cubic_src(p, p->ratio[1], oh), sx = grad_cubic_src(p, p->ratio[2], ow);
          const int64_t iy = (int64_t)floorf(sy), ix = (int64_t)floorf(sx);
          float cy[4], cx[4];
          grad_cubic_weights(sy - (float)iy, cy);
          grad_cubic_weights(sx - (float)ix, cx);
          for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
              AT(od, rt_clamp_index(iy - 1 + j, H), rt_clamp_index(ix - 1 + i, W)) += g * cy[j] * cx[i];
        } else if (p->nsp == 1) {
          const RtTaps w = grad_taps(p, p->ratio[2], ow, W);
          AT(od, oh, w.i0) += g * w.w0;
          AT(od, oh, w.i1) += g * w.w1;
        } else if (p->nsp == 2) {
          const RtTaps h = grad_taps(p, p->ratio[1], oh, H), w = grad_taps(p, p->ratio[2], ow, W);
          AT(od, h.i0, w.i0) += g * h.w0 * w.w0;
          AT(od, h.i1, w.i0) += g * h.w1 * w.w0;
          AT(od, h.i0, w.i1) += g * h.w0 * w.w1;
          AT(od, h.i1, w.i1) += g * h.w1 * w.w1;
        } else {
          const RtTaps d = grad_taps(p, p->ratio[0], od, D), h = grad_taps(p, p->ratio[1], oh, H),
                     w = grad_taps(p, p->ratio[2], ow, W);
          AT(d.i0, h.i0, w.i0) += g * d.w0 * h.w0 * w.w0;
          AT(d.i0, h.i0, w.i1) += g * d.w0 * h.w0 * w.w1;
          AT(d.i0, h.i1, w.i0) += g * d.w0 * h.w1 * w.w0;
          AT(d.i0, h.i1, w.i1) += g * d.w0 * h.w1 * w.w1;
          AT(d.i1, h.i0, w.i0) += g * d.w1 * h.w0 * w.w0;
          AT(d.i1, h.i0, w.i1) += g * d.w1 * h.w0 * w.w1;
          AT(d.i1, h.i1, w.i0) += g * d.w1 * h.w1 * w.w0;
          AT(d.i1, h.i1, w.i1) += g * d.w1 * h.w1 * w.w1;
        }
      }
#undef AT
}

void rt_resize_grad(const RtResize *p, int64_t lo, int64_t hi, const float *dout, float *dx) {
  const int64_t in_vol = p->in[0] * p->in[1] * p->in[2], out_vol = p->out[0] * p->out[1] * p->out[2];
  const int same = p->in[0] == p->out[0] && p->in[1] == p->out[1] && p->in[2] == p->out[2];
  const int64_t ps = p->channel_last ? p->c : 1;
  for (int64_t pl = lo; pl < hi; pl++) {
    const int64_t n = pl / p->c, c = pl % p->c;
    const int64_t ci = p->channel_last ? c : c * in_vol, co = p->channel_last ? c : c * out_vol;
    float *d = dx + n * p->c * in_vol + ci;
    const float *g = dout + n * p->c * out_vol + co;
    for (int64_t i = 0; i < in_vol; i++) d[i * ps] = same ? g[i * ps] : 0.0f; /* Paddle copies dout when equal */
    if (!same) resize_channel_grad(p, g, d, ps);
  }
}

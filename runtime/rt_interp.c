/* Resampling (nearest / bilinear / bicubic resize of channel-first planes,
 * with the coordinate rules of rt_resample.h) and border padding (pad2d,
 * pad3d). */
#include <math.h>
#include <string.h>

#include "rt_kernels.h"
#include "rt_resample.h"

/* One plane, bicubic: 4 horizontal interpolations, then one vertical. */
static void bicubic_plane(const RtInterp2d *p, const float *x, float *out) {
  const int64_t H = p->h_in, W = p->w_in;
  for (int64_t k = 0; k < p->h_out; k++) {
    float cy[4];
    const float sy = rt_cubic_src(p->ratio_h, k, p->align_corners);
    const int64_t iy = (int64_t)floorf(sy);
    rt_cubic_weights(sy - (float)iy, cy);
    for (int64_t l = 0; l < p->w_out; l++) {
      float cx[4], col[4];
      const float sx = rt_cubic_src(p->ratio_w, l, p->align_corners);
      const int64_t ix = (int64_t)floorf(sx);
      rt_cubic_weights(sx - (float)ix, cx);
      for (int ii = 0; ii < 4; ii++) {
        const float *r = x + rt_clamp_index(iy - 1 + ii, H) * W;
        col[ii] = r[rt_clamp_index(ix - 1, W)] * cx[0] + r[rt_clamp_index(ix, W)] * cx[1] +
                  r[rt_clamp_index(ix + 1, W)] * cx[2] + r[rt_clamp_index(ix + 2, W)] * cx[3];
      }
      out[k * p->w_out + l] = col[0] * cy[0] + col[1] * cy[1] + col[2] * cy[2] + col[3] * cy[3];
    }
  }
}

/* One plane, nearest or bilinear, row by row. */
static void linear_plane(const RtInterp2d *p, const float *x, float *out) {
  const int64_t H = p->h_in, W = p->w_in, OW = p->w_out;
  const int align_flag = p->align_mode == 0 && !p->align_corners;
  for (int64_t k = 0; k < p->h_out; k++) {
    float *orow = out + k * OW;
    if (p->method == RT_INTERP_NEAREST) {
      const float *xr = x + rt_nearest_index(p->ratio_h, k, p->align_corners) * W;
      for (int64_t l = 0; l < OW; l++) orow[l] = xr[rt_nearest_index(p->ratio_w, l, p->align_corners)];
      continue;
    }
    RtTaps ly = rt_linear_taps(p->ratio_h, k, H, align_flag);
    const float *r0 = x + ly.i0 * W, *r1 = x + ly.i1 * W;
    for (int64_t l = 0; l < OW; l++) {
      RtTaps lx = rt_linear_taps(p->ratio_w, l, W, align_flag);
      orow[l] = r0[lx.i0] * ly.w0 * lx.w0 + r1[lx.i0] * ly.w1 * lx.w0 + r0[lx.i1] * ly.w0 * lx.w1 +
                r1[lx.i1] * ly.w1 * lx.w1;
    }
  }
}

void rt_interp2d(const RtInterp2d *p, int64_t planes, const float *x, float *out) {
  const int64_t in = p->h_in * p->w_in, on = p->h_out * p->w_out;
  if (p->h_in == p->h_out && p->w_in == p->w_out) { /* Paddle copies the input unchanged */
    memcpy(out, x, sizeof(float) * (size_t)(planes * in));
    return;
  }
  for (int64_t pl = 0; pl < planes; pl++) {
    if (p->method == RT_INTERP_BICUBIC)
      bicubic_plane(p, x + pl * in, out + pl * on);
    else
      linear_plane(p, x + pl * in, out + pl * on);
  }
}

/* Source index of padded position o along a dim of n elements with
 * `before` padding; -1 for a constant-filled position. */
static int64_t pad_src(RtPadMode mode, int64_t o, int64_t before, int64_t n) {
  int64_t i = o - before;
  switch (mode) {
    case RT_PAD_REFLECT:
      i = i < 0 ? -i : i;
      return i < 2 * n - i - 2 ? i : 2 * n - i - 2;
    case RT_PAD_REPLICATE: return i < 0 ? 0 : (i >= n ? n - 1 : i);
    case RT_PAD_CIRCULAR: return ((i % n) + n) % n;
    default: return i >= 0 && i < n ? i : -1;
  }
}

void rt_pad3d(const RtPad3d *p, int64_t outer, const float *x, float *out) {
  const int64_t D = p->in[0], H = p->in[1], W = p->in[2], C = p->inner;
  const int64_t OD = D + p->pads[0] + p->pads[1], OH = H + p->pads[2] + p->pads[3], OW = W + p->pads[4] + p->pads[5];
  for (int64_t o = 0; o < outer; o++) {
    const float *xo = x + o * D * H * W * C;
    for (int64_t od = 0; od < OD; od++)
      for (int64_t oh = 0; oh < OH; oh++) {
        float *orow = out + (((o * OD + od) * OH + oh) * OW) * C;
        int64_t sd = pad_src(p->mode, od, p->pads[0], D), sh = pad_src(p->mode, oh, p->pads[2], H);
        for (int64_t ow = 0; ow < OW; ow++) {
          int64_t sw = pad_src(p->mode, ow, p->pads[4], W);
          float *dst = orow + ow * C;
          if (sd < 0 || sh < 0 || sw < 0) {
            for (int64_t c = 0; c < C; c++) dst[c] = p->value;
          } else {
            memcpy(dst, xo + ((sd * H + sh) * W + sw) * C, sizeof(float) * (size_t)C);
          }
        }
      }
  }
}

void rt_pad3d_grad(const RtPad3d *p, int64_t outer, const float *dout, float *dx) {
  const int64_t D = p->in[0], H = p->in[1], W = p->in[2], C = p->inner;
  const int64_t OD = D + p->pads[0] + p->pads[1], OH = H + p->pads[2] + p->pads[3], OW = W + p->pads[4] + p->pads[5];
  memset(dx, 0, sizeof(float) * (size_t)(outer * D * H * W * C));
  for (int64_t o = 0; o < outer; o++) {
    float *xo = dx + o * D * H * W * C;
    for (int64_t od = 0; od < OD; od++)
      for (int64_t oh = 0; oh < OH; oh++) {
        const float *orow = dout + (((o * OD + od) * OH + oh) * OW) * C;
        int64_t sd = pad_src(p->mode, od, p->pads[0], D), sh = pad_src(p->mode, oh, p->pads[2], H);
        if (sd < 0 || sh < 0) continue;
        for (int64_t ow = 0; ow < OW; ow++) {
          int64_t sw = pad_src(p->mode, ow, p->pads[4], W);
          if (sw < 0) continue;
          float *dst = xo + ((sd * H + sh) * W + sw) * C;
          const float *src = orow + ow * C;
          for (int64_t c = 0; c < C; c++) dst[c] += src[c];
        }
      }
  }
}

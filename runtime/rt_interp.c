/* Resampling (nearest / bilinear / bicubic resize of channel-first planes,
 * with the coordinate rules of rt_resample.h; float and double, the kernels
 * in rt_interp2d_body.h) and border padding (pad2d, pad3d). */
#include <math.h>
#include <string.h>

#include "rt_kernels.h"
#include "rt_resample.h"

#define RESAMPLE_T float
#define RESAMPLE_NAME(n) n
#include "rt_interp2d_body.h"

#define RESAMPLE_T double
#define RESAMPLE_NAME(n) n##_f64
#include "rt_interp2d_body.h"

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

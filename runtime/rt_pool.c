/* 2-D max and average pooling with Paddle's window rule (phi
 * Pool2dFunctor, MaxPool2dWithIndexFunctor), NCHW or NHWC. */
#include <float.h>
#include <math.h>

#include "rt_kernels.h"

/* Paddle's AdaptStartIndex / AdaptEndIndex (float arithmetic). */
static int64_t adapt_start(int64_t i, int64_t in, int64_t out) {
  return (int64_t)floorf((float)(i * in) / (float)out);
}

static int64_t adapt_end(int64_t i, int64_t in, int64_t out) {
  return (int64_t)ceilf((float)((i + 1) * in) / (float)out);
}

/* One window [hs, he) x [ws, we) of the channel at x (pixel stride ps). */
static float pool_window(const RtPool2d *p, const float *x, int64_t ps, int64_t hs, int64_t he, int64_t ws,
                         int64_t we, int64_t pool_size) {
  if (p->type == RT_POOL_MAX) {
    float v = -FLT_MAX;
    for (int64_t h = hs; h < he; h++)
      for (int64_t w = ws; w < we; w++) {
        float t = x[(h * p->w_in + w) * ps];
        v = v > t ? v : t;
      }
    return v;
  }
  float sum = 0.0f;
  for (int64_t h = hs; h < he; h++)
    for (int64_t w = ws; w < we; w++) sum += x[(h * p->w_in + w) * ps];
  if (p->exclusive || p->adaptive) pool_size = (he - hs) * (we - ws);
  return sum / (float)pool_size;
}

void rt_pool2d(const RtPool2d *p, int64_t batch, const float *x, float *out) {
  const int64_t in_img = p->c * p->h_in * p->w_in, out_img = p->c * p->h_out * p->w_out;
  const int64_t cs_in = p->channel_last ? 1 : p->h_in * p->w_in, cs_out = p->channel_last ? 1 : p->h_out * p->w_out;
  const int64_t ps_in = p->channel_last ? p->c : 1, ps_out = p->channel_last ? p->c : 1;
  for (int64_t n = 0; n < batch; n++)
    for (int64_t c = 0; c < p->c; c++) {
      const float *xc = x + n * in_img + c * cs_in;
      float *oc = out + n * out_img + c * cs_out;
      for (int64_t ph = 0; ph < p->h_out; ph++)
        for (int64_t pw = 0; pw < p->w_out; pw++) {
          int64_t hs, he, ws, we, pool_size = 1;
          if (p->adaptive) {
            hs = adapt_start(ph, p->h_in, p->h_out);
            he = adapt_end(ph, p->h_in, p->h_out);
            ws = adapt_start(pw, p->w_in, p->w_out);
            we = adapt_end(pw, p->w_in, p->w_out);
          } else {
            /* the window is clipped to the padded input for the divisor
             * (exclusive = false), then to the input itself */
            hs = ph * p->stride_h - p->pad_t;
            ws = pw * p->stride_w - p->pad_l;
            he = hs + p->k_h < p->h_in + p->pad_t ? hs + p->k_h : p->h_in + p->pad_t;
            we = ws + p->k_w < p->w_in + p->pad_l ? ws + p->k_w : p->w_in + p->pad_l;
            pool_size = (he - hs) * (we - ws);
            hs = hs > 0 ? hs : 0;
            ws = ws > 0 ? ws : 0;
            he = he < p->h_in ? he : p->h_in;
            we = we < p->w_in ? we : p->w_in;
          }
          oc[(ph * p->w_out + pw) * ps_out] = pool_window(p, xc, ps_in, hs, he, ws, we, pool_size);
        }
    }
}

void rt_max_pool2d_index(const RtPool2d *p, int64_t batch, const float *x, float *out, int32_t *mask) {
  const int64_t in_plane = p->h_in * p->w_in, out_plane = p->h_out * p->w_out;
  for (int64_t nc = 0; nc < batch * p->c; nc++) {
    const float *xc = x + nc * in_plane;
    for (int64_t ph = 0; ph < p->h_out; ph++)
      for (int64_t pw = 0; pw < p->w_out; pw++) {
        int64_t hs, he, ws, we;
        if (p->adaptive) {
          hs = adapt_start(ph, p->h_in, p->h_out);
          he = adapt_end(ph, p->h_in, p->h_out);
          ws = adapt_start(pw, p->w_in, p->w_out);
          we = adapt_end(pw, p->w_in, p->w_out);
        } else {
          hs = ph * p->stride_h - p->pad_t;
          ws = pw * p->stride_w - p->pad_l;
          he = hs + p->k_h < p->h_in ? hs + p->k_h : p->h_in;
          we = ws + p->k_w < p->w_in ? ws + p->k_w : p->w_in;
          hs = hs > 0 ? hs : 0;
          ws = ws > 0 ? ws : 0;
        }
        float v = -FLT_MAX;
        int32_t idx = -1;
        for (int64_t h = hs; h < he; h++)
          for (int64_t w = ws; w < we; w++)
            if (v < xc[h * p->w_in + w]) {
              v = xc[h * p->w_in + w];
              idx = (int32_t)(h * p->w_in + w);
            }
        out[nc * out_plane + ph * p->w_out + pw] = v;
        mask[nc * out_plane + ph * p->w_out + pw] = idx;
      }
  }
}

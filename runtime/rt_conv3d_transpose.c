/* 3-D transposed convolution (see rt_conv3d_transpose.h). */
#include <string.h>

#include "rt_kernels.h"

/* Paddle's Col2VolFunctor: col [mg * k_d*k_h*k_w, d_in*h_in*w_in] summed into
 * the mg channels of vol ([mg, d_out, h_out, w_out], zeroed by the caller). */
static void col2vol(const RtConv3d *p, const float *col, int64_t mg, float *vol) {
  const int64_t D = p->d_out, H = p->h_out, W = p->w_out, ID = p->d_in, IH = p->h_in, IW = p->w_in;
  const int64_t taps = p->k_d * p->k_h * p->k_w;
  for (int64_t c = 0; c < mg * taps; c++) {
    const int64_t kw = c % p->k_w, kh = c / p->k_w % p->k_h, kd = c / p->k_w / p->k_h % p->k_d, ch = c / taps;
    const float *src = col + c * ID * IH * IW;
    float *dst = vol + ch * D * H * W;
    for (int64_t d = 0; d < ID; d++) {
      const int64_t od = d * p->stride[0] - p->pad[0] + kd * p->dil[0];
      if (od < 0 || od >= D) continue;
      for (int64_t h = 0; h < IH; h++) {
        const int64_t oh = h * p->stride[1] - p->pad[1] + kh * p->dil[1];
        if (oh < 0 || oh >= H) continue;
        const float *s = src + (d * IH + h) * IW;
        float *o = dst + (od * H + oh) * W;
        for (int64_t w = 0; w < IW; w++) {
          const int64_t ow = w * p->stride[2] - p->pad[2] + kw * p->dil[2];
          if (ow >= 0 && ow < W) o[ow] += s[w];
        }
      }
    }
  }
}

/* dst[j][i] = src[i][j] for src [rows, cols]. */
static void transpose(const float *src, int64_t rows, int64_t cols, float *dst) {
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) dst[j * rows + i] = src[i * cols + j];
}

void rt_conv3d_transpose(const RtConv3d *p, int channel_last, int64_t batch, const float *x, const float *w,
                         float *out, float *ws, float *gemm_ws) {
  const int64_t vol_in = p->d_in * p->h_in * p->w_in, vol_out = p->d_out * p->h_out * p->w_out;
  const int64_t cg = p->c_in / p->groups, mg = p->c_out / p->groups;
  const int64_t mk = mg * p->k_d * p->k_h * p->k_w;
  float *col = ws, *x_img = ws + mk * vol_in, *out_img = x_img + p->c_in * vol_in;
  for (int64_t n = 0; n < batch; n++) {
    const float *xn = x + n * p->c_in * vol_in;
    float *on = out + n * p->c_out * vol_out;
    if (channel_last) {
      transpose(xn, vol_in, p->c_in, x_img);
      xn = x_img;
      on = out_img;
    }
    memset(on, 0, sizeof(float) * (size_t)(p->c_out * vol_out));
    for (int64_t g = 0; g < p->groups; g++) {
      /* col [mk, vol_in] = W_g^T [mk, cg] x X_g [cg, vol_in]; W_g is [cg, mk] */
      rt_sgemm_ws(1, 0, mk, vol_in, cg, 1.0f, w + g * cg * mk, mk, xn + g * cg * vol_in, vol_in, 0.0f, col, vol_in,
                  gemm_ws);
      col2vol(p, col, mg, on + g * mg * vol_out);
    }
    if (channel_last) transpose(out_img, p->c_out, vol_out, out + n * p->c_out * vol_out);
  }
}

/* 3-D transposed convolution (see rt_conv3d_transpose.h). */
#include <string.h>

#include "rt_kernels.h"

/* The template's GEMM (as in rt_conv3d.c): float packs into ws, double
 * (rt_dgemm) needs no room. */
#define GEMM_F32(ta, tb, m, n, k, a, lda, b, ldb, c, ldc, ws) \
  rt_sgemm_ws(ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc, ws)
#define GEMM_F64(ta, tb, m, n, k, a, lda, b, ldb, c, ldc, ws) \
  ((void)(ws), rt_dgemm(ta, tb, m, n, k, 1.0, a, lda, b, ldb, 0.0, c, ldc))

/* COL2VOL(name, T): Paddle's Col2VolFunctor: col [mg * k_d*k_h*k_w,
 * d_in*h_in*w_in] summed into the mg channels of vol ([mg, d_out, h_out,
 * w_out], zeroed by the caller). */
#define COL2VOL(name, T)                                                                                       \
  static void name(const RtConv3d *p, const T *col, int64_t mg, T *vol) {                                      \
    const int64_t D = p->d_out, H = p->h_out, W = p->w_out, ID = p->d_in, IH = p->h_in, IW = p->w_in;          \
    const int64_t taps = p->k_d * p->k_h * p->k_w;                                                             \
    for (int64_t c = 0; c < mg * taps; c++) {                                                                  \
      const int64_t kw = c % p->k_w, kh = c / p->k_w % p->k_h, kd = c / p->k_w / p->k_h % p->k_d, ch = c / taps; \
      const T *src = col + c * ID * IH * IW;                                                                   \
      T *dst = vol + ch * D * H * W;                                                                           \
      for (int64_t d = 0; d < ID; d++) {                                                                       \
        const int64_t od = d * p->stride[0] - p->pad[0] + kd * p->dil[0];                                      \
        if (od < 0 || od >= D) continue;                                                                       \
        for (int64_t h = 0; h < IH; h++) {                                                                     \
          const int64_t oh = h * p->stride[1] - p->pad[1] + kh * p->dil[1];                                    \
          if (oh < 0 || oh >= H) continue;                                                                     \
          const T *s = src + (d * IH + h) * IW;                                                                \
          T *o = dst + (od * H + oh) * W;                                                                      \
          for (int64_t w = 0; w < IW; w++) {                                                                   \
            const int64_t ow = w * p->stride[2] - p->pad[2] + kw * p->dil[2];                                  \
            if (ow >= 0 && ow < W) o[ow] += s[w];                                                              \
          }                                                                                                    \
        }                                                                                                      \
      }                                                                                                        \
    }                                                                                                          \
  }
COL2VOL(col2vol, float)
COL2VOL(col2vol_f64, double)

/* CONV3D_TRANSPOSE(name, T, col2vol, GEMM, sfx): per image (transposed
 * from NDHWC with channel_last, through rt_nhwc_to_nchw<sfx>) and group
 * col = W_g^T X_g, then col2vol; the image transposed back. */
#define CONV3D_TRANSPOSE(name, T, col2vol, GEMM, sfx)                                                          \
  static void name(const RtConv3d *p, int channel_last, int64_t batch, const T *x, const T *w, T *out, T *ws,  \
                   T *gemm_ws) {                                                                               \
    const int64_t vol_in = p->d_in * p->h_in * p->w_in, vol_out = p->d_out * p->h_out * p->w_out;              \
    const int64_t cg = p->c_in / p->groups, mg = p->c_out / p->groups;                                         \
    const int64_t mk = mg * p->k_d * p->k_h * p->k_w;                                                          \
    T *col = ws, *x_img = ws + mk * vol_in, *out_img = x_img + p->c_in * vol_in;                               \
    for (int64_t n = 0; n < batch; n++) {                                                                      \
      const T *xn = x + n * p->c_in * vol_in;                                                                  \
      T *on = out + n * p->c_out * vol_out;                                                                    \
      if (channel_last) {                                                                                      \
        rt_nhwc_to_nchw##sfx(xn, x_img, 1, vol_in, p->c_in);                                                   \
        xn = x_img;                                                                                            \
        on = out_img;                                                                                          \
      }                                                                                                        \
      memset(on, 0, sizeof(T) * (size_t)(p->c_out * vol_out));                                                 \
      for (int64_t g = 0; g < p->groups; g++) {                                                                \
        /* col [mk, vol_in] = W_g^T [mk, cg] x X_g [cg, vol_in]; W_g is [cg, mk] */                            \
        GEMM(1, 0, mk, vol_in, cg, w + g * cg * mk, mk, xn + g * cg * vol_in, vol_in, col, vol_in, gemm_ws);   \
        col2vol(p, col, mg, on + g * mg * vol_out);                                                            \
      }                                                                                                        \
      if (channel_last) rt_nchw_to_nhwc##sfx(out_img, out + n * p->c_out * vol_out, 1, p->c_out, vol_out);     \
    }                                                                                                          \
  }
CONV3D_TRANSPOSE(conv3d_transpose_f32, float, col2vol, GEMM_F32, )
CONV3D_TRANSPOSE(conv3d_transpose_f64, double, col2vol_f64, GEMM_F64, _f64)

void rt_conv3d_transpose(const RtConv3d *p, int channel_last, int64_t batch, const float *x, const float *w,
                         float *out, float *ws, float *gemm_ws) {
  conv3d_transpose_f32(p, channel_last, batch, x, w, out, ws, gemm_ws);
}

void rt_conv3d_transpose_f64(const RtConv3d *p, int channel_last, int64_t batch, const double *x, const double *w,
                             double *out, double *ws) {
  conv3d_transpose_f64(p, channel_last, batch, x, w, out, ws, NULL);
}

/* 3-D convolution of NCDHW volumes: vol2col into the workspace, then one
 * GEMM per group (filter [c_out, c_in/groups, k_d, k_h, k_w]).  The float
 * and double (Paddle's double kernels) routines are one template each,
 * instantiated for both; double multiplies with rt_dgemm (no packing room). */
#include <string.h>

#include "rt_kernels.h"

/* The templates' GEMM: C = op(A) op(B) + beta C, with the packing room ws
 * for float (rt_sgemm_ws); rt_dgemm needs none. */
#define GEMM_F32(ta, tb, m, n, k, a, lda, b, ldb, beta, c, ldc, ws) \
  rt_sgemm_ws(ta, tb, m, n, k, 1.0f, a, lda, b, ldb, beta, c, ldc, ws)
#define GEMM_F64(ta, tb, m, n, k, a, lda, b, ldb, beta, c, ldc, ws) \
  ((void)(ws), rt_dgemm(ta, tb, m, n, k, 1.0, a, lda, b, ldb, beta, c, ldc))

/* VOL2COL(name, T):
 * col[((c*k_d + a)*k_h + b)*k_w + e][od*OH*OW + oh*OW + ow] = input sample
 * (zero outside the padded volume). */
#define VOL2COL(name, T)                                                                          \
  static void name(const RtConv3d *p, const T *x, int64_t cg, T *col) {                           \
    const int64_t D = p->d_in, H = p->h_in, W = p->w_in, OD = p->d_out, OH = p->h_out, OW = p->w_out; \
    for (int64_t c = 0; c < cg; c++)                                                              \
      for (int64_t a = 0; a < p->k_d; a++)                                                        \
        for (int64_t b = 0; b < p->k_h; b++)                                                      \
          for (int64_t e = 0; e < p->k_w; e++) {                                                  \
            T *row = col + (((c * p->k_d + a) * p->k_h + b) * p->k_w + e) * OD * OH * OW;         \
            for (int64_t od = 0; od < OD; od++) {                                                 \
              int64_t id = od * p->stride[0] - p->pad[0] + a * p->dil[0];                         \
              for (int64_t oh = 0; oh < OH; oh++) {                                               \
                int64_t ih = oh * p->stride[1] - p->pad[1] + b * p->dil[1];                       \
                T *r = row + (od * OH + oh) * OW;                                                 \
                if (id < 0 || id >= D || ih < 0 || ih >= H) {                                     \
                  memset(r, 0, sizeof(T) * (size_t)OW);                                           \
                  continue;                                                                       \
                }                                                                                 \
                const T *src = x + ((c * D + id) * H + ih) * W;                                   \
                for (int64_t ow = 0; ow < OW; ow++) {                                             \
                  int64_t iw = ow * p->stride[2] - p->pad[2] + e * p->dil[2];                     \
                  r[ow] = iw >= 0 && iw < W ? src[iw] : (T)0;                                     \
                }                                                                                 \
              }                                                                                   \
            }                                                                                     \
          }                                                                                       \
  }
VOL2COL(vol2col, float)
VOL2COL(vol2col_f64, double)

/* CONV3D(name, T, vol2col, GEMM): out = conv3d(x, w), per image and group. */
#define CONV3D(name, T, vol2col, GEMM)                                                                    \
  static void name(const RtConv3d *p, int64_t batch, const T *x, const T *w, T *out, T *ws, T *gemm_ws) { \
    const int64_t cg = p->c_in / p->groups, mg = p->c_out / p->groups;                                    \
    const int64_t k = cg * p->k_d * p->k_h * p->k_w, osz = p->d_out * p->h_out * p->w_out;                \
    const int64_t isz = p->d_in * p->h_in * p->w_in;                                                      \
    for (int64_t n = 0; n < batch; n++)                                                                   \
      for (int64_t g = 0; g < p->groups; g++) {                                                           \
        vol2col(p, x + (n * p->c_in + g * cg) * isz, cg, ws);                                             \
        GEMM(0, 0, mg, osz, k, w + g * mg * k, k, ws, osz, (T)0, out + (n * p->c_out + g * mg) * osz, osz, \
             gemm_ws);                                                                                    \
      }                                                                                                   \
  }
CONV3D(conv3d_f32, float, vol2col, GEMM_F32)
CONV3D(conv3d_f64, double, vol2col_f64, GEMM_F64)

/* CONV3D_FILTER_GRAD(name, T, vol2col, GEMM): dw from zero, then
 * dw_g += dY_g vol2col(X_g)^T for each image and group, in order. */
#define CONV3D_FILTER_GRAD(name, T, vol2col, GEMM)                                                           \
  static void name(const RtConv3d *p, int64_t batch, const T *x, const T *dy, T *dw, T *ws, T *gemm_ws) {    \
    const int64_t cg = p->c_in / p->groups, mg = p->c_out / p->groups;                                       \
    const int64_t k = cg * p->k_d * p->k_h * p->k_w, osz = p->d_out * p->h_out * p->w_out;                   \
    const int64_t isz = p->d_in * p->h_in * p->w_in;                                                         \
    memset(dw, 0, sizeof(T) * (size_t)(p->c_out * k));                                                       \
    for (int64_t n = 0; n < batch; n++)                                                                      \
      for (int64_t g = 0; g < p->groups; g++) {                                                              \
        vol2col(p, x + (n * p->c_in + g * cg) * isz, cg, ws);                                                \
        GEMM(0, 1, mg, k, osz, dy + (n * p->c_out + g * mg) * osz, osz, ws, osz, (T)1, dw + g * mg * k, k,   \
             gemm_ws);                                                                                       \
      }                                                                                                      \
  }
CONV3D_FILTER_GRAD(filter_grad_f32, float, vol2col, GEMM_F32)
CONV3D_FILTER_GRAD(filter_grad_f64, double, vol2col_f64, GEMM_F64)

void rt_conv3d(const RtConv3d *p, int64_t batch, const float *x, const float *w, float *out, float *ws,
               float *gemm_ws) {
  conv3d_f32(p, batch, x, w, out, ws, gemm_ws);
}

void rt_conv3d_filter_grad(const RtConv3d *p, int64_t batch, const float *x, const float *dy, float *dw, float *ws,
                           float *gemm_ws) {
  filter_grad_f32(p, batch, x, dy, dw, ws, gemm_ws);
}

void rt_conv3d_f64(const RtConv3d *p, int64_t batch, const double *x, const double *w, double *out, double *ws) {
  conv3d_f64(p, batch, x, w, out, ws, NULL);
}

void rt_conv3d_filter_grad_f64(const RtConv3d *p, int64_t batch, const double *x, const double *dy, double *dw,
                               double *ws) {
  filter_grad_f64(p, batch, x, dy, dw, ws, NULL);
}

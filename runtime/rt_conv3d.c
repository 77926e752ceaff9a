/* 3-D convolution of NCDHW volumes: vol2col into the workspace, then one
 * GEMM per group (filter [c_out, c_in/groups, k_d, k_h, k_w]). */
#include <string.h>

#include "rt_kernels.h"

/* col[((c*k_d + a)*k_h + b)*k_w + e][od*OH*OW + oh*OW + ow] = input sample
 * (zero outside the padded volume). */
static void vol2col(const RtConv3d *p, const float *x, int64_t cg, float *col) {
  const int64_t D = p->d_in, H = p->h_in, W = p->w_in, OD = p->d_out, OH = p->h_out, OW = p->w_out;
  for (int64_t c = 0; c < cg; c++)
    for (int64_t a = 0; a < p->k_d; a++)
      for (int64_t b = 0; b < p->k_h; b++)
        for (int64_t e = 0; e < p->k_w; e++) {
          float *row = col + (((c * p->k_d + a) * p->k_h + b) * p->k_w + e) * OD * OH * OW;
          for (int64_t od = 0; od < OD; od++) {
            int64_t id = od * p->stride[0] - p->pad[0] + a * p->dil[0];
            for (int64_t oh = 0; oh < OH; oh++) {
              int64_t ih = oh * p->stride[1] - p->pad[1] + b * p->dil[1];
              float *r = row + (od * OH + oh) * OW;
              if (id < 0 || id >= D || ih < 0 || ih >= H) {
                memset(r, 0, sizeof(float) * (size_t)OW);
                continue;
              }
              const float *src = x + ((c * D + id) * H + ih) * W;
              for (int64_t ow = 0; ow < OW; ow++) {
                int64_t iw = ow * p->stride[2] - p->pad[2] + e * p->dil[2];
                r[ow] = iw >= 0 && iw < W ? src[iw] : 0.0f;
              }
            }
          }
        }
}

void rt_conv3d(const RtConv3d *p, int64_t batch, const float *x, const float *w, float *out, float *ws,
               float *gemm_ws) {
  const int64_t cg = p->c_in / p->groups, mg = p->c_out / p->groups;
  const int64_t k = cg * p->k_d * p->k_h * p->k_w, osz = p->d_out * p->h_out * p->w_out;
  const int64_t isz = p->d_in * p->h_in * p->w_in;
  for (int64_t n = 0; n < batch; n++)
    for (int64_t g = 0; g < p->groups; g++) {
      vol2col(p, x + (n * p->c_in + g * cg) * isz, cg, ws);
      rt_sgemm_ws(0, 0, mg, osz, k, 1.0f, w + g * mg * k, k, ws, osz, 0.0f, out + (n * p->c_out + g * mg) * osz, osz,
                  gemm_ws);
    }
}

void rt_conv3d_filter_grad(const RtConv3d *p, int64_t batch, const float *x, const float *dy, float *dw, float *ws,
                           float *gemm_ws) {
  const int64_t cg = p->c_in / p->groups, mg = p->c_out / p->groups;
  const int64_t k = cg * p->k_d * p->k_h * p->k_w, osz = p->d_out * p->h_out * p->w_out;
  const int64_t isz = p->d_in * p->h_in * p->w_in;
  memset(dw, 0, sizeof(float) * (size_t)(p->c_out * k));
  for (int64_t n = 0; n < batch; n++)
    for (int64_t g = 0; g < p->groups; g++) {
      vol2col(p, x + (n * p->c_in + g * cg) * isz, cg, ws);
      rt_sgemm_ws(0, 1, mg, k, osz, 1.0f, dy + (n * p->c_out + g * mg) * osz, osz, ws, osz, 1.0f, dw + g * mg * k, k,
                  gemm_ws);
    }
}

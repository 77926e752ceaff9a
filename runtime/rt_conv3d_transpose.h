/* 3-D transposed convolution (conv3d_transpose, compiler/ops/conv_transpose.c):
 * the gradient of rt_conv3d with respect to its input, as Paddle's CPU
 * kernel computes it -- per image and group a GEMM into a column matrix,
 * then col2vol sums the columns into the output. */
#ifndef PADDLEC_RT_CONV3D_TRANSPOSE_H
#define PADDLEC_RT_CONV3D_TRANSPOSE_H

#include <stdint.h>

#include "rt_cnn.h"

/* The geometry is an RtConv3d read the transposed way: c_in, d_in, h_in,
 * w_in describe this op's input, c_out, d_out, h_out, w_out its output,
 * the filter is [c_in, c_out/groups, k_d, k_h, k_w], and pad holds the
 * front/top/left padding of the output.  With channel_last the input and
 * output are NDHWC; each image is transposed to and from NCDHW in ws. */

/* Workspace floats: one group's column matrix [c_out/groups * k_d*k_h*k_w,
 * d_in*h_in*w_in], plus one input and one output image when channel_last. */
static inline int64_t rt_conv3d_transpose_ws_floats(const RtConv3d *p, int channel_last) {
  const int64_t in_img = p->c_in * p->d_in * p->h_in * p->w_in, out_img = p->c_out * p->d_out * p->h_out * p->w_out;
  return p->c_out / p->groups * p->k_d * p->k_h * p->k_w * p->d_in * p->h_in * p->w_in +
         (channel_last ? in_img + out_img : 0);
}

/* out = conv3d_transpose(x, w) for `batch` images; `ws` holds
 * rt_conv3d_transpose_ws_floats(p, channel_last) floats and `gemm_ws` is the
 * portable GEMM's packing room for [c_out/groups * k, c_in/groups] x
 * [c_in/groups, d_in*h_in*w_in] (NULL allowed; OpenBLAS ignores it). */
void rt_conv3d_transpose(const RtConv3d *p, int channel_last, int64_t batch, const float *x, const float *w,
                         float *out, float *ws, float *gemm_ws);
/* The same in float64 (Paddle's double kernel, rt_dgemm, no packing room);
 * ws holds rt_conv3d_transpose_ws_floats(p, channel_last) doubles. */
void rt_conv3d_transpose_f64(const RtConv3d *p, int channel_last, int64_t batch, const double *x, const double *w,
                             double *out, double *ws);

#endif

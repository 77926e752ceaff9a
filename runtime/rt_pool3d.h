/* 3-D pooling of NCDHW / NDHWC volumes with Paddle's window rule (phi
 * Pool3dFunctor, MaxPool3dWithIndexFunctor), for pool3d and
 * max_pool3d_with_index (compiler/ops/pool.c). */
#ifndef PADDLEC_RT_POOL3D_H
#define PADDLEC_RT_POOL3D_H

#include <stdint.h>

#include "rt_cnn.h"

/* One volume's geometry; the arrays are indexed depth, height, width.
 * Element (c, d, h, w) of a volume sits at c * c_stride + ((d * H + h) * W +
 * w) * px_stride, with NCDHW c_stride = D*H*W, px_stride = 1 and NDHWC
 * c_stride = 1, px_stride = c. */
typedef struct RtPool3d {
  RtPoolType type;    /* max or avg */
  int64_t c;          /* channels */
  int64_t in[3];      /* input size */
  int64_t out[3];     /* output size */
  int64_t k[3];       /* window (ignored when adaptive) */
  int64_t stride[3];  /* strides */
  int64_t pad[3];     /* front, top and left padding */
  int exclusive;      /* avg: divide by the in-volume part of the window */
  int adaptive;       /* windows split the input evenly (AdaptStart/EndIndex) */
  int channel_last;   /* NDHWC */
} RtPool3d;

/* pool3d: out[n, c, od, oh, ow] = max or mean over the window, which starts
 * at o * stride - pad and spans k, clipped first to in + pad (the divisor
 * when not exclusive), then to the input. */
void rt_pool3d(const RtPool3d *p, int64_t batch, const float *x, float *out);
/* max_pool3d_with_index (NCDHW): also the index (d * H + h) * W + w of each
 * maximum in its volume (-1 for an empty window); the window is clipped to
 * the input directly, and the first of equal maxima wins. */
void rt_max_pool3d_index(const RtPool3d *p, int64_t batch, const float *x, float *out, int32_t *mask);

/* pool3d_grad (phi PoolGradRawKernel): dx from zero, each window in output
 * order adding its share: max (MaxPool3dGradFunctor) the output's gradient
 * to the window's first element (d, h, w order) equal to the output; avg
 * (Pool3dGradFunctor with AvgPoolGrad) (1 / pool_size) times it to each
 * element.  Split over the batch * c channels (each computed by one task,
 * so the sums do not depend on the thread count). */
void rt_pool3d_grad(const RtPool3d *p, int64_t batch, const float *x, const float *out, const float *dout,
                    float *dx);

/* The same three for float64 tensors (Paddle's double kernels: sums and
 * maxima in double from -FLT_MAX, the average gradient's 1 / pool_size a
 * float). */
void rt_pool3d_f64(const RtPool3d *p, int64_t batch, const double *x, double *out);
void rt_max_pool3d_index_f64(const RtPool3d *p, int64_t batch, const double *x, double *out, int32_t *mask);
void rt_pool3d_grad_f64(const RtPool3d *p, int64_t batch, const double *x, const double *out, const double *dout,
                        double *dx);

#endif

/* Convolution, pooling, normalization and resampling kernels (fp32).
 *
 * Geometry structs describe one image; every kernel loops over `batch`
 * images itself.  Generated code fills the structs with constants (the
 * compiler validated them), so the kernels run without checks.  Nothing here
 * allocates: kernels that need room (im2col matrices, Winograd transforms,
 * depthwise padded planes, transposed-conv columns, GEMM packing) take
 * caller-provided workspace whose size the inline helpers below give; the
 * compiler sizes the arena scratch with the same helpers, so the two agree
 * by construction. */
#ifndef PADDLEC_RT_CNN_H
#define PADDLEC_RT_CNN_H

#include <stdint.h>

#include "rt_act.h"
#include "rt_blocking.h"

/* ---- 3-D convolution (rt_conv3d.c) ---- */

/* NCDHW volumes; the pads are the front/top/left ones. */
typedef struct RtConv3d {
  int64_t c_in, d_in, h_in, w_in;    /* input channels and depth, height, width */
  int64_t c_out, d_out, h_out, w_out; /* output */
  int64_t k_d, k_h, k_w;             /* filter */
  int64_t stride[3], pad[3], dil[3]; /* per spatial dim (d, h, w) */
  int64_t groups;                    /* channel groups */
} RtConv3d;

/* Workspace floats of rt_conv3d (one group's column matrix). */
static inline int64_t rt_conv3d_ws_floats(const RtConv3d *p) {
  return p->c_in / p->groups * p->k_d * p->k_h * p->k_w * p->d_out * p->h_out * p->w_out;
}
void rt_conv3d(const RtConv3d *p, int64_t batch, const float *x, const float *w, float *out, float *ws,
               float *gemm_ws);
/* conv3d_grad's Filter@GRAD (phi ConvGradKernel): dw from zero, then for
 * each image and group dw_g += dY_g [c_out/groups, vol_out] x
 * vol2col(X_g)^T, the images in order.  ws holds rt_conv3d_ws_floats(p)
 * floats; gemm_ws the portable GEMM's room for an m x n x k product with
 * m = c_out/groups, n = c_in/groups * k_d*k_h*k_w, k = d_out*h_out*w_out
 * (NULL allowed).  The input's
 * gradient is rt_conv3d_transpose with the geometry read the transposed way
 * (rt_conv3d_transpose.h). */
void rt_conv3d_filter_grad(const RtConv3d *p, int64_t batch, const float *x, const float *dy, float *dw, float *ws,
                           float *gemm_ws);
/* float64 (Paddle's double kernels: the same vol2col and GEMM steps with
 * rt_dgemm, serial, no packing room): ws holds rt_conv3d_ws_floats(p)
 * doubles; the meaning of each is that of its float namesake. */
void rt_conv3d_f64(const RtConv3d *p, int64_t batch, const double *x, const double *w, double *out, double *ws);
void rt_conv3d_filter_grad_f64(const RtConv3d *p, int64_t batch, const double *x, const double *dy, double *dw,
                               double *ws);

/* ---- convolution (rt_conv.c) ---- */

/* The activation of a convolution's output (after bias and residual) is an
 * RtAct (rt_act.h) with fuse_alpha and fuse_beta. */

/* 2-D convolution of NCHW images.  Filter [c_out, c_in/groups, k_h, k_w]
 * for rt_conv2d; [c_in, c_out/groups, k_h, k_w] for rt_conv2d_transpose.
 * The output is act(conv + bias + residual), bias and residual optional. */
typedef struct RtConv2d {
  int64_t c_in, h_in, w_in;    /* input channels, height, width */
  int64_t c_out, h_out, w_out; /* output channels, height, width */
  int64_t k_h, k_w;            /* filter height and width */
  int64_t stride_h, stride_w;  /* strides */
  int64_t pad_t, pad_l;        /* top and left padding (bottom/right follow from the output size) */
  int64_t dil_h, dil_w;        /* dilations */
  int64_t groups;              /* channel groups */
  RtAct act;                   /* activation of the output */
  float alpha, beta;           /* its parameters */
  int pre_relu;                /* relu the input first (fuse_relu_before_depthwise_conv;
                                * depthwise path only) */
  int packed;                  /* 0, or the panel height the filter was packed with for
                                * rt_pp_gemm (rt_conv2d_can_pack; rt_blocking.h) */
  int wino;                    /* 0: Winograd's m follows from the sizes (rt_conv2d_wino_m);
                                * 2 or 4: that m, for sizes the run gives (at most the
                                * bound's, whose choice the filter was prepared for) */
} RtConv2d;

/* 1 when the convolution is a plain product W x X per image (1x1 filter,
 * stride 1, no padding), which needs no workspace.  A depthwise
 * convolution (below) with a 1x1 filter is both: rt_conv2d takes the
 * depthwise loop for it (its fused pre_relu lives there), and every sizing
 * rule below tests depthwise first, as rt_conv2d does. */
static inline int rt_conv2d_is_pointwise(const RtConv2d *p) {
  return p->k_h == 1 && p->k_w == 1 && p->stride_h == 1 && p->stride_w == 1 && p->pad_t == 0 && p->pad_l == 0 &&
         p->h_in == p->h_out && p->w_in == p->w_out;
}

/* 1 when each output channel reads one input channel (groups == c_in),
 * computed by a direct loop over a padded copy of one input plane. */
static inline int rt_conv2d_is_depthwise(const RtConv2d *p) {
  return p->groups == p->c_in && p->groups > 1 && p->c_out % p->groups == 0;
}

/* The depthwise loop's padded input plane is split by stride phase in both
 * dims into stride_h * stride_w planes of rt_conv2d_dw_rows x
 * rt_conv2d_dw_cols (one spare row), so that each filter tap reads one
 * contiguous run (see rt_conv.c). */
static inline int64_t rt_conv2d_dw_rows(const RtConv2d *p) {
  return p->h_out + (p->k_h - 1) * p->dil_h / p->stride_h + 1;
}
static inline int64_t rt_conv2d_dw_cols(const RtConv2d *p) {
  return p->w_out + (p->k_w - 1) * p->dil_w / p->stride_w;
}

/* 3x3 depthwise convolutions (one output channel per input channel) run
 * RT_DW_CB channels at a time over an interleaved copy of their input
 * (rt_dwblock.c), by bands of rt_conv2d_dwb_band output rows whose padded
 * input (rt_conv2d_dwb_rows x rt_conv2d_dwb_cols pixels of RT_DW_CB floats)
 * fills at most RT_DW_BLOCK_BYTES; images too wide for one band row, and
 * other filters, take the planar loop.  Measured per layer of MobileNetV2
 * against the planar loop (AVX2 build): 7 x 7 outputs 2x faster, 14 x 14
 * 10%, 28 x 28 17%, 56 x 56 and 112 x 112 10%, stride 2 from 28, 56 and 112
 * pixels 30-55%. */
#define RT_DW_CB 8
#define RT_DW_BLOCK_BYTES (64 << 10)
static inline int64_t rt_conv2d_dwb_cols(const RtConv2d *p) { return (p->w_out - 1) * p->stride_w + 2 * p->dil_w + 1; }
static inline int64_t rt_conv2d_dwb_band(const RtConv2d *p) {
  const int64_t fit = RT_DW_BLOCK_BYTES / (rt_conv2d_dwb_cols(p) * RT_DW_CB * (int64_t)sizeof(float));
  const int64_t band = fit > 2 * p->dil_h ? (fit - 2 * p->dil_h - 1) / p->stride_h + 1 : 1;
  return band < p->h_out ? band : p->h_out;
}
static inline int64_t rt_conv2d_dwb_rows(const RtConv2d *p) {
  return (rt_conv2d_dwb_band(p) - 1) * p->stride_h + 2 * p->dil_h + 1;
}
static inline int rt_conv2d_dw_blocked(const RtConv2d *p) {
  return rt_conv2d_is_depthwise(p) && p->c_out == p->c_in && p->k_h == 3 && p->k_w == 3 &&
         rt_conv2d_dwb_rows(p) * rt_conv2d_dwb_cols(p) * RT_DW_CB * (int64_t)sizeof(float) <= RT_DW_BLOCK_BYTES;
}
/* Channel blocks [blk_lo, blk_hi) of one image (rt_dwblock.c); ws holds
 * rt_conv2d_ws_floats. */
void rt_dw_blocked(const RtConv2d *p, const float *x, const float *w, const float *bias, const float *res,
                   float *out, float *ws, int64_t blk_lo, int64_t blk_hi);

/* The output tile size m of Winograd's F(m x m, 3x3) for a 3x3 stride-1
 * convolution, or 0 for none: (m + 2)^2 products of [c_out, c_in] x
 * [c_in, tiles] replace one of [c_out, 9 c_in] x [9 c_in, h_out w_out].
 * F(4x4) (36 products, 2.25 multiplications per output and channel pair)
 * when the image has at least 6 x 6 tiles of 4, F(2x2) (16 products, 4
 * multiplications) down to 6 x 6 tiles of 2, and down to 4 x 4 tiles (7 x 7
 * images) for layers of at least 128 channels in and out (the late layers,
 * whose filters are prepared at load: ResNet-50's 7 x 7 3x3 convolutions
 * 2.7 -> 2.2 ms); smaller images and few channels keep im2col (their
 * products would be too small to be efficient).  The compiler sizes the
 * workspace with this same rule. */
static inline int rt_conv2d_wino_m(const RtConv2d *p) {
  if (!(p->k_h == 3 && p->k_w == 3 && p->stride_h == 1 && p->stride_w == 1 && p->dil_h == 1 && p->dil_w == 1 &&
        p->groups == 1 && p->c_in >= 16 && p->c_out >= 16))
    return 0;
  if (p->wino) return p->wino;
  if (p->h_out >= 24 && p->w_out >= 24) return 4;
  if (p->h_out >= 12 && p->w_out >= 12) return 2;
  return p->h_out >= 7 && p->w_out >= 7 && p->c_in >= 128 && p->c_out >= 128 ? 2 : 0;
}
static inline int rt_conv2d_is_winograd(const RtConv2d *p) { return rt_conv2d_wino_m(p) != 0; }
/* u[e] = (G g G^T)[e] for one 3x3 filter g: Winograd's filter transform for
 * F(2x2, 3x3) (rt_winograd.c) and F(4x4, 3x3) (rt_winograd4.c). */
void rt_wino2_filter(const float g[9], float u[16]);
void rt_wino4_filter(const float g[9], float u[36]);

/* Winograd tiles per row and column of the output; the distance between two
 * channels' tiles in the transformed input (room for vector spill); the
 * length of a phase-split input row (columns c = phase mod m, rounded up
 * likewise); the distance between two planes of the transformed filter
 * (c_out * c_in, padded off powers of two). */
static inline int64_t rt_conv2d_wino_tw(const RtConv2d *p) {
  const int64_t m = rt_conv2d_wino_m(p); /* 0: not a Winograd convolution, no tiles */
  return m ? (p->w_out + m - 1) / m : 0;
}
static inline int64_t rt_conv2d_wino_th(const RtConv2d *p) {
  const int64_t m = rt_conv2d_wino_m(p);
  return m ? (p->h_out + m - 1) / m : 0;
}
static inline int64_t rt_conv2d_wino_ld(const RtConv2d *p) {
  return rt_conv2d_wino_tw(p) * rt_conv2d_wino_th(p) + 16;
}
static inline int64_t rt_conv2d_wino_len(const RtConv2d *p) { return (rt_conv2d_wino_tw(p) + 15) / 16 * 16 + 1; }
static inline int64_t rt_conv2d_wino_uld(const RtConv2d *p) { return p->c_out * p->c_in + 16; }
/* The m * (m * th_n + 2) phase-split rows of one input channel (also the m
 * output rows of one row of tiles), rounded up to whole cache lines. */
static inline int64_t rt_conv2d_wino_rows(const RtConv2d *p) {
  const int64_t m = rt_conv2d_wino_m(p);
  return (m * (m * rt_conv2d_wino_th(p) + 2) * rt_conv2d_wino_len(p) + 15) / 16 * 16;
}

/* Output rows per im2col pass (and per product): all of them, or, when
 * the column matrix would not stay in a core's L2 cache and the filter is
 * small (re-read by every pass), as many as fill RT_CONV_COL_BYTES, at least
 * one.  Not for prepared filters (few columns already, and rt_pp_gemm
 * would stream the filter once per pass). */
#define RT_CONV_COL_BYTES (512 << 10)
#define RT_CONV_SMALL_FILTER (64 << 10)
static inline int64_t rt_conv2d_col_rows(const RtConv2d *p) {
  const int64_t k = p->c_in / p->groups * p->k_h * p->k_w, row_bytes = k * p->w_out * (int64_t)sizeof(float);
  if (p->packed || row_bytes * p->h_out <= RT_CONV_COL_BYTES ||
      p->c_out / p->groups * k * (int64_t)sizeof(float) > RT_CONV_SMALL_FILTER)
    return p->h_out;
  const int64_t r = RT_CONV_COL_BYTES / row_bytes;
  return r < 1 ? 1 : r;
}

/* Floats of workspace rt_conv2d needs: the im2col matrix of one pass of
 * one group of one image, [c_in/groups * k_h * k_w, rt_conv2d_col_rows *
 * w_out]; for depthwise the phase
 * planes of one input channel plus an h_out x cols accumulator; for
 * Winograd the transformed filter, input and product ([a][c_out][c_in],
 * [a][c_in][tiles], [a][c_out][tiles] for a = (m + 2)^2) and a few rows; 0
 * for pointwise (depthwise tested first, as rt_conv2d dispatches). */
static inline int64_t rt_conv2d_ws_floats(const RtConv2d *p) {
  if (rt_conv2d_dw_blocked(p))
    return (rt_conv2d_dwb_rows(p) * rt_conv2d_dwb_cols(p) + rt_conv2d_dwb_band(p) * p->w_out) * RT_DW_CB;
  if (rt_conv2d_is_depthwise(p))
    return (p->stride_h * p->stride_w * rt_conv2d_dw_rows(p) + p->h_out) * rt_conv2d_dw_cols(p);
  if (rt_conv2d_is_pointwise(p)) return 0;
  if (rt_conv2d_is_winograd(p)) {
    const int64_t m = rt_conv2d_wino_m(p), a2 = (m + 2) * (m + 2);
    const int64_t tiles = rt_conv2d_wino_tw(p) * rt_conv2d_wino_th(p);
    /* U (not when the filter was prepared at load), V, M, then the
     * phase-split rows of one input channel (also the output rows) */
    return a2 * ((p->packed ? 0 : rt_conv2d_wino_uld(p)) + p->c_in * rt_conv2d_wino_ld(p) + p->c_out * tiles) +
           rt_conv2d_wino_rows(p);
  }
  return p->c_in / p->groups * p->k_h * p->k_w * rt_conv2d_col_rows(p) * p->w_out;
}

/* Floats of workspace rt_conv2d_transpose needs: the column matrix of one
 * group, [c_out/groups * k_h * k_w, h_in * w_in]. */
static inline int64_t rt_conv2d_transpose_ws_floats(const RtConv2d *p) {
  return p->c_out / p->groups * p->k_h * p->k_w * p->h_in * p->w_in;
}

/* The GEMM shapes {m, n, k} rt_conv2d (transpose = 0) or
 * rt_conv2d_transpose (transpose = 1) multiplies, into s; returns their
 * count (0 or 1).  Callers size the GEMM workspace (RT_SGEMM_WS_FLOATS)
 * for the largest. */
static inline int rt_conv2d_gemm_shapes(const RtConv2d *p, int transpose, int64_t s[1][3]) {
  const int64_t cg = p->c_in / p->groups, mg = p->c_out / p->groups;
  if (transpose) {
    s[0][0] = mg * p->k_h * p->k_w, s[0][1] = p->h_in * p->w_in, s[0][2] = cg;
    return 1;
  }
  if (rt_conv2d_is_depthwise(p)) return 0;
  if (rt_conv2d_is_winograd(p)) {
    s[0][0] = p->c_out, s[0][1] = rt_conv2d_wino_tw(p) * rt_conv2d_wino_th(p), s[0][2] = p->c_in;
    return 1;
  }
  s[0][0] = mg, s[0][1] = p->h_out * p->w_out, s[0][2] = cg * p->k_h * p->k_w;
  return 1;
}

/* 1 when the convolution's products have few columns (at most
 * RT_PP_MAX_N output pixels, or Winograd tiles) and a long enough sum
 * (RT_PP_MIN_K; its micro-kernel stores C transposed, a cost paid once per
 * sum): the late layers of CNNs, whose weights are large next to their
 * images (measured per layer on ResNet-50 and MobileNetV2).  The compiler then has the
 * filter prepared once at load (rt_prepack: packed; for Winograd also
 * transformed) and rt_conv2d uses rt_pp_gemm, which does not repack the
 * weights on every call; gemm_ws then holds RT_PP_B_FLOATS. */
#define RT_PP_MAX_N 256
#define RT_PP_MIN_K 128
static inline int rt_conv2d_can_pack(const RtConv2d *p) {
  if (p->groups != 1 || rt_conv2d_is_depthwise(p)) return 0;
  if (rt_conv2d_is_winograd(p)) /* products [c_out, c_in] x [c_in, tiles] */
    return p->c_in >= RT_PP_MIN_K && rt_conv2d_wino_tw(p) * rt_conv2d_wino_th(p) <= RT_PP_MAX_N;
  return p->c_in * p->k_h * p->k_w >= RT_PP_MIN_K && p->h_out * p->w_out <= RT_PP_MAX_N;
}

/* Floats of private scratch one worker thread needs for rt_conv2d's tasks
 * (rt_parallel.h): the depthwise planes, the Winograd rows plus GEMM
 * packing room, or GEMM packing room alone.  Thread 0 uses ws and gemm_ws. */
static inline int64_t rt_conv2d_task_floats(const RtConv2d *p) {
  int64_t s[1][3], gemm = 0;
  if (rt_conv2d_gemm_shapes(p, 0, s)) {
    gemm = RT_SGEMM_WS_FLOATS(s[0][0], s[0][1], s[0][2]);
    if (p->packed && RT_PP_B_FLOATS(s[0][1], s[0][2]) > gemm) gemm = RT_PP_B_FLOATS(s[0][1], s[0][2]);
  }
  if (rt_conv2d_is_depthwise(p)) return rt_conv2d_ws_floats(p);
  return (rt_conv2d_is_winograd(p) ? rt_conv2d_wino_rows(p) : 0) + gemm;
}

/* Channel-last convolutions (data_format NHWC) run as NCHW between two
 * transposes: y[n][c][p] = x[n][p][c] for the hw positions p and c
 * channels of each of the n images, and back. */
void rt_nhwc_to_nchw(const float *x, float *y, int64_t n, int64_t hw, int64_t c);
void rt_nchw_to_nhwc(const float *x, float *y, int64_t n, int64_t c, int64_t hw);
void rt_nhwc_to_nchw_f64(const double *x, double *y, int64_t n, int64_t hw, int64_t c);
void rt_nchw_to_nhwc_f64(const double *x, double *y, int64_t n, int64_t c, int64_t hw);

/* out = act(conv(x, w) + bias + residual) for `batch` images (bias [c_out]
 * and residual, shaped like out, may be NULL); `ws` holds
 * rt_conv2d_ws_floats(p) floats (NULL when that is 0); `gemm_ws` is the
 * portable GEMM's packing room (see rt_conv2d_gemm_shapes; NULL is allowed,
 * and OpenBLAS ignores it). */
void rt_conv2d(const RtConv2d *p, int64_t batch, const float *x, const float *w, const float *bias,
               const float *residual, float *out, float *ws, float *gemm_ws);
/* rt_conv2d's Winograd paths, for rt_conv2d_wino_m(p) = 2 (rt_winograd.c)
 * and 4 (rt_winograd4.c). */
void rt_conv2d_winograd(const RtConv2d *p, int64_t batch, const float *x, const float *w, const float *bias,
                        const float *residual, float *out, float *ws, float *gemm_ws);
void rt_conv2d_winograd4(const RtConv2d *p, int64_t batch, const float *x, const float *w, const float *bias,
                         const float *residual, float *out, float *ws, float *gemm_ws);
/* v = act(v) over n floats with p's activation. */
static inline void rt_conv_activate(const RtConv2d *p, float *v, int64_t n) {
  rt_act_apply(p->act, p->alpha, p->beta, v, n);
}
/* Transposed convolution (the gradient of rt_conv2d with respect to its
 * input), plus bias, then act; `ws` holds rt_conv2d_transpose_ws_floats(p)
 * floats; gemm_ws as for rt_conv2d. */
void rt_conv2d_transpose(const RtConv2d *p, int64_t batch, const float *x, const float *w, const float *bias,
                         float *out, float *ws, float *gemm_ws);

/* The gradient of rt_conv2d (no fused activation) with respect to its
 * filter: dw [c_out, c_in/groups, k_h, k_w] from the input x and the
 * output's gradient dy, summed over the batch in image order; `ws` holds
 * rt_conv2d_filter_grad_ws_floats(p) floats, gemm_ws the GEMM's packing
 * room for the [c_out/groups, c_in/groups*k_h*k_w, h_out*w_out] product.
 * (The input's gradient is rt_conv2d_transpose of dy with the geometry's
 * input and output swapped.) */
static inline int64_t rt_conv2d_filter_grad_ws_floats(const RtConv2d *p) {
  return rt_conv2d_is_pointwise(p) ? 0 : p->c_in / p->groups * p->k_h * p->k_w * p->h_out * p->w_out;
}
void rt_conv2d_filter_grad(const RtConv2d *p, int64_t batch, const float *x, const float *dy, float *dw, float *ws,
                           float *gemm_ws);

/* float64 (Paddle's double kernels: per image and group im2col, then one
 * rt_dgemm; serial, no packing, no fused bias, residual or activation):
 * rt_conv2d_f64 and rt_conv2d_filter_grad_f64 take ws of
 * rt_conv2d_filter_grad_ws_floats(p) doubles (the column matrix of one
 * group, NULL when 0), rt_conv2d_transpose_f64 one of
 * rt_conv2d_transpose_ws_floats(p) doubles; the meaning of each is that of
 * its float namesake. */
void rt_conv2d_f64(const RtConv2d *p, int64_t batch, const double *x, const double *w, double *out, double *ws);
void rt_conv2d_transpose_f64(const RtConv2d *p, int64_t batch, const double *x, const double *w, double *out,
                             double *ws);
void rt_conv2d_filter_grad_f64(const RtConv2d *p, int64_t batch, const double *x, const double *dy, double *dw,
                               double *ws);

/* ---- pooling (rt_pool.c) ---- */

typedef enum RtPoolType {
  RT_POOL_MAX = 0, /* maximum over the window (padding never wins) */
  RT_POOL_AVG = 1, /* mean over the window */
} RtPoolType;

/* 2-D pooling with Paddle's window rule (phi Pool2dFunctor).  Element
 * (c, h, w) of an image sits at c * c_stride + (h * width + w) * px_stride:
 * NCHW has c_stride = h*w, px_stride = 1; NHWC c_stride = 1, px_stride = c. */
typedef struct RtPool2d {
  RtPoolType type;             /* max or avg */
  int64_t c;                   /* channels */
  int64_t h_in, w_in;          /* input size */
  int64_t h_out, w_out;        /* output size */
  int64_t k_h, k_w;            /* window (ignored when adaptive) */
  int64_t stride_h, stride_w;  /* strides */
  int64_t pad_t, pad_l;        /* top and left padding */
  int exclusive;               /* avg: divide by the in-image part of the window */
  int adaptive;                /* windows split the input evenly (AdaptStart/EndIndex) */
  int channel_last;            /* NHWC */
} RtPool2d;

void rt_pool2d(const RtPool2d *p, int64_t batch, const float *x, float *out);
/* max_pool2d_with_index (NCHW): also the index h * w_in + w of each maximum
 * (-1 for an empty window), with symmetric padding pad_t / pad_l. */
void rt_max_pool2d_index(const RtPool2d *p, int64_t batch, const float *x, float *out, int32_t *mask);

/* pool2d_grad: dx (shaped like x) from the forward's x, out and the
 * output's gradient dout, with the geometry of the forward's rt_pool2d
 * (phi PoolGradRawKernel): max pooling gives each output's gradient to the
 * first element of its window (rows top-down, columns left to right) equal
 * to the output; average pooling adds dout / pool_size to every element of
 * the window. */
void rt_pool2d_grad(const RtPool2d *p, int64_t batch, const float *x, const float *out, const float *dout,
                    float *dx);
/* max_pool2d_with_index_grad: dx[mask] += dout per image and channel, from
 * zero (an index outside the plane, -1 for an empty window, adds nothing). */
void rt_max_pool2d_index_grad(const RtPool2d *p, int64_t batch, const int32_t *mask, const float *dout, float *dx);

/* The same four for float64 tensors (Paddle's double kernels: sums and
 * maxima in double from -FLT_MAX, the average gradient's 1 / pool_size a
 * float). */
void rt_pool2d_f64(const RtPool2d *p, int64_t batch, const double *x, double *out);
void rt_max_pool2d_index_f64(const RtPool2d *p, int64_t batch, const double *x, double *out, int32_t *mask);
void rt_pool2d_grad_f64(const RtPool2d *p, int64_t batch, const double *x, const double *out, const double *dout,
                        double *dx);
void rt_max_pool2d_index_grad_f64(const RtPool2d *p, int64_t batch, const int32_t *mask, const double *dout,
                                  double *dx);

/* ---- normalization (rt_norm.c) ---- */

/* batch_norm in inference: y = (x - mean) / sqrt(var + eps) * scale + bias
 * per channel, x viewed as [outer, c, inner]; scale and bias may be NULL
 * (1 and 0). */
void rt_batch_norm(const float *x, float *y, const float *scale, const float *bias, const float *mean,
                   const float *var, float eps, int64_t outer, int64_t c, int64_t inner);
/* batch_norm in training (phi BatchNormKernel with batch statistics) over x
 * viewed as [outer, c, inner]: each channel's mean and biased variance over
 * its outer * inner elements give y = (x - mean) * inv_std * scale + bias
 * with inv_std = sqrt(1 / (var + eps)), saved_mean = mean, saved_inv_std =
 * inv_std (Paddle's SavedMean and SavedVariance), and the running
 * statistics mean_out = mean_in * momentum + mean * (1 - momentum) (var_out
 * alike; mean_out may be mean_in, updated in place).  One element per
 * channel (outer * inner == 1): y = x, saved 0, running statistics kept,
 * as phi does.  scale and bias may be NULL (1 and 0). */
void rt_batch_norm_train(const float *x, float *y, const float *scale, const float *bias, const float *mean_in,
                         const float *var_in, float eps, float momentum, int64_t outer, int64_t c, int64_t inner,
                         float *mean_out, float *var_out, float *saved_mean, float *saved_inv_std);
/* batch_norm_grad (phi BatchNormGradFunctor) over [outer, c, inner]: with
 * batch statistics (var NULL) `mean` and `inv_std` are SavedMean and
 * SavedVariance, and dx = scale * inv_std / n * (n * dy - sum(dy) - (x -
 * mean) * inv_std * sum(dy * (x - mean) * inv_std)), n = outer * inner; with
 * the running statistics (var not NULL) inv_std = 1 / sqrt(var + eps) and
 * dx = scale * inv_std * dy.  dbias = sum(dy), dscale = sum((x - mean) *
 * inv_std * dy).  dx, or dscale and dbias (both or neither), may be NULL;
 * scale may be NULL (1). */
void rt_batch_norm_grad(const float *x, const float *dy, const float *scale, const float *mean, const float *inv_std,
                        const float *var, float eps, int64_t outer, int64_t c, int64_t inner, float *dx,
                        float *dscale, float *dbias);
/* sync_batch_norm (data_parallel.h; Paddle's sync_batch_norm, on CPU
 * places): rt_batch_norm_sums writes each channel's sum of x and of x^2
 * over this place's [outer, c, inner] (sums[c], sums[c + ch]) and its
 * element count (sums[2c]); summed over every place, they give
 * rt_batch_norm_train_synced the batch's mean and biased variance
 * E[x^2] - mean^2 (in double), the rest as rt_batch_norm_train.  In the
 * backward, rt_batch_norm_grad_sums writes each channel's sum(dy) and
 * sum(dy * (x - mean) * inv_std) over this place; summed over every place
 * (gsums) with the forward's summed counts (sums), rt_batch_norm_grad_synced
 * gives this place's dx as rt_batch_norm_grad would over the whole batch,
 * and dscale, dbias over this place (the places' gradients are summed
 * after). */
void rt_batch_norm_sums(const float *x, int64_t outer, int64_t c, int64_t inner, double *sums);
void rt_batch_norm_train_synced(const float *x, float *y, const float *scale, const float *bias, const float *mean_in,
                                const float *var_in, float eps, float momentum, int64_t outer, int64_t c,
                                int64_t inner, const double *sums, float *mean_out, float *var_out, float *saved_mean,
                                float *saved_inv_std);
void rt_batch_norm_grad_sums(const float *x, const float *dy, const float *mean, const float *inv_std, int64_t outer,
                             int64_t c, int64_t inner, double *sums);
void rt_batch_norm_grad_synced(const float *x, const float *dy, const float *scale, const float *mean,
                               const float *inv_std, int64_t outer, int64_t c, int64_t inner, const double *gsums,
                               const double *sums, float *dx, float *dscale, float *dbias);
/* The same for float64 tensors (the sums are double in both). */
void rt_batch_norm_sums_f64(const double *x, int64_t outer, int64_t c, int64_t inner, double *sums);
void rt_batch_norm_train_synced_f64(const double *x, double *y, const double *scale, const double *bias,
                                    const double *mean_in, const double *var_in, float eps, float momentum,
                                    int64_t outer, int64_t c, int64_t inner, const double *sums, double *mean_out,
                                    double *var_out, double *saved_mean, double *saved_inv_std);
void rt_batch_norm_grad_sums_f64(const double *x, const double *dy, const double *mean, const double *inv_std,
                                 int64_t outer, int64_t c, int64_t inner, double *sums);
void rt_batch_norm_grad_synced_f64(const double *x, const double *dy, const double *scale, const double *mean,
                                   const double *inv_std, int64_t outer, int64_t c, int64_t inner,
                                   const double *gsums, const double *sums, double *dx, double *dscale,
                                   double *dbias);
/* y = x * scale[c] + bias[c] over x viewed as [outer, c, inner]. */
void rt_channel_affine(const float *x, float *y, const float *scale, const float *bias, int64_t outer, int64_t c,
                       int64_t inner);
void rt_channel_affine_f64(const double *x, double *y, const double *scale, const double *bias, int64_t outer,
                           int64_t c, int64_t inner);
/* layer_norm over the last `cols` elements of each of `rows` rows; scale and
 * bias ([cols]) may be NULL.  mean and var ([rows], or NULL) receive each
 * row's mean and biased variance (without eps), layer_norm's Mean and
 * Variance. */
void rt_layer_norm(const float *x, float *y, const float *scale, const float *bias, float eps, int64_t rows,
                   int64_t cols, float *mean, float *var);
/* layer_norm_grad (phi LayerNormGradKernel) over `rows` rows of `cols`
 * with the forward's per-row mean and var: dbias = column sums of dy,
 * dscale = column sums of xn * dy (xn = (x - mean) / sqrt(var + eps)),
 * dx = ((t - mean(t)) - xn * mean(t * xn)) / sqrt(var + eps) with t = dy *
 * scale, or t = dy when scale is NULL.  dx, dscale and dbias may each be
 * NULL. */
void rt_layer_norm_grad(const float *x, const float *dy, const float *mean, const float *var, const float *scale,
                        float eps, int64_t rows, int64_t cols, float *dx, float *dscale, float *dbias);
/* Normalizes x viewed as [n, c, inner] over each of the `groups` groups of
 * c / groups channels of each image (to zero mean and unit variance, with
 * eps), then applies scale[c] and bias[c] (either may be NULL).  group_norm;
 * instance_norm is groups = c.  Each group's statistics, [n, groups] each,
 * go to those of mean_out, var_out (biased variance, without eps: group_norm's
 * Variance) and inv_std_out (1 / sqrt(variance + eps): instance_norm's
 * SavedVariance) that are not NULL. */
void rt_group_norm(const float *x, float *y, const float *scale, const float *bias, float eps, int64_t n, int64_t c,
                   int64_t groups, int64_t inner, float *mean_out, float *var_out, float *inv_std_out);

/* group_norm_grad (phi GroupNormGradKernel) from the forward's Y and
 * Variance ([n, groups]) over y viewed as [n, c, inner] (channel_last:
 * [n, inner, c]); scale and bias may be NULL, and dx, dscale, dbias. */
void rt_group_norm_grad(const float *y, const float *dy, const float *scale, const float *bias, const float *var,
                        float eps, int64_t n, int64_t c, int64_t groups, int64_t inner, int channel_last, float *dx,
                        float *dscale, float *dbias);

/* instance_norm_grad (phi InstanceNormGradKernel) over x viewed as
 * [n, c, inner] with the forward's SavedMean and SavedVariance (inv_std),
 * [n * c] each; scale may be NULL (1); dx may be NULL, dscale and dbias are
 * both given or both NULL. */
void rt_instance_norm_grad(const float *x, const float *dy, const float *scale, const float *mean,
                           const float *inv_std, int64_t n, int64_t c, int64_t inner, float *dx, float *dscale,
                           float *dbias);

/* float64 (Paddle's double kernels): the kernels above over double
 * tensors, every step in double; epsilon and momentum stay the float
 * attributes' values. */
void rt_batch_norm_f64(const double *x, double *y, const double *scale, const double *bias, const double *mean,
                       const double *var, float eps, int64_t outer, int64_t c, int64_t inner);
void rt_batch_norm_train_f64(const double *x, double *y, const double *scale, const double *bias,
                             const double *mean_in, const double *var_in, float eps, float momentum, int64_t outer,
                             int64_t c, int64_t inner, double *mean_out, double *var_out, double *saved_mean,
                             double *saved_inv_std);
void rt_batch_norm_grad_f64(const double *x, const double *dy, const double *scale, const double *mean,
                            const double *inv_std, const double *var, float eps, int64_t outer, int64_t c,
                            int64_t inner, double *dx, double *dscale, double *dbias);
void rt_layer_norm_f64(const double *x, double *y, const double *scale, const double *bias, float eps, int64_t rows,
                       int64_t cols, double *mean, double *var);
void rt_layer_norm_grad_f64(const double *x, const double *dy, const double *mean, const double *var,
                            const double *scale, float eps, int64_t rows, int64_t cols, double *dx, double *dscale,
                            double *dbias);
void rt_group_norm_f64(const double *x, double *y, const double *scale, const double *bias, float eps, int64_t n,
                       int64_t c, int64_t groups, int64_t inner, double *mean_out, double *var_out,
                       double *inv_std_out);
void rt_group_norm_grad_f64(const double *y, const double *dy, const double *scale, const double *bias,
                            const double *var, float eps, int64_t n, int64_t c, int64_t groups, int64_t inner,
                            int channel_last, double *dx, double *dscale, double *dbias);
void rt_instance_norm_grad_f64(const double *x, const double *dy, const double *scale, const double *mean,
                               const double *inv_std, int64_t n, int64_t c, int64_t inner, double *dx,
                               double *dscale, double *dbias);

/* ---- resampling and padding (rt_interp.c) ---- */

typedef enum RtInterpMethod {
  RT_INTERP_NEAREST = 0,
  RT_INTERP_BILINEAR = 1, /* also linear (1-D) as a resize of height-1 planes */
  RT_INTERP_BICUBIC = 2,
} RtInterpMethod;

/* 2-D resize of NCHW planes with Paddle's coordinate rules; ratio_h/ratio_w
 * are the source-per-destination steps Paddle computes (0 for a size-1 dim). */
typedef struct RtInterp2d {
  RtInterpMethod method;   /* nearest, bilinear or bicubic */
  int64_t h_in, w_in;      /* input size */
  int64_t h_out, w_out;    /* output size */
  float ratio_h, ratio_w;  /* source step per output step */
  int align_corners;       /* Paddle's align_corners */
  int align_mode;          /* Paddle's align_mode (bilinear: 0 = half-pixel) */
} RtInterp2d;

/* `planes` planes (N * C) of h_in x w_in into h_out x w_out. */
void rt_interp2d(const RtInterp2d *p, int64_t planes, const float *x, float *out);
/* The same for float64 planes (the coordinates and weights in float;
 * the compiler calls them for nearest only). */
void rt_interp2d_f64(const RtInterp2d *p, int64_t planes, const double *x, double *out);

typedef enum RtPadMode {
  RT_PAD_CONSTANT = 0,
  RT_PAD_REFLECT = 1,   /* mirror without repeating the edge */
  RT_PAD_REPLICATE = 2, /* repeat the edge ("edge") */
  RT_PAD_CIRCULAR = 3,  /* wrap around */
} RtPadMode;

/* Pads the 3 spatial dims of x viewed as [outer, d, h, w, inner] (inner = C
 * for channel-last data, else 1); pads = {front, back, top, bottom, left,
 * right}. */
typedef struct RtPad3d {
  RtPadMode mode;         /* how the border is filled */
  float value;            /* constant mode's value */
  int64_t inner;          /* contiguous elements per position */
  int64_t in[3];          /* input d, h, w */
  int64_t pads[6];        /* begin/end padding per dim */
} RtPad3d;

void rt_pad3d(const RtPad3d *p, int64_t outer, const float *x, float *out);
/* Its gradient: dx (x's shape) = the sum of the elements of dout (out's
 * shape) each element of x was copied to, added in dout's memory order;
 * constant-filled positions add nothing. */
void rt_pad3d_grad(const RtPad3d *p, int64_t outer, const float *dout, float *dx);
/* The same two for double elements (the value converted from float). */
void rt_pad3d_f64(const RtPad3d *p, int64_t outer, const double *x, double *out);
void rt_pad3d_grad_f64(const RtPad3d *p, int64_t outer, const double *dout, double *dx);

#endif

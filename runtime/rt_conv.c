/* 2-D convolution and transposed convolution of NCHW images: fp32, and a
 * plain fp64 path at the end (im2col + rt_dgemm, as Paddle's double kernels).
 *
 * rt_conv2d picks one of four formulations (rt_cnn.h's predicates), none of
 * which allocates:
 *   pointwise (1x1, stride 1, no padding): out_g = W_g x X_g, one GEMM per
 *     image and group, reading the input in place;
 *   depthwise (groups == c_in): a direct loop over a zero-padded copy of
 *     each input plane (in the workspace, split by stride phase so that
 *     every filter tap reads one contiguous run); 3x3 filters with one
 *     output channel per input channel by blocks of channels interleaved
 *     (rt_dwblock.c);
 *   3x3 stride 1 with enough channels and tiles: Winograd F(2x2, 3x3) or
 *     F(4x4, 3x3) (rt_winograd.c, rt_winograd4.c);
 *   otherwise: im2col of one group of one image into the workspace, then
 *     out_g = W_g x col.
 * The products W x X and W x col use rt_pp_gemm when the compiler packed
 * the filter at load (p->packed), rt_sgemm_ws otherwise; over many pixels
 * (1x1 products and im2col passes) rt_wide_conv, with the epilogue (see
 * wide()).
 * The epilogue (bias, residual, activation) runs on each image's output
 * right after it is computed, while it is still in cache.
 * Every step runs as tasks on the model's threads (rt_parallel.h): the
 * GEMMs by blocks of the output, depthwise, im2col and the epilogue by
 * ranges of channels.
 * rt_conv2d_transpose computes col = W_g^T x X_g with a GEMM, then scatters
 * (col2im) the columns into the output. */
#include <math.h>
#include <string.h>

#include "rt_kernels.h"
#include "rt_parallel.h"

/* The output positions o in [0, n_out) whose input position
 * o * stride + off falls inside [0, n_in): [*lo, *hi). */
static void valid_range(int64_t n_out, int64_t n_in, int64_t stride, int64_t off, int64_t *lo, int64_t *hi) {
  /* smallest o with o * stride + off >= 0 */
  int64_t a = off >= 0 ? 0 : (-off + stride - 1) / stride;
  /* smallest o with o * stride + off >= n_in */
  int64_t b = n_in - off <= 0 ? 0 : (n_in - off + stride - 1) / stride;
  *lo = a < n_out ? a : n_out;
  *hi = b < n_out ? b : n_out;
  if (*hi < *lo) *hi = *lo;
}

/* GATHER_STRIDED(name, T): dst[j] = src[j * stride] for j < n; stride 1
 * and 2 get loops compilers vectorize (a constant stride becomes shuffles). */
#define GATHER_STRIDED(name, T)                                                          \
  static void name(T *restrict dst, const T *restrict src, int64_t stride, int64_t n) { \
    if (stride == 1)                                                                     \
      memcpy(dst, src, sizeof(T) * (size_t)n);                                           \
    else if (stride == 2)                                                                \
      for (int64_t j = 0; j < n; j++) dst[j] = src[2 * j];                               \
    else                                                                                 \
      for (int64_t j = 0; j < n; j++) dst[j] = src[j * stride];                          \
  }
GATHER_STRIDED(gather_strided, float)
GATHER_STRIDED(gather_strided_f64, double)

/* One image's work split over its channels: task t of ntasks covers
 * channels [lo, hi) of `count`. */
typedef struct ConvJob {
  const RtConv2d *p;            /* the geometry */
  const float *x, *w, *bias;    /* input image, filter, bias (or NULL) */
  const float *res;             /* residual image (or NULL) */
  float *out, *ws;              /* output image, thread 0's workspace */
  int64_t count, ntasks;        /* channels, tasks */
  int64_t oh0, oh1;             /* im2col: the output rows of this pass */
} ConvJob;

enum { RT_CONV_TASKS = 16 }; /* channel ranges per image step */

static void task_range(const ConvJob *j, int64_t t, int64_t *lo, int64_t *hi) {
  *lo = t * j->count / j->ntasks;
  *hi = (t + 1) * j->count / j->ntasks;
}

/* Runs fn over `count` channels in up to RT_CONV_TASKS ranges. */
static void conv_parallel(ConvJob *j, int64_t count, RtTask fn) {
  j->count = count;
  j->ntasks = count < RT_CONV_TASKS ? count : RT_CONV_TASKS;
  rt_parallel(j->ntasks, fn, j);
}

/* out = act(out + bias[c] + residual) over channels [lo, hi) of `plane` floats. */
static void epilogue(const RtConv2d *p, float *out, const float *bias, const float *res, int64_t lo, int64_t hi,
                     int64_t plane) {
  for (int64_t i = lo; i < hi; i++)
    rt_act_epilogue(p->act, p->alpha, p->beta, out + i * plane, plane, bias ? bias + i : NULL,
                    res ? res + i * plane : NULL);
}

static void epilogue_task(void *ctx, int64_t t, int tid) {
  const ConvJob *j = ctx;
  int64_t lo, hi;
  (void)tid;
  task_range(j, t, &lo, &hi);
  epilogue(j->p, j->out, j->bias, j->res, lo, hi, j->p->h_out * j->p->w_out);
}

/* The epilogue of one image (out, bias, res as in j), over its c planes. */
static void epilogue_image(ConvJob *j, int64_t c) {
  if (!j->bias && !j->res && j->p->act == RT_ACT_NONE) return;
  conv_parallel(j, c, epilogue_task);
}

/* IM2COL(name, T, gather): col[(ci*k_h + ki)*k_w + kj][(oh - oh0)*w_out + ow]
 * = x[ci][ih][iw] (0 outside), for the channels [c0, c1) of x and the
 * output rows [oh0, oh1); gather is GATHER_STRIDED's for T. */
#define IM2COL(name, T, gather)                                                                                   \
  static void name(const RtConv2d *p, const T *x, int64_t c0, int64_t c1, int64_t oh0, int64_t oh1, T *col) {    \
    const int64_t H = p->h_in, W = p->w_in, OW = p->w_out, sw = p->stride_w, n = (oh1 - oh0) * OW;              \
    for (int64_t ci = c0; ci < c1; ci++)                                                                         \
      for (int64_t ki = 0; ki < p->k_h; ki++)                                                                    \
        for (int64_t kj = 0; kj < p->k_w; kj++) {                                                                \
          T *row = col + ((ci * p->k_h + ki) * p->k_w + kj) * n;                                                 \
          int64_t off = kj * p->dil_w - p->pad_l, lo, hi;                                                        \
          valid_range(OW, W, sw, off, &lo, &hi);                                                                 \
          for (int64_t oh = oh0; oh < oh1; oh++, row += OW) {                                                    \
            int64_t ih = oh * p->stride_h - p->pad_t + ki * p->dil_h;                                            \
            if (ih < 0 || ih >= H) {                                                                             \
              memset(row, 0, sizeof(T) * (size_t)OW);                                                            \
              continue;                                                                                          \
            }                                                                                                    \
            const T *xr = x + (ci * H + ih) * W;                                                                 \
            memset(row, 0, sizeof(T) * (size_t)lo);                                                              \
            if (hi > lo) gather(row + lo, xr + (lo * sw + off), sw, hi - lo);                                    \
            memset(row + hi, 0, sizeof(T) * (size_t)(OW - hi));                                                  \
          }                                                                                                      \
        }                                                                                                        \
  }
IM2COL(im2col, float, gather_strided)
IM2COL(im2col_f64, double, gather_strided_f64)

static void im2col_task(void *ctx, int64_t t, int tid) {
  const ConvJob *j = ctx;
  int64_t lo, hi;
  (void)tid;
  task_range(j, t, &lo, &hi);
  im2col(j->p, j->x, lo, hi, j->oh0, j->oh1, j->ws);
}

/* c [mg, n] (row stride ldc) = W_g [mg, k] x b [k, n] (row stride ldb):
 * rt_pp_gemm over the filter prepared at load (p->packed; groups == 1, so
 * wg is the whole filter), rt_sgemm_ws otherwise. */
static void product(const RtConv2d *p, const float *wg, int64_t mg, int64_t k, const float *b, int64_t ldb,
                    int64_t n, float *c, int64_t ldc, float *gemm_ws) {
  if (p->packed)
    rt_pp_gemm(wg, p->packed, mg, k, b, ldb, n, c, ldc, gemm_ws);
  else
    rt_sgemm_ws(0, 0, mg, n, k, 1.0f, wg, k, b, ldb, 0.0f, c, ldc, gemm_ws);
}

/* The padded input plane of channel x, split by stride phase:
 * q[(ph_r * stride_w + ph_c) * R + r][c] = x[r * stride_h + ph_r - pad_t][c * stride_w + ph_c - pad_l]
 * (0 outside x), R x C = rt_conv2d_dw_rows x rt_conv2d_dw_cols.  The zero
 * border sits at the same places for every channel: it is written once
 * (`clear`), later channels only overwrite the data. */
static void dw_plane(const RtConv2d *p, const float *x, float *q, int clear) {
  const int64_t R = rt_conv2d_dw_rows(p), C = rt_conv2d_dw_cols(p), sh = p->stride_h, sw = p->stride_w;
  if (clear) memset(q, 0, sizeof(float) * (size_t)(sh * sw * R * C));
  for (int64_t pr = 0; pr < sh; pr++)
    for (int64_t pc = 0; pc < sw; pc++) {
      int64_t lo, hi;
      valid_range(C, p->w_in, sw, pc - p->pad_l, &lo, &hi);
      if (hi <= lo) continue;
      for (int64_t r = 0; r < R; r++) {
        const int64_t ih = r * sh + pr - p->pad_t;
        if (ih < 0 || ih >= p->h_in) continue;
        gather_strided(q + ((pr * sw + pc) * R + r) * C + lo, x + ih * p->w_in + (lo * sw + pc - p->pad_l), sw,
                       hi - lo);
      }
    }
  if (p->pre_relu) /* the padding stays 0 */
    for (int64_t i = 0; i < sh * sw * R * C; i++) q[i] = q[i] > 0.0f ? q[i] : 0.0f;
}

/* Where the run of filter tap (ki, kj) starts in the phase planes q of
 * dw_plane (see depthwise). */
static const float *tap_run(const RtConv2d *p, const float *q, int64_t ki, int64_t kj) {
  const int64_t sh = p->stride_h, sw = p->stride_w, dr = ki * p->dil_h, dc = kj * p->dil_w;
  return q + (((dr % sh) * sw + dc % sw) * rt_conv2d_dw_rows(p) + dr / sh) * rt_conv2d_dw_cols(p) + dc / sw;
}

/* t[i] (+)= w0 * a[i] + w1 * b[i] + w2 * c[i]: one filter row of width 3. */
static void taps3(float *restrict t, const float *restrict a, const float *restrict b, const float *restrict c,
                  const float *wr, int64_t n, int first) {
  const float w0 = wr[0], w1 = wr[1], w2 = wr[2];
  if (first)
    for (int64_t i = 0; i < n; i++) t[i] = w0 * a[i] + w1 * b[i] + w2 * c[i];
  else
    for (int64_t i = 0; i < n; i++) t[i] += w0 * a[i] + w1 * b[i] + w2 * c[i];
}

/* t[i] = the nine taps src[k][i] * wk[k] summed by filter rows, i < n:
 * a 3x3 depthwise filter in one pass, in registers. */
static void taps9(float *restrict t, const float *const src[9], const float *wk, int64_t n) {
  const float *restrict s0 = src[0], *restrict s1 = src[1], *restrict s2 = src[2], *restrict s3 = src[3];
  const float *restrict s4 = src[4], *restrict s5 = src[5], *restrict s6 = src[6], *restrict s7 = src[7];
  const float *restrict s8 = src[8];
  const float w0 = wk[0], w1 = wk[1], w2 = wk[2], w3 = wk[3], w4 = wk[4], w5 = wk[5], w6 = wk[6], w7 = wk[7];
  const float w8 = wk[8];
  for (int64_t i = 0; i < n; i++) {
    float v = w0 * s0[i] + w1 * s1[i] + w2 * s2[i];
    v += w3 * s3[i] + w4 * s4[i] + w5 * s5[i];
    t[i] = v + (w6 * s6[i] + w7 * s7[i] + w8 * s8[i]);
  }
}

static void tap1(float *restrict t, const float *restrict a, float w, int64_t n, int first) {
  if (first)
    for (int64_t i = 0; i < n; i++) t[i] = w * a[i];
  else
    for (int64_t i = 0; i < n; i++) t[i] += w * a[i];
}

/* One image of a depthwise convolution: output channel oc reads input
 * channel oc / (c_out / groups).  With the phase planes q, tap (ki, kj) of
 * output (oh, ow) reads plane (ki*dil_h % stride_h, kj*dil_w % stride_w) at
 * row oh + ki*dil_h / stride_h, column ow + kj*dil_w / stride_w: over the
 * flattened index i = oh * C + ow every tap is one contiguous run, so the
 * sums t[i] are long vector loops (columns ow >= w_out are discarded).  3x3
 * filters sum their nine taps in one pass (taps9); other sizes add one
 * filter row (taps3) or one tap at a time. */
static void depthwise(const RtConv2d *p, const float *x, const float *w, const float *bias, const float *res,
                      float *out, float *ws, int64_t ic_lo, int64_t ic_hi) {
  const int64_t OH = p->h_out, OW = p->w_out, sh = p->stride_h, sw = p->stride_w;
  const int64_t R = rt_conv2d_dw_rows(p), C = rt_conv2d_dw_cols(p), n = OH * C;
  const int64_t mult = p->c_out / p->groups, kk = p->k_h * p->k_w;
  float *q = ws, *t = ws + sh * sw * R * C;
  const float *src[9]; /* 3x3: where each tap's run starts, the same for every channel */
  for (int k = 0; k < 9; k++) src[k] = tap_run(p, q, k / 3, k % 3);
  for (int64_t oc = ic_lo * mult; oc < ic_hi * mult; oc++) {
    if (oc % mult == 0) dw_plane(p, x + (oc / mult) * p->h_in * p->w_in, q, oc == ic_lo * mult);
    const float *wk = w + oc * kk;
    if (p->k_h == 3 && p->k_w == 3) {
      taps9(t, src, wk, n);
    } else {
      for (int64_t ki = 0; ki < p->k_h; ki++) {
        if (p->k_w == 3)
          taps3(t, tap_run(p, q, ki, 0), tap_run(p, q, ki, 1), tap_run(p, q, ki, 2), wk + ki * 3, n, ki == 0);
        else
          for (int64_t kj = 0; kj < p->k_w; kj++)
            tap1(t, tap_run(p, q, ki, kj), wk[ki * p->k_w + kj], n, ki == 0 && kj == 0);
      }
    }
    const float b = bias ? bias[oc] : 0.0f;
    for (int64_t oh = 0; oh < OH; oh++) {
      float *orow = out + (oc * OH + oh) * OW;
      const float *trow = t + oh * C;
      if (res) {
        const float *rr = res + (oc * OH + oh) * OW;
        for (int64_t ow = 0; ow < OW; ow++) orow[ow] = trow[ow] + b + rr[ow];
      } else {
        for (int64_t ow = 0; ow < OW; ow++) orow[ow] = trow[ow] + b;
      }
    }
    rt_conv_activate(p, out + oc * OH * OW, OH * OW);
  }
}

/* Input channels [lo, hi) of one image, in the thread's own planes. */
static void depthwise_task(void *ctx, int64_t t, int tid) {
  const ConvJob *j = ctx;
  int64_t lo, hi;
  task_range(j, t, &lo, &hi);
  depthwise(j->p, j->x, j->w, j->bias, j->res, j->out, rt_task_scratch(tid, j->ws), lo, hi);
}

/* Blocks [lo, hi) of RT_DW_CB channels of one image (rt_dwblock.c). */
static void dw_blocked_task(void *ctx, int64_t t, int tid) {
  const ConvJob *j = ctx;
  int64_t lo, hi;
  task_range(j, t, &lo, &hi);
  rt_dw_blocked(j->p, j->x, j->w, j->bias, j->res, j->out, rt_task_scratch(tid, j->ws), lo, hi);
}

/* 1 when a convolution's product (1x1, or each im2col pass) and epilogue
 * go to rt_wide_conv (one group, more than RT_PP_MAX_N pixels: its rows are
 * long enough for whole vectors; smaller images go to rt_pp_gemm or the
 * GEMM): with AVX-512 or without OpenBLAS always, otherwise for sums of at
 * most 24 terms, where it matches OpenBLAS plus the separate epilogue pass
 * (measured on MobileNetV2's and ResNet-50's early 1x1 products: with
 * AVX-512 0.7-1.0 of OpenBLAS's time, with AVX2 0.96-1.2, the longer the
 * sum the slower; measured up to 1152 terms, longer sums keep the GEMM). */
static int wide(const RtConv2d *p, int64_t k) {
  if (p->groups != 1 || p->packed || p->h_out * p->w_out <= RT_PP_MAX_N || k > 2048) return 0;
#if defined(PADDLEC_BLAS_OPENBLAS) && !defined(__AVX512F__)
  return k <= 24;
#else
  return 1;
#endif
}

void rt_conv2d(const RtConv2d *p, int64_t batch, const float *x, const float *w, const float *bias,
               const float *residual, float *out, float *ws, float *gemm_ws) {
  const int64_t in_img = p->c_in * p->h_in * p->w_in, out_img = p->c_out * p->h_out * p->w_out;
  const int64_t ohw = p->h_out * p->w_out, hw = p->h_in * p->w_in;
  const int64_t cg = p->c_in / p->groups, mg = p->c_out / p->groups, k = cg * p->k_h * p->k_w;
  const int pointwise = rt_conv2d_is_pointwise(p), dw = rt_conv2d_is_depthwise(p);
  if (rt_conv2d_is_winograd(p)) {
    if (rt_conv2d_wino_m(p) == 4)
      rt_conv2d_winograd4(p, batch, x, w, bias, residual, out, ws, gemm_ws);
    else
      rt_conv2d_winograd(p, batch, x, w, bias, residual, out, ws, gemm_ws);
    return;
  }
  for (int64_t n = 0; n < batch; n++) {
    ConvJob j = {.p = p, .x = x + n * in_img, .w = w, .bias = bias, .res = residual ? residual + n * out_img : NULL,
                 .out = out + n * out_img, .ws = ws};
    if (dw) {
      if (rt_conv2d_dw_blocked(p))
        conv_parallel(&j, (p->c_out + RT_DW_CB - 1) / RT_DW_CB, dw_blocked_task);
      else
        conv_parallel(&j, p->groups, depthwise_task);
      continue;
    }
    const int fused = wide(p, k); /* the epilogue goes with each product */
    if (pointwise && fused) {
      rt_wide_conv(w, p->c_out, p->c_in, j.x, ohw, ohw, bias, j.res, p->act, p->alpha, p->beta, j.out, ohw);
      continue;
    }
    for (int64_t g = 0; g < p->groups; g++) {
      const float *xg = j.x + g * cg * hw;
      float *og = j.out + g * mg * ohw;
      if (pointwise) {
        product(p, w + g * mg * k, mg, k, xg, ohw, ohw, og, ohw, gemm_ws);
        continue;
      }
      /* im2col, by passes of output rows that keep the columns in cache */
      const int64_t rows = rt_conv2d_col_rows(p);
      for (int64_t oh0 = 0; oh0 < p->h_out; oh0 += rows) {
        ConvJob col = {.p = p, .x = xg, .ws = ws, .oh0 = oh0, .oh1 = oh0 + rows < p->h_out ? oh0 + rows : p->h_out};
        const int64_t nc = (col.oh1 - oh0) * p->w_out;
        conv_parallel(&col, cg, im2col_task);
        if (fused) /* groups == 1 */
          rt_wide_conv(w, mg, k, ws, nc, nc, bias, j.res ? j.res + oh0 * p->w_out : NULL, p->act, p->alpha, p->beta,
                       og + oh0 * p->w_out, ohw);
        else
          product(p, w + g * mg * k, mg, k, ws, nc, nc, og + oh0 * p->w_out, ohw, gemm_ws);
      }
    }
    if (!fused) epilogue_image(&j, p->c_out);
  }
}

/* COL2IM(name, T): out[m][oh][ow] += col[(m*k_h + ki)*k_w + kj][ih*w_in + iw]
 * where oh = ih*stride_h - pad_t + ki*dil_h (and alike for w), for mg
 * channels. */
#define COL2IM(name, T)                                                         \
  static void name(const RtConv2d *p, const T *col, int64_t mg, T *out) {      \
    const int64_t H = p->h_in, W = p->w_in, OH = p->h_out, OW = p->w_out;      \
    const int64_t sw = p->stride_w;                                            \
    for (int64_t m = 0; m < mg; m++)                                           \
      for (int64_t ki = 0; ki < p->k_h; ki++)                                  \
        for (int64_t kj = 0; kj < p->k_w; kj++) {                              \
          const T *row = col + ((m * p->k_h + ki) * p->k_w + kj) * H * W;      \
          int64_t off = kj * p->dil_w - p->pad_l, lo, hi;                      \
          valid_range(W, OW, sw, off, &lo, &hi);                               \
          for (int64_t ih = 0; ih < H; ih++) {                                 \
            int64_t oh = ih * p->stride_h - p->pad_t + ki * p->dil_h;          \
            if (oh < 0 || oh >= OH) continue;                                  \
            T *orow = out + (m * OH + oh) * OW;                                \
            const T *cr = row + ih * W;                                        \
            if (sw == 1)                                                       \
              for (int64_t iw = lo; iw < hi; iw++) orow[iw + off] += cr[iw];   \
            else                                                               \
              for (int64_t iw = lo; iw < hi; iw++) orow[iw * sw + off] += cr[iw]; \
          }                                                                    \
        }                                                                      \
  }
COL2IM(col2im, float)
COL2IM(col2im_f64, double)

void rt_conv2d_transpose(const RtConv2d *p, int64_t batch, const float *x, const float *w, const float *bias,
                         float *out, float *ws, float *gemm_ws) {
  const int64_t hw = p->h_in * p->w_in, ohw = p->h_out * p->w_out;
  const int64_t cg = p->c_in / p->groups, mg = p->c_out / p->groups, mk = mg * p->k_h * p->k_w;
  for (int64_t n = 0; n < batch; n++) {
    const float *xn = x + n * p->c_in * hw;
    float *on = out + n * p->c_out * ohw;
    memset(on, 0, sizeof(float) * (size_t)(p->c_out * ohw));
    for (int64_t g = 0; g < p->groups; g++) {
      /* col [mk, hw] = W_g^T [mk, cg] x X_g [cg, hw]; W_g is [cg, mk] */
      rt_sgemm_ws(1, 0, mk, hw, cg, 1.0f, w + g * cg * mk, mk, xn + g * cg * hw, hw, 0.0f, ws, hw, gemm_ws);
      col2im(p, ws, mg, on + g * mg * ohw);
    }
    ConvJob j = {.p = p, .bias = bias, .out = on};
    epilogue_image(&j, p->c_out);
  }
}

/* The filter's gradient of rt_conv2d, as phi's ConvGradKernel computes it:
 * for each image in order and each group, dW_g (+)= dY_g x col^T, col the
 * im2col matrix of the image's group (the group's input itself for a
 * pointwise convolution), the first image's product written, the later
 * ones added; zeros for an empty batch (phi zeroes dW before the loop). */
void rt_conv2d_filter_grad(const RtConv2d *p, int64_t batch, const float *x, const float *dy, float *dw, float *ws,
                           float *gemm_ws) {
  const int64_t hw = p->h_in * p->w_in, ohw = p->h_out * p->w_out;
  const int64_t cg = p->c_in / p->groups, mg = p->c_out / p->groups, k = cg * p->k_h * p->k_w;
  const int pointwise = rt_conv2d_is_pointwise(p);
  if (batch == 0) memset(dw, 0, sizeof(float) * (size_t)(p->c_out * k));
  for (int64_t n = 0; n < batch; n++)
    for (int64_t g = 0; g < p->groups; g++) {
      const float *xg = x + (n * p->c_in + g * cg) * hw, *col = xg;
      if (!pointwise) {
        ConvJob j = {.p = p, .x = xg, .ws = ws, .oh0 = 0, .oh1 = p->h_out};
        conv_parallel(&j, cg, im2col_task);
        col = ws;
      }
      rt_sgemm_ws(0, 1, mg, k, ohw, 1.0f, dy + (n * p->c_out + g * mg) * ohw, ohw, col, ohw, n ? 1.0f : 0.0f,
                  dw + g * mg * k, k, gemm_ws);
    }
}

/* LAYOUT_TRANSPOSES(suffix, T): rt_nhwc_to_nchw<suffix> and
 * rt_nchw_to_nhwc<suffix> for element type T. */
#define LAYOUT_TRANSPOSES(suffix, T)                                                           \
  void rt_nhwc_to_nchw##suffix(const T *x, T *y, int64_t n, int64_t hw, int64_t c) {           \
    for (int64_t i = 0; i < n; i++)                                                            \
      for (int64_t ch = 0; ch < c; ch++)                                                       \
        for (int64_t p = 0; p < hw; p++) y[(i * c + ch) * hw + p] = x[(i * hw + p) * c + ch];  \
  }                                                                                            \
  void rt_nchw_to_nhwc##suffix(const T *x, T *y, int64_t n, int64_t c, int64_t hw) {           \
    for (int64_t i = 0; i < n; i++)                                                            \
      for (int64_t p = 0; p < hw; p++)                                                         \
        for (int64_t ch = 0; ch < c; ch++) y[(i * hw + p) * c + ch] = x[(i * c + ch) * hw + p]; \
  }
LAYOUT_TRANSPOSES(, float)
LAYOUT_TRANSPOSES(_f64, double)

/* ---- float64: Paddle's double kernels (phi ConvKernelImpl and friends),
 * im2col + GEMM per image and group, serially, with rt_dgemm ---- */

/* The column matrix of group input xg (all output rows, in ws), or xg
 * itself for a pointwise convolution. */
static const double *cols_f64(const RtConv2d *p, const double *xg, double *ws) {
  if (rt_conv2d_is_pointwise(p)) return xg;
  im2col_f64(p, xg, 0, p->c_in / p->groups, 0, p->h_out, ws);
  return ws;
}

void rt_conv2d_f64(const RtConv2d *p, int64_t batch, const double *x, const double *w, double *out, double *ws) {
  const int64_t hw = p->h_in * p->w_in, ohw = p->h_out * p->w_out;
  const int64_t cg = p->c_in / p->groups, mg = p->c_out / p->groups, k = cg * p->k_h * p->k_w;
  for (int64_t n = 0; n < batch; n++)
    for (int64_t g = 0; g < p->groups; g++) {
      const double *col = cols_f64(p, x + (n * p->c_in + g * cg) * hw, ws);
      rt_dgemm(0, 0, mg, ohw, k, 1.0, w + g * mg * k, k, col, ohw, 0.0, out + (n * p->c_out + g * mg) * ohw, ohw);
    }
}

void rt_conv2d_transpose_f64(const RtConv2d *p, int64_t batch, const double *x, const double *w, double *out,
                             double *ws) {
  const int64_t hw = p->h_in * p->w_in, ohw = p->h_out * p->w_out;
  const int64_t cg = p->c_in / p->groups, mg = p->c_out / p->groups, mk = mg * p->k_h * p->k_w;
  for (int64_t n = 0; n < batch; n++) {
    double *on = out + n * p->c_out * ohw;
    memset(on, 0, sizeof(double) * (size_t)(p->c_out * ohw));
    for (int64_t g = 0; g < p->groups; g++) {
      /* col [mk, hw] = W_g^T [mk, cg] x X_g [cg, hw]; W_g is [cg, mk] */
      rt_dgemm(1, 0, mk, hw, cg, 1.0, w + g * cg * mk, mk, x + (n * p->c_in + g * cg) * hw, hw, 0.0, ws, hw);
      col2im_f64(p, ws, mg, on + g * mg * ohw);
    }
  }
}

void rt_conv2d_filter_grad_f64(const RtConv2d *p, int64_t batch, const double *x, const double *dy, double *dw,
                               double *ws) {
  const int64_t hw = p->h_in * p->w_in, ohw = p->h_out * p->w_out;
  const int64_t cg = p->c_in / p->groups, mg = p->c_out / p->groups, k = cg * p->k_h * p->k_w;
  if (batch == 0) memset(dw, 0, sizeof(double) * (size_t)(p->c_out * k));
  for (int64_t n = 0; n < batch; n++)
    for (int64_t g = 0; g < p->groups; g++) {
      const double *col = cols_f64(p, x + (n * p->c_in + g * cg) * hw, ws);
      rt_dgemm(0, 1, mg, k, ohw, 1.0, dy + (n * p->c_out + g * mg) * ohw, ohw, col, ohw, n ? 1.0 : 0.0,
               dw + g * mg * k, k);
    }
}

/* 3x3 depthwise convolutions (rt_conv2d_dw_blocked), RT_DW_CB channels at a
 * time.  The planar loop of rt_conv.c pays a handful of short loops per
 * channel (copying the padded plane row by row, split by stride phase; the
 * nine taps; the output rows; the activation), which on 14 x 14 and 7 x 7
 * planes costs several times the arithmetic, and on strided ones a gather.
 * Here the RT_DW_CB input planes of a block are interleaved (8 x 8
 * transposes) into one zero-padded image whose pixels hold the block's
 * channels side by side (buf[(r * PC + c) * CB + k]), a band of output rows
 * at a time (the whole image when it fits RT_DW_BLOCK_BYTES); every output
 * pixel of the block is one vector sum of nine taps over the channels, and
 * the results go back to their planes with the bias and residual, then the
 * activation.  Stride and dilation are only offsets into the interleaved
 * image, so stride 2 needs no phase split.  Each output is the same sum in
 * the same order as the planar loop's (taps9), so both give the same bits. */
#include <string.h>

#include "rt_kernels.h"

enum { CB = RT_DW_CB };

#if defined(__GNUC__)
typedef float DwVec __attribute__((vector_size(CB * sizeof(float)))); /* one pixel of a block */
#define LOAD(v, src) memcpy(&(v), (src), sizeof(DwVec))
#if defined(__clang__) || __GNUC__ >= 12
#define DW_SHUFFLE 1
#define SHUF __builtin_shufflevector
/* r[i][j] -> r[j][i] for an 8 x 8 block: channels x pixels to pixels x channels and back. */
static void transpose8(DwVec r[8]) {
  DwVec t[8], u[8];
  for (int i = 0; i < 8; i += 2) {
    t[i] = SHUF(r[i], r[i + 1], 0, 8, 1, 9, 4, 12, 5, 13);
    t[i + 1] = SHUF(r[i], r[i + 1], 2, 10, 3, 11, 6, 14, 7, 15);
  }
  for (int i = 0; i < 8; i += 4) {
    u[i] = SHUF(t[i], t[i + 2], 0, 1, 8, 9, 4, 5, 12, 13);
    u[i + 1] = SHUF(t[i], t[i + 2], 2, 3, 10, 11, 6, 7, 14, 15);
    u[i + 2] = SHUF(t[i + 1], t[i + 3], 0, 1, 8, 9, 4, 5, 12, 13);
    u[i + 3] = SHUF(t[i + 1], t[i + 3], 2, 3, 10, 11, 6, 7, 14, 15);
  }
  for (int i = 0; i < 4; i++) {
    r[i] = SHUF(u[i], u[i + 4], 0, 1, 2, 3, 8, 9, 10, 11);
    r[i + 4] = SHUF(u[i], u[i + 4], 4, 5, 6, 7, 12, 13, 14, 15);
  }
}
#endif
#endif

/* The block's input planes x[k] (k < nc, planes of h_in x w_in) into the
 * interior of the padded, interleaved image buf (the padding stays 0):
 * 8 pixels of the flattened planes at a time, turned into 8 pixels of 8
 * channels (missing channels and pixels read as 0), then each pixel to its
 * place; input the convolution never reads (past the last window) is
 * skipped. */
static void interleave(const RtConv2d *p, const float *x, int64_t nc, float *buf) {
  const int64_t PR = rt_conv2d_dwb_rows(p), PC = rt_conv2d_dwb_cols(p), W = p->w_in, hw = p->h_in * W;
  const int64_t rows = p->h_in < PR - p->pad_t ? p->h_in : PR - p->pad_t;
  const int64_t cols = W < PC - p->pad_l ? W : PC - p->pad_l;
  int64_t f = 0;
#if defined(DW_SHUFFLE)
  for (int64_t ih = 0, iw = 0; f < rows * W; f += CB) {
    const int64_t n = hw - f < CB ? hw - f : CB;
    DwVec r[CB];
    for (int64_t k = 0; k < CB; k++) {
      r[k] = (DwVec){0};
      if (k >= nc) continue;
      if (n == CB)
        LOAD(r[k], x + k * hw + f);
      else
        for (int64_t j = 0; j < n; j++) r[k][j] = x[k * hw + f + j];
    }
    transpose8(r);
    for (int64_t j = 0; j < n; j++) {
      if (ih < rows && iw < cols) memcpy(buf + ((ih + p->pad_t) * PC + iw + p->pad_l) * CB, &r[j], sizeof r[j]);
      if (++iw == W) iw = 0, ih++;
    }
  }
#endif
  for (; f < rows * W; f++) {
    const int64_t ih = f / W, iw = f % W;
    if (iw < cols)
      for (int64_t k = 0; k < nc; k++) buf[((ih + p->pad_t) * PC + iw + p->pad_l) * CB + k] = x[k * hw + f];
  }
  if (p->pre_relu)
    for (int64_t i = 0; i < PR * PC * CB; i++) buf[i] = buf[i] > 0.0f ? buf[i] : 0.0f;
}

/* Padded rows [r0, r0 + nrows) of the block's input planes x[k] (k < nc)
 * into buf (a band; rows outside the image are zeroed, the left and right
 * padding stays 0): 8 pixels of 8 channels of a row at a time. */
static void interleave_rows(const RtConv2d *p, const float *x, int64_t nc, int64_t r0, int64_t nrows, float *buf) {
  const int64_t PC = rt_conv2d_dwb_cols(p), W = p->w_in, hw = p->h_in * W;
  const int64_t cols = W < PC - p->pad_l ? W : PC - p->pad_l;
  for (int64_t b = 0; b < nrows; b++) {
    const int64_t ih = r0 + b - p->pad_t;
    float *dst = buf + (b * PC + p->pad_l) * CB;
    if (ih < 0 || ih >= p->h_in) {
      memset(buf + b * PC * CB, 0, sizeof(float) * (size_t)(PC * CB));
      continue;
    }
    const float *src = x + ih * W;
    int64_t iw = 0;
#if defined(DW_SHUFFLE)
    for (; iw + CB <= cols; iw += CB) {
      DwVec r[CB];
      for (int64_t k = 0; k < CB; k++) {
        r[k] = (DwVec){0};
        if (k < nc) LOAD(r[k], src + k * hw + iw);
      }
      transpose8(r);
      memcpy(dst + iw * CB, r, sizeof r);
    }
#endif
    for (; iw < cols; iw++)
      for (int64_t k = 0; k < nc; k++) dst[iw * CB + k] = src[k * hw + iw];
    if (p->pre_relu)
      for (int64_t i = 0; i < cols * CB; i++) dst[i] = dst[i] > 0.0f ? dst[i] : 0.0f;
  }
}

/* Pixels [i0, i1) of out plane k (k < nc) = o's channel k + bias[k] (+ res
 * plane k), pixel by pixel as the planar loop adds them; o starts at i0. */
static void scatter(const RtConv2d *p, const float *o, const float *bias, const float *res, int64_t nc, float *out,
                    int64_t i0, int64_t i1) {
  const int64_t ohw = p->h_out * p->w_out;
  int64_t i = i0;
  o -= i0 * CB;
#if defined(DW_SHUFFLE)
  for (; i + CB <= i1; i += CB) {
    DwVec r[CB];
    for (int k = 0; k < CB; k++) LOAD(r[k], o + (i + k) * CB);
    transpose8(r); /* r[k]: channel k of pixels i .. i + 7 */
    for (int64_t k = 0; k < nc; k++) {
      DwVec v = r[k] + (bias ? bias[k] : 0.0f);
      if (res) {
        DwVec rv;
        LOAD(rv, res + k * ohw + i);
        v = v + rv;
      }
      memcpy(out + k * ohw + i, &v, sizeof v);
    }
  }
#endif
  for (int64_t k = 0; k < nc; k++) {
    const float b = bias ? bias[k] : 0.0f;
    for (int64_t j = i; j < i1; j++) out[k * ohw + j] = res ? o[j * CB + k] + b + res[k * ohw + j] : o[j * CB + k] + b;
  }
}

/* o[pix * CB + k] = the nine taps of output pixel pix (of `rows` output
 * rows read from buf's first padded rows) for channel k, summed by filter
 * rows as taps9 does; wv[tap][k] the block's weights.  One vector per pixel
 * with GCC and Clang, plain loops otherwise. */
static void taps(const RtConv2d *p, const float *restrict buf, const float wv[9][CB], int64_t rows,
                 float *restrict o) {
  const int64_t PC = rt_conv2d_dwb_cols(p), dh = p->dil_h * PC * CB, dw = p->dil_w * CB;
#if defined(__GNUC__)
  DwVec w[9];
  for (int t = 0; t < 9; t++) LOAD(w[t], wv[t]);
#endif
  for (int64_t oh = 0; oh < rows; oh++)
    for (int64_t ow = 0; ow < p->w_out; ow++, o += CB) {
      const float *s = buf + (oh * p->stride_h * PC + ow * p->stride_w) * CB;
#if defined(__GNUC__)
      DwVec a[9];
      for (int t = 0; t < 9; t++) LOAD(a[t], s + t / 3 * dh + t % 3 * dw);
      DwVec v = w[0] * a[0] + w[1] * a[1] + w[2] * a[2];
      v += w[3] * a[3] + w[4] * a[4] + w[5] * a[5];
      v = v + (w[6] * a[6] + w[7] * a[7] + w[8] * a[8]);
      memcpy(o, &v, sizeof v);
#else
      const float *s1 = s + dh, *s2 = s + 2 * dh;
      for (int k = 0; k < CB; k++) {
        float v = wv[0][k] * s[k] + wv[1][k] * s[dw + k] + wv[2][k] * s[2 * dw + k];
        v += wv[3][k] * s1[k] + wv[4][k] * s1[dw + k] + wv[5][k] * s1[2 * dw + k];
        o[k] = v + (wv[6][k] * s2[k] + wv[7][k] * s2[dw + k] + wv[8][k] * s2[2 * dw + k]);
      }
#endif
    }
}

void rt_dw_blocked(const RtConv2d *p, const float *x, const float *w, const float *bias, const float *res,
                   float *out, float *ws, int64_t blk_lo, int64_t blk_hi) {
  const int64_t PR = rt_conv2d_dwb_rows(p), PC = rt_conv2d_dwb_cols(p), band = rt_conv2d_dwb_band(p);
  const int64_t OW = p->w_out, ohw = p->h_out * OW;
  float *buf = ws, *o = ws + PR * PC * CB;
  memset(buf, 0, sizeof(float) * (size_t)(PR * PC * CB));
  for (int64_t blk = blk_lo; blk < blk_hi; blk++) {
    const int64_t c0 = blk * CB, nc = p->c_out - c0 < CB ? p->c_out - c0 : CB;
    const float *xb = x + c0 * p->h_in * p->w_in;
    float wv[9][CB] = {{0}};
    for (int64_t k = 0; k < nc; k++)
      for (int t = 0; t < 9; t++) wv[t][k] = w[(c0 + k) * 9 + t];
    for (int64_t oh0 = 0; oh0 < p->h_out; oh0 += band) { /* bands of output rows */
      const int64_t rows = p->h_out - oh0 < band ? p->h_out - oh0 : band;
      if (band == p->h_out && p->w_in < 2 * CB) /* narrow rows: the image as one flat run */
        interleave(p, xb, nc, buf);
      else
        interleave_rows(p, xb, nc, oh0 * p->stride_h, PR, buf);
      taps(p, buf, wv, rows, o);
      scatter(p, o, bias ? bias + c0 : NULL, res ? res + c0 * ohw : NULL, nc, out + c0 * ohw, oh0 * OW,
              (oh0 + rows) * OW);
      if (band == p->h_out)
        rt_conv_activate(p, out + c0 * ohw, nc * ohw);
      else
        for (int64_t k = 0; k < nc; k++) rt_conv_activate(p, out + (c0 + k) * ohw + oh0 * OW, rows * OW);
    }
  }
}

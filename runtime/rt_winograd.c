/* 3x3 stride-1 convolution by Winograd's minimal filtering F(2x2, 3x3)
 * (Lavin and Gray, "Fast Algorithms for Convolutional Neural Networks"), for
 * images with a moderate number of tiles (rt_conv2d_wino_m = 2; larger ones
 * take F(4x4, 3x3) in rt_winograd4.c).
 *
 * Each 2x2 output tile y of each channel pair is A^T [(G g G^T) . (B^T d B)] A
 * for the 3x3 filter g and the 4x4 input patch d at the tile's origin; summed
 * over input channels this is 16 independent products (one per element e of
 * the 4x4 transformed domain):
 *   M[e] [c_out, tiles] = U[e] [c_out, c_in] x V[e] [c_in, tiles],
 * 16 * c_in multiplications per tile instead of 36 * c_in.  The transforms
 * are additions (and halvings for the filter), so the result stays within a
 * few float roundings of the direct sum.  Layout in the workspace (see
 * rt_conv2d_ws_floats): U, V, M, then row buffers.  The filter transform
 * runs on every call (the weights are constant: a compile-time transform
 * would save it). */
#include <string.h>

#include "rt_kernels.h"

/* U[e][f] = (G g_f G^T)[e] for every filter f = oc * c_in + ic, with
 * G = [1 0 0; .5 .5 .5; .5 -.5 .5; 0 0 1]: straight-line code per filter,
 * storing to the 16 planes of U.  The planes lie rt_conv2d_wino_uld floats
 * apart, a count padded off powers of two: 16 store streams exactly 2^k
 * apart fall into the same cache sets (2x slower, measured). */
static void filter_transform(const RtConv2d *p, const float *w, float *u) {
  const int64_t n = p->c_out * p->c_in, ld = rt_conv2d_wino_uld(p);
  float *u0 = u, *u1 = u + ld, *u2 = u + 2 * ld, *u3 = u + 3 * ld, *u4 = u + 4 * ld, *u5 = u + 5 * ld;
  float *u6 = u + 6 * ld, *u7 = u + 7 * ld, *u8 = u + 8 * ld, *u9 = u + 9 * ld, *u10 = u + 10 * ld;
  float *u11 = u + 11 * ld, *u12 = u + 12 * ld, *u13 = u + 13 * ld, *u14 = u + 14 * ld, *u15 = u + 15 * ld;
  for (int64_t f = 0; f < n; f++) {
    const float *g = w + f * 9;
    /* t = G g: the rows of the 4x3 intermediate */
    const float a0 = g[0], a1 = g[1], a2 = g[2];
    const float b0 = 0.5f * (g[0] + g[3] + g[6]), b1 = 0.5f * (g[1] + g[4] + g[7]), b2 = 0.5f * (g[2] + g[5] + g[8]);
    const float c0 = 0.5f * (g[0] - g[3] + g[6]), c1 = 0.5f * (g[1] - g[4] + g[7]), c2 = 0.5f * (g[2] - g[5] + g[8]);
    const float d0 = g[6], d1 = g[7], d2 = g[8];
    /* U = t G^T */
    u0[f] = a0, u1[f] = 0.5f * (a0 + a1 + a2), u2[f] = 0.5f * (a0 - a1 + a2), u3[f] = a2;
    u4[f] = b0, u5[f] = 0.5f * (b0 + b1 + b2), u6[f] = 0.5f * (b0 - b1 + b2), u7[f] = b2;
    u8[f] = c0, u9[f] = 0.5f * (c0 + c1 + c2), u10[f] = 0.5f * (c0 - c1 + c2), u11[f] = c2;
    u12[f] = d0, u13[f] = 0.5f * (d0 + d1 + d2), u14[f] = 0.5f * (d0 - d1 + d2), u15[f] = d2;
  }
}

/* V[e][c][th * tw_n + tw] = (B^T d B)[e] for the 4x4 patches d of one row of
 * tiles, with B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1].  The 4 input
 * rows come zero-padded and split into even and odd columns (ev[i*len + k] =
 * row i, column 2k; od: column 2k + 1), so that patch column j of tile tw is
 * ev[tw], od[tw], ev[tw + 1], od[tw + 1]: unit-stride loads only.  `stride`
 * is the distance between two e planes of V.  TILES(T, LD, ST) is the body
 * for tiles from tw on, with T a float or a vector of consecutive tiles. */
#define TILES(T, LD, ST)                                                                                   \
  do {                                                                                                     \
    /* the 4x4 patch: rows 0..3 of columns 2tw (e), 2tw+1 (o), 2tw+2 (f), 2tw+3 (g) */                     \
    T e0, e1, e2, e3, o0, o1, o2, o3, f0, f1, f2, f3, g0, g1, g2, g3;                                      \
    LD(e0, ev + tw), LD(e1, ev + len + tw), LD(e2, ev + 2 * len + tw), LD(e3, ev + 3 * len + tw);          \
    LD(o0, od + tw), LD(o1, od + len + tw), LD(o2, od + 2 * len + tw), LD(o3, od + 3 * len + tw);          \
    LD(f0, ev + tw + 1), LD(f1, ev + len + tw + 1), LD(f2, ev + 2 * len + tw + 1);                         \
    LD(f3, ev + 3 * len + tw + 1);                                                                         \
    LD(g0, od + tw + 1), LD(g1, od + len + tw + 1), LD(g2, od + 2 * len + tw + 1);                         \
    LD(g3, od + 3 * len + tw + 1);                                                                         \
    /* t = B^T d, column by column */                                                                      \
    const T t00 = e0 - e2, t10 = e1 + e2, t20 = e2 - e1, t30 = e1 - e3;                                    \
    const T t01 = o0 - o2, t11 = o1 + o2, t21 = o2 - o1, t31 = o1 - o3;                                    \
    const T t02 = f0 - f2, t12 = f1 + f2, t22 = f2 - f1, t32 = f1 - f3;                                    \
    const T t03 = g0 - g2, t13 = g1 + g2, t23 = g2 - g1, t33 = g1 - g3;                                    \
    /* V = t B, row by row */                                                                              \
    ST(v + tw, t00 - t02); ST(v + stride + tw, t01 + t02);                                                 \
    ST(v + 2 * stride + tw, t02 - t01); ST(v + 3 * stride + tw, t01 - t03);                                \
    ST(v + 4 * stride + tw, t10 - t12); ST(v + 5 * stride + tw, t11 + t12);                                \
    ST(v + 6 * stride + tw, t12 - t11); ST(v + 7 * stride + tw, t11 - t13);                                \
    ST(v + 8 * stride + tw, t20 - t22); ST(v + 9 * stride + tw, t21 + t22);                                \
    ST(v + 10 * stride + tw, t22 - t21); ST(v + 11 * stride + tw, t21 - t23);                              \
    ST(v + 12 * stride + tw, t30 - t32); ST(v + 13 * stride + tw, t31 + t32);                              \
    ST(v + 14 * stride + tw, t32 - t31); ST(v + 15 * stride + tw, t31 - t33);                              \
  } while (0)

#define LD1(x, p) ((x) = *(p))
#define ST1(p, x) (*(p) = (x))

#if defined(__GNUC__)
/* WINO_VL consecutive tiles at once in a generic vector (lowered to the
 * target's SIMD, or to scalars); unaligned loads and stores by memcpy, and no
 * vector crosses a function boundary (no ABI dependence). */
#if defined(__AVX__)
#define WINO_VL 8
#else
#define WINO_VL 4
#endif
typedef float WinoVec __attribute__((vector_size(WINO_VL * 4)));
#define LDV(x, p) memcpy(&(x), (p), sizeof(WinoVec))
#define STV(p, x)                          \
  do {                                     \
    const WinoVec sv_ = (x);               \
    memcpy((p), &sv_, sizeof(WinoVec));    \
  } while (0)
#endif

/* Tiles [0, tw_n) and, in the vector loop, up to WINO_VL - 1 more (their
 * values land in room the caller leaves: see rt_conv2d_wino_ld / _len). */
static void input_tiles(const float *ev, const float *od, int64_t len, float *v, int64_t stride, int64_t tw_n) {
  int64_t tw = 0;
#if defined(__GNUC__)
  for (; tw < tw_n; tw += WINO_VL) TILES(WinoVec, LDV, STV);
#endif
  for (; tw < tw_n; tw++) TILES(float, LD1, ST1);
}

/* dst[k] = x[2k + off] for k < n, 0 where 2k + off is outside [0, w). */
static void split_row(float *restrict dst, const float *restrict x, int64_t w, int64_t off, int64_t n) {
  int64_t lo = off >= 0 ? 0 : (1 - off) / 2, hi = w - off <= 0 ? 0 : (w - off + 1) / 2;
  lo = lo < n ? lo : n;
  hi = hi < n ? hi : n;
  hi = hi > lo ? hi : lo;
  memset(dst, 0, sizeof(float) * (size_t)lo);
  if (hi > lo) {
    const float *src = x + (2 * lo + off);
    float *d = dst + lo;
    for (int64_t j = 0; j < hi - lo; j++) d[j] = src[2 * j];
  }
  memset(dst + hi, 0, sizeof(float) * (size_t)(n - hi));
}

/* V for one image.  Each input channel is first split once into the
 * zero-padded even- and odd-column planes (2 * th_n + 2 rows of `len`), from
 * which every row of tiles reads its 4 rows. */
static void input_transform(const RtConv2d *p, const float *x, float *v, float *planes) {
  const int64_t tw_n = rt_conv2d_wino_tw(p), th_n = rt_conv2d_wino_th(p), ld = rt_conv2d_wino_ld(p);
  const int64_t len = rt_conv2d_wino_len(p), rows = 2 * th_n + 2;
  float *ev = planes, *od = planes + rows * len;
  for (int64_t c = 0; c < p->c_in; c++) {
    const float *xc = x + c * p->h_in * p->w_in;
    for (int64_t r = 0; r < rows; r++) {
      const int64_t ih = r - p->pad_t;
      if (ih < 0 || ih >= p->h_in) {
        memset(ev + r * len, 0, sizeof(float) * (size_t)len);
        memset(od + r * len, 0, sizeof(float) * (size_t)len);
        continue;
      }
      split_row(ev + r * len, xc + ih * p->w_in, p->w_in, -p->pad_l, len);
      split_row(od + r * len, xc + ih * p->w_in, p->w_in, 1 - p->pad_l, len);
    }
    for (int64_t th = 0; th < th_n; th++)
      input_tiles(ev + 2 * th * len, od + 2 * th * len, len, v + c * ld + th * tw_n, p->c_in * ld, tw_n);
  }
}

/* One row of tiles of one output channel: y = A^T m A with
 * A^T = [1 1 1 0; 0 1 -1 -1], into two output rows y0, y1 of 2 * tw_n. */
static void output_tiles(const float *m, int64_t stride, float *restrict y0, float *restrict y1, int64_t tw_n) {
  const float *m0 = m, *m1 = m + stride, *m2 = m + 2 * stride, *m3 = m + 3 * stride, *m4 = m + 4 * stride;
  const float *m5 = m + 5 * stride, *m6 = m + 6 * stride, *m7 = m + 7 * stride, *m8 = m + 8 * stride;
  const float *m9 = m + 9 * stride, *m10 = m + 10 * stride, *m11 = m + 11 * stride, *m12 = m + 12 * stride;
  const float *m13 = m + 13 * stride, *m14 = m + 14 * stride, *m15 = m + 15 * stride;
  for (int64_t tw = 0; tw < tw_n; tw++) {
    /* s = rows 0+1+2, t = rows 1-2-3 of A^T m, per column */
    const float s0 = m0[tw] + m4[tw] + m8[tw], s1 = m1[tw] + m5[tw] + m9[tw];
    const float s2 = m2[tw] + m6[tw] + m10[tw], s3 = m3[tw] + m7[tw] + m11[tw];
    const float t0 = m4[tw] - m8[tw] - m12[tw], t1 = m5[tw] - m9[tw] - m13[tw];
    const float t2 = m6[tw] - m10[tw] - m14[tw], t3 = m7[tw] - m11[tw] - m15[tw];
    y0[2 * tw] = s0 + s1 + s2;
    y0[2 * tw + 1] = s1 - s2 - s3;
    y1[2 * tw] = t0 + t1 + t2;
    y1[2 * tw + 1] = t1 - t2 - t3;
  }
}

/* out = act(Y + bias + res) for one image, Y from the products m. */
static void output_transform(const RtConv2d *p, const float *m, const float *bias, const float *res, float *out,
                             float *rows) {
  const int64_t tw_n = rt_conv2d_wino_tw(p), th_n = rt_conv2d_wino_th(p), tiles = tw_n * th_n;
  const int64_t OH = p->h_out, OW = p->w_out;
  float *y[2] = {rows, rows + 2 * tw_n};
  for (int64_t oc = 0; oc < p->c_out; oc++) {
    const float b = bias ? bias[oc] : 0.0f;
    for (int64_t th = 0; th < th_n; th++) {
      output_tiles(m + oc * tiles + th * tw_n, p->c_out * tiles, y[0], y[1], tw_n);
      for (int64_t k = 0; k < 2 && 2 * th + k < OH; k++) {
        const int64_t at = (oc * OH + 2 * th + k) * OW;
        float *o = out + at;
        if (res)
          for (int64_t ow = 0; ow < OW; ow++) o[ow] = y[k][ow] + b + res[at + ow];
        else
          for (int64_t ow = 0; ow < OW; ow++) o[ow] = y[k][ow] + b;
        rt_conv_activate(p, o, OW);
      }
    }
  }
}

void rt_conv2d_winograd(const RtConv2d *p, int64_t batch, const float *x, const float *w, const float *bias,
                        const float *residual, float *out, float *ws, float *gemm_ws) {
  const int64_t tiles = rt_conv2d_wino_tw(p) * rt_conv2d_wino_th(p), ld = rt_conv2d_wino_ld(p);
  const int64_t uld = rt_conv2d_wino_uld(p), ci = p->c_in, co = p->c_out;
  const int64_t in_img = ci * p->h_in * p->w_in, out_img = co * p->h_out * p->w_out;
  float *u = ws, *v = u + 16 * uld, *m = v + 16 * ci * ld, *rows = m + 16 * co * tiles;
  filter_transform(p, w, u);
  for (int64_t n = 0; n < batch; n++) {
    input_transform(p, x + n * in_img, v, rows);
    for (int e = 0; e < 16; e++)
      rt_sgemm_ws(0, 0, co, tiles, ci, 1.0f, u + e * uld, ci, v + e * ci * ld, ld, 0.0f, m + e * co * tiles, tiles,
                  gemm_ws);
    output_transform(p, m, bias, residual ? residual + n * out_img : NULL, out + n * out_img, rows);
  }
}

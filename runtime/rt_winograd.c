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
 * few float roundings of the direct sum.  The tiling, the GEMMs and the
 * workspace layout are rt_winograd_common.h's.  The filter transform runs on
 * every call, unless the weights were bound transformed and packed
 * (p->packed: rt_wino_pack). */
#include "rt_winograd_common.h"

/* u[e] = (G g G^T)[e] for one 3x3 filter g, with
 * G = [1 0 0; .5 .5 .5; .5 -.5 .5; 0 0 1]. */
void rt_wino2_filter(const float g[9], float u[16]) {
  /* t = G g: the rows of the 4x3 intermediate */
  const float a0 = g[0], a1 = g[1], a2 = g[2];
  const float b0 = 0.5f * (g[0] + g[3] + g[6]), b1 = 0.5f * (g[1] + g[4] + g[7]), b2 = 0.5f * (g[2] + g[5] + g[8]);
  const float c0 = 0.5f * (g[0] - g[3] + g[6]), c1 = 0.5f * (g[1] - g[4] + g[7]), c2 = 0.5f * (g[2] - g[5] + g[8]);
  const float d0 = g[6], d1 = g[7], d2 = g[8];
  /* U = t G^T */
  u[0] = a0, u[1] = 0.5f * (a0 + a1 + a2), u[2] = 0.5f * (a0 - a1 + a2), u[3] = a2;
  u[4] = b0, u[5] = 0.5f * (b0 + b1 + b2), u[6] = 0.5f * (b0 - b1 + b2), u[7] = b2;
  u[8] = c0, u[9] = 0.5f * (c0 + c1 + c2), u[10] = 0.5f * (c0 - c1 + c2), u[11] = c2;
  u[12] = d0, u[13] = 0.5f * (d0 + d1 + d2), u[14] = 0.5f * (d0 - d1 + d2), u[15] = d2;
}

/* U[e][f] for every filter f = oc * c_in + ic, storing to the 16 planes of
 * U.  The planes lie rt_conv2d_wino_uld floats apart, a count padded off
 * powers of two: 16 store streams exactly 2^k apart fall into the same
 * cache sets (2x slower, measured). */
static void filter_transform(const RtConv2d *p, const float *w, float *u, int64_t f0, int64_t f1) {
  const int64_t ld = rt_conv2d_wino_uld(p);
  for (int64_t f = f0; f < f1; f++) {
    float t[16];
    rt_wino2_filter(w + f * 9, t);
    for (int e = 0; e < 16; e++) u[e * ld + f] = t[e];
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

/* RtWinoScheme.input_tiles: ev and od are the phase planes, len = row_ld
 * their row length. */
static void input_tiles(const float *q, int64_t row_ld, int64_t phase_ld, float *v, int64_t stride, int64_t tw_n) {
  const float *ev = q, *od = q + phase_ld;
  const int64_t len = row_ld;
  int64_t tw = 0;
#if defined(__GNUC__)
  for (; tw < tw_n; tw += WINO_VL) TILES(WinoVec, LDV, STV);
#endif
  for (; tw < tw_n; tw++) TILES(float, LD1, ST1);
}

/* RtWinoScheme.output_tiles: y = A^T m A with A^T = [1 1 1 0; 0 1 -1 -1],
 * into the two output rows y0, y1 of 2 * tw_n. */
static void output_tiles(const float *m, int64_t stride, float *restrict y, int64_t tw_n) {
  float *y0 = y, *y1 = y + 2 * tw_n;
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

static const RtWinoScheme f2x2 = {
    .m = 2, .phase_planes = 1, .filter_transform = filter_transform, .input_tiles = input_tiles,
    .output_tiles = output_tiles};

void rt_conv2d_winograd(const RtConv2d *p, int64_t batch, const float *x, const float *w, const float *bias,
                        const float *residual, float *out, float *ws, float *gemm_ws) {
  rt_wino_conv2d(&f2x2, p, batch, x, w, bias, residual, out, ws, gemm_ws);
}

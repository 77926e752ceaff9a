/* 3x3 stride-1 convolution by Winograd's F(4x4, 3x3) (Lavin and Gray), for
 * images with many 4x4 output tiles (rt_conv2d_wino_m = 4).
 *
 * The same scheme as rt_winograd.c with 6x6 input patches: per tile
 *   y = A^T [(G g G^T) . (B^T d B)] A,
 * 36 products M[e] [c_out, tiles] = U[e] [c_out, c_in] x V[e] [c_in, tiles],
 * 2.25 multiplications per output and channel pair instead of 9.  The
 * interpolation points 0, +-1, +-2 keep the transforms to small integers
 * (and G's 1/4, 1/6, 1/12, 1/24); the result stays within about 1e-6 of the
 * direct sum relative to the output's scale.
 *   B^T = [4 0 -5 0 1 0; 0 -4 -4 1 1 0; 0 4 -4 -1 1 0;
 *          0 -2 -1 2 1 0; 0 2 -1 -2 1 0; 0 4 0 -5 0 1]
 *   G   = [1/4 0 0; -1/6 -1/6 -1/6; -1/6 1/6 -1/6;
 *          1/24 1/12 1/6; 1/24 -1/12 1/6; 0 0 1]
 *   A^T = [1 1 1 1 1 0; 0 1 -1 2 -2 0; 0 1 1 4 4 0; 0 1 -1 8 -8 1]
 * Workspace (rt_conv2d_ws_floats): U, V, M, then the phase-split rows. */
#include <string.h>

#include "rt_kernels.h"

/* o = G x for a 3-vector x (filter transform, one direction). */
#define G6(x0, x1, x2, o)                                           \
  do {                                                              \
    o[0] = 0.25f * (x0);                                            \
    o[1] = -(1.0f / 6) * ((x0) + (x1) + (x2));                      \
    o[2] = -(1.0f / 6) * ((x0) - (x1) + (x2));                      \
    o[3] = (1.0f / 24) * (x0) + (1.0f / 12) * (x1) + (1.0f / 6) * (x2); \
    o[4] = (1.0f / 24) * (x0) - (1.0f / 12) * (x1) + (1.0f / 6) * (x2); \
    o[5] = (x2);                                                    \
  } while (0)

/* U[e][f] = (G g_f G^T)[e] for every filter f; the 36 planes lie
 * rt_conv2d_wino_uld floats apart (see rt_winograd.c on that padding). */
static void filter_transform(const RtConv2d *p, const float *w, float *u) {
  const int64_t n = p->c_out * p->c_in, ld = rt_conv2d_wino_uld(p);
  for (int64_t f = 0; f < n; f++) {
    const float *g = w + f * 9;
    float t[3][6], r[6]; /* t[j] = G g[:, j], the columns of the 6x3 G g */
    for (int j = 0; j < 3; j++) G6(g[j], g[3 + j], g[6 + j], t[j]);
    for (int i = 0; i < 6; i++) {
      G6(t[0][i], t[1][i], t[2][i], r);
      for (int k = 0; k < 6; k++) u[(i * 6 + k) * ld + f] = r[k];
    }
  }
}

/* o = B^T d for a 6-vector d (input transform, one direction). */
#define BT6(d0, d1, d2, d3, d4, d5, o)           \
  do {                                           \
    o[0] = 4 * (d0) - 5 * (d2) + (d4);           \
    o[1] = -4 * ((d1) + (d2)) + (d3) + (d4);     \
    o[2] = 4 * ((d1) - (d2)) - (d3) + (d4);      \
    o[3] = 2 * ((d3) - (d1)) - (d2) + (d4);      \
    o[4] = 2 * ((d1) - (d3)) - (d2) + (d4);      \
    o[5] = 4 * (d1) - 5 * (d3) + (d5);           \
  } while (0)

/* The patches of one row of tiles, from 6 input rows split by column phase:
 * q[(i * 4 + ph) * len + k] = row i, column 4k + ph, so that patch column j
 * of tile tw is phase j at tw (j < 4) or phase j - 4 at tw + 1.  T is a
 * float or a vector of consecutive tiles; LD/ST load and store one. */
#define TILES4(T, LD, ST)                                                                        \
  do {                                                                                           \
    T t[6][6]; /* t[j] = B^T d[:, j] */                                                          \
    for (int j = 0; j < 6; j++) {                                                                \
      const float *c = q + (j & 3) * len + tw + (j >> 2);                                        \
      T d0, d1, d2, d3, d4, d5;                                                                  \
      LD(d0, c), LD(d1, c + 4 * len), LD(d2, c + 8 * len), LD(d3, c + 12 * len);                 \
      LD(d4, c + 16 * len), LD(d5, c + 20 * len);                                                \
      BT6(d0, d1, d2, d3, d4, d5, t[j]);                                                         \
    }                                                                                            \
    for (int i = 0; i < 6; i++) {                                                                \
      T r[6];                                                                                    \
      BT6(t[0][i], t[1][i], t[2][i], t[3][i], t[4][i], t[5][i], r);                              \
      for (int k = 0; k < 6; k++) ST(v + (i * 6 + k) * stride + tw, r[k]);                       \
    }                                                                                            \
  } while (0)

#define LD1(x, p) ((x) = *(p))
#define ST1(p, x) (*(p) = (x))

#if defined(__GNUC__)
#if defined(__AVX__)
#define WINO_VL 8
#else
#define WINO_VL 4
#endif
typedef float WinoVec __attribute__((vector_size(WINO_VL * 4)));
#define LDV(x, p) memcpy(&(x), (p), sizeof(WinoVec))
#define STV(p, x)                       \
  do {                                  \
    const WinoVec sv_ = (x);            \
    memcpy((p), &sv_, sizeof(WinoVec)); \
  } while (0)
#endif

/* Tiles [0, tw_n), the vector loop running up to WINO_VL - 1 tiles further
 * into room the layout leaves (rt_conv2d_wino_ld / _len). */
static void input_tiles(const float *q, int64_t len, float *v, int64_t stride, int64_t tw_n) {
  int64_t tw = 0;
#if defined(__GNUC__)
  for (; tw < tw_n; tw += WINO_VL) TILES4(WinoVec, LDV, STV);
#endif
  for (; tw < tw_n; tw++) TILES4(float, LD1, ST1);
}

/* dst[k] = x[4k + off] for k < n, 0 where 4k + off is outside [0, w). */
static void split_row(float *restrict dst, const float *restrict x, int64_t w, int64_t off, int64_t n) {
  int64_t lo = off >= 0 ? 0 : (3 - off) / 4, hi = w - off <= 0 ? 0 : (w - off + 3) / 4;
  lo = lo < n ? lo : n;
  hi = hi < n ? hi : n;
  hi = hi > lo ? hi : lo;
  memset(dst, 0, sizeof(float) * (size_t)lo);
  if (hi > lo) {
    const float *src = x + (4 * lo + off);
    float *d = dst + lo;
    for (int64_t j = 0; j < hi - lo; j++) d[j] = src[4 * j];
  }
  memset(dst + hi, 0, sizeof(float) * (size_t)(n - hi));
}

/* V for one image: each input channel is split once into 4 column phases
 * of its 4 * th_n + 2 zero-padded rows, from which every row of tiles reads
 * its 6 rows. */
static void input_transform(const RtConv2d *p, const float *x, float *v, float *q) {
  const int64_t tw_n = rt_conv2d_wino_tw(p), th_n = rt_conv2d_wino_th(p), ld = rt_conv2d_wino_ld(p);
  const int64_t len = rt_conv2d_wino_len(p), rows = 4 * th_n + 2;
  for (int64_t c = 0; c < p->c_in; c++) {
    const float *xc = x + c * p->h_in * p->w_in;
    for (int64_t r = 0; r < rows; r++) {
      float *qr = q + r * 4 * len;
      const int64_t ih = r - p->pad_t;
      if (ih < 0 || ih >= p->h_in) {
        memset(qr, 0, sizeof(float) * (size_t)(4 * len));
        continue;
      }
      for (int ph = 0; ph < 4; ph++) split_row(qr + ph * len, xc + ih * p->w_in, p->w_in, ph - p->pad_l, len);
    }
    for (int64_t th = 0; th < th_n; th++)
      input_tiles(q + 4 * th * 4 * len, len, v + c * ld + th * tw_n, p->c_in * ld, tw_n);
  }
}

/* o = A^T m for a 6-vector m (output transform, one direction). */
#define AT4(m0, m1, m2, m3, m4, m5, o)                 \
  do {                                                 \
    o[0] = (m0) + (m1) + (m2) + (m3) + (m4);           \
    o[1] = ((m1) - (m2)) + 2 * ((m3) - (m4));          \
    o[2] = ((m1) + (m2)) + 4 * ((m3) + (m4));          \
    o[3] = ((m1) - (m2)) + 8 * ((m3) - (m4)) + (m5);   \
  } while (0)

/* One row of tiles of one output channel: y = A^T m A into 4 output rows
 * y[r * row + 4 * tw + c] (row = 4 * tw_n). */
static void output_tiles(const float *m, int64_t stride, float *restrict y, int64_t tw_n) {
  const int64_t row = 4 * tw_n;
  for (int64_t tw = 0; tw < tw_n; tw++) {
    float s[6][4]; /* s[j] = A^T m[:, j] */
    for (int j = 0; j < 6; j++) {
      const float *c = m + j * stride + tw;
      AT4(c[0], c[6 * stride], c[12 * stride], c[18 * stride], c[24 * stride], c[30 * stride], s[j]);
    }
    for (int r = 0; r < 4; r++) {
      float o[4];
      AT4(s[0][r], s[1][r], s[2][r], s[3][r], s[4][r], s[5][r], o);
      memcpy(y + r * row + 4 * tw, o, sizeof o);
    }
  }
}

/* out = act(Y + bias + res) for one image, Y from the products m. */
static void output_transform(const RtConv2d *p, const float *m, const float *bias, const float *res, float *out,
                             float *y) {
  const int64_t tw_n = rt_conv2d_wino_tw(p), th_n = rt_conv2d_wino_th(p), tiles = tw_n * th_n;
  const int64_t OH = p->h_out, OW = p->w_out, row = 4 * tw_n;
  for (int64_t oc = 0; oc < p->c_out; oc++) {
    const float b = bias ? bias[oc] : 0.0f;
    for (int64_t th = 0; th < th_n; th++) {
      output_tiles(m + oc * tiles + th * tw_n, p->c_out * tiles, y, tw_n);
      for (int64_t k = 0; k < 4 && 4 * th + k < OH; k++) {
        const int64_t at = (oc * OH + 4 * th + k) * OW;
        const float *yr = y + k * row;
        float *o = out + at;
        if (res)
          for (int64_t ow = 0; ow < OW; ow++) o[ow] = yr[ow] + b + res[at + ow];
        else
          for (int64_t ow = 0; ow < OW; ow++) o[ow] = yr[ow] + b;
        rt_conv_activate(p, o, OW);
      }
    }
  }
}

void rt_conv2d_winograd4(const RtConv2d *p, int64_t batch, const float *x, const float *w, const float *bias,
                         const float *residual, float *out, float *ws, float *gemm_ws) {
  const int64_t tiles = rt_conv2d_wino_tw(p) * rt_conv2d_wino_th(p), ld = rt_conv2d_wino_ld(p);
  const int64_t uld = rt_conv2d_wino_uld(p), ci = p->c_in, co = p->c_out;
  const int64_t in_img = ci * p->h_in * p->w_in, out_img = co * p->h_out * p->w_out;
  float *u = ws, *v = u + 36 * uld, *m = v + 36 * ci * ld, *rows = m + 36 * co * tiles;
  filter_transform(p, w, u);
  for (int64_t n = 0; n < batch; n++) {
    input_transform(p, x + n * in_img, v, rows);
    for (int e = 0; e < 36; e++)
      rt_sgemm_ws(0, 0, co, tiles, ci, 1.0f, u + e * uld, ci, v + e * ci * ld, ld, 0.0f, m + e * co * tiles, tiles,
                  gemm_ws);
    output_transform(p, m, bias, residual ? residual + n * out_img : NULL, out + n * out_img, rows);
  }
}

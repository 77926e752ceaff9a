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
 * The tiling, the GEMMs and the workspace layout are rt_winograd_common.h's. */
#include "rt_winograd_common.h"

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

/* u[e] = (G g G^T)[e] for one 3x3 filter g (rt_wino4_filter), and U[e][f]
 * for every filter f; the 36 planes lie rt_conv2d_wino_uld floats apart
 * (see rt_winograd.c on that padding). */
void rt_wino4_filter(const float g[9], float u[36]) {
  float t[3][6]; /* t[j] = G g[:, j], the columns of the 6x3 G g */
  for (int j = 0; j < 3; j++) G6(g[j], g[3 + j], g[6 + j], t[j]);
  for (int i = 0; i < 6; i++) G6(t[0][i], t[1][i], t[2][i], (u + i * 6));
}

static void filter_transform(const RtConv2d *p, const float *w, float *u, int64_t f0, int64_t f1) {
  const int64_t ld = rt_conv2d_wino_uld(p);
  for (int64_t f = f0; f < f1; f++) {
    float t[36];
    rt_wino4_filter(w + f * 9, t);
    for (int e = 0; e < 36; e++) u[e * ld + f] = t[e];
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
 * q[i * row_ld + ph * phase_ld + k] = row i, column 4k + ph, so that patch
 * column j of tile tw is phase j at tw (j < 4) or phase j - 4 at tw + 1.  T
 * is a float or a vector of consecutive tiles; LD/ST load and store one. */
#define TILES4(T, LD, ST)                                                                        \
  do {                                                                                           \
    T t[6][6]; /* t[j] = B^T d[:, j] */                                                          \
    for (int j = 0; j < 6; j++) {                                                                \
      const float *c = q + (j & 3) * phase_ld + tw + (j >> 2);                                   \
      T d0, d1, d2, d3, d4, d5;                                                                  \
      LD(d0, c), LD(d1, c + row_ld), LD(d2, c + 2 * row_ld), LD(d3, c + 3 * row_ld);             \
      LD(d4, c + 4 * row_ld), LD(d5, c + 5 * row_ld);                                            \
      BT6(d0, d1, d2, d3, d4, d5, t[j]);                                                         \
    }                                                                                            \
    for (int i = 0; i < 6; i++) {                                                                \
      T r[6];                                                                                    \
      BT6(t[0][i], t[1][i], t[2][i], t[3][i], t[4][i], t[5][i], r);                              \
      for (int k = 0; k < 6; k++) ST(v + (i * 6 + k) * stride + tw, r[k]);                       \
    }                                                                                            \
  } while (0)

/* RtWinoScheme.input_tiles. */
static void input_tiles(const float *q, int64_t row_ld, int64_t phase_ld, float *v, int64_t stride, int64_t tw_n) {
  int64_t tw = 0;
#if defined(__GNUC__)
  for (; tw < tw_n; tw += WINO_VL) TILES4(WinoVec, LDV, STV);
#endif
  for (; tw < tw_n; tw++) TILES4(float, LD1, ST1);
}

/* o = A^T m for a 6-vector m (output transform, one direction). */
#define AT4(m0, m1, m2, m3, m4, m5, o)                 \
  do {                                                 \
    o[0] = (m0) + (m1) + (m2) + (m3) + (m4);           \
    o[1] = ((m1) - (m2)) + 2 * ((m3) - (m4));          \
    o[2] = ((m1) + (m2)) + 4 * ((m3) + (m4));          \
    o[3] = ((m1) - (m2)) + 8 * ((m3) - (m4)) + (m5);   \
  } while (0)

/* RtWinoScheme.output_tiles: y = A^T m A into 4 output rows
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

static const RtWinoScheme f4x4 = {
    .m = 4, .phase_planes = 0, .filter_transform = filter_transform, .input_tiles = input_tiles,
    .output_tiles = output_tiles};

void rt_conv2d_winograd4(const RtConv2d *p, int64_t batch, const float *x, const float *w, const float *bias,
                         const float *residual, float *out, float *ws, float *gemm_ws) {
  rt_wino_conv2d(&f4x4, p, batch, x, w, bias, residual, out, ws, gemm_ws);
}

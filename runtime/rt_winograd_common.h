/* What the two Winograd convolutions share (rt_winograd.c: F(2x2, 3x3),
 * rt_winograd4.c: F(4x4, 3x3)); included by those two files only.
 *
 * Both run the same pipeline for F(m x m, 3x3) with a = m + 2:
 *   U = the filter transform (once per call; none when the weights were
 *   bound transformed and packed, p->packed: then M[e] by rt_pp_gemm),
 *   per image: the input split by column phase (mod m) into zero-padded
 *   rows, V = the input transform of every row of tiles, a * a GEMMs
 *   M[e] [c_out, tiles] = U[e] [c_out, c_in] x V[e] [c_in, tiles], then
 *   out = act(A^T M A + bias + residual).
 * A scheme (RtWinoScheme) gives m, the layout of its phase-split rows and its
 * three transforms; rt_wino_conv2d drives them.  Workspace, in the order
 * rt_conv2d_ws_floats sizes it: U (a * a planes rt_conv2d_wino_uld apart;
 * none with a prepared filter),
 * V ([a * a][c_in][rt_conv2d_wino_ld]), M ([a * a][c_out][tiles]), then the
 * m * (m * th_n + 2) phase-split rows of rt_conv2d_wino_len floats (reused
 * for the m output rows of one row of tiles). */
#ifndef PADDLEC_RT_WINOGRAD_COMMON_H
#define PADDLEC_RT_WINOGRAD_COMMON_H

#include <string.h>

#include "rt_kernels.h"
#include "rt_parallel.h"

/* Tile loads and stores for the input transforms' TILES bodies: LD1 / ST1
 * one float, LDV / STV a WinoVec of WINO_VL consecutive tiles. */
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
#define STV(p, x)                       \
  do {                                  \
    const WinoVec sv_ = (x);            \
    memcpy((p), &sv_, sizeof(WinoVec)); \
  } while (0)
#endif

/* One Winograd scheme F(m x m, 3x3). */
typedef struct RtWinoScheme {
  int m; /* output tile side (rt_conv2d_wino_m); input patches are m + 2 */
  /* layout of the phase-split rows (row r, phase ph): 1 = one plane of all
   * rows per phase (at (ph * rows + r) * len), 0 = the m phases of each row
   * together (at (r * m + ph) * len) */
  int phase_planes;
  /* U[e][f] = (G g_f G^T)[e] for the filters f in [f0, f1) (f = oc * c_in +
   * ic) of w, the planes e rt_conv2d_wino_uld floats apart */
  void (*filter_transform)(const RtConv2d *p, const float *w, float *u, int64_t f0, int64_t f1);
  /* V for the tiles [0, tw_n) of one row of tiles (and, vectorized, up to
   * WINO_VL - 1 more, into room the layout leaves: rt_conv2d_wino_ld /
   * _len): phase ph of patch row i at q + i * row_ld + ph * phase_ld, tile
   * tw's value of plane e at v + e * stride + tw */
  void (*input_tiles)(const float *q, int64_t row_ld, int64_t phase_ld, float *v, int64_t stride, int64_t tw_n);
  /* y = A^T M A for the tiles [0, tw_n) of one row of tiles of one output
   * channel (plane e of M at m + e * stride), into the m output rows y[r *
   * m * tw_n + m * tw + c] */
  void (*output_tiles)(const float *m, int64_t stride, float *restrict y, int64_t tw_n);
} RtWinoScheme;

/* dst[k] = x[step * k + off] for k < n, 0 where step * k + off is outside
 * [0, w). */
static inline void rt_wino_split_row(float *restrict dst, const float *restrict x, int64_t w, int64_t off, int64_t n,
                                     int64_t step) {
  int64_t lo = off >= 0 ? 0 : (step - 1 - off) / step, hi = w - off <= 0 ? 0 : (w - off + step - 1) / step;
  lo = lo < n ? lo : n;
  hi = hi < n ? hi : n;
  hi = hi > lo ? hi : lo;
  memset(dst, 0, sizeof(float) * (size_t)lo);
  if (hi > lo) {
    const float *src = x + (step * lo + off);
    float *d = dst + lo;
    for (int64_t j = 0; j < hi - lo; j++) d[j] = src[step * j];
  }
  memset(dst + hi, 0, sizeof(float) * (size_t)(n - hi));
}

/* V for the input channels [c0, c1) of one image.  Each input channel is
 * first split once into its m column phases of m * th_n + 2 zero-padded rows
 * (phase ph of row r holds columns m * k + ph - pad_l) in q, from which every
 * row of tiles reads its m + 2 rows. */
static inline void rt_wino_input_transform(const RtWinoScheme *s, const RtConv2d *p, const float *x, float *v,
                                           float *q, int64_t c0, int64_t c1) {
  const int64_t m = s->m, tw_n = rt_conv2d_wino_tw(p), th_n = rt_conv2d_wino_th(p), ld = rt_conv2d_wino_ld(p);
  const int64_t len = rt_conv2d_wino_len(p), rows = m * th_n + 2;
  const int64_t row_ld = s->phase_planes ? len : m * len, phase_ld = s->phase_planes ? rows * len : len;
  for (int64_t c = c0; c < c1; c++) {
    const float *xc = x + c * p->h_in * p->w_in;
    for (int64_t r = 0; r < rows; r++) {
      const int64_t ih = r - p->pad_t;
      for (int64_t ph = 0; ph < m; ph++) {
        float *dst = q + r * row_ld + ph * phase_ld;
        if (ih < 0 || ih >= p->h_in)
          memset(dst, 0, sizeof(float) * (size_t)len);
        else
          rt_wino_split_row(dst, xc + ih * p->w_in, p->w_in, ph - p->pad_l, len, m);
      }
    }
    for (int64_t th = 0; th < th_n; th++)
      s->input_tiles(q + m * th * row_ld, row_ld, phase_ld, v + c * ld + th * tw_n, p->c_in * ld, tw_n);
  }
}

/* out = act(Y + bias + res) for the output channels [c0, c1) of one image,
 * Y from the products prod; y holds the m output rows of one row of tiles. */
static inline void rt_wino_output_transform(const RtWinoScheme *s, const RtConv2d *p, const float *prod,
                                            const float *bias, const float *res, float *out, float *y, int64_t c0,
                                            int64_t c1) {
  const int64_t m = s->m, tw_n = rt_conv2d_wino_tw(p), th_n = rt_conv2d_wino_th(p), tiles = tw_n * th_n;
  const int64_t OH = p->h_out, OW = p->w_out, row = m * tw_n;
  for (int64_t oc = c0; oc < c1; oc++) {
    const float b = bias ? bias[oc] : 0.0f;
    for (int64_t th = 0; th < th_n; th++) {
      s->output_tiles(prod + oc * tiles + th * tw_n, p->c_out * tiles, y, tw_n);
      for (int64_t k = 0; k < m && m * th + k < OH; k++) {
        const int64_t at = (oc * OH + m * th + k) * OW;
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

/* One step of a Winograd convolution, split into tasks over `count` items
 * (filters, input channels, products or output channels). */
typedef struct RtWinoJob {
  const RtWinoScheme *s;       /* the scheme */
  const RtConv2d *p;           /* the geometry */
  const float *x, *w, *bias;   /* input image, filter, bias (or NULL) */
  const float *res;            /* residual image (or NULL) */
  float *out;                  /* output image */
  float *u, *v, *prod;         /* the transformed filter, input, products (shared) */
  float *rows, *gemm_ws;       /* thread 0's rows and GEMM packing room */
  int64_t count, ntasks;       /* items, tasks */
} RtWinoJob;

/* Items [lo, hi) of task t, and the rows and GEMM room of thread tid (a
 * worker's scratch: rows first, then the GEMM room). */
static inline void rt_wino_task(const RtWinoJob *j, int64_t t, int tid, int64_t *lo, int64_t *hi, float **rows,
                                float **gemm_ws) {
  *lo = t * j->count / j->ntasks;
  *hi = (t + 1) * j->count / j->ntasks;
  if (tid == 0) {
    *rows = j->rows, *gemm_ws = j->gemm_ws;
  } else {
    *rows = rt_task_scratch(tid, NULL);
    *gemm_ws = *rows + rt_conv2d_wino_rows(j->p);
  }
}

static void rt_wino_filter_task(void *ctx, int64_t t, int tid) {
  const RtWinoJob *j = ctx;
  int64_t lo, hi;
  float *rows, *gws;
  rt_wino_task(j, t, tid, &lo, &hi, &rows, &gws);
  j->s->filter_transform(j->p, j->w, j->u, lo, hi);
}

static void rt_wino_input_task(void *ctx, int64_t t, int tid) {
  const RtWinoJob *j = ctx;
  int64_t lo, hi;
  float *rows, *gws;
  rt_wino_task(j, t, tid, &lo, &hi, &rows, &gws);
  rt_wino_input_transform(j->s, j->p, j->x, j->v, rows, lo, hi);
}

/* M[e] = U[e] x V[e] for e in [lo, hi) (the GEMM runs on this thread). */
static void rt_wino_gemm_task(void *ctx, int64_t t, int tid) {
  const RtWinoJob *j = ctx;
  const RtConv2d *p = j->p;
  const int64_t tiles = rt_conv2d_wino_tw(p) * rt_conv2d_wino_th(p), ld = rt_conv2d_wino_ld(p);
  const int64_t uld = rt_conv2d_wino_uld(p), ci = p->c_in, co = p->c_out;
  int64_t lo, hi;
  float *rows, *gws;
  rt_wino_task(j, t, tid, &lo, &hi, &rows, &gws);
  for (int64_t e = lo; e < hi; e++)
    if (p->packed) /* the weights hold the planes of U, packed */
      rt_pp_gemm(j->w + e * RT_PP_FLOATS(co, ci), p->packed, co, ci, j->v + e * ci * ld, ld, tiles, j->prod + e * co * tiles,
                 tiles, gws);
    else
      rt_sgemm_ws(0, 0, co, tiles, ci, 1.0f, j->u + e * uld, ci, j->v + e * ci * ld, ld, 0.0f,
                  j->prod + e * co * tiles, tiles, gws);
}

static void rt_wino_output_task(void *ctx, int64_t t, int tid) {
  const RtWinoJob *j = ctx;
  int64_t lo, hi;
  float *rows, *gws;
  rt_wino_task(j, t, tid, &lo, &hi, &rows, &gws);
  rt_wino_output_transform(j->s, j->p, j->prod, j->bias, j->res, j->out, rows, lo, hi);
}

/* Runs fn over `count` items in up to `tasks` tasks. */
static inline void rt_wino_step(RtWinoJob *j, int64_t count, int64_t tasks, RtTask fn) {
  j->count = count;
  j->ntasks = count < tasks ? count : tasks;
  rt_parallel(j->ntasks, fn, j);
}

/* rt_conv2d for `batch` images by scheme s (see rt_conv2d for the rest). */
static inline void rt_wino_conv2d(const RtWinoScheme *s, const RtConv2d *p, int64_t batch, const float *x,
                                  const float *w, const float *bias, const float *residual, float *out, float *ws,
                                  float *gemm_ws) {
  const int64_t a2 = (s->m + 2) * (s->m + 2);
  const int64_t tiles = rt_conv2d_wino_tw(p) * rt_conv2d_wino_th(p), ld = rt_conv2d_wino_ld(p);
  const int64_t uld = rt_conv2d_wino_uld(p), ci = p->c_in, co = p->c_out;
  const int64_t in_img = ci * p->h_in * p->w_in, out_img = co * p->h_out * p->w_out;
  RtWinoJob j = {.s = s, .p = p, .w = w, .bias = bias, .u = ws, .gemm_ws = gemm_ws};
  j.v = j.u + (p->packed ? 0 : a2 * uld), j.prod = j.v + a2 * ci * ld, j.rows = j.prod + a2 * co * tiles;
  if (!p->packed) rt_wino_step(&j, co * ci, 16, rt_wino_filter_task);
  for (int64_t n = 0; n < batch; n++) {
    j.x = x + n * in_img, j.out = out + n * out_img, j.res = residual ? residual + n * out_img : NULL;
    rt_wino_step(&j, ci, 16, rt_wino_input_task);
    rt_wino_step(&j, a2, a2, rt_wino_gemm_task);
    rt_wino_step(&j, co, 16, rt_wino_output_task);
  }
}

#endif

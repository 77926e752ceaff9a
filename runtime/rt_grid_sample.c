/* grid_sampler (see rt_grid_sample.h).  Each step is Paddle's, in its
 * order and float arithmetic: Unnormalize, Clip, then AllNeighbors and the
 * weighted sum (bilinear) or a rounded read (nearest); min and max are
 * Eigen's (b < a ? b : a and a < b ? b : a). */
#include <math.h>

#include "rt_kernels.h"

static float min_f(float a, float b) { return b < a ? b : a; }
static float max_f(float a, float b) { return a < b ? b : a; }

/* Unnormalize then Clip of one coordinate along a dim of size n. */
static float grid_coord(const RtGridSample *p, float v, int64_t n) {
  const int max_val = (int)n - 1;
  if (p->align_corners)
    v = (v + 1.0f) * (float)(max_val * 0.5);
  else
    v = (v + 1.0f) * (float)((max_val + 1) * 0.5) - 0.5f;
  if (p->padding == RT_GRID_BORDER) return min_f(max_f(v, 0.0f), (float)max_val);
  if (p->padding != RT_GRID_REFLECTION) return v;
  if (p->align_corners) {
    if (max_val == 0) return 0.0f;
    const float range = (float)(max_val * 2), a = fabsf(v), extra = a - floorf(a / range) * range;
    return min_f(extra, range - extra);
  }
  const float range = (float)((max_val + 1) * 2), a = fabsf(v + 0.5f), extra = a - floorf(a / range) * range;
  return min_f(max_f(min_f(extra, range - extra) - 0.5f, 0.0f), (float)max_val);
}

/* IsInBound: NaN counts as outside here (see rt_grid_sample.h). */
static int in_bound(float v, int64_t n) { return v >= 0.0f && v <= (float)(n - 1); }

/* GetGridPointValue / Get3DGridPointValue at (x, y, z) of one channel
 * plane: 0 outside, else the pixel at the rounded position. */
static float point(const RtGridSample *p, const float *plane, float x, float y, float z) {
  if (!in_bound(x, p->in[2]) || !in_bound(y, p->in[1]) || !in_bound(z, p->in[0])) return 0.0f;
  return plane[((int64_t)roundf(z) * p->in[1] + (int64_t)roundf(y)) * p->in[2] + (int64_t)roundf(x)];
}

void rt_grid_sample(const RtGridSample *p, int64_t batch, const float *x, const float *grid, float *out) {
  const int64_t in_vol = p->in[0] * p->in[1] * p->in[2], out_vol = p->out[0] * p->out[1] * p->out[2];
  for (int64_t n = 0; n < batch; n++)
    for (int64_t o = 0; o < out_vol; o++) {
      const float *g = grid + (n * out_vol + o) * p->nsp;
      float gx = grid_coord(p, g[0], p->in[2]), gy = grid_coord(p, g[1], p->in[1]);
      float gz = p->nsp == 3 ? grid_coord(p, g[2], p->in[0]) : 0.0f;
      if (p->nearest && p->nsp == 2) { /* the 2-D kernel rounds before the bounds check, the 3-D one after */
        gx = roundf(gx);
        gy = roundf(gy);
      }
      const float xw = floorf(gx), xe = xw + 1.0f, yn = floorf(gy), ys = yn + 1.0f, zt = floorf(gz), zb = zt + 1.0f;
      const float dw = gx - xw, de = xe - gx, dn = gy - yn, ds = ys - gy, dt = gz - zt, db = zb - gz;
      for (int64_t c = 0; c < p->c; c++) {
        const float *plane = x + (n * p->c + c) * in_vol;
        float v;
        if (p->nearest)
          v = point(p, plane, gx, gy, gz);
        else if (p->nsp == 2)
          v = point(p, plane, xw, yn, 0) * de * ds + point(p, plane, xe, yn, 0) * dw * ds +
              point(p, plane, xw, ys, 0) * de * dn + point(p, plane, xe, ys, 0) * dw * dn;
        else
          v = point(p, plane, xw, yn, zt) * de * ds * db + point(p, plane, xe, yn, zt) * dw * ds * db +
              point(p, plane, xw, ys, zt) * de * dn * db + point(p, plane, xe, ys, zt) * dw * dn * db +
              point(p, plane, xw, yn, zb) * de * ds * dt + point(p, plane, xe, yn, zb) * dw * ds * dt +
              point(p, plane, xw, ys, zb) * de * dn * dt + point(p, plane, xe, ys, zb) * dw * dn * dt;
        out[(n * p->c + c) * out_vol + o] = v;
      }
    }
}

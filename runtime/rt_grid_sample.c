/* grid_sampler (see rt_grid_sample.h).  Each step is Paddle's, in its
 * order and float arithmetic: Unnormalize, Clip, then AllNeighbors and the
 * weighted sum (bilinear) or a rounded read (nearest); min and max are
 * Eigen's (b < a ? b : a and a < b ? b : a). */
#include <math.h>

#include "rt_kernels.h"

static float min_f(float a, float b) { return b < a ? b : a; }
static float max_f(float a, float b) { return a < b ? b : a; }

/* Unnormalize then Clip of one coordinate along a dim of size n; with
 * `scale`, also d(coordinate)/d(grid value) as the grad kernel's
 * ClipWithMask finds it: the unnormalize factor, times -1 where a
 * reflection flips the direction, times 0 where border or reflection
 * clipping holds the coordinate at an edge. */
static float grid_coord(const RtGridSample *p, float v, int64_t n, float *scale) {
  const int max_val = (int)n - 1;
  const float factor = p->align_corners ? (float)(max_val * 0.5) : (float)((max_val + 1) * 0.5);
  float unused;
  if (!scale) scale = &unused;
  *scale = factor;
  if (p->align_corners)
    v = (v + 1.0f) * factor;
  else
    v = (v + 1.0f) * factor - 0.5f;
  if (p->padding == RT_GRID_BORDER) {
    const float res = min_f(max_f(v, 0.0f), (float)max_val);
    *scale = factor * (float)(res == v);
    return res;
  }
  if (p->padding != RT_GRID_REFLECTION) return v;
  if (p->align_corners) {
    if (max_val == 0) return 0.0f; /* (Paddle's sign there comes from NaN compares: +1, times factor 0) */
    const float range = (float)(max_val * 2), a = fabsf(v), extra = a - floorf(a / range) * range;
    const int is_neg = v < 0.0f, flip = extra > range - extra;
    *scale = factor * ((float)(is_neg == flip) - (float)(is_neg != flip));
    return min_f(extra, range - extra);
  }
  const float range = (float)((max_val + 1) * 2), a = fabsf(v + 0.5f), extra = a - floorf(a / range) * range;
  const int is_neg = v + 0.5f < 0.0f, flip = extra > range - extra;
  const float reflected = min_f(extra, range - extra) - 0.5f;
  const float clipped = min_f(max_f(reflected, 0.0f), (float)max_val);
  *scale = factor * ((float)(is_neg == flip) - (float)(is_neg != flip)) * (float)(clipped == reflected);
  return clipped;
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
      float gx = grid_coord(p, g[0], p->in[2], NULL), gy = grid_coord(p, g[1], p->in[1], NULL);
      float gz = p->nsp == 3 ? grid_coord(p, g[2], p->in[0], NULL) : 0.0f;
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

/* One grid position's corners (bilinear) as the grad kernel's AllNeighbors
 * finds them, with each coordinate's scale (grid_coord). */
typedef struct GridCell {
  float x, y, z;         /* clipped coordinates */
  float sx, sy, sz;      /* their scales */
  float lo[3], hi[3];    /* floor and floor + 1 of x, y, z (w/n/t and e/s/b) */
  float dlo[3], dhi[3];  /* distances to them: x - lo, hi - x (d_w, d_e, ...) */
} GridCell;

static void grid_cell(const RtGridSample *p, const float *g, GridCell *c) {
  c->x = grid_coord(p, g[0], p->in[2], &c->sx);
  c->y = grid_coord(p, g[1], p->in[1], &c->sy);
  c->z = p->nsp == 3 ? grid_coord(p, g[2], p->in[0], &c->sz) : 0.0f;
  if (p->nsp == 2) c->sz = 0.0f;
  const float v[3] = {c->x, c->y, c->z};
  for (int a = 0; a < 3; a++) {
    c->lo[a] = floorf(v[a]);
    c->hi[a] = c->lo[a] + 1.0f;
    c->dlo[a] = v[a] - c->lo[a];
    c->dhi[a] = c->hi[a] - v[a];
  }
}

/* Element offset in a plane at the rounded (x, y, z), or -1 outside
 * (IsInBound / IsInBound3D on the unrounded values). */
static int64_t plane_at(const RtGridSample *p, float x, float y, float z) {
  if (!in_bound(x, p->in[2]) || !in_bound(y, p->in[1]) || !in_bound(z, p->in[0])) return -1;
  return ((int64_t)roundf(z) * p->in[1] + (int64_t)roundf(y)) * p->in[2] + (int64_t)roundf(x);
}

void rt_grid_sample_grad(const RtGridSample *p, int64_t batch, const float *x, const float *grid, const float *dout,
                         float *dx, float *dgrid) {
  const int64_t in_vol = p->in[0] * p->in[1] * p->in[2], out_vol = p->out[0] * p->out[1] * p->out[2];
  if (dx)
    for (int64_t i = 0; i < batch * p->c * in_vol; i++) dx[i] = 0.0f;
  if (dgrid)
    for (int64_t i = 0; i < batch * out_vol * p->nsp; i++) dgrid[i] = 0.0f; /* nearest leaves it 0 */
  if (p->nearest) {
    if (!dx) return;
    for (int64_t n = 0; n < batch; n++)
      for (int64_t o = 0; o < out_vol; o++) {
        const float *g = grid + (n * out_vol + o) * p->nsp;
        float gx = grid_coord(p, g[0], p->in[2], NULL), gy = grid_coord(p, g[1], p->in[1], NULL);
        const float gz = p->nsp == 3 ? grid_coord(p, g[2], p->in[0], NULL) : 0.0f;
        if (p->nsp == 2) { /* as the forward: the 2-D kernel rounds before the bounds check */
          gx = roundf(gx);
          gy = roundf(gy);
        }
        const int64_t at = plane_at(p, gx, gy, gz);
        if (at < 0) continue;
        for (int64_t c = 0; c < p->c; c++) dx[(n * p->c + c) * in_vol + at] += dout[(n * p->c + c) * out_vol + o];
      }
    return;
  }
  /* X@GRAD: one sweep per corner in Paddle's order (w n, w s, e n, e s;
   * in 3-D those at t, then at b), each adding dOut * its weights, so that
   * every element sums in Paddle's order */
  const int corners = p->nsp == 3 ? 8 : 4;
  for (int k = 0; dx && k < corners; k++) {
    const int ex = (k >> 1) & 1, sy = k & 1, bz = k >> 2;
    for (int64_t n = 0; n < batch; n++)
      for (int64_t o = 0; o < out_vol; o++) {
        GridCell cell;
        grid_cell(p, grid + (n * out_vol + o) * p->nsp, &cell);
        const int64_t at = plane_at(p, ex ? cell.hi[0] : cell.lo[0], sy ? cell.hi[1] : cell.lo[1],
                                    p->nsp == 3 ? (bz ? cell.hi[2] : cell.lo[2]) : 0.0f);
        if (at < 0) continue;
        const float wx = ex ? cell.dlo[0] : cell.dhi[0], wy = sy ? cell.dlo[1] : cell.dhi[1];
        const float wz = bz ? cell.dlo[2] : cell.dhi[2];
        for (int64_t c = 0; c < p->c; c++) {
          const float d = dout[(n * p->c + c) * out_vol + o];
          dx[(n * p->c + c) * in_vol + at] += p->nsp == 3 ? d * wx * wy * wz : d * wx * wy;
        }
      }
  }
  if (!dgrid) return;
  /* Grid@GRAD: per position, the sum over channels of the corner value
   * differences times the other axes' weights times dOut, then the scale */
  for (int64_t n = 0; n < batch; n++)
    for (int64_t o = 0; o < out_vol; o++) {
      GridCell cell;
      grid_cell(p, grid + (n * out_vol + o) * p->nsp, &cell);
      const float dw = cell.dlo[0], de = cell.dhi[0], dn = cell.dlo[1], ds = cell.dhi[1];
      const float dt = cell.dlo[2], db = cell.dhi[2];
      float gx = 0.0f, gy = 0.0f, gz = 0.0f;
      for (int64_t c = 0; c < p->c; c++) {
        const float *plane = x + (n * p->c + c) * in_vol;
        const float d = dout[(n * p->c + c) * out_vol + o];
        const float xw = cell.lo[0], xe = cell.hi[0], yn = cell.lo[1], ys = cell.hi[1];
        if (p->nsp == 2) {
          const float wn = point(p, plane, xw, yn, 0), en = point(p, plane, xe, yn, 0);
          const float ws = point(p, plane, xw, ys, 0), es = point(p, plane, xe, ys, 0);
          gx += ((en - wn) * ds + (es - ws) * dn) * d;
          gy += ((ws - wn) * de + (es - en) * dw) * d;
        } else {
          const float zt = cell.lo[2], zb = cell.hi[2];
          const float twn = point(p, plane, xw, yn, zt), ten = point(p, plane, xe, yn, zt);
          const float tws = point(p, plane, xw, ys, zt), tes = point(p, plane, xe, ys, zt);
          const float bwn = point(p, plane, xw, yn, zb), ben = point(p, plane, xe, yn, zb);
          const float bws = point(p, plane, xw, ys, zb), bes = point(p, plane, xe, ys, zb);
          gx += ((ten - twn) * ds * db + (tes - tws) * dn * db + (ben - bwn) * ds * dt + (bes - bws) * dn * dt) * d;
          gy += ((tws - twn) * de * db + (tes - ten) * dw * db + (bws - bwn) * de * dt + (bes - ben) * dw * dt) * d;
          gz += ((bws - tws) * de * dn + (bes - tes) * dw * dn + (bwn - twn) * de * ds + (ben - ten) * dw * ds) * d;
        }
      }
      float *dg = dgrid + (n * out_vol + o) * p->nsp;
      dg[0] = gx * cell.sx;
      dg[1] = gy * cell.sy;
      if (p->nsp == 3) dg[2] = gz * cell.sz;
    }
}

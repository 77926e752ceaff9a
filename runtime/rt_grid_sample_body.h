/* The body of rt_grid_sample.c for one element type, included once per
 * type by rt_grid_sample.c, which defines:
 *   GT        the element type (float, double), in which every step is
 *             computed, as Paddle's kernel for that type computes it;
 *   GF(name)  the name of a routine or helper for that type (name itself
 *             for float, name_f64 for double);
 *   GFLOOR, GROUND, GFABS  floor, round and fabs for that type.
 * Undefines them at its end.  Integer constants (0, 1) convert exactly;
 * the others are cast to GT, so that each type's arithmetic stays its own.
 * Each step is Paddle's, in its order: Unnormalize, Clip, then
 * AllNeighbors and the weighted sum (bilinear) or a rounded read
 * (nearest); min and max are Eigen's (b < a ? b : a and a < b ? b : a). */

static GT GF(min_t)(GT a, GT b) { return b < a ? b : a; }
static GT GF(max_t)(GT a, GT b) { return a < b ? b : a; }

/* Unnormalize then Clip of one coordinate along a dim of size n; with
 * `scale`, also d(coordinate)/d(grid value) as the grad kernel's
 * ClipWithMask finds it: the unnormalize factor, times -1 where a
 * reflection flips the direction, times 0 where border or reflection
 * clipping holds the coordinate at an edge. */
static GT GF(grid_coord)(const RtGridSample *p, GT v, int64_t n, GT *scale) {
  const int max_val = (int)n - 1;
  const GT factor = p->align_corners ? (GT)(max_val * 0.5) : (GT)((max_val + 1) * 0.5);
  GT unused;
  if (!scale) scale = &unused;
  *scale = factor;
  if (p->align_corners)
    v = (v + 1) * factor;
  else
    v = (v + 1) * factor - (GT)0.5;
  if (p->padding == RT_GRID_BORDER) {
    const GT res = GF(min_t)(GF(max_t)(v, 0), (GT)max_val);
    *scale = factor * (GT)(res == v);
    return res;
  }
  if (p->padding != RT_GRID_REFLECTION) return v;
  if (p->align_corners) {
    if (max_val == 0) return 0; /* (Paddle's sign there comes from NaN compares: +1, times factor 0) */
    const GT range = (GT)(max_val * 2), a = GFABS(v), extra = a - GFLOOR(a / range) * range;
    const int is_neg = v < 0, flip = extra > range - extra;
    *scale = factor * ((GT)(is_neg == flip) - (GT)(is_neg != flip));
    return GF(min_t)(extra, range - extra);
  }
  const GT range = (GT)((max_val + 1) * 2), a = GFABS(v + (GT)0.5), extra = a - GFLOOR(a / range) * range;
  const int is_neg = v + (GT)0.5 < 0, flip = extra > range - extra;
  const GT reflected = GF(min_t)(extra, range - extra) - (GT)0.5;
  const GT clipped = GF(min_t)(GF(max_t)(reflected, 0), (GT)max_val);
  *scale = factor * ((GT)(is_neg == flip) - (GT)(is_neg != flip)) * (GT)(clipped == reflected);
  return clipped;
}

/* IsInBound: NaN counts as outside here (see rt_grid_sample.h). */
static int GF(in_bound)(GT v, int64_t n) { return v >= 0 && v <= (GT)(n - 1); }

/* GetGridPointValue / Get3DGridPointValue at (x, y, z) of one channel
 * plane: 0 outside, else the pixel at the rounded position. */
static GT GF(point)(const RtGridSample *p, const GT *plane, GT x, GT y, GT z) {
  if (!GF(in_bound)(x, p->in[2]) || !GF(in_bound)(y, p->in[1]) || !GF(in_bound)(z, p->in[0])) return 0;
  return plane[((int64_t)GROUND(z) * p->in[1] + (int64_t)GROUND(y)) * p->in[2] + (int64_t)GROUND(x)];
}

void GF(rt_grid_sample)(const RtGridSample *p, int64_t batch, const GT *x, const GT *grid, GT *out) {
  const int64_t in_vol = p->in[0] * p->in[1] * p->in[2], out_vol = p->out[0] * p->out[1] * p->out[2];
  for (int64_t n = 0; n < batch; n++)
    for (int64_t o = 0; o < out_vol; o++) {
      const GT *g = grid + (n * out_vol + o) * p->nsp;
      GT gx = GF(grid_coord)(p, g[0], p->in[2], NULL), gy = GF(grid_coord)(p, g[1], p->in[1], NULL);
      GT gz = p->nsp == 3 ? GF(grid_coord)(p, g[2], p->in[0], NULL) : 0;
      if (p->nearest && p->nsp == 2) { /* the 2-D kernel rounds before the bounds check, the 3-D one after */
        gx = GROUND(gx);
        gy = GROUND(gy);
      }
      const GT xw = GFLOOR(gx), xe = xw + 1, yn = GFLOOR(gy), ys = yn + 1, zt = GFLOOR(gz), zb = zt + 1;
      const GT dw = gx - xw, de = xe - gx, dn = gy - yn, ds = ys - gy, dt = gz - zt, db = zb - gz;
      for (int64_t c = 0; c < p->c; c++) {
        const GT *plane = x + (n * p->c + c) * in_vol;
        GT v;
        if (p->nearest)
          v = GF(point)(p, plane, gx, gy, gz);
        else if (p->nsp == 2)
          v = GF(point)(p, plane, xw, yn, 0) * de * ds + GF(point)(p, plane, xe, yn, 0) * dw * ds +
              GF(point)(p, plane, xw, ys, 0) * de * dn + GF(point)(p, plane, xe, ys, 0) * dw * dn;
        else
          v = GF(point)(p, plane, xw, yn, zt) * de * ds * db + GF(point)(p, plane, xe, yn, zt) * dw * ds * db +
              GF(point)(p, plane, xw, ys, zt) * de * dn * db + GF(point)(p, plane, xe, ys, zt) * dw * dn * db +
              GF(point)(p, plane, xw, yn, zb) * de * ds * dt + GF(point)(p, plane, xe, yn, zb) * dw * ds * dt +
              GF(point)(p, plane, xw, ys, zb) * de * dn * dt + GF(point)(p, plane, xe, ys, zb) * dw * dn * dt;
        out[(n * p->c + c) * out_vol + o] = v;
      }
    }
}

/* One grid position's corners (bilinear) as the grad kernel's AllNeighbors
 * finds them, with each coordinate's scale (grid_coord). */
typedef struct GF(GridCell) {
  GT x, y, z;        /* clipped coordinates */
  GT sx, sy, sz;     /* their scales */
  GT lo[3], hi[3];   /* floor and floor + 1 of x, y, z (w/n/t and e/s/b) */
  GT dlo[3], dhi[3]; /* distances to them: x - lo, hi - x (d_w, d_e, ...) */
} GF(GridCell);

static void GF(grid_cell)(const RtGridSample *p, const GT *g, GF(GridCell) *c) {
  c->x = GF(grid_coord)(p, g[0], p->in[2], &c->sx);
  c->y = GF(grid_coord)(p, g[1], p->in[1], &c->sy);
  c->z = p->nsp == 3 ? GF(grid_coord)(p, g[2], p->in[0], &c->sz) : 0;
  if (p->nsp == 2) c->sz = 0;
  const GT v[3] = {c->x, c->y, c->z};
  for (int a = 0; a < 3; a++) {
    c->lo[a] = GFLOOR(v[a]);
    c->hi[a] = c->lo[a] + 1;
    c->dlo[a] = v[a] - c->lo[a];
    c->dhi[a] = c->hi[a] - v[a];
  }
}

/* Element offset in a plane at the rounded (x, y, z), or -1 outside
 * (IsInBound / IsInBound3D on the unrounded values). */
static int64_t GF(plane_at)(const RtGridSample *p, GT x, GT y, GT z) {
  if (!GF(in_bound)(x, p->in[2]) || !GF(in_bound)(y, p->in[1]) || !GF(in_bound)(z, p->in[0])) return -1;
  return ((int64_t)GROUND(z) * p->in[1] + (int64_t)GROUND(y)) * p->in[2] + (int64_t)GROUND(x);
}

void GF(rt_grid_sample_grad)(const RtGridSample *p, int64_t batch, const GT *x, const GT *grid, const GT *dout,
                         GT *dx, GT *dgrid) {
  const int64_t in_vol = p->in[0] * p->in[1] * p->in[2], out_vol = p->out[0] * p->out[1] * p->out[2];
  if (dx)
    for (int64_t i = 0; i < batch * p->c * in_vol; i++) dx[i] = 0;
  if (dgrid)
    for (int64_t i = 0; i < batch * out_vol * p->nsp; i++) dgrid[i] = 0; /* nearest leaves it 0 */
  if (p->nearest) {
    if (!dx) return;
    for (int64_t n = 0; n < batch; n++)
      for (int64_t o = 0; o < out_vol; o++) {
        const GT *g = grid + (n * out_vol + o) * p->nsp;
        GT gx = GF(grid_coord)(p, g[0], p->in[2], NULL), gy = GF(grid_coord)(p, g[1], p->in[1], NULL);
        const GT gz = p->nsp == 3 ? GF(grid_coord)(p, g[2], p->in[0], NULL) : 0;
        if (p->nsp == 2) { /* as the forward: the 2-D kernel rounds before the bounds check */
          gx = GROUND(gx);
          gy = GROUND(gy);
        }
        const int64_t at = GF(plane_at)(p, gx, gy, gz);
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
        GF(GridCell) cell;
        GF(grid_cell)(p, grid + (n * out_vol + o) * p->nsp, &cell);
        const int64_t at = GF(plane_at)(p, ex ? cell.hi[0] : cell.lo[0], sy ? cell.hi[1] : cell.lo[1],
                                    p->nsp == 3 ? (bz ? cell.hi[2] : cell.lo[2]) : 0);
        if (at < 0) continue;
        const GT wx = ex ? cell.dlo[0] : cell.dhi[0], wy = sy ? cell.dlo[1] : cell.dhi[1];
        const GT wz = bz ? cell.dlo[2] : cell.dhi[2];
        for (int64_t c = 0; c < p->c; c++) {
          const GT d = dout[(n * p->c + c) * out_vol + o];
          dx[(n * p->c + c) * in_vol + at] += p->nsp == 3 ? d * wx * wy * wz : d * wx * wy;
        }
      }
  }
  if (!dgrid) return;
  /* Grid@GRAD: per position, the sum over channels of the corner value
   * differences times the other axes' weights times dOut, then the scale */
  for (int64_t n = 0; n < batch; n++)
    for (int64_t o = 0; o < out_vol; o++) {
      GF(GridCell) cell;
      GF(grid_cell)(p, grid + (n * out_vol + o) * p->nsp, &cell);
      const GT dw = cell.dlo[0], de = cell.dhi[0], dn = cell.dlo[1], ds = cell.dhi[1];
      const GT dt = cell.dlo[2], db = cell.dhi[2];
      GT gx = 0, gy = 0, gz = 0;
      for (int64_t c = 0; c < p->c; c++) {
        const GT *plane = x + (n * p->c + c) * in_vol;
        const GT d = dout[(n * p->c + c) * out_vol + o];
        const GT xw = cell.lo[0], xe = cell.hi[0], yn = cell.lo[1], ys = cell.hi[1];
        if (p->nsp == 2) {
          const GT wn = GF(point)(p, plane, xw, yn, 0), en = GF(point)(p, plane, xe, yn, 0);
          const GT ws = GF(point)(p, plane, xw, ys, 0), es = GF(point)(p, plane, xe, ys, 0);
          gx += ((en - wn) * ds + (es - ws) * dn) * d;
          gy += ((ws - wn) * de + (es - en) * dw) * d;
        } else {
          const GT zt = cell.lo[2], zb = cell.hi[2];
          const GT twn = GF(point)(p, plane, xw, yn, zt), ten = GF(point)(p, plane, xe, yn, zt);
          const GT tws = GF(point)(p, plane, xw, ys, zt), tes = GF(point)(p, plane, xe, ys, zt);
          const GT bwn = GF(point)(p, plane, xw, yn, zb), ben = GF(point)(p, plane, xe, yn, zb);
          const GT bws = GF(point)(p, plane, xw, ys, zb), bes = GF(point)(p, plane, xe, ys, zb);
          gx += ((ten - twn) * ds * db + (tes - tws) * dn * db + (ben - bwn) * ds * dt + (bes - bws) * dn * dt) * d;
          gy += ((tws - twn) * de * db + (tes - ten) * dw * db + (bws - bwn) * de * dt + (bes - ben) * dw * dt) * d;
          gz += ((bws - tws) * de * dn + (bes - tes) * dw * dn + (bwn - twn) * de * ds + (ben - ten) * dw * ds) * d;
        }
      }
      GT *dg = dgrid + (n * out_vol + o) * p->nsp;
      dg[0] = gx * cell.sx;
      dg[1] = gy * cell.sy;
      if (p->nsp == 3) dg[2] = gz * cell.sz;
    }
}

#undef GT
#undef GF
#undef GFLOOR
#undef GROUND
#undef GFABS

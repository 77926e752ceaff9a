/* The body of rt_interp.c's resize of channel-first planes for one
 * element type, included once per type by rt_interp.c: RESAMPLE_T is the
 * element type (float, double), RESAMPLE_NAME(n) the name of n for that
 * type (n itself for float, n_f64 for double).  Coordinates and weights
 * are float in both, as Paddle's float kernels compute them: the compiler
 * takes the double routine for nearest only (an index, as Paddle's double
 * kernels pick it); float64 linear-family and bicubic resizes go through
 * rt_resize_f64, which weighs as Paddle's double kernels do.
 * Undefines both macros at its end. */

/* One plane, bicubic: 4 horizontal interpolations, then one vertical. */
static void RESAMPLE_NAME(bicubic_plane)(const RtInterp2d *p, const RESAMPLE_T *x, RESAMPLE_T *out) {
  const int64_t H = p->h_in, W = p->w_in;
  for (int64_t k = 0; k < p->h_out; k++) {
    float cy[4];
    const float sy = rt_cubic_src(p->ratio_h, k, p->align_corners);
    const int64_t iy = (int64_t)floorf(sy);
    rt_cubic_weights(sy - (float)iy, cy);
    for (int64_t l = 0; l < p->w_out; l++) {
      float cx[4];
      RESAMPLE_T col[4];
      const float sx = rt_cubic_src(p->ratio_w, l, p->align_corners);
      const int64_t ix = (int64_t)floorf(sx);
      rt_cubic_weights(sx - (float)ix, cx);
      for (int ii = 0; ii < 4; ii++) {
        const RESAMPLE_T *r = x + rt_clamp_index(iy - 1 + ii, H) * W;
        col[ii] = r[rt_clamp_index(ix - 1, W)] * cx[0] + r[rt_clamp_index(ix, W)] * cx[1] +
                  r[rt_clamp_index(ix + 1, W)] * cx[2] + r[rt_clamp_index(ix + 2, W)] * cx[3];
      }
      out[k * p->w_out + l] = col[0] * cy[0] + col[1] * cy[1] + col[2] * cy[2] + col[3] * cy[3];
    }
  }
}

/* One plane, nearest or bilinear, row by row. */
static void RESAMPLE_NAME(linear_plane)(const RtInterp2d *p, const RESAMPLE_T *x, RESAMPLE_T *out) {
  const int64_t H = p->h_in, W = p->w_in, OW = p->w_out;
  const int align_flag = p->align_mode == 0 && !p->align_corners;
  for (int64_t k = 0; k < p->h_out; k++) {
    RESAMPLE_T *orow = out + k * OW;
    if (p->method == RT_INTERP_NEAREST) {
      const RESAMPLE_T *xr = x + rt_nearest_index(p->ratio_h, k, p->align_corners) * W;
      for (int64_t l = 0; l < OW; l++) orow[l] = xr[rt_nearest_index(p->ratio_w, l, p->align_corners)];
      continue;
    }
    RtTaps ly = rt_linear_taps(p->ratio_h, k, H, align_flag);
    const RESAMPLE_T *r0 = x + ly.i0 * W, *r1 = x + ly.i1 * W;
    for (int64_t l = 0; l < OW; l++) {
      RtTaps lx = rt_linear_taps(p->ratio_w, l, W, align_flag);
      orow[l] = r0[lx.i0] * ly.w0 * lx.w0 + r1[lx.i0] * ly.w1 * lx.w0 + r0[lx.i1] * ly.w0 * lx.w1 +
                r1[lx.i1] * ly.w1 * lx.w1;
    }
  }
}

void RESAMPLE_NAME(rt_interp2d)(const RtInterp2d *p, int64_t planes, const RESAMPLE_T *x, RESAMPLE_T *out) {
  const int64_t in = p->h_in * p->w_in, on = p->h_out * p->w_out;
  if (p->h_in == p->h_out && p->w_in == p->w_out) { /* Paddle copies the input unchanged */
    memcpy(out, x, sizeof(RESAMPLE_T) * (size_t)(planes * in));
    return;
  }
  for (int64_t pl = 0; pl < planes; pl++) {
    if (p->method == RT_INTERP_BICUBIC)
      RESAMPLE_NAME(bicubic_plane)(p, x + pl * in, out + pl * on);
    else
      RESAMPLE_NAME(linear_plane)(p, x + pl * in, out + pl * on);
  }
}

#undef RESAMPLE_T
#undef RESAMPLE_NAME

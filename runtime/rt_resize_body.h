/* The body of rt_resize.c's forward resize for one element type, included
 * once per type by rt_resize.c.
 RESAMPLE_T is the element type (float, double), RESAMPLE_NAME(n) the
 * name of n for that type (n itself for float, n_f64 for double).
 * Coordinates and weights
 * are float in both: the compiler takes the double kernels for nearest
 * only (an index, as Paddle's double kernels pick it), Paddle's double
 * linear-family and bicubic kernels weighing differently.
 * Undefines both macros at
 * its end. */

/* One channel of one image: x and out point at its first element, ps is
 * the distance between two pixels. */
static void RESAMPLE_NAME(resize_channel)(const RtResize *p, const RESAMPLE_T *x, RESAMPLE_T *out, int64_t ps) {
  const int64_t D = p->in[0], H = p->in[1], W = p->in[2], OD = p->out[0], OH = p->out[1], OW = p->out[2];
  const int flag = p->align_mode == 0 && !p->align_corners;
#define AT(d, h, w) x[(((d) * H + (h)) * W + (w)) * ps]
  for (int64_t od = 0; od < OD; od++)
    for (int64_t oh = 0; oh < OH; oh++)
      for (int64_t ow = 0; ow < OW; ow++) {
        RESAMPLE_T *o = out + ((od * OH + oh) * OW + ow) * ps;
        if (p->method == RT_INTERP_NEAREST) {
          const int64_t sd = p->nsp == 3 ? rt_nearest_index(p->ratio[0], od, p->align_corners) : od;
          const int64_t sh = p->nsp >= 2 ? rt_nearest_index(p->ratio[1], oh, p->align_corners) : oh;
          *o = AT(sd, sh, rt_nearest_index(p->ratio[2], ow, p->align_corners));
        } else if (p->method == RT_INTERP_BICUBIC) { /* 2-D: 4 rows across, then one column */
          const float sy = rt_cubic_src(p->ratio[1], oh, p->align_corners);
          const float sx = rt_cubic_src(p->ratio[2], ow, p->align_corners);
          const int64_t iy = (int64_t)floorf(sy), ix = (int64_t)floorf(sx);
          float cy[4], cx[4];
          RESAMPLE_T row[4];
          rt_cubic_weights(sy - (float)iy, cy);
          rt_cubic_weights(sx - (float)ix, cx);
          for (int i = 0; i < 4; i++) {
            const int64_t h = rt_clamp_index(iy - 1 + i, H);
            row[i] = AT(od, h, rt_clamp_index(ix - 1, W)) * cx[0] + AT(od, h, rt_clamp_index(ix, W)) * cx[1] +
                     AT(od, h, rt_clamp_index(ix + 1, W)) * cx[2] + AT(od, h, rt_clamp_index(ix + 2, W)) * cx[3];
          }
          *o = row[0] * cy[0] + row[1] * cy[1] + row[2] * cy[2] + row[3] * cy[3];
        } else if (p->nsp == 1) {
          const RtTaps w = rt_linear_taps(p->ratio[2], ow, W, flag);
          *o = AT(od, oh, w.i0) * w.w0 + AT(od, oh, w.i1) * w.w1;
        } else if (p->nsp == 2) {
          const RtTaps h = rt_linear_taps(p->ratio[1], oh, H, flag), w = rt_linear_taps(p->ratio[2], ow, W, flag);
          *o = AT(od, h.i0, w.i0) * h.w0 * w.w0 + AT(od, h.i1, w.i0) * h.w1 * w.w0 + AT(od, h.i0, w.i1) * h.w0 * w.w1 +
               AT(od, h.i1, w.i1) * h.w1 * w.w1;
        } else {
          const RtTaps d = rt_linear_taps(p->ratio[0], od, D, flag), h = rt_linear_taps(p->ratio[1], oh, H, flag),
                     w = rt_linear_taps(p->ratio[2], ow, W, flag);
          *o = AT(d.i0, h.i0, w.i0) * d.w0 * h.w0 * w.w0 + AT(d.i0, h.i0, w.i1) * d.w0 * h.w0 * w.w1 +
               AT(d.i0, h.i1, w.i0) * d.w0 * h.w1 * w.w0 + AT(d.i0, h.i1, w.i1) * d.w0 * h.w1 * w.w1 +
               AT(d.i1, h.i0, w.i0) * d.w1 * h.w0 * w.w0 + AT(d.i1, h.i0, w.i1) * d.w1 * h.w0 * w.w1 +
               AT(d.i1, h.i1, w.i0) * d.w1 * h.w1 * w.w0 + AT(d.i1, h.i1, w.i1) * d.w1 * h.w1 * w.w1;
        }
      }
#undef AT
}

void RESAMPLE_NAME(rt_resize)(const RtResize *p, int64_t batch, const RESAMPLE_T *x, RESAMPLE_T *out) {
  const int64_t in_vol = p->in[0] * p->in[1] * p->in[2], out_vol = p->out[0] * p->out[1] * p->out[2];
  if (p->in[0] == p->out[0] && p->in[1] == p->out[1] && p->in[2] == p->out[2]) { /* Paddle copies the input */
    memcpy(out, x, sizeof(RESAMPLE_T) * (size_t)(batch * p->c * in_vol));
    return;
  }
  const int64_t ps = p->channel_last ? p->c : 1;
  for (int64_t n = 0; n < batch; n++)
    for (int64_t c = 0; c < p->c; c++) {
      const int64_t ci = p->channel_last ? c : c * in_vol, co = p->channel_last ? c : c * out_vol;
      RESAMPLE_NAME(resize_channel)(p, x + n * p->c * in_vol + ci, out + n * p->c * out_vol + co, ps);
    }
}

#undef RESAMPLE_T
#undef RESAMPLE_NAME

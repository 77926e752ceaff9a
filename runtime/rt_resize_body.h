/* The body of rt_resize.c's forward resize for one element type, included
 * once per type by rt_resize.c, which defines:
 *   RESAMPLE_T          the element type (float, double);
 *   RESAMPLE_W          the type of the bicubic coordinates and weights;
 *   RESAMPLE_NAME(n)    the name of n for that type (n itself for float,
 *                       n_f64 for double);
 *   RESAMPLE_TAPS(p, ratio, k, n), RESAMPLE_CUBIC_SRC(p, ratio, k),
 *   RESAMPLE_CUBIC_WEIGHTS(t, c)
 *                       the linear taps, the bicubic source coordinate and
 *                       weights, as that type's Paddle kernel computes them.
 * Undefines the first three at its end. */

/* One channel of one image: x and out point at its first element, ps is
 * the distance between two pixels. */
static void RESAMPLE_NAME(resize_channel)(const RtResize *p, const RESAMPLE_T *x, RESAMPLE_T *out, int64_t ps) {
  const int64_t D = p->in[0], H = p->in[1], W = p->in[2], OD = p->out[0], OH = p->out[1], OW = p->out[2];
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
          const RESAMPLE_W sy = RESAMPLE_CUBIC_SRC(p, p->ratio[1], oh), sx = RESAMPLE_CUBIC_SRC(p, p->ratio[2], ow);
          const int64_t iy = (int64_t)floorf((float)sy), ix = (int64_t)floorf((float)sx);
          RESAMPLE_W cy[4], cx[4];
          RESAMPLE_T row[4];
          RESAMPLE_CUBIC_WEIGHTS(sy - (RESAMPLE_W)iy, cy);
          RESAMPLE_CUBIC_WEIGHTS(sx - (RESAMPLE_W)ix, cx);
          for (int i = 0; i < 4; i++) {
            const int64_t h = rt_clamp_index(iy - 1 + i, H);
            row[i] = AT(od, h, rt_clamp_index(ix - 1, W)) * cx[0] + AT(od, h, rt_clamp_index(ix, W)) * cx[1] +
                     AT(od, h, rt_clamp_index(ix + 1, W)) * cx[2] + AT(od, h, rt_clamp_index(ix + 2, W)) * cx[3];
          }
          *o = row[0] * cy[0] + row[1] * cy[1] + row[2] * cy[2] + row[3] * cy[3];
        } else if (p->nsp == 1) {
          const RtTaps w = RESAMPLE_TAPS(p, p->ratio[2], ow, W);
          *o = AT(od, oh, w.i0) * w.w0 + AT(od, oh, w.i1) * w.w1;
        } else if (p->nsp == 2) {
          const RtTaps h = RESAMPLE_TAPS(p, p->ratio[1], oh, H), w = RESAMPLE_TAPS(p, p->ratio[2], ow, W);
          *o = AT(od, h.i0, w.i0) * h.w0 * w.w0 + AT(od, h.i1, w.i0) * h.w1 * w.w0 + AT(od, h.i0, w.i1) * h.w0 * w.w1 +
               AT(od, h.i1, w.i1) * h.w1 * w.w1;
        } else {
          const RtTaps d = RESAMPLE_TAPS(p, p->ratio[0], od, D), h = RESAMPLE_TAPS(p, p->ratio[1], oh, H),
                     w = RESAMPLE_TAPS(p, p->ratio[2], ow, W);
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
#undef RESAMPLE_W
#undef RESAMPLE_NAME

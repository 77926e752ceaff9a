/* The body of rt_resize.c's gradient for one element type, included once
 * per type by rt_resize.c after its FP_CONTRACT pragma, with the macros
 * rt_resize_body.h describes (RESAMPLE_T, RESAMPLE_W, RESAMPLE_NAME,
 * RESAMPLE_TAPS, RESAMPLE_CUBIC_SRC, RESAMPLE_CUBIC_WEIGHTS) as that type's
 * Paddle grad kernel computes them.  Undefines the first three at its
 * end. */

/* One channel's gradient: dx and dout point at its first element, ps is
 * the distance between two pixels; dx is zero. */
static void RESAMPLE_NAME(resize_channel_grad)(const RtResize *p, const RESAMPLE_T *dout, RESAMPLE_T *dx, int64_t ps) {
  const int64_t D = p->in[0], H = p->in[1], W = p->in[2], OD = p->out[0], OH = p->out[1], OW = p->out[2];
#define AT(d, h, w) dx[(((d) * H + (h)) * W + (w)) * ps]
  for (int64_t od = 0; od < OD; od++)
    for (int64_t oh = 0; oh < OH; oh++)
      for (int64_t ow = 0; ow < OW; ow++) {
        const RESAMPLE_T g = dout[((od * OH + oh) * OW + ow) * ps];
        if (p->method == RT_INTERP_NEAREST) {
          const int64_t sd = p->nsp == 3 ? rt_nearest_index(p->ratio[0], od, p->align_corners) : od;
          const int64_t sh = p->nsp >= 2 ? rt_nearest_index(p->ratio[1], oh, p->align_corners) : oh;
          AT(sd, sh, rt_nearest_index(p->ratio[2], ow, p->align_corners)) += g;
        } else if (p->method == RT_INTERP_BICUBIC) { /* 2-D: taps by column, then by row */
          const RESAMPLE_W sy = RESAMPLE_CUBIC_SRC(p, p->ratio[1], oh), sx = RESAMPLE_CUBIC_SRC(p, p->ratio[2], ow);
          const int64_t iy = (int64_t)floorf((float)sy), ix = (int64_t)floorf((float)sx);
          RESAMPLE_W cy[4], cx[4];
          RESAMPLE_CUBIC_WEIGHTS(sy - (RESAMPLE_W)iy, cy);
          RESAMPLE_CUBIC_WEIGHTS(sx - (RESAMPLE_W)ix, cx);
          for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
              AT(od, rt_clamp_index(iy - 1 + j, H), rt_clamp_index(ix - 1 + i, W)) += g * cy[j] * cx[i];
        } else if (p->nsp == 1) {
          const RtTaps w = RESAMPLE_TAPS(p, p->ratio[2], ow, W);
          AT(od, oh, w.i0) += g * w.w0;
          AT(od, oh, w.i1) += g * w.w1;
        } else if (p->nsp == 2) {
          const RtTaps h = RESAMPLE_TAPS(p, p->ratio[1], oh, H), w = RESAMPLE_TAPS(p, p->ratio[2], ow, W);
          AT(od, h.i0, w.i0) += g * h.w0 * w.w0;
          AT(od, h.i1, w.i0) += g * h.w1 * w.w0;
          AT(od, h.i0, w.i1) += g * h.w0 * w.w1;
          AT(od, h.i1, w.i1) += g * h.w1 * w.w1;
        } else {
          const RtTaps d = RESAMPLE_TAPS(p, p->ratio[0], od, D), h = RESAMPLE_TAPS(p, p->ratio[1], oh, H),
                     w = RESAMPLE_TAPS(p, p->ratio[2], ow, W);
          AT(d.i0, h.i0, w.i0) += g * d.w0 * h.w0 * w.w0;
          AT(d.i0, h.i0, w.i1) += g * d.w0 * h.w0 * w.w1;
          AT(d.i0, h.i1, w.i0) += g * d.w0 * h.w1 * w.w0;
          AT(d.i0, h.i1, w.i1) += g * d.w0 * h.w1 * w.w1;
          AT(d.i1, h.i0, w.i0) += g * d.w1 * h.w0 * w.w0;
          AT(d.i1, h.i0, w.i1) += g * d.w1 * h.w0 * w.w1;
          AT(d.i1, h.i1, w.i0) += g * d.w1 * h.w1 * w.w0;
          AT(d.i1, h.i1, w.i1) += g * d.w1 * h.w1 * w.w1;
        }
      }
#undef AT
}

void RESAMPLE_NAME(rt_resize_grad)(const RtResize *p, int64_t lo, int64_t hi, const RESAMPLE_T *dout, RESAMPLE_T *dx) {
  const int64_t in_vol = p->in[0] * p->in[1] * p->in[2], out_vol = p->out[0] * p->out[1] * p->out[2];
  const int same = p->in[0] == p->out[0] && p->in[1] == p->out[1] && p->in[2] == p->out[2];
  const int64_t ps = p->channel_last ? p->c : 1;
  for (int64_t pl = lo; pl < hi; pl++) {
    const int64_t n = pl / p->c, c = pl % p->c;
    const int64_t ci = p->channel_last ? c : c * in_vol, co = p->channel_last ? c : c * out_vol;
    RESAMPLE_T *d = dx + n * p->c * in_vol + ci;
    const RESAMPLE_T *g = dout + n * p->c * out_vol + co;
    for (int64_t i = 0; i < in_vol; i++) d[i * ps] = same ? g[i * ps] : 0; /* Paddle copies dout when equal */
    if (!same) RESAMPLE_NAME(resize_channel_grad)(p, g, d, ps);
  }
}

#undef RESAMPLE_T
#undef RESAMPLE_W
#undef RESAMPLE_NAME

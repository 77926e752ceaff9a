/* The body of rt_interp.c's border padding (rt_pad3d, rt_pad3d_grad) for
 * one element type, included once per type by rt_interp.c: PAD_T is the
 * element type (float, double), PAD_NAME(n) the name of n for that type
 * (n itself for float, n_f64 for double).  Both copy elements and add the
 * gradient in the element type, as Paddle's Pad3d kernels of either type
 * do; constant mode's value is the float attribute converted to PAD_T.
 * Undefines both macros at its end. */

void PAD_NAME(rt_pad3d)(const RtPad3d *p, int64_t outer, const PAD_T *x, PAD_T *out) {
  const int64_t D = p->in[0], H = p->in[1], W = p->in[2], C = p->inner;
  const int64_t OD = D + p->pads[0] + p->pads[1], OH = H + p->pads[2] + p->pads[3], OW = W + p->pads[4] + p->pads[5];
  for (int64_t o = 0; o < outer; o++) {
    const PAD_T *xo = x + o * D * H * W * C;
    for (int64_t od = 0; od < OD; od++)
      for (int64_t oh = 0; oh < OH; oh++) {
        PAD_T *orow = out + (((o * OD + od) * OH + oh) * OW) * C;
        int64_t sd = pad_src(p->mode, od, p->pads[0], D), sh = pad_src(p->mode, oh, p->pads[2], H);
        for (int64_t ow = 0; ow < OW; ow++) {
          int64_t sw = pad_src(p->mode, ow, p->pads[4], W);
          PAD_T *dst = orow + ow * C;
          if (sd < 0 || sh < 0 || sw < 0) {
            for (int64_t c = 0; c < C; c++) dst[c] = p->value;
          } else {
            memcpy(dst, xo + ((sd * H + sh) * W + sw) * C, sizeof(PAD_T) * (size_t)C);
          }
        }
      }
  }
}

void PAD_NAME(rt_pad3d_grad)(const RtPad3d *p, int64_t outer, const PAD_T *dout, PAD_T *dx) {
  const int64_t D = p->in[0], H = p->in[1], W = p->in[2], C = p->inner;
  const int64_t OD = D + p->pads[0] + p->pads[1], OH = H + p->pads[2] + p->pads[3], OW = W + p->pads[4] + p->pads[5];
  memset(dx, 0, sizeof(PAD_T) * (size_t)(outer * D * H * W * C));
  for (int64_t o = 0; o < outer; o++) {
    PAD_T *xo = dx + o * D * H * W * C;
    for (int64_t od = 0; od < OD; od++)
      for (int64_t oh = 0; oh < OH; oh++) {
        const PAD_T *orow = dout + (((o * OD + od) * OH + oh) * OW) * C;
        int64_t sd = pad_src(p->mode, od, p->pads[0], D), sh = pad_src(p->mode, oh, p->pads[2], H);
        if (sd < 0 || sh < 0) continue;
        for (int64_t ow = 0; ow < OW; ow++) {
          int64_t sw = pad_src(p->mode, ow, p->pads[4], W);
          if (sw < 0) continue;
          PAD_T *dst = xo + ((sd * H + sh) * W + sw) * C;
          const PAD_T *src = orow + ow * C;
          for (int64_t c = 0; c < C; c++) dst[c] += src[c];
        }
      }
  }
}

#undef PAD_T
#undef PAD_NAME

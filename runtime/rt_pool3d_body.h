/* The body of rt_pool3d.c's kernels for one element type, included once
 * per type by rt_pool3d.c: POOL_T is the element type (float, double),
 * POOL_NAME(n) the name of n for that type (n itself for float, n_f64 for
 * double).  Both instantiate Paddle's one template (phi Pool3dFunctor,
 * Pool3dGradFunctor, MaxPool3dGradFunctor, MaxPool3dWithIndexFunctor): sums
 * and maxima in POOL_T, the max initial value -FLT_MAX, the average
 * gradient's scale 1 / pool_size computed in float.  Undefines both macros
 * at its end. */

void POOL_NAME(rt_pool3d)(const RtPool3d *p, int64_t batch, const POOL_T *x, POOL_T *out) {
  const int64_t D = p->in[0], H = p->in[1], W = p->in[2];
  const int64_t OD = p->out[0], OH = p->out[1], OW = p->out[2];
  const int64_t in_vol = D * H * W, out_vol = OD * OH * OW;
  const int64_t cs_in = p->channel_last ? 1 : in_vol, cs_out = p->channel_last ? 1 : out_vol;
  const int64_t ps = p->channel_last ? p->c : 1;
  for (int64_t n = 0; n < batch; n++)
    for (int64_t c = 0; c < p->c; c++) {
      const POOL_T *xc = x + n * p->c * in_vol + c * cs_in;
      POOL_T *oc = out + n * p->c * out_vol + c * cs_out;
      for (int64_t od = 0; od < OD; od++)
        for (int64_t oh = 0; oh < OH; oh++)
          for (int64_t ow = 0; ow < OW; ow++) {
            int64_t b[6];
            int64_t size = window3(p, od, oh, ow, b);
            const int64_t d0 = b[0], d1 = b[1], h0 = b[2], h1 = b[3], w0 = b[4], w1 = b[5];
            POOL_T v = p->type == RT_POOL_MAX ? (POOL_T)-FLT_MAX : 0;
            for (int64_t d = d0; d < d1; d++)
              for (int64_t h = h0; h < h1; h++)
                for (int64_t w = w0; w < w1; w++) {
                  const POOL_T t = xc[((d * H + h) * W + w) * ps];
                  if (p->type == RT_POOL_MAX)
                    v = v > t ? v : t;
                  else
                    v += t;
                }
            if (p->type == RT_POOL_AVG) {
              if (p->exclusive || p->adaptive) size = (d1 - d0) * (h1 - h0) * (w1 - w0);
              v /= (POOL_T)size;
            }
            oc[((od * OH + oh) * OW + ow) * ps] = v;
          }
    }
}

void POOL_NAME(rt_max_pool3d_index)(const RtPool3d *p, int64_t batch, const POOL_T *x, POOL_T *out, int32_t *mask) {
  const int64_t D = p->in[0], H = p->in[1], W = p->in[2];
  const int64_t OD = p->out[0], OH = p->out[1], OW = p->out[2];
  const int64_t in_vol = D * H * W, out_vol = OD * OH * OW;
  for (int64_t nc = 0; nc < batch * p->c; nc++) {
    const POOL_T *xc = x + nc * in_vol;
    for (int64_t od = 0; od < OD; od++)
      for (int64_t oh = 0; oh < OH; oh++)
        for (int64_t ow = 0; ow < OW; ow++) {
          int64_t d0, d1, h0, h1, w0, w1;
          window(p, 0, od, D, &d0, &d1);
          window(p, 1, oh, H, &h0, &h1);
          window(p, 2, ow, W, &w0, &w1);
          POOL_T v = (POOL_T)-FLT_MAX;
          int32_t idx = -1;
          for (int64_t d = d0; d < d1; d++)
            for (int64_t h = h0; h < h1; h++)
              for (int64_t w = w0; w < w1; w++) {
                const int64_t at = (d * H + h) * W + w;
                if (v < xc[at]) {
                  v = xc[at];
                  idx = (int32_t)at;
                }
              }
          const int64_t o = nc * out_vol + (od * OH + oh) * OW + ow;
          out[o] = v;
          mask[o] = idx;
        }
  }
}

typedef struct POOL_NAME(Pool3dGradJob) {
  const RtPool3d *p;
  const POOL_T *x, *out, *dout;
  POOL_T *dx;
} POOL_NAME(Pool3dGradJob);

/* Channels [lo, hi) (n * c + ch) of pool3d_grad. */
static void POOL_NAME(pool3d_grad_rows)(void *ctx, int64_t lo, int64_t hi) {
  const POOL_NAME(Pool3dGradJob) *j = ctx;
  const RtPool3d *p = j->p;
  const int64_t D = p->in[0], H = p->in[1], W = p->in[2];
  const int64_t OD = p->out[0], OH = p->out[1], OW = p->out[2];
  const int64_t in_vol = D * H * W, out_vol = OD * OH * OW;
  const int64_t cs_in = p->channel_last ? 1 : in_vol, cs_out = p->channel_last ? 1 : out_vol;
  const int64_t ps = p->channel_last ? p->c : 1;
  for (int64_t r = lo; r < hi; r++) {
    const int64_t n = r / p->c, c = r % p->c;
    const POOL_T *xc = j->x + n * p->c * in_vol + c * cs_in, *oc = j->out + n * p->c * out_vol + c * cs_out;
    const POOL_T *gc = j->dout + n * p->c * out_vol + c * cs_out;
    POOL_T *dc = j->dx + n * p->c * in_vol + c * cs_in;
    for (int64_t i = 0; i < in_vol; i++) dc[i * ps] = 0;
    for (int64_t od = 0; od < OD; od++)
      for (int64_t oh = 0; oh < OH; oh++)
        for (int64_t ow = 0; ow < OW; ow++) {
          int64_t b[6];
          int64_t size = window3(p, od, oh, ow, b);
          const int64_t d0 = b[0], d1 = b[1], h0 = b[2], h1 = b[3], w0 = b[4], w1 = b[5];
          const int64_t o = ((od * OH + oh) * OW + ow) * ps;
          const POOL_T y = oc[o], g = gc[o];
          if (p->type == RT_POOL_MAX) {
            int stop = 0;
            for (int64_t d = d0; d < d1 && !stop; d++)
              for (int64_t h = h0; h < h1 && !stop; h++)
                for (int64_t w = w0; w < w1 && !stop; w++)
                  if (xc[((d * H + h) * W + w) * ps] == y) {
                    dc[((d * H + h) * W + w) * ps] += g;
                    stop = 1;
                  }
            continue;
          }
          if (p->exclusive || p->adaptive) size = (d1 - d0) * (h1 - h0) * (w1 - w0);
          const POOL_T scale = (POOL_T)(1.0f / (float)size); /* a float, as Paddle's */
          for (int64_t d = d0; d < d1; d++)
            for (int64_t h = h0; h < h1; h++)
              for (int64_t w = w0; w < w1; w++) dc[((d * H + h) * W + w) * ps] += scale * g;
        }
  }
}

void POOL_NAME(rt_pool3d_grad)(const RtPool3d *p, int64_t batch, const POOL_T *x, const POOL_T *out,
                               const POOL_T *dout, POOL_T *dx) {
  POOL_NAME(Pool3dGradJob) j = {p, x, out, dout, dx};
  const int64_t win = p->adaptive ? (p->in[0] / p->out[0] + 1) * (p->in[1] / p->out[1] + 1) *
                                        (p->in[2] / p->out[2] + 1)
                                  : p->k[0] * p->k[1] * p->k[2];
  rt_parallel_range(batch * p->c, batch * p->c * p->out[0] * p->out[1] * p->out[2] * win, POOL_NAME(pool3d_grad_rows),
                    &j);
}

#undef POOL_T
#undef POOL_NAME

/* The body of rt_pool.c's 2-D pooling kernels for one element type,
 * included once per type by rt_pool.c: POOL_T is the element type (float,
 * double), POOL_NAME(n) the name of n for that type (n itself for float,
 * n_f64 for double).  Both instantiate Paddle's one template (phi
 * Pool2dFunctor, Pool2dGradFunctor, MaxPool2dGradFunctor,
 * MaxPool2dWithIndexFunctor and its grad): sums and maxima in POOL_T, the
 * max initial value -FLT_MAX, the average gradient's scale 1 / pool_size
 * computed in float.  Undefines both macros at its end. */

/* One window b = {hs, he, ws, we} (see pool_bounds) of the channel at x
 * (pixel stride ps). */
static POOL_T POOL_NAME(pool_window)(const RtPool2d *p, const POOL_T *x, int64_t ps, const int64_t b[4],
                                     int64_t pool_size) {
  const int64_t hs = b[0], he = b[1], ws = b[2], we = b[3];
  if (p->type == RT_POOL_MAX) {
    POOL_T v = (POOL_T)-FLT_MAX;
    for (int64_t h = hs; h < he; h++)
      for (int64_t w = ws; w < we; w++) {
        POOL_T t = x[(h * p->w_in + w) * ps];
        v = v > t ? v : t;
      }
    return v;
  }
  POOL_T sum = 0;
  for (int64_t h = hs; h < he; h++)
    for (int64_t w = ws; w < we; w++) sum += x[(h * p->w_in + w) * ps];
  if (p->exclusive || p->adaptive) pool_size = (he - hs) * (we - ws);
  return sum / (POOL_T)pool_size;
}

typedef struct POOL_NAME(PoolJob) {
  const RtPool2d *p; /* the geometry */
  const POOL_T *x;   /* input */
  POOL_T *out;       /* output */
} POOL_NAME(PoolJob);

/* Max pooling of one NCHW channel, windows of fixed size (not adaptive):
 * the same maximum as pool_window, taken in the same order (window rows
 * top-down, columns left to right, v = v > t ? v : t from -FLT_MAX, so NaNs
 * propagate alike), but for the columns whose window lies inside the input
 * as one pass per window row and column over a run of outputs (loops over
 * consecutive outputs that compilers vectorize); the edge columns take
 * pool_window. */
static void POOL_NAME(max_plane)(const RtPool2d *p, const POOL_T *x, POOL_T *o) {
  const int64_t sw = p->stride_w, OW = p->w_out;
  /* interior columns: pw * sw - pad_l >= 0 and pw * sw - pad_l + k_w <= w_in */
  int64_t lo = (p->pad_l + sw - 1) / sw, hi = p->w_in + p->pad_l - p->k_w < 0 ? 0 : (p->w_in + p->pad_l - p->k_w) / sw + 1;
  lo = lo < OW ? lo : OW;
  hi = hi < OW ? hi : OW;
  hi = hi > lo ? hi : lo;
  for (int64_t ph = 0; ph < p->h_out; ph++) {
    POOL_T *orow = o + ph * OW;
    int64_t b[4];
    for (int64_t pw = 0; pw < OW; pw++) {
      if (pw == lo) pw = hi; /* the edges: [0, lo) and [hi, OW) */
      if (pw == OW) break;
      const int64_t size = pool_bounds(p, ph, pw, p->h_in + p->pad_t, p->w_in + p->pad_l, b);
      orow[pw] = POOL_NAME(pool_window)(p, x, 1, b, size);
    }
    pool_bounds(p, ph, lo, p->h_in + p->pad_t, p->w_in + p->pad_l, b); /* rows b[0]..b[1] */
    for (int64_t c0 = lo; c0 < hi; c0 += POOL_RUN) {
      const int64_t n = hi - c0 < POOL_RUN ? hi - c0 : POOL_RUN;
      POOL_T acc[POOL_RUN];
      for (int64_t i = 0; i < n; i++) acc[i] = (POOL_T)-FLT_MAX;
      for (int64_t h = b[0]; h < b[1]; h++)
        for (int64_t kw = 0; kw < p->k_w; kw++) {
          const POOL_T *xr = x + h * p->w_in + c0 * sw - p->pad_l + kw;
          if (sw == 2)
            for (int64_t i = 0; i < n; i++) acc[i] = acc[i] > xr[2 * i] ? acc[i] : xr[2 * i];
          else
            for (int64_t i = 0; i < n; i++) acc[i] = acc[i] > xr[i * sw] ? acc[i] : xr[i * sw];
        }
      for (int64_t i = 0; i < n; i++) orow[c0 + i] = acc[i];
    }
  }
}

/* Channels [lo, hi) of all images (row r = image r / c, channel r % c). */
static void POOL_NAME(pool_rows)(void *ctx, int64_t lo, int64_t hi) {
  const POOL_NAME(PoolJob) *j = ctx;
  const RtPool2d *p = j->p;
  const int64_t in_img = p->c * p->h_in * p->w_in, out_img = p->c * p->h_out * p->w_out;
  const int64_t cs_in = p->channel_last ? 1 : p->h_in * p->w_in, cs_out = p->channel_last ? 1 : p->h_out * p->w_out;
  const int64_t ps_in = p->channel_last ? p->c : 1, ps_out = p->channel_last ? p->c : 1;
  for (int64_t r = lo; r < hi; r++) {
    const int64_t n = r / p->c, c = r % p->c;
    if (p->type == RT_POOL_MAX && !p->adaptive && !p->channel_last) {
      POOL_NAME(max_plane)(p, j->x + n * in_img + c * cs_in, j->out + n * out_img + c * cs_out);
    } else {
      const POOL_T *xc = j->x + n * in_img + c * cs_in;
      POOL_T *oc = j->out + n * out_img + c * cs_out;
      for (int64_t ph = 0; ph < p->h_out; ph++)
        for (int64_t pw = 0; pw < p->w_out; pw++) {
          /* the window is clipped to the padded input for the divisor
           * (exclusive = false), then to the input itself */
          int64_t b[4];
          const int64_t pool_size = pool_bounds(p, ph, pw, p->h_in + p->pad_t, p->w_in + p->pad_l, b);
          oc[(ph * p->w_out + pw) * ps_out] = POOL_NAME(pool_window)(p, xc, ps_in, b, pool_size);
        }
    }
  }
}

void POOL_NAME(rt_pool2d)(const RtPool2d *p, int64_t batch, const POOL_T *x, POOL_T *out) {
  POOL_NAME(PoolJob) j = {p, x, out};
  const int64_t win = p->adaptive ? (p->h_in / p->h_out + 1) * (p->w_in / p->w_out + 1) : p->k_h * p->k_w;
  rt_parallel_range(batch * p->c, batch * p->c * p->h_out * p->w_out * win, POOL_NAME(pool_rows), &j);
}

void POOL_NAME(rt_max_pool2d_index)(const RtPool2d *p, int64_t batch, const POOL_T *x, POOL_T *out, int32_t *mask) {
  const int64_t in_plane = p->h_in * p->w_in, out_plane = p->h_out * p->w_out;
  for (int64_t nc = 0; nc < batch * p->c; nc++) {
    const POOL_T *xc = x + nc * in_plane;
    for (int64_t ph = 0; ph < p->h_out; ph++)
      for (int64_t pw = 0; pw < p->w_out; pw++) {
        int64_t b[4]; /* the window is clipped to the input directly */
        pool_bounds(p, ph, pw, p->h_in, p->w_in, b);
        POOL_T v = (POOL_T)-FLT_MAX;
        int32_t idx = -1;
        for (int64_t h = b[0]; h < b[1]; h++)
          for (int64_t w = b[2]; w < b[3]; w++)
            if (v < xc[h * p->w_in + w]) {
              v = xc[h * p->w_in + w];
              idx = (int32_t)(h * p->w_in + w);
            }
        out[nc * out_plane + ph * p->w_out + pw] = v;
        mask[nc * out_plane + ph * p->w_out + pw] = idx;
      }
  }
}

/* Channels [lo, hi) of all images of pool2d_grad: X@GRAD from zero, each
 * window in output order adding its share (phi MaxPool2dGradFunctor: the
 * output's gradient to the first element of the window, rows top-down,
 * equal to the output; Pool2dGradFunctor with AvgPoolGrad: (1 / pool_size)
 * times the output's gradient to each element of the window). */
typedef struct POOL_NAME(PoolGradJob) {
  const RtPool2d *p;
  const POOL_T *x, *out, *dout;
  POOL_T *dx;
} POOL_NAME(PoolGradJob);

static void POOL_NAME(pool_grad_rows)(void *ctx, int64_t lo, int64_t hi) {
  const POOL_NAME(PoolGradJob) *j = ctx;
  const RtPool2d *p = j->p;
  const int64_t in_img = p->c * p->h_in * p->w_in, out_img = p->c * p->h_out * p->w_out;
  const int64_t cs_in = p->channel_last ? 1 : p->h_in * p->w_in, cs_out = p->channel_last ? 1 : p->h_out * p->w_out;
  const int64_t ps_in = p->channel_last ? p->c : 1, ps_out = p->channel_last ? p->c : 1;
  for (int64_t r = lo; r < hi; r++) {
    const int64_t n = r / p->c, c = r % p->c;
    const POOL_T *xc = j->x + n * in_img + c * cs_in, *oc = j->out + n * out_img + c * cs_out;
    const POOL_T *gc = j->dout + n * out_img + c * cs_out;
    POOL_T *dc = j->dx + n * in_img + c * cs_in;
    for (int64_t h = 0; h < p->h_in; h++)
      for (int64_t w = 0; w < p->w_in; w++) dc[(h * p->w_in + w) * ps_in] = 0;
    for (int64_t ph = 0; ph < p->h_out; ph++)
      for (int64_t pw = 0; pw < p->w_out; pw++) {
        int64_t b[4];
        int64_t size = pool_bounds(p, ph, pw, p->h_in + p->pad_t, p->w_in + p->pad_l, b);
        const POOL_T y = oc[(ph * p->w_out + pw) * ps_out], g = gc[(ph * p->w_out + pw) * ps_out];
        if (p->type == RT_POOL_MAX) {
          int stop = 0;
          for (int64_t h = b[0]; h < b[1] && !stop; h++)
            for (int64_t w = b[2]; w < b[3] && !stop; w++)
              if (xc[(h * p->w_in + w) * ps_in] == y) {
                dc[(h * p->w_in + w) * ps_in] += g;
                stop = 1;
              }
          continue;
        }
        if (p->exclusive || p->adaptive) size = (b[1] - b[0]) * (b[3] - b[2]);
        const POOL_T scale = (POOL_T)(1.0f / (float)size); /* a float, as Paddle's */
        for (int64_t h = b[0]; h < b[1]; h++)
          for (int64_t w = b[2]; w < b[3]; w++) dc[(h * p->w_in + w) * ps_in] += scale * g;
      }
  }
}

void POOL_NAME(rt_pool2d_grad)(const RtPool2d *p, int64_t batch, const POOL_T *x, const POOL_T *out,
                               const POOL_T *dout, POOL_T *dx) {
  POOL_NAME(PoolGradJob) j = {p, x, out, dout, dx};
  const int64_t win = p->adaptive ? (p->h_in / p->h_out + 1) * (p->w_in / p->w_out + 1) : p->k_h * p->k_w;
  rt_parallel_range(batch * p->c, batch * p->c * p->h_out * p->w_out * win, POOL_NAME(pool_grad_rows), &j);
}

void POOL_NAME(rt_max_pool2d_index_grad)(const RtPool2d *p, int64_t batch, const int32_t *mask, const POOL_T *dout,
                                         POOL_T *dx) {
  const int64_t in_plane = p->h_in * p->w_in, out_plane = p->h_out * p->w_out;
  for (int64_t nc = 0; nc < batch * p->c; nc++) {
    POOL_T *dc = dx + nc * in_plane;
    for (int64_t i = 0; i < in_plane; i++) dc[i] = 0;
    for (int64_t o = 0; o < out_plane; o++) {
      const int32_t at = mask[nc * out_plane + o];
      if (at >= 0 && at < in_plane) dc[at] += dout[nc * out_plane + o];
    }
  }
}

#undef POOL_T
#undef POOL_NAME

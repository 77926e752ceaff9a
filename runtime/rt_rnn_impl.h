/* The body of rt_rnn.c (float) and rt_rnn_f64.c (double): Paddle's fused
 * rnn op (see rt_rnn.h), following the CPU kernel of Paddle 2.6
 * (paddle/phi/kernels/cpu/rnn_kernel.cc, rnn_functor.h), which is one
 * template for float and double: per layer and direction one GEMM projects
 * every time step's input (plus both biases), then each step adds h W_hh^T
 * (one GEMM over the batch) and applies the cell row by row.  The state
 * lives in h_n / c_n and is updated in place.
 *
 * The including file defines, before including this once:
 *   T                 the element type (float or double)
 *   EXP, TANH         expf, tanhf or exp, tanh
 *   GEMM(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, ws)
 *                     the product (rt_sgemm_ws, or rt_dgemm ignoring ws)
 *   RNN_FORWARD_NAME, RNN_GRAD_NAME  the public functions (rt_rnn.h)
 * Everything else is static, one copy per including file. */
#include <math.h>
#include <string.h>

#include "rt_kernels.h"

static T sigmoid(T v) { return (T)1 / ((T)1 + EXP(-v)); }

/* Where one layer and direction reads and writes. */
typedef struct RnnDir {
  const T *w_ih;   /* [G*H, in_w] */
  const T *w_hh;   /* [G*H, H] */
  const T *b_ih;   /* [G*H] */
  const T *b_hh;   /* [G*H] */
  const T *in;     /* [T, N, in_w]: x or the lower layer's outputs */
  int64_t in_w;        /* features per step of `in` */
  T *dst;          /* [T, N, D*H]: this layer's outputs */
  int64_t col;         /* first column of this direction in dst (0 or H) */
  int reverse;         /* 1: steps run from T-1 down to 0 */
  T *h;            /* [N, H] state, updated in place */
  T *c;            /* [N, H] cell state (LSTM), or NULL */
  T *save;         /* [T, N, (G+1)*H] what the grad reads (rt_rnn_grad), or NULL */
} RnnDir;

/* One step of one sequence: gates g (input projection plus biases) and r
 * (h W_hh^T) of G*H each -> new state h[H] (and c[H]), written in place.
 * With sv (not NULL) also keeps what cell_grad reads, in (G+1)*H floats:
 * the activated gates (RNN_*: the new state), then LSTM's new cell state or
 * GRU's recurrent candidate term h W_hc^T + b_hc. */
static void cell(RtRnnMode mode, int64_t hs, const T *g, const T *r, const T *b_hc, T *h, T *c,
                 T *sv) {
  switch (mode) {
    case RT_RNN_LSTM:
      for (int64_t j = 0; j < hs; j++) {
        T i = sigmoid(g[j] + r[j]), f = sigmoid(g[hs + j] + r[hs + j]);
        T cand = TANH(g[2 * hs + j] + r[2 * hs + j]), o = sigmoid(g[3 * hs + j] + r[3 * hs + j]);
        c[j] = cand * i + c[j] * f;
        h[j] = o * TANH(c[j]);
        if (sv) sv[j] = i, sv[hs + j] = f, sv[2 * hs + j] = cand, sv[3 * hs + j] = o, sv[4 * hs + j] = c[j];
      }
      break;
    case RT_RNN_GRU:
      for (int64_t j = 0; j < hs; j++) {
        T rg = sigmoid(g[j] + r[j]), z = sigmoid(g[hs + j] + r[hs + j]), rh = r[2 * hs + j] + b_hc[j];
        T cand = TANH(g[2 * hs + j] + rh * rg);
        h[j] = z * h[j] + cand - z * cand; /* Paddle's order of z * h + (1 - z) * c~ */
        if (sv) sv[j] = rg, sv[hs + j] = z, sv[2 * hs + j] = cand, sv[3 * hs + j] = rh;
      }
      break;
    case RT_RNN_TANH:
      for (int64_t j = 0; j < hs; j++) h[j] = TANH(g[j] + r[j]);
      if (sv) memcpy(sv, h, (size_t)hs * sizeof *sv);
      break;
    case RT_RNN_RELU:
      for (int64_t j = 0; j < hs; j++) {
        T v = g[j] + r[j];
        h[j] = v > (T)0 ? v : (T)0;
      }
      if (sv) memcpy(sv, h, (size_t)hs * sizeof *sv);
      break;
  }
}

/* Valid steps of sequence n, clamped to [0, T]. */
static int64_t seq_length(const RtRnn *p, const int64_t *lengths, int64_t n) {
  if (!lengths) return p->seq_len;
  int64_t len = lengths[n];
  return len < 0 ? 0 : len > p->seq_len ? p->seq_len : len;
}

static void run_dir(const RtRnn *p, const RnnDir *d, const int64_t *lengths, T *gates, T *rec,
                    T *gemm_ws) {
  const int64_t t_n = p->seq_len, nb = p->batch, hs = p->hidden_size, gh = rt_rnn_gates(p->mode) * hs;
  const int64_t out_w = p->num_dirs * hs;
  /* gates = in W_ih^T + b_ih + b_hh over every step at once; GRU adds the
   * candidate's b_hh inside the reset product instead */
  GEMM(0, 1, t_n * nb, gh, d->in_w, (T)1, d->in, d->in_w, d->w_ih, d->in_w, (T)0, gates, gh, gemm_ws);
  const int64_t hh_bias = p->mode == RT_RNN_GRU ? 2 * hs : gh;
  for (int64_t row = 0; row < t_n * nb; row++) {
    T *g = gates + row * gh;
    for (int64_t j = 0; j < gh; j++) g[j] += d->b_ih[j];
    for (int64_t j = 0; j < hh_bias; j++) g[j] += d->b_hh[j];
  }
  for (int64_t s = 0; s < t_n; s++) {
    const int64_t t = d->reverse ? t_n - 1 - s : s;
    GEMM(0, 1, nb, gh, hs, (T)1, d->h, hs, d->w_hh, hs, (T)0, rec, gh, gemm_ws);
    for (int64_t n = 0; n < nb; n++) {
      T *y = d->dst + (t * nb + n) * out_w + d->col;
      if (t >= seq_length(p, lengths, n)) { /* past the end: zero output, state kept */
        memset(y, 0, (size_t)hs * sizeof *y);
        continue;
      }
      T *h = d->h + n * hs;
      cell(p->mode, hs, gates + (t * nb + n) * gh, rec + n * gh, d->b_hh + 2 * hs, h, d->c ? d->c + n * hs : NULL,
           d->save ? d->save + (t * nb + n) * (gh + hs) : NULL);
      memcpy(y, h, (size_t)hs * sizeof *y);
    }
  }
}

/* y * mask / (1 - p) into d (d may be y), as Paddle's DropoutHelper:
 * (y * m) / T((T)1 - p), or 0 * y when p is 1. */
static void drop(const RtRnn *p, const T *y, T *d, int64_t n) {
  const T keep = (T)(1.0f - p->dropout_prob); /* T(1.0f - p): in float */
  for (int64_t i = 0; i < n; i++) d[i] = p->dropout_prob == 1.0f ? (T)0 * y[i] : y[i] * (T)p->mask[i] / keep;
}

/* The whole network.  With ys NULL the last layer writes out and the ones
 * below alternate with ws's `mid` (rt_rnn); otherwise layer l writes
 * ys + l*T*N*D*H and keeps each step's cell values in acts (layer and
 * direction k at acts + k*T*N*(G+1)*H) for the grad, and out is not used.
 * With dropout (p->mask) a layer above the first reads the dropped outputs
 * of the one below: in place (rt_rnn), or in `dropped` (the grad keeps ys). */
static void forward(const RtRnn *p, const T *x, const T *const *weights, const T *h0, const T *c0,
                    const int64_t *lengths, T *out, T *h_n, T *c_n, T *ws, T *gemm_ws, T *ys,
                    T *acts, T *dropped) {
  /* both callers pass these (rt_rnn: out; rt_rnn_grad: ys): the guard
   * states it for the static analyzer */
  if (!ws || !h_n || !h0 || (!out && !ys) || (p->mode == RT_RNN_LSTM && (!c_n || !c0))) return;
  const int64_t t_n = p->seq_len, nb = p->batch, hs = p->hidden_size, nd = p->num_dirs;
  const int64_t gh = rt_rnn_gates(p->mode) * hs, bias0 = 2 * p->num_layers * nd, tnw = t_n * nb * nd * hs;
  T *gates = ws, *rec = gates + t_n * nb * gh, *mid = rec + nb * gh;
  const size_t state_bytes = (size_t)(nb * hs) * sizeof(T);
  for (int64_t l = 0; l < p->num_layers; l++) {
    T *dst, *below = NULL;
    if (ys) {
      dst = ys + l * tnw;
      if (l) below = dst - tnw;
    } else {
      /* the last layer writes out; the ones below alternate with mid so that
       * each reads the other buffer */
      dst = (p->num_layers - 1 - l) % 2 == 0 ? out : mid;
      if (l) below = dst == out ? mid : out;
    }
    const T *in = l == 0 ? x : below;
    if (l && p->mask && rt_rnn_drops(p)) {
      T *d = ys ? dropped : below;
      if (!d) return;
      drop(p, below, d, tnw);
      in = d;
    }
    for (int64_t dir = 0; dir < nd; dir++) {
      const int64_t k = l * nd + dir;
      RnnDir d = {weights[2 * k], weights[2 * k + 1], weights[bias0 + 2 * k], weights[bias0 + 2 * k + 1],
                  in, l == 0 ? p->input_size : nd * hs, dst, dir * hs, (int)dir, h_n + k * nb * hs,
                  p->mode == RT_RNN_LSTM ? c_n + k * nb * hs : NULL, acts ? acts + k * t_n * nb * (gh + hs) : NULL};
      if (d.h != h0 + k * nb * hs) memcpy(d.h, h0 + k * nb * hs, state_bytes);
      if (d.c && d.c != c0 + k * nb * hs) memcpy(d.c, c0 + k * nb * hs, state_bytes);
      run_dir(p, &d, lengths, gates, rec, gemm_ws);
    }
  }
}

void RNN_FORWARD_NAME(const RtRnn *p, const T *x, const T *const *weights, const T *h0, const T *c0,
            const int64_t *lengths, T *out, T *h_n, T *c_n, T *ws, T *gemm_ws) {
  forward(p, x, weights, h0, c0, lengths, out, h_n, c_n, ws, gemm_ws, NULL, NULL, NULL);
}

/* One step of one sequence backwards: sv is what cell() kept, h_prev and
 * c_prev the state it started from, dh the gradient of the state it made
 * (dc that of LSTM's cell state, replaced by the gradient of c_prev).
 * Writes the gradient of the gates' pre-activations through the input side
 * (dgi: x W_ih^T + b_ih) and through the recurrent side (dgh: h W_hh^T +
 * b_hh; the same except for GRU's candidate, where the reset gate scales
 * the recurrent term), and in dhd the part of h_prev's gradient that does
 * not pass through W_hh (GRU's z * h; 0 otherwise). */
static void cell_grad(RtRnnMode mode, int64_t hs, const T *sv, const T *h_prev, const T *c_prev,
                      const T *dh, T *dc, T *dgi, T *dgh, T *dhd) {
  switch (mode) {
    case RT_RNN_LSTM:
      for (int64_t j = 0; j < hs; j++) {
        T i = sv[j], f = sv[hs + j], cand = sv[2 * hs + j], o = sv[3 * hs + j], tc = TANH(sv[4 * hs + j]);
        T dct = dc[j] + dh[j] * o * ((T)1 - tc * tc);
        dgi[j] = dct * cand * i * ((T)1 - i);
        dgi[hs + j] = dct * c_prev[j] * f * ((T)1 - f);
        dgi[2 * hs + j] = dct * i * ((T)1 - cand * cand);
        dgi[3 * hs + j] = dh[j] * tc * o * ((T)1 - o);
        dc[j] = dct * f;
        dhd[j] = (T)0;
      }
      break;
    case RT_RNN_GRU:
      for (int64_t j = 0; j < hs; j++) {
        T rg = sv[j], z = sv[hs + j], cand = sv[2 * hs + j], rh = sv[3 * hs + j];
        T dcp = dh[j] * ((T)1 - z) * ((T)1 - cand * cand);
        dgi[j] = dgh[j] = dcp * rh * rg * ((T)1 - rg);
        dgi[hs + j] = dgh[hs + j] = dh[j] * (h_prev[j] - cand) * z * ((T)1 - z);
        dgi[2 * hs + j] = dcp;
        dgh[2 * hs + j] = dcp * rg;
        dhd[j] = dh[j] * z;
      }
      break;
    case RT_RNN_TANH:
      for (int64_t j = 0; j < hs; j++) dgi[j] = dh[j] * ((T)1 - sv[j] * sv[j]), dhd[j] = (T)0;
      break;
    case RT_RNN_RELU:
      for (int64_t j = 0; j < hs; j++) dgi[j] = sv[j] > (T)0 ? dh[j] : (T)0, dhd[j] = (T)0;
      break;
  }
}

/* b[j] = the sum of column j of a [rows, cols], rows in order. */
static void col_sums(const T *a, int64_t rows, int64_t cols, T *b) {
  memset(b, 0, (size_t)cols * sizeof *b);
  for (int64_t r = 0; r < rows; r++)
    for (int64_t j = 0; j < cols; j++) b[j] += a[r * cols + j];
}

void RNN_GRAD_NAME(const RtRnn *p, const T *x, const T *const *weights, const T *h0, const T *c0,
                 const int64_t *lengths, const T *dout, const T *dh_n, const T *dc_n, T *dx, T *const *dweights,
                 T *dh0, T *dc0, T *ws, T *gemm_ws) {
  const int64_t t_n = p->seq_len, nb = p->batch, hs = p->hidden_size, nd = p->num_dirs, nl = p->num_layers;
  const int64_t gh = rt_rnn_gates(p->mode) * hs, sw = gh + hs, tn = t_n * nb, ow = nd * hs, nh = nb * hs;
  const int64_t bias0 = 2 * nl * nd;
  const int lstm = p->mode == RT_RNN_LSTM, gru = p->mode == RT_RNN_GRU;
  if (!ws || !h0 || (lstm && !c0)) return; /* the emitter always passes them (for the static analyzer) */
  /* the layout rt_rnn_grad_ws_floats counts */
  T *ys = ws, *acts = ys + nl * tn * ow, *hn = acts + nl * nd * tn * sw, *cn = hn + nl * nd * nh;
  T *fws = cn + nl * nd * nh; /* forward's gates and rec, then dgi */
  T *dgi = fws, *dgh = gru ? dgi + tn * gh : dgi, *hprev = fws + (tn + nb) * gh + (gru ? tn * gh : 0);
  T *dh = hprev + tn * hs, *dhr = dh + nh, *dc = dhr + nh, *dy_buf[2] = {dc + nh, dc + nh + tn * ow};
  T *dropped = p->mask && rt_rnn_drops(p) ? dy_buf[1] + tn * ow : NULL; /* a layer's input after dropout */
  forward(p, x, weights, h0, c0, lengths, NULL, hn, cn, fws, gemm_ws, ys, acts, dropped);
  for (int64_t l = nl - 1; l >= 0; l--) {
    const T *dy = l == nl - 1 ? dout : dy_buf[(l + 1) % 2];
    const T *in = l == 0 ? x : ys + (l - 1) * tn * ow, *y = ys + l * tn * ow;
    if (l && dropped) { /* what the layer read: the forward's buffer held the last layer's */
      drop(p, in, dropped, tn * ow);
      in = dropped;
    }
    const int64_t in_w = l == 0 ? p->input_size : ow;
    T *din = l == 0 ? dx : dy_buf[l % 2];
    for (int64_t dir = 0; dir < nd; dir++) {
      const int64_t k = l * nd + dir, col = dir * hs;
      const T *sv = acts + k * tn * sw, *w_hh = weights[2 * k + 1];
      if (dh_n) memcpy(dh, dh_n + k * nh, (size_t)nh * sizeof *dh);
      else memset(dh, 0, (size_t)nh * sizeof *dh);
      if (lstm && dc_n) memcpy(dc, dc_n + k * nh, (size_t)nh * sizeof *dc);
      else memset(dc, 0, (size_t)nh * sizeof *dc);
      for (int64_t s = t_n - 1; s >= 0; s--) {
        const int64_t t = dir ? t_n - 1 - s : s, tp = dir ? t + 1 : t - 1; /* tp: the step before t */
        for (int64_t n = 0; n < nb; n++) {
          const int64_t row = t * nb + n, len = seq_length(p, lengths, n);
          T *dhn = dh + n * hs;
          if (t >= len) { /* past the end: the state went through unchanged, the output was a zero */
            memset(dgi + row * gh, 0, (size_t)gh * sizeof *dgi);
            if (dgh != dgi) memset(dgh + row * gh, 0, (size_t)gh * sizeof *dgh);
            memset(hprev + row * hs, 0, (size_t)hs * sizeof *hprev);
            memcpy(dhr + n * hs, dhn, (size_t)hs * sizeof *dhr);
            continue;
          }
          /* the state before step t: the initial one at the sequence's first
           * step, except that Paddle's grad takes the reverse direction's h
           * there from the output of step t + 1, a zero when the sequence
           * is shorter than T (its forward started from h0; its c is c0) */
          const int first = dir ? t == len - 1 : t == 0;
          T *hrow = hprev + row * hs;
          const T *hp = !first ? y + (tp * nb + n) * ow + col : dir && len < t_n ? hrow : h0 + k * nh + n * hs;
          const T *cp = !lstm ? NULL : first ? c0 + k * nh + n * hs : sv + (tp * nb + n) * sw + 4 * hs;
          if (hp == hrow) memset(hrow, 0, (size_t)hs * sizeof *hrow);
          if (dy)
            for (int64_t j = 0; j < hs; j++) dhn[j] += dy[row * ow + col + j];
          cell_grad(p->mode, hs, sv + row * sw, hp, cp, dhn, dc + n * hs, dgi + row * gh, dgh + row * gh,
                    dhr + n * hs);
          if (hp != hrow) memcpy(hrow, hp, (size_t)hs * sizeof *hrow);
        }
        /* the gradient of the state before step t */
        GEMM(0, 0, nb, hs, gh, (T)1, dgh + t * nb * gh, gh, w_hh, hs, (T)1, dhr, hs, gemm_ws);
        T *swap = dh;
        dh = dhr, dhr = swap;
      }
      if (dh0) memcpy(dh0 + k * nh, dh, (size_t)nh * sizeof *dh);
      if (lstm && dc0) memcpy(dc0 + k * nh, dc, (size_t)nh * sizeof *dc);
      T *dw_ih = dweights[2 * k], *dw_hh = dweights[2 * k + 1];
      T *db_ih = dweights[bias0 + 2 * k], *db_hh = dweights[bias0 + 2 * k + 1];
      if (dw_ih) GEMM(1, 0, gh, in_w, tn, (T)1, dgi, gh, in, in_w, (T)0, dw_ih, in_w, gemm_ws);
      if (dw_hh) GEMM(1, 0, gh, hs, tn, (T)1, dgh, gh, hprev, hs, (T)0, dw_hh, hs, gemm_ws);
      if (db_ih) col_sums(dgi, tn, gh, db_ih);
      if (db_hh) col_sums(dgh, tn, gh, db_hh);
      if (din) GEMM(0, 0, tn, in_w, gh, (T)1, dgi, gh, weights[2 * k], in_w, dir ? (T)1 : (T)0, din, in_w, gemm_ws);
    }
    if (l && dropped && din) drop(p, din, din, tn * ow); /* through the dropout below */
  }
}

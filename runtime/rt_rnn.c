/* Paddle's fused rnn op (see rt_rnn.h), following the CPU kernel of Paddle
 * 2.6 (paddle/phi/kernels/cpu/rnn_kernel.cc, rnn_functor.h): per layer and
 * direction one GEMM projects every time step's input (plus both biases),
 * then each step adds h W_hh^T (one GEMM over the batch) and applies the
 * cell row by row.  The state lives in h_n / c_n and is updated in place. */
#include <math.h>
#include <string.h>

#include "rt_kernels.h"

static float sigmoid(float v) { return 1.0f / (1.0f + expf(-v)); }

/* Where one layer and direction reads and writes. */
typedef struct RnnDir {
  const float *w_ih;   /* [G*H, in_w] */
  const float *w_hh;   /* [G*H, H] */
  const float *b_ih;   /* [G*H] */
  const float *b_hh;   /* [G*H] */
  const float *in;     /* [T, N, in_w]: x or the lower layer's outputs */
  int64_t in_w;        /* features per step of `in` */
  float *dst;          /* [T, N, D*H]: this layer's outputs */
  int64_t col;         /* first column of this direction in dst (0 or H) */
  int reverse;         /* 1: steps run from T-1 down to 0 */
  float *h;            /* [N, H] state, updated in place */
  float *c;            /* [N, H] cell state (LSTM), or NULL */
} RnnDir;

/* One step of one sequence: gates g (input projection plus biases) and r
 * (h W_hh^T) of G*H each -> new state h[H] (and c[H]), written in place. */
static void cell(RtRnnMode mode, int64_t hs, const float *g, const float *r, const float *b_hc, float *h, float *c) {
  switch (mode) {
    case RT_RNN_LSTM:
      for (int64_t j = 0; j < hs; j++) {
        float i = sigmoid(g[j] + r[j]), f = sigmoid(g[hs + j] + r[hs + j]);
        float cand = tanhf(g[2 * hs + j] + r[2 * hs + j]), o = sigmoid(g[3 * hs + j] + r[3 * hs + j]);
        c[j] = cand * i + c[j] * f;
        h[j] = o * tanhf(c[j]);
      }
      break;
    case RT_RNN_GRU:
      for (int64_t j = 0; j < hs; j++) {
        float rg = sigmoid(g[j] + r[j]), z = sigmoid(g[hs + j] + r[hs + j]);
        float cand = tanhf(g[2 * hs + j] + (r[2 * hs + j] + b_hc[j]) * rg);
        h[j] = z * h[j] + cand - z * cand; /* Paddle's order of z * h + (1 - z) * c~ */
      }
      break;
    case RT_RNN_TANH:
      for (int64_t j = 0; j < hs; j++) h[j] = tanhf(g[j] + r[j]);
      break;
    case RT_RNN_RELU:
      for (int64_t j = 0; j < hs; j++) {
        float v = g[j] + r[j];
        h[j] = v > 0.0f ? v : 0.0f;
      }
      break;
  }
}

/* Valid steps of sequence n, clamped to [0, T]. */
static int64_t seq_length(const RtRnn *p, const int64_t *lengths, int64_t n) {
  if (!lengths) return p->seq_len;
  int64_t len = lengths[n];
  return len < 0 ? 0 : len > p->seq_len ? p->seq_len : len;
}

static void run_dir(const RtRnn *p, const RnnDir *d, const int64_t *lengths, float *gates, float *rec,
                    float *gemm_ws) {
  const int64_t t_n = p->seq_len, nb = p->batch, hs = p->hidden_size, gh = rt_rnn_gates(p->mode) * hs;
  const int64_t out_w = p->num_dirs * hs;
  /* gates = in W_ih^T + b_ih + b_hh over every step at once; GRU adds the
   * candidate's b_hh inside the reset product instead */
  rt_sgemm_ws(0, 1, t_n * nb, gh, d->in_w, 1.0f, d->in, d->in_w, d->w_ih, d->in_w, 0.0f, gates, gh, gemm_ws);
  const int64_t hh_bias = p->mode == RT_RNN_GRU ? 2 * hs : gh;
  for (int64_t row = 0; row < t_n * nb; row++) {
    float *g = gates + row * gh;
    for (int64_t j = 0; j < gh; j++) g[j] += d->b_ih[j];
    for (int64_t j = 0; j < hh_bias; j++) g[j] += d->b_hh[j];
  }
  for (int64_t s = 0; s < t_n; s++) {
    const int64_t t = d->reverse ? t_n - 1 - s : s;
    rt_sgemm_ws(0, 1, nb, gh, hs, 1.0f, d->h, hs, d->w_hh, hs, 0.0f, rec, gh, gemm_ws);
    for (int64_t n = 0; n < nb; n++) {
      float *y = d->dst + (t * nb + n) * out_w + d->col;
      if (t >= seq_length(p, lengths, n)) { /* past the end: zero output, state kept */
        memset(y, 0, (size_t)hs * sizeof *y);
        continue;
      }
      float *h = d->h + n * hs;
      cell(p->mode, hs, gates + (t * nb + n) * gh, rec + n * gh, d->b_hh + 2 * hs, h, d->c ? d->c + n * hs : NULL);
      memcpy(y, h, (size_t)hs * sizeof *y);
    }
  }
}

void rt_rnn(const RtRnn *p, const float *x, const float *const *weights, const float *h0, const float *c0,
            const int64_t *lengths, float *out, float *h_n, float *c_n, float *ws, float *gemm_ws) {
  const int64_t t_n = p->seq_len, nb = p->batch, hs = p->hidden_size, nd = p->num_dirs;
  const int64_t gh = rt_rnn_gates(p->mode) * hs, bias0 = 2 * p->num_layers * nd;
  float *gates = ws, *rec = gates + t_n * nb * gh, *mid = rec + nb * gh;
  const size_t state_bytes = (size_t)(nb * hs) * sizeof(float);
  for (int64_t l = 0; l < p->num_layers; l++) {
    /* the last layer writes out; the ones below alternate with mid so that
     * each reads the other buffer */
    float *dst = (p->num_layers - 1 - l) % 2 == 0 ? out : mid;
    const float *in = l == 0 ? x : dst == out ? mid : out;
    for (int64_t dir = 0; dir < nd; dir++) {
      const int64_t k = l * nd + dir;
      RnnDir d = {weights[2 * k], weights[2 * k + 1], weights[bias0 + 2 * k], weights[bias0 + 2 * k + 1],
                  in, l == 0 ? p->input_size : nd * hs, dst, dir * hs, (int)dir, h_n + k * nb * hs,
                  p->mode == RT_RNN_LSTM ? c_n + k * nb * hs : NULL};
      if (d.h != h0 + k * nb * hs) memcpy(d.h, h0 + k * nb * hs, state_bytes);
      if (d.c && d.c != c0 + k * nb * hs) memcpy(d.c, c0 + k * nb * hs, state_bytes);
      run_dir(p, &d, lengths, gates, rec, gemm_ws);
    }
  }
}

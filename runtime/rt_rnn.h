/* The fused recurrent network of Paddle's `rnn` op (paddle.nn.LSTM, GRU,
 * SimpleRNN): num_layers stacked layers, each one or two directions, over
 * time-major sequences, float32 (rt_rnn, rt_rnn_grad) or float64 (rt_rnn_f64,
 * rt_rnn_grad_f64: the same computation in double), with dropout between layers in training;
 * and its gradient.
 *
 * Tensors (row-major):
 *   x        [T, N, I]          the first layer's input
 *   weights  4 * L * D pointers in Paddle's WeightList order: for each layer,
 *            for each direction, W_ih [G*H, I or D*H] then W_hh [G*H, H];
 *            then, in the same order, b_ih [G*H] and b_hh [G*H]
 *   h0, c0   [L*D, N, H]        initial states (c0 for LSTM only), indexed
 *                               by layer * D + direction
 *   lengths  [N] or NULL        valid steps of each sequence (clamped to
 *                               [0, T]); steps t >= length give zero outputs
 *                               and leave the state as it was, so the final
 *                               state is the one at the last valid step (the
 *                               reverse direction starts there)
 *   out      [T, N, D*H]        the last layer's outputs, forward direction
 *                               in columns [0, H), reverse in [H, 2H)
 *   h_n, c_n [L*D, N, H]        final states; may be the same buffers as
 *                               h0, c0
 *
 * Gates (G of them, in this order in the G*H rows of the weights), with
 * g = x W_ih^T + b_ih and r = h W_hh^T + b_hh:
 *   LSTM (G = 4: i, f, c, o)  i, f, o = sigmoid(g + r), c~ = tanh(g + r),
 *        c' = c~ * i + c * f, h' = o * tanh(c')
 *   GRU  (G = 3: r, z, c)     r, z = sigmoid(g + r); the candidate applies
 *        the reset gate to the whole recurrent term, bias included:
 *        c~ = tanh(g_c + r * (h W_hc^T + b_hc)), h' = z * h + (1 - z) * c~
 *   RNN_TANH, RNN_RELU (G = 1) h' = tanh(g + r), max(g + r, 0)
 *
 * Nothing here allocates: the caller passes rt_rnn_ws_floats() floats of
 * workspace and the GEMM packing room (RT_SGEMM_WS_FLOATS of the largest
 * product, see rt_rnn_gemm_dims; NULL packs on the stack). */
#ifndef PADDLEC_RT_RNN_H
#define PADDLEC_RT_RNN_H

#include <stdint.h>

/* The cell, as Paddle's `mode` attribute names it. */
typedef enum RtRnnMode {
  RT_RNN_LSTM = 0, /* "LSTM": 4 gates, hidden and cell state */
  RT_RNN_GRU = 1,  /* "GRU": 3 gates */
  RT_RNN_TANH = 2, /* "RNN_TANH": 1 gate, tanh */
  RT_RNN_RELU = 3, /* "RNN_RELU": 1 gate, relu */
} RtRnnMode;

typedef struct RtRnn {
  RtRnnMode mode;      /* cell type */
  int64_t seq_len;     /* T: time steps */
  int64_t batch;       /* N: sequences */
  int64_t input_size;  /* I: features per step of the first layer's input */
  int64_t hidden_size; /* H: features of the state and of each direction's output */
  int64_t num_layers;  /* L: stacked layers */
  int64_t num_dirs;    /* D: 1, or 2 when bidirectional */
  /* Dropout between layers (Paddle's rnn with is_test false, dropout_prob
   * p != 0, more than one layer; rt_dropout_mask draws the mask): each layer
   * above the first reads the one below's outputs y as y * mask / (1 - p)
   * (0 * y when p is 1), one [T, N, D*H] mask for every layer; the gradient
   * passes down the same way.  0 and NULL: none. */
  float dropout_prob;
  const uint8_t *mask;
} RtRnn;

/* 1 when p drops between layers (the workspace of rt_rnn_grad counts it). */
static inline int rt_rnn_drops(const RtRnn *p) { return p->dropout_prob != 0.0f && p->num_layers > 1; }

/* Gates per cell: G. */
static inline int64_t rt_rnn_gates(RtRnnMode mode) {
  return mode == RT_RNN_LSTM ? 4 : mode == RT_RNN_GRU ? 3 : 1;
}

/* Workspace floats of rt_rnn: the input projections of one layer and
 * direction [T*N, G*H], one step's recurrent product [N, G*H], and with more
 * than one layer the lower layer's outputs [T, N, D*H]. */
static inline int64_t rt_rnn_ws_floats(const RtRnn *p) {
  int64_t gh = rt_rnn_gates(p->mode) * p->hidden_size, tn = p->seq_len * p->batch;
  return tn * gh + p->batch * gh + (p->num_layers > 1 ? tn * p->num_dirs * p->hidden_size : 0);
}

/* The m, n, k bounds of every GEMM rt_rnn runs (m is the largest, T*N, for
 * the input projection; k the widest input). */
static inline void rt_rnn_gemm_dims(const RtRnn *p, int64_t *m, int64_t *n, int64_t *k) {
  int64_t wide = p->num_layers > 1 ? p->num_dirs * p->hidden_size : 0;
  *m = p->seq_len * p->batch;
  *n = rt_rnn_gates(p->mode) * p->hidden_size;
  *k = p->input_size > wide ? p->input_size : wide;
  if (p->hidden_size > *k) *k = p->hidden_size;
}

/* The forward. */
void rt_rnn(const RtRnn *p, const float *x, const float *const *weights, const float *h0, const float *c0,
            const int64_t *lengths, float *out, float *h_n, float *c_n, float *ws, float *gemm_ws);
/* The same in double: ws holds rt_rnn_ws_floats() doubles; the products
 * run serially through rt_dgemm and gemm_ws is not used (NULL). */
void rt_rnn_f64(const RtRnn *p, const double *x, const double *const *weights, const double *h0, const double *c0,
                const int64_t *lengths, double *out, double *h_n, double *c_n, double *ws, double *gemm_ws);

/* Workspace floats of rt_rnn_grad: every layer's outputs [L, T, N, D*H],
 * each layer and direction's cell values [L*D, T, N, (G+1)*H], final
 * states 2 x [L*D, N, H], the forward's gates and step product (reused for
 * the gates' gradient) plus GRU's recurrent-side gate gradient [T*N, G*H],
 * the previous states [T*N, H], three [N, H] state gradients, with more
 * than one layer two [T, N, D*H] gradients of a layer's input, and with
 * dropout a layer's dropped input [T, N, D*H]. */
static inline int64_t rt_rnn_grad_ws_floats(const RtRnn *p) {
  int64_t hs = p->hidden_size, gh = rt_rnn_gates(p->mode) * hs, tn = p->seq_len * p->batch;
  int64_t ow = p->num_dirs * hs, kd = p->num_layers * p->num_dirs;
  return p->num_layers * tn * ow + kd * tn * (gh + hs) + 2 * kd * p->batch * hs + (tn + p->batch) * gh +
         (p->mode == RT_RNN_GRU ? tn * gh : 0) + tn * hs + 3 * p->batch * hs + (p->num_layers > 1 ? 2 * tn * ow : 0) +
         (rt_rnn_drops(p) ? tn * ow : 0);
}

/* Bounds on the m, n, k of every GEMM rt_rnn_grad runs (the forward's, the
 * weight gradients' over T*N rows, the input and state gradients'). */
static inline void rt_rnn_grad_gemm_dims(const RtRnn *p, int64_t *m, int64_t *n, int64_t *k) {
  int64_t gh = rt_rnn_gates(p->mode) * p->hidden_size;
  rt_rnn_gemm_dims(p, m, n, k); /* m = T*N, n = G*H, k = the widest input (>= H) */
  if (gh > *m) *m = gh;
  if (*k > *n) *n = *k;
  if (*m > *k) *k = *m;
}

/* The gradient of rt_rnn (with the same lengths, or NULL) with respect to
 * x, the weights and h0, c0, given those of out (dout) and of the final
 * states (dh_n, dc_n); each of dout, dh_n, dc_n may be NULL (zero).  Steps
 * past a sequence's length pass the state's gradient through and take none
 * from dout (their outputs were zeros).  As Paddle 2.6's CPU grad kernel,
 * the reverse direction of a sequence shorter than T differentiates its
 * first step (t = length - 1) as if it had started from h = 0 (the
 * output of step t + 1) where its forward started from h0: W_hh's gradient
 * and GRU's update gate see a zero state there.  Runs the
 * forward again (into ws) rather than reading anything the forward kept.
 * dx [T, N, I], dweights (4 * L * D pointers, as the weights), dh0, dc0:
 * the gradients written; NULL ones are not computed.  ws:
 * rt_rnn_grad_ws_floats() floats; gemm_ws: room for the products of
 * rt_rnn_grad_gemm_dims (NULL packs on the stack). */
void rt_rnn_grad(const RtRnn *p, const float *x, const float *const *weights, const float *h0, const float *c0,
                 const int64_t *lengths, const float *dout, const float *dh_n, const float *dc_n, float *dx, float *const *dweights,
                 float *dh0, float *dc0, float *ws, float *gemm_ws);
/* The same in double: ws holds rt_rnn_grad_ws_floats() doubles; gemm_ws is
 * not used (NULL). */
void rt_rnn_grad_f64(const RtRnn *p, const double *x, const double *const *weights, const double *h0,
                     const double *c0, const int64_t *lengths, const double *dout, const double *dh_n,
                     const double *dc_n, double *dx, double *const *dweights, double *dh0, double *dc0, double *ws,
                     double *gemm_ws);

#endif

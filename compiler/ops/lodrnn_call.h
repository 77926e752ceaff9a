/* The recurrences of the 1.x LoD ops, as their emitters (gru.c, lstm.c,
 * crf_decoding.c) decided them, and their C printer (also gru_unit's one
 * step, which has no LoD): plain loops over each sequence of a level-1 LoD (m->lod[input], m->lod_count[input]; see
 * seq_call.h for how those reach a kernel), step by step.
 *
 *   LODRNN_GRU: Paddle's GRUCPUKernel (gru_op.cc, funcs/gru_compute.cc,
 *     detail/gru_kernel.h with old_version) per sequence i, in time order or,
 *     with is_reverse, from its last row back: g = Input[t] + Bias; with a
 *     previous state h (H0 row i at the first step, else the last Hidden
 *     row; none at the first step without H0) g[0:2D] += h x Wg, Wg = the
 *     first 2*D*D elements of Weight as [D, 2D]; u = gate_act(g[0:D]),
 *     r = gate_act(g[D:2D]); rh = r * h (0 without h); g[2D:3D] += rh x Wc,
 *     Wc = the last D*D elements as [D, D] (only with h); c = act(g[2D:3D]);
 *     Hidden[t] = origin_mode ? u*h + c - u*c : h - u*h + u*c (h = 0 when
 *     none).  Activations as detail/activation_functions.h: sigmoid clamps
 *     its input to [-40, 13], tanh is 2 / (1 + exp(min(-2a, 40))) - 1.
 *   LODRNN_GRU_UNIT: one GRU step over N rows, no LoD (gru_unit_op.h's
 *     GRUUnitKernel): Gate = Input + Bias (Input without Bias); Gate[:,
 *     0:2D] += HiddenPrev x Wg (Wg as above; one GEMM with beta 1, printed
 *     by gemm_print_c); u, r = gate_act of those, written back into Gate;
 *     ResetHiddenPrev = r * HiddenPrev; Gate[:, 2D:3D] += ResetHiddenPrev x
 *     Wc (the second GEMM); c = act of that, written back; Hidden =
 *     origin_mode ? c + u * (h - c) : u * (c - h) + h.  The activations are
 *     activation_op.h's functors, not the clamped ones above: sigmoid
 *     1 / (1 + exp(-a)), tanh, relu a > 0 ? a : 0.
 *   LODRNN_GRU_UNIT_GRAD: gru_unit_op.h's GRUUnitGradKernel from the
 *     activated gates u, r, c in Gate: dGate (scratch) [:, 0:D] = gate_act'
 *     (dh * (origin_mode ? h - c : c - h)), [:, 2D:3D] = act'(dh *
 *     (origin_mode ? 1 - u : u)), each derivative from the activated
 *     value as activation_op.h's grad functors take it (sigmoid dy*y*(1-y),
 *     tanh dy*(1-y*y), relu dy*(y>0), identity dy); dRH = dGate[:, 2D:3D]
 *     x Wc^T (GEMM, beta 0); dGate[:, D:2D] = gate_act'(dRH * h);
 *     Weight@GRAD = [HiddenPrev^T x dGate[:, 0:2D] | ResetHiddenPrev^T x
 *     dGate[:, 2D:3D]] (the two blocks as Wg, Wc); HiddenPrev@GRAD = dRH *
 *     r + dh * (origin_mode ? u : 1 - u), then += dGate[:, 0:2D] x Wg^T;
 *     Input@GRAD = dGate; Bias@GRAD = dGate's column sums.  Each asked-for
 *     output written whole, the others left out.
 *   LODRNN_GRU_GRAD: Paddle's GRUGradKernel (funcs/gru_compute.cc's
 *     GRUUnitGradFunctor, detail/gru_kernel.h's gru_stateGrad and
 *     gru_resetGrad) per sequence, without Paddle's time-major batches:
 *     the gates and r * h of every row recomputed as LODRNN_GRU computes
 *     them (scratch), then from the sequence's last step back, with dh =
 *     Hidden@GRAD[t] + what step t+1 passed back and h the previous state
 *     (0 and nothing passed back at the first step without H0): du = dh *
 *     (origin_mode ? h - c : c - h), the state gets dh * (origin_mode ? u :
 *     1 - u), dc = act'(dh * (origin_mode ? 1 - u : u)); with h: drh = dc x
 *     Wc^T, Weight@GRAD's Wc += rh^T x dc; the state gets drh * r; dr =
 *     gate_act'(drh * h), du = gate_act'(du) (0 for dr without h); with
 *     h: the state gets [du dr] x
 *     Wg^T, Wg's gradient += h^T x [du dr].  The state's gradient at the
 *     first step is H0@GRAD row i.  Input@GRAD = [du dr dc] per row,
 *     Bias@GRAD its column sums.  Derivatives from the activated values as
 *     detail/activation_functions.h's backward ones.
 *   LODRNN_LSTM: Paddle's LSTMKernel (lstm_op.h, funcs/lstm_compute.cc,
 *     detail/lstm_cpu_kernel.h and lstm_kernel.h with old_api_version) per
 *     sequence i, in time order or, with is_reverse, from its last row
 *     back: g = Input[t] + Bias[0:4D], its four D-wide parts the candidate,
 *     input, forget and output gates; with a previous hidden state h (H0
 *     row i at the first step, else the last Hidden row; none at the first
 *     step without H0) g += h x Weight [D, 4D]; with cp the previous cell
 *     (C0 row i at the first step, 0 without C0, else the last Cell row):
 *     a = cand_act(gc), ig = gate_act(gi + cp*wi), fg = gate_act(gf +
 *     cp*wf), Cell[t] = c = a*ig + cp*fg, og = gate_act(go + c*wo),
 *     Hidden[t] = og * cell_act(c); wi, wf, wo = Bias[4D:7D] with
 *     use_peepholes, else 0 (the terms left out).
 *   LODRNN_LSTM_GRAD: Paddle's LSTMGradKernel (funcs/lstm_compute.cc's
 *     LstmUnitGradFunctor, detail/lstm_kernel.h's backward lstm) per
 *     sequence, without the time-major batches: the activated gates of
 *     every row recomputed as LODRNN_LSTM computes them (scratch), then from
 *     the last step back, with dh = Hidden@GRAD[t] + what step t+1 passed
 *     back, ds the cell's gradient passed back, a, ig, fg, og the gates, c
 *     = Cell[t], ca = cell_act(c), cp the previous cell (0 without): dog =
 *     gate_act'(dh * ca); ds += cell_act'(dh * og) + dog * wo; da =
 *     cand_act'(ds * ig); dig = gate_act'(ds * a); dfg = gate_act'(ds *
 *     cp); the previous cell gets dig * wi + dfg * wf + ds * fg (C0@GRAD
 *     at the first step); the peepholes' gradients add dig * cp, dfg * cp,
 *     dog * c; with a previous hidden state h (H0 at the first step):
 *     Weight@GRAD += h^T x [da dig dfg dog] and h's gradient is [da dig dfg
 *     dog] x Weight^T (H0@GRAD at the first step).  Input@GRAD the gates'
 *     gradient, Bias@GRAD[0:4D] its column sums.  Cell@GRAD is not read
 *     (Paddle's kernel takes zeros for it).
 *   LODRNN_CRF: crf_decoding_op.h per non-empty sequence of Emission [T, K]
 *     with Transition [K+2, K] (row 0 start, row 1 end, then K x K):
 *     Viterbi with strict > (the first of equal scores), the path's tags
 *     (int64) into ViterbiPath [T, 1] (zeros where no sequence covers a
 *     row), then, with Label, path = (Label == path).  The padded form
 *     (Length [N], Emission [N, S, K], ViterbiPath [N, S]): sequence i is
 *     rows i*S .. i*S + Length[i] - 1 (a Length outside [0, S] stops the
 *     run: Paddle reads past the row), and with Label the path is 1 / 0 for
 *     the first Length[i] rows, 0 after. */
#ifndef PADDLEC_OPS_LODRNN_CALL_H
#define PADDLEC_OPS_LODRNN_CALL_H

#include "ops.h"

typedef enum LodRnnKind { LODRNN_GRU, LODRNN_GRU_UNIT, LODRNN_GRU_UNIT_GRAD, LODRNN_GRU_GRAD, LODRNN_LSTM, LODRNN_LSTM_GRAD, LODRNN_CRF } LodRnnKind;

typedef struct LodRnnCall {
  LodRnnKind kind;
  int f64;              /* float64, else float32 */
  int input;            /* the feed (input index) whose LoD is read */
  const char *feed;     /* its name, for the comment */
  const char *x;        /* GRU: Input [T, 3D]; LSTM: Input [T, 4D]; CRF: Emission [T, K] */
  const char *out;      /* GRU, LSTM: Hidden [T, D]; CRF: ViterbiPath (int64) [T, 1] */
  const char *rows;     /* T: the rows of x */
  /* LODRNN_GRU and LODRNN_LSTM */
  int64_t d;            /* D, the frame size */
  const char *weight;   /* Weight [D, 3D] (GRU), [D, 4D] (LSTM) */
  const char *bias;     /* Bias [1, 3D] (GRU, NULL: none), [1, 4D or 7D] (LSTM) */
  const char *h0;       /* H0 [NH, D], NULL: none */
  const char *h0_rows;  /* NH: the rows of H0 (LSTM: or of C0); NULL: neither given */
  const char *act;      /* activation (LSTM: candidate_activation): "sigmoid", "tanh", "relu" or "identity" */
  const char *gate_act; /* gate_activation: the same four */
  int reverse;          /* is_reverse */
  int origin;           /* GRU: origin_mode */
  const char *ws;       /* scratch of 6 * D (GRU) or 8 * D (LSTM) elements; GRU_UNIT: the float32 GEMM
                           packing scratch (em_gemm_ws), NULL for float64 */
  /* LODRNN_GRU_UNIT (x: Input [N, 3D], h0: HiddenPrev [N, D], out: Hidden [N, D], rows: N) */
  const char *gate;     /* Gate [N, 3D] */
  const char *reset;    /* ResetHiddenPrev [N, D] */
  /* LODRNN_GRU_UNIT_GRAD (h0, weight, gate, reset: the forward's, read; rows, d, act, gate_act, origin, ws:
     as LODRNN_GRU_UNIT's, ws sized for the four products) */
  const char *dout;     /* Hidden@GRAD [N, D] */
  const char *dx;       /* Input@GRAD [N, 3D], NULL: not asked for */
  const char *dh0;      /* HiddenPrev@GRAD [N, D], NULL: not asked for */
  const char *dweight;  /* Weight@GRAD [D, 3D], NULL: not asked for */
  const char *dbias;    /* Bias@GRAD [1, 3D], NULL: not asked for */
  const char *dgate;    /* scratch [N, 3D]: the gradient of the unactivated gates */
  const char *dreset;   /* scratch [N, D]: the gradient of ResetHiddenPrev */
  /* LODRNN_GRU_GRAD: LODRNN_GRU's fields (out: Hidden, read), dout, dx, dh0, dweight, dbias as above (dh0:
     H0@GRAD [NH, D]); ws: scratch of 4 * T * D + 4 * D elements (the recomputed gates and reset states, the
     running state gradient, its reset part, a product), and 3 * T * D more without dx (the gates' gradient) */
  /* LODRNN_LSTM */
  const char *cell;     /* Cell [T, D] */
  const char *c0;       /* C0 [NH, D], NULL: none */
  const char *cell_act; /* cell_activation: the same four */
  int peepholes;        /* use_peepholes: Bias [1, 7D] */
  /* LODRNN_LSTM_GRAD: LODRNN_LSTM's fields (out: Hidden, cell: Cell, both read), dout (Hidden@GRAD), dx,
     dh0 (H0@GRAD), dweight, dbias as above, dc0 (C0@GRAD [NH, D], NULL: not asked for); ws: scratch of
     4 * T * D + 4 * D elements, and 4 * T * D more without dx */
  const char *dc0;
  /* LODRNN_CRF */
  int64_t k;            /* K, the tags */
  const char *trans;    /* Transition [K + 2, K] */
  const char *label;    /* Label (int64) [T, 1] ([N, S] padded), NULL: none */
  const char *length;   /* padded form: Length (int64) [N], Emission [N, S, K]; NULL: the LoD form */
  const char *n, *s;    /* padded form: N and S */
  const char *alpha;    /* scratch [T, K] of x's type */
  const char *track;    /* scratch [T, K] of int */
} LodRnnCall;

void lodrnn_print_c(Printer *p, const LodRnnCall *c);

/* What gru's and lstm's emitters check alike: Input x is float32 or
 * float64 (their CPU kernels') and each var of `same` (NULL entries
 * skipped) of its type; none of the outputs named in `batch` (Paddle's
 * time-major intermediates, which paddlec does not write) is read by an op
 * or fetched (the op's own grad, `<type>_grad`, may name them: paddlec's
 * recomputes what it needs); each attribute named in `acts` (with its default) is
 * sigmoid, tanh, relu or identity (its value set); x carries a level-1
 * LoD (a feed's or one an op makes: op_lod_input), recorded as read.  The
 * LoD's index, or -1 after em_fail. */
typedef struct LodRnnAct {
  const char *attr;  /* the attribute's name */
  const char *dflt;  /* Paddle's default */
  const char *value; /* set: the op's value */
} LodRnnAct;
/* A grad op that recomputes its forward from the inputs (gru_grad,
 * lstm_grad) computes what Paddle's does only with the forward's
 * attributes: the op that wrote `hid` (the forward) must hold the grad op's
 * value of each bool in `bools` and each string in `strs` (NULL-terminated
 * lists).  Returns -1 (em_fail naming the attribute) when one differs. */
int lodrnn_same_attrs(EmitCtx *e, const Var *hid, const char *const *bools, const char *const *strs);
int lodrnn_check(EmitCtx *e, const Var *x, const Var *const *same, int nsame, const char *const *batch, int nbatch,
                 LodRnnAct *acts, int nacts);
/* The CRF ops' (crf_decoding, linear_chain_crf) Emission of float32 or
 * float64, as Paddle's CPU kernels, and Transition of its dtype: 0, or -1
 * after em_fail. */
int lodrnn_crf_dtypes(EmitCtx *e, const Var *emission, const Var *transition);

#endif

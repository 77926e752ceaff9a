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

typedef enum LodRnnKind { LODRNN_GRU, LODRNN_GRU_UNIT, LODRNN_LSTM, LODRNN_CRF } LodRnnKind;

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
  /* LODRNN_LSTM */
  const char *cell;     /* Cell [T, D] */
  const char *c0;       /* C0 [NH, D], NULL: none */
  const char *cell_act; /* cell_activation: the same four */
  int peepholes;        /* use_peepholes: Bias [1, 7D] */
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
 * or fetched; each attribute named in `acts` (with its default) is
 * sigmoid, tanh, relu or identity (its value set); x carries a level-1
 * LoD (a feed's or one an op makes: op_lod_input), recorded as read.  The
 * LoD's index, or -1 after em_fail. */
typedef struct LodRnnAct {
  const char *attr;  /* the attribute's name */
  const char *dflt;  /* Paddle's default */
  const char *value; /* set: the op's value */
} LodRnnAct;
int lodrnn_check(EmitCtx *e, const Var *x, const Var *const *same, int nsame, const char *const *batch, int nbatch,
                 LodRnnAct *acts, int nacts);
/* The CRF ops' (crf_decoding, linear_chain_crf) Emission of float32 or
 * float64, as Paddle's CPU kernels, and Transition of its dtype: 0, or -1
 * after em_fail. */
int lodrnn_crf_dtypes(EmitCtx *e, const Var *emission, const Var *transition);

#endif

/* 1.x LSTM ops on LoD sequences (fluid.layers.dynamic_lstm / dynamic_lstmp).
 *
 *   lstm: Input [T, 4D] (LoD), H0† [N, D], C0† [N, D], Weight [D, 4D],
 *     Bias [1, 4D] or [1, 7D] with peepholes -> Hidden [T, D], Cell [T, D],
 *     BatchGate [T, 4D], BatchCellPreAct [T, D].  use_peepholes=true,
 *     is_reverse=false, gate_activation="sigmoid", cell_activation="tanh",
 *     candidate_activation="tanh".  D = Input.dims[1] / 4 (LSTMOp).
 *   lstmp: Input [T, 4D], H0† [N, P], C0† [N, D], Weight [P, 4D],
 *     ProjWeight [D, P], Bias [1, 4D or 7D] -> Projection [T, P], Cell [T, D],
 *     BatchGate [T, 4D], BatchCellPreAct [T, D], BatchHidden [T, D].  lstm's
 *     attributes plus proj_activation="tanh", cell_clip=0, proj_clip=0.
 *     (Paddle 2.6 no longer registers lstmp: these rules follow the 1.x
 *     LSTMPOp source and are not checked against the oracle.)
 *   lstmp_grad: Input@GRAD = BatchGate (LSTMPGradOp); the other grads take
 *     their forward input's shape.
 *
 * C emission of lstm (lodrnn_call.h prints the loops, step by step per
 * sequence as Paddle's LSTMKernel computes them in its time-major batches):
 * Input, Weight, Bias, H0, C0, Hidden and Cell of one type, float32 or
 * float64 (the CPU kernels'); Input carries the LoD of a level-1 feed
 * (op_lod_input), Hidden and Cell keep it (lod_slot "Input", ShareLoD).
 * The gates' columns are {candidate, input, forget, output}; Bias's first
 * 4D are added to every row, its last 3D (use_peepholes) are the input,
 * forget and output peepholes.  gate_activation, cell_activation and
 * candidate_activation are sigmoid, tanh, relu or identity.  H0 and C0
 * row i start sequence i (Paddle reorders them with its sequences); C0 may
 * come alone (LSTMOp checks H0 only: H0 needs C0), then the first step has
 * no hidden state and C0's cell; a run with more sequences than their rows
 * stops (Paddle would read past their end).  BatchGate and BatchCellPreAct
 * hold Paddle's reordered intermediates: not written, refused when some
 * op or fetch reads them.  is_test only decides whether Paddle keeps them.
 *
 * lstm_grad: Input, H0†, C0†, Weight, Bias, Hidden, Cell, BatchGate,
 *   BatchCellPreAct, Hidden@GRAD, Cell@GRAD† -> Input@GRAD†, H0@GRAD†,
 *   C0@GRAD†, Weight@GRAD†, Bias@GRAD† (the generic grad rule).  C emission
 *   (lodrnn_call.h's LODRNN_LSTM_GRAD, as Paddle's LSTMGradKernel): the
 *   Batch* inputs are not read (the gates are recomputed per sequence from
 *   Input, Weight, Bias, H0, C0, Hidden and Cell); Cell@GRAD is not read
 *   either, as Paddle's kernel takes zeros for it; the types, activations
 *   and LoD as lstm's; each output slot bound is written (H0 and C0 rows
 *   past the sequences get 0). */
#include <string.h>

#include "../util.h"
#include "lodrnn_call.h"
#include "ops.h"
#include "tensor_util.h"

/* Frame size D from Input [T, 4D], checked against Weight/Bias. */
static int lstm_frame(OpCtx *c, int64_t rec, int64_t *frame) {
  Var *x = ctx_need(c, "Input", 0), *w = ctx_need(c, "Weight", 0), *b = ctx_need(c, "Bias", 0);
  if (!x || !w || !b) return -1;
  if (x->shape.rank != 2) return ctx_fail(c, "Input %s must have rank 2", shape_str(&x->shape));
  int64_t d = x->shape.d[1] / 4;
  if (w->shape.rank != 2 || w->shape.d[1] != 4 * d || (rec >= 0 && w->shape.d[0] != rec))
    return ctx_fail(c, "Weight %s does not fit Input %s", shape_str(&w->shape),
                    shape_str(&x->shape));
  int64_t bw = attr_bool(c->op, "use_peepholes", 1) ? 7 * d : 4 * d;
  if (b->shape.rank != 2 || b->shape.d[0] != 1 || b->shape.d[1] != bw)
    return ctx_fail(c, "Bias %s must be [1, %lld]", shape_str(&b->shape), (long long)bw);
  *frame = d;
  return 0;
}

static int infer_lstm(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0), *w = ctx_need(c, "Weight", 0);
  if (!x || !w) return -1;
  int64_t d;
  if (lstm_frame(c, x->shape.rank == 2 ? x->shape.d[1] / 4 : -1, &d)) return -1;
  Var *h0 = ctx_in(c, "H0", 0), *c0 = ctx_in(c, "C0", 0);
  if (h0 && (!c0 || !shape_equal(&h0->shape, &c0->shape)))
    return ctx_fail(c, "H0 and C0 must be given together with the same shape");
  Shape h = {2, {x->shape.d[0], d}};
  ctx_set(c, "Hidden", 0, &h, x->dtype);
  ctx_set(c, "Cell", 0, &h, x->dtype);
  ctx_set(c, "BatchGate", 0, &x->shape, x->dtype);
  ctx_set(c, "BatchCellPreAct", 0, &h, x->dtype);
  return 0;
}

static int infer_lstmp(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0), *pw = ctx_need(c, "ProjWeight", 0);
  if (!x || !pw) return -1;
  if (pw->shape.rank != 2)
    return ctx_fail(c, "ProjWeight %s must have rank 2", shape_str(&pw->shape));
  int64_t d, p = pw->shape.d[1];
  if (lstm_frame(c, p, &d)) return -1;
  if (pw->shape.d[0] != d)
    return ctx_fail(c, "ProjWeight %s must have %lld rows", shape_str(&pw->shape), (long long)d);
  if (ctx_in(c, "H0", 0) && !ctx_in(c, "C0", 0)) return ctx_fail(c, "H0 is given without C0");
  Shape h = {2, {x->shape.d[0], d}}, proj = {2, {x->shape.d[0], p}};
  ctx_set(c, "Projection", 0, &proj, x->dtype);
  ctx_set(c, "Cell", 0, &h, x->dtype);
  ctx_set(c, "BatchGate", 0, &x->shape, x->dtype);
  ctx_set(c, "BatchCellPreAct", 0, &h, x->dtype);
  ctx_set(c, "BatchHidden", 0, &h, x->dtype);
  return 0;
}

static int infer_lstmp_grad(OpCtx *c) {
  static const char *const slots[] = {"Weight", "ProjWeight", "Bias", "H0", "C0"};
  Var *bg = ctx_need(c, "BatchGate", 0);
  if (!bg) return -1;
  ctx_set(c, "Input@GRAD", 0, &bg->shape, bg->dtype);
  for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++) {
    const char *g = pool_printf("%s@GRAD", slots[i]);
    if (!ctx_out(c, g, 0)) continue;
    Var *v = ctx_need(c, slots[i], 0);
    if (!v) return -1;
    ctx_set(c, g, 0, &v->shape, v->dtype);
  }
  return 0;
}

static int emit_lstm(EmitCtx *e) {
  Var *x = tu_in(e, "Input", 0), *w = tu_in(e, "Weight", 0), *b = tu_in(e, "Bias", 0);
  Var *out = tu_out(e, "Hidden", 0), *cell = tu_out(e, "Cell", 0);
  if (!x || !w || !b || !out || !cell) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  Var *h0 = ctx_in(&c, "H0", 0), *c0 = ctx_in(&c, "C0", 0);
  const Var *same[] = {w, b, h0, c0, out, cell};
  static const char *const batch[] = {"BatchGate", "BatchCellPreAct"};
  LodRnnAct acts[] = {{"gate_activation", "sigmoid", NULL},
                      {"cell_activation", "tanh", NULL},
                      {"candidate_activation", "tanh", NULL}};
  int in = lodrnn_check(e, x, same, 6, batch, 2, acts, 3);
  if (in < 0) return -1;
  (void)attr_bool(e->op, "is_test", 0); /* whether Paddle keeps the Batch* intermediates: Hidden and Cell the same */
  const int peep = attr_bool(e->op, "use_peepholes", 1);
  int64_t d = em_const_dim(e, w, 0);
  if (d < 1 || em_const_dim(e, x, 1) != 4 * d || em_const_dim(e, w, 1) != 4 * d ||
      em_const_dim(e, b, 1) != (peep ? 7 : 4) * d)
    return em_fail(e, "Input ('%s'), Weight ('%s') and Bias ('%s') must be [T, 4D], [D, 4D] and [1, %dD] with D fixed",
                   x->name, w->name, b->name, peep ? 7 : 4);
  const Var *state = h0 ? h0 : c0; /* the same shape when both (infer_lstm) */
  const int64_t sz = x->dtype == RT_DT_FP64 ? 8 : 4;
  LodRnnCall call = {.kind = LODRNN_LSTM, .f64 = x->dtype == RT_DT_FP64, .input = in,
                     .feed = op_lod_name(e->g, in), .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0),
                     .rows = em_dim(e, x, 0), .d = d, .weight = em_ptr(e, w, 1), .bias = em_ptr(e, b, 1),
                     .h0 = h0 ? em_ptr(e, h0, 1) : NULL, .h0_rows = state ? em_dim(e, state, 0) : NULL,
                     .act = acts[2].value, .gate_act = acts[0].value, .reverse = attr_bool(e->op, "is_reverse", 0),
                     .cell = em_ptr(e, cell, 0), .c0 = c0 ? em_ptr(e, c0, 1) : NULL, .cell_act = acts[1].value,
                     .peepholes = peep};
  call.ws = em_scratch_named(e, call.f64 ? "double" : "float", "lstm_ws", (SymDim){0, 8 * d * sz});
  if (state) em_fault(e, "H0 / C0 has fewer rows than Input has sequences (its LoD)");
  lodrnn_print_c(e->p, &call);
  return 0;
}

const OpDef op_lstm = {.type = "lstm", .infer = infer_lstm, .emit_c = emit_lstm, .lod_slot = "Input"};

static int emit_lstm_grad(EmitCtx *e) {
  Var *x = tu_in(e, "Input", 0), *w = tu_in(e, "Weight", 0), *b = tu_in(e, "Bias", 0);
  Var *hid = tu_in(e, "Hidden", 0), *cell = tu_in(e, "Cell", 0), *dout = tu_in(e, "Hidden@GRAD", 0);
  if (!x || !w || !b || !hid || !cell || !dout) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  Var *h0 = ctx_in(&c, "H0", 0), *c0 = ctx_in(&c, "C0", 0);
  Var *dx = ctx_out(&c, "Input@GRAD", 0), *dh0 = ctx_out(&c, "H0@GRAD", 0), *dc0 = ctx_out(&c, "C0@GRAD", 0);
  Var *dw = ctx_out(&c, "Weight@GRAD", 0), *db = ctx_out(&c, "Bias@GRAD", 0);
  (void)ctx_in(&c, "Cell@GRAD", 0); /* Paddle's kernel takes zeros for it (a TODO there): not read */
  const Var *same[] = {w, b, h0, c0, hid, cell, dout, dx, dh0, dc0, dw, db};
  LodRnnAct acts[] = {{"gate_activation", "sigmoid", NULL},
                      {"cell_activation", "tanh", NULL},
                      {"candidate_activation", "tanh", NULL}};
  int in = lodrnn_check(e, x, same, 12, NULL, 0, acts, 3);
  if (in < 0) return -1;
  static const char *const bools[] = {"is_reverse", "use_peepholes", NULL};
  static const char *const strs[] = {"gate_activation", "cell_activation", "candidate_activation", NULL};
  if (lodrnn_same_attrs(e, hid, bools, strs)) return -1;
  if ((dh0 && !h0) || (dc0 && !c0))
    return em_fail(e, "%s ('%s') is bound without its forward input", dh0 && !h0 ? "H0@GRAD" : "C0@GRAD",
                   (dh0 && !h0 ? dh0 : dc0)->name);
  const int peep = attr_bool(e->op, "use_peepholes", 1);
  int64_t d = em_const_dim(e, w, 0);
  if (d < 1 || em_const_dim(e, x, 1) != 4 * d || em_const_dim(e, w, 1) != 4 * d ||
      em_const_dim(e, b, 1) != (peep ? 7 : 4) * d)
    return em_fail(e, "Input ('%s'), Weight ('%s') and Bias ('%s') must be [T, 4D], [D, 4D] and [1, %dD] with D fixed",
                   x->name, w->name, b->name, peep ? 7 : 4);
  const Var *rowwise[] = {hid, cell, dout};
  for (int i = 0; i < 3; i++)
    if (strcmp(em_dim(e, rowwise[i], 0), em_dim(e, x, 0)) || em_const_dim(e, rowwise[i], 1) != d)
      return em_fail(e, "'%s' must be [T, %lld] with Input's rows", rowwise[i]->name, (long long)d);
  const Var *state = h0 ? h0 : c0;
  const int64_t sz = x->dtype == RT_DT_FP64 ? 8 : 4;
  SymDim t = em_sym_prod(e, x, 0, 1);
  const int64_t per_row = (dx ? 4 : 8) * d * sz;
  LodRnnCall call = {.kind = LODRNN_LSTM_GRAD, .f64 = x->dtype == RT_DT_FP64, .input = in,
                     .feed = op_lod_name(e->g, in), .x = em_ptr(e, x, 1), .out = em_ptr(e, hid, 1),
                     .rows = em_dim(e, x, 0), .d = d, .weight = em_ptr(e, w, 1), .bias = em_ptr(e, b, 1),
                     .h0 = h0 ? em_ptr(e, h0, 1) : NULL, .h0_rows = state ? em_dim(e, state, 0) : NULL,
                     .act = acts[2].value, .gate_act = acts[0].value, .reverse = attr_bool(e->op, "is_reverse", 0),
                     .cell = em_ptr(e, cell, 1), .c0 = c0 ? em_ptr(e, c0, 1) : NULL, .cell_act = acts[1].value,
                     .peepholes = peep, .dout = em_ptr(e, dout, 1), .dx = dx ? em_ptr(e, dx, 0) : NULL,
                     .dh0 = dh0 ? em_ptr(e, dh0, 0) : NULL, .dc0 = dc0 ? em_ptr(e, dc0, 0) : NULL,
                     .dweight = dw ? em_ptr(e, dw, 0) : NULL, .dbias = db ? em_ptr(e, db, 0) : NULL};
  call.ws = em_scratch_named(e, call.f64 ? "double" : "float", "lstm_ws",
                             (SymDim){t.a * per_row, t.c * per_row + 4 * d * sz});
  if (state) em_fault(e, "H0 / C0 has fewer rows than Input has sequences (its LoD)");
  lodrnn_print_c(e->p, &call);
  return 0;
}

/* Paddle's time-major intermediates: paddlec's lstm does not write them and
 * its lstm_grad recomputes the gates instead (the same values). */
static const char *const lstm_grad_ignores[] = {"BatchGate", "BatchCellPreAct", NULL};

/* No output keeps a LoD. */
const OpDef op_lstm_grad = {.type = "lstm_grad", .infer = grad_infer, .emit_c = emit_lstm_grad,
                            .ignores = lstm_grad_ignores, .lod_slot = ""};
const OpDef op_lstmp = {.type = "lstmp", .infer = infer_lstmp};
const OpDef op_lstmp_grad = {.type = "lstmp_grad", .infer = infer_lstmp_grad};

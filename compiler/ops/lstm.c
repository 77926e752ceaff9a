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
 *     their forward input's shape. */
#include <string.h>

#include "../util.h"
#include "ops.h"

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

const OpDef op_lstm = {.type = "lstm", .infer = infer_lstm};
const OpDef op_lstmp = {.type = "lstmp", .infer = infer_lstmp};
const OpDef op_lstmp_grad = {.type = "lstmp_grad", .infer = infer_lstmp_grad};

/* nll_loss (paddle.nn.functional.nll_loss): X, Label, Weight† -> Out,
 * Total_weight; ignore_index:LONG=-100, reduction:STRING="mean".
 * Shape rule (phi NllLossRawInferMeta): X is [N, C] with Label [N], or
 * [N, C, H, W] with Label [N, H, W] (Python reshapes other ranks to these);
 * Weight, when given, is [C].  Out is Label's dims under "none", else a
 * scalar; Total_weight a scalar (0-D, or [1] in a program of [1] scalars).
 * Emission (float32/64, Paddle's CPU kernels): LOSS_NLL, each sample in
 * order, -X[label] * Weight[label], summed (and under "mean" divided by the
 * summed weights, when not 0); a label equal to ignore_index gives 0 and
 * no weight, another outside [0, C) stops the run (Paddle raises).
 * Paddle's kernel also writes a 0 at Out[i] for an ignored sample i under
 * "mean"/"sum", past a one-element Out: paddlec does not.
 * nll_loss_grad: X, Label, Weight†, Total_weight, Out@GRAD -> X@GRAD
 * (phi NllLossGradKernel): zeros, and -Out@GRAD * Weight[label] at each
 * sample's label (divided by Total_weight under "mean"). */
#include <string.h>

#include "loss_call.h"
#include "ops.h"
#include "tensor_util.h"

/* 0 none, 1 mean, 2 sum; -1 for another. */
static int nll_reduction(const Op *op) {
  const char *r = attr_str(op, "reduction", "mean");
  return !strcmp(r, "none") ? 0 : !strcmp(r, "mean") ? 1 : !strcmp(r, "sum") ? 2 : -1;
}

static int infer_nll_loss(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *label = ctx_need(c, "Label", 0), *w = ctx_in(c, "Weight", 0);
  if (!x || !label) return -1;
  const Shape *xs = &x->shape, *ls = &label->shape;
  const int red = nll_reduction(c->op);
  if (red < 0) return ctx_fail(c, "reduction '%s' is not none, mean or sum", attr_str(c->op, "reduction", ""));
  if (xs->rank != 2 && xs->rank != 4) return ctx_fail(c, "X %s must be 2-D or 4-D", shape_str(xs));
  int ok = ls->rank == xs->rank - 1;
  for (int i = 0; ok && i < ls->rank; i++) {
    const int64_t want = xs->d[i ? i + 1 : 0];
    ok = ls->d[i] == want || ls->d[i] == DIM_UNKNOWN || want == DIM_UNKNOWN;
  }
  if (!ok) return ctx_fail(c, "Label %s does not fit X %s (X's dims but the classes)", shape_str(ls), shape_str(xs));
  if (label->dtype != RT_DT_INT64) return ctx_fail(c, "Label is %s; Paddle's kernel reads int64", rt_dtype_name(label->dtype));
  if (w && (w->shape.rank != 1 || (w->shape.d[0] >= 0 && xs->d[1] >= 0 && w->shape.d[0] != xs->d[1])))
    return ctx_fail(c, "Weight %s must be [C] of X %s", shape_str(&w->shape), shape_str(xs));
  const Shape scalar = {c->g->zero_d ? 0 : 1, {1}};
  ctx_set(c, "Out", 0, red ? &scalar : ls, x->dtype);
  ctx_set(c, "Total_weight", 0, &scalar, x->dtype);
  return 0;
}

/* The record's geometry: X as [batch, classes, maps], the samples. */
static LossCall nll_call(EmitCtx *e, LossKind kind, const Var *x, const Var *w, const Var *label) {
  const int r = tu_rank(e, x);
  return (LossCall){.kind = kind, .dtype = x->dtype, .n = em_numel(e, label), .classes = em_dim(e, x, 1),
                    .maps = r == 4 ? em_prod(e, x, 2, 4) : "1", .weight = w ? em_ptr(e, w, 1) : NULL,
                    .label = em_ptr(e, label, 1), .ignore_index = attr_int(e->op, "ignore_index", -100),
                    .reduction = nll_reduction(e->op)};
}

static int emit_nll_loss(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X", 0), *label = tu_in(e, "Label", 0), *w = ctx_in(&c, "Weight", 0);
  Var *out = tu_out(e, "Out", 0), *total = tu_out(e, "Total_weight", 0);
  if (!x || !label || !out || !total) return -1;
  if (tu_float_dtype(e, (Var *const[]){x, w, out, total}, 4) < 0) return -1;
  LossCall call = nll_call(e, LOSS_NLL, x, w, label);
  call.x = em_ptr(e, x, 1), call.out = em_ptr(e, out, 0), call.total = em_ptr(e, total, 0);
  loss_print_c(e->p, &call);
  em_fault(e, "a Label is outside [0, X's classes) and not ignore_index (Paddle raises)");
  return 0;
}

const OpDef op_nll_loss = {.type = "nll_loss", .infer = infer_nll_loss, .emit_c = emit_nll_loss};

static int emit_nll_loss_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X", 0), *label = tu_in(e, "Label", 0), *w = ctx_in(&c, "Weight", 0);
  Var *total = tu_in(e, "Total_weight", 0), *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !label || !total || !dout || !dx) return -1;
  if (tu_float_dtype(e, (Var *const[]){x, w, total, dout, dx}, 5) < 0) return -1;
  LossCall call = nll_call(e, LOSS_NLL_GRAD, x, w, label);
  call.total = em_ptr(e, total, 1), call.dout = em_ptr(e, dout, 1), call.dx = em_ptr(e, dx, 0);
  loss_print_c(e->p, &call);
  return 0;
}

const OpDef op_nll_loss_grad = {.type = "nll_loss_grad", .infer = grad_infer, .emit_c = emit_nll_loss_grad};

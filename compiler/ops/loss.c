/* Loss and metric ops (spec 7.7), with the grads whose shapes do not follow
 * the generic rule of grad.c.
 *
 *   softmax_with_cross_entropy: Logits, Label -> Softmax, Loss, Backprop† (2.0-2.3
 *     NPU/MLU builds); soft_label=false, use_softmax=true,
 *     numeric_stable_mode=true, ignore_index=-100, axis=-1.  Softmax and
 *     Backprop = Logits; Loss = Logits with dims[axis] = 1.
 *   softmax_with_cross_entropy_grad: Label, Softmax, Backprop†, Loss@GRAD ->
 *     Logits@GRAD = Softmax.
 *   cross_entropy: X, Label -> Y; soft_label=false, ignore_index=-100.
 *     Y = Label dims with the last set to 1 when ranks agree (else Label dims).
 *   cross_entropy2: X, Label -> Y, XShape, MatchX; ignore_index=-100.  As
 *     cross_entropy (hard labels); XShape = X dims + [0] (appended, unlike
 *     reshape2), MatchX = X dims with the last set to 1.
 *   cross_entropy_grad2: Label, MatchX, XShape, Y@GRAD -> X@GRAD = XShape[:-1].
 *   sigmoid_cross_entropy_with_logits: X, Label, pos_weight† -> Out = X;
 *     normalize=false, ignore_index=-100.
 *   sigmoid_cross_entropy_with_logits_grad: X, Label, pos_weight†, Out@GRAD
 *     -> X@GRAD (generic rule).
 *   bce_loss: X, Label -> Out = X.
 *   bce_loss_grad: X, Label, Out@GRAD -> X@GRAD (generic rule).
 *   huber_loss: X, Y -> Out, Residual = X; delta.
 *   huber_loss_grad: Residual, Out@GRAD -> X@GRAD, Y@GRAD = Residual.
 *   smooth_l1_loss: X, Y, InsideWeight†, OutsideWeight† -> Diff = X,
 *     Out = [X[0], 1]; sigma=1.  Both weights or neither.  Paddle 2.5
 *     dropped the op (1.x detection programs have it): its C emitter follows
 *     fluid's smooth_l1_loss_op.h and is tested against that formula written
 *     out by hand (tests/test_smooth_l1.py), not against a Paddle run.
 *   smooth_l1_loss_grad: InsideWeight†, OutsideWeight†, Diff, Out@GRAD ->
 *     X@GRAD, Y@GRAD = Diff.
 *   log_loss: Predicted, Labels -> Loss = [Predicted[0], 1]; epsilon=1e-4.
 *   log_loss_grad: Predicted, Labels, Loss@GRAD -> Predicted@GRAD (generic).
 *   hinge_loss: Logits, Labels (both [N, 1]) -> Loss [N, 1].
 *   hinge_loss_grad: Logits, Labels, Loss@GRAD -> Logits@GRAD (generic).
 *   rank_loss: Label, Left, Right ([N] or [N, 1]) -> Out in Label's shape.
 *   rank_loss_grad: Label, Left, Right, Out@GRAD -> Left@GRAD, Right@GRAD
 *     (generic).
 *   kldiv_loss: X, Target -> Loss = X when reduction == "none", else a
 *     scalar; reduction="mean" (none, mean, sum, batchmean); log_target
 *     (after 2.6) is refused when set.
 *   kldiv_loss_grad: X, Target, Loss@GRAD -> X@GRAD (generic rule).
 * (accuracy, a metric, is accuracy.c.)  Every op here has a C emitter, below, for float32 and for
 * float64 as Paddle 2.6's CPU double kernels compute it (the same formulas
 * in double; softmax_with_cross_entropy's softmax clips x - max at -64 as
 * phi SoftmaxFunctor does), except log_loss (Paddle registers a float
 * kernel only; hinge_loss and rank_loss too) and smooth_l1_loss (no kernel since Paddle 2.5 to match a
 * double one against): float32 only, float64 refused. */
#include <string.h>

#include "../util.h"
#include "ce_call.h"
#include "loss_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_softmax_ce(OpCtx *c) {
  Var *x = ctx_need(c, "Logits", 0), *label = ctx_need(c, "Label", 0);
  if (!x || !label) return -1;
  int rank = x->shape.rank;
  int axis = axis_norm(attr_int(c->op, "axis", -1), rank);
  if (axis < 0 || rank == 0)
    return ctx_fail(c, "axis is out of range for Logits %s", shape_str(&x->shape));
  if (label->shape.rank != rank)
    return ctx_fail(c, "Label %s and Logits %s differ in rank", shape_str(&label->shape),
                    shape_str(&x->shape));
  int soft = attr_bool(c->op, "soft_label", 0);
  for (int i = 0; i < rank; i++) {
    int64_t a = x->shape.d[i], b = label->shape.d[i];
    if (i == axis && !soft) {
      if (b > 0 && b != 1)
        return ctx_fail(c, "hard Label %s must have 1 on axis %d", shape_str(&label->shape), axis);
    } else if (a > 0 && b > 0 && a != b) {
      return ctx_fail(c, "Label %s does not match Logits %s", shape_str(&label->shape),
                      shape_str(&x->shape));
    }
  }
  Shape loss = x->shape;
  loss.d[axis] = 1;
  ctx_set(c, "Softmax", 0, &x->shape, x->dtype);
  ctx_set(c, "Backprop", 0, &x->shape, x->dtype);
  ctx_set(c, "Loss", 0, &loss, x->dtype);
  /* lengths the run gives (a label per token): Label has Logits' but on
   * the class axis (the run checks they agree: emit_softmax_ce); every
   * output has them */
  const unsigned mx = var_runtime_mask(x), ml = var_runtime_mask(label), other = ~(1u << axis);
  if (!mx && !ml) return 0;
  if ((mx | ml) >> axis & 1 || (mx & other) != (ml & other))
    return ctx_fail(c, "Logits ('%s') and Label ('%s') do not have dims only the run knows in the same places, off "
                    "the class axis %d", x->name, label->name, axis);
  ctx_pass_runtime_extent(c, x, "Softmax", 0);
  ctx_pass_runtime_extent(c, x, "Backprop", 0);
  ctx_pass_runtime_extent(c, x, "Loss", 0);
  return 0;
}

static int infer_softmax_ce_grad(OpCtx *c) {
  Var *sm = ctx_need(c, "Softmax", 0);
  if (!sm) return -1;
  ctx_set(c, "Logits@GRAD", 0, &sm->shape, sm->dtype);
  ctx_pass_runtime_extent(c, sm, "Logits@GRAD", 0);
  return 0;
}

/* cross_entropy / cross_entropy2 forward (CrossEntropyOpBase). */
static int infer_cross_entropy(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *label = ctx_need(c, "Label", 0);
  if (!x || !label) return -1;
  int rank = x->shape.rank, lrank = label->shape.rank;
  int v2 = strcmp(c->op->type, "cross_entropy2") == 0;
  int soft = !v2 && attr_bool(c->op, "soft_label", 0);
  if (rank < 1) return ctx_fail(c, "X must have rank >= 1");
  if (soft ? lrank != rank : (lrank != rank && lrank != rank - 1))
    return ctx_fail(c, "Label %s does not fit X %s", shape_str(&label->shape),
                    shape_str(&x->shape));
  if (!soft && lrank == rank && label->shape.d[rank - 1] != 1)
    return ctx_fail(c, "the last dim of Label %s must be 1", shape_str(&label->shape));
  Shape y = label->shape;
  if (lrank == rank) y.d[rank - 1] = 1;
  ctx_set(c, "Y", 0, &y, x->dtype);
  if (v2) {
    Shape xs = x->shape, mx = x->shape;
    if (rank + 1 > RT_MAX_RANK) return ctx_fail(c, "X has too many dims for XShape");
    xs.d[xs.rank++] = 0;
    mx.d[rank - 1] = 1;
    ctx_set(c, "XShape", 0, &xs, x->dtype);
    ctx_set(c, "MatchX", 0, &mx, x->dtype);
  }
  return 0;
}

static int infer_cross_entropy_grad2(OpCtx *c) {
  Var *xs = ctx_need(c, "XShape", 0), *dy = ctx_need(c, "Y@GRAD", 0);
  if (!xs || !dy) return -1;
  if (xs->shape.rank < 1) return ctx_fail(c, "XShape has rank 0");
  Shape x = xs->shape;
  x.rank--;
  ctx_set(c, "X@GRAD", 0, &x, dy->dtype);
  return 0;
}

/* Out (and Residual/Diff when present) = X; used by the element-wise losses. */
static int infer_loss_like_x(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  Var *y = ctx_in(c, "Label", 0) ? ctx_in(c, "Label", 0) : ctx_in(c, "Y", 0);
  if (y && y->shape.rank >= 0 && y->shape.rank != x->shape.rank)
    return ctx_fail(c, "X %s and %s %s differ in rank", shape_str(&x->shape), y->name,
                    shape_str(&y->shape));
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_set(c, "Residual", 0, &x->shape, x->dtype);
  return 0;
}

/* X@GRAD and Y@GRAD of huber_loss (from Residual) and smooth_l1_loss (Diff). */
static int infer_residual_grad(OpCtx *c) {
  const char *src = ctx_nin(c, "Residual") ? "Residual" : "Diff";
  Var *r = ctx_need(c, src, 0);
  if (!r) return -1;
  ctx_set(c, "X@GRAD", 0, &r->shape, r->dtype);
  ctx_set(c, "Y@GRAD", 0, &r->shape, r->dtype);
  return 0;
}

static int infer_smooth_l1(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  if (x->shape.rank < 2) return ctx_fail(c, "X %s must have rank >= 2", shape_str(&x->shape));
  Shape out = {2, {x->shape.d[0], 1}};
  ctx_set(c, "Diff", 0, &x->shape, x->dtype);
  ctx_set(c, "Out", 0, &out, x->dtype);
  return 0;
}

static int infer_log_loss(OpCtx *c) {
  Var *p = ctx_need(c, "Predicted", 0);
  if (!p) return -1;
  if (p->shape.rank != 2) return ctx_fail(c, "Predicted %s must have rank 2", shape_str(&p->shape));
  Shape out = {2, {p->shape.d[0], 1}};
  ctx_set(c, "Loss", 0, &out, p->dtype);
  return 0;
}

/* hinge_loss: Logits and Labels [N, 1] alike -> Loss [N, 1] (HingeLossOp). */
static int infer_hinge_loss(OpCtx *c) {
  Var *x = ctx_need(c, "Logits", 0), *label = ctx_need(c, "Labels", 0);
  if (!x || !label) return -1;
  if (!shape_equal(&x->shape, &label->shape) || x->shape.rank != 2 || x->shape.d[1] != 1)
    return ctx_fail(c, "Logits %s and Labels %s must both be [N, 1]", shape_str(&x->shape), shape_str(&label->shape));
  ctx_set(c, "Loss", 0, &x->shape, x->dtype);
  return 0;
}

/* rank_loss: Label, Left, Right each [N] or [N, 1], one N -> Out in
 * Label's shape (RankLossOp). */
static int infer_rank_loss(OpCtx *c) {
  static const char *const slots[3] = {"Label", "Left", "Right"};
  Var *v[3];
  for (int i = 0; i < 3; i++) {
    if (!(v[i] = ctx_need(c, slots[i], 0))) return -1;
    const Shape *s = &v[i]->shape;
    if (s->rank < 1 || s->rank > 2 || (s->rank == 2 && s->d[1] != 1) || s->d[0] != v[0]->shape.d[0])
      return ctx_fail(c, "%s %s must be [N] or [N, 1], N the Label's", slots[i], shape_str(s));
  }
  ctx_set(c, "Out", 0, &v[0]->shape, v[1]->dtype);
  return 0;
}

static int infer_kldiv(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  if (strcmp(attr_str(c->op, "reduction", "mean"), "none") == 0) {
    ctx_set(c, "Loss", 0, &x->shape, x->dtype);
  } else {
    Shape s = shape_scalar(c);
    ctx_set(c, "Loss", 0, &s, x->dtype);
  }
  return 0;
}

/* ---- C emission (float32 and float64) ----
 * Each emitter fills a record (the cross-entropy family: CeCall,
 * ce_call.h; the element-wise losses: LossCall, loss_call.h) whose printer
 * prints C written for float32 through tu_pr_to, which respells it
 * for the op's dtype (double, log, exp, ...): the float32 code is unchanged
 * and the float64 code runs the same operations in the same order.
 * Tensors are viewed as [n, c, r] around the class axis (n: dims before
 * it, c: the classes, r: dims after it); a hard label (int32 or int64) is
 * [n, 1, r].  A hard label other than ignore_index outside [0, c), for
 * which Paddle raises an error, stops the forward run (em_fault); the
 * gradients, which run after it, take it as ignored. */

#define LABEL_FAULT "a Label is outside [0, the class count) and not ignore_index (Paddle raises an error)"

/* Label's C element type for the hard labels, NULL after em_fail(). */
static const char *hard_label_type(EmitCtx *e, const Var *label) {
  if (label->dtype != RT_DT_INT64 && label->dtype != RT_DT_INT32)
    return em_fail(e, "a hard Label of %s is not supported (int32 or int64)", rt_dtype_name(label->dtype)), NULL;
  return em_ctype(label->dtype);
}

/* The class axis of v (softmax_with_cross_entropy's `axis`, else the last):
 * n, c and r of the record; -1 after em_fail(). */
static int ncr(EmitCtx *e, const Var *v, int64_t axis_attr, CeCall *call) {
  int rank = em_spec(e, v)->rank, axis = axis_norm(axis_attr, rank);
  if (axis < 0 || rank == 0) return em_fail(e, "axis %lld is out of range", (long long)axis_attr);
  call->n = em_prod(e, v, 0, axis), call->c = em_dim(e, v, axis), call->r = em_prod(e, v, axis + 1, rank);
  return axis;
}

/* v (bound to `slot`) must have the op's element dtype dt, float32 or
 * float64 (Paddle's CPU kernels of these ops take float and double). */
static int check_ft(EmitCtx *e, int dt, const Var *v, const char *slot) {
  if (dt != RT_DT_FP32 && dt != RT_DT_FP64)
    return em_fail(e, "%s of %s is not supported (float32 or float64)", slot, rt_dtype_name(v->dtype));
  if (v->dtype != dt)
    return em_fail(e, "%s of %s does not match the op's %s", slot, rt_dtype_name(v->dtype), rt_dtype_name(dt));
  return 0;
}

/* The record's label fields from the op's soft_label and ignore_index and
 * the Label tensor: -1 after em_fail (a hard label that is not an
 * integer). */
static int ce_label(EmitCtx *e, int soft, const Var *label, CeCall *call) {
  call->soft = soft;
  call->ignore_index = attr_int(e->op, "ignore_index", -100);
  call->label = em_ptr(e, label, 1);
  if (soft) return 0;
  call->label_type = hard_label_type(e, label);
  return call->label_type ? 0 : -1;
}

/* softmax_with_cross_entropy: Softmax = softmax(Logits) over axis, or
 * Logits itself when use_softmax is off; Loss from the label (ce_call.h
 * CE_SOFTMAX_LOSS). */
static int emit_softmax_ce(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "Logits", 0), *label = ctx_in(&c, "Label", 0);
  Var *sm = ctx_out(&c, "Softmax", 0), *loss = ctx_out(&c, "Loss", 0);
  if (!x || !label || !sm || !loss) return em_fail(e, "needs Logits, Label, Softmax and Loss");
  const int dt = x->dtype, soft = attr_bool(e->op, "soft_label", 0);
  if (check_ft(e, dt, x, "Logits") || check_ft(e, dt, sm, "Softmax") || check_ft(e, dt, loss, "Loss") ||
      (soft && check_ft(e, dt, label, "a soft Label")))
    return -1;
  CeCall call = {.kind = CE_SOFTMAX_LOSS, .dtype = dt, .use_softmax = attr_bool(e->op, "use_softmax", 1),
                 .x = em_ptr(e, x, 1), .sm = em_ptr(e, sm, 0), .loss = em_ptr(e, loss, 0)};
  if (ce_label(e, soft, label, &call) || ncr(e, x, attr_int(e->op, "axis", -1), &call) < 0) return -1;
  if (!soft) em_fault(e, LABEL_FAULT);
  const VarSpec *xs = em_spec(e, x); /* lengths the run gives: Label's must be Logits' (infer_softmax_ce) */
  for (int d = 0; d < xs->rank; d++)
    if (xs->runtime_mask >> d & 1)
      tu_run_equal(e, label, x, em_dim(e, label, d), em_dim(e, x, d),
                   pool_printf("Label ('%s') and Logits ('%s') differ in dim %d (Paddle raises)", label->name,
                               x->name, d));
  Var *bp = ctx_out(&c, "Backprop", 0);
  if (bp) tu_pass_extent(e, x, bp);
  ce_print_c(e->p, &call);
  return 0;
}

/* softmax_with_cross_entropy_grad: Logits@GRAD from Softmax, Label and
 * Loss@GRAD (ce_call.h CE_SOFTMAX_GRAD). */
static int emit_softmax_ce_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *label = ctx_in(&c, "Label", 0), *sm = ctx_in(&c, "Softmax", 0), *dloss = ctx_in(&c, "Loss@GRAD", 0);
  Var *dx = ctx_out(&c, "Logits@GRAD", 0);
  if (!label || !sm || !dloss || !dx) return em_fail(e, "needs Label, Softmax, Loss@GRAD and Logits@GRAD");
  const int dt = sm->dtype, soft = attr_bool(e->op, "soft_label", 0);
  if (check_ft(e, dt, sm, "Softmax") || check_ft(e, dt, dloss, "Loss@GRAD") || check_ft(e, dt, dx, "Logits@GRAD") ||
      (soft && check_ft(e, dt, label, "a soft Label")))
    return -1;
  CeCall call = {.kind = CE_SOFTMAX_GRAD, .dtype = dt, .use_softmax = attr_bool(e->op, "use_softmax", 1),
                 .sm = em_ptr(e, sm, 1), .dloss = em_ptr(e, dloss, 1), .dx = em_ptr(e, dx, 0)};
  if (ce_label(e, soft, label, &call) || ncr(e, sm, attr_int(e->op, "axis", -1), &call) < 0) return -1;
  ce_print_c(e->p, &call);
  return 0;
}

/* cross_entropy and cross_entropy2 (hard labels only; MatchX kept for its
 * grad): X as [n, c] after folding the leading dims (ce_call.h CE_LOSS). */
static int emit_cross_entropy(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *label = ctx_in(&c, "Label", 0), *y = ctx_out(&c, "Y", 0);
  Var *mx = ctx_out(&c, "MatchX", 0);
  if (!x || !label || !y) return em_fail(e, "needs X, Label and Y");
  const int dt = x->dtype, soft = strcmp(e->op->type, "cross_entropy2") && attr_bool(e->op, "soft_label", 0);
  if (check_ft(e, dt, x, "X") || check_ft(e, dt, y, "Y") || (mx && check_ft(e, dt, mx, "MatchX")) ||
      (soft && check_ft(e, dt, label, "a soft Label")))
    return -1;
  const int rank = em_spec(e, x)->rank;
  CeCall call = {.kind = CE_LOSS, .dtype = dt, .n = em_prod(e, x, 0, rank - 1), .c = em_dim(e, x, rank - 1),
                 .x = em_ptr(e, x, 1), .loss = em_ptr(e, y, 0), .mx = mx ? em_ptr(e, mx, 0) : NULL};
  if (ce_label(e, soft, label, &call)) return -1;
  if (!soft) em_fault(e, LABEL_FAULT);
  ce_print_c(e->p, &call);
  return 0;
}

/* cross_entropy_grad and cross_entropy_grad2 (which reads MatchX instead
 * of X): X@GRAD as [n, c] (ce_call.h CE_GRAD). */
static int emit_cross_entropy_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  const int v2 = !strcmp(e->op->type, "cross_entropy_grad2");
  Var *x = ctx_in(&c, v2 ? "MatchX" : "X", 0), *label = ctx_in(&c, "Label", 0), *dy = ctx_in(&c, "Y@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0);
  if (!x || !label || !dy || !dx) return em_fail(e, "needs %s, Label, Y@GRAD and X@GRAD", v2 ? "MatchX" : "X");
  const int dt = x->dtype, soft = !v2 && attr_bool(e->op, "soft_label", 0);
  if (check_ft(e, dt, x, v2 ? "MatchX" : "X") || check_ft(e, dt, dy, "Y@GRAD") || check_ft(e, dt, dx, "X@GRAD") ||
      (soft && check_ft(e, dt, label, "a soft Label")))
    return -1;
  const int rank = em_spec(e, dx)->rank;
  CeCall call = {.kind = CE_GRAD, .dtype = dt, .match_x = v2, .n = em_prod(e, dx, 0, rank - 1),
                 .c = em_dim(e, dx, rank - 1), .x = em_ptr(e, x, 1), .dloss = em_ptr(e, dy, 1),
                 .dx = em_ptr(e, dx, 0)};
  if (ce_label(e, soft, label, &call)) return -1;
  ce_print_c(e->p, &call);
  return 0;
}

/* numeric_stable_mode: Paddle 2.6's CPU kernels take the softmax, then the
 * log, whatever it says (the grad's parameter is UNUSED). */
static const char *const softmax_ce_attr_ignores[] = {"numeric_stable_mode", NULL};
/* cross_entropy_grad2: XShape only gives X@GRAD's shape (its rule). */
static const char *const ce_grad2_ignores[] = {"XShape", NULL};

const OpDef op_softmax_with_cross_entropy = {.type = "softmax_with_cross_entropy",
                                             .infer = infer_softmax_ce,
                                             .emit_c = emit_softmax_ce,
                                             .attr_ignores = softmax_ce_attr_ignores,
                                             .runtime_extents = 2};
const OpDef op_softmax_with_cross_entropy_grad = {.type = "softmax_with_cross_entropy_grad",
                                                  .infer = infer_softmax_ce_grad,
                                                  .emit_c = emit_softmax_ce_grad,
                                                  .inplace = "Softmax:Logits@GRAD",
                                                  .attr_ignores = softmax_ce_attr_ignores,
                                                  .runtime_extents = 2};
const OpDef op_cross_entropy = {.type = "cross_entropy", .infer = infer_cross_entropy, .emit_c = emit_cross_entropy};
const OpDef op_cross_entropy_grad = {.type = "cross_entropy_grad", .infer = grad_infer,
                                     .emit_c = emit_cross_entropy_grad};
const OpDef op_cross_entropy2 = {.type = "cross_entropy2", .infer = infer_cross_entropy, .emit_c = emit_cross_entropy};
const OpDef op_cross_entropy_grad2 = {.type = "cross_entropy_grad2",
                                      .infer = infer_cross_entropy_grad2,
                                      .emit_c = emit_cross_entropy_grad,
                                      .ignores = ce_grad2_ignores};
/* ---- element-wise losses (float32 and float64) ----
 * Each reads its inputs element by element in memory order; the label-like
 * inputs must have X's element count.  The emitters check the tensors and
 * fill a LossCall (loss_call.h), taking the buffers in the order the
 * kernel declares them; loss_print_c prints the loops. */

/* 1 when a and b hold as many elements. */
static int same_numel(EmitCtx *e, const Var *a, const Var *b) {
  SymDim na = spec_numel(em_spec(e, a)), nb = spec_numel(em_spec(e, b));
  if (na.a < 0 || nb.a < 0) return !strcmp(em_numel(e, a), em_numel(e, b));
  return na.a == nb.a && na.c == nb.c;
}

/* Checks that v (bound to `slot`) has x's dtype (float32 or float64) and
 * element count, then sets *ptr to v's buffer (read).  -1 after
 * em_fail(). */
static int in_ptr(EmitCtx *e, const Var *v, const char *slot, const Var *x, const char **ptr) {
  if (check_ft(e, x->dtype, v, slot)) return -1;
  if (v != x && !same_numel(e, v, x)) return em_fail(e, "%s and the loss's input differ in element count", slot);
  *ptr = em_ptr(e, v, 1);
  return 0;
}

/* As in_ptr, for an output (written). */
static int out_ptr(EmitCtx *e, const Var *v, const char *slot, const Var *x, const char **ptr) {
  if (check_ft(e, x->dtype, v, slot)) return -1;
  if (!same_numel(e, v, x)) return em_fail(e, "%s and the loss's input differ in element count", slot);
  *ptr = em_ptr(e, v, 0);
  return 0;
}

/* sigmoid_cross_entropy_with_logits (phi SigmoidCrossEntropyWithLogitsKernel)
 * and its grad, as Paddle 2.6's CPU kernels compute them, with w =
 * pos_weight (1 when absent):
 *   Out    = max(x, 0) - x * label + log(1 + exp(-|x|)) * w
 *   X@GRAD = Out@GRAD * (w * sigmoid(x) - label)
 * (the grad is not the forward's derivative where x < 0 and w != 1: that
 * is Paddle's).  The grad reads each element of Out@GRAD before writing the
 * same element of X@GRAD (in place, as Paddle's op declares it).  An element whose label, cast to int, is ignore_index gets
 * 0.  normalize divides every element by the int count of labels farther
 * than 1e-6 from ignore_index (0 / 0 = NaN when every label is ignored, as
 * Paddle's int division by a count floored to (int)1e-5 gives). */
static int emit_sigmoid_ce(EmitCtx *e) {
  int grad = strstr(e->op->type, "_grad") != NULL;
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *label = ctx_in(&c, "Label", 0), *pw = ctx_in(&c, "pos_weight", 0);
  Var *dout = grad ? ctx_in(&c, "Out@GRAD", 0) : NULL;
  Var *out = ctx_out(&c, grad ? "X@GRAD" : "Out", 0);
  if (!x || !label || !out || (grad && !dout))
    return em_fail(e, grad ? "needs X, Label, Out@GRAD and X@GRAD" : "needs X, Label and Out");
  LossCall call = {.kind = grad ? LOSS_SIGMOID_CE_GRAD : LOSS_SIGMOID_CE, .dtype = x->dtype,
                   .normalize = attr_bool(e->op, "normalize", 0), .ignore_index = attr_int(e->op, "ignore_index", -100)};
  if (in_ptr(e, x, "X", x, &call.x) || in_ptr(e, label, "Label", x, &call.label) ||
      (pw && in_ptr(e, pw, "pos_weight", x, &call.pw)) || (dout && in_ptr(e, dout, "Out@GRAD", x, &call.dout)) ||
      out_ptr(e, out, grad ? "X@GRAD" : "Out", x, &call.out))
    return -1;
  call.n = em_numel(e, x);
  loss_print_c(e->p, &call);
  return 0;
}

/* bce_loss (phi BCELossKernel) and its grad on probabilities x in [0, 1]
 * (Paddle raises an error outside; here they just go through the formula):
 *   Out    = (label - 1) * max(log(1 - x), -100) - label * max(log(x), -100)
 *   X@GRAD = Out@GRAD * (x - label) / max((1 - x) * x, 1e-12)
 * (the grad may run in place of Out@GRAD, as Paddle's op declares). */
static int emit_bce_loss(EmitCtx *e) {
  int grad = strstr(e->op->type, "_grad") != NULL;
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *label = ctx_in(&c, "Label", 0);
  Var *dout = grad ? ctx_in(&c, "Out@GRAD", 0) : NULL;
  Var *out = ctx_out(&c, grad ? "X@GRAD" : "Out", 0);
  if (!x || !label || !out || (grad && !dout))
    return em_fail(e, grad ? "needs X, Label, Out@GRAD and X@GRAD" : "needs X, Label and Out");
  LossCall call = {.kind = grad ? LOSS_BCE_GRAD : LOSS_BCE, .dtype = x->dtype};
  if (in_ptr(e, x, "X", x, &call.x) || in_ptr(e, label, "Label", x, &call.label) ||
      (dout && in_ptr(e, dout, "Out@GRAD", x, &call.dout)) || out_ptr(e, out, grad ? "X@GRAD" : "Out", x, &call.out))
    return -1;
  call.n = em_numel(e, x);
  loss_print_c(e->p, &call);
  return 0;
}

/* huber_loss (phi HuberLossKernel): Residual = y - x, Out = 0.5 * r * r
 * where |r| <= delta, delta * (|r| - 0.5 * delta) elsewhere. */
static int emit_huber_loss(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *y = ctx_in(&c, "Y", 0), *out = ctx_out(&c, "Out", 0);
  Var *res = ctx_out(&c, "Residual", 0);
  if (!x || !y || !out) return em_fail(e, "needs X, Y and Out");
  LossCall call = {.kind = LOSS_HUBER, .dtype = x->dtype, .delta = (float)attr_float(e->op, "delta", 1.0)};
  if (in_ptr(e, x, "X", x, &call.x) || in_ptr(e, y, "Y", x, &call.y) || out_ptr(e, out, "Out", x, &call.out) ||
      (res && out_ptr(e, res, "Residual", x, &call.res)))
    return -1;
  call.n = em_numel(e, x);
  loss_print_c(e->p, &call);
  return 0;
}

/* huber_loss_grad (phi HuberLossGradKernel), with b = r where |r| <= delta,
 * else delta with r's sign: X@GRAD = Out@GRAD * -b, Y@GRAD = Out@GRAD * b. */
static int emit_huber_loss_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *res = ctx_in(&c, "Residual", 0), *dout = ctx_in(&c, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *dy = ctx_out(&c, "Y@GRAD", 0);
  if (!res || !dout) return em_fail(e, "needs Residual and Out@GRAD");
  LossCall call = {.kind = LOSS_HUBER_GRAD, .dtype = res->dtype, .delta = (float)attr_float(e->op, "delta", 1.0)};
  if (in_ptr(e, res, "Residual", res, &call.res) || in_ptr(e, dout, "Out@GRAD", res, &call.dout) ||
      (dx && out_ptr(e, dx, "X@GRAD", res, &call.dx)) || (dy && out_ptr(e, dy, "Y@GRAD", res, &call.dy)))
    return -1;
  call.n = em_numel(e, res);
  loss_print_c(e->p, &call);
  return 0;
}

/* The inside and outside weights of smooth_l1_loss(_grad): both (the
 * record's iw and ow set, each with d's element count) or neither. */
static int smooth_l1_weights(EmitCtx *e, const Var *d, LossCall *call) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *iw = ctx_nin(&c, "InsideWeight") ? ctx_in(&c, "InsideWeight", 0) : NULL;
  Var *ow = ctx_nin(&c, "OutsideWeight") ? ctx_in(&c, "OutsideWeight", 0) : NULL;
  if (!iw != !ow) return em_fail(e, "InsideWeight and OutsideWeight come together or not at all (Paddle's rule)");
  if (!iw) return 0;
  return in_ptr(e, iw, "InsideWeight", d, &call->iw) || in_ptr(e, ow, "OutsideWeight", d, &call->ow) ? -1 : 0;
}

/* smooth_l1_loss (fluid SmoothL1LossKernel), s2 = sigma * sigma, rows the
 * first dim of X:
 *   Diff = (X - Y) * InsideWeight
 *   Out[r] = sum over the row of f(Diff) * OutsideWeight, with
 *   f(v) = 0.5 * v * v * s2 where |v| < 1 / s2, |v| - 0.5 / s2 elsewhere.
 * Sums go along the row in order. */
static int emit_smooth_l1_loss(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *y = ctx_in(&c, "Y", 0), *diff = ctx_out(&c, "Diff", 0), *out = ctx_out(&c, "Out", 0);
  if (!x || !y || !diff || !out) return em_fail(e, "needs X, Y, Diff and Out");
  const int dt = RT_DT_FP32; /* Paddle 2.5+ has no smooth_l1_loss kernel to match a float64 one against */
  if (x->dtype != dt)
    return em_fail(e, "X of %s is not supported (float32 only: no Paddle 2.5+ kernel to match)", rt_dtype_name(x->dtype));
  LossCall call = {.kind = LOSS_SMOOTH_L1, .dtype = dt, .sigma = (float)attr_float(e->op, "sigma", 1.0)};
  if (in_ptr(e, x, "X", x, &call.x) || in_ptr(e, y, "Y", x, &call.y) || smooth_l1_weights(e, x, &call) ||
      out_ptr(e, diff, "Diff", x, &call.diff) || check_ft(e, dt, out, "Out"))
    return -1;
  call.out = em_ptr(e, out, 0);
  call.rows = em_dim(e, x, 0), call.cols = em_prod(e, x, 1, x->shape.rank);
  loss_print_c(e->p, &call);
  return 0;
}

/* smooth_l1_loss_grad (fluid SmoothL1LossGradKernel): with f'(v) = s2 * v
 * where |v| < 1 / s2, else v's sign, g = Out@GRAD[r] * (InsideWeight *
 * OutsideWeight) * f'(Diff): X@GRAD = g, Y@GRAD = -g. */
static int emit_smooth_l1_loss_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *diff = ctx_in(&c, "Diff", 0), *dout = ctx_in(&c, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *dy = ctx_out(&c, "Y@GRAD", 0);
  if (!diff || !dout) return em_fail(e, "needs Diff and Out@GRAD");
  const int dt = RT_DT_FP32; /* as smooth_l1_loss */
  if (diff->dtype != dt)
    return em_fail(e, "Diff of %s is not supported (float32 only: no Paddle 2.5+ kernel to match)",
                   rt_dtype_name(diff->dtype));
  if (diff->shape.rank < 2) return em_fail(e, "Diff %s must have rank >= 2", shape_str(&diff->shape));
  LossCall call = {.kind = LOSS_SMOOTH_L1_GRAD, .dtype = dt, .sigma = (float)attr_float(e->op, "sigma", 1.0)};
  if (in_ptr(e, diff, "Diff", diff, &call.diff) || smooth_l1_weights(e, diff, &call) ||
      check_ft(e, dt, dout, "Out@GRAD") || (dx && out_ptr(e, dx, "X@GRAD", diff, &call.dx)) ||
      (dy && out_ptr(e, dy, "Y@GRAD", diff, &call.dy)))
    return -1;
  SymDim rows = em_spec(e, dout)->d[0], n = em_sym_prod(e, dout, 0, dout->shape.rank);
  if (dout->shape.rank != 2 || n.a != rows.a || n.c != rows.c || rows.a != em_spec(e, diff)->d[0].a ||
      rows.c != em_spec(e, diff)->d[0].c)
    return em_fail(e, "Out@GRAD %s must be [rows of Diff, 1]", shape_str(&dout->shape));
  call.dout = em_ptr(e, dout, 1);
  call.rows = em_dim(e, diff, 0), call.cols = em_prod(e, diff, 1, diff->shape.rank);
  loss_print_c(e->p, &call);
  return 0;
}

/* A float32 loss of a prediction and a label, element by element, or its
 * grad (the op type ends in _grad): slot `pred` and Labels in, Loss out;
 * the grad's Loss@GRAD in, pred@GRAD out.  Paddle 2.6 registers log_loss
 * and hinge_loss (and their grads) for float only. */
static int emit_pred_loss(EmitCtx *e, const char *pred, LossKind kind, LossKind grad_kind, float epsilon) {
  int grad = strstr(e->op->type, "_grad") != NULL;
  OpCtx c = {e->g, (Op *)e->op};
  const char *dpred = pool_printf("%s@GRAD", pred);
  Var *p = ctx_in(&c, pred, 0), *label = ctx_in(&c, "Labels", 0);
  Var *dout = grad ? ctx_in(&c, "Loss@GRAD", 0) : NULL;
  Var *out = ctx_out(&c, grad ? dpred : "Loss", 0);
  if (!p || !label || (grad && !dout)) return em_fail(e, "needs %s, Labels%s", pred, grad ? " and Loss@GRAD" : "");
  if (!out) return grad ? 0 : em_fail(e, "needs Loss"); /* a grad nobody wants computes nothing */
  if (p->dtype != RT_DT_FP32)
    return em_fail(e, "%s of %s is not supported (float32, as Paddle's kernel)", pred, rt_dtype_name(p->dtype));
  LossCall call = {.kind = grad ? grad_kind : kind, .dtype = RT_DT_FP32, .epsilon = epsilon};
  if (in_ptr(e, p, pred, p, &call.p) || in_ptr(e, label, "Labels", p, &call.label) ||
      (dout && in_ptr(e, dout, "Loss@GRAD", p, &call.dout)) || out_ptr(e, out, grad ? dpred : "Loss", p, &call.out))
    return -1;
  call.n = em_numel(e, p);
  loss_print_c(e->p, &call);
  return 0;
}

/* log_loss (phi LogLossKernel) and its grad, p = Predicted, l = Labels:
 *   Loss            = -(l * log(p + eps)) - (1 - l) * log(1 - p + eps)
 *   Predicted@GRAD  = Loss@GRAD * (-(l / (p + eps)) + (1 - l) / (1 - p + eps)) */
static int emit_log_loss(EmitCtx *e) {
  return emit_pred_loss(e, "Predicted", LOSS_LOG, LOSS_LOG_GRAD, (float)attr_float(e->op, "epsilon", 1e-4));
}

/* hinge_loss and its grad (fluid HingeLossKernel, HingeLossGradKernel),
 * x = Logits, label = Labels (0 or 1). */
static int emit_hinge_loss(EmitCtx *e) { return emit_pred_loss(e, "Logits", LOSS_HINGE, LOSS_HINGE_GRAD, 0.0f); }

/* rank_loss and its grad (fluid RankLossKernel, RankLossGradKernel; float
 * only), element by element over the N pairs. */
static int emit_rank_loss(EmitCtx *e) {
  const int grad = strstr(e->op->type, "_grad") != NULL;
  OpCtx c = {e->g, (Op *)e->op};
  Var *label = ctx_in(&c, "Label", 0), *x = ctx_in(&c, "Left", 0), *y = ctx_in(&c, "Right", 0);
  Var *dout = grad ? ctx_in(&c, "Out@GRAD", 0) : NULL;
  if (!label || !x || !y || (grad && !dout)) return em_fail(e, "needs Label, Left, Right%s", grad ? ", Out@GRAD" : "");
  if (x->dtype != RT_DT_FP32)
    return em_fail(e, "Left of %s is not supported (float32, as Paddle's rank_loss kernel)", rt_dtype_name(x->dtype));
  LossCall call = {.kind = grad ? LOSS_RANK_GRAD : LOSS_RANK, .dtype = RT_DT_FP32};
  if (in_ptr(e, x, "Left", x, &call.x) || in_ptr(e, y, "Right", x, &call.y) ||
      in_ptr(e, label, "Label", x, &call.label) || (dout && in_ptr(e, dout, "Out@GRAD", x, &call.dout)))
    return -1;
  if (grad) {
    Var *dx = ctx_out(&c, "Left@GRAD", 0), *dy = ctx_out(&c, "Right@GRAD", 0);
    if ((dx && out_ptr(e, dx, "Left@GRAD", x, &call.dx)) || (dy && out_ptr(e, dy, "Right@GRAD", x, &call.dy)))
      return -1;
    if (!dx && !dy) return 0;
  } else {
    Var *out = ctx_out(&c, "Out", 0);
    if (!out) return em_fail(e, "needs Out");
    if (out_ptr(e, out, "Out", x, &call.out)) return -1;
  }
  call.n = em_numel(e, x);
  loss_print_c(e->p, &call);
  return 0;
}

/* kldiv_loss's reduction: 0 none, 1 mean, 2 sum, 3 batchmean; -1 after
 * em_fail().  Paddle 2.6 has no log_target (a later release's attribute):
 * it is refused when set. */
static int kldiv_reduction(EmitCtx *e) {
  static const char *const names[] = {"none", "mean", "sum", "batchmean"};
  if (attr_bool(e->op, "log_target", 0)) return em_fail(e, "log_target=true is not supported");
  const char *r = attr_str(e->op, "reduction", "mean");
  for (int i = 0; i < 4; i++)
    if (!strcmp(r, names[i])) return i;
  return em_fail(e, "reduction '%s' is not supported (none, mean, sum, batchmean)", r);
}

/* kldiv_loss (phi KLDivLossKernel): per element t * (log(t) - x) where the
 * target t > 0, else 0; reduction none keeps them, sum adds them (in
 * double, in memory order), mean divides the sum by the element count,
 * batchmean by X's first dim (when it is > 0). */
static int emit_kldiv_loss(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *t = ctx_in(&c, "Target", 0), *loss = ctx_out(&c, "Loss", 0);
  if (!x || !t || !loss) return em_fail(e, "needs X, Target and Loss");
  const int dt = x->dtype;
  LossCall call = {.kind = LOSS_KLDIV, .dtype = dt, .reduction = kldiv_reduction(e)};
  if (call.reduction < 0 || in_ptr(e, x, "X", x, &call.x) || in_ptr(e, t, "Target", x, &call.t) ||
      check_ft(e, dt, loss, "Loss"))
    return -1;
  if (call.reduction == 0 && !same_numel(e, loss, x)) return em_fail(e, "Loss and X differ in element count");
  if (call.reduction != 0 && strcmp(em_numel(e, loss), "1")) return em_fail(e, "a reduced Loss must hold one element");
  call.loss = em_ptr(e, loss, 0);
  call.n = em_numel(e, x);
  if (call.reduction == 3) call.batch = em_spec(e, x)->rank > 0 ? em_dim(e, x, 0) : "1";
  loss_print_c(e->p, &call);
  return 0;
}

/* kldiv_loss_grad (phi KLDivLossGradKernel): X@GRAD = -t * g where t > 0,
 * else 0, g the element's Loss@GRAD (the one value for a reduced loss);
 * mean then divides by the element count, batchmean by X's first dim.  X
 * itself only gives X@GRAD's shape (its rule). */
static int emit_kldiv_loss_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *t = ctx_in(&c, "Target", 0), *dout = ctx_in(&c, "Loss@GRAD", 0), *dx = ctx_out(&c, "X@GRAD", 0);
  if (!t || !dout || !dx) return em_fail(e, "needs Target, Loss@GRAD and X@GRAD");
  const int dt = dx->dtype;
  LossCall call = {.kind = LOSS_KLDIV_GRAD, .dtype = dt, .reduction = kldiv_reduction(e)};
  if (call.reduction < 0 || in_ptr(e, t, "Target", dx, &call.t) || out_ptr(e, dx, "X@GRAD", dx, &call.dx) ||
      check_ft(e, dt, dout, "Loss@GRAD"))
    return -1;
  call.dout_scalar = !strcmp(em_numel(e, dout), "1");
  if (!call.dout_scalar && !same_numel(e, dout, dx))
    return em_fail(e, "Loss@GRAD must hold one value or one per element");
  call.dout = em_ptr(e, dout, 1);
  call.n = em_numel(e, dx);
  if (call.reduction == 3) call.batch = em_spec(e, dx)->rank > 0 ? em_dim(e, dx, 0) : "1";
  loss_print_c(e->p, &call);
  return 0;
}

/* kldiv_loss_grad: X only gives X@GRAD's shape (the generic rule). */
static const char *const kldiv_grad_ignores[] = {"X", NULL};

const OpDef op_sigmoid_cross_entropy_with_logits = {.type = "sigmoid_cross_entropy_with_logits",
                                                    .infer = infer_loss_like_x,
                                                    .emit_c = emit_sigmoid_ce};
const OpDef op_sigmoid_cross_entropy_with_logits_grad = {.type = "sigmoid_cross_entropy_with_logits_grad",
                                                         .infer = grad_infer,
                                                         .emit_c = emit_sigmoid_ce,
                                                         .inplace = "Out@GRAD:X@GRAD"};
const OpDef op_bce_loss = {.type = "bce_loss", .infer = infer_loss_like_x, .emit_c = emit_bce_loss};
const OpDef op_bce_loss_grad = {.type = "bce_loss_grad",
                                .infer = grad_infer,
                                .emit_c = emit_bce_loss,
                                .inplace = "Out@GRAD:X@GRAD"};
const OpDef op_huber_loss = {.type = "huber_loss", .infer = infer_loss_like_x, .emit_c = emit_huber_loss};
const OpDef op_huber_loss_grad = {.type = "huber_loss_grad",
                                  .infer = infer_residual_grad,
                                  .emit_c = emit_huber_loss_grad};
const OpDef op_smooth_l1_loss = {.type = "smooth_l1_loss", .infer = infer_smooth_l1, .emit_c = emit_smooth_l1_loss};
const OpDef op_smooth_l1_loss_grad = {.type = "smooth_l1_loss_grad",
                                      .infer = infer_residual_grad,
                                      .emit_c = emit_smooth_l1_loss_grad};
const OpDef op_rank_loss = {.type = "rank_loss", .infer = infer_rank_loss, .emit_c = emit_rank_loss};
const OpDef op_rank_loss_grad = {.type = "rank_loss_grad", .infer = grad_infer, .emit_c = emit_rank_loss};
const OpDef op_hinge_loss = {.type = "hinge_loss", .infer = infer_hinge_loss, .emit_c = emit_hinge_loss};
const OpDef op_hinge_loss_grad = {.type = "hinge_loss_grad", .infer = grad_infer, .emit_c = emit_hinge_loss};
const OpDef op_log_loss = {.type = "log_loss", .infer = infer_log_loss, .emit_c = emit_log_loss};
const OpDef op_log_loss_grad = {.type = "log_loss_grad", .infer = grad_infer, .emit_c = emit_log_loss};
const OpDef op_kldiv_loss = {.type = "kldiv_loss", .infer = infer_kldiv, .emit_c = emit_kldiv_loss};
const OpDef op_kldiv_loss_grad = {.type = "kldiv_loss_grad",
                                  .infer = grad_infer,
                                  .emit_c = emit_kldiv_loss_grad,
                                  .ignores = kldiv_grad_ignores};

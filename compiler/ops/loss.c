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
 *   accuracy: Out, Indices, Label -> Accuracy, Correct, Total, each [1]; dtypes
 *     are as declared before Paddle 2.3 (float32, int32, int32), Out's since
 *     (phi AccuracyInferMeta).
 *   sigmoid_cross_entropy_with_logits: X, Label, pos_weight† -> Out = X;
 *     normalize=false, ignore_index=-100.
 *   bce_loss: X, Label -> Out = X.
 *   huber_loss: X, Y -> Out, Residual = X; delta.
 *   huber_loss_grad: Residual, Out@GRAD -> X@GRAD, Y@GRAD = Residual.
 *   smooth_l1_loss: X, Y, InsideWeight†, OutsideWeight† -> Diff = X,
 *     Out = [X[0], 1]; sigma=1.
 *   smooth_l1_loss_grad: InsideWeight†, OutsideWeight†, Diff, Out@GRAD ->
 *     X@GRAD, Y@GRAD = Diff.
 *   log_loss: Predicted, Labels -> Loss = [Predicted[0], 1]; epsilon=1e-4.
 *   kldiv_loss: X, Target -> Loss = X when reduction == "none", else a
 *     scalar; reduction="mean", log_target=false. */
#include <string.h>

#include "ops.h"

/* Paddle 2.3 moved accuracy to phi, whose InferMeta gives every output the
 * dtype of Out; 1.x-2.2 left the declared dtypes. */
#define PADDLE_PHI_ACCURACY 2003000

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
  return 0;
}

static int infer_softmax_ce_grad(OpCtx *c) {
  Var *sm = ctx_need(c, "Softmax", 0);
  if (!sm) return -1;
  ctx_set(c, "Logits@GRAD", 0, &sm->shape, sm->dtype);
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

static int infer_accuracy(OpCtx *c) {
  Var *out = ctx_need(c, "Out", 0), *label = ctx_need(c, "Label", 0);
  if (!out || !label || !ctx_need(c, "Indices", 0)) return -1;
  if (label->shape.rank != 2)
    return ctx_fail(c, "Label %s must have rank 2", shape_str(&label->shape));
  Shape one = shape_scalar(c);
  int phi = c->g->version >= PADDLE_PHI_ACCURACY || c->g->version == 0;
  const char *slots[] = {"Accuracy", "Correct", "Total"};
  for (int i = 0; i < 3; i++) {
    Var *o = ctx_out(c, slots[i], 0);
    if (o) ctx_set(c, slots[i], 0, &one, phi ? out->dtype : o->dtype);
  }
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

const OpDef op_softmax_with_cross_entropy = {.type = "softmax_with_cross_entropy",
                                             .infer = infer_softmax_ce};
const OpDef op_softmax_with_cross_entropy_grad = {.type = "softmax_with_cross_entropy_grad",
                                                  .infer = infer_softmax_ce_grad};
const OpDef op_cross_entropy = {.type = "cross_entropy", .infer = infer_cross_entropy};
const OpDef op_cross_entropy2 = {.type = "cross_entropy2", .infer = infer_cross_entropy};
const OpDef op_cross_entropy_grad2 = {.type = "cross_entropy_grad2",
                                      .infer = infer_cross_entropy_grad2};
const OpDef op_accuracy = {.type = "accuracy", .infer = infer_accuracy};
const OpDef op_sigmoid_cross_entropy_with_logits = {.type = "sigmoid_cross_entropy_with_logits",
                                                    .infer = infer_loss_like_x};
const OpDef op_bce_loss = {.type = "bce_loss", .infer = infer_loss_like_x};
const OpDef op_huber_loss = {.type = "huber_loss", .infer = infer_loss_like_x};
const OpDef op_huber_loss_grad = {.type = "huber_loss_grad", .infer = infer_residual_grad};
const OpDef op_smooth_l1_loss = {.type = "smooth_l1_loss", .infer = infer_smooth_l1};
const OpDef op_smooth_l1_loss_grad = {.type = "smooth_l1_loss_grad", .infer = infer_residual_grad};
const OpDef op_log_loss = {.type = "log_loss", .infer = infer_log_loss};
const OpDef op_kldiv_loss = {.type = "kldiv_loss", .infer = infer_kldiv};

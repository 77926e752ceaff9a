/* 1.x GRU ops on LoD sequences (fluid.layers.dynamic_gru, gru_unit).
 *
 *   gru: Input [T, 3D] (LoD), H0† [N, D], Weight [D, 3D], Bias† [1, 3D] ->
 *     BatchGate [T, 3D], BatchResetHiddenPrev [T, D], BatchHidden [T, D],
 *     Hidden [T, D].  activation="tanh", gate_activation="sigmoid",
 *     is_reverse=false, origin_mode=false.  D = Weight.dims[0] (GRUOp).
 *   gru_unit: Input [N, 3D], HiddenPrev [N, D], Weight [D, 3D], Bias† [1, 3D]
 *     -> Gate [N, 3D], ResetHiddenPrev [N, D], Hidden [N, D].
 *     activation:INT=2 (tanh), gate_activation:INT=1 (sigmoid) (0 identity,
 *     1 sigmoid, 2 tanh, 3 relu), origin_mode=false.  D = HiddenPrev.dims[1]. */
#include "ops.h"

/* Weight [D, 3D] and an optional Bias [1, 3D]. */
static int check_weights(OpCtx *c, int64_t frame) {
  Var *w = ctx_need(c, "Weight", 0);
  if (!w) return -1;
  if (w->shape.rank != 2 || w->shape.d[0] != frame || w->shape.d[1] != 3 * frame)
    return ctx_fail(c, "Weight %s must be [%lld, %lld]", shape_str(&w->shape), (long long)frame,
                    (long long)(3 * frame));
  Var *b = ctx_in(c, "Bias", 0);
  if (b && (b->shape.rank != 2 || b->shape.d[0] != 1 || b->shape.d[1] != 3 * frame))
    return ctx_fail(c, "Bias %s must be [1, %lld]", shape_str(&b->shape), (long long)(3 * frame));
  return 0;
}

static int infer_gru(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0), *w = ctx_need(c, "Weight", 0);
  if (!x || !w) return -1;
  if (x->shape.rank != 2 || w->shape.rank != 2)
    return ctx_fail(c, "Input %s and Weight %s must have rank 2", shape_str(&x->shape),
                    shape_str(&w->shape));
  int64_t frame = w->shape.d[0];
  if (check_weights(c, frame)) return -1;
  Var *h0 = ctx_in(c, "H0", 0);
  if (h0 && (h0->shape.rank != 2 || h0->shape.d[1] != frame))
    return ctx_fail(c, "H0 %s must have width %lld", shape_str(&h0->shape), (long long)frame);
  Shape h = {2, {x->shape.d[0], frame}};
  ctx_set(c, "BatchGate", 0, &x->shape, x->dtype);
  ctx_set(c, "BatchResetHiddenPrev", 0, &h, x->dtype);
  ctx_set(c, "BatchHidden", 0, &h, x->dtype);
  ctx_set(c, "Hidden", 0, &h, x->dtype);
  return 0;
}

static int infer_gru_unit(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0), *hp = ctx_need(c, "HiddenPrev", 0);
  if (!x || !hp) return -1;
  if (x->shape.rank != 2 || hp->shape.rank != 2)
    return ctx_fail(c, "Input %s and HiddenPrev %s must have rank 2", shape_str(&x->shape),
                    shape_str(&hp->shape));
  int64_t frame = hp->shape.d[1];
  if (x->shape.d[1] >= 0 && x->shape.d[1] != 3 * frame)
    return ctx_fail(c, "Input width %lld must be 3 * %lld", (long long)x->shape.d[1],
                    (long long)frame);
  if (check_weights(c, frame)) return -1;
  Shape gate = {2, {x->shape.d[0], 3 * frame}}, h = {2, {x->shape.d[0], frame}};
  ctx_set(c, "Gate", 0, &gate, x->dtype);
  ctx_set(c, "ResetHiddenPrev", 0, &h, x->dtype);
  ctx_set(c, "Hidden", 0, &h, x->dtype);
  return 0;
}

const OpDef op_gru = {.type = "gru", .infer = infer_gru};
const OpDef op_gru_unit = {.type = "gru_unit", .infer = infer_gru_unit};

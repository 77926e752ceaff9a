/* Binary element-wise ops with Paddle's `axis` broadcasting (spec 7.2).
 *   elementwise_add, _sub, _mul, _div, _max, _min, _pow, _mod, _floordiv,
 *   _fmax, _fmin, _heaviside
 *   inputs:  X, Y
 *   outputs: Out (X's dtype)
 *   attrs:   axis:INT=-1; extra (ignored for shapes): use_mkldnn,
 *            x_data_format, y_data_format, use_quantizer, mkldnn_data_type,
 *            Scale_x=1, Scale_y=1, Scale_out=1, act ("" in fused variants)
 * Shape rule (phi ElementwiseRawInferMeta, the same since Paddle 1.8's
 * broadcasting InferShape): identical shapes pass through; otherwise a
 * negative axis becomes |rank(X) - rank(Y)| + axis + 1, the lower-rank
 * operand is padded with 1s around position `axis`, and each dim pair gives
 *   max(a, b) when either is > 1 or both are 1, else -1
 * (so -1 against 1, and 0 against 0 or 1, are unknown at compile time). */
#include "ops.h"

static int infer_elementwise(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  Shape out;
  if (shape_broadcast(c, &x->shape, &y->shape, attr_int(c->op, "axis", -1), &out)) return -1;
  ctx_set(c, "Out", 0, &out, x->dtype);
  return 0;
}

#define OP_ELEMENTWISE(name) const OpDef op_##name = {.type = #name, .infer = infer_elementwise};
OP_ELEMENTWISE(elementwise_add)
OP_ELEMENTWISE(elementwise_div)
OP_ELEMENTWISE(elementwise_floordiv)
OP_ELEMENTWISE(elementwise_fmax)
OP_ELEMENTWISE(elementwise_fmin)
OP_ELEMENTWISE(elementwise_heaviside)
OP_ELEMENTWISE(elementwise_max)
OP_ELEMENTWISE(elementwise_min)
OP_ELEMENTWISE(elementwise_mod)
OP_ELEMENTWISE(elementwise_mul)
OP_ELEMENTWISE(elementwise_pow)
OP_ELEMENTWISE(elementwise_sub)

/* cumsum: X -> Out; axis:INT=-1, flatten:BOOLEAN=false,
 * exclusive:BOOLEAN=false, reverse:BOOLEAN=false.
 * Out has X's dims and dtype; with flatten it is 1-D of product(X.dims),
 * where phi CumInferMeta multiplies unknown dims in as -1 (so [-1, 3, 4]
 * gives [-12], as Paddle writes into the VarDesc). */
#include "ops.h"

static int infer_cumsum(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  Shape s = x->shape;
  if (attr_bool(c->op, "flatten", 0)) {
    int64_t p = 1;
    for (int i = 0; i < x->shape.rank; i++) p *= x->shape.d[i];
    s = (Shape){1, {p}};
  } else if (s.rank > 0) {
    int64_t axis = attr_int(c->op, "axis", -1);
    if (axis < -s.rank || axis >= s.rank)
      return ctx_fail(c, "axis %lld is out of range for X %s", (long long)axis, shape_str(&s));
  }
  ctx_set(c, "Out", 0, &s, x->dtype);
  return 0;
}

const OpDef op_cumsum = {.type = "cumsum", .infer = infer_cumsum};

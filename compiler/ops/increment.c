/* increment: X (one element) -> Out = X + step; step:FLOAT=1.
 * Out has X's dims and dtype (Out is usually X itself, a loop counter). */
#include "ops.h"

static int infer_increment(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t n = shape_numel(&x->shape);
  if (n > 1) return ctx_fail(c, "X %s must hold one element", shape_str(&x->shape));
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  return 0;
}

const OpDef op_increment = {.type = "increment", .infer = infer_increment};

/* assign, assign_value, share_data.
 *   assign: X -> Out, a copy (X's dims and dtype).  A LoDTensorArray X has
 *     no shape to give.
 *   assign_value: -> Out; shape:INTS, dtype:INT=5, and the data in one of
 *     bool_values:INTS, fp32_values:FLOATS, int32_values:INTS,
 *     int64_values:LONGS (2.6+: values:SCALARS).  Out = shape, dtype.
 *   share_data: X -> Out, X's dims and dtype. */
#include "ops.h"

static int infer_assign(OpCtx *c) {
  Var *x = ctx_in(c, "X", 0);
  if (x && x->vtype == VT_LOD_TENSOR_ARRAY) return 0;
  x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  return 0;
}

static int infer_assign_value(OpCtx *c) {
  int64_t *v;
  int n = attr_ints(c->op, "shape", &v);
  if (n > RT_MAX_RANK) return ctx_fail(c, "attribute shape has %d dims", n);
  Shape s = shape_make(n, v);
  ctx_set(c, "Out", 0, &s, (int)attr_int(c->op, "dtype", RT_DT_FP32));
  return 0;
}

const OpDef op_assign = {.type = "assign", .infer = infer_assign};
const OpDef op_assign_value = {.type = "assign_value", .infer = infer_assign_value};
const OpDef op_share_data = {.type = "share_data", .infer = infer_assign};

/* cast: X -> Out; in_dtype:INT, out_dtype:INT (VarType codes); extra
 * use_mkldnn.  Out has X's dims and dtype out_dtype. */
#include "ops.h"

static int infer_cast(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  if (!attr_has(c->op, "out_dtype")) return ctx_fail(c, "attribute out_dtype is missing");
  ctx_set(c, "Out", 0, &x->shape, (int)attr_int(c->op, "out_dtype", RT_DT_FP32));
  return 0;
}

const OpDef op_cast = {.type = "cast", .infer = infer_cast};

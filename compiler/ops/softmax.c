/* softmax, log_softmax: X -> Out, same shape and dtype (Paddle
 * SoftmaxInferMeta / LogSoftmaxInferMeta).
 *   attrs: axis=-1 (negative counts from the end; very old files may lack it,
 *          meaning the last dim); softmax extra: data_format, use_cudnn,
 *          use_mkldnn, mkldnn_data_type, is_test.
 * The axis must lie in [-rank, rank) ([-1, 0] for a 0-D X). */
#include "ops.h"

static int infer_softmax(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t axis = attr_int(c->op, "axis", -1);
  int rank = x->shape.rank;
  if (rank == 0 ? (axis < -1 || axis > 0) : axis_norm(axis, rank) < 0)
    return ctx_fail(c, "axis %lld is out of range for X %s", (long long)axis, shape_str(&x->shape));
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  return 0;
}

const OpDef op_softmax = {.type = "softmax", .infer = infer_softmax};
const OpDef op_log_softmax = {.type = "log_softmax", .infer = infer_softmax};

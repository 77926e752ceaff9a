/* Normalizations.
 * batch_norm, sync_batch_norm (Paddle BatchNormOp::InferShape):
 *   inputs:  X (rank 2..5), Scale, Bias, Mean, Variance, MomentumTensor?
 *   outputs: Y (X's shape and dtype), MeanOut, VarianceOut ([C], in place of
 *            Mean/Variance), SavedMean, SavedVariance ([C], intermediate),
 *            ReserveSpace? ([-1], dtype of X)
 *   attrs:   epsilon=1e-5, momentum=0.9, data_layout="NCHW", is_test=false,
 *            use_global_stats=false, trainable_statistics=false;
 *            extra use_mkldnn, fuse_with_relu.
 *   C is X.dims[1] when data_layout parses as NCHW, else the last dim (so
 *   "NHWC" and also "AnyLayout" read the last dim, as Paddle does).  In test
 *   mode (is_test and not trainable_statistics) Paddle leaves SavedMean and
 *   SavedVariance untouched, so this rule does too.
 * layer_norm: X, Scale?, Bias? -> Y (X), Mean, Variance (intermediate)
 *   attrs: epsilon=1e-5, begin_norm_axis=1; extra is_test, use_mkldnn, mkldnn_data_type.
 *   Mean/Variance: X.dims[:begin_norm_axis] since Paddle 2.6; before, one dim
 *   holding the product of those dims, taken literally (-1 dims multiply in).
 * instance_norm: X, Scale?, Bias? -> Y (X), SavedMean, SavedVariance [N*C]
 *   (the literal product, so -C for an unknown batch); attrs: epsilon=1e-5.
 * group_norm: X, Scale?, Bias? -> Y (X), Mean, Variance [N, groups]
 *   attrs: epsilon=1e-5, groups=-1, data_layout="NCHW".
 * Statistics of float16/bfloat16 inputs are float32 (Paddle's param_type). */
#include <strings.h>

#include "ops.h"

/* Paddle's parameter dtype for statistics: float32 for half inputs. */
static int norm_param_dtype(int dtype) {
  return (dtype == RT_DT_FP16 || dtype == RT_DT_BF16) ? RT_DT_FP32 : dtype;
}

static int infer_batch_norm(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  if (xs->rank < 2 || xs->rank > 5)
    return ctx_fail(c, "X has rank %d (shape %s), expected 2 to 5", xs->rank, shape_str(xs));
  int nchw = strcasecmp(attr_str(c->op, "data_layout", "NCHW"), "NCHW") == 0;
  int64_t ch = nchw ? xs->d[1] : xs->d[xs->rank - 1];
  Var *scale = ctx_in(c, "Scale", 0);
  if (scale && scale->shape.rank == 1 && scale->shape.d[0] > 0 && ch > 0 && scale->shape.d[0] != ch)
    return ctx_fail(c, "Scale %s does not match the %lld channels of X %s",
                    shape_str(&scale->shape), (long long)ch, shape_str(xs));
  Var *mean = ctx_in(c, "Mean", 0);
  int stat_dtype = mean ? mean->dtype : norm_param_dtype(x->dtype);
  Shape cs = {1, {ch}};
  ctx_set(c, "Y", 0, xs, x->dtype);
  ctx_set(c, "MeanOut", 0, &cs, stat_dtype);
  ctx_set(c, "VarianceOut", 0, &cs, stat_dtype);
  if (!(attr_bool(c->op, "is_test", 0) && !attr_bool(c->op, "trainable_statistics", 0))) {
    ctx_set(c, "SavedMean", 0, &cs, stat_dtype);
    ctx_set(c, "SavedVariance", 0, &cs, stat_dtype);
  }
  Shape rs = {1, {DIM_UNKNOWN}};
  ctx_set(c, "ReserveSpace", 0, &rs, x->dtype);
  return 0;
}

static int infer_layer_norm(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  int64_t axis = attr_int(c->op, "begin_norm_axis", 1);
  if (axis <= 0 || axis >= xs->rank)
    return ctx_fail(c, "begin_norm_axis %lld is out of range for X %s", (long long)axis,
                    shape_str(xs));
  Shape ms;
  int64_t v = c->g->version;
  if (v >= 2006000 || (v <= 0 && c->g->zero_d)) {
    ms = shape_make((int)axis, xs->d);
  } else {
    int64_t left = 1; /* flatten_to_2d's product: unknown dims multiply in */
    for (int i = 0; i < axis; i++) left *= xs->d[i];
    ms = (Shape){1, {(int32_t)left}};
  }
  int pd = norm_param_dtype(x->dtype);
  ctx_set(c, "Y", 0, xs, x->dtype);
  ctx_set(c, "Mean", 0, &ms, pd);
  ctx_set(c, "Variance", 0, &ms, pd);
  return 0;
}

static int infer_instance_norm(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  if (xs->rank < 2 || xs->rank > 5)
    return ctx_fail(c, "X has rank %d (shape %s), expected 2 to 5", xs->rank, shape_str(xs));
  Shape ms = {1, {xs->d[0] * xs->d[1]}}; /* literal N*C, as Paddle computes it */
  int pd = norm_param_dtype(x->dtype);
  ctx_set(c, "Y", 0, xs, x->dtype);
  ctx_set(c, "SavedMean", 0, &ms, pd);
  ctx_set(c, "SavedVariance", 0, &ms, pd);
  return 0;
}

static int infer_group_norm(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  if (xs->rank < 2) return ctx_fail(c, "X has rank %d, expected at least 2", xs->rank);
  int nchw = strcasecmp(attr_str(c->op, "data_layout", "NCHW"), "NCHW") == 0;
  int64_t ch = nchw ? xs->d[1] : xs->d[xs->rank - 1];
  int64_t groups = attr_int(c->op, "groups", -1);
  if (ch > 0 && (groups < 1 || groups > ch || ch % groups))
    return ctx_fail(c, "groups %lld does not divide the %lld channels of X", (long long)groups,
                    (long long)ch);
  Shape ms = {2, {xs->d[0], groups}};
  int pd = norm_param_dtype(x->dtype);
  ctx_set(c, "Y", 0, xs, x->dtype);
  ctx_set(c, "Mean", 0, &ms, pd);
  ctx_set(c, "Variance", 0, &ms, pd);
  return 0;
}

const OpDef op_batch_norm = {.type = "batch_norm", .infer = infer_batch_norm};
const OpDef op_sync_batch_norm = {.type = "sync_batch_norm", .infer = infer_batch_norm};
const OpDef op_layer_norm = {.type = "layer_norm", .infer = infer_layer_norm};
const OpDef op_instance_norm = {.type = "instance_norm", .infer = infer_instance_norm};
const OpDef op_group_norm = {.type = "group_norm", .infer = infer_group_norm};

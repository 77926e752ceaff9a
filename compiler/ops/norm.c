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
 * Statistics of float16/bfloat16 inputs are float32 (Paddle's param_type).
 *
 * C emission (fp32): batch_norm in inference only (is_test or
 * use_global_stats, without trainable_statistics) -> rt_batch_norm (Scale
 * and Bias are optional, as in Paddle's kernel: 1 and 0);
 * layer_norm -> rt_layer_norm; instance_norm and group_norm (channel first)
 * -> rt_group_norm; group_norm with data_layout NHWC runs it on a
 * channel-first copy in scratch.  The statistics that Paddle's inference
 * kernels compute are written when the program reads or fetches them:
 * layer_norm's and group_norm's Mean and Variance (biased, without
 * epsilon), instance_norm's SavedMean and SavedVariance (1 / sqrt(variance
 * + epsilon), as phi's InstanceNormKernel stores it).  batch_norm writes
 * only Y (MeanOut and VarianceOut are its Mean and Variance in inference;
 * SavedMean, SavedVariance and ReserveSpace serve training), so a program
 * reading those is refused (codegen_model.c, check_outputs). */
#include <string.h>
#include <strings.h>

#include "../util.h"
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

/* ---- C emission ---- */

/* An optional fp32 per-channel input with n elements: its pointer, or "NULL". */
static const char *param_ptr(EmitCtx *e, const char *slot, int64_t n, int *bad) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *v = ctx_in(&c, slot, 0);
  if (!v) return "NULL";
  SymDim k = spec_numel(em_spec(e, v));
  if (v->dtype != RT_DT_FP32 || k.a != 0 || k.c != n) {
    *bad = em_fail(e, "%s must be float32 with %lld elements", slot, (long long)n);
    return "NULL";
  }
  return em_ptr(e, v, 1);
}

/* A statistics output (layer_norm's Mean, group_norm's Variance, ...) with
 * `n` elements: its pointer when the program reads or fetches it, else
 * "NULL" (the kernel skips it, and the emitted code of programs that do not
 * read their statistics stays as it was). */
static const char *stat_ptr(EmitCtx *e, const char *slot, SymDim n, int *bad) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *v = ctx_out(&c, slot, 0);
  if (!v || (!v->nusers && !(v->flags & VAR_FETCH))) return "NULL";
  const VarSpec *vs = em_spec(e, v);
  SymDim k = vs->known ? spec_numel(vs) : (SymDim){-1, -1};
  if (v->dtype != RT_DT_FP32 || k.a != n.a || k.c != n.c) {
    *bad = em_fail(e, "output %s must be float32 with %s elements", slot, em_sym(n));
    return "NULL";
  }
  return em_ptr(e, v, 0);
}

int op_bn_running_stats(const Op *op) {
  /* Paddle: test_mode = is_test && !trainable_statistics (trainable_statistics
   * makes even an is_test batch_norm use its batch's statistics);
   * global_stats = test_mode || use_global_stats.  Both read always. */
  int test = attr_bool(op, "is_test", 0), trainable = attr_bool(op, "trainable_statistics", 0);
  int global = attr_bool(op, "use_global_stats", 0);
  if (!((test && !trainable) || global)) return 0;
  attr_superseded(op, "momentum"); /* only the running statistics' update in training reads it */
  return 1;
}

static int emit_batch_norm(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *y = ctx_out(&c, "Y", 0);
  if (!x || !y) return em_fail(e, "missing X or Y");
  if (x->dtype != RT_DT_FP32) return em_fail(e, "batch_norm of %s tensors is not supported", rt_dtype_name(x->dtype));
  if (!op_bn_running_stats(e->op))
    return em_fail(e, "batch_norm in training mode (batch statistics) is not supported: set is_test");
  int rank = em_spec(e, x)->rank;
  int nchw = strcasecmp(attr_str(e->op, "data_layout", "NCHW"), "NCHW") == 0;
  int ci = nchw ? 1 : rank - 1; /* channel dim, as the shape rule reads it */
  int64_t ch = em_const_dim(e, x, ci);
  if (ch < 0) return em_fail(e, "the channel dim must not depend on the batch");
  int bad = 0;
  const char *sc = param_ptr(e, "Scale", ch, &bad), *bi = param_ptr(e, "Bias", ch, &bad);
  const char *mean = param_ptr(e, "Mean", ch, &bad), *var = param_ptr(e, "Variance", ch, &bad);
  if (bad) return -1;
  if (!strcmp(mean, "NULL") || !strcmp(var, "NULL")) return em_fail(e, "Mean and Variance are required");
  pr_line(e->p, "rt_batch_norm(%s, %s, %s, %s, %s, %s, %s, %s, %lld, %s);", em_ptr(e, x, 1), em_ptr(e, y, 0), sc, bi,
          mean, var, em_float(attr_float(e->op, "epsilon", 1e-5)), em_prod(e, x, 0, ci), (long long)ch,
          em_prod(e, x, ci + 1, rank));
  return 0;
}

static int emit_layer_norm(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *y = ctx_out(&c, "Y", 0);
  if (!x || !y) return em_fail(e, "missing X or Y");
  if (x->dtype != RT_DT_FP32) return em_fail(e, "layer_norm of %s tensors is not supported", rt_dtype_name(x->dtype));
  int rank = em_spec(e, x)->rank, axis = (int)attr_int(e->op, "begin_norm_axis", 1);
  if (axis <= 0 || axis >= rank) return em_fail(e, "begin_norm_axis out of range");
  SymDim cols = {0, 1};
  for (int i = axis; i < rank; i++) {
    SymDim d = em_spec(e, x)->d[i];
    if (d.a) return em_fail(e, "the normalized dims must not depend on the batch");
    cols.c *= d.c;
  }
  int bad = 0;
  const char *sc = param_ptr(e, "Scale", cols.c, &bad), *bi = param_ptr(e, "Bias", cols.c, &bad);
  const SymDim rows = spec_prod(em_spec(e, x), 0, axis);
  const char *mean = stat_ptr(e, "Mean", rows, &bad), *var = stat_ptr(e, "Variance", rows, &bad);
  if (bad) return -1;
  pr_line(e->p, "rt_layer_norm(%s, %s, %s, %s, %s, %s, %lld, %s, %s);", em_ptr(e, x, 1), em_ptr(e, y, 0), sc, bi,
          em_float(attr_float(e->op, "epsilon", 1e-5)), em_prod(e, x, 0, axis), (long long)cols.c, mean, var);
  return 0;
}

/* instance_norm (groups = channels) and group_norm over channel-first X. */
static int emit_group_norm(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *y = ctx_out(&c, "Y", 0);
  if (!x || !y) return em_fail(e, "missing X or Y");
  if (x->dtype != RT_DT_FP32) return em_fail(e, "%s of %s tensors is not supported", e->op->type, rt_dtype_name(x->dtype));
  int rank = em_spec(e, x)->rank, inst = !strcmp(e->op->type, "instance_norm");
  if (rank < 2) return em_fail(e, "X must have rank >= 2");
  const char *layout = inst ? "NCHW" : attr_str(e->op, "data_layout", "NCHW");
  const int last = !strcasecmp(layout, "NHWC");
  if (!last && strcasecmp(layout, "NCHW"))
    return em_fail(e, "data_layout '%s' is not supported (NCHW or NHWC)", layout);
  int64_t ch = em_const_dim(e, x, last ? rank - 1 : 1);
  if (ch < 0) return em_fail(e, "the channel dim must not depend on the batch");
  int64_t groups = inst ? ch : attr_int(e->op, "groups", -1);
  if (groups < 1 || ch % groups) return em_fail(e, "groups %lld does not divide %lld channels", (long long)groups, (long long)ch);
  int bad = 0;
  const char *sc = param_ptr(e, "Scale", ch, &bad), *bi = param_ptr(e, "Bias", ch, &bad);
  /* statistics per image and group, [N, groups] (instance_norm: [N * C]) */
  const SymDim nb = em_spec(e, x)->d[0], ng = {nb.a * groups, nb.c * groups};
  const char *mean = stat_ptr(e, inst ? "SavedMean" : "Mean", ng, &bad);
  const char *var = inst ? "NULL" : stat_ptr(e, "Variance", ng, &bad);
  const char *inv_std = inst ? stat_ptr(e, "SavedVariance", ng, &bad) : "NULL";
  if (bad) return -1;
  const char *xp = em_ptr(e, x, 1), *yp = em_ptr(e, y, 0), *batch = em_dim(e, x, 0);
  const char *inner = em_prod(e, x, last ? 1 : 2, last ? rank - 1 : rank);
  if (last) { /* channel last: normalized as channel first in scratch, in place */
    const SymDim n = spec_numel(em_spec(e, x));
    pr_line(e->p, "float *t = (float *)%s;", em_scratch(e, (SymDim){n.a * 4, n.c * 4}));
    pr_line(e->p, "rt_nhwc_to_nchw(%s, t, %s, %s, %lld);", xp, batch, inner, (long long)ch);
    xp = yp = "t";
  }
  pr_line(e->p, "rt_group_norm(%s, %s, %s, %s, %s, %s, %lld, %lld, %s, %s, %s, %s);", xp, yp, sc, bi,
          em_float(attr_float(e->op, "epsilon", 1e-5)), batch, (long long)ch, (long long)groups, inner, mean, var,
          inv_std);
  if (last) pr_line(e->p, "rt_nchw_to_nhwc(t, %s, %s, %lld, %s);", em_ptr(e, y, 0), batch, (long long)ch, inner);
  return 0;
}

/* MomentumTensor sets the momentum of the running statistics' update, which
 * only training mode makes: paddlec compiles batch_norm in inference mode
 * alone (emit_batch_norm and fold_batch_norm refuse batch statistics), where
 * MeanOut and VarianceOut are Mean and Variance unchanged. */
static const char *const bn_ignores[] = {"MomentumTensor", NULL};
const OpDef op_batch_norm = {.type = "batch_norm", .infer = infer_batch_norm, .emit_c = emit_batch_norm,
                             .ignores = bn_ignores};
const OpDef op_sync_batch_norm = {.type = "sync_batch_norm", .infer = infer_batch_norm, .emit_c = emit_batch_norm,
                                  .ignores = bn_ignores};
const OpDef op_layer_norm = {.type = "layer_norm", .infer = infer_layer_norm, .emit_c = emit_layer_norm};
const OpDef op_instance_norm = {.type = "instance_norm", .infer = infer_instance_norm, .emit_c = emit_group_norm};
const OpDef op_group_norm = {.type = "group_norm", .infer = infer_group_norm, .emit_c = emit_group_norm};

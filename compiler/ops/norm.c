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
 *   SavedVariance untouched, so this rule does too (except while
 *   specializing: see infer_batch_norm).
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
 * C emission (float32 and float64: Paddle's CPU kernels register float and
 * double for all of these and their grads; a float64 norm's parameters and
 * statistics are float64 and its kernels the _f64 ones, the same steps
 * computed in double, under sync_batch_norm and channel last too):
 * batch_norm with its running
 * statistics (is_test or use_global_stats, without trainable_statistics)
 * -> rt_batch_norm (Scale
 * and Bias are optional, as in Paddle's kernel: 1 and 0), with its batch's
 * statistics (training) -> rt_batch_norm_train, which also writes
 * SavedMean, SavedVariance (the inverse std) and MeanOut / VarianceOut
 * (the running statistics updated with momentum, in place);
 * layer_norm -> rt_layer_norm; instance_norm and group_norm (channel first)
 * -> rt_group_norm; group_norm with data_layout NHWC runs it on a
 * channel-first copy in scratch.  The statistics that Paddle's inference
 * kernels compute are written when the program reads or fetches them:
 * layer_norm's and group_norm's Mean and Variance (biased, without
 * epsilon), instance_norm's SavedMean and SavedVariance (1 / sqrt(variance
 * + epsilon), as phi's InstanceNormKernel stores it).  batch_norm with the
 * running statistics writes only Y (MeanOut and VarianceOut are its Mean
 * and Variance then; SavedMean and SavedVariance, which Paddle leaves
 * unwritten then, get zeros when read, by a grad op); ReserveSpace is
 * cuDNN's and empty here.
 *
 * Gradients (float32 and float64, the grad ops' OpDefs are here):
 * batch_norm_grad, layer_norm_grad, group_norm_grad, instance_norm_grad,
 * each following its phi CPU kernel (see each emitter). */
#include <string.h>
#include <strings.h>

#include "../util.h"
#include "norm_call.h"
#include "ops.h"
#include "tensor_util.h"

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
  /* while specializing they are [C] in test mode too: paddlec's kernel
   * writes them (zeros) when a grad op binds them */
  if (!(attr_bool(c->op, "is_test", 0) && !attr_bool(c->op, "trainable_statistics", 0)) || c->g->specializing) {
    ctx_set(c, "SavedMean", 0, &cs, stat_dtype);
    ctx_set(c, "SavedVariance", 0, &cs, stat_dtype);
  }
  /* ReserveSpace is cuDNN's workspace: [-1] in the program; while
   * specializing, empty (Paddle's CPU kernels neither write nor read it,
   * nor do paddlec's) */
  Shape rs = {1, {c->g->specializing ? 0 : DIM_UNKNOWN}};
  ctx_set(c, "ReserveSpace", 0, &rs, x->dtype);
  /* dims the run gives (a feed bounded by --max-shape): Y has X's
   * extents; the batch's statistics are over the run's elements of each
   * channel (the kernels' counts are the run's) */
  if (!var_runtime_mask(x)) return 0;
  if (var_runtime_mask(x) >> (nchw ? 1 : xs->rank - 1) & 1)
    return ctx_fail(c, "X ('%s') has dims only the run knows; batch_norm takes them only with a channel dim fixed "
                    "at compile time", x->name);
  ctx_pass_runtime_extent(c, x, "Y", 0);
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
  /* dims the run gives (tokens of an image) among the rows: Y, Mean and
   * Variance have them; among the normalized dims (F.layer_norm(x,
   * x.shape[1:]) of a sequence): Y only, without Scale or Bias (whose
   * length would be the run's) */
  const unsigned run = var_runtime_mask(x);
  if (!run) return 0;
  if (run >> axis && (ctx_in(c, "Scale", 0) || ctx_in(c, "Bias", 0)))
    return ctx_fail(c, "X ('%s') has dims only the run knows after begin_norm_axis, where layer_norm's Scale and "
                    "Bias would need the run's length", x->name);
  if (run & ((1u << axis) - 1) && ms.rank != axis) /* before Paddle 2.6, Mean and Variance are the rows flattened */
    return ctx_fail(c, "X ('%s') has dims only the run knows; layer_norm takes them before begin_norm_axis only "
                    "in a program of Paddle 2.6 or later", x->name);
  int to[RT_MAX_RANK]; /* the rows' extents: Mean's and Variance's */
  for (int d = 0; d < RT_MAX_RANK; d++) to[d] = d < axis ? d : -1;
  ctx_pass_runtime_extent(c, x, "Y", 0);
  ctx_pass_runtime_extents_to(c, x, "Mean", 0, to);
  ctx_pass_runtime_extents_to(c, x, "Variance", 0, to);
  return 0;
}

/* Y of instance_norm or group_norm takes the dims of X the run gives,
 * but not the channel's (dim ch), which the statistics and Scale count. */
static int spatial_run_dims(OpCtx *c, const Var *x, int ch) {
  if (var_runtime_mask(x) >> ch & 1)
    return ctx_fail(c, "the channel dim of X ('%s') is only known at run time (from its %s); %s takes run-time "
                    "sizes in the other dims", x->name, x->runtime_from ? x->runtime_from : "inputs", c->op->type);
  ctx_pass_runtime_extent(c, x, "Y", 0);
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
  return spatial_run_dims(c, x, 1);
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
  return spatial_run_dims(c, x, nchw ? 1 : xs->rank - 1);
}

/* ---- C emission ---- */

/* 1 when `v` holds an element type the kernels take: float32, or float64
 * (Paddle's CPU kernels of every norm here and of its grad register float
 * and double; the double ones compute in double, as rt_norm_t.h does). */
static int norm_type_ok(const Var *v) { return v->dtype == RT_DT_FP32 || v->dtype == RT_DT_FP64; }

/* The element type of the op being emitted: its X's (group_norm_grad's Y's
 * when it has no X); a float64 norm's parameters and statistics are
 * float64 too (Paddle's param_type is T but for half types). */
static int norm_elem_dtype(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  const Var *x = ctx_in(&c, "X", 0);
  if (!x) x = ctx_in(&c, "Y", 0);
  return x && x->dtype == RT_DT_FP64 ? RT_DT_FP64 : RT_DT_FP32;
}

/* An optional per-channel input of the op's element type with n elements:
 * its pointer, or "NULL". */
static const char *param_ptr(EmitCtx *e, const char *slot, int64_t n, int *bad) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *v = ctx_in(&c, slot, 0);
  if (!v) return "NULL";
  SymDim k = spec_numel(em_spec(e, v));
  const int dt = norm_elem_dtype(e);
  if (v->dtype != dt || k.a != 0 || k.c != n) {
    *bad = em_fail(e, "%s must be %s with %lld elements", slot, rt_dtype_name(dt), (long long)n);
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
  const int dt = norm_elem_dtype(e);
  if (v->dtype != dt || k.a != n.a || k.c != n.c) {
    *bad = em_fail(e, "output %s must be %s with %s elements", slot, rt_dtype_name(dt), em_sym(n));
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

/* A statistics slot of batch_norm (of the op's element type) with ch
 * elements (input when `in`, else output): the var, or NULL after em_fail
 * when missing or mis-shaped. */
static Var *bn_stat(EmitCtx *e, const char *slot, int in, int64_t ch) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *v = in ? ctx_in(&c, slot, 0) : ctx_out(&c, slot, 0);
  SymDim k = v ? spec_numel(em_spec(e, v)) : (SymDim){-1, -1};
  const int dt = norm_elem_dtype(e);
  if (!v || v->dtype != dt || k.a != 0 || k.c != ch) {
    em_fail(e, "%s must be a %s tensor of %lld elements", slot, rt_dtype_name(dt), (long long)ch);
    return NULL;
  }
  return v;
}

/* The float64 var of `n` elements bound to slot `slot` (paddlec's, on a
 * batch_norm or its grad under sync_batch_norm), NULL when there is none,
 * BAD_SUMS after em_fail. */
static const Var bad_sums;
#define BAD_SUMS (&bad_sums)
static const Var *bn_sums(EmitCtx *e, const char *slot, int64_t n) {
  OpCtx c = {e->g, (Op *)e->op};
  const Var *v = ctx_in(&c, slot, 0);
  if (!v) return NULL;
  if (v->dtype != RT_DT_FP64 || em_spec(e, v)->rank != 1 || em_const_dim(e, v, 0) != n) {
    em_fail(e, "%s must be float64 [%lld]", slot, (long long)n);
    return BAD_SUMS;
  }
  return v;
}

/* batch_norm with its batch's statistics (phi BatchNormKernel, global_stats
 * false): rt_batch_norm_train writes Y, SavedMean, SavedVariance (the
 * inverse standard deviation) and MeanOut / VarianceOut, the running
 * statistics updated with the `momentum` attribute (in place: they are
 * Mean and Variance in Paddle's programs). */
static int emit_batch_norm_train(EmitCtx *e, const Var *x, const Var *y, int ci, int64_t ch, const char *sc,
                                 const char *bi) {
  const Var *mean = bn_stat(e, "Mean", 1, ch), *var = bn_stat(e, "Variance", 1, ch);
  const Var *mo = bn_stat(e, "MeanOut", 0, ch), *vo = bn_stat(e, "VarianceOut", 0, ch);
  const Var *sm = bn_stat(e, "SavedMean", 0, ch), *sv = bn_stat(e, "SavedVariance", 0, ch);
  if (!mean || !var || !mo || !vo || !sm || !sv) return -1;
  const int rank = em_spec(e, x)->rank;
  /* sync_batch_norm on places: every place's sums (sync_batch_norm.c) */
  const Var *sums = bn_sums(e, "Sums", 2 * ch + 1);
  if (sums == BAD_SUMS) return -1;
  const int f64 = x->dtype == RT_DT_FP64;
  norm_print_c(e->p, &(NormCall){.kind = NORM_BATCH_TRAIN, .f64 = f64, .outer = em_prod(e, x, 0, ci), .c = ch,
                                  .inner = em_prod(e, x, ci + 1, rank),
                                  .eps = em_float(attr_float(e->op, "epsilon", 1e-5)),
                                  .momentum = em_float(attr_float(e->op, "momentum", 0.9)), .x = em_ptr(e, x, 1),
                                  .y = em_ptr(e, y, 0), .scale = sc, .bias = bi, .mean = em_ptr(e, mean, 1),
                                  .var = em_ptr(e, var, 1), .sums = sums ? em_ptr(e, sums, 1) : NULL,
                                  .mean_out = em_ptr(e, mo, 0), .var_out = em_ptr(e, vo, 0),
                                  .saved_mean = em_ptr(e, sm, 0), .saved_inv_std = em_ptr(e, sv, 0)});
  return 0;
}

/* 1 when every op that reads var v (besides the current op and fetches)
 * is a batch_norm_grad with the running statistics, which does not read
 * it, and there is one. */
static int read_by_global_grads(EmitCtx *e, const Var *v) {
  int n = 0;
  for (int u = 0; u < v->nusers; u++) {
    const Op *r = &e->g->ops[v->users[u]];
    if (v->users[u] == e->op_id || r->removed || !strcmp(r->type, "fetch")) continue;
    if (strcmp(r->type, "batch_norm_grad") || !(attr_bool(r, "is_test", 0) || attr_bool(r, "use_global_stats", 0)))
      return 0;
    n++;
  }
  return n > 0;
}

/* The channel dim of batch_norm's X (and its grad's) as phi reads
 * data_layout: NCHW (a rank-2 X reads the same either way) or NHWC; -1
 * after em_fail for another layout. */
static int bn_channel_dim(EmitCtx *e, int rank) {
  const char *layout = attr_str(e->op, "data_layout", "NCHW");
  if (!strcasecmp(layout, "NCHW")) return 1;
  if (!strcasecmp(layout, "NHWC")) return rank - 1;
  return em_fail(e, "data_layout '%s' is not supported (NCHW or NHWC)", layout);
}

static int emit_batch_norm(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *y = ctx_out(&c, "Y", 0);
  if (!x || !y) return em_fail(e, "missing X or Y");
  if (!norm_type_ok(x)) return em_fail(e, "batch_norm of %s tensors is not supported", rt_dtype_name(x->dtype));
  const int running = op_bn_running_stats(e->op);
  int rank = em_spec(e, x)->rank;
  int nchw = strcasecmp(attr_str(e->op, "data_layout", "NCHW"), "NCHW") == 0;
  int ci = nchw ? 1 : rank - 1; /* channel dim, as the shape rule reads it */
  if (!running && bn_channel_dim(e, rank) < 0) return -1;
  int64_t ch = em_const_dim(e, x, ci);
  if (ch < 0) return em_fail(e, "the channel dim must not depend on the batch");
  int bad = 0;
  const char *sc = param_ptr(e, "Scale", ch, &bad), *bi = param_ptr(e, "Bias", ch, &bad);
  if (bad) return -1;
  if (!running) return emit_batch_norm_train(e, x, y, ci, ch, sc, bi);
  const char *mean = param_ptr(e, "Mean", ch, &bad), *var = param_ptr(e, "Variance", ch, &bad);
  if (bad) return -1;
  if (!strcmp(mean, "NULL") || !strcmp(var, "NULL")) return em_fail(e, "Mean and Variance are required");
  NormCall call = {.kind = NORM_BATCH, .f64 = x->dtype == RT_DT_FP64, .outer = em_prod(e, x, 0, ci), .c = ch,
                   .inner = em_prod(e, x, ci + 1, rank), .eps = em_float(attr_float(e->op, "epsilon", 1e-5)),
                   .x = em_ptr(e, x, 1), .scale = sc, .bias = bi, .mean = mean, .var = var};
  call.y = em_ptr(e, y, 0);
  tu_pass_extent(e, x, y); /* X's run-time extents are Y's (infer_batch_norm) */
  /* Paddle's batch_norm kernels leave SavedMean and SavedVariance
   * unwritten with the running statistics; a batch_norm_grad with them too
   * binds but never reads them, and paddlec writes zeros there for it
   * (anything else reading them stays refused: codegen_model.c's
   * check_outputs; ReserveSpace is empty, see infer_batch_norm) */
  for (int i = 0; i < 2; i++) {
    Var *s = ctx_out(&c, i ? "SavedVariance" : "SavedMean", 0);
    if (!s || !read_by_global_grads(e, s)) continue;
    if (!bn_stat(e, i ? "SavedVariance" : "SavedMean", 0, ch)) return -1;
    *(i ? &call.saved_inv_std : &call.saved_mean) = em_ptr(e, s, 0);
  }
  norm_print_c(e->p, &call);
  return 0;
}

/* batch_norm_grad (phi BatchNormGradFunctor, not in place): with the
 * running statistics when is_test or use_global_stats (Paddle's grad reads
 * is_test alone, not trainable_statistics: MeanOut / VarianceOut, the
 * forward's updated Mean and Variance; older files bind Mean / Variance),
 * with SavedMean and SavedVariance (1 / std) otherwise; see
 * rt_batch_norm_grad.  Scale@GRAD and Bias@GRAD come together or not at
 * all (phi computes them only when both are wanted). */
int op_batch_norm_grad_emit(EmitCtx *e, const char *dy_ptr) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *dy = ctx_in(&c, "Y@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *ds = ctx_out(&c, "Scale@GRAD", 0), *db = ctx_out(&c, "Bias@GRAD", 0);
  if (!x || !dy) return em_fail(e, "needs X and Y@GRAD");
  if (!norm_type_ok(x) || dy->dtype != x->dtype)
    return em_fail(e, "batch_norm_grad of %s tensors is not supported", rt_dtype_name(x->dtype));
  if (!ds != !db) return em_fail(e, "Scale@GRAD and Bias@GRAD must be wanted together (Paddle computes neither alone)");
  if (!em_same_shape(e, x, dy)) return em_fail(e, "Y@GRAD must have X's shape");
  const int rank = em_spec(e, x)->rank, ci = bn_channel_dim(e, rank);
  if (ci < 0) return -1;
  const int64_t ch = em_const_dim(e, x, ci);
  if (ch < 0) return em_fail(e, "the channel dim must not depend on the batch");
  int bad = 0;
  const char *sc = param_ptr(e, "Scale", ch, &bad);
  if (bad) return -1;
  const int global = attr_bool(e->op, "is_test", 0) || attr_bool(e->op, "use_global_stats", 0);
  const char *mean, *inv = "NULL", *var = "NULL";
  if (global) {
    const int outs = ctx_in(&c, "MeanOut", 0) != NULL;
    const Var *m = bn_stat(e, outs ? "MeanOut" : "Mean", 1, ch), *v = bn_stat(e, outs ? "VarianceOut" : "Variance", 1, ch);
    if (!m || !v) return -1;
    mean = em_ptr(e, m, 1), var = em_ptr(e, v, 1);
  } else {
    const Var *m = bn_stat(e, "SavedMean", 1, ch), *v = bn_stat(e, "SavedVariance", 1, ch);
    if (!m || !v) return -1;
    mean = em_ptr(e, m, 1), inv = em_ptr(e, v, 1);
  }
  if (ds && (!bn_stat(e, "Scale@GRAD", 0, ch) || !bn_stat(e, "Bias@GRAD", 0, ch))) return -1;
  /* sync_batch_norm on places: every place's sums (sync_batch_norm.c) */
  const Var *gsums = bn_sums(e, "Sums", 2 * ch), *count = bn_sums(e, "Count", 2 * ch + 1);
  if (gsums == BAD_SUMS || count == BAD_SUMS) return -1;
  if (!gsums != !count || (gsums && global)) return em_fail(e, "Sums and Count go together, with the batch's statistics");
  const int f64 = x->dtype == RT_DT_FP64;
  if (gsums) attr_superseded(e->op, "epsilon"); /* synced: SavedVariance holds 1 / std */
  norm_print_c(e->p, &(NormCall){.kind = NORM_BATCH_GRAD, .f64 = f64, .outer = em_prod(e, x, 0, ci), .c = ch,
                                  .inner = em_prod(e, x, ci + 1, rank),
                                  .eps = gsums ? NULL : em_float(attr_float(e->op, "epsilon", 1e-5)),
                                  .x = em_ptr(e, x, 1), .dy = dy_ptr ? dy_ptr : em_ptr(e, dy, 1), .scale = sc,
                                  .mean = mean, .inv_std = inv, .var = var,
                                  .gsums = gsums ? em_ptr(e, gsums, 1) : NULL,
                                  .sums = count ? em_ptr(e, count, 1) : NULL, .dx = dx ? em_ptr(e, dx, 0) : NULL,
                                  .dscale = ds ? em_ptr(e, ds, 0) : NULL, .dbias = db ? em_ptr(e, db, 0) : NULL});
  return 0;
}

static int emit_batch_norm_grad(EmitCtx *e) { return op_batch_norm_grad_emit(e, NULL); }

int op_batch_norm_infer(OpCtx *c) { return infer_batch_norm(c); }
int op_batch_norm_emit(EmitCtx *e) { return emit_batch_norm(e); }

static int emit_layer_norm(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *y = ctx_out(&c, "Y", 0);
  if (!x || !y) return em_fail(e, "missing X or Y");
  if (!norm_type_ok(x)) return em_fail(e, "layer_norm of %s tensors is not supported", rt_dtype_name(x->dtype));
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
  const int run_cols = em_spec(e, x)->runtime_mask >> axis != 0; /* normalized dims the run gives (infer) */
  norm_print_c(e->p, &(NormCall){.kind = NORM_LAYER, .f64 = x->dtype == RT_DT_FP64,
                                  .rows = em_prod(e, x, 0, axis),
                                  .cols = run_cols ? em_prod(e, x, axis, rank) : em_sym(cols),
                                  .eps = em_float(attr_float(e->op, "epsilon", 1e-5)), .x = em_ptr(e, x, 1),
                                  .y = em_ptr(e, y, 0), .scale = sc, .bias = bi, .mean_out = mean, .var_out = var});
  return 0;
}

/* layer_norm_grad (phi LayerNormGradKernel) with the forward's Mean and
 * Variance: rt_layer_norm_grad.  As Paddle's kernel does, X@GRAD takes
 * Scale into account only when Scale@GRAD is wanted too (with Scale bound
 * but its gradient not wanted, Paddle's X@GRAD is that of an unscaled
 * layer_norm; tests/oracle/e2e_grad_cnn.py layer_norm_scale_frozen). */
static int emit_layer_norm_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *dy = ctx_in(&c, "Y@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *ds = ctx_out(&c, "Scale@GRAD", 0), *db = ctx_out(&c, "Bias@GRAD", 0);
  if (!x || !dy) return em_fail(e, "needs X and Y@GRAD");
  if (!norm_type_ok(x) || dy->dtype != x->dtype)
    return em_fail(e, "layer_norm_grad of %s tensors is not supported", rt_dtype_name(x->dtype));
  if (!em_same_shape(e, x, dy)) return em_fail(e, "Y@GRAD must have X's shape");
  int rank = em_spec(e, x)->rank, axis = (int)attr_int(e->op, "begin_norm_axis", 1);
  if (axis <= 0 || axis >= rank) return em_fail(e, "begin_norm_axis out of range");
  SymDim cols = {0, 1};
  for (int i = axis; i < rank; i++) {
    SymDim d = em_spec(e, x)->d[i];
    if (d.a) return em_fail(e, "the normalized dims must not depend on the batch");
    cols.c *= d.c;
  }
  const SymDim rows = spec_prod(em_spec(e, x), 0, axis);
  const char *stat[2];
  for (int i = 0; i < 2; i++) {
    const char *slot = i ? "Variance" : "Mean";
    Var *v = ctx_in(&c, slot, 0);
    SymDim k = v ? spec_numel(em_spec(e, v)) : (SymDim){-1, -1};
    if (!v || v->dtype != x->dtype || k.a != rows.a || k.c != rows.c)
      return em_fail(e, "%s must be %s with %s elements", slot, rt_dtype_name(x->dtype), em_sym(rows));
    stat[i] = em_ptr(e, v, 1);
  }
  int bad = 0;
  const char *sc = ds ? param_ptr(e, "Scale", cols.c, &bad) : "NULL";
  for (int i = 0; i < 2; i++) {
    Var *g = i ? db : ds;
    SymDim k = g ? spec_numel(em_spec(e, g)) : (SymDim){0, cols.c};
    if (g && (g->dtype != x->dtype || k.a || k.c != cols.c))
      bad = em_fail(e, "%s must be %s with %lld elements", i ? "Bias@GRAD" : "Scale@GRAD", rt_dtype_name(x->dtype),
                    (long long)cols.c);
  }
  if (bad) return -1;
  const int run_cols = em_spec(e, x)->runtime_mask >> axis != 0; /* without Scale and Bias (infer_layer_norm) */
  norm_print_c(e->p, &(NormCall){.kind = NORM_LAYER_GRAD, .f64 = x->dtype == RT_DT_FP64,
                                  .rows = em_prod(e, x, 0, axis),
                                  .cols = run_cols ? em_prod(e, x, axis, rank) : em_sym(cols),
                                  .eps = em_float(attr_float(e->op, "epsilon", 1e-5)), .x = em_ptr(e, x, 1),
                                  .dy = em_ptr(e, dy, 1), .mean = stat[0], .var = stat[1], .scale = sc,
                                  .dx = dx ? em_ptr(e, dx, 0) : NULL, .dscale = ds ? em_ptr(e, ds, 0) : NULL,
                                  .dbias = db ? em_ptr(e, db, 0) : NULL});
  return 0;
}

/* instance_norm (groups = channels) and group_norm over channel-first X. */
static int emit_group_norm(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *y = ctx_out(&c, "Y", 0);
  if (!x || !y) return em_fail(e, "missing X or Y");
  if (!norm_type_ok(x)) return em_fail(e, "%s of %s tensors is not supported", e->op->type, rt_dtype_name(x->dtype));
  int rank = em_spec(e, x)->rank, inst = !strcmp(e->op->type, "instance_norm");
  if (rank < 2) return em_fail(e, "X must have rank >= 2");
  const char *layout = inst ? "NCHW" : attr_str(e->op, "data_layout", "NCHW");
  const int last = !strcasecmp(layout, "NHWC");
  if (!last && strcasecmp(layout, "NCHW"))
    return em_fail(e, "data_layout '%s' is not supported (NCHW or NHWC)", layout);
  const int f64 = x->dtype == RT_DT_FP64;
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
  NormCall call = {.kind = NORM_GROUP, .f64 = f64, .c = ch, .groups = groups, .scale = sc, .bias = bi,
                   .mean_out = mean, .var_out = var, .saved_inv_std = inv_std, .x = em_ptr(e, x, 1)};
  call.y = em_ptr(e, y, 0);
  call.outer = em_dim(e, x, 0);
  call.inner = em_prod(e, x, last ? 1 : 2, last ? rank - 1 : rank);
  if (last) { /* channel last: normalized as channel first in scratch, in place */
    const SymDim n = spec_numel(em_spec(e, x));
    const int es = f64 ? 8 : 4; /* element size */
    call.nhwc = em_scratch_at(e, "t", (SymDim){n.a * es, n.c * es});
  }
  call.eps = em_float(attr_float(e->op, "epsilon", 1e-5));
  norm_print_c(e->p, &call);
  return 0;
}

/* group_norm_grad: generic; 1.x grad ops have no X and take Y's shape. */
static int infer_group_norm_grad(OpCtx *c) {
  if (ctx_nin(c, "X")) return grad_infer(c);
  Var *y = ctx_need(c, "Y", 0);
  if (!y) return -1;
  ctx_set(c, "X@GRAD", 0, &y->shape, y->dtype);
  ctx_pass_runtime_extent(c, y, "X@GRAD", 0); /* Y's sizes the run gives, X's */
  for (int i = 0; i < 2; i++) {
    const char *in = i ? "Bias" : "Scale", *out = i ? "Bias@GRAD" : "Scale@GRAD";
    Var *p = ctx_in(c, in, 0);
    if (ctx_out(c, out, 0) && !p) return ctx_fail(c, "output %s has no input %s", out, in);
    if (p) ctx_set(c, out, 0, &p->shape, p->dtype);
  }
  return 0;
}

/* group_norm_grad (phi GroupNormGradKernel): from Y, Variance, Scale and
 * Bias, see rt_group_norm_grad. */
static int emit_group_norm_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *y = ctx_in(&c, "Y", 0), *dy = ctx_in(&c, "Y@GRAD", 0), *var = ctx_in(&c, "Variance", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *ds = ctx_out(&c, "Scale@GRAD", 0), *db = ctx_out(&c, "Bias@GRAD", 0);
  if (!y || !dy || !var) return em_fail(e, "needs Y, Variance and Y@GRAD");
  if (!norm_type_ok(y) || dy->dtype != y->dtype)
    return em_fail(e, "group_norm_grad of %s tensors is not supported", rt_dtype_name(y->dtype));
  if (!em_same_shape(e, y, dy)) return em_fail(e, "Y@GRAD must have Y's shape");
  const int rank = em_spec(e, y)->rank;
  const char *layout = attr_str(e->op, "data_layout", "NCHW");
  const int last = !strcasecmp(layout, "NHWC");
  if (!last && strcasecmp(layout, "NCHW"))
    return em_fail(e, "data_layout '%s' is not supported (NCHW or NHWC)", layout);
  if (rank < 2) return em_fail(e, "Y must have rank >= 2");
  const int64_t ch = em_const_dim(e, y, last ? rank - 1 : 1), groups = attr_int(e->op, "groups", -1);
  if (ch < 0) return em_fail(e, "the channel dim must not depend on the batch");
  if (groups < 1 || ch % groups) return em_fail(e, "groups %lld does not divide %lld channels", (long long)groups, (long long)ch);
  const SymDim nb = em_spec(e, y)->d[0], kv = spec_numel(em_spec(e, var));
  if (var->dtype != y->dtype || kv.a != nb.a * groups || kv.c != nb.c * groups)
    return em_fail(e, "Variance must be %s with N * groups elements", rt_dtype_name(y->dtype));
  int bad = 0;
  const char *sc = param_ptr(e, "Scale", ch, &bad), *bi = param_ptr(e, "Bias", ch, &bad);
  for (int i = 0; i < 2; i++) {
    Var *g = i ? db : ds;
    SymDim k = g ? spec_numel(em_spec(e, g)) : (SymDim){0, ch};
    if (g && (g->dtype != y->dtype || k.a || k.c != ch))
      bad = em_fail(e, "%s must be %s with %lld elements", i ? "Bias@GRAD" : "Scale@GRAD", rt_dtype_name(y->dtype),
                    (long long)ch);
  }
  if (bad) return -1;
  if (dx) tu_pass_extent(e, y, dx); /* the sizes the run gives: Y's, X's (the counts the run's) */
  norm_print_c(e->p, &(NormCall){.kind = NORM_GROUP_GRAD, .f64 = y->dtype == RT_DT_FP64,
                                  .outer = em_dim(e, y, 0), .c = ch, .groups = groups,
                                  .inner = em_prod(e, y, last ? 1 : 2, last ? rank - 1 : rank), .channel_last = last,
                                  .eps = em_float(attr_float(e->op, "epsilon", 1e-5)), .y = em_ptr(e, y, 1),
                                  .dy = em_ptr(e, dy, 1), .scale = sc, .bias = bi, .var = em_ptr(e, var, 1),
                                  .dx = dx ? em_ptr(e, dx, 0) : NULL, .dscale = ds ? em_ptr(e, ds, 0) : NULL,
                                  .dbias = db ? em_ptr(e, db, 0) : NULL});
  return 0;
}

/* instance_norm_grad has no Bias input: Scale@GRAD and Bias@GRAD are [C]
 * with C = X.dims[1] (InstanceNormGradInferMeta). */
static int infer_instance_norm_grad(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  if (x->shape.rank < 2) return ctx_fail(c, "X %s must have rank >= 2", shape_str(&x->shape));
  Var *scale = ctx_in(c, "Scale", 0);
  Shape ch = {1, {x->shape.d[1]}};
  int dt = scale ? scale->dtype : x->dtype;
  ctx_set(c, "X@GRAD", 0, &x->shape, x->dtype);
  ctx_pass_runtime_extent(c, x, "X@GRAD", 0);
  ctx_set(c, "Scale@GRAD", 0, &ch, dt);
  ctx_set(c, "Bias@GRAD", 0, &ch, dt);
  return 0;
}

/* instance_norm_grad (phi InstanceNormGradKernel) from X, Scale and the
 * forward's SavedMean and SavedVariance: rt_instance_norm_grad.
 * Scale@GRAD and Bias@GRAD come together or not at all. */
static int emit_instance_norm_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *dy = ctx_in(&c, "Y@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *ds = ctx_out(&c, "Scale@GRAD", 0), *db = ctx_out(&c, "Bias@GRAD", 0);
  if (!x || !dy) return em_fail(e, "needs X and Y@GRAD");
  if (!norm_type_ok(x) || dy->dtype != x->dtype)
    return em_fail(e, "instance_norm_grad of %s tensors is not supported", rt_dtype_name(x->dtype));
  if (!em_same_shape(e, x, dy)) return em_fail(e, "Y@GRAD must have X's shape");
  if (!ds != !db) return em_fail(e, "Scale@GRAD and Bias@GRAD must be wanted together (Paddle computes neither alone)");
  const int rank = em_spec(e, x)->rank;
  if (rank < 2) return em_fail(e, "X must have rank >= 2");
  const int64_t ch = em_const_dim(e, x, 1);
  if (ch < 0) return em_fail(e, "the channel dim must not depend on the batch");
  const SymDim nb = em_spec(e, x)->d[0];
  const char *stat[2];
  for (int i = 0; i < 2; i++) {
    const char *slot = i ? "SavedVariance" : "SavedMean";
    Var *v = ctx_in(&c, slot, 0);
    SymDim k = v ? spec_numel(em_spec(e, v)) : (SymDim){-1, -1};
    if (!v || v->dtype != x->dtype || k.a != nb.a * ch || k.c != nb.c * ch)
      return em_fail(e, "%s must be %s with N * C elements", slot, rt_dtype_name(x->dtype));
    stat[i] = em_ptr(e, v, 1);
  }
  int bad = 0;
  const char *sc = param_ptr(e, "Scale", ch, &bad);
  if (ds && (!bn_stat(e, "Scale@GRAD", 0, ch) || !bn_stat(e, "Bias@GRAD", 0, ch))) return -1;
  if (bad) return -1;
  norm_print_c(e->p, &(NormCall){.kind = NORM_INSTANCE_GRAD, .f64 = x->dtype == RT_DT_FP64,
                                  .outer = em_dim(e, x, 0), .c = ch,
                                  .inner = em_prod(e, x, 2, rank), .x = em_ptr(e, x, 1), .dy = em_ptr(e, dy, 1),
                                  .scale = sc, .mean = stat[0], .inv_std = stat[1],
                                  .dx = dx ? em_ptr(e, dx, 0) : NULL, .dscale = ds ? em_ptr(e, ds, 0) : NULL,
                                  .dbias = db ? em_ptr(e, db, 0) : NULL});
  return 0;
}

/* MomentumTensor: Paddle 2.6 maps batch_norm to its phi kernels without it
 * ("Dispenable `MomentumTensor` is useless now", batch_norm_sig.cc): the
 * running statistics' update uses the momentum attribute even when the
 * tensor is bound (checked against Paddle's CPU executor). */
static const char *const bn_ignores[] = {"MomentumTensor", NULL};
const OpDef op_batch_norm = {.type = "batch_norm", .infer = infer_batch_norm, .emit_c = emit_batch_norm, .runtime_extents = 2,
                             .ignores = bn_ignores};
const OpDef op_sync_batch_norm = {.type = "sync_batch_norm", .infer = infer_batch_norm, .emit_c = emit_batch_norm,
                                  .ignores = bn_ignores};
/* batch_norm_grad: Bias only the in-place variant reads (to rebuild X from
 * Y); ReserveSpace is cuDNN's; the running statistics (MeanOut /
 * VarianceOut, or Mean / Variance) only with is_test or use_global_stats,
 * SavedMean and SavedVariance only without.
 * momentum and trainable_statistics phi's grad kernel takes but never
 * reads. */
static const char *const bn_grad_ignores[] = {"Bias", "ReserveSpace", "MeanOut", "VarianceOut", "Mean", "Variance",
                                              "SavedMean", "SavedVariance", NULL};
static const char *const bn_grad_attr_ignores[] = {"momentum", "trainable_statistics", NULL};
const OpDef op_batch_norm_grad = {.type = "batch_norm_grad", .infer = grad_infer, .emit_c = emit_batch_norm_grad,
                                  .ignores = bn_grad_ignores, .attr_ignores = bn_grad_attr_ignores,
                                  .runtime_extents = 2};
const OpDef op_layer_norm = {.type = "layer_norm", .infer = infer_layer_norm, .emit_c = emit_layer_norm,
                             .runtime_extents = 2};
/* layer_norm_grad: Bias's gradient needs only Y@GRAD; Scale Paddle's kernel
 * reads only when Scale@GRAD is wanted (see emit_layer_norm_grad). */
static const char *const ln_grad_ignores[] = {"Scale", "Bias", NULL};
const OpDef op_layer_norm_grad = {.type = "layer_norm_grad", .infer = grad_infer, .emit_c = emit_layer_norm_grad,
                                  .ignores = ln_grad_ignores, .runtime_extents = 2};
const OpDef op_instance_norm = {.type = "instance_norm", .infer = infer_instance_norm, .emit_c = emit_group_norm,
                                .runtime_extents = 2};
/* instance_norm_grad: phi's kernel takes Bias and epsilon but reads
 * neither (the saved statistics hold epsilon already). */
static const char *const in_grad_ignores[] = {"Bias", NULL};
static const char *const in_grad_attr_ignores[] = {"epsilon", NULL};
const OpDef op_instance_norm_grad = {.type = "instance_norm_grad", .infer = infer_instance_norm_grad,
                                     .emit_c = emit_instance_norm_grad, .ignores = in_grad_ignores,
                                     .attr_ignores = in_grad_attr_ignores, .runtime_extents = 2};
const OpDef op_group_norm = {.type = "group_norm", .infer = infer_group_norm, .emit_c = emit_group_norm,
                             .runtime_extents = 2};
/* group_norm_grad: Paddle's kernel rebuilds the normalized X from Y, so X
 * and Mean it never reads. */
static const char *const gn_grad_ignores[] = {"X", "Mean", NULL};
const OpDef op_group_norm_grad = {.type = "group_norm_grad", .infer = infer_group_norm_grad,
                                  .emit_c = emit_group_norm_grad, .ignores = gn_grad_ignores, .runtime_extents = 2};

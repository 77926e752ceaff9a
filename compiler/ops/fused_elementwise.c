/* Fused element-wise ops, as Paddle's fusion passes name them; paddlec's
 * passes (passes/fuse_elewise_add_act_ops.c, fuse_bn_act_ops.c,
 * fuse_bn_add_act_ops.c) write them, and the activation's own attributes
 * travel on the fused op (copied from the activation it replaced), so any
 * unary op of activation.c can be the activation.
 *
 *   fused_elemwise_activation: fused_elemwise_activation.c.
 *   fused_elemwise_add_activation_grad: Y, Out, Out@GRAD -> X@GRAD, Y@GRAD
 *     (each optional); functor_list = [<act>_grad, elementwise_add_grad]:
 *     the backward of Out = act(X + Y), the act's grad reading Out alone
 *     (relu, tanh, sigmoid, ...; unary_grad_out_only), X of Out's shape, Y
 *     aligned by `axis`: X@GRAD = act'(Out, Out@GRAD), Y@GRAD the same
 *     summed over Y's broadcast dims, in the order and rounding of the
 *     elementwise_add_grad it replaces (bc_grad), so the floats are those
 *     of the two ops.  X and IntermediateOut: empty, as Paddle's
 *     fuse_elewise_add_act_pass writes the op (a bound one is refused).
 *   fused_batch_norm_act: X, Scale, Bias, Mean, Variance -> Y (Scale and
 *     Bias optional, as batch_norm's: 1 and 0);
 *     Y = act(batch_norm(X)) at inference; act_type, epsilon, data_layout.
 *     With the batch's statistics (training: is_test false, as Paddle's
 *     GPU op) it also has batch_norm's MeanOut, VarianceOut, SavedMean,
 *     SavedVariance, ReserveSpace and runs batch_norm's training kernel
 *     (norm.c), then act over Y in place with the activation op's loop.
 *   fused_batch_norm_act_grad: X, Scale, Bias, Y, SavedMean, SavedVariance,
 *     Y@GRAD -> X@GRAD, Scale@GRAD, Bias@GRAD: <act_type>_grad (one that
 *     reads Out alone) from Y and Y@GRAD into scratch, then batch_norm_grad's
 *     kernel (norm.c) on it: the floats of the two ops.
 *   fused_bn_add_activation: X, Z, Scale, Bias, Mean, Variance -> Y;
 *     Y = act(batch_norm(X) + Z), Z of X's shape.  At inference with the
 *     running statistics; with the batch's (training, as Paddle's cuDNN op)
 *     it also has batch_norm's MeanOut, VarianceOut, SavedMean,
 *     SavedVariance, ReserveSpace and runs batch_norm's training kernel,
 *     then act(Y + Z) over Y in place with the add's and activation's loop.
 *   fused_bn_add_activation_grad: X, Scale, Bias, Y, SavedMean,
 *     SavedVariance, ReserveSpace, Y@GRAD -> X@GRAD, Z@GRAD, Scale@GRAD,
 *     Bias@GRAD: as fused_batch_norm_act_grad, and Z@GRAD a copy of the
 *     activation's gradient (elementwise_add_grad's, same shapes).
 * Emission: one loop; the batch norms first turn their parameters into a
 * per-channel scale and shift (C floats of scratch). */
#include <string.h>

#include "../emit_ew.h"
#include "../util.h"
#include "bcast_util.h"
#include "bnact_call.h"
#include "ops.h"
#include "tensor_util.h"

/* X@GRAD has Out@GRAD's shape (X is the operand of Out's shape), Y@GRAD
 * Y's. */
static int infer_fused_add_act_grad(OpCtx *c) {
  Var *y = ctx_need(c, "Y", 0), *dout = ctx_need(c, "Out@GRAD", 0);
  if (!y || !dout) return -1;
  ctx_set(c, "X@GRAD", 0, &dout->shape, dout->dtype);
  ctx_set(c, "Y@GRAD", 0, &y->shape, y->dtype);
  ctx_pass_runtime_extent(c, dout, "X@GRAD", 0); /* the forward's sizes the run gives */
  ctx_pass_runtime_extent(c, y, "Y@GRAD", 0);
  return 0;
}

static int emit_fused_add_act_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *y = ctx_in(&c, "Y", 0), *out = ctx_in(&c, "Out", 0), *dout = ctx_in(&c, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *dy = ctx_out(&c, "Y@GRAD", 0);
  if (!y || !out || !dout) return em_fail(e, "missing Y, Out or Out@GRAD");
  if (ctx_in(&c, "X", 0) || ctx_in(&c, "IntermediateOut", 0) || ctx_out(&c, "IntermediateOut@GRAD", 0))
    return em_fail(e, "X, IntermediateOut and IntermediateOut@GRAD must be empty (the activation's grad reads Out)");
  Var *const all[5] = {y, out, dout, dx, dy};
  for (int i = 0; i < 5; i++)
    if (all[i] && all[i]->dtype != RT_DT_FP32)
      return em_fail(e, "'%s' is %s: only float32 is supported", all[i]->name, rt_dtype_name(all[i]->dtype));
  const OpAttr *a = attr_find(e->op, "functor_list");
  if (!a || a->n_strings != 2 || strcmp(a->strings[1], "elementwise_add_grad"))
    return em_fail(e, "functor_list must be [<activation>_grad, elementwise_add_grad]");
  const char *body, *term = unary_grad_expr(e, e->op, a->strings[0], &body);
  if (!term) return em_fail(e, "functor '%s' is not an activation grad that reads Out alone", a->strings[0]);
  if (attr_bool(e->op, "save_intermediate_out", 0)) return em_fail(e, "save_intermediate_out=true is not supported");
  if (dx && !em_same_shape(e, dx, dout)) return em_fail(e, "X@GRAD must have Out@GRAD's shape");
  const int64_t axis = attr_int(e->op, "axis", -1);
  const EwIn in[2] = {{dout, -1, "pdy", "dy"}, {out, -1, "py", "y"}};
  const EwIn gx = {dx, -1, "pgx", NULL}, gy = {dy, axis, "pgy", NULL};
  if (dx && bc_grad(e, dout, &gx, 2, in, body, term)) return -1;
  if (dy && bc_grad(e, dout, &gy, 2, in, body, term)) return -1;
  return 0;
}

static int infer_fused_bn(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  Var *z = ctx_in(c, "Z", 0);
  if (z && !shape_equal(&z->shape, &x->shape))
    return ctx_fail(c, "Z %s must have X's shape %s", shape_str(&z->shape), shape_str(&x->shape));
  if (ctx_out(c, "SavedMean", 0)) return op_batch_norm_infer(c); /* training: batch_norm's outputs */
  ctx_set(c, "Y", 0, &x->shape, x->dtype);
  /* sizes the run gives (a feed bounded by --max-shape): each element is
   * normalized alone with the running statistics, so Y has X's (Z's the
   * same dims, checked by the run) */
  const unsigned run = var_runtime_mask(x);
  const int ch = strcmp(attr_str(c->op, "data_layout", "NCHW"), "NHWC") ? 1 : x->shape.rank - 1;
  if (!run && !var_runtime_mask(z)) return 0;
  if (run >> ch & 1 || !op_bn_running_stats(c->op) || (z && var_runtime_mask(z) != run))
    return ctx_fail(c, "X ('%s') has dims only the run knows; %s takes them only with the running statistics, a "
                    "channel dim fixed at compile time and a Z of the same such dims", x->name, c->op->type);
  ctx_pass_runtime_extent(c, x, "Y", 0);
  return 0;
}

/* Training fused_batch_norm_act / fused_bn_add_activation: batch_norm's
 * own training kernel writes Y, the statistics and the running ones, then
 * the activation (of Y + Z) runs over Y in place with the element-wise
 * ops' own loops: the floats of the ops replaced. */
static int emit_fused_bn_train(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *y = ctx_out(&c, "Y", 0), *z = ctx_in(&c, "Z", 0);
  const char *act = attr_str(e->op, "act_type", "");
  const char *expr = unary_float_expr(e, e->op, act);
  if (!y || !expr) return em_fail(e, "needs Y and an activation act_type ('%s' is not one)", act);
  if (y->dtype != RT_DT_FP32) return em_fail(e, "only float32 is supported"); /* the activation's loops are float's */
  if (z && (z->dtype != RT_DT_FP32 || !em_same_shape(e, z, y)))
    return em_fail(e, "Z ('%s') must be float32 of Y's shape", z->name);
  if (op_batch_norm_emit(e)) return -1;
  return z ? ew_binary_bind(e, y, z, y, -1, "a + b", expr) : ew_unary(e, y, y, NULL, expr);
}

/* Y = act(X * scale[c] + shift[c] (+ Z)) with the per-channel scale and
 * shift computed from the batch_norm parameters first. */
static int emit_fused_bn(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  if (!op_bn_running_stats(e->op)) return emit_fused_bn_train(e);
  Var *x = ctx_in(&c, "X", 0), *z = ctx_in(&c, "Z", 0), *y = ctx_out(&c, "Y", 0);
  Var *p[4] = {ctx_in(&c, "Scale", 0), ctx_in(&c, "Bias", 0), ctx_in(&c, "Mean", 0), ctx_in(&c, "Variance", 0)};
  if (!x || !y || !p[2] || !p[3]) return em_fail(e, "missing X, Y, Mean or Variance");
  if (x->dtype != RT_DT_FP32 || (z && z->dtype != RT_DT_FP32)) return em_fail(e, "only float32 is supported");
  const VarSpec *xs = em_spec(e, x);
  const char *layout = attr_str(e->op, "data_layout", "NCHW");
  const int nhwc = !strcmp(layout, "NHWC");
  if (xs->rank < 2) return em_fail(e, "X must have rank >= 2");
  const int cd = nhwc ? xs->rank - 1 : 1;
  const int64_t ch = em_const_dim(e, x, cd);
  if (ch < 0) return em_fail(e, "the channel dim must not depend on the batch");
  const char *act = attr_str(e->op, "act_type", "");
  const char *expr = *act ? unary_float_expr(e, e->op, act) : "v";
  if (!expr) return em_fail(e, "act_type '%s' is not supported", act);
  BnActCall fold = {.kind = BNACT_FOLD, .channels = ch};
  fold.ws = em_scratch_at(e, "sc", (SymDim){0, 2 * ch * (int64_t)sizeof(float)});
  fold.mean = em_ptr(e, p[2], 1);
  fold.var = em_ptr(e, p[3], 1);
  fold.scale = p[0] ? em_ptr(e, p[0], 1) : NULL;
  fold.bias = p[1] ? em_ptr(e, p[1], 1) : NULL;
  fold.eps = em_float(attr_float(e->op, "epsilon", 1e-5));
  bnact_print_c(e->p, &fold);
  if (xs->runtime_mask) /* Y's sizes are X's, Z's checked against them (infer_fused_bn) */
    tu_bcast_extents(e, y, z ? 2 : 1, (const Var *const[]){x, z}, (const int64_t[]){-1, -1});
  /* rows: one (image, channel) plane, or one pixel's channels (NHWC) */
  const char *inner = nhwc ? pool_printf("%lld", (long long)ch) : em_prod(e, x, 2, xs->rank);
  em_task_begin(e, em_numel(e, y), pool_printf("%s / (%s)", em_numel(e, y), inner));
  BnActCall apply = {.kind = BNACT_APPLY, .channels = ch, .ws = fold.ws, .nhwc = nhwc, .inner = inner, .act = expr};
  apply.x = em_ptr(e, x, 1);
  apply.z = z ? em_ptr(e, z, 1) : NULL;
  apply.out = em_ptr(e, y, 0);
  bnact_print_c(e->p, &apply);
  em_task_end(e);
  return 0;
}

/* fused_batch_norm_act_grad: the backward of a training
 * fused_batch_norm_act, <act_type>_grad + batch_norm_grad: the activation's
 * gradient (one that reads Out alone) from Y and Y@GRAD into scratch, then
 * batch_norm_grad's kernel on it.  fused_bn_add_activation_grad, the
 * backward of fused_bn_add_activation (<act_type>_grad +
 * elementwise_add_grad + batch_norm_grad), the same: the add's grad of two
 * same-shape addends passes the activation's gradient to both, so it is
 * computed into Z@GRAD (when wanted), which batch_norm_grad's kernel then
 * reads. */
static int emit_fused_bn_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *y = ctx_in(&c, "Y", 0), *dy = ctx_in(&c, "Y@GRAD", 0), *dz = ctx_out(&c, "Z@GRAD", 0);
  if (!y || !dy) return em_fail(e, "needs Y and Y@GRAD");
  if (y->dtype != RT_DT_FP32 || dy->dtype != RT_DT_FP32 || (dz && dz->dtype != RT_DT_FP32))
    return em_fail(e, "only float32 is supported");
  if (dz && !em_same_shape(e, dz, y)) return em_fail(e, "Z@GRAD must have Y's shape");
  if (attr_bool(e->op, "is_test", 0) || attr_bool(e->op, "use_global_stats", 0))
    return em_fail(e, "is_test / use_global_stats (the running statistics) are not supported");
  const char *act = attr_str(e->op, "act_type", "");
  const char *body, *term = unary_grad_expr(e, e->op, pool_printf("%s_grad", act), &body);
  if (!term) return em_fail(e, "act_type '%s' is not an activation whose grad reads Out alone", act);
  const VarSpec *sy = em_spec(e, y);
  if (!em_same_shape(e, y, dy)) return em_fail(e, "Y@GRAD must have Y's shape");
  /* the activation's gradient goes to Z@GRAD when there is one, else to
   * scratch */
  const SymDim n = spec_numel(sy);
  const SymDim gact = {n.a * (int64_t)sizeof(float), n.c * (int64_t)sizeof(float)};
  const char *ws = dz ? NULL : em_scratch_at(e, "gact", gact);
  const char *numel = em_numel(e, y);
  em_task_begin(e, numel, numel);
  BnActCall g = {.kind = BNACT_ACT_GRAD, .ws = ws, .body = body, .term = term};
  g.dz = dz ? em_ptr(e, dz, 0) : NULL;
  g.y = em_ptr(e, y, 1);
  g.dy = em_ptr(e, dy, 1);
  bnact_print_c(e->p, &g);
  em_task_end(e);
  return op_batch_norm_grad_emit(e, dz ? em_ptr(e, dz, 1) : pool_printf("(const float *)%s", ws));
}

const OpDef op_fused_elemwise_add_activation_grad = {.type = "fused_elemwise_add_activation_grad",
                                                     .infer = infer_fused_add_act_grad,
                                                     .emit_c = emit_fused_add_act_grad, .runtime_extents = 2};
const OpDef op_fused_batch_norm_act = {.type = "fused_batch_norm_act", .infer = infer_fused_bn, .emit_c = emit_fused_bn,
                                       .inplace = "X:Y", .runtime_extents = 2};
/* Bias batch_norm_grad reads only in place; momentum and
 * trainable_statistics its kernel takes but never reads. */
static const char *const fused_bn_grad_ignores[] = {"Bias", NULL};
static const char *const fused_bn_grad_attr_ignores[] = {"momentum", "trainable_statistics", NULL};
const OpDef op_fused_batch_norm_act_grad = {.type = "fused_batch_norm_act_grad", .infer = grad_infer,
                                            .emit_c = emit_fused_bn_grad, .ignores = fused_bn_grad_ignores,
                                            .attr_ignores = fused_bn_grad_attr_ignores, .runtime_extents = 2};
const OpDef op_fused_bn_add_activation = {.type = "fused_bn_add_activation", .infer = infer_fused_bn,
                                          .emit_c = emit_fused_bn, .inplace = "X:Y", .runtime_extents = 2};
/* The gradients of X, Scale and Bias have their shapes, Z's Y's (Z, of
 * Y's shape, is no input of the grad). */
static int infer_fused_bn_add_act_grad(OpCtx *c) {
  static const char *const fwd[] = {"X", "Scale", "Bias", "Y"};
  static const char *const grad[] = {"X@GRAD", "Scale@GRAD", "Bias@GRAD", "Z@GRAD"};
  for (int i = 0; i < 4; i++) {
    if (!ctx_out(c, grad[i], 0)) continue;
    Var *v = ctx_need(c, fwd[i], 0);
    if (!v) return -1;
    ctx_set(c, grad[i], 0, &v->shape, v->dtype);
    ctx_pass_runtime_extent(c, v, grad[i], 0); /* X's and Y's sizes the run gives */
  }
  return 0;
}
/* Bias and ReserveSpace (cuDNN's) as batch_norm_grad's. */
static const char *const fused_bn_add_grad_ignores[] = {"Bias", "ReserveSpace", NULL};
const OpDef op_fused_bn_add_activation_grad = {.type = "fused_bn_add_activation_grad",
                                               .infer = infer_fused_bn_add_act_grad, .emit_c = emit_fused_bn_grad,
                                               .ignores = fused_bn_add_grad_ignores,
                                               .attr_ignores = fused_bn_grad_attr_ignores, .runtime_extents = 2};

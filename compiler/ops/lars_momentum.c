/* lars_momentum: momentum with a layer-wise adaptive learning rate (LARS),
 * as paddle.incubate.optimizer.LarsMomentumOptimizer appends it, one op per
 * parameter (fleet's fused form binds several: every slot a list).
 *   inputs:  Param*, Grad*, Velocity*, LearningRate*, MasterParam*†
 *   outputs: ParamOut*, VelocityOut*, MasterParamOut*†
 *   attrs:   mu, lars_coeff=0.001, lars_weight_decay=[0.0005] (one per
 *            Param), epsilon=0, multi_precision=false, rescale_grad=1
 * Shape rule: ParamOut[i] and VelocityOut[i] have Param[i]'s shape (Grad and
 * Velocity must match it, as fluid LarsMomentumOp's InferShape checks);
 * LearningRate[i] holds one element.
 * Emission (phi LarsMomentumKernel, CPU): with g = rescale_grad * Grad,
 *   local_lr = lr * lars_coeff * |Param| / (|g| + wd * |Param| + epsilon)
 * when wd > 0 and both norms are > 0, else lr; VelocityOut = Velocity * mu
 * + local_lr * (g + wd * Param); ParamOut = Param - VelocityOut.  The norms
 * are sums of squares in element order, in double (Paddle's Eigen sums in
 * float, in its own order: the two differ by float rounding).
 * float32 or float64: Paddle's CPU kernel is registered for both, one
 * template reading every tensor as Param's dtype, so each Param's tensors
 * must share its dtype; the float64 loop is the float one respelled
 * (tu_respell: norms, sqrt and update in double) with the float
 * attributes as doubles (static_cast<T>).  multi_precision refused. */
#include <string.h>

#include "../util.h"
#include "ops.h"
#include "opt_call.h"
#include "tensor_util.h"

static int infer_lars_momentum(OpCtx *c) {
  const int n = ctx_nin(c, "Param");
  if (n < 1) return ctx_fail(c, "input Param is missing");
  if (ctx_nin(c, "Grad") != n || ctx_nin(c, "Velocity") != n || ctx_nin(c, "LearningRate") != n)
    return ctx_fail(c, "Param, Grad, Velocity and LearningRate must bind the same number of vars (%d)", n);
  for (int i = 0; i < n; i++) {
    Var *p = ctx_need(c, "Param", i), *v = ctx_need(c, "Velocity", i), *lr = ctx_need(c, "LearningRate", i);
    Var *g = ctx_need(c, "Grad", i);
    if (!p || !v || !lr || !g) return -1;
    if (!shape_equal(&p->shape, &g->shape)) /* the update reads Grad element for element with Param */
      return ctx_fail(c, "Grad[%d] '%s' %s does not match Param[%d] '%s' %s", i, g->name, shape_str(&g->shape), i,
                      p->name, shape_str(&p->shape));
    if (!shape_equal(&p->shape, &v->shape))
      return ctx_fail(c, "Velocity[%d] %s does not match Param[%d] %s", i, shape_str(&v->shape), i,
                      shape_str(&p->shape));
    const int64_t k = shape_numel(&lr->shape);
    if (k >= 0 && k != 1) return ctx_fail(c, "LearningRate[%d] has %lld elements, expected 1", i, (long long)k);
    ctx_set(c, "ParamOut", i, &p->shape, p->dtype);
    ctx_set(c, "VelocityOut", i, &v->shape, v->dtype);
  }
  return 0;
}

static int emit_lars_momentum(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  if (attr_bool(e->op, "multi_precision", 0) || ctx_nin(&c, "MasterParam"))
    return em_fail(e, "multi_precision=true (a MasterParam) is not supported");
  const int n = ctx_nin(&c, "Param");
  double *wd;
  const int nwd = attr_floats(e->op, "lars_weight_decay", &wd);
  if (nwd != n) return em_fail(e, "lars_weight_decay has %d values for %d parameters", nwd, n);
  for (int i = 0; i < n; i++) {
    Var *p = tu_in(e, "Param", i), *g = tu_in(e, "Grad", i), *v = tu_in(e, "Velocity", i);
    Var *lr = tu_in(e, "LearningRate", i), *po = tu_out(e, "ParamOut", i), *vo = tu_out(e, "VelocityOut", i);
    if (!p || !g || !v || !lr || !po || !vo) return -1;
    const int dt = p->dtype;
    if (dt != RT_DT_FP32 && dt != RT_DT_FP64)
      return em_fail(e, "Param '%s' is %s; paddlec's lars_momentum supports float32 and float64", p->name,
                     rt_dtype_name(dt));
    const Var *all[] = {g, v, lr}; /* ParamOut and VelocityOut take Param's and Velocity's (the shape rule) */
    for (int k = 0; k < 3; k++)
      if (all[k]->dtype != dt)
        return em_fail(e, "'%s' is %s but Param '%s' is %s; Paddle's lars_momentum kernel reads every tensor as "
                       "Param's dtype", all[k]->name, rt_dtype_name(all[k]->dtype), p->name, rt_dtype_name(dt));
    const char *mu = tu_literal(dt, (float)attr_float(e->op, "mu", 0));
    const char *coeff = tu_literal(dt, (float)attr_float(e->op, "lars_coeff", 0.001));
    const char *eps = tu_literal(dt, (float)attr_float(e->op, "epsilon", 0));
    const char *rescale = tu_literal(dt, (float)attr_float(e->op, "rescale_grad", 1));
    const char *w = tu_literal(dt, (float)wd[i]);
    const char *pp = em_ptr(e, p, 1), *gp = em_ptr(e, g, 1), *vp = em_ptr(e, v, 1); /* in this order */
    const char *pop = em_ptr(e, po, 0), *vop = em_ptr(e, vo, 0), *lrp = em_ptr(e, lr, 1);
    opt_print_c(e->p, &(OptCall){.kind = OPT_LARS, .dtype = dt, .name = p->name, .p = pp, .g = gp, .v = vp,
                                 .po = pop, .vo = vop, .lr = lrp, .numel = em_numel(e, p), .mu = mu,
                                 .coeff = coeff, .eps = eps, .rescale = rescale, .wd = w});
  }
  return 0;
}

const OpDef op_lars_momentum = {.type = "lars_momentum", .infer = infer_lars_momentum, .emit_c = emit_lars_momentum};

/* label_smooth: X, PriorDist† -> Out (X's dims and dtype); epsilon:FLOAT=0.
 * Shape rule (fluid LabelSmoothOp): PriorDist, when given, holds as many
 * elements as X's last dim K.
 * Emission (phi LabelSmoothKernel): Out = (1 - epsilon) * X + epsilon / K,
 * or + epsilon * PriorDist[j] for last-dim index j; the coefficients are
 * computed in float as the kernel does, then converted to X's type.  A
 * PriorDist whose size the run gives (its bound K) must hold K values in
 * the run: Paddle's Eigen broadcast of another count repeats it unchecked
 * (prior[i % P] over the flat index); the run stops there. */
#include "../util.h"
#include "ops.h"
#include "smooth_call.h"
#include "tensor_util.h"

static int infer_label_smooth(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  if (x->shape.rank < 1) return ctx_fail(c, "X must have rank >= 1");
  Var *prior = ctx_in(c, "PriorDist", 0);
  if (prior && prior->shape.rank >= 0) {
    int64_t k = x->shape.d[x->shape.rank - 1], n = dims_prod(&prior->shape, 0, prior->shape.rank);
    if (k >= 0 && n >= 0 && k != n)
      return ctx_fail(c, "PriorDist %s does not hold X's last dim %lld", shape_str(&prior->shape), (long long)k);
  }
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  if (var_runtime_mask(x) >> (x->shape.rank - 1) & 1)
    return ctx_fail(c, "the last dim of X ('%s', the classes) is only known at run time (%s); label_smooth needs it "
                    "fixed", x->name, x->runtime_from ? x->runtime_from : "inputs");
  ctx_pass_runtime_extent(c, x, "Out", 0); /* the other dims the run gives: Out's */
  return 0;
}

static int emit_label_smooth(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  Var *prior = ctx_in(&c, "PriorDist", 0) ? tu_in(e, "PriorDist", 0) : NULL;
  if (ctx_in(&c, "PriorDist", 0) && !prior) return -1;
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || out->dtype != x->dtype ||
      (prior && prior->dtype != x->dtype))
    return em_fail(e, "label_smooth of %s tensors is not supported", rt_dtype_name(x->dtype));
  int r = tu_rank(e, x);
  int64_t k = em_const_dim(e, x, r - 1);
  if (k <= 0) return em_fail(e, "X's last dim must be a positive constant");
  float eps = (float)attr_float(e->op, "epsilon", 0);
  SmoothCall call = {.kind = SMOOTH_FORWARD, .type = em_ctype(x->dtype), .x = em_ptr(e, x, 1),
                     .out = em_ptr(e, out, 0), .keep = tu_literal(x->dtype, 1.0f - eps), .numel = em_numel(e, x)};
  if (prior) /* Paddle's kernel repeats a PriorDist of another size unchecked: the run stops instead */
    tu_run_equal(e, prior, NULL, em_numel(e, prior), pool_printf("%lld", (long long)k),
                 "PriorDist does not hold one value per class (X's last dim)");
  if (prior) call.prior = em_ptr(e, prior, 1), call.add = tu_literal(x->dtype, eps), call.k = k;
  else call.add = tu_literal(x->dtype, eps / (float)k);
  smooth_print_c(e->p, &call);
  return 0;
}

const OpDef op_label_smooth = {.type = "label_smooth", .infer = infer_label_smooth, .emit_c = emit_label_smooth,
                               .runtime_extents = 2};

/* label_smooth_grad: Out@GRAD -> X@GRAD (Out@GRAD's shape and dtype: the
 * forward X is not an input of the grad op); epsilon.  phi
 * LabelSmoothGradKernel: dX = (1 - epsilon) * dOut, the coefficient
 * computed in float and converted to the element type. */
static int infer_label_smooth_grad(OpCtx *c) {
  Var *dout = ctx_need(c, "Out@GRAD", 0);
  if (!dout) return -1;
  ctx_set(c, "X@GRAD", 0, &dout->shape, dout->dtype);
  return 0;
}

static int emit_label_smooth_grad(EmitCtx *e) {
  Var *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!dout || !dx) return -1;
  if ((dout->dtype != RT_DT_FP32 && dout->dtype != RT_DT_FP64) || dx->dtype != dout->dtype)
    return em_fail(e, "label_smooth_grad of %s tensors is not supported (float32 or float64)",
                   rt_dtype_name(dout->dtype));
  float eps = (float)attr_float(e->op, "epsilon", 0);
  smooth_print_c(e->p, &(SmoothCall){.kind = SMOOTH_GRAD, .type = em_ctype(dx->dtype), .dout = em_ptr(e, dout, 1),
                                     .dx = em_ptr(e, dx, 0), .numel = em_numel(e, dx),
                                     .keep = tu_literal(dx->dtype, 1.0f - eps)});
  return 0;
}

const OpDef op_label_smooth_grad = {.type = "label_smooth_grad", .infer = infer_label_smooth_grad,
                                    .emit_c = emit_label_smooth_grad};

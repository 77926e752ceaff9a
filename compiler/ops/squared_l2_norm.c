/* squared_l2_norm: X -> Out; no attributes.  ClipGradByGlobalNorm emits one
 * per gradient (the squares summed, then the global norm).
 * Shape rule (phi SquaredL2NormInferMeta): Out is [1], X's dtype.
 * Emission: Out[0] = the sum of X's squares, accumulated in X's type in
 * element order (Paddle's CPU kernel sums with Eigen, whose order differs:
 * the two agree to float rounding).  float32 and float64. */
#include "ops.h"
#include "opt_call.h"
#include "tensor_util.h"

static int infer_squared_l2_norm(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  Shape s = {1, {1}};
  ctx_set(c, "Out", 0, &s, x->dtype);
  return 0;
}

static int emit_squared_l2_norm(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return em_fail(e, "missing X or Out");
  if (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) return em_fail(e, "X must be float32 or float64");
  const char *xp = em_ptr(e, x, 1), *n = em_numel(e, x);
  opt_print_c(e->p, &(OptCall){.kind = OPT_SQUARED_L2, .type = em_ctype(x->dtype), .x = xp, .numel = n,
                               .out = em_ptr(e, out, 0)});
  return 0;
}

const OpDef op_squared_l2_norm = {.type = "squared_l2_norm", .infer = infer_squared_l2_norm,
                                  .emit_c = emit_squared_l2_norm};

/* squared_l2_norm_grad (X, Out@GRAD -> X@GRAD; phi
 * SquaredL2NormGradKernel): X@GRAD = 2 * Out@GRAD[0] * X. */
static int emit_squared_l2_norm_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !dout || !dx) return -1;
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || dout->dtype != x->dtype || dx->dtype != x->dtype)
    return em_fail(e, "X, Out@GRAD and X@GRAD must be float32 or float64 of one dtype");
  SymDim n1 = spec_numel(em_spec(e, dout));
  if (n1.a != 0 || n1.c != 1) return em_fail(e, "Out@GRAD must have one element");
  const char *xp = em_ptr(e, x, 1), *dp = em_ptr(e, dout, 1), *dxp = em_ptr(e, dx, 0);
  opt_print_c(e->p, &(OptCall){.kind = OPT_SQUARED_L2_GRAD, .type = em_ctype(x->dtype), .x = xp, .dout = dp,
                               .dx = dxp, .numel = em_numel(e, x)});
  return 0;
}

const OpDef op_squared_l2_norm_grad = {.type = "squared_l2_norm_grad", .infer = grad_infer,
                                       .emit_c = emit_squared_l2_norm_grad};

/* mv (paddle.mv): X [m, n], Vec [n] -> Out [m]; no attributes.
 * Shape rule (phi MvInferMeta): X is 2-D, Vec 1-D of X's columns.
 * Emission (float32/64, Paddle's CPU kernels): VEC_MV, each row's products
 * summed in order (phi's GEMV through the BLAS sums in its own order: the
 * two agree to rounding).
 * mv_grad: X, Vec, Out@GRAD -> X@GRAD, Vec@GRAD (each optional), phi
 * MvGradKernel: dX[i, j] = dOut[i] * Vec[j], dVec = X^T dOut. */
#include "ops.h"
#include "tensor_util.h"
#include "vec_call.h"

static int infer_mv(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *v = ctx_need(c, "Vec", 0);
  if (!x || !v) return -1;
  const Shape *xs = &x->shape, *vs = &v->shape;
  if (xs->rank != 2) return ctx_fail(c, "X %s must be 2-D", shape_str(xs));
  if (vs->rank != 1) return ctx_fail(c, "Vec %s must be 1-D", shape_str(vs));
  if (xs->d[1] >= 0 && vs->d[0] >= 0 && xs->d[1] != vs->d[0])
    return ctx_fail(c, "X %s has %lld columns but Vec %s has %lld elements", shape_str(xs), (long long)xs->d[1],
                    shape_str(vs), (long long)vs->d[0]);
  if (x->dtype != v->dtype)
    return ctx_fail(c, "X is %s and Vec %s: mv takes one dtype", rt_dtype_name(x->dtype), rt_dtype_name(v->dtype));
  Shape s = {1, {xs->d[0]}};
  ctx_set(c, "Out", 0, &s, x->dtype);
  return 0;
}

static int mv_dtype(int dt) { return dt == RT_DT_FP32 || dt == RT_DT_FP64; }

static int emit_mv(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *v = tu_in(e, "Vec", 0), *out = tu_out(e, "Out", 0);
  if (!x || !v || !out) return -1;
  if (!mv_dtype(x->dtype) || v->dtype != x->dtype || out->dtype != x->dtype)
    return em_fail(e, "mv of %s tensors is not supported (float32/64)", rt_dtype_name(x->dtype));
  vec_print_c(e->p, &(VecCall){.kind = VEC_MV, .type = em_ctype(x->dtype), .rows = em_dim(e, x, 0),
                               .cols = em_dim(e, x, 1), .x = em_ptr(e, x, 1), .y = em_ptr(e, v, 1),
                               .out = em_ptr(e, out, 0)});
  return 0;
}

const OpDef op_mv = {.type = "mv", .infer = infer_mv, .emit_c = emit_mv};

static int emit_mv_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X", 0), *v = tu_in(e, "Vec", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *dv = ctx_out(&c, "Vec@GRAD", 0);
  if (!x || !v || !dout) return -1;
  Var *const all[4] = {v, dout, dx, dv};
  for (int k = 0; k < 4; k++)
    if (!mv_dtype(x->dtype) || (all[k] && all[k]->dtype != x->dtype))
      return em_fail(e, "mv_grad of %s tensors is not supported (float32/64)", rt_dtype_name(x->dtype));
  vec_print_c(e->p, &(VecCall){.kind = VEC_MV_GRAD, .type = em_ctype(x->dtype), .rows = em_dim(e, x, 0),
                               .cols = em_dim(e, x, 1), .x = em_ptr(e, x, 1), .y = em_ptr(e, v, 1),
                               .dout = em_ptr(e, dout, 1), .dx = dx ? em_ptr(e, dx, 0) : NULL,
                               .dy = dv ? em_ptr(e, dv, 0) : NULL});
  return 0;
}

const OpDef op_mv_grad = {.type = "mv_grad", .infer = grad_infer, .emit_c = emit_mv_grad};

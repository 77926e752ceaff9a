/* dot (paddle.dot): X, Y -> Out; no attributes.
 * Shape rule (phi DotInferMeta): X and Y have the same dims, of rank 1 or
 * 2; Out drops the last dim (a 1-D X gives a 0-D Out, [B, N] gives [B]).
 * Emission (float32/64, int32/64; Paddle's complex kernels are refused):
 * VEC_DOT, each row's products summed in order as phi DotKernel sums them.
 * dot_grad: X, Y, Out@GRAD -> X@GRAD, Y@GRAD (each optional), phi
 * DotGradKernel: dX = dOut (per row) * Y, dY = dOut * X. */
#include "ops.h"
#include "tensor_util.h"
#include "vec_call.h"

static int infer_dot(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  const Shape *xs = &x->shape, *ys = &y->shape;
  if (xs->rank != 1 && xs->rank != 2) return ctx_fail(c, "X %s must have rank 1 or 2", shape_str(xs));
  int same = xs->rank == ys->rank;
  for (int i = 0; same && i < xs->rank; i++)
    same = xs->d[i] == ys->d[i] || xs->d[i] == DIM_UNKNOWN || ys->d[i] == DIM_UNKNOWN;
  if (!same) return ctx_fail(c, "X %s and Y %s must have the same shape", shape_str(xs), shape_str(ys));
  if (x->dtype != y->dtype)
    return ctx_fail(c, "X is %s and Y %s: dot takes one dtype", rt_dtype_name(x->dtype), rt_dtype_name(y->dtype));
  Shape s = *xs;
  s.rank--;
  ctx_set(c, "Out", 0, &s, x->dtype);
  return 0;
}

/* The dtypes phi's CPU dot kernels take that paddlec computes. */
static int dot_dtype(int dt) {
  return dt == RT_DT_FP32 || dt == RT_DT_FP64 || dt == RT_DT_INT32 || dt == RT_DT_INT64;
}

static int emit_dot(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *y = tu_in(e, "Y", 0), *out = tu_out(e, "Out", 0);
  if (!x || !y || !out) return -1;
  if (!dot_dtype(x->dtype) || y->dtype != x->dtype || out->dtype != x->dtype)
    return em_fail(e, "dot of %s tensors is not supported (float32/64, int32/64)", rt_dtype_name(x->dtype));
  const int r = tu_rank(e, x);
  vec_print_c(e->p, &(VecCall){.kind = VEC_DOT, .type = em_ctype(x->dtype), .rows = r == 2 ? em_dim(e, x, 0) : "1",
                               .cols = em_dim(e, x, r - 1), .x = em_ptr(e, x, 1), .y = em_ptr(e, y, 1),
                               .out = em_ptr(e, out, 0)});
  return 0;
}

const OpDef op_dot = {.type = "dot", .infer = infer_dot, .emit_c = emit_dot};

static int emit_dot_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X", 0), *y = tu_in(e, "Y", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *dy = ctx_out(&c, "Y@GRAD", 0);
  if (!x || !y || !dout) return -1;
  Var *const all[4] = {y, dout, dx, dy};
  for (int k = 0; k < 4; k++)
    if (!dot_dtype(x->dtype) || (all[k] && all[k]->dtype != x->dtype))
      return em_fail(e, "dot_grad of %s tensors is not supported (float32/64, int32/64)", rt_dtype_name(x->dtype));
  const int r = tu_rank(e, x);
  vec_print_c(e->p, &(VecCall){.kind = VEC_DOT_GRAD, .type = em_ctype(x->dtype),
                               .rows = r == 2 ? em_dim(e, x, 0) : "1", .cols = em_dim(e, x, r - 1),
                               .x = em_ptr(e, x, 1), .y = em_ptr(e, y, 1), .dout = em_ptr(e, dout, 1),
                               .dx = dx ? em_ptr(e, dx, 0) : NULL, .dy = dy ? em_ptr(e, dy, 0) : NULL});
  return 0;
}

const OpDef op_dot_grad = {.type = "dot_grad", .infer = grad_infer, .emit_c = emit_dot_grad};

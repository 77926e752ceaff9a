/* dist (paddle.dist): X, Y -> Out; p:FLOAT=2.
 * Shape rule (phi DistInferMeta): Out is a scalar ([] from Paddle 2.5,
 * [1] before) of X's dtype; X and Y broadcast (NumPy rules).
 * Emission (float32, float64): phi DistKernel, i.e. p_norm of X - Y over
 * all elements (asvector): the count of non-zero differences for p = 0,
 * max |d| for +inf, min |d| for -inf, else (sum |d|^p)^(1/p) with each
 * difference and |d|^p in X's type, 1/p rounded to it, and the sum in
 * double (as compiler/ops/p_norm.c). */
#include "../util.h"
#include "bcast_util.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_dist(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  Shape b;
  if (shape_broadcast(c, &x->shape, &y->shape, -1, &b)) return -1;
  Shape s = shape_scalar(c);
  ctx_set(c, "Out", 0, &s, x->dtype);
  return 0;
}

static int emit_dist(EmitCtx *e) {
  Var *in[2] = {tu_in(e, "X", 0), tu_in(e, "Y", 0)}, *out = tu_out(e, "Out", 0);
  if (!in[0] || !in[1] || !out) return -1;
  const int dt = in[0]->dtype;
  if ((dt != RT_DT_FP32 && dt != RT_DT_FP64) || in[1]->dtype != dt || out->dtype != dt)
    return em_fail(e, "dist of %s tensors is not supported (float32 or float64)", rt_dtype_name(dt));
  int rank;
  SymDim dims[RT_MAX_RANK];
  if (bc_shape(e, 2, in, RT_MAX_RANK, &rank, dims)) return -1;
  BcastCall k = {.kind = BCAST_DIST, .dtype = dt, .p = (float)attr_float(e->op, "p", 2)};
  k.x = em_ptr(e, in[0], 1);
  k.y = em_ptr(e, in[1], 1);
  if (bc_loop(e, rank, dims, 2, in, &k.loop)) return -1;
  k.out = em_ptr(e, out, 0);
  bcast_print_c(e->p, &k);
  return 0;
}

const OpDef op_dist = {.type = "dist", .infer = infer_dist, .emit_c = emit_dist};

/* dist_grad: X, Y, Out, Out@GRAD -> X@GRAD, Y@GRAD (each optional); p.
 * phi DistGradKernel: t = X - Y broadcast, then PNormGradKernel over all
 * of t (asvector, epsilon 1e-12; as p_norm_grad in p_norm.c):
 *   p = 0: 0;  p = +-inf: dOut * sign(t) where |t| equals Out, else 0;
 *   otherwise |t|^(p-1) / (Out^(p-1) + 1e-12) * dOut * sign(t)
 * each step in the element type; X@GRAD is that summed over the dims X was
 * broadcast along, Y@GRAD its negation summed alike (in row-major order of
 * the broadcast shape, from 0). */
static int emit_dist_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *in[2] = {tu_in(e, "X", 0), tu_in(e, "Y", 0)}, *out = tu_in(e, "Out", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *dy = ctx_out(&c, "Y@GRAD", 0);
  if (!in[0] || !in[1] || !out || !dout) return -1;
  const int dt = in[0]->dtype;
  Var *const all[6] = {in[0], in[1], out, dout, dx, dy};
  for (int k = 0; k < 6; k++)
    if (all[k] && (all[k]->dtype != dt || (dt != RT_DT_FP32 && dt != RT_DT_FP64)))
      return em_fail(e, "dist_grad of %s tensors is not supported (float32 or float64, all alike)",
                     rt_dtype_name(all[k]->dtype));
  int rank;
  SymDim dims[RT_MAX_RANK];
  if (bc_shape(e, 2, in, RT_MAX_RANK, &rank, dims)) return -1;
  BcastCall k = {.kind = BCAST_DIST_GRAD, .dtype = dt, .p = (float)attr_float(e->op, "p", 2)};
  if (dx) k.dx = em_ptr(e, dx, 0);
  if (dy) k.dy = em_ptr(e, dy, 0);
  if (dx) k.dx_numel = em_numel(e, dx);
  if (dy) k.dy_numel = em_numel(e, dy);
  if ((dx || dy) && k.p != 0) { /* porder 0: the count of non-zeros has no gradient */
    k.x = em_ptr(e, in[0], 1);
    k.y = em_ptr(e, in[1], 1);
    k.out = em_ptr(e, out, 1);
    k.dout = em_ptr(e, dout, 1);
    if (bc_loop(e, rank, dims, 2, in, &k.loop)) return -1;
  }
  bcast_print_c(e->p, &k);
  return 0;
}

const OpDef op_dist_grad = {.type = "dist_grad", .infer = grad_infer, .emit_c = emit_dist_grad};

/* dist (paddle.dist): X, Y -> Out; p:FLOAT=2.
 * Shape rule (phi DistInferMeta): Out is a scalar ([] from Paddle 2.5,
 * [1] before) of X's dtype; X and Y broadcast (NumPy rules).
 * Emission (float32, float64): phi DistKernel, i.e. p_norm of X - Y over
 * all elements (asvector): the count of non-zero differences for p = 0,
 * max |d| for +inf, min |d| for -inf, else (sum |d|^p)^(1/p) with each
 * difference and |d|^p in X's type, 1/p rounded to it, and the sum in
 * double (as compiler/ops/p_norm.c). */
#include <math.h>

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
  const char *t = em_ctype(dt), *fs = dt == RT_DT_FP32 ? "f" : "", *idx[2] = {"ix", "iy"};
  float p = (float)attr_float(e->op, "p", 2);
  const char *init = "0.0", *step, *final = pool_printf("(%s)acc", t);
  if (p == 0) {
    step = "acc += v != 0";
  } else if (isinf(p)) {
    init = p > 0 ? "-INFINITY" : "INFINITY";
    step = p > 0 ? "acc = v > acc ? v : acc" : "acc = v < acc ? v : acc";
  } else {
    step = pool_printf("acc += pow%s(v, %s)", fs, tu_literal(dt, p));
    final = pool_printf("pow%s((%s)acc, %s)", fs, t, tu_literal(dt, 1.0f / p));
  }
  pr_line(e->p, "const %s *x = %s;", t, em_ptr(e, in[0], 1));
  pr_line(e->p, "const %s *y = %s;", t, em_ptr(e, in[1], 1));
  pr_line(e->p, "/* p %s over X - Y broadcast */", em_float(p));
  pr_line(e->p, "double acc = %s;", init);
  int open = bc_open(e, rank, dims, 2, in, idx, 0);
  if (open < 0) return -1;
  pr_line(e->p, "const %s v = fabs%s((%s)(x[ix] - y[iy]));", t, fs, t);
  pr_line(e->p, "%s;", step);
  for (int k = 0; k < open; k++) pr_line(e->p, "}");
  pr_line(e->p, "%s[0] = %s;", em_ptr(e, out, 0), final);
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
  const char *t = em_ctype(dt), *fs = dt == RT_DT_FP32 ? "f" : "", *idx[2] = {"ix", "iy"};
  const float p = (float)attr_float(e->op, "p", 2);
  if (dx) pr_line(e->p, "%s *dx = %s;", t, em_ptr(e, dx, 0));
  if (dy) pr_line(e->p, "%s *dy = %s;", t, em_ptr(e, dy, 0));
  if (dx) pr_line(e->p, "for (int64_t i = 0; i < %s; i++) dx[i] = 0;", em_numel(e, dx));
  if (dy) pr_line(e->p, "for (int64_t i = 0; i < %s; i++) dy[i] = 0;", em_numel(e, dy));
  if ((!dx && !dy) || p == 0) return 0; /* porder 0: the count of non-zeros has no gradient */
  pr_line(e->p, "const %s *x = %s;", t, em_ptr(e, in[0], 1));
  pr_line(e->p, "const %s *y = %s;", t, em_ptr(e, in[1], 1));
  pr_line(e->p, "const %s nv = %s[0], g = %s[0];", t, em_ptr(e, out, 1), em_ptr(e, dout, 1));
  pr_line(e->p, "/* p %s */", em_float(p));
  const char *pm1 = tu_literal(dt, (double)p - 1.0);
  if (!isinf(p)) pr_line(e->p, "const %s den = pow%s(nv, %s) + %s;", t, fs, pm1, tu_literal(dt, 1e-12));
  int open = bc_open(e, rank, dims, 2, in, idx, 0);
  if (open < 0) return -1;
  pr_line(e->p, "const %s v = x[ix] - y[iy];", t);
  pr_line(e->p, "const %s sign = (%s)((v > 0) - (v < 0));", t, t);
  if (isinf(p)) {
    pr_line(e->p, "const %s hit = fabs%s(v) == nv ? 1 : 0;", t, fs);
    pr_line(e->p, "const %s part = hit * sign;", t);
    pr_line(e->p, "const %s d = part * g;", t);
  } else {
    pr_line(e->p, "const %s ratio = pow%s(fabs%s(v), %s) / den;", t, fs, fs, pm1);
    pr_line(e->p, "const %s scaled = ratio * g;", t);
    pr_line(e->p, "const %s d = scaled * sign;", t);
  }
  if (dx) pr_line(e->p, "dx[ix] += d;");
  if (dy) pr_line(e->p, "dy[iy] += -d;");
  for (int k = 0; k < open; k++) pr_line(e->p, "}");
  return 0;
}

const OpDef op_dist_grad = {.type = "dist_grad", .infer = grad_infer, .emit_c = emit_dist_grad};

/* Vector norms along one axis.
 *   p_norm: X -> Out; porder:FLOAT=2, axis:INT=-1, epsilon:FLOAT=1e-12
 *     (only the gradient reads it), keepdim:BOOLEAN=false,
 *     asvector:BOOLEAN=false (the norm of all of X).
 *     Shape rule (phi PNormInferMeta): X without dim `axis` (1 there with
 *     keepdim); with asvector, rank(X) 1s with keepdim, else a scalar
 *     (shape_scalar: [] from 2.5, [1] before).
 *   norm: X -> Out, Norm; axis:INT (-1 in fluid's l2_normalize),
 *     epsilon:FLOAT=1e-10, is_test:BOOLEAN=false.  Out = X / Norm with
 *     Norm = sqrt(sum(X^2 along axis) + epsilon); Out has X's dims, Norm
 *     (not written at is_test) X's dims with 1 at `axis` (phi
 *     NormInferMeta).  A program that reads or fetches Norm at is_test is
 *     refused: Paddle's kernel leaves it unwritten (its executor stops with
 *     "Tensor holds no memory").
 * Emission: X viewed as [pre, n, post] around the axis (n = numel(X) with
 * asvector); one accumulator per (pre, post) line, as phi's CPU kernels:
 * p_norm gives the count of non-zeros for porder 0, max |x| for +inf, min
 * |x| for -inf, and (sum |x|^p)^(1/p) otherwise, with 1/p rounded to float
 * and each |x|^p in X's type.  Sums run in double.  float32 and float64.
 *
 * p_norm_grad: X, Out, Out@GRAD -> X@GRAD (phi PNormGradKernel, CPU): 0 for
 * porder 0; for +-inf, dOut where |x| equals the norm (times sign(x)), 0
 * elsewhere; otherwise |x|^(p-1) / (norm^(p-1) + epsilon) * dOut * sign(x),
 * each step in X's type as Eigen evaluates it. */
#include "../util.h"
#include "ops.h"
#include "pnorm_call.h"
#include "tensor_util.h"

/* Where each dim of a rank-r X goes in the output of a norm along `axis`
 * (-1: all of X, asvector): the others in order, the axis (or every dim)
 * to -1, dropped or kept as 1; so dims the run gives pass on. */
static void norm_dims_to(int r, int axis, int keep, int *to) {
  for (int i = 0, k = 0; i < r; i++) {
    const int gone = axis < 0 || i == axis;
    to[i] = gone ? -1 : k;
    k += !gone || keep;
  }
}

static int infer_p_norm(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int rank = x->shape.rank, keep = attr_bool(c->op, "keepdim", 0);
  int64_t axis = attr_int(c->op, "axis", -1);
  Shape s = {0, {0}};
  if (attr_bool(c->op, "asvector", 0)) {
    for (int i = 0; keep && i < rank; i++) s.d[s.rank++] = 1;
  } else {
    if (rank && (axis < -rank || axis >= rank))
      return ctx_fail(c, "axis %lld is out of range for rank %d", (long long)axis, rank);
    if (axis < 0) axis += rank;
    for (int i = 0; i < rank; i++) {
      if (i != axis) s.d[s.rank++] = x->shape.d[i];
      else if (keep) s.d[s.rank++] = 1;
    }
  }
  if (!s.rank) s = shape_scalar(c);
  ctx_set(c, "Out", 0, &s, x->dtype);
  int to[RT_MAX_RANK];
  norm_dims_to(rank, attr_bool(c->op, "asvector", 0) ? -1 : (int)axis, keep, to);
  ctx_pass_runtime_extents_to(c, x, "Out", 0, to);
  return 0;
}

static int infer_norm(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t a = attr_int(c->op, "axis", -1);
  int axis = axis_norm(a, x->shape.rank);
  if (axis < 0) return ctx_fail(c, "axis %lld is out of range for X %s", (long long)a, shape_str(&x->shape));
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_pass_runtime_extent(c, x, "Out", 0);
  if (!attr_bool(c->op, "is_test", 0)) {
    Shape s = x->shape;
    s.d[axis] = 1;
    ctx_set(c, "Norm", 0, &s, x->dtype);
    int to[RT_MAX_RANK];
    norm_dims_to(x->shape.rank, axis, 1, to);
    ctx_pass_runtime_extents_to(c, x, "Norm", 0, to);
    return 0;
  }
  const Var *norm = ctx_out(c, "Norm", 0);
  if (norm && (norm->nusers || (norm->flags & VAR_FETCH)))
    return ctx_fail(c, "output Norm ('%s') is read or fetched, but with is_test set (as save_inference_model sets "
                       "it) neither Paddle's norm kernel nor paddlec's computes it", norm->name);
  return 0;
}

/* The lines of x viewed as [pre, n, post] around `axis` (all of x as
 * one line when axis < 0), into the record. */
static void lines(EmitCtx *e, const Var *x, int axis, PNormCall *call) {
  int r = tu_rank(e, x);
  call->pre = "1", call->n = em_numel(e, x), call->post = "1";
  if (axis >= 0) {
    call->pre = em_prod(e, x, 0, axis);
    call->n = em_dim(e, x, axis);
    call->post = em_prod(e, x, axis + 1, r);
  }
}

/* float32 or float64 (-1 after em_fail). */
static int float_dtype(EmitCtx *e, const Var *x) {
  if (x->dtype == RT_DT_FP32 || x->dtype == RT_DT_FP64) return x->dtype;
  return em_fail(e, "%s of %s tensors is not supported", e->op->type, rt_dtype_name(x->dtype));
}

/* p_norm's axis: -1 for asvector (or a 0-D X), else the normalized axis;
 * -2 after em_fail. */
static int pnorm_axis(EmitCtx *e, const Var *x) {
  int r = tu_rank(e, x);
  if (attr_bool(e->op, "asvector", 0) || r == 0) return -1;
  int axis = axis_norm(attr_int(e->op, "axis", -1), r);
  return axis < 0 ? (em_fail(e, "axis is out of range"), -2) : axis;
}

static int emit_p_norm(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  const int dt = float_dtype(e, x);
  if (dt < 0) return -1;
  if (out->dtype != x->dtype) return em_fail(e, "X and Out differ in dtype");
  const int axis = pnorm_axis(e, x);
  if (axis < -1) return -1;
  PNormCall call = {.kind = PNORM_FORWARD, .dtype = dt, .porder = (float)attr_float(e->op, "porder", 2),
                    .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0)};
  lines(e, x, axis, &call);
  pnorm_print_c(e->p, &call);
  return 0;
}

static int emit_norm(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  const int dt = float_dtype(e, x);
  if (dt < 0) return -1;
  if (out->dtype != x->dtype) return em_fail(e, "X and Out differ in dtype");
  Var *norm = attr_bool(e->op, "is_test", 0) ? NULL : ctx_out(&c, "Norm", 0);
  if (norm && !(norm = tu_out(e, "Norm", 0))) return -1;
  int axis = axis_norm(attr_int(e->op, "axis", -1), tu_rank(e, x));
  if (axis < 0) return em_fail(e, "axis is out of range");
  tu_pass_extent(e, x, out); /* dims the run gives (infer) */
  if (norm) {
    int to[RT_MAX_RANK];
    norm_dims_to(tu_rank(e, x), axis, 1, to);
    tu_pass_extents_to(e, x, norm, to);
  }
  PNormCall call = {.kind = L2NORM_FORWARD, .dtype = dt, .epsilon = (float)attr_float(e->op, "epsilon", 1e-10),
                    .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0), .norm = norm ? em_ptr(e, norm, 0) : NULL};
  lines(e, x, axis, &call);
  pnorm_print_c(e->p, &call);
  return 0;
}

static int emit_p_norm_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_in(e, "Out", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !out || !dout || !dx) return -1;
  const int dt = float_dtype(e, x);
  if (dt < 0) return -1;
  if (out->dtype != x->dtype || dout->dtype != x->dtype || dx->dtype != x->dtype)
    return em_fail(e, "X, Out, Out@GRAD and X@GRAD differ in dtype");
  const int axis = pnorm_axis(e, x);
  if (axis < -1) return -1;
  PNormCall call = {.kind = PNORM_GRAD, .dtype = dt, .porder = (float)attr_float(e->op, "porder", 2),
                    .epsilon = attr_float(e->op, "epsilon", 1e-12), .numel = em_numel(e, dx), .x = em_ptr(e, x, 1),
                    .out = em_ptr(e, out, 1), .dout = em_ptr(e, dout, 1), .dx = em_ptr(e, dx, 0)};
  lines(e, x, axis, &call);
  pnorm_print_c(e->p, &call);
  return 0;
}

/* norm_grad: X, Norm, Out@GRAD -> X@GRAD (X's shape); axis (epsilon and
 * is_test are not read: Norm already holds sqrt(sum(X^2) + epsilon)).
 * phi NormGradKernel, per line along the axis, in the element type:
 *   s = sum of X * dOut (each product rounded, summed in order);
 *   dX = (dOut - s * X / Norm^2) / Norm */
static int emit_norm_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *norm = tu_in(e, "Norm", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !norm || !dout || !dx) return -1;
  const int dt = float_dtype(e, x);
  if (dt < 0) return -1;
  if (norm->dtype != x->dtype || dout->dtype != x->dtype || dx->dtype != x->dtype)
    return em_fail(e, "X, Norm, Out@GRAD and X@GRAD differ in dtype");
  int axis = axis_norm(attr_int(e->op, "axis", -1), tu_rank(e, x));
  if (axis < 0) return em_fail(e, "axis is out of range");
  PNormCall call = {.kind = L2NORM_GRAD, .dtype = dt, .x = em_ptr(e, x, 1), .norm = em_ptr(e, norm, 1),
                    .dout = em_ptr(e, dout, 1), .dx = em_ptr(e, dx, 0)};
  lines(e, x, axis, &call);
  pnorm_print_c(e->p, &call);
  return 0;
}

static const char *const norm_grad_attr_ignores[] = {"epsilon", "is_test", NULL}; /* see above */
const OpDef op_norm_grad = {.type = "norm_grad", .infer = grad_infer, .emit_c = emit_norm_grad,
                            .attr_ignores = norm_grad_attr_ignores};
/* keepdim: Out's shape carries it; Paddle's grad kernel does not read it */
static const char *const p_norm_grad_attr_ignores[] = {"keepdim", NULL};
const OpDef op_p_norm_grad = {.type = "p_norm_grad", .infer = grad_infer, .emit_c = emit_p_norm_grad,
                              .attr_ignores = p_norm_grad_attr_ignores, .runtime_extents = 2};
const OpDef op_norm = {.type = "norm", .infer = infer_norm, .emit_c = emit_norm, .runtime_extents = 2};
/* epsilon: only Paddle's gradient kernel reads it (phi PNormKernel does not). */
static const char *const p_norm_attr_ignores[] = {"epsilon", NULL};
const OpDef op_p_norm = {.type = "p_norm", .infer = infer_p_norm, .emit_c = emit_p_norm, .runtime_extents = 2,
                         .attr_ignores = p_norm_attr_ignores};

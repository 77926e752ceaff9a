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

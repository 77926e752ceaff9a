/* kron: X, Y -> Out; no attributes.  The Kronecker product.
 * Shape rule (phi KronInferMeta): the lower-rank operand is padded with
 * leading 1s; Out.dims[i] = X.dims[i] * Y.dims[i] (-1 when either is
 * unknown), with X's dtype.
 * Emission: Out's index along dim i is a_i * Y.dims[i] + b_i, so loops over
 * a_0, b_0, a_1, b_1, ... visit Out in memory order: Out[o++] = X[a] *
 * Y[b]. */
#include <string.h>

#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_kron(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  const Shape *xs = &x->shape, *ys = &y->shape;
  int r = xs->rank > ys->rank ? xs->rank : ys->rank;
  Shape s = {r, {0}};
  for (int i = 0; i < r; i++) {
    int64_t a = i < r - xs->rank ? 1 : xs->d[i - (r - xs->rank)];
    int64_t b = i < r - ys->rank ? 1 : ys->d[i - (r - ys->rank)];
    s.d[i] = a == DIM_UNKNOWN || b == DIM_UNKNOWN ? DIM_UNKNOWN : a * b;
  }
  ctx_set(c, "Out", 0, &s, x->dtype);
  return 0;
}

static int emit_kron(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *y = tu_in(e, "Y", 0), *out = tu_out(e, "Out", 0);
  if (!x || !y || !out) return -1;
  if (x->dtype != y->dtype || x->dtype != out->dtype) return em_fail(e, "X, Y and Out differ in dtype");
  if (x->dtype == RT_DT_BOOL) return em_fail(e, "kron of bool tensors is not supported");
  if (x == out || y == out) return em_fail(e, "Out is an input itself (an in-place kron), which is not supported");
  int rx = tu_rank(e, x), ry = tu_rank(e, y), r = rx > ry ? rx : ry;
  const char *xst[RT_MAX_RANK], *yst[RT_MAX_RANK], *xi = "0", *yi = "0";
  tu_strides(e, x, xst);
  tu_strides(e, y, yst);
  const char *t = em_ctype(x->dtype);
  pr_line(e->p, "const %s *x = %s;", t, em_ptr(e, x, 1));
  pr_line(e->p, "const %s *y = %s;", t, em_ptr(e, y, 1));
  pr_line(e->p, "%s *out = %s;", t, em_ptr(e, out, 0));
  pr_line(e->p, "int64_t o = 0;");
  int loops = 0;
  for (int i = 0; i < r; i++) {
    int jx = i - (r - rx), jy = i - (r - ry);
    const char *dx = jx >= 0 ? em_dim(e, x, jx) : "1", *dy = jy >= 0 ? em_dim(e, y, jy) : "1";
    if (strcmp(dx, "1")) {
      pr_line(e->p, "for (int64_t a%d = 0; a%d < %s; a%d++) {", i, i, dx, i);
      xi = tu_add(xi, tu_mul(pool_printf("a%d", i), xst[jx]));
      loops++;
    }
    if (strcmp(dy, "1")) {
      pr_line(e->p, "for (int64_t b%d = 0; b%d < %s; b%d++) {", i, i, dy, i);
      yi = tu_add(yi, tu_mul(pool_printf("b%d", i), yst[jy]));
      loops++;
    }
  }
  pr_line(e->p, "out[o++] = x[%s] * y[%s];", xi, yi);
  for (int k = 0; k < loops; k++) pr_line(e->p, "}");
  return 0;
}

const OpDef op_kron = {.type = "kron", .infer = infer_kron, .emit_c = emit_kron};

/* Loops over the elements of one operand of kron (`pre` "a" for X, "b"
 * for Y; dims padded with leading 1s to rank r), in its memory order:
 * opens one loop per dim longer than 1 and returns how many. */
static int operand_loops(EmitCtx *e, const Var *v, int r, const char *pre) {
  int rv = tu_rank(e, v), loops = 0;
  for (int i = 0; i < r; i++) {
    int j = i - (r - rv);
    const char *d = j >= 0 ? em_dim(e, v, j) : "1";
    if (!strcmp(d, "1")) {
      pr_line(e->p, "const int64_t %s%d = 0;", pre, i);
      continue;
    }
    pr_line(e->p, "for (int64_t %s%d = 0; %s%d < %s; %s%d++) {", pre, i, pre, i, d, pre, i);
    loops++;
  }
  return loops;
}

/* kron_grad: X, Y, Out@GRAD -> X@GRAD, Y@GRAD (each optional).  phi
 * KronGradKernel: with Out's index a_i * Y.dims[i] + b_i along dim i,
 *   dX[a] = sum over b of dOut[a, b] * Y[b],  dY[b] = sum over a of
 *   dOut[a, b] * X[a]
 * each product rounded, then summed in the other operand's memory order
 * (the rows of Paddle's [numel(X), numel(Y)] and [numel(Y), numel(X)]
 * products). */
static int emit_kron_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X", 0), *y = tu_in(e, "Y", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *dy = ctx_out(&c, "Y@GRAD", 0);
  if (!x || !y || !dout) return -1;
  Var *const all[5] = {x, y, dout, dx, dy};
  for (int k = 0; k < 5; k++)
    if (all[k] && (all[k]->dtype != x->dtype || (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64)))
      return em_fail(e, "kron_grad of %s tensors is not supported (float32 or float64, all alike)",
                     rt_dtype_name(all[k]->dtype));
  int rx = tu_rank(e, x), ry = tu_rank(e, y), r = tu_rank(e, dout);
  if (rx > r || ry > r) return em_fail(e, "Out@GRAD has fewer dims than X or Y");
  const char *xst[RT_MAX_RANK], *yst[RT_MAX_RANK], *ost[RT_MAX_RANK], *xi = "0", *yi = "0", *oi = "0";
  tu_strides(e, x, xst);
  tu_strides(e, y, yst);
  tu_strides(e, dout, ost);
  for (int i = 0; i < r; i++) {
    int jx = i - (r - rx), jy = i - (r - ry);
    const char *a = pool_printf("a%d", i), *b = pool_printf("b%d", i);
    if (jx >= 0) xi = tu_add(xi, tu_mul(a, xst[jx]));
    if (jy >= 0) yi = tu_add(yi, tu_mul(b, yst[jy]));
    const char *pos = tu_add(tu_mul(a, jy >= 0 ? em_dim(e, y, jy) : "1"), b);
    oi = tu_add(oi, tu_mul(pool_printf("(%s)", pos), ost[i]));
  }
  const char *t = em_ctype(x->dtype);
  pr_line(e->p, "const %s *x = %s;", t, em_ptr(e, x, 1));
  pr_line(e->p, "const %s *y = %s;", t, em_ptr(e, y, 1));
  pr_line(e->p, "const %s *dout = %s;", t, em_ptr(e, dout, 1));
  for (int k = 0; k < 2; k++) {
    Var *g = k ? dy : dx;
    if (!g) continue;
    pr_line(e->p, "{");
    pr_line(e->p, "%s *g = %s;", t, em_ptr(e, g, 0));
    int outer = operand_loops(e, k ? y : x, r, k ? "b" : "a");
    pr_line(e->p, "%s acc = 0;", t);
    int inner = operand_loops(e, k ? x : y, r, k ? "a" : "b");
    pr_line(e->p, "const %s p = dout[%s] * %s[%s];", t, oi, k ? "x" : "y", k ? xi : yi);
    pr_line(e->p, "acc += p;");
    for (int i = 0; i < inner; i++) pr_line(e->p, "}");
    pr_line(e->p, "g[%s] = acc;", k ? yi : xi);
    for (int i = 0; i < outer; i++) pr_line(e->p, "}");
    pr_line(e->p, "}");
  }
  return 0;
}

const OpDef op_kron_grad = {.type = "kron_grad", .infer = grad_infer, .emit_c = emit_kron_grad};

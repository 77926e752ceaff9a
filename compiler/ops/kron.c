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

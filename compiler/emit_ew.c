/* Element-wise loop emission (see emit_ew.h). */
#include "emit_ew.h"

#include <stdio.h>
#include <string.h>

#include "util.h"

int ew_unary(EmitCtx *e, const Var *x, const Var *out, const char *setup, const char *expr) {
  const char *t = em_ctype(x->dtype), *to = em_ctype(out->dtype);
  if (!t || !to) return em_fail(e, "dtype %s is not supported", rt_dtype_name(x->dtype));
  pr_line(e->p, "const %s *x = %s;", t, em_ptr(e, x, 1));
  pr_line(e->p, "%s *out = %s;", to, em_ptr(e, out, 0));
  if (setup) pr_line(e->p, "%s", setup);
  pr_line(e->p, "for (int64_t i = 0; i < %s; i++) {", em_numel(e, out));
  pr_line(e->p, "const %s v = x[i];", t);
  pr_line(e->p, "out[i] = %s;", expr);
  pr_line(e->p, "}");
  return 0;
}

/* One collapsed loop dim: its extent and whether x / y run along it. */
typedef struct EwDim {
  const char *extent; /* C expression */
  int xs, ys;         /* 1 when the operand varies along this dim */
} EwDim;

static const char *mul(const char *a, const char *b) {
  if (!strcmp(a, "1")) return b;
  if (!strcmp(b, "1")) return a;
  return pool_printf("%s * %s", a, b);
}

int ew_binary(EmitCtx *e, const Var *x, const Var *y, const Var *out, int64_t axis, const char *expr) {
  return ew_binary_bind(e, x, y, out, axis, NULL, expr);
}

int ew_binary_bind(EmitCtx *e, const Var *x, const Var *y, const Var *out, int64_t axis, const char *bind,
                   const char *expr) {
  const VarSpec *xs = em_spec(e, x), *ys = em_spec(e, y), *os = em_spec(e, out);
  const char *tx = em_ctype(x->dtype), *ty = em_ctype(y->dtype), *to = em_ctype(out->dtype);
  if (!tx || !ty || !to) return em_fail(e, "dtype %s is not supported", rt_dtype_name(x->dtype));
  int r = os->rank;
  int xr = xs->rank, yr = ys->rank;
  int diff = xr > yr ? xr - yr : yr - xr;
  if (axis < 0 || xr == yr) axis = diff;
  /* pad the lower-rank operand with 1s around `axis` (Paddle's rule) */
  SymDim xd[RT_MAX_RANK], yd[RT_MAX_RANK];
  for (int i = 0; i < r; i++) {
    int jx = xr < r ? i - (int)axis : i, jy = yr < r ? i - (int)axis : i;
    xd[i] = jx >= 0 && jx < xr ? xs->d[jx] : (SymDim){0, 1};
    yd[i] = jy >= 0 && jy < yr ? ys->d[jy] : (SymDim){0, 1};
  }
  EwDim dims[RT_MAX_RANK];
  int nd = 0;
  for (int i = 0; i < r; i++) {
    SymDim od = os->d[i];
    if (od.a == 0 && od.c == 1) continue; /* size-1 dims do not move any index */
    int xv = !(xd[i].a == 0 && xd[i].c == 1), yv = !(yd[i].a == 0 && yd[i].c == 1);
    const char *ext = em_sym(od);
    if (nd && dims[nd - 1].xs == xv && dims[nd - 1].ys == yv)
      dims[nd - 1].extent = mul(dims[nd - 1].extent, ext);
    else
      dims[nd++] = (EwDim){ext, xv, yv};
  }
  pr_line(e->p, "const %s *x = %s;", tx, em_ptr(e, x, 1));
  pr_line(e->p, "const %s *y = %s;", ty, em_ptr(e, y, 1));
  pr_line(e->p, "%s *out = %s;", to, em_ptr(e, out, 0));
  if (nd <= 1) { /* same shapes, or one operand a scalar */
    int xv = nd ? dims[0].xs : 0, yv = nd ? dims[0].ys : 0;
    pr_line(e->p, "for (int64_t i = 0; i < %s; i++) {", nd ? dims[0].extent : "1");
    pr_line(e->p, "const %s a = x[%s];", tx, xv ? "i" : "0");
    pr_line(e->p, "const %s b = y[%s];", ty, yv ? "i" : "0");
    if (bind) pr_line(e->p, "const %s v = %s;", to, bind);
    pr_line(e->p, "out[i] = %s;", expr);
    pr_line(e->p, "}");
    return 0;
  }
  for (int k = 0; k < nd; k++) pr_line(e->p, "const int64_t n%d = %s;", k, dims[k].extent);
  /* strides: an operand's stride along dim k is the product of the later
   * dims it varies along */
  const char *xst[RT_MAX_RANK], *yst[RT_MAX_RANK];
  const char *xacc = "1", *yacc = "1";
  for (int k = nd - 1; k >= 0; k--) {
    const char *nk = pool_printf("n%d", k);
    xst[k] = dims[k].xs ? xacc : NULL;
    yst[k] = dims[k].ys ? yacc : NULL;
    if (dims[k].xs) xacc = mul(xacc, nk);
    if (dims[k].ys) yacc = mul(yacc, nk);
  }
  pr_line(e->p, "int64_t o = 0;");
  for (int k = 0; k < nd; k++) pr_line(e->p, "for (int64_t i%d = 0; i%d < n%d; i%d++) {", k, k, k, k);
  const char *xi = "0", *yi = "0";
  for (int k = 0; k < nd; k++) {
    if (xst[k]) xi = !strcmp(xi, "0") ? mul(pool_printf("i%d", k), xst[k]) : pool_printf("%s + %s", xi, mul(pool_printf("i%d", k), xst[k]));
    if (yst[k]) yi = !strcmp(yi, "0") ? mul(pool_printf("i%d", k), yst[k]) : pool_printf("%s + %s", yi, mul(pool_printf("i%d", k), yst[k]));
  }
  pr_line(e->p, "const %s a = x[%s];", tx, xi);
  pr_line(e->p, "const %s b = y[%s];", ty, yi);
  if (bind) pr_line(e->p, "const %s v = %s;", to, bind);
  pr_line(e->p, "out[o++] = %s;", expr);
  for (int k = 0; k < nd; k++) pr_line(e->p, "}");
  return 0;
}

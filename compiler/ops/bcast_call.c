/* The C printer of broadcasting kernels (bcast_call.h). */
#include "bcast_call.h"

#include <math.h>
#include <string.h>

#include "../util.h"
#include "tensor_util.h"

/* Opens the loops of l (i<d>) and declares, for the current element, `o`
 * (its flat index in the broadcast shape; when want_o) and idx[k] (operand
 * k's flat index); returns how many "}" close them. */
static int open_loop(Printer *p, const BcLoop *l, int want_o, const char *const *idx) {
  const char *ix[BC_MAX_IN], *o = "0", *step = "1";
  for (int k = 0; k < BC_MAX_IN; k++) ix[k] = "0";
  for (int d = l->rank - 1; d >= 0; d--) { /* the indices from the last dim on */
    if (!strcmp(l->ext[d], "1")) continue;
    const char *i = pool_printf("i%d", d);
    o = tu_add(tu_mul(i, step), o);
    step = tu_mul(step, l->ext[d]);
    for (int k = 0; k < l->n; k++)
      if (strcmp(l->stride[k][d], "0")) ix[k] = tu_add(tu_mul(i, l->stride[k][d]), ix[k]);
  }
  int open = 0;
  for (int d = 0; d < l->rank; d++) {
    if (!strcmp(l->ext[d], "1")) continue;
    pr_line(p, "for (int64_t i%d = 0; i%d < %s; i%d++) {", d, d, l->ext[d], d);
    open++;
  }
  if (want_o) pr_line(p, "const int64_t o = %s;", o);
  for (int k = 0; k < l->n; k++) pr_line(p, "const int64_t %s = %s;", idx[k], ix[k]);
  return open;
}

/* phi lerp_kernel_impl.h's Eigen expression, per element of out. */
static void print_lerp(Printer *p, const BcastCall *c) {
  const char *t = em_ctype(c->dtype);
  pr_line(p, "const %s *x = %s;", t, c->x);
  pr_line(p, "const %s *y = %s;", t, c->y);
  pr_line(p, "const %s *w = %s;", t, c->w);
  pr_line(p, "%s *out = %s;", t, c->out);
  int open = open_loop(p, &c->loop, 1, (const char *const[]){"ix", "iy", "iw"});
  pr_line(p, "out[o] = x[ix] + w[iw] * (y[iy] - x[ix]);");
  pr_close(p, open);
}

/* phi DistKernel: the count of non-zero differences for p 0, max |d| for
 * +inf, min |d| for -inf, else (sum |d|^p)^(1/p); the sum in double. */
static void print_dist(Printer *p, const BcastCall *c) {
  const int dt = c->dtype;
  const char *t = em_ctype(dt), *fs = dt == RT_DT_FP32 ? "f" : "";
  const char *init = "0.0", *step, *final = pool_printf("(%s)acc", t);
  if (c->p == 0) {
    step = "acc += v != 0";
  } else if (isinf(c->p)) {
    init = c->p > 0 ? "-INFINITY" : "INFINITY";
    step = c->p > 0 ? "acc = v > acc ? v : acc" : "acc = v < acc ? v : acc";
  } else {
    step = pool_printf("acc += pow%s(v, %s)", fs, tu_literal(dt, c->p));
    final = pool_printf("pow%s((%s)acc, %s)", fs, t, tu_literal(dt, 1.0f / c->p));
  }
  pr_line(p, "const %s *x = %s;", t, c->x);
  pr_line(p, "const %s *y = %s;", t, c->y);
  pr_line(p, "/* p %s over X - Y broadcast */", em_float(c->p));
  pr_line(p, "double acc = %s;", init);
  int open = open_loop(p, &c->loop, 0, (const char *const[]){"ix", "iy"});
  pr_line(p, "const %s v = fabs%s((%s)(x[ix] - y[iy]));", t, fs, t);
  pr_line(p, "%s;", step);
  pr_close(p, open);
  pr_line(p, "%s[0] = %s;", c->out, final);
}

/* phi DistGradKernel: PNormGradKernel over all of x - y (epsilon 1e-12),
 * added into dx and (negated) dy at the difference's operands. */
static void print_dist_grad(Printer *p, const BcastCall *c) {
  const int dt = c->dtype;
  const char *t = em_ctype(dt), *fs = dt == RT_DT_FP32 ? "f" : "";
  if (c->dx) pr_line(p, "%s *dx = %s;", t, c->dx);
  if (c->dy) pr_line(p, "%s *dy = %s;", t, c->dy);
  if (c->dx) pr_line(p, "for (int64_t i = 0; i < %s; i++) dx[i] = 0;", c->dx_numel);
  if (c->dy) pr_line(p, "for (int64_t i = 0; i < %s; i++) dy[i] = 0;", c->dy_numel);
  if (!c->x) return; /* porder 0: the count of non-zeros has no gradient */
  pr_line(p, "const %s *x = %s;", t, c->x);
  pr_line(p, "const %s *y = %s;", t, c->y);
  pr_line(p, "const %s nv = %s[0], g = %s[0];", t, c->out, c->dout);
  pr_line(p, "/* p %s */", em_float(c->p));
  const char *pm1 = tu_literal(dt, (double)c->p - 1.0);
  if (!isinf(c->p)) pr_line(p, "const %s den = pow%s(nv, %s) + %s;", t, fs, pm1, tu_literal(dt, 1e-12));
  int open = open_loop(p, &c->loop, 0, (const char *const[]){"ix", "iy"});
  pr_line(p, "const %s v = x[ix] - y[iy];", t);
  pr_line(p, "const %s sign = (%s)((v > 0) - (v < 0));", t, t);
  if (isinf(c->p)) {
    pr_line(p, "const %s hit = fabs%s(v) == nv ? 1 : 0;", t, fs);
    pr_line(p, "const %s part = hit * sign;", t);
    pr_line(p, "const %s d = part * g;", t);
  } else {
    pr_line(p, "const %s ratio = pow%s(fabs%s(v), %s) / den;", t, fs, fs, pm1);
    pr_line(p, "const %s scaled = ratio * g;", t);
    pr_line(p, "const %s d = scaled * sign;", t);
  }
  if (c->dx) pr_line(p, "dx[ix] += d;");
  if (c->dy) pr_line(p, "dy[iy] += -d;");
  pr_close(p, open);
}

/* The gradient task's body (bcast_util.h bc_grad): g[j] starts at 0 and
 * adds its terms in row-major order of full, each term a statement of its
 * own (no multiply-add contracted into one rounding); g[j] = term when g is
 * broadcast along no dim. */
static void print_grad(Printer *p, const BcGrad *g) {
  const int n = g->n, nd = g->nd;
  /* each tensor's index: the loop counters times its strides (the product
   * of the later extents it moves along); gsz = g's elements per row of
   * the outermost dim */
  const char *idx[BC_GRAD_MAX_IN], *gsz = "1";
  for (int k = 0; k <= n; k++) {
    const char *acc = "1";
    idx[k] = "0";
    for (int i = nd - 1; i >= 0; i--) {
      if (!g->varies[i][k]) continue;
      if (i == 0 && k == n) gsz = acc;
      idx[k] = tu_add(tu_mul(pool_printf("i%d", i), acc), idx[k]);
      acc = tu_mul(acc, i ? pool_printf("n%d", i) : "rows");
    }
  }
  const char *gp = g->ptr[n];
  for (int k = 0; k < n; k++) pr_line(p, "const %s *%s = %s;", g->ctype[k], g->ptr[k], g->at[k]);
  pr_line(p, "%s *%s = %s;", g->gtype, gp, g->at[n]);
  for (int i = 1; i < nd; i++) pr_line(p, "const int64_t n%d = %s;", i, g->ext[i]);
  if (g->reduce) {
    if (g->split)
      pr_line(p, "for (int64_t j = lo * %s; j < hi * %s; j++) %s[j] = 0.0f;", gsz, gsz, gp);
    else
      pr_line(p, "for (int64_t j = 0; j < %s; j++) %s[j] = 0.0f;", g->gnumel, gp);
  }
  if (nd == 0) { /* one element */
    pr_line(p, "(void)lo, (void)hi;");
  } else if (g->split) {
    pr_line(p, "for (int64_t i0 = lo; i0 < hi; i0++) {");
  } else {
    pr_line(p, "(void)lo, (void)hi; /* one task: the sums run along the outermost dim */");
    pr_line(p, "for (int64_t i0 = 0; i0 < %s; i0++) {", g->ext[0]);
  }
  for (int i = 1; i < nd; i++) pr_line(p, "for (int64_t i%d = 0; i%d < n%d; i%d++) {", i, i, i, i);
  for (int k = 0; k < n; k++) pr_line(p, "const %s %s = %s[%s];", g->ctype[k], g->elem[k], g->ptr[k], idx[k]);
  for (const char *l = g->body; l && *l;) { /* one pr_line per line, so braces indent */
    const char *nl = strchr(l, '\n');
    int len = nl ? (int)(nl - l) : (int)strlen(l);
    pr_line(p, "%.*s", len, l);
    l = nl ? nl + 1 : l + len;
  }
  if (g->reduce) {
    pr_line(p, "const %s t = %s;", g->gtype, g->term);
    pr_line(p, "%s[%s] += t;", gp, idx[n]);
  } else {
    pr_line(p, "%s[%s] = %s;", gp, idx[n], g->term);
  }
  pr_close(p, nd);
}

void bcast_print_c(Printer *p, const BcastCall *c) {
  switch (c->kind) {
    case BCAST_LERP: print_lerp(p, c); return;
    case BCAST_DIST: print_dist(p, c); return;
    case BCAST_DIST_GRAD: print_dist_grad(p, c); return;
    case BCAST_GRAD_OPEN: pr_line(p, "{"); return;
    case BCAST_GRAD: print_grad(p, &c->grad); return;
    case BCAST_GRAD_CLOSE: pr_line(p, "}"); return;
  }
}

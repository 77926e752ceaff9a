/* The C printer of reductions (reduce_call.h). */
#include "reduce_call.h"

#include <string.h>

#include "../util.h"
#include "tensor_util.h"

static void print_runs(Printer *p, const ReduceCall *c) {
  for (int k = 0; k < c->nruns; k++) pr_line(p, "const int64_t n%d = %s;", k, c->run_n[k]);
}

static void open_loop(Printer *p, int k) { pr_line(p, "for (int64_t i%d = 0; i%d < n%d; i%d++) {", k, k, k, k); }

/* The index into Out of the element loops i0.. (the first `upto` runs)
 * are at: the kept runs' positions, strided. */
static const char *out_index(const ReduceCall *c, int upto) {
  const char *acc = "1", *st[RT_MAX_RANK], *oi = "0";
  for (int k = c->nruns - 1; k >= 0; k--) {
    st[k] = c->ostep ? pool_printf("%s[%d]", c->ostep, k) : c->run_reduced[k] ? "0" : acc;
    if (!c->run_reduced[k]) acc = tu_mul(acc, pool_printf("n%d", k));
  }
  for (int k = 0; k < upto; k++) oi = tu_add(oi, tu_mul(pool_printf("i%d", k), st[k]));
  return oi;
}

/* The forward: out starts at init; the outer runs' loops fold each element
 * of x into its output element, the innermost reduced run into a local
 * accumulator; `final` maps each result at the end. */
static void print_forward(Printer *p, const ReduceCall *c) {
  const char *t = c->type;
  if (c->empty) pr_line(p, "if (%s == 0) return 1;", c->empty);
  pr_line(p, "const %s *x = %s;", c->x_type, c->x);
  pr_line(p, "%s *out = %s;", t, c->out);
  pr_line(p, "for (int64_t i = 0; i < %s; i++) out[i] = %s;", c->kept, c->init);
  print_runs(p, c);
  const int nr = c->nruns, inner_acc = nr > 0 && c->run_reduced[nr - 1] && !c->ostep,
            outer = inner_acc ? nr - 1 : nr;
  const char *xacc = "1", *xst[RT_MAX_RANK], *xi = "0";
  for (int k = nr - 1; k >= 0; k--) {
    xst[k] = xacc;
    xacc = tu_mul(xacc, pool_printf("n%d", k));
  }
  for (int k = 0; k < outer; k++) {
    open_loop(p, k);
    xi = tu_add(xi, tu_mul(pool_printf("i%d", k), xst[k]));
  }
  const char *oi = out_index(c, outer);
  if (inner_acc) {
    pr_line(p, "%s acc = out[%s];", c->wide ? "double" : t, oi);
    open_loop(p, nr - 1);
    pr_line(p, "const %s v = (%s)x[%s];", t, t, tu_add(xi, pool_printf("i%d", nr - 1)));
    pr_line(p, "acc = %s;", c->step);
    pr_line(p, "}");
    pr_line(p, "out[%s] = %sacc;", oi, c->wide ? "(float)" : "");
  } else {
    pr_line(p, "const %s v = (%s)x[%s];", t, t, xi);
    pr_line(p, "const %s acc = out[%s];", t, oi);
    pr_line(p, "out[%s] = %s;", oi, c->step);
  }
  for (int k = 0; k < outer; k++) pr_line(p, "}");
  if (c->final) {
    if (strstr(c->final, "count")) pr_line(p, "const int64_t count = %s;", c->count);
    pr_line(p, "for (int64_t i = 0; i < %s; i++) {", c->kept);
    pr_line(p, "const %s acc = out[i];", t);
    pr_line(p, "out[i] = %s;", pool_printf(c->final, t));
    pr_line(p, "}");
  }
}

/* The grad: every element of dx in memory order from its dout element
 * (amax / amin count the elements equal to each extreme first). */
static void print_grad(Printer *p, const ReduceCall *c) {
  const char *t = c->type;
  const int nr = c->nruns, need = c->out != NULL;
  pr_line(p, "const %s *dout = %s;", t, c->dout);
  if (need) pr_line(p, "const %s *x = %s;", t, c->x);
  if (need) pr_line(p, "const %s *out = %s;", t, c->out);
  pr_line(p, "%s *dx = %s;", t, c->dx);
  if (c->grad == RGRAD_MEAN) pr_line(p, "const %s count = (%s)(%s);", t, t, c->count);
  print_runs(p, c);
  const char *oi = out_index(c, nr);
  if (c->grad == RGRAD_SHARE) {
    pr_line(p, "%s *cnt = (%s *)%s;", t, t, c->cnt);
    pr_line(p, "for (int64_t i = 0; i < %s; i++) cnt[i] = 0;", c->cnt_n);
    pr_line(p, "int64_t at = 0;");
    for (int k = 0; k < nr; k++) open_loop(p, k);
    pr_line(p, "if (x[at] == out[%s]) cnt[%s] += 1;", oi, oi);
    pr_line(p, "at++;");
    for (int k = 0; k < nr; k++) pr_line(p, "}");
  }
  pr_line(p, c->grad == RGRAD_SHARE ? "at = 0;" : "int64_t at = 0;");
  for (int k = 0; k < nr; k++) open_loop(p, k);
  pr_line(p, "const %s g = dout[%s];", t, oi);
  switch (c->grad) {
    case RGRAD_SELECT: pr_line(p, "dx[at] = x[at] == out[%s] ? g : 0;", oi); break;
    case RGRAD_SHARE: pr_line(p, "dx[at] = g * (%s)(x[at] == out[%s]) / cnt[%s];", t, oi, oi); break;
    case RGRAD_PROD: pr_line(p, "dx[at] = g * out[%s] * (1 / x[at]);", oi); break;
    case RGRAD_FROBENIUS: pr_line(p, "dx[at] = x[at] / (out[%s] + (%s)1e-12f) * g;", oi, t); break;
    case RGRAD_MEAN: pr_line(p, "dx[at] = g / count;"); break;
    case RGRAD_SUM: pr_line(p, "dx[at] = g;"); break;
  }
  pr_line(p, "at++;");
  for (int k = 0; k < nr; k++) pr_line(p, "}");
}

/* mean_grad: the one Out@GRAD element over the count, in the type. */
static void print_mean_all_grad(Printer *p, const ReduceCall *c) {
  const char *t = c->type;
  pr_line(p, "const %s g = %s[0] / (%s)(%s);", t, c->dout, t, c->count);
  pr_line(p, "%s *dx = %s;", t, c->dx);
  pr_line(p, "for (int64_t i = 0; i < %s; i++) dx[i] = g;", c->count);
}

static const char *joined(const char *const *v, int n) {
  const char *s = "";
  for (int i = 0; i < n; i++) s = pool_printf("%s%s%s", s, i ? ", " : "", v[i]);
  return s;
}

void reduce_print_run_axes(Printer *p, const ReduceAxes *a) {
  const int r = a->r;
  pr_line(p, "/* the reduced dims, the run's: the axes' values (a negative one counts from the end)%s */",
          a->all ? "; every dim, as Paddle reduces them all when the axes are as many as X's dims" : "");
  pr_line(p, "const int64_t axes[%d] = {%s};", a->n, joined(a->axes, a->n));
  pr_line(p, "const int64_t xd[%d] = {%s};", r, joined(a->xd, r));
  pr_line(p, "int red[%d] = {0};", r);
  pr_line(p, "for (int k = 0; k < %d; k++) {", a->n);
  pr_line(p, "const int64_t at = axes[k] < 0 ? axes[k] + %d : axes[k];", r);
  pr_line(p, "if (at < 0 || at >= %d) return 1;", r);
  pr_line(p, "red[at] = 1;");
  pr_line(p, "}");
  if (a->all) pr_line(p, "for (int i = 0; i < %d; i++) red[i] = 1;", r);
  pr_line(p, "int64_t ostep[%d], %skept = 1;", r, a->count ? "red_count = 1, " : "");
  pr_line(p, "for (int i = %d; i >= 0; i--) {", r - 1);
  pr_line(p, "ostep[i] = red[i] ? 0 : kept;");
  if (a->count) pr_line(p, "if (red[i]) red_count *= xd[i];");
  pr_line(p, "%sif (!red[i]) kept *= xd[i];", a->count ? "else " : "");
  pr_line(p, "}");
  if (a->out_rank < 0) return;
  if (a->keep) {
    pr_line(p, "int64_t od[%d];", r);
    pr_line(p, "for (int i = 0; i < %d; i++) od[i] = red[i] ? 1 : xd[i];", r);
    return;
  }
  if (a->out_rank > 0) pr_line(p, "int64_t od[%d] = {0};", a->out_rank);
  pr_line(p, "int j = 0;");
  pr_line(p, "for (int i = 0; i < %d; i++) {", r);
  if (a->out_rank > 0) pr_line(p, "if (!red[i] && j < %d) od[j] = xd[i];", a->out_rank);
  pr_line(p, "j += !red[i];");
  pr_line(p, "}");
  pr_line(p, "if (j != %d) return 1; /* a repeated axis: Out's rank would be the run's */", a->out_rank);
}

void reduce_print_c(Printer *p, const ReduceCall *c) {
  switch (c->kind) {
    case REDUCE_FORWARD: print_forward(p, c); break;
    case REDUCE_GRAD: print_grad(p, c); break;
    case REDUCE_MEAN_ALL_GRAD: print_mean_all_grad(p, c); break;
  }
}

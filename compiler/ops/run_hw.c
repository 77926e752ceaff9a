/* Run-time height and width of 2-D ops (run_hw.h). */
#include "run_hw.h"

#include <string.h>

#include "../util.h"

/* The op's inputs but x have no run-time extents, or those of out (a
 * residual shaped like the output: same_runtime_extent on the same dims);
 * -1 after ctx_fail. */
static int others_fit(OpCtx *c, const Var *x, const Var *out) {
  for (int s = 0; s < c->op->nin; s++)
    for (int a = 0; a < c->op->in[s].n; a++) {
      const int id = c->op->in[s].vars[a];
      const Var *v = id >= 0 ? &c->g->vars[id] : NULL;
      if (!v || v == x || !var_runtime_mask(v)) continue;
      if (out && same_runtime_extent(v, out) && var_runtime_mask(v) == var_runtime_mask(out)) continue;
      return ctx_fail(c, "dim %d of input %s ('%s') is only known at run time (from its %s); %s takes run-time "
                      "sizes only in its input's height and width, and in an input shaped like its output",
                      v->runtime_axis, c->op->in[s].name, v->name, v->runtime_from ? v->runtime_from : "inputs",
                      c->op->type);
    }
  return 0;
}

int run_hw_infer(OpCtx *c, const Var *x, const char *slot, int sp0, const RunHwRule *rule) {
  const unsigned run = var_runtime_mask(x);
  if (!run) return others_fit(c, x, NULL);
  const int n = rule->dims == 1 || rule->dims == 3 ? rule->dims : 2; /* rule is read only from here on (run_hw.h) */
  const unsigned hw = ((1u << n) - 1) << sp0;
  if (run & ~hw & ~(rule->batch ? 1u : 0u))
    return ctx_fail(c, "dims of input '%s' other than its %s are only known at run time (from its %s); %s takes "
                    "run-time sizes only in those", x->name,
                    pool_printf("%s%s", rule->batch ? "batch, " : "",
                                n == 1 ? "length" : n == 3 ? "depth, height and width" : "height and width"),
                    x->runtime_from ? x->runtime_from : "inputs", c->op->type);
  unsigned out = run, keep = 1;
  for (int i = 0; i < n; i++) {
    if (rule->fixed[i]) out &= ~(1u << (sp0 + i));
    keep &= rule->fixed[i] || (!rule->name && (rule->mul[i] ? rule->mul[i] == 1 && rule->add[i] == 0
                                                             : rule->add[i] == -1 && rule->stride[i] == 1));
  }
  if (!out) return others_fit(c, x, NULL) ? -1 : 1;
  ctx_set_runtime_extents(c, slot, 0, out, x->runtime_from);
  Var *v = ctx_out(c, slot, 0);
  if (!v) return 1;
  if (keep) {
    ctx_inherit_root(v, x, out == run);
    return others_fit(c, x, v) ? -1 : 1;
  }
  const char *key = rule->name ? pool_printf("%d:%u:%s", x->runtime_root, out, rule->name)
                                : pool_printf("%d:%u", x->runtime_root, out);
  for (int i = 0; i < n && !rule->name; i++) /* one mul * add / stride per dim */
    key = pool_printf("%s:%lld*%lld/%lld", key, (long long)rule->mul[i], (long long)rule->add[i],
                      (long long)rule->stride[i]);
  run_hw_share_root(c->g, v, key);
  return others_fit(c, x, v) ? -1 : 1;
}

void run_hw_share_root(const Graph *g, Var *v, const char *rule) {
  v->runtime_rule = rule;
  for (const Var *w = g->vars; w < g->vars + g->nvars; w++) /* the first inferred (one before, or one of the
                                                              * last probe's) */
    if (w != v && var_runtime_axis(w) >= 0 && w->runtime_rule && !strcmp(w->runtime_rule, rule)) {
      v->runtime_root = w->runtime_root;
      return;
    }
}

/* in + k as C ("h_in", "h_in + 2", "h_in - 1"). */
static const char *plus(const char *in, int64_t k) {
  if (!k) return in;
  return pool_printf("%s %s %lld", in, k < 0 ? "-" : "+", (long long)(k < 0 ? -k : k));
}

const char *run_hw_bound_text(EmitCtx *e, const Var *v) {
  const VarSpec *vs = em_spec(e, v);
  const char *s = "[";
  for (int d = 0; d < vs->rank; d++) s = pool_printf("%s%s%s", s, d ? ", " : "", em_sym(vs->d[d]));
  return pool_printf("%s]", s);
}

void run_hw_print(EmitCtx *e, const Var *x, const Var *out, int sp0, const RunHwRule *rule, const char *why) {
  static const char *const in3[3] = {"d_in", "h_in", "w_in"}, *const on3[3] = {"d_out", "h_out", "w_out"};
  const int n = rule->dims == 3 ? 3 : 2; /* the names of the last n */
  const char *const *in = in3 + 3 - n, *const *on = on3 + 3 - n;
  if (e->size_classes)
    pr_line(e->p, "/* the run's sizes of '%s' and '%s' */", x->name, out->name);
  else
    pr_line(e->p, "/* the run's sizes: '%s' is at most %s, '%s' at most %s */", x->name, run_hw_bound_text(e, x),
            out->name, run_hw_bound_text(e, out));
  if (n == 3) pr_line(e->p, "const int64_t d_in = %s;", em_dim(e, x, sp0));
  pr_line(e->p, "const int64_t h_in = %s, w_in = %s;", em_dim(e, x, sp0 + n - 2), em_dim(e, x, sp0 + n - 1));
  const char *o[3];
  for (int i = 0; i < n; i++) /* in * mul + add, or (in + add) / stride + 1, the division left out for stride 1 */
    o[i] = rule->expr[i]             ? rule->expr[i]
           : rule->fixed[i]          ? em_dim(e, out, sp0 + i)
           : rule->mul[i]            ? plus(rule->mul[i] == 1 ? in[i] : pool_printf("%s * %lld", in[i],
                                                                                    (long long)rule->mul[i]),
                                            rule->add[i])
           : rule->stride[i] == 1    ? plus(in[i], rule->add[i] + 1)
           : !rule->add[i]           ? pool_printf("%s / %lld + 1", in[i], (long long)rule->stride[i])
                                     : pool_printf("(%s) / %lld + 1", plus(in[i], rule->add[i]),
                                                   (long long)rule->stride[i]);
  if (n == 3) pr_line(e->p, "const int64_t d_out = %s;", o[0]);
  pr_line(e->p, "const int64_t h_out = %s, w_out = %s;", o[n - 2], o[n - 1]);
  if (!rule->fixed[0] || !rule->fixed[1] || (n == 3 && !rule->fixed[2])) {
    pr_line(e->p, n == 3 ? "if (d_out < 1 || h_out < 1 || w_out < 1) return 1;" : "if (h_out < 1 || w_out < 1) return 1;");
    em_fault(e, why);
  }
  const unsigned run = var_runtime_mask(out);
  for (int i = 0; i < n; i++)
    if (run >> (sp0 + i) & 1) pr_line(e->p, "%s = %s;", em_dim(e, out, sp0 + i), on[i]);
  if (run & 1) pr_line(e->p, "%s = %s; /* the images */", em_dim(e, out, 0), em_dim(e, x, 0));
}

void run_hw_print_known3(EmitCtx *e, const Var *x, const Var *out, int sp0) {
  pr_line(e->p, "/* the run's sizes: '%s' and '%s' (the forward's) */", x->name, out->name);
  pr_line(e->p, "const int64_t d_in = %s, h_in = %s, w_in = %s;", em_dim(e, x, sp0), em_dim(e, x, sp0 + 1),
          em_dim(e, x, sp0 + 2));
  pr_line(e->p, "const int64_t d_out = %s, h_out = %s, w_out = %s;", em_dim(e, out, sp0), em_dim(e, out, sp0 + 1),
          em_dim(e, out, sp0 + 2));
}

void run_hw_print_known(EmitCtx *e, const Var *x, const Var *out, int sp0) {
  pr_line(e->p, "/* the run's sizes: '%s' and '%s' (the forward's) */", x->name, out->name);
  pr_line(e->p, "const int64_t h_in = %s, w_in = %s;", em_dim(e, x, sp0), em_dim(e, x, sp0 + 1));
  pr_line(e->p, "const int64_t h_out = %s, w_out = %s;", em_dim(e, out, sp0), em_dim(e, out, sp0 + 1));
}

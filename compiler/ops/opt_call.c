/* The C printer of the optimizer updates (opt_call.h). */
#include "opt_call.h"

#include "tensor_util.h"

/* The update loop over the task's elements [lo, hi). */
static void print_update(Printer *p, const OptCall *c) {
  for (int k = 0; k < c->nptrs; k++) {
    const OptOperand *o = &c->ptrs[k];
    pr_line(p, "%s%s *%s = %s;", o->out ? "" : "const ", o->type, o->name, o->at);
  }
  for (int k = 0; c->pre && c->pre[k]; k++) pr_line(p, "%s", tu_respell(c->dtype, c->pre[k]));
  pr_line(p, "for (int64_t i = lo; i < hi; i++) {");
  for (int k = 0; c->body[k]; k++) pr_line(p, "%s", tu_respell(c->dtype, c->body[k]));
  pr_line(p, "}");
}

static void print_copies(Printer *p, const OptCall *c) {
  for (int k = 0; k < c->ncopies; k++) {
    const OptCopy *m = &c->copies[k];
    pr_line(p, "memcpy(%s, %s, sizeof(%s) * %s);", m->dst, m->src, m->type, m->n);
  }
}

/* Before the update: `if (skip) { the copies } else {`, or the copies
 * alone; lamb's first pass opens its block. */
static void print_begin(Printer *p, const OptCall *c) {
  if (c->skip) pr_line(p, "if (%s[0]) { /* SkipUpdate: the outputs keep the inputs */", c->skip);
  print_copies(p, c);
  if (c->skip) pr_line(p, "} else {");
  if (c->lamb) pr_line(p, "{ /* 1: moments, and the update direction r in scratch */");
}

/* lamb: closes pass 1, sums the norms in element order (pass 2, when it
 * adapts), stores the ratio after r for the tasks and opens pass 3. */
static void print_lamb_ratio(Printer *p, const OptCall *c) {
  const int dt = c->dtype;
  pr_line(p, "}");
  tu_pr_to(p, dt, "float ratio_ = 1.0f;");
  if (c->adapt) {
    pr_line(p, "{ /* 2: the trust ratio |Param| / |r|, summed in element order */");
    pr_line(p, "const %s *p = %s, *r = %s;", c->type, c->p, c->r);
    pr_line(p, "double pn2 = 0, rn2 = 0;");
    pr_line(p, "for (int64_t i = 0; i < %s; i++) {", c->numel);
    pr_line(p, "pn2 += (double)p[i] * p[i];");
    pr_line(p, "rn2 += (double)r[i] * r[i];");
    pr_line(p, "}");
    tu_pr_to(p, dt, "const float pn = sqrtf((float)pn2), rn = sqrtf((float)rn2);");
    tu_pr_to(p, dt, "if (pn > 0.0f && rn > 0.0f) ratio_ = pn / rn;");
    pr_line(p, "}");
  }
  pr_line(p, "%s[%s] = ratio_;", c->r, c->numel);
  pr_line(p, "{ /* 3: the parameter */");
}

/* After the update: lamb's brace, the beta powers, SkipUpdate's brace. */
static void print_end(Printer *p, const OptCall *c) {
  if (c->lamb) pr_line(p, "}");
  for (int k = 0; k < c->npows; k++) pr_line(p, "%s[0] = %s * %s;", c->pows[k].out, c->pows[k].lhs, c->pows[k].rhs);
  if (c->skip) pr_line(p, "}");
}

/* phi LarsMomentumKernel for one parameter (lars_momentum.c): the norms of
 * Param and the rescaled Grad in double, the local learning rate, then
 * VelocityOut and ParamOut; written for float, respelled for the dtype. */
static void print_lars(Printer *p, const OptCall *c) {
  const int dt = c->dtype;
  tu_pr_to(p, dt, "{ /* %s */", c->name);
  tu_pr_to(p, dt, "const float *p = %s, *g = %s, *v = %s;", c->p, c->g, c->v);
  tu_pr_to(p, dt, "float *po = %s, *vo = %s;", c->po, c->vo);
  tu_pr_to(p, dt, "const int64_t n = %s;", c->numel);
  tu_pr_to(p, dt, "double pn2 = 0, gn2 = 0;");
  tu_pr_to(p, dt, "for (int64_t i = 0; i < n; i++) {");
  tu_pr_to(p, dt, "const float gs = %s * g[i];", c->rescale);
  tu_pr_to(p, dt, "pn2 += (double)p[i] * p[i];");
  tu_pr_to(p, dt, "gn2 += (double)gs * gs;");
  tu_pr_to(p, dt, "}");
  tu_pr_to(p, dt, "const float pn = sqrtf((float)pn2), gn = sqrtf((float)gn2), wd = %s;", c->wd);
  tu_pr_to(p, dt, "float lr = %s[0];", c->lr);
  tu_pr_to(p, dt, "if (wd > 0.0f && pn > 0.0f && gn > 0.0f) {");
  tu_pr_to(p, dt, "const float den = gn + wd * pn + %s;", c->eps);
  tu_pr_to(p, dt, "lr = lr * %s * pn / den;", c->coeff);
  tu_pr_to(p, dt, "}");
  tu_pr_to(p, dt, "for (int64_t i = 0; i < n; i++) {");
  tu_pr_to(p, dt, "const float gs = %s * g[i];", c->rescale);
  tu_pr_to(p, dt, "const float decay = wd * p[i];");
  tu_pr_to(p, dt, "const float kept = v[i] * %s;", c->mu);
  tu_pr_to(p, dt, "const float push = lr * (gs + decay);");
  tu_pr_to(p, dt, "const float vn = kept + push;");
  tu_pr_to(p, dt, "po[i] = p[i] - vn;");
  tu_pr_to(p, dt, "vo[i] = vn;");
  tu_pr_to(p, dt, "}");
  tu_pr_to(p, dt, "}");
}

/* `acc` = the squares of x summed in type, in order. */
static void print_sum_squares(Printer *p, const char *type, const OptCall *c) {
  pr_line(p, "const %s *x = %s;", type, c->x);
  pr_line(p, "%s acc = 0;", type);
  pr_line(p, "for (int64_t i = 0; i < %s; i++) acc += x[i] * x[i];", c->numel);
}

/* squared_l2_norm: the squares summed in the element type, in order. */
static void print_squared_l2(Printer *p, const OptCall *c) {
  print_sum_squares(p, c->type, c);
  pr_line(p, "%s[0] = acc;", c->out);
}

/* squared_l2_norm_grad: dx = (dout[0] * 2) * x. */
static void print_squared_l2_grad(Printer *p, const OptCall *c) {
  pr_line(p, "const %s *x = %s;", c->type, c->x);
  pr_line(p, "const %s g = %s[0] * 2;", c->type, c->dout);
  pr_line(p, "%s *dx = %s;", c->type, c->dx);
  pr_line(p, "for (int64_t i = 0; i < %s; i++) dx[i] = g * x[i];", c->numel);
}

/* clip_by_norm (phi ClipByNormFunctor, float): the norm of x (its squares
 * summed in element order; Eigen's order differs by rounding), then
 * out = x * scaling with scaling 1 when the norm is at most max_norm, else
 * max_norm / (norm + eps), eps 1e-6 for a norm of at most 1e-30. */
static void print_clip_by_norm(Printer *p, const OptCall *c) {
  print_sum_squares(p, "float", c);
  pr_line(p, "float *out = %s;", c->out);
  pr_line(p, "const float norm = sqrtf(acc);");
  pr_line(p, "const float keep = norm <= %s ? 1.0f : 0.0f, eps = norm <= 1e-30f ? 1e-6f : 0.0f;", c->max_norm);
  pr_line(p, "const float scaling = keep + (1.0f - keep) * %s / (norm + eps);", c->max_norm);
  pr_line(p, "for (int64_t i = 0; i < %s; i++) out[i] = x[i] * scaling;", c->numel);
}

void opt_print_c(Printer *p, const OptCall *c) {
  switch (c->kind) {
    case OPT_UPDATE:
      print_update(p, c);
      break;
    case OPT_PARAM_OPEN:
      pr_line(p, "{ /* parameter %d of %d: %s */", c->k, c->n, c->name);
      break;
    case OPT_PARAM_CLOSE:
      pr_line(p, "}");
      break;
    case OPT_BEGIN:
      print_begin(p, c);
      break;
    case OPT_LAMB_RATIO:
      print_lamb_ratio(p, c);
      break;
    case OPT_END:
      print_end(p, c);
      break;
    case OPT_LARS:
      print_lars(p, c);
      break;
    case OPT_SQUARED_L2:
      print_squared_l2(p, c);
      break;
    case OPT_SQUARED_L2_GRAD:
      print_squared_l2_grad(p, c);
      break;
    case OPT_CLIP_BY_NORM:
      print_clip_by_norm(p, c);
      break;
  }
}

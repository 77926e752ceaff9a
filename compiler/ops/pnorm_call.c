/* The C printer of vector norms (pnorm_call.h). */
#include "pnorm_call.h"

#include <math.h>

#include "../util.h"
#include "tensor_util.h"

/* The C type and the suffix of its <math.h> names. */
static const char *ctype(const PNormCall *c) { return c->dtype == RT_DT_FP64 ? "double" : "float"; }
static const char *fsuf(const PNormCall *c) { return c->dtype == RT_DT_FP64 ? "" : "f"; }

/* Opens the loops over the lines: declares n, post and the line's first
 * element `line`.  Closed by two "}". */
static void open_lines(Printer *p, const PNormCall *c) {
  pr_line(p, "const int64_t n = %s, post = %s;", c->n, c->post);
  pr_line(p, "for (int64_t a = 0; a < %s; a++) {", c->pre);
  pr_line(p, "for (int64_t b = 0; b < post; b++) {");
  pr_line(p, "const int64_t line = a * n * post + b;");
}

/* phi PNormKernel: the sum of |x|^p in double per line, then ^(1/p); p 0
 * counts the non-zeros, +-inf takes the largest / smallest |x|. */
static void print_pnorm(Printer *p, const PNormCall *c) {
  const char *t = ctype(c), *fs = fsuf(c);
  const float po = c->porder;
  const char *init = "0.0", *step, *final = pool_printf("(%s)acc", t);
  if (po == 0) {
    step = "acc += v != 0";
  } else if (isinf(po)) {
    init = po > 0 ? "-INFINITY" : "INFINITY";
    step = po > 0 ? "acc = v > acc ? v : acc" : "acc = v < acc ? v : acc";
  } else {
    const char *pl = tu_literal(c->dtype, po), *inv = tu_literal(c->dtype, 1.0f / po);
    step = pool_printf("acc += pow%s(v, %s)", fs, pl);
    final = pool_printf("pow%s((%s)acc, %s)", fs, t, inv);
  }
  pr_line(p, "const %s *x = %s;", t, c->x);
  pr_line(p, "%s *out = %s;", t, c->out);
  pr_line(p, "/* porder %s */", em_float(po));
  open_lines(p, c);
  pr_line(p, "double acc = %s;", init);
  pr_line(p, "for (int64_t j = 0; j < n; j++) {");
  pr_line(p, "const %s v = fabs%s(x[line + j * post]);", t, fs);
  pr_line(p, "%s;", step);
  pr_line(p, "}");
  pr_line(p, "out[a * post + b] = %s;", final);
  pr_line(p, "}");
  pr_line(p, "}");
}

/* phi PNormGradKernel: dx = sign(x) * |x|^(p-1) / (norm^(p-1) + epsilon)
 * * dout; +-inf: sign(x) * dout where |x| is the norm; p 0: zeros. */
static void print_pnorm_grad(Printer *p, const PNormCall *c) {
  const char *t = ctype(c), *fs = fsuf(c);
  const float po = c->porder;
  pr_line(p, "%s *dx = %s;", t, c->dx);
  if (po == 0) {
    pr_line(p, "/* porder 0: the count of non-zeros has no gradient */");
    pr_line(p, "for (int64_t i = 0; i < %s; i++) dx[i] = 0;", c->numel);
    return;
  }
  pr_line(p, "const %s *x = %s, *norm = %s, *dnorm = %s;", t, c->x, c->out, c->dout);
  pr_line(p, "/* porder %s */", em_float(po));
  const char *pm1 = tu_literal(c->dtype, (double)po - 1.0), *eps = tu_literal(c->dtype, c->epsilon);
  open_lines(p, c);
  pr_line(p, "const %s nv = norm[a * post + b], g = dnorm[a * post + b];", t);
  if (!isinf(po)) pr_line(p, "const %s den = pow%s(nv, %s) + %s;", t, fs, pm1, eps);
  pr_line(p, "for (int64_t j = 0; j < n; j++) {");
  pr_line(p, "const %s v = x[line + j * post];", t);
  pr_line(p, "const %s sign = (%s)((v > 0) - (v < 0));", t, t);
  if (isinf(po)) {
    pr_line(p, "const %s hit = fabs%s(v) == nv ? 1 : 0;", t, fs);
    pr_line(p, "const %s part = hit * sign;", t);
    pr_line(p, "dx[line + j * post] = part * g;");
  } else {
    pr_line(p, "const %s ratio = pow%s(fabs%s(v), %s) / den;", t, fs, fs, pm1);
    pr_line(p, "const %s scaled = ratio * g;", t);
    pr_line(p, "dx[line + j * post] = scaled * sign;");
  }
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "}");
}

/* phi NormKernel: the sum of squares in double per line, the norm in T. */
static void print_l2norm(Printer *p, const PNormCall *c) {
  const char *t = ctype(c), *fs = fsuf(c);
  pr_line(p, "const %s *x = %s;", t, c->x);
  pr_line(p, "%s *out = %s;", t, c->out);
  if (c->norm) pr_line(p, "%s *norm = %s;", t, c->norm);
  open_lines(p, c);
  pr_line(p, "double acc = 0.0;");
  pr_line(p, "for (int64_t j = 0; j < n; j++) acc += x[line + j * post] * x[line + j * post];");
  pr_line(p, "const %s nv = sqrt%s((%s)acc + %s);", t, fs, t, tu_literal(c->dtype, c->epsilon));
  if (c->norm) pr_line(p, "norm[a * post + b] = nv;");
  pr_line(p, "for (int64_t j = 0; j < n; j++) out[line + j * post] = x[line + j * post] / nv;");
  pr_line(p, "}");
  pr_line(p, "}");
}

/* phi NormGradKernel, in the element type: s = sum of x * dout (each
 * product rounded, summed in order); dx = (dout - s * x / norm^2) / norm. */
static void print_l2norm_grad(Printer *p, const PNormCall *c) {
  const char *t = ctype(c);
  pr_line(p, "const %s *x = %s, *norm = %s, *dout = %s;", t, c->x, c->norm, c->dout);
  pr_line(p, "%s *dx = %s;", t, c->dx);
  open_lines(p, c);
  pr_line(p, "%s s = 0;", t);
  pr_line(p, "for (int64_t j = 0; j < n; j++) {");
  pr_line(p, "const %s p = x[line + j * post] * dout[line + j * post];", t);
  pr_line(p, "s += p;");
  pr_line(p, "}");
  pr_line(p, "const %s nv = norm[a * post + b], n2 = nv * nv;", t);
  pr_line(p, "for (int64_t j = 0; j < n; j++) {");
  pr_line(p, "const %s sx = s * x[line + j * post];", t);
  pr_line(p, "const %s q = sx / n2;", t);
  pr_line(p, "dx[line + j * post] = (dout[line + j * post] - q) / nv;");
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "}");
}

void pnorm_print_c(Printer *p, const PNormCall *c) {
  switch (c->kind) {
    case PNORM_FORWARD:
      print_pnorm(p, c);
      break;
    case PNORM_GRAD:
      print_pnorm_grad(p, c);
      break;
    case L2NORM_FORWARD:
      print_l2norm(p, c);
      break;
    case L2NORM_GRAD:
      print_l2norm_grad(p, c);
      break;
  }
}

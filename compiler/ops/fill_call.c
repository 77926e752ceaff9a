/* The C printer of fills (fill_call.h). */
#include "fill_call.h"

#include "../util.h"

/* out[i] = value for every element. */
static void print_value(Printer *p, const FillCall *c) {
  const char *v = c->from ? pool_printf("(%s)%s[0]", c->type, c->from) : c->value;
  const char *out = c->local ? c->local : "out";
  if (c->from && c->check) {
    pr_line(p, "const double v = (double)%s[0];", c->from);
    pr_line(p, "if (!(%s)) return 1; /* Paddle raises: the value is out of range for %s */", c->check, c->type);
    v = pool_printf("(%s)v", c->type);
  }
  pr_line(p, "%s *%s = %s;", c->type, out, c->out);
  pr_line(p, "for (int64_t i = 0; i < %s; i++) %s[i] = %s;", c->n, out, v);
}

/* shape: each dim in turn (none for a 0-D input). */
static void print_dims(Printer *p, const FillCall *c) {
  if (c->nvalues > 0) pr_line(p, "%s *out = %s;", c->type, c->out);
  for (int k = 0; k < c->nvalues; k++) pr_line(p, "out[%d] = (%s)%s;", k, c->type, c->values[k]);
}

static void print_eye(Printer *p, const FillCall *c) {
  pr_line(p, "%s *out = %s;", c->type, c->out);
  pr_line(p, "const int64_t rows = %s, cols = %s;", c->rows, c->cols);
  pr_line(p, "for (int64_t i = 0; i < rows * cols; i++) out[i] = %s;", c->zero);
  pr_line(p, "for (int64_t i = 0; i < rows && i < cols; i++) out[i * cols + i] = %s;", c->one);
}

/* Paddle's ArangeKernel: repeated addition. */
static void print_range(Printer *p, const FillCall *c) {
  const char *t = c->type;
  pr_line(p, "%s *out = %s;", t, c->out);
  pr_line(p, "const %s step = (%s)%s[0];", t, t, c->step);
  pr_line(p, "%s v = (%s)%s[0];", t, t, c->start);
  pr_line(p, "for (int64_t i = 0; i < %s; i++, v += step) out[i] = v;", c->n);
}

/* The start of linspace's and logspace's loops: Start and Stop (and Base)
 * converted to Out's type, the step in double, `for` over the Num values
 * (the caller prints the loop's one statement). */
static void print_steps(Printer *p, const FillCall *c, int with_base) {
  const char *t = c->type;
  pr_line(p, "%s *out = %s;", t, c->out);
  if (with_base)
    pr_line(p, "const %s start = (%s)%s[0], stop = (%s)%s[0], base = (%s)%s[0];", t, t, c->start, t, c->stop, t,
            c->base);
  else
    pr_line(p, "const %s start = (%s)%s[0], stop = (%s)%s[0];", t, t, c->start, t, c->stop);
  pr_line(p, "const int64_t num = %s;", c->n);
  pr_line(p, "const double step = num > 1 ? (double)(stop - start) / (double)(num - 1) : 0.0;");
  pr_line(p, "for (int64_t i = 0; i < num; i++)");
}

/* Paddle's CPU linspace: the first half from start, the rest back from
 * stop. */
static void print_linspace(Printer *p, const FillCall *c) {
  print_steps(p, c, 0);
  pr_line(p, "  out[i] = num == 1 ? start : (%s)(i < num / 2 ? start + step * (double)i : "
          "stop - step * (double)(num - 1 - i));", c->type);
}

/* Paddle's CPU logspace: Start, Stop and Base converted to Out's type, the
 * exponents as linspace's (in double, not rounded to the type), each
 * power computed in double then converted; one value is base^start. */
static void print_logspace(Printer *p, const FillCall *c) {
  print_steps(p, c, 1);
  pr_line(p, "  out[i] = (%s)pow((double)base, num == 1 ? (double)start : i < num / 2 ? start + step * (double)i "
          ": stop - step * (double)(num - 1 - i));", c->type);
}

/* tril_indices / triu_indices (phi TrilIndicesKernel, TriuIndicesKernel):
 * the rows of out, then the columns, of the triangle's entries in
 * row-major order; n (out's dim 1) the compiler counted. */
static void print_tri_indices(Printer *p, const FillCall *c) {
  pr_line(p, "%s *out = %s;", c->type, c->out);
  pr_line(p, "const int64_t n = %s, rows = %s, cols = %s, offset = %lld;", c->n, c->rows, c->cols, c->offset);
  pr_line(p, "int64_t i = 0;");
  pr_line(p, "for (int64_t r = 0; r < rows; r++) {");
  if (c->upper)
    pr_line(p, "for (int64_t col = r + offset > 0 ? r + offset : 0; col < cols && i < n; col++, i++) {");
  else
    pr_line(p, "for (int64_t col = 0; col <= r + offset && col < cols && i < n; col++, i++) {");
  pr_line(p, "out[i] = (%s)r;", c->type);
  pr_line(p, "out[n + i] = (%s)col;", c->type);
  pr_line(p, "}");
  pr_line(p, "}");
}

/* sum: one loop adding the inputs kept. */
static void print_sum(Printer *p, const FillCall *c) {
  const char *expr = NULL;
  for (int k = 0; k < c->nx; k++) {
    pr_line(p, "const %s *x%d = %s;", c->type, c->idx[k], c->xs[k]);
    expr = expr ? pool_printf("%s + x%d[i]", expr, c->idx[k]) : pool_printf("x%d[i]", c->idx[k]);
  }
  pr_line(p, "%s *out = %s;", c->type, c->out);
  pr_line(p, "for (int64_t i = 0; i < %s; i++) out[i] = %s;", c->n, expr ? expr : "0");
}

/* assign_value: the constants, eight a row, then one memcpy. */
static void print_values(Printer *p, const FillCall *c) {
  const int n = c->nvalues;
  pr_line(p, "static const %s values[%d] = {", c->type, n);
  for (int i = 0; i < n; i += 8) {
    const char *row = "";
    for (int k = i; k < n && k < i + 8; k++) row = pool_printf("%s%s%s", row, k > i ? ", " : "", c->values[k]);
    pr_line(p, "%s,", row);
  }
  pr_line(p, "};");
  pr_line(p, "memcpy(%s, values, sizeof values);", c->out);
}

/* coalesce_tensor: the parts at their running offset `at`. */
static void print_coalesce(Printer *p, const FillCall *c) {
  const char *t = c->type;
  if (c->fused) pr_line(p, "%s *fused = %s;", t, c->fused);
  pr_line(p, "int64_t at = 0;");
  for (int k = 0; k < c->nparts; k++) {
    const FillPart *f = &c->parts[k];
    if (c->copy) {
      if (c->fused) pr_line(p, "memcpy(fused + at, %s, (size_t)%s * sizeof(%s));", f->src, f->n, t);
      if (f->dst) pr_line(p, "memcpy(%s, %s, (size_t)%s * sizeof(%s));", f->dst, f->src, f->n, t);
    } else {
      if (c->fused) pr_line(p, "for (int64_t i = 0; i < %s; i++) fused[at + i] = %s;", f->n, c->constant);
      pr_line(p, "for (int64_t i = 0; i < %s; i++) %s[i] = %s;", f->n, f->dst, c->constant);
    }
    pr_line(p, "at += %s; /* %s */", f->n, f->name);
  }
  pr_line(p, "(void)at;");
}

void fill_print_c(Printer *p, const FillCall *c) {
  switch (c->kind) {
    case FILL_VALUE:
      print_value(p, c);
      break;
    case FILL_EYE:
      print_eye(p, c);
      break;
    case FILL_RANGE:
      print_range(p, c);
      break;
    case FILL_LINSPACE:
      print_linspace(p, c);
      break;
    case FILL_LOGSPACE:
      print_logspace(p, c);
      break;
    case FILL_TRI_INDICES:
      print_tri_indices(p, c);
      break;
    case FILL_VALUES:
      print_values(p, c);
      break;
    case FILL_SUM:
      print_sum(p, c);
      break;
    case FILL_COALESCE:
      print_coalesce(p, c);
      break;
    case FILL_DIMS:
      print_dims(p, c);
      break;
    case FILL_ONE:
      pr_line(p, "%s[0] = %s;", c->out, c->value);
      break;
  }
}

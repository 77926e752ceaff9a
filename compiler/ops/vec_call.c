/* The C printer of vector products (vec_call.h). */
#include "vec_call.h"

/* dot: a row of y per row of x; mv: the one vector for every row. */
static void print_dot(Printer *p, const VecCall *c) {
  const char *t = c->type;
  pr_line(p, "const %s *x = %s, *y = %s;", t, c->x, c->y);
  pr_line(p, "%s *out = %s;", t, c->out);
  pr_line(p, "const int64_t rows = %s, cols = %s;", c->rows, c->cols);
  pr_line(p, "for (int64_t r = 0; r < rows; r++) {");
  pr_line(p, "%s acc = 0;", t);
  pr_line(p, "for (int64_t j = 0; j < cols; j++) acc += x[r * cols + j] * y[%sj];", c->kind == VEC_MV ? "" : "r * cols + ");
  pr_line(p, "out[r] = acc;");
  pr_line(p, "}");
}

static void print_dot_grad(Printer *p, const VecCall *c) {
  const char *t = c->type;
  pr_line(p, "const %s *x = %s, *y = %s, *dout = %s;", t, c->x, c->y, c->dout);
  pr_line(p, "const int64_t rows = %s, cols = %s;", c->rows, c->cols);
  if (c->dx) pr_line(p, "%s *dx = %s;", t, c->dx);
  if (c->dy) pr_line(p, "%s *dy = %s;", t, c->dy);
  if (!c->dx) pr_line(p, "(void)y;");
  if (!c->dy) pr_line(p, "(void)x;");
  pr_line(p, "for (int64_t r = 0; r < rows; r++) {");
  pr_line(p, "for (int64_t j = 0; j < cols; j++) {");
  if (c->dx) pr_line(p, "dx[r * cols + j] = dout[r] * y[r * cols + j];");
  if (c->dy) pr_line(p, "dy[r * cols + j] = dout[r] * x[r * cols + j];");
  pr_line(p, "}");
  pr_line(p, "}");
}

static void print_mv_grad(Printer *p, const VecCall *c) {
  const char *t = c->type;
  pr_line(p, "const %s *dout = %s;", t, c->dout);
  pr_line(p, "const int64_t rows = %s, cols = %s;", c->rows, c->cols);
  if (c->dx) {
    pr_line(p, "const %s *vec = %s;", t, c->y);
    pr_line(p, "%s *dx = %s;", t, c->dx);
    pr_line(p, "for (int64_t i = 0; i < rows; i++) {");
    pr_line(p, "for (int64_t j = 0; j < cols; j++) dx[i * cols + j] = dout[i] * vec[j];");
    pr_line(p, "}");
  }
  if (c->dy) {
    pr_line(p, "const %s *x = %s;", t, c->x);
    pr_line(p, "%s *dvec = %s;", t, c->dy);
    pr_line(p, "for (int64_t j = 0; j < cols; j++) {");
    pr_line(p, "%s acc = 0;", t);
    pr_line(p, "for (int64_t i = 0; i < rows; i++) acc += x[i * cols + j] * dout[i];");
    pr_line(p, "dvec[j] = acc;");
    pr_line(p, "}");
  }
}

void vec_print_c(Printer *p, const VecCall *c) {
  switch (c->kind) {
    case VEC_DOT:
    case VEC_MV:
      print_dot(p, c);
      break;
    case VEC_DOT_GRAD:
      print_dot_grad(p, c);
      break;
    case VEC_MV_GRAD:
      print_mv_grad(p, c);
      break;
  }
}

/* The C printer of where kernels (where_call.h). */
#include "where_call.h"

/* where: out = c ? x : y, one flat loop. */
static void print_where(Printer *p, const WhereCall *c) {
  pr_line(p, "const bool *c = %s;", c->cond);
  pr_line(p, "const %s *x = %s;", c->type, c->x);
  pr_line(p, "const %s *y = %s;", c->type, c->y);
  pr_line(p, "%s *out = %s;", c->type, c->out);
  pr_line(p, "for (int64_t i = 0; i < %s; i++) out[i] = c[i] ? x[i] : y[i];", c->numel);
}

/* where_grad (phi WhereGradKernel): dx = c ? dout : 0, dy = c ? 0 : dout,
 * each only when asked for. */
static void print_where_grad(Printer *p, const WhereCall *c) {
  pr_line(p, "const bool *c = %s;", c->cond);
  pr_line(p, "const %s *dout = %s;", c->type, c->dout);
  if (c->dx) pr_line(p, "%s *dx = %s;", c->type, c->dx);
  if (c->dy) pr_line(p, "%s *dy = %s;", c->type, c->dy);
  pr_line(p, "for (int64_t i = 0; i < %s; i++) {", c->numel);
  if (c->dx) pr_line(p, "dx[i] = c[i] ? dout[i] : 0;");
  if (c->dy) pr_line(p, "dy[i] = c[i] ? 0 : dout[i];");
  pr_line(p, "}");
}

void where_print_c(Printer *p, const WhereCall *c) {
  switch (c->kind) {
    case WHERE_FORWARD:
      print_where(p, c);
      break;
    case WHERE_GRAD:
      print_where_grad(p, c);
      break;
  }
}

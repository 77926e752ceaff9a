/* The C printer of isclose and allclose (close_call.h). */
#include "close_call.h"

void close_print_c(Printer *p, const CloseCall *c) {
  const char *t = c->type;
  pr_line(p, "const %s *a = %s, *b = %s;", t, c->x, c->y);
  pr_line(p, "bool *out = %s;", c->out);
  pr_line(p, "const double rtol = %s, atol = %s;", c->rtol, c->atol);
  if (c->all) pr_line(p, "out[0] = true;");
  pr_line(p, "for (int64_t i = 0; i < %s; i++) {", c->n);
  pr_line(p, "const %s x = a[i], y = b[i];", t);
  pr_line(p, "bool val;");
  pr_line(p, "if (isnan(x) || isnan(y)) {");
  pr_line(p, "val = %s;", c->equal_nan ? "!!isnan(x) == !!isnan(y)" : "false");
  pr_line(p, "} else {");
  pr_line(p, "const %s left = x > y ? x - y : y - x;", t);
  pr_line(p, "const %s right = (%s)(atol + (y > 0 ? rtol * y : (-rtol) * y));", t, t);
  pr_line(p, "const %s diff = left > right ? left - right : right - left;", t);
  pr_line(p, "val = x == y || left <= right || diff <= 1e-15;");
  pr_line(p, "}");
  pr_line(p, c->all ? "out[0] = out[0] && val;" : "out[i] = val;");
  pr_line(p, "}");
}

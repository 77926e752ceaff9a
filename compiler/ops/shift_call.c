/* The C printer of temporal shifts (shift_call.h): Paddle's
 * TemporalShiftFwNCHW / NHWC and TemporalShiftBwNCHW / NHWC as one loop. */
#include "shift_call.h"

void shift_print_c(Printer *p, const ShiftCall *c) {
  const int grad = c->kind == SHIFT_GRAD;
  pr_line(p, "const %s *%s = %s;", c->type, grad ? "dout" : "x", c->src);
  pr_line(p, "%s *%s = %s;", c->type, grad ? "dx" : "out", c->dst);
  if (c->last)
    pr_line(p, "const int64_t t = %lld, c = %lld, chw = %s, c1 = %lld, c2 = %lld;", (long long)c->t, (long long)c->C,
            c->chw, (long long)c->c1, (long long)c->c2);
  else
    pr_line(p, "const int64_t t = %lld, hw = %s, chw = %s, c1 = %lld, c2 = %lld;", (long long)c->t, c->hw, c->chw,
            (long long)c->c1, (long long)c->c2);
  pr_line(p, "const int64_t total = %s;", c->numel);
  if (grad) pr_line(p, "for (int64_t i = 0; i < total; i++) dx[i] = 0;");
  pr_line(p, "for (int64_t i = 0; i < total; i++) {");
  pr_line(p, "const int64_t it = i %% (t * chw) / chw, ic = %s;", c->last ? "i % c" : "i % chw / hw");
  pr_line(p, "const int64_t src = ic < c1 ? it - 1 : ic < c2 ? it + 1 : it;");
  pr_line(p, "const int64_t at = i + (src - it) * chw;");
  if (grad)
    pr_line(p, "if (src >= 0 && src < t && at < total) dx[at] = dout[i];");
  else
    pr_line(p, "out[i] = src >= 0 && src < t && at < total ? x[at] : (%s)0;", c->type);
  pr_line(p, "}");
}

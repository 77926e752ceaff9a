/* The C printer of the histogram kernel (hist_call.h). */
#include "hist_call.h"

/* An element in the range adds one to bin (v - lo) * bins / (hi - lo) in
 * X's arithmetic, the last bin taking hi itself; others (NaN included) are
 * skipped. */
void hist_print_c(Printer *p, const HistCall *c) {
  const char *t = c->type;
  pr_line(p, "const %s *x = %s;", t, c->x);
  pr_line(p, "int64_t *out = %s;", c->out);
  pr_line(p, "const int64_t bins = %lld, numel = %s;", (long long)c->bins, c->numel);
  pr_line(p, "memset(out, 0, (size_t)bins * sizeof *out);");
  pr_line(p, "%s lo = (%s)%lld, hi = (%s)%lld;", t, t, (long long)c->min, t, (long long)c->max);
  pr_line(p, "if (lo == hi && numel > 0) {");
  pr_line(p, "lo = hi = x[0];");
  pr_line(p, "for (int64_t i = 1; i < numel; i++) {");
  pr_line(p, "if (x[i] < lo) lo = x[i];");
  pr_line(p, "if (hi < x[i]) hi = x[i];");
  pr_close(p, 2);
  pr_line(p, "if (lo == hi) {");
  pr_line(p, "lo = lo - 1;");
  pr_line(p, "hi = hi + 1;");
  pr_line(p, "}");
  pr_line(p, "for (int64_t i = 0; i < numel; i++) {");
  pr_line(p, "if (x[i] >= lo && x[i] <= hi) {");
  pr_line(p, "const int64_t bin = (int64_t)((x[i] - lo) * bins / (hi - lo));");
  pr_line(p, "out[bin < bins - 1 ? bin : bins - 1] += 1;");
  pr_close(p, 2);
}

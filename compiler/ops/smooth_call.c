/* The C printer of label smoothing (smooth_call.h). */
#include "smooth_call.h"

void smooth_print_c(Printer *p, const SmoothCall *c) {
  const char *t = c->type;
  if (c->kind == SMOOTH_GRAD) {
    pr_line(p, "const %s *dout = %s;", t, c->dout);
    pr_line(p, "%s *dx = %s;", t, c->dx);
    pr_line(p, "for (int64_t i = 0; i < %s; i++) dx[i] = %s * dout[i];", c->numel, c->keep);
    return;
  }
  pr_line(p, "const %s *x = %s;", t, c->x);
  pr_line(p, "%s *out = %s;", t, c->out);
  if (c->prior) {
    pr_line(p, "const %s *prior = %s;", t, c->prior);
    pr_line(p, "for (int64_t i = 0; i < %s; i++) out[i] = %s * x[i] + %s * prior[i %% %lld];", c->numel, c->keep,
            c->add, (long long)c->k);
  } else {
    pr_line(p, "for (int64_t i = 0; i < %s; i++) out[i] = %s * x[i] + %s;", c->numel, c->keep, c->add);
  }
}

/* The C printer of inverse and determinant and their grads (lu_call.h). */
#include "lu_call.h"

void lu_print_c(Printer *p, const LuCall *c) {
  const char *t = c->f64 ? "double" : "float", *sfx = c->f64 ? "f64" : "f32";
  pr_line(p, "const int64_t batch = %s, n = %s;", c->batch, c->n);
  switch (c->kind) {
    case LU_INVERSE:
      pr_line(p, "if (rt_inverse_%s(%s, batch, n, %s, %s)) return 1; /* Paddle raises: not invertible */", sfx, c->x,
              c->out, c->work);
      break;
    case LU_DET:
      pr_line(p, "rt_det_%s(%s, batch, n, %s, %s);", sfx, c->x, c->out, c->work);
      break;
    case LU_CHOLESKY:
      pr_line(p, "if (rt_cholesky_%s(%s, batch, n, %d, %s)) return 1; /* Paddle raises: not positive definite */",
              sfx, c->x, c->upper, c->out);
      break;
    case LU_INVERSE_GRAD:
      pr_line(p, "const %s *out = %s, *dout = %s;", t, c->out, c->dout);
      pr_line(p, "%s *tmp = %s, *dx = %s;", t, c->tmp, c->dx);
      pr_line(p, "for (int64_t b = 0; b < batch; b++) {");
      pr_line(p, "const %s *o = out + b * n * n, *g = dout + b * n * n;", t);
      pr_line(p, "%s *m = tmp + b * n * n, *d = dx + b * n * n;", t);
      pr_line(p, "for (int64_t i = 0; i < n; i++) {");
      pr_line(p, "for (int64_t j = 0; j < n; j++) {");
      pr_line(p, "%s acc = 0;", t);
      pr_line(p, "for (int64_t k = 0; k < n; k++) acc += g[i * n + k] * o[j * n + k];");
      pr_line(p, "m[i * n + j] = acc;");
      pr_line(p, "}");
      pr_line(p, "}");
      pr_line(p, "for (int64_t i = 0; i < n; i++) {");
      pr_line(p, "for (int64_t j = 0; j < n; j++) {");
      pr_line(p, "%s acc = 0;", t);
      pr_line(p, "for (int64_t k = 0; k < n; k++) acc += o[k * n + i] * m[k * n + j];");
      pr_line(p, "d[i * n + j] = -acc;");
      pr_line(p, "}");
      pr_line(p, "}");
      pr_line(p, "}");
      break;
    case LU_DET_GRAD:
      pr_line(p, "const %s *out = %s, *dout = %s;", t, c->out, c->dout);
      pr_line(p, "%s *inv = %s, *dx = %s;", t, c->tmp, c->dx);
      pr_line(p, "int singular = 0;");
      pr_line(p, "for (int64_t b = 0; b < batch; b++) singular |= out[b] == 0;");
      pr_line(p, "if (singular || rt_inverse_%s(%s, batch, n, inv, %s)) {", sfx, c->x, c->work);
      pr_line(p, "memset(dx, 0, (size_t)(batch * n * n) * sizeof *dx); /* Paddle: zeros when any det is 0 */");
      pr_line(p, "} else {");
      pr_line(p, "for (int64_t b = 0; b < batch; b++) {");
      pr_line(p, "const %s s = dout[b] * out[b];", t);
      pr_line(p, "for (int64_t i = 0; i < n; i++) {");
      pr_line(p, "for (int64_t j = 0; j < n; j++) dx[(b * n + i) * n + j] = s * inv[(b * n + j) * n + i];");
      pr_line(p, "}");
      pr_line(p, "}");
      pr_line(p, "}");
      break;
  }
}

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
    case LU_MATRIX_POWER: /* only a negative power inverts, and may fail */
      if (c->power < 0)
        pr_line(p, "if (rt_matrix_power_%s(%s, batch, n, %d, %s, %s)) return 1; /* Paddle raises: not invertible */",
                sfx, c->x, c->power, c->out, c->work);
      else
        pr_line(p, "(void)rt_matrix_power_%s(%s, batch, n, %d, %s, %s);", sfx, c->x, c->power, c->out, c->work);
      break;
    case LU_CHOLESKY:
      pr_line(p, "if (rt_cholesky_%s(%s, batch, n, %d, %s)) return 1; /* Paddle raises: not positive definite */",
              sfx, c->x, c->upper, c->out);
      break;
    case LU_TRI_SOLVE: {
      /* op(x)[i][k]: x's own entry, or its transpose's */
      const char *at = c->transpose ? "a[k * n + i]" : "a[i * n + k]";
      const int lower = c->upper == c->transpose; /* op(x) is lower triangular */
      pr_line(p, "const int64_t cols = %s;", c->m);
      pr_line(p, "const %s *xs = %s, *ys = %s;", t, c->x, c->y);
      pr_line(p, "%s *outs = %s;", t, c->out);
      pr_line(p, "for (int64_t b = 0; b < batch; b++) {");
      pr_line(p, "const %s *a = xs + %s, *y = ys + %s;", t, c->x_bcast ? "0" : "b * n * n", c->y_bcast ? "0" : "b * n * cols");
      pr_line(p, "%s *o = outs + b * n * cols;", t);
      pr_line(p, lower ? "for (int64_t i = 0; i < n; i++) {" : "for (int64_t i = n - 1; i >= 0; i--) {");
      pr_line(p, "for (int64_t j = 0; j < cols; j++) {");
      pr_line(p, "%s v = y[i * cols + j];", t);
      pr_line(p, lower ? "for (int64_t k = 0; k < i; k++) v -= %s * o[k * cols + j];"
                       : "for (int64_t k = i + 1; k < n; k++) v -= %s * o[k * cols + j];", at);
      if (c->unit)
        pr_line(p, "o[i * cols + j] = v;");
      else
        pr_line(p, "o[i * cols + j] = v / a[i * n + i];");
      pr_line(p, "}");
      pr_line(p, "}");
      pr_line(p, "}");
      break;
    }
    case LU_INVERSE_GRAD:
      pr_line(p, "rt_inverse_grad_%s(%s, %s, batch, n, %s, %s);", sfx, c->out, c->dout, c->tmp, c->dx);
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

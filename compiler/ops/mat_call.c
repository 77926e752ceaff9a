/* The C printers of the small matrix kernels (mat_call.h). */
#include "mat_call.h"

/* The C type of RT_DT_FP32 or RT_DT_FP64. */
static const char *ctype(int dtype) { return dtype == RT_DT_FP64 ? "double" : "float"; }

/* phi BilinearKernel's order: per k the product X x Weight[k] (sums over
 * i), then the row sums of its product with Y, then the bias. */
static void print_bilinear(Printer *p, const BilinearCall *c) {
  const char *t = ctype(c->dtype);
  pr_line(p, "const %s *x = %s, *y = %s, *w = %s;", t, c->x, c->y, c->w);
  if (c->bias) pr_line(p, "const %s *bias = %s;", t, c->bias);
  pr_line(p, "%s *out = %s;", t, c->out);
  pr_line(p, "const int64_t K = %s, M = %s, N = %s;", c->k, c->m, c->n);
  pr_line(p, "for (int64_t r = 0; r < %s; r++) {", c->rows);
  pr_line(p, "for (int64_t k = 0; k < K; k++) {");
  pr_line(p, "%s sum = 0;", t);
  pr_line(p, "for (int64_t j = 0; j < N; j++) {");
  pr_line(p, "%s left = 0;", t);
  pr_line(p, "for (int64_t i = 0; i < M; i++) left += x[r * M + i] * w[(k * M + i) * N + j];");
  pr_line(p, "sum += left * y[r * N + j];");
  pr_line(p, "}");
  pr_line(p, "out[r * K + k] = %s;", c->bias ? "sum + bias[k]" : "sum");
  pr_line(p, "}");
  pr_line(p, "}");
}

/* dx or dy: `name` (at `ptr`) [nb, len] = the sum over k (Paddle's loop)
 * of `sum`, the line that adds dout[b, k] times the other input times
 * Weight[k] into s for element (b, idx). */
static void print_bilinear_dxy(Printer *p, const char *t, const char *name, const char *ptr, const char *len,
                               const char *idx, const char *sum) {
  pr_line(p, "{");
  pr_line(p, "%s *%s = %s;", t, name, ptr);
  pr_line(p, "for (int64_t q = 0; q < nb * %s; q++) %s[q] = 0;", len, name);
  pr_line(p, "for (int64_t k = 0; k < K; k++) {");
  pr_line(p, "for (int64_t b = 0; b < nb; b++) {");
  pr_line(p, "for (int64_t %s = 0; %s < %s; %s++) {", idx, idx, len, idx);
  pr_line(p, "%s s = 0;", t);
  pr_line(p, "%s", sum);
  pr_line(p, "%s[b * %s + %s] += s;", name, len, idx);
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "}");
}

/* phi BilinearGradKernel, k by k as its loop over k runs. */
static void print_bilinear_grad(Printer *p, const BilinearCall *c) {
  const char *t = ctype(c->dtype);
  pr_line(p, "const %s *x = %s, *y = %s, *w = %s, *dout = %s;", t, c->x, c->y, c->w, c->dout);
  pr_line(p, "const int64_t nb = %s, K = %s, M = %s, N = %s;", c->rows, c->k, c->m, c->n);
  if (c->dx)
    print_bilinear_dxy(p, t, "dx", c->dx, "M", "i",
                       "for (int64_t j = 0; j < N; j++) s += dout[b * K + k] * y[b * N + j] * w[(k * M + i) * N + j];");
  if (c->dy)
    print_bilinear_dxy(p, t, "dy", c->dy, "N", "j",
                       "for (int64_t i = 0; i < M; i++) s += dout[b * K + k] * x[b * M + i] * w[(k * M + i) * N + j];");
  if (c->dw) {
    pr_line(p, "{");
    pr_line(p, "%s *dw = %s;", t, c->dw);
    pr_line(p, "for (int64_t k = 0; k < K; k++) {");
    pr_line(p, "for (int64_t i = 0; i < M; i++) {");
    pr_line(p, "for (int64_t j = 0; j < N; j++) {");
    pr_line(p, "%s s = 0;", t);
    pr_line(p, "for (int64_t b = 0; b < nb; b++) s += dout[b * K + k] * x[b * M + i] * y[b * N + j];");
    pr_line(p, "dw[(k * M + i) * N + j] = s;");
    pr_line(p, "}");
    pr_line(p, "}");
    pr_line(p, "}");
    pr_line(p, "}");
  }
  if (c->db) {
    pr_line(p, "{");
    pr_line(p, "%s *db = %s;", t, c->db);
    pr_line(p, "for (int64_t k = 0; k < K; k++) {");
    pr_line(p, "%s s = 0;", t);
    pr_line(p, "for (int64_t b = 0; b < nb; b++) s += dout[b * K + k];");
    pr_line(p, "db[k] = s;");
    pr_line(p, "}");
    pr_line(p, "}");
  }
}

void bilinear_print_c(Printer *p, const BilinearCall *c) {
  if (c->grad) print_bilinear_grad(p, c);
  else print_bilinear(p, c);
}

/* The C printer of affine-grid kernels (grid_call.h). */
#include "grid_call.h"

#include "../util.h"

/* Declares `start_<name>` and `step_<name>` of Paddle's Linspace(-1, 1, n),
 * n a number or (run) a C expression of the run's size. */
static void print_linspace(Printer *p, const char *t, const char *name, int64_t n, const char *run, int align) {
  const char *n1 = run ? pool_printf("(%s - 1)", run) : pool_printf("%lld", (long long)(n - 1));
  const char *nn = run ? pool_printf("(%s)", run) : pool_printf("%lld", (long long)n);
  if (align)
    pr_line(p, "const %s start_%s = (%s)-1, step_%s = ((%s)1 - (%s)-1) / (%s)%s;", t, name, t, name, t, t, t, n1);
  else
    pr_line(p, "const %s start_%s = (%s)-1 * ((%s)%s / (%s)%s), step_%s = ((%s)1 - (%s)-1) / (%s)%s;", t, name, t, t,
            n1, t, nn, name, t, t, t, nn);
}

/* Declares the buffers, named `src` and `dst`, the Linspaces and the
 * grid's sizes and opens the loop over the batch (n).  Closed by one "}". */
static void open_batch(Printer *p, const GridCall *c, const char *src, const char *dst) {
  pr_line(p, "const %s *%s = %s;", c->type, src, c->src);
  pr_line(p, "%s *%s = %s;", c->type, dst, c->dst);
  static const char *const names[] = {"d", "h", "w"};
  const char *sz[3];
  for (int i = 0; i < 3; i++) sz[i] = c->run_size[i] ? c->run_size[i] : pool_printf("%lld", (long long)c->size[i]);
  for (int i = 3 - c->nsp; i < 3; i++) print_linspace(p, c->type, names[i], c->size[i], c->run_size[i], c->align);
  pr_line(p, "const int64_t D = %s, H = %s, W = %s;", sz[0], sz[1], sz[2]);
  pr_line(p, "for (int64_t n = 0; n < %s; n++) {", c->batch);
}

/* Opens the loops over the pixels: `at` names the pixel's nsp values in
 * `buf`, gx, gy (and gz) are its base coordinates; then the loop over k.
 * Closed by four "}". */
static void open_pixels(Printer *p, const GridCall *c, const char *at, const char *buf) {
  const char *t = c->type;
  pr_line(p, "for (int64_t d = 0; d < D; d++) {");
  pr_line(p, "for (int64_t h = 0; h < H; h++) {");
  pr_line(p, "for (int64_t w = 0; w < W; w++) {");
  pr_line(p, "%s = %s + (((n * D + d) * H + h) * W + w) * %d;", at, buf, c->nsp);
  pr_line(p, "const %s gx = start_w + (%s)w * step_w, gy = start_h + (%s)h * step_h;", t, t, t);
  if (c->nsp == 3) pr_line(p, "const %s gz = start_d + (%s)d * step_d;", t, t);
  pr_line(p, "for (int k = 0; k < %d; k++) {", c->nsp);
}

/* phi AffineGrid4D/5DKernel: Output = base x Theta[n]^T. */
static void print_affine(Printer *p, const GridCall *c) {
  const char *t = c->type;
  const int nsp = c->nsp;
  open_batch(p, c, "theta", "out");
  pr_line(p, "const %s *tn = theta + n * %d;", t, nsp * (nsp + 1));
  open_pixels(p, c, pool_printf("%s *o", t), "out");
  pr_line(p, "const %s *row = tn + k * %d;", t, nsp + 1);
  if (nsp == 2)
    pr_line(p, "o[k] = gx * row[0] + gy * row[1] + row[2];");
  else
    pr_line(p, "o[k] = gx * row[0] + gy * row[1] + gz * row[2] + row[3];");
  for (int i = 0; i < 5; i++) pr_line(p, "}");
}

/* phi AffineGridGradKernel: Theta@GRAD[n] = Output@GRAD[n]^T x base, the
 * pixels summed in order. */
static void print_affine_grad(Printer *p, const GridCall *c) {
  const char *t = c->type;
  const int nsp = c->nsp;
  open_batch(p, c, "dout", "dtheta");
  pr_line(p, "%s *tn = dtheta + n * %d;", t, nsp * (nsp + 1));
  pr_line(p, "for (int q = 0; q < %d; q++) tn[q] = 0;", nsp * (nsp + 1));
  open_pixels(p, c, pool_printf("const %s *g", t), "dout");
  pr_line(p, "%s *row = tn + k * %d;", t, nsp + 1);
  pr_line(p, "row[0] += g[k] * gx;");
  pr_line(p, "row[1] += g[k] * gy;");
  if (nsp == 3) pr_line(p, "row[2] += g[k] * gz;");
  pr_line(p, "row[%d] += g[k];", nsp);
  for (int i = 0; i < 5; i++) pr_line(p, "}");
}

void grid_print_c(Printer *p, const GridCall *c) {
  switch (c->kind) {
    case GRID_AFFINE:
      print_affine(p, c);
      break;
    case GRID_AFFINE_GRAD:
      print_affine_grad(p, c);
      break;
  }
}

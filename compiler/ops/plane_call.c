/* The C printer of per-row index kernels (plane_call.h). */
#include "plane_call.h"

/* index_sample (phi IndexSampleKernel) and its grad: rows of k ids into
 * rows of cols elements; an id outside [0, cols) stops the forward (Paddle
 * raises an error) and adds nothing in the grad. */
static void print_sample(Printer *p, const PlaneCall *c) {
  const int grad = c->kind == PLANE_SAMPLE_GRAD;
  if (!grad) pr_line(p, "const %s *x = %s;", c->type, c->src);
  pr_line(p, "const %s *index = %s;", c->index_type, c->index);
  if (grad) {
    pr_line(p, "const %s *dout = %s;", c->type, c->src);
    pr_line(p, "%s *dx = %s;", c->type, c->dst);
  } else {
    pr_line(p, "%s *out = %s;", c->type, c->dst);
  }
  pr_line(p, "const int64_t cols = %s, k = %s;", c->span, c->len);
  if (grad) pr_line(p, "for (int64_t q = 0; q < %s; q++) dx[q] = 0;", c->numel);
  pr_line(p, "for (int64_t i = 0; i < %s; i++) {", c->rows);
  pr_line(p, "for (int64_t j = 0; j < k; j++) {");
  pr_line(p, "const int64_t at = index[i * k + j];");
  if (grad)
    pr_line(p, "if (at >= 0 && at < cols) dx[i * cols + at] += dout[i * k + j];");
  else
    pr_line(p, "if (at < 0 || at >= cols) return 1; /* Paddle raises an error */\n    out[i * k + j] = x[i * cols + at];");
  pr_line(p, "}");
  pr_line(p, "}");
}

/* unpool (Paddle's Unpool kernel) and its grad: planes of in_size ids
 * into planes of out_size elements. */
static void print_unpool(Printer *p, const PlaneCall *c) {
  const int grad = c->kind == PLANE_UNPOOL_GRAD;
  pr_line(p, "const %s *%s = %s;", c->type, grad ? "dout" : "x", c->src);
  pr_line(p, "const %s *index = %s;", c->index_type, c->index);
  pr_line(p, "%s *%s = %s;", c->type, grad ? "dx" : "out", c->dst);
  pr_line(p, "const int64_t planes = %s, in_size = %s, out_size = %s;", c->rows, c->len, c->span);
  if (!grad) pr_line(p, "memset(out, 0, (size_t)(planes * out_size) * sizeof *out);");
  pr_line(p, "for (int64_t p = 0; p < planes; p++) {");
  pr_line(p, "for (int64_t i = 0; i < in_size; i++) {");
  pr_line(p, "const int64_t at = (int64_t)index[p * in_size + i];");
  if (grad)
    pr_line(p, "dx[p * in_size + i] = at >= 0 && at < out_size ? dout[p * out_size + at] : (%s)0;", c->type);
  else
    pr_line(p, "if (at >= 0 && at < out_size) out[p * out_size + at] = x[p * in_size + i];");
  pr_line(p, "}");
  pr_line(p, "}");
}

void plane_print_c(Printer *p, const PlaneCall *c) {
  switch (c->kind) {
    case PLANE_SAMPLE:
    case PLANE_SAMPLE_GRAD:
      print_sample(p, c);
      break;
    case PLANE_UNPOOL:
    case PLANE_UNPOOL_GRAD:
      print_unpool(p, c);
      break;
  }
}

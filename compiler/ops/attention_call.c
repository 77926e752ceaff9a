/* The C printer of softmax and attention calls (attention_call.h). */
#include "attention_call.h"

/* phi SoftmaxGradFunctor / LogSoftmaxGradFunctor per line of [n, c, r]:
 * the sum in double, in class order, then each element. */
static void print_softmax_grad(Printer *p, const AttentionCall *c) {
  const char *t = c->f64 ? "double" : "float";
  const int is_log = c->kind == ATTN_LOG_SOFTMAX_GRAD;
  pr_line(p, "const %s *out = %s;", t, c->out);
  pr_line(p, "const %s *dout = %s;", t, c->dout);
  pr_line(p, "%s *dx = %s;", t, c->dx);
  pr_line(p, "const int64_t n = %s, c = %s, r = %s;", c->outer, c->n, c->inner);
  pr_line(p, "for (int64_t i = 0; i < n; i++) {");
  pr_line(p, "for (int64_t j = 0; j < r; j++) {");
  pr_line(p, "const int64_t at = i * c * r + j;");
  pr_line(p, "double acc = 0.0;");
  pr_line(p, "for (int64_t k = 0; k < c; k++) acc += (double)dout[at + k * r]%s;", is_log ? "" : " * out[at + k * r]");
  pr_line(p, "const %s s = (%s)acc;", t, t);
  if (is_log)
    pr_line(p, "for (int64_t k = 0; k < c; k++) dx[at + k * r] = dout[at + k * r] - %s(out[at + k * r]) * s;",
            c->f64 ? "exp" : "expf");
  else
    pr_line(p, "for (int64_t k = 0; k < c; k++) dx[at + k * r] = (dout[at + k * r] - s) * out[at + k * r];");
  pr_line(p, "}");
  pr_line(p, "}");
}

void attention_print_c(Printer *p, const AttentionCall *c) {
  switch (c->kind) {
    case ATTN_SOFTMAX:
    case ATTN_LOG_SOFTMAX:
      pr_line(p, "rt_%ssoftmax%s(%s, %s, %s, %s, %s);", c->kind == ATTN_LOG_SOFTMAX ? "log_" : "", c->f64 ? "_f64" : "",
              c->x, c->out, c->outer, c->n, c->inner);
      break;
    case ATTN_SOFTMAX_GRAD:
    case ATTN_LOG_SOFTMAX_GRAD:
      print_softmax_grad(p, c);
      break;
    case ATTN_FUSED:
      pr_line(p, "rt_attention(&%s, %s, &%s, %s, %s, %s);", c->geo, c->batch, c->io, c->out, c->ws, c->gemm_ws);
      break;
  }
}

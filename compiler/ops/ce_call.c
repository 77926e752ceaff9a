/* The C printer of cross-entropy kernels (ce_call.h). */
#include "ce_call.h"

#include "../util.h"
#include "attention_call.h"
#include "tensor_util.h"

/* Paddle's TolerableValue of log(p): infinities clipped to -+1e20. */
#define TOL_LOG "const float lg = logf(p), lp = isinf(lg) ? (lg > 0 ? 1e20f : -1e20f) : lg;"

/* The label's C type: the tensors' for soft labels (respelled with them). */
static const char *label_type(const CeCall *c) { return c->soft ? "float" : c->label_type; }

/* The loss of one row (the body of the loops over the rows): from the
 * probabilities `prob`, into `out` at `row`; `at_k` indexes class k of the
 * row and `at_lbl` its label's class.  A soft label: -sum(label * log(p))
 * over the classes; a hard one: -log(p[label]), 0 where ignored (and mx,
 * when the record keeps it: the probability at the label, 0 where
 * ignored); any other label outside [0, c) stops the run (the kernel
 * returns 1).  log with Paddle's TolerableValue. */
static void print_row_loss(Printer *p, const CeCall *c, const char *prob, const char *out, const char *at_k,
                           const char *row, const char *at_lbl) {
  const int dt = c->dtype;
  if (c->soft) {
    tu_pr_to(p, dt, "float acc = 0.0f;");
    tu_pr_to(p, dt, "for (int64_t k = 0; k < c; k++) {");
    tu_pr_to(p, dt, "const float p = %s[%s];", prob, at_k);
    tu_pr_to(p, dt, TOL_LOG);
    tu_pr_to(p, dt, "acc += label[%s] * lp;", at_k);
    tu_pr_to(p, dt, "}");
    tu_pr_to(p, dt, "%s[%s] = -acc;", out, row);
    return;
  }
  tu_pr_to(p, dt, "const int64_t lbl = (int64_t)label[%s];", row);
  tu_pr_to(p, dt, "if (lbl == INT64_C(%lld)) {", (long long)c->ignore_index);
  tu_pr_to(p, dt, "%s[%s] = 0.0f;", out, row);
  if (c->mx) tu_pr_to(p, dt, "mx[%s] = 0.0f;", row);
  tu_pr_to(p, dt, "continue;");
  tu_pr_to(p, dt, "}");
  tu_pr_to(p, dt, "if (lbl < 0 || lbl >= c) return 1; /* Paddle raises an error */");
  tu_pr_to(p, dt, "const float p = %s[%s];", prob, at_lbl);
  tu_pr_to(p, dt, TOL_LOG);
  tu_pr_to(p, dt, "%s[%s] = -lp;", out, row);
  if (c->mx) tu_pr_to(p, dt, "mx[%s] = p;", row);
}

/* softmax_with_cross_entropy (phi CrossEntropyWithSoftmaxKernel): sm =
 * softmax(x) over c (rt_softmax, rt_softmax_f64), or x itself without
 * use_softmax; loss = -log(sm[label]) for a hard label (0 where ignored),
 * -sum(label * log(sm)) over the classes for a soft one. */
static void print_softmax_loss(Printer *p, const CeCall *c) {
  const int dt = c->dtype;
  tu_pr_to(p, dt, "const float *x = %s;", c->x);
  tu_pr_to(p, dt, "const %s *label = %s;", label_type(c), c->label);
  tu_pr_to(p, dt, "float *sm = %s;", c->sm);
  tu_pr_to(p, dt, "float *loss = %s;", c->loss);
  if (c->use_softmax)
    attention_print_c(p, &(AttentionCall){.kind = ATTN_SOFTMAX, .f64 = dt == RT_DT_FP64, .x = "x", .out = "sm",
                                          .outer = "n", .n = "c", .inner = "r"});
  else
    tu_pr_to(p, dt, "if (sm != x) memcpy(sm, x, (size_t)(n * c * r) * sizeof *sm);");
  tu_pr_to(p, dt, "for (int64_t i = 0; i < n; i++) {");
  tu_pr_to(p, dt, "for (int64_t j = 0; j < r; j++) {");
  print_row_loss(p, c, "sm", "loss", "(i * c + k) * r + j", "i * r + j", "(i * c + lbl) * r + j");
  tu_pr_to(p, dt, "}");
  tu_pr_to(p, dt, "}");
}

/* softmax_with_cross_entropy_grad (phi CrossEntropyWithSoftmaxGradKernel),
 * g = dloss of the row, p = sm:
 *   use_softmax, hard label: p * g, minus g at the label; zeros where ignored
 *   use_softmax, soft label: g * (p - label)
 *   no softmax, hard label:  -g / p at the label, zeros elsewhere and where
 *                            ignored
 *   no softmax, soft label:  g * (-label / p)
 * Each element of sm is read before the same element of dx is written (in
 * place when Paddle's inplace pass shares them). */
static void print_softmax_grad(Printer *p, const CeCall *c) {
  const int dt = c->dtype;
  tu_pr_to(p, dt, "const %s *label = %s;", label_type(c), c->label);
  tu_pr_to(p, dt, "const float *sm = %s;", c->sm);
  tu_pr_to(p, dt, "const float *dloss = %s;", c->dloss);
  tu_pr_to(p, dt, "float *dx = %s;", c->dx);
  tu_pr_to(p, dt, "for (int64_t i = 0; i < n; i++) {");
  tu_pr_to(p, dt, "for (int64_t j = 0; j < r; j++) {");
  tu_pr_to(p, dt, "const float g = dloss[i * r + j];");
  if (c->soft) {
    tu_pr_to(p, dt, "for (int64_t k = 0; k < c; k++) {");
    tu_pr_to(p, dt, "const int64_t at = (i * c + k) * r + j;");
    tu_pr_to(p, dt, c->use_softmax ? "dx[at] = g * (sm[at] - label[at]);" : "dx[at] = g * (-label[at] / sm[at]);");
    tu_pr_to(p, dt, "}");
  } else {
    tu_pr_to(p, dt, "const int64_t lbl = (int64_t)label[i * r + j];");
    tu_pr_to(p, dt, "const int ignored = lbl == INT64_C(%lld) || lbl < 0 || lbl >= c;", (long long)c->ignore_index);
    if (c->use_softmax) {
      tu_pr_to(p, dt, "for (int64_t k = 0; k < c; k++) {");
      tu_pr_to(p, dt, "const int64_t at = (i * c + k) * r + j;");
      tu_pr_to(p, dt, "dx[at] = ignored ? 0.0f : sm[at] * g;");
      tu_pr_to(p, dt, "}");
      tu_pr_to(p, dt, "if (!ignored) dx[(i * c + lbl) * r + j] -= g;");
    } else {
      tu_pr_to(p, dt, "const float v = ignored ? 0.0f : (-1.0f / sm[(i * c + lbl) * r + j]) * g;");
      tu_pr_to(p, dt, "for (int64_t k = 0; k < c; k++) dx[(i * c + k) * r + j] = k == lbl ? v : 0.0f;");
    }
  }
  tu_pr_to(p, dt, "}");
  tu_pr_to(p, dt, "}");
}

/* cross_entropy's [n, c] rows, x and the label. */
static void print_rows_x_label(Printer *p, const CeCall *c) {
  tu_pr_to(p, c->dtype, "const int64_t n = %s, c = %s;", c->n, c->c);
  tu_pr_to(p, c->dtype, "const float *x = %s;", c->x);
  tu_pr_to(p, c->dtype, "const %s *label = %s;", label_type(c), c->label);
}

/* cross_entropy (fluid CrossEntropyOpKernel) and cross_entropy2
 * (CrossEntropyOpKernel2, hard labels only): y = -log(x[label]) with
 * Paddle's TolerableValue (0 where ignored), soft labels -sum(label *
 * log(x)); cross_entropy2 also keeps mx = x[label] (0 where ignored). */
static void print_loss(Printer *p, const CeCall *c) {
  const int dt = c->dtype;
  print_rows_x_label(p, c);
  tu_pr_to(p, dt, "float *y = %s;", c->loss);
  if (c->mx) tu_pr_to(p, dt, "float *mx = %s;", c->mx);
  tu_pr_to(p, dt, "for (int64_t i = 0; i < n; i++) {");
  print_row_loss(p, c, "x", "y", "i * c + k", "i", "i * c + lbl");
  tu_pr_to(p, dt, "}");
}

/* cross_entropy_grad (fluid XeGradFunctor / XeSoftlabelGradFunctor) and
 * cross_entropy_grad2 (HardLabelCrossEntropyBackwardFunctor), per row i of
 * the [n, c] dx with g = dy[i]: hard labels -g / x[i, label] (MatchX:
 * -g / mx[i]) at the label and zeros elsewhere, a row of zeros where
 * ignored; soft labels -label * g / x. */
static void print_grad(Printer *p, const CeCall *c) {
  const int dt = c->dtype;
  print_rows_x_label(p, c);
  tu_pr_to(p, dt, "const float *dy = %s;", c->dloss);
  tu_pr_to(p, dt, "float *dx = %s;", c->dx);
  tu_pr_to(p, dt, "for (int64_t i = 0; i < n; i++) {");
  if (c->soft) {
    tu_pr_to(p, dt, "for (int64_t k = 0; k < c; k++) dx[i * c + k] = -label[i * c + k] * dy[i] / x[i * c + k];");
  } else {
    tu_pr_to(p, dt, "const int64_t lbl = (int64_t)label[i];");
    tu_pr_to(p, dt, "const int ignored = lbl == INT64_C(%lld) || lbl < 0 || lbl >= c;", (long long)c->ignore_index);
    tu_pr_to(p, dt, "const float v = ignored ? 0.0f : -dy[i] / x[%s];", c->match_x ? "i" : "i * c + lbl");
    tu_pr_to(p, dt, "for (int64_t k = 0; k < c; k++) dx[i * c + k] = k == lbl ? v : 0.0f;");
  }
  tu_pr_to(p, dt, "}");
}

void ce_print_c(Printer *p, const CeCall *c) {
  switch (c->kind) {
    case CE_SOFTMAX_LOSS:
    case CE_SOFTMAX_GRAD:
      pr_line(p, "const int64_t n = %s, c = %s, r = %s;", c->n, c->c, c->r);
      if (c->kind == CE_SOFTMAX_LOSS) print_softmax_loss(p, c);
      else print_softmax_grad(p, c);
      break;
    case CE_LOSS:
      print_loss(p, c);
      break;
    case CE_GRAD:
      print_grad(p, c);
      break;
  }
}

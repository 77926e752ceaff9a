/* The C printer of element-wise losses (loss_call.h).  The formulas, and
 * the Paddle kernels they follow, are in loss.c beside each emitter. */
#include "loss_call.h"

#include "../util.h"
#include "tensor_util.h"

/* `const float *name = ptr;` (double for float64), nothing for NULL. */
static void pr_in(Printer *p, const LossCall *c, const char *name, const char *ptr) {
  if (ptr) tu_pr_to(p, c->dtype, "const float *%s = %s;", name, ptr);
}

/* `float *name = ptr;` (double for float64), nothing for NULL. */
static void pr_out(Printer *p, const LossCall *c, const char *name, const char *ptr) {
  if (ptr) tu_pr_to(p, c->dtype, "float *%s = %s;", name, ptr);
}

/* Every buffer of the record the kernel has, under its field's name: the
 * inputs x, y, p, label, t, pw, dout, then the outputs out, loss, dx, dy. */
static void pr_fields(Printer *p, const LossCall *c) {
  const char *const in[][2] = {{"x", c->x},         {"y", c->y},   {"p", c->p},      {"label", c->label},
                               {"t", c->t},         {"pw", c->pw}, {"dout", c->dout}};
  const char *const out[][2] = {{"out", c->out}, {"loss", c->loss}, {"dx", c->dx}, {"dy", c->dy}};
  for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) pr_in(p, c, in[i][0], in[i][1]);
  for (size_t i = 0; i < sizeof out / sizeof out[0]; i++) pr_out(p, c, out[i][0], out[i][1]);
}

static void print_sigmoid_ce(Printer *p, const LossCall *c) {
  const int dt = c->dtype, grad = c->kind == LOSS_SIGMOID_CE_GRAD;
  pr_fields(p, c);
  tu_pr_to(p, dt, "const int64_t n = %s;", c->n);
  tu_pr_to(p, dt, "for (int64_t i = 0; i < n; i++) {");
  tu_pr_to(p, dt, "const float xv = x[i], lv = label[i];");
  /* static_cast<int>(label) == ignore_index, without C's undefined
   * conversion of a label out of int's range */
  tu_pr_to(p, dt, "if (lv >= -2147483648.0f && lv < 2147483648.0f && (int32_t)lv == %lld) {",
           (long long)c->ignore_index);
  tu_pr_to(p, dt, "out[i] = 0.0f;");
  tu_pr_to(p, dt, "continue;");
  tu_pr_to(p, dt, "}");
  if (grad) {
    tu_pr_to(p, dt, "const float s = xv >= 0.0f ? 1.0f / (1.0f + expf(-xv)) : expf(xv) / (1.0f + expf(xv));");
    tu_pr_to(p, dt, "out[i] = dout[i] * (%s * s - lv);", c->pw ? "pw[i]" : "1.0f");
  } else {
    tu_pr_to(p, dt, "out[i] = (xv > 0.0f ? xv : 0.0f) - xv * lv + logf(1.0f + expf(-fabsf(xv)))%s;",
             c->pw ? " * pw[i]" : "");
  }
  tu_pr_to(p, dt, "}");
  if (c->normalize) {
    const double ignore = dt == RT_DT_FP64 ? (double)c->ignore_index : (double)(float)c->ignore_index;
    tu_pr_to(p, dt, "int norm = 0;");
    tu_pr_to(p, dt, "for (int64_t i = 0; i < n; i++) {");
    tu_pr_to(p, dt, "const float d = label[i] - %s;", tu_literal(dt, ignore));
    tu_pr_to(p, dt, "if (d < -1e-6f || d > 1e-6f) norm++;");
    tu_pr_to(p, dt, "}");
    tu_pr_to(p, dt, "for (int64_t i = 0; i < n; i++) out[i] /= (float)norm;");
  }
}

static void print_bce(Printer *p, const LossCall *c) {
  const int dt = c->dtype;
  pr_in(p, c, "x", c->x);
  pr_in(p, c, "label", c->label);
  pr_in(p, c, "dout", c->dout);
  pr_out(p, c, "out", c->out);
  tu_pr_to(p, dt, "for (int64_t i = 0; i < %s; i++) {", c->n);
  if (c->kind == LOSS_BCE_GRAD) {
    tu_pr_to(p, dt, "const float d = (1.0f - x[i]) * x[i];");
    tu_pr_to(p, dt, "out[i] = dout[i] * ((x[i] - label[i]) / (d > 1e-12f ? d : 1e-12f));");
  } else {
    tu_pr_to(p, dt, "const float l1 = logf(1.0f - x[i]), l0 = logf(x[i]);");
    tu_pr_to(p, dt, "out[i] = (label[i] - 1.0f) * (l1 > -100.0f ? l1 : -100.0f) - label[i] * (l0 > -100.0f ? l0 : -100.0f);");
  }
  tu_pr_to(p, dt, "}");
}

/* huber_loss's delta and the loop over the elements, closed by "}". */
static void open_huber(Printer *p, const LossCall *c) {
  tu_pr_to(p, c->dtype, "const float delta = %s;", tu_literal(c->dtype, c->delta));
  tu_pr_to(p, c->dtype, "for (int64_t i = 0; i < %s; i++) {", c->n);
}

static void print_huber(Printer *p, const LossCall *c) {
  const int dt = c->dtype;
  pr_in(p, c, "x", c->x);
  pr_in(p, c, "y", c->y);
  pr_out(p, c, "out", c->out);
  pr_out(p, c, "res", c->res);
  open_huber(p, c);
  tu_pr_to(p, dt, "const float r = y[i] - x[i], a = fabsf(r);");
  if (c->res) tu_pr_to(p, dt, "res[i] = r;");
  tu_pr_to(p, dt, "out[i] = a <= delta ? 0.5f * r * r : delta * (a - 0.5f * delta);");
  tu_pr_to(p, dt, "}");
}

static void print_huber_grad(Printer *p, const LossCall *c) {
  const int dt = c->dtype;
  pr_in(p, c, "res", c->res);
  pr_in(p, c, "dout", c->dout);
  pr_out(p, c, "dx", c->dx);
  pr_out(p, c, "dy", c->dy);
  open_huber(p, c);
  tu_pr_to(p, dt, "const float r = res[i], g = dout[i];");
  tu_pr_to(p, dt, "const float b = fabsf(r) <= delta ? r : (r > 0.0f ? delta : -delta);");
  if (c->dx) tu_pr_to(p, dt, "dx[i] = g * -b;");
  if (c->dy) tu_pr_to(p, dt, "dy[i] = g * b;");
  tu_pr_to(p, dt, "}");
}

/* smooth_l1_loss's s2 and its [rows, cols] walk. */
static void print_s2_rows(Printer *p, const LossCall *c) {
  tu_pr_to(p, c->dtype, "const float s2 = %s * %s;", em_float(c->sigma), em_float(c->sigma));
  tu_pr_to(p, c->dtype, "const int64_t rows = %s, cols = %s;", c->rows, c->cols);
}

static void print_smooth_l1(Printer *p, const LossCall *c) {
  const int dt = c->dtype, has = c->iw != NULL;
  pr_in(p, c, "x", c->x);
  pr_in(p, c, "y", c->y);
  pr_in(p, c, "iw", c->iw);
  pr_in(p, c, "ow", c->ow);
  pr_out(p, c, "diff", c->diff);
  pr_out(p, c, "out", c->out);
  print_s2_rows(p, c);
  tu_pr_to(p, dt, "for (int64_t r = 0; r < rows; r++) {");
  tu_pr_to(p, dt, "float sum = 0.0f;");
  tu_pr_to(p, dt, "for (int64_t k = r * cols; k < (r + 1) * cols; k++) {");
  tu_pr_to(p, dt, "const float v = %s;", has ? "(x[k] - y[k]) * iw[k]" : "x[k] - y[k]");
  tu_pr_to(p, dt, "const float a = fabsf(v), err = a < 1.0f / s2 ? 0.5f * v * v * s2 : a - 0.5f / s2;");
  tu_pr_to(p, dt, "diff[k] = v;");
  tu_pr_to(p, dt, "sum += %s;", has ? "err * ow[k]" : "err");
  tu_pr_to(p, dt, "}");
  tu_pr_to(p, dt, "out[r] = sum;");
  tu_pr_to(p, dt, "}");
}

static void print_smooth_l1_grad(Printer *p, const LossCall *c) {
  const int dt = c->dtype;
  pr_in(p, c, "diff", c->diff);
  pr_in(p, c, "iw", c->iw);
  pr_in(p, c, "ow", c->ow);
  pr_out(p, c, "dx", c->dx);
  pr_out(p, c, "dy", c->dy);
  pr_in(p, c, "dout", c->dout);
  print_s2_rows(p, c);
  tu_pr_to(p, dt, "for (int64_t r = 0; r < rows; r++)");
  tu_pr_to(p, dt, "for (int64_t k = r * cols; k < (r + 1) * cols; k++) {");
  tu_pr_to(p, dt, "const float v = diff[k];");
  tu_pr_to(p, dt, "const float d = fabsf(v) < 1.0f / s2 ? s2 * v : (float)((0.0f < v) - (v < 0.0f));");
  tu_pr_to(p, dt, "const float g = %s * d;", c->iw ? "dout[r] * (iw[k] * ow[k])" : "dout[r] * 1.0f");
  if (c->dx) tu_pr_to(p, dt, "dx[k] = g;");
  if (c->dy) tu_pr_to(p, dt, "dy[k] = -1.0f * g;");
  tu_pr_to(p, dt, "}");
}

static void print_log(Printer *p, const LossCall *c) {
  const int dt = c->dtype;
  pr_fields(p, c);
  tu_pr_to(p, dt, "const float eps = %s;", em_float(c->epsilon));
  tu_pr_to(p, dt, "for (int64_t i = 0; i < %s; i++) {", c->n);
  tu_pr_to(p, dt, "const float pv = p[i], l = label[i];");
  if (c->kind == LOSS_LOG_GRAD)
    tu_pr_to(p, dt, "out[i] = dout[i] * (-(l / (pv + eps)) + (1.0f - l) / (1.0f - pv + eps));");
  else
    tu_pr_to(p, dt, "out[i] = -(l * logf(pv + eps)) - (1.0f - l) * logf(1.0f - pv + eps);");
  tu_pr_to(p, dt, "}");
}

/* hinge_loss (fluid EigenHingeLoss, float): labels 0 or 1 as -1 or 1; max
 * as std::max (a NaN stays). */
static void print_hinge(Printer *p, const LossCall *c) {
  pr_fields(p, c);
  pr_line(p, "for (int64_t i = 0; i < %s; i++) {", c->n);
  pr_line(p, "const float alt = 2.0f * label[i] - 1.0f;");
  if (c->kind == LOSS_HINGE_GRAD) {
    pr_line(p, "out[i] = dout[i] * (float)(p[i] * alt < 1.0f) * -alt;");
  } else {
    pr_line(p, "const float v = 1.0f - p[i] * alt;");
    pr_line(p, "out[i] = v < 0.0f ? 0.0f : v;");
  }
  pr_line(p, "}");
}

/* rank_loss (fluid EigenRankLoss, float): RankNet's pairwise loss of the
 * scores x (Left) and y (Right). */
static void print_rank(Printer *p, const LossCall *c) {
  pr_fields(p, c);
  pr_line(p, "for (int64_t i = 0; i < %s; i++) {", c->n);
  if (c->kind == LOSS_RANK) {
    pr_line(p, "const float d = x[i] - y[i];");
    pr_line(p, "out[i] = logf(1.0f + expf(d)) - label[i] * d;");
  } else {
    pr_line(p, "const float s = 1.0f / (1.0f + expf(y[i] - x[i])) - label[i];");
    if (c->dx) pr_line(p, "dx[i] = dout[i] * s;");
    if (c->dy) pr_line(p, "dy[i] = -dout[i] * s;");
  }
  pr_line(p, "}");
}

static void print_kldiv(Printer *p, const LossCall *c) {
  const int dt = c->dtype, red = c->reduction;
  pr_in(p, c, "x", c->x);
  pr_in(p, c, "t", c->t);
  pr_out(p, c, "loss", c->loss);
  tu_pr_to(p, dt, "const int64_t n = %s;", c->n);
  if (red != 0) tu_pr_to(p, dt, "double acc = 0.0;");
  tu_pr_to(p, dt, "for (int64_t i = 0; i < n; i++) {");
  tu_pr_to(p, dt, "const float v = t[i] <= 0.0f ? 0.0f : t[i] * (logf(t[i]) - x[i]);");
  tu_pr_to(p, dt, red == 0 ? "loss[i] = v;" : "acc += v;");
  tu_pr_to(p, dt, "}");
  if (red == 1) tu_pr_to(p, dt, "loss[0] = (float)acc / (float)n;");
  if (red == 2) tu_pr_to(p, dt, "loss[0] = (float)acc;");
  if (red == 3) {
    tu_pr_to(p, dt, "const int64_t batch = %s;", c->batch);
    tu_pr_to(p, dt, "loss[0] = batch > 0 ? (float)acc / (float)batch : (float)acc;");
  }
}

static void print_kldiv_grad(Printer *p, const LossCall *c) {
  const int dt = c->dtype;
  pr_in(p, c, "t", c->t);
  pr_out(p, c, "dx", c->dx);
  pr_in(p, c, "dout", c->dout);
  tu_pr_to(p, dt, "const int64_t n = %s;", c->n);
  const char *div = c->reduction == 1 ? " / (float)n" : "";
  if (c->reduction == 3) {
    tu_pr_to(p, dt, "const float batch = (float)%s;", c->batch);
    div = " / batch";
  }
  tu_pr_to(p, dt, "for (int64_t i = 0; i < n; i++) dx[i] = t[i] <= 0.0f ? 0.0f : (-t[i] * dout[%s])%s;",
           c->dout_scalar ? "0" : "i", div);
}

/* phi NllLossRawKernel: each sample in order (batch, then map position);
 * a label equal to ignore_index gives 0 and no weight, another outside
 * [0, classes) stops the run (Paddle raises). */
static void print_nll(Printer *p, const LossCall *c) {
  const int dt = c->dtype, red = c->reduction;
  pr_in(p, c, "x", c->x);
  pr_in(p, c, "w", c->weight);
  pr_out(p, c, "out", c->out);
  pr_out(p, c, "total", c->total);
  tu_pr_to(p, dt, "const int64_t *label = %s;", c->label);
  tu_pr_to(p, dt, "const int64_t n = %s, classes = %s, maps = %s;", c->n, c->classes, c->maps);
  if (red) tu_pr_to(p, dt, "float acc = 0, weights = 0;");
  tu_pr_to(p, dt, "for (int64_t s = 0; s < n; s++) {");
  tu_pr_to(p, dt, "const int64_t k = label[s];");
  tu_pr_to(p, dt, "if (k == INT64_C(%lld)) {", (long long)c->ignore_index);
  if (!red) tu_pr_to(p, dt, "out[s] = 0;");
  tu_pr_to(p, dt, "continue;");
  tu_pr_to(p, dt, "}");
  tu_pr_to(p, dt, "if (k < 0 || k >= classes) return 1; /* Paddle raises: a label out of bounds */");
  tu_pr_to(p, dt, "const float wk = %s, v = x[(s / maps * classes + k) * maps + s %% maps];", c->weight ? "w[k]" : "1");
  if (red) {
    tu_pr_to(p, dt, "weights += wk;");
    tu_pr_to(p, dt, "acc -= v * wk;");
  } else {
    tu_pr_to(p, dt, "out[s] = -v * wk;");
  }
  tu_pr_to(p, dt, "}");
  if (red == 1) tu_pr_to(p, dt, "if (weights != 0) acc /= weights;");
  if (red) tu_pr_to(p, dt, "out[0] = acc;");
  tu_pr_to(p, dt, "total[0] = %s;", red ? "weights" : "0");
}

/* phi NllLossGradKernel: X@GRAD zeroed, then each sample's label entry. */
static void print_nll_grad(Printer *p, const LossCall *c) {
  const int dt = c->dtype, red = c->reduction;
  pr_in(p, c, "w", c->weight);
  pr_in(p, c, "dout", c->dout);
  pr_in(p, c, "total", c->total);
  pr_out(p, c, "dx", c->dx);
  tu_pr_to(p, dt, "const int64_t *label = %s;", c->label);
  tu_pr_to(p, dt, "const int64_t n = %s, classes = %s, maps = %s;", c->n, c->classes, c->maps);
  tu_pr_to(p, dt, "memset(dx, 0, (size_t)(n * classes) * sizeof *dx);");
  tu_pr_to(p, dt, "for (int64_t s = 0; s < n; s++) {");
  tu_pr_to(p, dt, "const int64_t k = label[s];");
  tu_pr_to(p, dt, "if (k == INT64_C(%lld) || k < 0 || k >= classes) continue; /* the forward stopped on the latter */",
           (long long)c->ignore_index);
  tu_pr_to(p, dt, "float *d = &dx[(s / maps * classes + k) * maps + s %% maps];");
  tu_pr_to(p, dt, "*d = -dout[%s] * %s;", red ? "0" : "s", c->weight ? "w[k]" : "1.0f");
  if (red == 1) tu_pr_to(p, dt, "*d /= total[0];");
  tu_pr_to(p, dt, "}");
  if (red != 1) tu_pr_to(p, dt, "(void)total;");
}

void loss_print_c(Printer *p, const LossCall *c) {
  switch (c->kind) {
    case LOSS_SIGMOID_CE:
    case LOSS_SIGMOID_CE_GRAD:
      print_sigmoid_ce(p, c);
      break;
    case LOSS_BCE:
    case LOSS_BCE_GRAD:
      print_bce(p, c);
      break;
    case LOSS_HUBER:
      print_huber(p, c);
      break;
    case LOSS_HUBER_GRAD:
      print_huber_grad(p, c);
      break;
    case LOSS_SMOOTH_L1:
      print_smooth_l1(p, c);
      break;
    case LOSS_SMOOTH_L1_GRAD:
      print_smooth_l1_grad(p, c);
      break;
    case LOSS_LOG:
    case LOSS_LOG_GRAD:
      print_log(p, c);
      break;
    case LOSS_HINGE:
    case LOSS_HINGE_GRAD:
      print_hinge(p, c);
      break;
    case LOSS_RANK:
    case LOSS_RANK_GRAD:
      print_rank(p, c);
      break;
    case LOSS_KLDIV:
      print_kldiv(p, c);
      break;
    case LOSS_KLDIV_GRAD:
      print_kldiv_grad(p, c);
      break;
    case LOSS_NLL:
      print_nll(p, c);
      break;
    case LOSS_NLL_GRAD:
      print_nll_grad(p, c);
      break;
  }
}

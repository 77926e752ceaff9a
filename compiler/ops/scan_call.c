/* The C printer of the scan kernels (scan_call.h). */
#include "scan_call.h"

#include "../util.h"
#include "tensor_util.h"

/* The lowest finite value of the element type (LOGSUMEXP*). */
static const char *lowest(const ScanCall *c) { return c->f32 ? "-3.40282347e+38f" : "-1.7976931348623157e+308"; }

/* The scan from the array `src` into the array `dst` (C names), summing or
 * (logexp) folding log(exp(acc) + exp(v)) into it. */
static void print_scan(Printer *p, const ScanCall *c, int logexp, const char *src, const char *dst) {
  if (c->one) {
    pr_line(p, "%s[0] = %s[0]; /* Paddle copies a one-element X */", dst, src);
    return;
  }
  const char *t = c->type, *fs = c->f32 ? "f" : "";
  if (c->by_batch) {
    pr_line(p, "if (%s == 1) {", c->numel);
    pr_line(p, "%s[0] = %s[0]; /* Paddle copies a one-element X */", dst, src);
    pr_line(p, "} else {");
  }
  pr_line(p, "for (int64_t l = 0; l < %s; l++) {", c->lines);
  pr_line(p, "const int64_t base = %s;", tu_line_start("l", c->n, c->inner));
  pr_line(p, "%s acc = %s;", t, logexp ? lowest(c) : "0");
  pr_line(p, "for (int64_t j = 0; j < %s; j++) {", c->n);
  const char *k = c->reverse ? pool_printf("(%s - 1 - j)", c->n) : "j";
  pr_line(p, "const int64_t at = base + %s;", tu_mul(k, c->inner));
  if (c->exclusive) pr_line(p, "%s[at] = acc;", dst);
  if (!logexp) {
    pr_line(p, "acc += %s[at];", src);
  } else {
    pr_line(p, "const %s v = %s[at], mi = v < acc ? v : acc, ma = acc < v ? v : acc;", t, src);
    pr_line(p, "acc = ma < %s ? ma : log1p%s(exp%s(mi - ma)) + ma;", lowest(c), fs, fs);
  }
  if (!c->exclusive) pr_line(p, "%s[at] = acc;", dst);
  pr_close(p, 2);
  if (c->by_batch) pr_line(p, "}");
}

/* cumsum (its grad) and logcumsumexp. */
static void print_forward(Printer *p, const ScanCall *c) {
  pr_line(p, "const %s *x = %s;", c->type, c->x);
  pr_line(p, "%s *out = %s;", c->type, c->out);
  print_scan(p, c, c->kind == SCAN_LOGSUMEXP, "x", "out");
}

/* phi LogcumsumexpGradKernel: the scans of the positive and the negative
 * parts of dout, each taken in by exp into dx. */
static void print_logsumexp_grad(Printer *p, const ScanCall *c) {
  const char *t = c->type, *fs = c->f32 ? "f" : "";
  pr_line(p, "const %s *x = %s;", t, c->x);
  pr_line(p, "const %s *out = %s;", t, c->out);
  pr_line(p, "const %s *dout = %s;", t, c->dout);
  pr_line(p, "%s *dx = %s;", t, c->dx);
  pr_line(p, "%s *tmp = (%s *)%s;", t, t, c->tmp);
  pr_line(p, "%s *scan = tmp + %s;", t, c->numel);
  for (int k = 0; k < 2; k++) {
    pr_line(p, "for (int64_t i = 0; i < %s; i++)", c->numel);
    if (k == 0) pr_line(p, "  tmp[i] = (dout[i] > 0 ? log%s(dout[i]) : %s) - out[i];", fs, lowest(c));
    else pr_line(p, "  tmp[i] = (dout[i] < 0 ? log%s(-dout[i]) : %s) - out[i];", fs, lowest(c));
    print_scan(p, c, 1, "tmp", "scan");
    pr_line(p, "for (int64_t i = 0; i < %s; i++) dx[i] %s exp%s(scan[i] + x[i]);", c->numel, k ? "-=" : "=", fs);
  }
}

/* Paddle's ComputeImp of cummax / cummin: equal elements move the index
 * forward; a NaN wins and sticks. */
static void print_maxmin(Printer *p, const ScanCall *c) {
  const char *t = c->type, *cmp = c->kind == SCAN_MAX ? ">=" : "<=", *at = tu_mul("i", c->inner);
  pr_line(p, "const %s *x = %s;", t, c->x);
  pr_line(p, "%s *out = %s;", t, c->out);
  pr_line(p, "%s *indices = %s;", c->index_type, c->indices);
  pr_line(p, "for (int64_t l = 0; l < %s; l++) {", c->lines);
  pr_line(p, "const int64_t base = %s;", tu_line_start("l", c->n, c->inner));
  pr_line(p, "%s best = x[base];", t);
  pr_line(p, "int64_t at = 0;");
  pr_line(p, "for (int64_t i = 0; i < %s; i++) {", c->n);
  pr_line(p, "const %s v = x[base + %s];", t, at);
  if (c->nan)
    pr_line(p, "if (isnan(v) || (!isnan(best) && v %s best)) {", cmp);
  else
    pr_line(p, "if (v %s best) {", cmp);
  pr_line(p, "best = v;");
  pr_line(p, "at = i;");
  pr_line(p, "}");
  pr_line(p, "out[base + %s] = best;", at);
  pr_line(p, "indices[base + %s] = (%s)at;", at, c->index_type);
  pr_close(p, 2);
}

void scan_print_c(Printer *p, const ScanCall *c) {
  switch (c->kind) {
    case SCAN_SUM:
    case SCAN_LOGSUMEXP:
      print_forward(p, c);
      break;
    case SCAN_LOGSUMEXP_GRAD:
      print_logsumexp_grad(p, c);
      break;
    case SCAN_MAX:
    case SCAN_MIN:
      print_maxmin(p, c);
      break;
  }
}

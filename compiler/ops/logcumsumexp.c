/* logcumsumexp (paddle.logcumsumexp): X -> Out; axis:INT=-1,
 * flatten:BOOLEAN=false, exclusive:BOOLEAN=false, reverse:BOOLEAN=false.
 * Shape rule (phi CumInferMeta): Out has X's dims and dtype; with flatten
 * it is 1-D of product(X.dims), unknown dims multiplied in as -1 (as
 * cumsum).
 * Emission (float32/64): Paddle's ScanKernel with the LogSumExp reducer,
 * per line along the axis (all of X with flatten), front to back or
 * (reverse) back to front: the running value starts at the type's lowest
 * finite value and takes in each element v as
 *   mi = min(acc, v), ma = max(acc, v),
 *   acc = ma < lowest ? ma : log1p(exp(mi - ma)) + ma;
 * inclusive stores acc after taking v in, exclusive before.  As Paddle, a
 * one-element X is copied (even when exclusive). */
#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_logcumsumexp(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  Shape s = x->shape;
  if (attr_bool(c->op, "flatten", 0)) {
    int64_t p = 1;
    for (int i = 0; i < x->shape.rank; i++) p *= x->shape.d[i];
    s = (Shape){1, {p}};
  } else if (s.rank > 0) {
    int64_t axis = attr_int(c->op, "axis", -1);
    if (axis < -s.rank || axis >= s.rank)
      return ctx_fail(c, "axis %lld is out of range for X %s", (long long)axis, shape_str(&s));
  }
  ctx_set(c, "Out", 0, &s, x->dtype);
  return 0;
}

/* The scan over x's lines (all of x with flatten) from the array `src`
 * into the array `dst` (C names, x's element count), front to back or
 * (reverse) back to front, as the comment at the top says. */
static void emit_scan(EmitCtx *e, const Var *x, const char *src, const char *dst, int reverse) {
  int r = tu_rank(e, x), axis = r ? axis_norm(attr_int(e->op, "axis", -1), r) : 0;
  const char *n = em_numel(e, x), *inner = "1", *lines = "1";
  if (!attr_bool(e->op, "flatten", 0) && r > 0) {
    n = em_dim(e, x, axis);
    inner = em_prod(e, x, axis + 1, r);
    lines = tu_mul(em_prod(e, x, 0, axis), inner);
  }
  const int f32 = x->dtype == RT_DT_FP32;
  const char *t = em_ctype(x->dtype), *lowest = f32 ? "-3.40282347e+38f" : "-1.7976931348623157e+308";
  pr_line(e->p, "if (%s == 1) {", em_numel(e, x));
  pr_line(e->p, "%s[0] = %s[0]; /* Paddle copies a one-element X */", dst, src);
  pr_line(e->p, "} else {");
  pr_line(e->p, "for (int64_t l = 0; l < %s; l++) {", lines);
  pr_line(e->p, "const int64_t base = %s;", tu_line_start("l", n, inner));
  pr_line(e->p, "%s acc = %s;", t, lowest);
  pr_line(e->p, "for (int64_t j = 0; j < %s; j++) {", n);
  const char *k = reverse ? pool_printf("(%s - 1 - j)", n) : "j";
  pr_line(e->p, "const int64_t at = base + %s;", tu_mul(k, inner));
  int exclusive = attr_bool(e->op, "exclusive", 0);
  if (exclusive) pr_line(e->p, "%s[at] = acc;", dst);
  pr_line(e->p, "const %s v = %s[at], mi = v < acc ? v : acc, ma = acc < v ? v : acc;", t, src);
  pr_line(e->p, "acc = ma < %s ? ma : log1p%s(exp%s(mi - ma)) + ma;", lowest, f32 ? "f" : "", f32 ? "f" : "");
  if (!exclusive) pr_line(e->p, "%s[at] = acc;", dst);
  pr_line(e->p, "}");
  pr_line(e->p, "}");
  pr_line(e->p, "}");
}

static int emit_logcumsumexp(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || out->dtype != x->dtype)
    return em_fail(e, "logcumsumexp of %s tensors is not supported", rt_dtype_name(x->dtype));
  if (x == out) return em_fail(e, "Out is X itself, which is not supported");
  int r = tu_rank(e, x), axis = r ? axis_norm(attr_int(e->op, "axis", -1), r) : 0;
  if (axis < 0) return em_fail(e, "axis is out of range");
  const char *t = em_ctype(x->dtype);
  pr_line(e->p, "const %s *x = %s;", t, em_ptr(e, x, 1));
  pr_line(e->p, "%s *out = %s;", t, em_ptr(e, out, 0));
  emit_scan(e, x, "x", "out", attr_bool(e->op, "reverse", 0));
  return 0;
}

const OpDef op_logcumsumexp = {.type = "logcumsumexp", .infer = infer_logcumsumexp, .emit_c = emit_logcumsumexp};

/* logcumsumexp_grad: X, Out, Out@GRAD -> X@GRAD (X's shape); the
 * forward's attributes.  phi LogcumsumexpGradKernel: the forward scan in
 * the other direction (same axis, flatten, exclusive) over
 *   pos = (dOut > 0 ? log(dOut) : lowest) - Out,
 *   neg = (dOut < 0 ? log(-dOut) : lowest) - Out
 * (into kernel scratch), then dX = exp(scan(pos) + X) - exp(scan(neg) + X),
 * all in the element type. */
static int emit_logcumsumexp_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_in(e, "Out", 0), *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !out || !dout || !dx) return -1;
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || out->dtype != x->dtype || dout->dtype != x->dtype ||
      dx->dtype != x->dtype)
    return em_fail(e, "logcumsumexp_grad of %s tensors is not supported (float32 or float64, all alike)",
                   rt_dtype_name(x->dtype));
  int r = tu_rank(e, x), axis = r ? axis_norm(attr_int(e->op, "axis", -1), r) : 0;
  if (axis < 0) return em_fail(e, "axis is out of range");
  const int f32 = x->dtype == RT_DT_FP32;
  const char *t = em_ctype(x->dtype), *fs = f32 ? "f" : "", *lowest = f32 ? "-3.40282347e+38f" : "-1.7976931348623157e+308";
  SymDim nb = spec_numel(em_spec(e, x));
  int64_t es = rt_dtype_size(x->dtype);
  pr_line(e->p, "const %s *x = %s;", t, em_ptr(e, x, 1));
  pr_line(e->p, "const %s *out = %s;", t, em_ptr(e, out, 1));
  pr_line(e->p, "const %s *dout = %s;", t, em_ptr(e, dout, 1));
  pr_line(e->p, "%s *dx = %s;", t, em_ptr(e, dx, 0));
  pr_line(e->p, "%s *tmp = (%s *)%s;", t, t, em_scratch(e, (SymDim){nb.a * 2 * es, nb.c * 2 * es}));
  pr_line(e->p, "%s *scan = tmp + %s;", t, em_numel(e, x));
  int reverse = !attr_bool(e->op, "reverse", 0);
  for (int k = 0; k < 2; k++) {
    pr_line(e->p, "for (int64_t i = 0; i < %s; i++)", em_numel(e, x));
    if (k == 0) pr_line(e->p, "  tmp[i] = (dout[i] > 0 ? log%s(dout[i]) : %s) - out[i];", fs, lowest);
    else pr_line(e->p, "  tmp[i] = (dout[i] < 0 ? log%s(-dout[i]) : %s) - out[i];", fs, lowest);
    emit_scan(e, x, "tmp", "scan", reverse);
    pr_line(e->p, "for (int64_t i = 0; i < %s; i++) dx[i] %s exp%s(scan[i] + x[i]);", em_numel(e, x), k ? "-=" : "=",
            fs);
  }
  return 0;
}

const OpDef op_logcumsumexp_grad = {.type = "logcumsumexp_grad", .infer = grad_infer,
                                    .emit_c = emit_logcumsumexp_grad};

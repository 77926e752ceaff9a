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

static int emit_logcumsumexp(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || out->dtype != x->dtype)
    return em_fail(e, "logcumsumexp of %s tensors is not supported", rt_dtype_name(x->dtype));
  if (x == out) return em_fail(e, "Out is X itself, which is not supported");
  int r = tu_rank(e, x), axis = r ? axis_norm(attr_int(e->op, "axis", -1), r) : 0;
  if (axis < 0) return em_fail(e, "axis is out of range");
  const char *n = em_numel(e, x), *inner = "1", *lines = "1";
  if (!attr_bool(e->op, "flatten", 0) && r > 0) {
    n = em_dim(e, x, axis);
    inner = em_prod(e, x, axis + 1, r);
    lines = tu_mul(em_prod(e, x, 0, axis), inner);
  }
  const int f32 = x->dtype == RT_DT_FP32;
  const char *t = em_ctype(x->dtype), *lowest = f32 ? "-3.40282347e+38f" : "-1.7976931348623157e+308";
  pr_line(e->p, "const %s *x = %s;", t, em_ptr(e, x, 1));
  pr_line(e->p, "%s *out = %s;", t, em_ptr(e, out, 0));
  pr_line(e->p, "if (%s == 1) {", em_numel(e, x));
  pr_line(e->p, "out[0] = x[0]; /* Paddle copies a one-element X */");
  pr_line(e->p, "} else {");
  pr_line(e->p, "for (int64_t l = 0; l < %s; l++) {", lines);
  pr_line(e->p, "const int64_t base = %s;", tu_line_start("l", n, inner));
  pr_line(e->p, "%s acc = %s;", t, lowest);
  pr_line(e->p, "for (int64_t j = 0; j < %s; j++) {", n);
  const char *k = attr_bool(e->op, "reverse", 0) ? pool_printf("(%s - 1 - j)", n) : "j";
  pr_line(e->p, "const int64_t at = base + %s;", tu_mul(k, inner));
  int exclusive = attr_bool(e->op, "exclusive", 0);
  if (exclusive) pr_line(e->p, "out[at] = acc;");
  pr_line(e->p, "const %s v = x[at], mi = v < acc ? v : acc, ma = acc < v ? v : acc;", t);
  pr_line(e->p, "acc = ma < %s ? ma : log1p%s(exp%s(mi - ma)) + ma;", lowest, f32 ? "f" : "", f32 ? "f" : "");
  if (!exclusive) pr_line(e->p, "out[at] = acc;");
  pr_line(e->p, "}");
  pr_line(e->p, "}");
  pr_line(e->p, "}");
  return 0;
}

const OpDef op_logcumsumexp = {.type = "logcumsumexp", .infer = infer_logcumsumexp, .emit_c = emit_logcumsumexp};

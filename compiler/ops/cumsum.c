/* cumsum: X -> Out; axis:INT=-1, flatten:BOOLEAN=false,
 * exclusive:BOOLEAN=false, reverse:BOOLEAN=false.
 * Out has X's dims and dtype; with flatten it is 1-D of product(X.dims),
 * where phi CumInferMeta multiplies unknown dims in as -1 (so [-1, 3, 4]
 * gives [-12], as Paddle writes into the VarDesc).
 * Emission: for each line of X along the axis (all of X with flatten) a
 * running sum in X's type, front to back or (reverse) back to front;
 * exclusive stores the sum before adding the element, as Paddle's scan. */
#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_cumsum(OpCtx *c) {
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

static int emit_cumsum_any(EmitCtx *e, int grad) {
  Var *x = tu_in(e, grad ? "Out@GRAD" : "X", 0), *out = tu_out(e, grad ? "X@GRAD" : "Out", 0);
  if (!x || !out) return -1;
  if (grad && (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64))
    return em_fail(e, "cumsum_grad of %s tensors is not supported (float32 or float64)", rt_dtype_name(x->dtype));
  /* the grad's lines: X's dims (Out@GRAD is 1-D with flatten) */
  Var *dims = grad ? tu_in(e, "X", 0) : x;
  if (!dims) return -1;
  SymDim nx = spec_numel(em_spec(e, dims)), no = spec_numel(em_spec(e, x));
  if (nx.a != no.a || nx.c != no.c) return em_fail(e, "Out@GRAD and X differ in element count");
  if (x->dtype != out->dtype || x->dtype == RT_DT_BOOL)
    return em_fail(e, "cumsum of %s tensors is not supported", rt_dtype_name(x->dtype));
  int r = tu_rank(e, dims), axis = axis_norm(attr_int(e->op, "axis", -1), r);
  if (axis < 0) return em_fail(e, "axis is out of range");
  const char *n = em_numel(e, x), *inner = "1", *lines = "1";
  if (!attr_bool(e->op, "flatten", 0) && r > 0) {
    n = em_dim(e, dims, axis);
    inner = em_prod(e, dims, axis + 1, r);
    lines = tu_mul(em_prod(e, dims, 0, axis), inner);
  }
  const char *t = em_ctype(x->dtype);
  pr_line(e->p, "const %s *x = %s;", t, em_ptr(e, x, 1));
  pr_line(e->p, "%s *out = %s;", t, em_ptr(e, out, 0));
  pr_line(e->p, "for (int64_t l = 0; l < %s; l++) {", lines);
  pr_line(e->p, "const int64_t base = %s;", tu_line_start("l", n, inner));
  pr_line(e->p, "%s acc = 0;", t);
  pr_line(e->p, "for (int64_t j = 0; j < %s; j++) {", n);
  const char *k = attr_bool(e->op, "reverse", 0) != grad ? pool_printf("(%s - 1 - j)", n) : "j";
  pr_line(e->p, "const int64_t at = base + %s;", tu_mul(k, inner));
  pr_line(e->p, "const %s v = x[at];", t);
  if (attr_bool(e->op, "exclusive", 0)) {
    pr_line(e->p, "out[at] = acc;");
    pr_line(e->p, "acc += v;");
  } else {
    pr_line(e->p, "acc += v;");
    pr_line(e->p, "out[at] = acc;");
  }
  pr_line(e->p, "}");
  pr_line(e->p, "}");
  return 0;
}

static int emit_cumsum(EmitCtx *e) { return emit_cumsum_any(e, 0); }

/* cumsum_grad (X, Out@GRAD -> X@GRAD; phi CumsumGradKernel): the cumsum of
 * Out@GRAD with the same axis, flatten and exclusive and the opposite
 * direction (!reverse), laid out in X's dims. */
static int emit_cumsum_grad(EmitCtx *e) { return emit_cumsum_any(e, 1); }

const OpDef op_cumsum = {.type = "cumsum", .infer = infer_cumsum, .emit_c = emit_cumsum};
const OpDef op_cumsum_grad = {.type = "cumsum_grad", .infer = grad_infer, .emit_c = emit_cumsum_grad};

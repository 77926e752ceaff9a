/* increment: X (one element) -> Out = X + step; step:FLOAT=1.
 * Out has X's dims and dtype (Out is usually X itself, a loop counter).
 * phi IncrementInferMeta requires product(X dims) == 1: an X of 0 elements
 * is refused as well as one of several (2.6.2 raises "The number of elements in
 * Input(X) should be 1").
 * Emission: Out[0] = X[0] + step in X's type. */
#include "flat_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_increment(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t n = shape_numel(&x->shape);
  if (n >= 0 && n != 1)
    return ctx_fail(c, "X '%s' %s holds %lld elements, not one", x->name, shape_str(&x->shape), (long long)n);
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  return 0;
}

static int emit_increment(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (x->dtype == RT_DT_BOOL || out->dtype != x->dtype)
    return em_fail(e, "increment of %s is not supported", rt_dtype_name(x->dtype));
  const char *step = tu_literal(x->dtype, attr_float(e->op, "step", 1));
  if (!step) return em_fail(e, "step does not convert to %s", rt_dtype_name(x->dtype));
  FlatCall call = {.kind = FLAT_INCREMENT, .dtype = x->dtype, .out = em_ptr(e, out, 0)};
  call.x = em_ptr(e, x, 1);
  call.value = step;
  flat_print_c(e->p, &call);
  return 0;
}

const OpDef op_increment = {.type = "increment", .infer = infer_increment, .emit_c = emit_increment};

/* isclose (paddle.isclose) and allclose (paddle.allclose): Input, Other,
 * Rtol†, Atol† -> Out; rtol:STRING="1e-05", atol:STRING="1e-08",
 * equal_nan:BOOL=false.
 * Shape rule (phi ValueCompareInferMeta / AllValueCompareInferMeta): Input
 * and Other of the same dims (the CPU kernels walk both by one index);
 * isclose's Out is bool of those dims, allclose's a 0-D bool.
 * Emission (float32/64, Paddle's CPU kernels; complex refused): the
 * tolerances are the attributes (strings read as doubles, as phi's Scalar
 * reads them) or, when given, the float64 tensors Rtol and Atol read when
 * the op runs (Paddle raises on another dtype); close_call.h gives the test. */
#include <stdlib.h>
#include <string.h>

#include "../util.h"
#include "close_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_close(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0), *y = ctx_need(c, "Other", 0);
  if (!x || !y) return -1;
  const Shape *xs = &x->shape, *ys = &y->shape;
  int same = xs->rank == ys->rank;
  for (int i = 0; same && i < xs->rank; i++)
    same = xs->d[i] == ys->d[i] || xs->d[i] == DIM_UNKNOWN || ys->d[i] == DIM_UNKNOWN;
  if (!same)
    return ctx_fail(c, "Input %s and Other %s must have the same dims (Paddle's kernel does not broadcast)",
                    shape_str(xs), shape_str(ys));
  if (x->dtype != y->dtype)
    return ctx_fail(c, "Input is %s and Other %s", rt_dtype_name(x->dtype), rt_dtype_name(y->dtype));
  const char *tol[2] = {"Rtol", "Atol"};
  for (int k = 0; k < 2; k++) {
    const Var *t = ctx_in(c, tol[k], 0);
    if (t && (t->dtype != RT_DT_FP64 || (t->shape.rank >= 0 && shape_numel(&t->shape) != 1)))
      return ctx_fail(c, "%s ('%s') is %s %s: Paddle's kernel takes one float64", tol[k], t->name,
                      rt_dtype_name(t->dtype), shape_str(&t->shape));
  }
  if (!strcmp(c->op->type, "allclose")) {
    Shape s = {c->g->zero_d ? 0 : 1, {1}};
    ctx_set(c, "Out", 0, &s, RT_DT_BOOL);
  } else {
    ctx_set(c, "Out", 0, xs, RT_DT_BOOL);
  }
  return 0;
}

/* Tolerance `name` as a C double: the tensor's first value when the op
 * has input `slot`, else the attribute (a string, read as a double); NULL
 * after em_fail. */
static const char *tolerance(EmitCtx *e, const char *slot, const char *name, const char *dflt) {
  OpCtx c = {e->g, (Op *)e->op};
  if (ctx_in(&c, slot, 0)) {
    attr_superseded(e->op, name); /* Paddle reads the tensor instead */
    const Var *t = tu_in(e, slot, 0);
    return t ? pool_printf("%s[0]", em_ptr(e, t, 1)) : NULL;
  }
  const char *s = attr_str(e->op, name, dflt);
  char *end;
  const double v = strtod(s, &end);
  if (end == s || *end) {
    em_fail(e, "attribute %s '%s' is not a number", name, s);
    return NULL;
  }
  return tu_literal(RT_DT_FP64, v);
}

static int emit_close(EmitCtx *e) {
  Var *x = tu_in(e, "Input", 0), *y = tu_in(e, "Other", 0), *out = tu_out(e, "Out", 0);
  if (!x || !y || !out) return -1;
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || y->dtype != x->dtype || out->dtype != RT_DT_BOOL)
    return em_fail(e, "%s of %s tensors is not supported (float32/64)", e->op->type, rt_dtype_name(x->dtype));
  const char *rtol = tolerance(e, "Rtol", "rtol", "1e-05"), *atol = tolerance(e, "Atol", "atol", "1e-08");
  if (!rtol || !atol) return -1;
  close_print_c(e->p, &(CloseCall){.type = em_ctype(x->dtype), .n = em_numel(e, x), .x = em_ptr(e, x, 1),
                                   .y = em_ptr(e, y, 1), .out = em_ptr(e, out, 0),
                                   .all = !strcmp(e->op->type, "allclose"), .rtol = rtol, .atol = atol,
                                   .equal_nan = attr_bool(e->op, "equal_nan", 0)});
  return 0;
}

const OpDef op_isclose = {.type = "isclose", .infer = infer_close, .emit_c = emit_close};
const OpDef op_allclose = {.type = "allclose", .infer = infer_close, .emit_c = emit_close};

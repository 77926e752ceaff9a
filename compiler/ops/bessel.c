/* i0, i0e, i1, i1e: x -> out (x's dims and dtype); no attributes.
 * Modified Bessel functions of the first kind of order 0 and 1, and the
 * same scaled by exp(-|x|) (paddle.i0, paddle.i0e, paddle.i1, paddle.i1e).
 * These phi-era ops name their slots in lower case.
 * Emission: an element-wise loop calling runtime/rt_special.c, float32 or
 * float64 (Paddle 2.6 registers CPU kernels for float and double). */
#include <string.h>

#include "../emit_ew.h"
#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_bessel(OpCtx *c) {
  Var *x = ctx_need(c, "x", 0);
  if (!x) return -1;
  ctx_set(c, "out", 0, &x->shape, x->dtype);
  return 0;
}

/* The runtime function of Bessel function `name` (i0, i0e, i1, i1e) for
 * dtype: rt_i0f for float32, rt_i0 for float64; NULL (after em_fail) for
 * any other dtype or when the tensors' dtypes differ. */
static const char *bessel_fn(EmitCtx *e, const char *name, int n, Var *const *all) {
  const int dt = tu_float_dtype(e, all, n);
  return dt < 0 ? NULL : pool_printf("rt_%s%s", name, dt == RT_DT_FP64 ? "" : "f");
}

static int emit_bessel(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "x", 0), *out = ctx_out(&c, "out", 0);
  if (!x || !out) return em_fail(e, "missing x or out");
  Var *const all[2] = {x, out};
  const char *fn = bessel_fn(e, e->op->type, 2, all);
  return fn ? ew_unary(e, x, out, NULL, pool_printf("%s(v)", fn)) : -1;
}

const OpDef op_i0 = {.type = "i0", .infer = infer_bessel, .emit_c = emit_bessel};
const OpDef op_i0e = {.type = "i0e", .infer = infer_bessel, .emit_c = emit_bessel};
const OpDef op_i1 = {.type = "i1", .infer = infer_bessel, .emit_c = emit_bessel};
const OpDef op_i1e = {.type = "i1e", .infer = infer_bessel, .emit_c = emit_bessel};

/* i0_grad: x, out@GRAD; i0e_grad, i1_grad, i1e_grad: x, out, out@GRAD ->
 * x@GRAD (x's shape).  phi's I0/I0e/I1/I1eGradFunctor formulas, their
 * Chebyshev series standing for I0, I1 (and the scaled ones), here
 * rt_special.c's values, with eps the dtype's machine epsilon:
 *   i0:  I1(x) * dOut
 *   i0e: (I1e(x) - copysign(1, x) * out) * dOut
 *   i1:  |x| <= eps ? 0.5 * dOut : (I0(x) - out / x) * dOut
 *   i1e: |x| <= eps ? 0.5 * dOut : (I0e(x) - out * (copysign(1, x) + 1 / x)) * dOut
 * Written for float32; float64 takes the double spelling (ew_expr_double). */
static int emit_bessel_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  const char *t = e->op->type;
  int i0 = !strcmp(t, "i0_grad"), i0e = !strcmp(t, "i0e_grad"), i1 = !strcmp(t, "i1_grad");
  Var *x = ctx_in(&c, "x", 0), *out = i0 ? NULL : ctx_in(&c, "out", 0), *dout = ctx_in(&c, "out@GRAD", 0);
  Var *dx = ctx_out(&c, "x@GRAD", 0);
  if (!x || !dout || (!i0 && !out)) return em_fail(e, "missing x, out or out@GRAD");
  if (!dx) return 0;
  Var *const all[4] = {x, dout, dx, out};
  const char *fn = bessel_fn(e, i0 ? "i1" : i0e ? "i1e" : i1 ? "i0" : "i0e", 4, all);
  if (!fn) return -1;
  const int f64 = x->dtype == RT_DT_FP64;
  const char *eps = f64 ? "2.220446049250313e-16" : "1.1920929e-07f";
  const char *expr = i0    ? pool_printf("%s(v) * d", fn)
                     : i0e ? pool_printf("(%s(v) - copysignf(1.0f, v) * o) * d", fn)
                     : i1  ? pool_printf("fabsf(v) <= %s ? 0.5f * d : (%s(v) - o / v) * d", eps, fn)
                           : pool_printf("fabsf(v) <= %s ? 0.5f * d : (%s(v) - o * (copysignf(1.0f, v) + 1.0f / v)) * d",
                                         eps, fn);
  const EwIn in[3] = {{x, -1, "px", "v"}, {dout, -1, "pd", "d"}, {out, -1, "po", "o"}};
  return ew_nary(e, dx, i0 ? 2 : 3, in, NULL, NULL, f64 ? ew_expr_double(expr) : expr);
}

const OpDef op_i0_grad = {.type = "i0_grad", .infer = grad_infer, .emit_c = emit_bessel_grad};
const OpDef op_i0e_grad = {.type = "i0e_grad", .infer = grad_infer, .emit_c = emit_bessel_grad};
const OpDef op_i1_grad = {.type = "i1_grad", .infer = grad_infer, .emit_c = emit_bessel_grad};
const OpDef op_i1e_grad = {.type = "i1e_grad", .infer = grad_infer, .emit_c = emit_bessel_grad};

/* polygamma (paddle.polygamma with n >= 1; n = 0 is emitted as digamma):
 * x -> out (x's dims and dtype); n:INT (required).
 * Shape rule (phi UnchangedInferMeta): out is x.
 * Emission (float32, float64): out = rt_polygamma_<t>(n, x) per element
 * (runtime/rt_polygamma.c: (-1)^(n+1) * exp(lgamma(n + 1)) * zeta(n + 1,
 * x) with Paddle's Hurwitz zeta, in x's type).  n < 0 is refused, as
 * Paddle's API refuses it; n = 0 gives -zeta(1, x) = -inf, as Paddle's
 * kernel does. */
#include "../emit_ew.h"
#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_polygamma(OpCtx *c) {
  Var *x = ctx_need(c, "x", 0);
  if (!x) return -1;
  if (!attr_has(c->op, "n")) return ctx_fail(c, "attribute n is missing");
  if (attr_int(c->op, "n", 0) < 0) return ctx_fail(c, "n is %lld; it must be >= 0", (long long)attr_int(c->op, "n", 0));
  ctx_set(c, "out", 0, &x->shape, x->dtype);
  return 0;
}

static int emit_polygamma(EmitCtx *e) {
  Var *x = tu_in(e, "x", 0), *out = tu_out(e, "out", 0);
  if (!x || !out) return -1;
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || out->dtype != x->dtype)
    return em_fail(e, "polygamma of %s tensors is not supported (float32 or float64)", rt_dtype_name(x->dtype));
  int64_t n = attr_int(e->op, "n", 0);
  if (n < 0 || n > 1000000) return em_fail(e, "n is %lld; it must be in [0, 1000000]", (long long)n);
  const char *fn = x->dtype == RT_DT_FP32 ? "rt_polygamma_f32" : "rt_polygamma_f64";
  return ew_unary(e, x, out, NULL, pool_printf("%s(%d, v)", fn, (int)n));
}

const OpDef op_polygamma = {.type = "polygamma", .infer = infer_polygamma, .emit_c = emit_polygamma,
                            .inplace = "x:out"};

/* polygamma_grad: x, out@GRAD -> x@GRAD (x's shape); n.  phi
 * PolygammaGradKernel: dX = dOut * polygamma(n + 1, x), the same formula
 * in x's type. */
static int emit_polygamma_grad(EmitCtx *e) {
  Var *x = tu_in(e, "x", 0), *dout = tu_in(e, "out@GRAD", 0), *dx = tu_out(e, "x@GRAD", 0);
  if (!x || !dout || !dx) return -1;
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || dout->dtype != x->dtype || dx->dtype != x->dtype)
    return em_fail(e, "polygamma_grad of %s tensors is not supported (float32 or float64)", rt_dtype_name(x->dtype));
  int64_t n = attr_int(e->op, "n", 0);
  if (n < 0 || n > 1000000) return em_fail(e, "n is %lld; it must be in [0, 1000000]", (long long)n);
  const char *fn = x->dtype == RT_DT_FP32 ? "rt_polygamma_f32" : "rt_polygamma_f64";
  const EwIn in[2] = {{dout, -1, "pd", "d"}, {x, -1, "px", "v"}};
  return ew_nary(e, dx, 2, in, NULL, NULL, pool_printf("d * %s(%d, v)", fn, (int)n + 1));
}

const OpDef op_polygamma_grad = {.type = "polygamma_grad", .infer = grad_infer, .emit_c = emit_polygamma_grad};

/* Unary element-wise ops (activations and math): Out has X's shape and
 * dtype.  Each op's C expression of the input element `v`, with its
 * attributes and Paddle's defaults (from the op makers), is in
 * unary_float_expr() below (fused ops use it too); erfinv and digamma call runtime/rt_special.c.  Optional tensor
 * inputs: clip's Min/Max, pow's FactorTensor and scale's ScaleTensor (1
 * element each) override the attribute at run time.  rrelu also writes
 * Noise (the slope of each element) and compiles only for inference
 * (is_test), where its slope is fixed. */
#include <string.h>

#include "../emit_ew.h"
#include "../util.h"
#include "ops.h"

static int infer_unary(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  return 0;
}

/* rrelu: X -> Out, Noise (X's shape and dtype); is_test:BOOLEAN=false,
 * lower:FLOAT=0.125, upper:FLOAT=1/3 with 0 <= lower <= upper <= 1 (phi
 * RReluInferMeta). */
static int infer_rrelu(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  double lo = attr_float(c->op, "lower", 0.125), hi = attr_float(c->op, "upper", 1.0 / 3.0);
  if (!(lo >= 0 && lo <= 1 && hi >= 0 && hi <= 1 && lo <= hi))
    return ctx_fail(c, "lower %g and upper %g must satisfy 0 <= lower <= upper <= 1", lo, hi);
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_set(c, "Noise", 0, &x->shape, x->dtype);
  return 0;
}

/* A float attribute as a C operand: em_float's literal, in parentheses when
 * it starts with a minus (-0.5f, -INFINITY), so that `-%s`, `x - %s` and
 * the like stay well formed for negative attributes. */
static const char *operand(const char *lit) { return *lit == '-' ? pool_printf("(%s)", lit) : lit; }

static const char *f(const Op *op, const char *name, double dflt) {
  return operand(em_float(attr_float(op, name, dflt)));
}

/* A scalar from op's 1-element tensor input, or its attribute. */
static const char *tensor_or_attr(EmitCtx *e, const Op *op, const char *slot, const char *attr, double dflt) {
  OpCtx c = {e->g, (Op *)op};
  Var *t = ctx_in(&c, slot, 0);
  if (!t) return f(op, attr, dflt);
  attr_superseded(op, attr); /* Paddle reads the attribute only without the tensor */
  return pool_printf("(float)%s[0]", em_ptr(e, t, 1));
}

/* x clamped to [lo, hi] as Paddle's kernels do (Eigen's cwiseMax(lo).cwiseMin(hi), and clip's
 * comparisons): a NaN stays NaN, where fminf/fmaxf would return a bound. */
static const char *clamp(const char *x, const char *lo, const char *hi) {
  return pool_printf("(%s < %s ? %s : (%s > %s ? %s : %s))", x, lo, lo, x, hi, hi, x);
}

/* logit: ln(p / (1 - p)) of v clipped to [eps, 1 - eps] (eps:FLOAT=1e-6);
 * with eps = 0, NaN outside [0, 1] (phi LogitFunctor).  The clip keeps a NaN,
 * as Eigen's cwiseMin/cwiseMax (std::min/max) do. */
static const char *logit_expr(const Op *op) {
  float eps = (float)attr_float(op, "eps", 1e-6);
  const char *hi = em_float((float)(1.0 - eps)), *lo = em_float(eps);
  const char *t = pool_printf("(v > %s ? %s : v)", hi, hi);
  const char *p = pool_printf("(%s < %s ? %s : %s)", t, lo, lo, t);
  const char *l = pool_printf("logf(%s / (1.0f - %s))", p, p);
  return eps != 0.0f ? l : pool_printf("(v < 0.0f || v > 1.0f) ? NAN : %s", l);
}

/* rrelu at inference (is_test): the slope of negative inputs is the middle
 * of [lower, upper] (lower:FLOAT=0.125, upper:FLOAT=1/3), computed as the
 * kernel does: the float sum, halved in double, rounded to float. */
static const char *rrelu_slope(const Op *op) {
  float lo = (float)attr_float(op, "lower", 0.125), hi = (float)attr_float(op, "upper", 1.0 / 3.0);
  return em_float((float)((double)(lo + hi) / 2.0));
}

/* The float expression for op `type` of element v; NULL if unknown. */
const char *unary_float_expr(EmitCtx *e, const Op *op, const char *type) {
  if (!strcmp(type, "relu")) return "v > 0.0f ? v : 0.0f";
  if (!strcmp(type, "sigmoid")) return "1.0f / (1.0f + expf(-v))";
  if (!strcmp(type, "logsigmoid")) return "-log1pf(expf(-v))";
  if (!strcmp(type, "tanh")) return "tanhf(v)";
  if (!strcmp(type, "tanh_shrink")) return "v - tanhf(v)";
  if (!strcmp(type, "exp")) return "expf(v)";
  if (!strcmp(type, "log")) return "logf(v)";
  if (!strcmp(type, "sqrt")) return "sqrtf(v)";
  if (!strcmp(type, "rsqrt")) return "1.0f / sqrtf(v)";
  if (!strcmp(type, "abs")) return "fabsf(v)";
  if (!strcmp(type, "cos")) return "cosf(v)";
  if (!strcmp(type, "sin")) return "sinf(v)";
  if (!strcmp(type, "floor")) return "floorf(v)";
  if (!strcmp(type, "ceil")) return "ceilf(v)";
  if (!strcmp(type, "round")) return "roundf(v)";
  if (!strcmp(type, "sign")) return "(float)((v > 0.0f) - (v < 0.0f))";
  if (!strcmp(type, "reciprocal")) return "1.0f / v";
  if (!strcmp(type, "square")) return "v * v";
  if (!strcmp(type, "erf")) return "erff(v)";
  if (!strcmp(type, "erfinv")) return "rt_erfinvf(v)";
  if (!strcmp(type, "lgamma")) return "lgammaf(v)";
  if (!strcmp(type, "digamma")) return "rt_digammaf(v)";
  if (!strcmp(type, "log1p")) return "log1pf(v)";
  if (!strcmp(type, "log2")) return "log2f(v)";
  if (!strcmp(type, "log10")) return "log10f(v)";
  if (!strcmp(type, "expm1")) return "expm1f(v)";
  if (!strcmp(type, "tan")) return "tanf(v)";
  if (!strcmp(type, "asin")) return "asinf(v)";
  if (!strcmp(type, "acos")) return "acosf(v)";
  if (!strcmp(type, "atan")) return "atanf(v)";
  if (!strcmp(type, "sinh")) return "sinhf(v)";
  if (!strcmp(type, "cosh")) return "coshf(v)";
  if (!strcmp(type, "asinh")) return "asinhf(v)";
  if (!strcmp(type, "acosh")) return "acoshf(v)";
  if (!strcmp(type, "atanh")) return "atanhf(v)";
  if (!strcmp(type, "trunc")) return "truncf(v)";
  if (!strcmp(type, "silu")) return "v / (1.0f + expf(-v))";
  if (!strcmp(type, "softsign")) return "v / (1.0f + fabsf(v))";
  if (!strcmp(type, "relu6")) { /* Paddle 2.6's kernel ignores threshold: 6 */
    attr_superseded(op, "threshold");
    return clamp("v", "0.0f", "6.0f");
  }
  if (!strcmp(type, "leaky_relu")) return pool_printf("v > 0.0f ? v : %s * v", f(op, "alpha", 0.02));
  if (!strcmp(type, "elu")) return pool_printf("v > 0.0f ? v : %s * (expf(v) - 1.0f)", f(op, "alpha", 1));
  if (!strcmp(type, "celu")) {
    const char *a = f(op, "alpha", 1);
    const char *neg = pool_printf("%s * (expf(v / %s) - 1.0f)", a, a);
    return pool_printf("(v < 0.0f ? 0.0f : v) + (0.0f < %s ? 0.0f : %s)", neg, neg); /* Eigen's max, min */
  }
  if (!strcmp(type, "selu"))
    return pool_printf("%s * (v > 0.0f ? v : %s * (expf(v) - 1.0f))", f(op, "scale", 1.0507009873554804934193349852946),
                       f(op, "alpha", 1.6732632423543772848170429916717));
  if (!strcmp(type, "gelu"))
    return attr_bool(op, "approximate", 0)
               ? "0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)))"
               : "0.5f * v * (1.0f + rt_erff(v * 0.70710678f))";
  if (!strcmp(type, "swish")) { /* Paddle 2.6's kernel ignores beta: 1 */
    attr_superseded(op, "beta");
    return "v / (1.0f + expf(-v))";
  }
  if (!strcmp(type, "hard_swish")) { /* Paddle 2.6's kernel ignores threshold/scale/offset: 6, 6, 3 */
    attr_superseded(op, "threshold"), attr_superseded(op, "scale"), attr_superseded(op, "offset");
    return pool_printf("v * %s / 6.0f", clamp("(v + 3.0f)", "0.0f", "6.0f"));
  }
  if (!strcmp(type, "hard_sigmoid"))
    return clamp(pool_printf("(%s * v + %s)", f(op, "slope", 0.2), f(op, "offset", 0.5)), "0.0f", "1.0f");
  if (!strcmp(type, "softplus")) {
    const char *b = f(op, "beta", 1), *t = f(op, "threshold", 20);
    return pool_printf("%s * v > %s ? v : log1pf(expf(%s * v)) / %s", b, t, b, b);
  }
  if (!strcmp(type, "mish")) {
    const char *t = f(op, "threshold", 20);
    return pool_printf("v * tanhf(v > %s ? v : log1pf(expf(v)))", t);
  }
  if (!strcmp(type, "logit")) return logit_expr(op);
  if (!strcmp(type, "rrelu")) return pool_printf("v < 0.0f ? %s * v : v", rrelu_slope(op));
  if (!strcmp(type, "soft_relu")) { /* the clip keeps a NaN, as Eigen's cwiseMax/cwiseMin */
    const char *t = f(op, "threshold", 40);
    const char *lo = pool_printf("(v < -%s ? -%s : v)", t, t);
    return pool_printf("logf(1.0f + expf(%s > %s ? %s : %s))", lo, t, t, lo);
  }
  if (!strcmp(type, "brelu")) return clamp("v", f(op, "t_min", 0), f(op, "t_max", 24));
  if (!strcmp(type, "thresholded_relu")) return pool_printf("v > %s ? v : 0.0f", f(op, "threshold", 1));
  if (!strcmp(type, "hard_shrink")) {
    const char *t = f(op, "threshold", 0.5);
    return pool_printf("v * (float)(v < -%s || v > %s)", t, t);
  }
  if (!strcmp(type, "softshrink")) {
    const char *l = f(op, "lambda", 0.5);
    return pool_printf("(float)(v > %s) * (v - %s) + (float)(v < -%s) * (v + %s)", l, l, l, l);
  }
  if (!strcmp(type, "stanh"))
    return pool_printf("%s * tanhf(%s * v)", f(op, "scale_b", 1.7159), f(op, "scale_a", 0.67));
  if (!strcmp(type, "pow")) return pool_printf("powf(v, %s)", tensor_or_attr(e, op, "FactorTensor", "factor", 1));
  if (!strcmp(type, "clip"))
    return clamp("v", tensor_or_attr(e, op, "Min", "min", 0), tensor_or_attr(e, op, "Max", "max", 0));
  if (!strcmp(type, "scale")) {
    const char *sc = tensor_or_attr(e, op, "ScaleTensor", "scale", 1), *b = f(op, "bias", 0);
    return attr_bool(op, "bias_after_scale", 1) ? pool_printf("%s * v + %s", sc, b)
                                                : pool_printf("%s * (v + %s)", sc, b);
  }
  return NULL;
}

/* scale on float64 and integer tensors.  Paddle's kernel casts scale and
 * bias to the element type first (so an int tensor scaled by 1.5 is scaled
 * by 1) and computes in that type. */
static int emit_scale_other(EmitCtx *e, const Var *x, const Var *out, const char *t) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *st = ctx_in(&c, "ScaleTensor", 0);
  const char *sc = st ? pool_printf("(%s)%s[0]", t, em_ptr(e, st, 1))
                      : pool_printf("(%s)%.17g", t, attr_float(e->op, "scale", 1));
  const char *setup = pool_printf("const %s sc = %s, bias = (%s)%.17g;", t, sc, t, attr_float(e->op, "bias", 0));
  const char *expr = attr_bool(e->op, "bias_after_scale", 1) ? pool_printf("(%s)(v * sc + bias)", t)
                                                             : pool_printf("(%s)((v + bias) * sc)", t);
  if (x->dtype == RT_DT_BOOL) return em_fail(e, "scale of bool tensors is not supported");
  return ew_unary(e, x, out, setup, expr);
}

/* rrelu's Noise output, when the program has one: the slope applied to
 * each element (the middle slope for negative inputs, else 1). */
static int emit_rrelu_noise(EmitCtx *e, const Var *x) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *noise = ctx_out(&c, "Noise", 0);
  if (!noise) return 0;
  if (noise->dtype != x->dtype) return em_fail(e, "Noise must have X's dtype");
  pr_line(e->p, "{");
  pr_line(e->p, "const float *in = %s;", em_ptr(e, x, 1));
  pr_line(e->p, "float *noise = %s;", em_ptr(e, noise, 0));
  pr_line(e->p, "for (int64_t i = 0; i < %s; i++) noise[i] = in[i] < 0.0f ? %s : 1.0f;", em_numel(e, noise),
          rrelu_slope(e->op));
  pr_line(e->p, "}");
  return 0;
}

static int emit_unary(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *out = ctx_out(&c, "Out", 0);
  if (!x || !out) return em_fail(e, "missing X or Out");
  const char *type = e->op->type;
  int rrelu = !strcmp(type, "rrelu");
  if (rrelu && !attr_bool(e->op, "is_test", 0))
    return em_fail(e, "rrelu in training mode (is_test = false) draws random slopes; only inference is supported");
  if (x->dtype == RT_DT_FP32 || (x->dtype == RT_DT_FP64 && !rrelu)) {
    const char *expr = unary_float_expr(e, e->op, type);
    if (!expr) return em_fail(e, "no C expression for %s", type);
    if (rrelu && emit_rrelu_noise(e, x)) return -1; /* first: Out may be X itself */
    return ew_unary(e, x, out, NULL, x->dtype == RT_DT_FP64 ? ew_expr_double(expr) : expr);
  }
  const char *t = em_ctype(x->dtype);
  if (t && !strcmp(type, "scale")) return emit_scale_other(e, x, out, t);
  /* integer tensors: the sign-like ops keep the integer type */
  if (x->dtype == RT_DT_INT64 || x->dtype == RT_DT_INT32) {
    if (!strcmp(type, "abs")) return ew_unary(e, x, out, NULL, "v < 0 ? -v : v");
    if (!strcmp(type, "relu")) return ew_unary(e, x, out, NULL, "v > 0 ? v : 0");
    if (!strcmp(type, "square")) return ew_unary(e, x, out, NULL, "v * v");
    if (!strcmp(type, "trunc")) return ew_unary(e, x, out, NULL, "v");
  }
  return em_fail(e, "%s on %s tensors is not supported yet", type, rt_dtype_name(x->dtype));
}

int unary_fusible(const Graph *g, const Op *op) {
  if (!op->def || op->def->emit_c != emit_unary || !strcmp(op->type, "rrelu")) return 0;
  for (int s = 0; s < op->nin; s++)
    if (strcmp(op->in[s].name, "X") && op->in[s].n > 0 && op->in[s].vars[0] >= 0) return 0;
  for (int s = 0; s < op->nin; s++)
    if (!strcmp(op->in[s].name, "X") && op->in[s].n == 1 && op->in[s].vars[0] >= 0)
      return g->vars[op->in[s].vars[0]].dtype == RT_DT_FP32;
  return 0;
}

#define OP_UNARY(name) \
  const OpDef op_##name = {.type = #name, .infer = infer_unary, .emit_c = emit_unary, .inplace = "X:Out"};
OP_UNARY(abs)
OP_UNARY(acos)
OP_UNARY(acosh)
OP_UNARY(asin)
OP_UNARY(asinh)
OP_UNARY(atan)
OP_UNARY(atanh)
OP_UNARY(brelu)
OP_UNARY(ceil)
OP_UNARY(celu)
OP_UNARY(clip)
OP_UNARY(cos)
OP_UNARY(cosh)
OP_UNARY(digamma)
OP_UNARY(elu)
OP_UNARY(erf)
OP_UNARY(erfinv)
OP_UNARY(exp)
OP_UNARY(expm1)
OP_UNARY(floor)
OP_UNARY(gelu)
OP_UNARY(hard_shrink)
OP_UNARY(hard_sigmoid)
OP_UNARY(hard_swish)
OP_UNARY(leaky_relu)
OP_UNARY(lgamma)
OP_UNARY(log)
OP_UNARY(log10)
OP_UNARY(log1p)
OP_UNARY(log2)
OP_UNARY(logsigmoid)
OP_UNARY(logit)
OP_UNARY(mish)
OP_UNARY(pow)
OP_UNARY(reciprocal)
OP_UNARY(relu)
OP_UNARY(relu6)
OP_UNARY(round)
OP_UNARY(rsqrt)
OP_UNARY(scale)
OP_UNARY(selu)
OP_UNARY(sigmoid)
OP_UNARY(sign)
OP_UNARY(silu)
OP_UNARY(sin)
OP_UNARY(sinh)
OP_UNARY(soft_relu)
OP_UNARY(softplus)
OP_UNARY(softshrink)
OP_UNARY(softsign)
OP_UNARY(sqrt)
OP_UNARY(square)
OP_UNARY(stanh)
OP_UNARY(swish)
OP_UNARY(tan)
OP_UNARY(tanh)
OP_UNARY(tanh_shrink)
OP_UNARY(thresholded_relu)
OP_UNARY(trunc)
const OpDef op_rrelu = {.type = "rrelu", .infer = infer_rrelu, .emit_c = emit_unary};

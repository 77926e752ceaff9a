/* Unary element-wise ops (activations and math) and their gradients.
 * Out has X's shape and dtype.  One table (acts[] below) holds each op's C
 * expression of the input element `v`, with its attributes and Paddle's
 * defaults (from the op makers), and of its gradient; unary_float_expr()
 * reads the forward (fused ops use it too); erfinv and digamma call
 * runtime/rt_special.c (float64: the double twins, see act_double).
 * Optional tensor inputs: clip's Min/Max, pow's FactorTensor and scale's
 * ScaleTensor (1 element each) override the attribute at run time.
 * Gradients <op>_grad: Out@GRAD and X and/or Out, as Paddle's grad maker
 * passes them -> X@GRAD (generic shape rule, grad_infer), float32 or
 * float64: in double, the attributes as their float values (act_double). */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "../consteval.h"
#include "../emit_ew.h"
#include "../attr.h"
#include "../util.h"
#include "fill_call.h"
#include "ops.h"
#include "rt_tensor.h"
#include "tensor_util.h"

/* Out takes X's shape, and a run-time extent of X (an element-wise op
 * after nonzero, masked_select, unique, an NMS, a top_k of tensor K: its
 * loops read em_numel, which is the run's); `dtype` -1: X's dtype. */
static int infer_same(OpCtx *c, int dtype) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, dtype < 0 ? x->dtype : dtype);
  ctx_pass_runtime_extent(c, x, "Out", 0);
  return 0;
}

static int infer_unary(OpCtx *c) { return infer_same(c, -1); }

/* A float attribute as a C operand: em_float's literal, in parentheses when
 * it starts with a minus (-0.5f, -INFINITY), so that `-%s`, `x - %s` and
 * the like stay well formed for negative attributes. */
static const char *operand(const char *lit) { return *lit == '-' ? pool_printf("(%s)", lit) : lit; }

/* A float value as a C literal: em_float's for float32; for float64
 * (f64) the float's exact value in double digits, as Paddle's double
 * kernels take a float attribute (static_cast<double>). */
static const char *lit(double v, int f64) {
  v = (float)v;
  if (!f64 || isnan(v) || isinf(v)) return em_float(v);
  const char *s = pool_printf("%.17g", v);
  return strpbrk(s, ".eEn") ? s : pool_printf("%s.0", s);
}

static const char *f(const Op *op, const char *name, double dflt, int f64) {
  return operand(lit(attr_float(op, name, dflt), f64));
}

/* A scalar from op's 1-element tensor input, or its attribute. */
static const char *tensor_or_attr(EmitCtx *e, const Op *op, const char *slot, const char *attr, double dflt,
                                  int f64) {
  OpCtx c = {e->g, (Op *)op};
  Var *t = ctx_in(&c, slot, 0);
  if (!t) return f(op, attr, dflt, f64);
  attr_superseded(op, attr); /* Paddle reads the attribute only without the tensor */
  return pool_printf("(float)%s[0]", em_ptr(e, t, 1));
}

/* logit: ln(p / (1 - p)) of v clipped to [eps, 1 - eps] (eps:FLOAT=1e-6);
 * with eps = 0, NaN outside [0, 1] (phi LogitFunctor).  The clip keeps a NaN,
 * as Eigen's cwiseMin/cwiseMax (std::min/max) do. */
static const char *logit_expr(const Op *op, int f64) {
  float eps = (float)attr_float(op, "eps", 1e-6);
  /* the bounds in the tensor's type: 1 - eps taken in double (eps a float
   * attribute), then rounded to float for float32 */
  const char *hi = f64 ? pool_printf("%.17g", 1.0 - (double)eps) : em_float((float)(1.0 - eps)), *lo = lit(eps, f64);
  if (!strpbrk(hi, ".eEn")) hi = pool_printf("%s.0", hi);
  const char *t = pool_printf("(v > %s ? %s : v)", hi, hi);
  const char *p = pool_printf("(%s < %s ? %s : %s)", t, lo, lo, t);
  const char *l = pool_printf("logf(%s / (1.0f - %s))", p, p);
  return eps != 0.0f ? l : pool_printf("(v < 0.0f || v > 1.0f) ? NAN : %s", l);
}

/* ---- the activation table ----
 * One row per unary op: its forward as a float C expression of the element
 * `v`, and its gradient X@GRAD as Paddle 2.6's CPU grad functor computes it
 * (phi funcs/activation_functor.h, gelu_grad_kernel.cc,
 * selu_grad_kernel_impl.h, abs_grad_kernel_impl.h) from the elements x (X),
 * y (Out) and dy (Out@GRAD), after the statements `gbody` (NULL: none).
 * `{name}` in an expression stands for attribute `name` as a float literal
 * (Paddle's default in `attrs`), or for the first element of tensor input
 * `slot` when the op has one bound (Paddle reads the attribute only without
 * it).  `dep` says which forward tensors the grad op takes, as Paddle's grad
 * maker passes them (ActBwdOpFwdDeps: DEP_X, DEP_OUT, or DEP_NONE for
 * neither); 0: no grad compiled.  A forward built by code has fwd_fn
 * instead of fwd (logit); logit's grad, with a constant computed
 * from eps, is logit_grad()'s.  `fixed` lists the attributes Paddle 2.6's
 * kernels replace by constants (relu6's threshold, swish's beta,
 * hard_swish's threshold/scale/offset): the expressions use the constants.  Rows whose name has a '(' are variants
 * act_find picks by an attribute (gelu's approximate, elu's sign of alpha,
 * scale's bias_after_scale).  `epi` says how a fused op's epilogue
 * computes the row (the fusion passes take in only those rows; em_act reads
 * a fused op's fuse_activation by it). */
enum { DEP_X = 1, DEP_OUT = 2, DEP_NONE = 4 /* Out@GRAD only */ };

typedef struct ActAttr {
  const char *name;
  double dflt;
  const char *slot; /* a 1-element tensor input that overrides it, or NULL */
} ActAttr;

/* A parameter of a fused epilogue: attribute `attr` of the row (its default
 * in attrs[]), or the constant `value` when attr is NULL. */
typedef struct ActParam {
  const char *attr;
  double value;
} ActParam;

/* How the epilogues of fused ops (rt_act.h) compute the row, when they
 * compute it exactly: Paddle's fuse_activation name for it, the runtime
 * activation, and its fuse_alpha / fuse_beta.  name NULL: not fusible. */
typedef struct ActEpilogue {
  const char *name;
  RtAct act;
  ActParam alpha, beta;
} ActEpilogue;

typedef struct Act {
  const char *type;
  const char *fwd;                                   /* of v */
  const char *(*fwd_fn)(EmitCtx *e, const Op *op);   /* instead of fwd */
  int dep;                                           /* DEP_X | DEP_OUT */
  const char *gbody, *grad;                          /* of x, y, dy */
  ActAttr attrs[3];
  const char *fixed[3];
  ActEpilogue epi;
} Act;

static const char *logit_fwd(EmitCtx *e, const Op *op) {
  OpCtx c = {e->g, (Op *)op};
  const Var *x = ctx_in(&c, "X", 0);
  return logit_expr(op, x && x->dtype == RT_DT_FP64);
}
/* LogitGradFunctor: 0 outside [eps, 1 - eps] (1 - eps taken in double,
 * then rounded to float), else dy / ((1 - x) * x); eps:FLOAT=1e-6. */
static const char *logit_grad(const Op *op, int f64) {
  double eps = (float)attr_float(op, "eps", 1e-6);
  if (f64) /* 1 - eps stays a double */
    return pool_printf("x < %s || x > %.17g ? 0.0 : dy * (1.0 / ((1.0 - x) * x))", operand(lit(eps, 1)), 1.0 - eps);
  return pool_printf("x < %s || x > %s ? 0.0f : dy * (1.0f / ((1.0f - x) * x))", operand(em_float((float)eps)),
                     operand(em_float((float)(1.0 - eps))));
}
/* SeluGradFunctor in double: alpha * scale is a float product (its la_),
 * where act_double would multiply the two in double. */
static const char *selu_grad64(const Op *op) {
  const float scale = (float)attr_float(op, "scale", 1.0507009873554804934193349852946),
              alpha = (float)attr_float(op, "alpha", 1.6732632423543772848170429916717), la = alpha * scale;
  return pool_printf("dy * (y <= 0.0 ? y + %s : %s)", operand(lit(la, 1)), operand(lit(scale, 1)));
}

/* x clamped to [lo, hi] as Paddle's kernels do (Eigen's cwiseMax(lo).cwiseMin(hi), and clip's
 * comparisons): a NaN stays NaN, where fminf/fmaxf would return a bound. */
#define CLAMP(x, lo, hi) "(" x " < " lo " ? " lo " : (" x " > " hi " ? " hi " : " x "))"
#define CELU_NEG "{alpha} * (expf(v / {alpha}) - 1.0f)"
#define SOFT_RELU_LO "(v < -{threshold} ? -{threshold} : v)"
#define GELU_KA "(float)0.7978845608028654" /* M_2_SQRTPI * M_SQRT1_2 */

static const Act acts[] = {
    {"abs", "fabsf(v)", NULL, DEP_X, NULL, "x == 0.0f ? 0.0f : dy * (x / fabsf(x))", {{0}}, {0}, {0}},
    {"acos", "acosf(v)", NULL, DEP_X, NULL, "-dy * 1.0f / sqrtf(1.0f - x * x)", {{0}}, {0}, {0}},
    {"acosh", "acoshf(v)", NULL, DEP_X, NULL, "dy * 1.0f / sqrtf(x * x - 1.0f)", {{0}}, {0}, {0}},
    {"asin", "asinf(v)", NULL, DEP_X, NULL, "dy * 1.0f / sqrtf(1.0f - x * x)", {{0}}, {0}, {0}},
    {"asinh", "asinhf(v)", NULL, DEP_X, NULL, "dy * 1.0f / sqrtf(x * x + 1.0f)", {{0}}, {0}, {0}},
    {"atan", "atanf(v)", NULL, DEP_X, NULL, "dy * 1.0f / (1.0f + x * x)", {{0}}, {0}, {0}},
    {"atanh", "atanhf(v)", NULL, DEP_X, NULL, "dy * 1.0f / (1.0f - x * x)", {{0}}, {0}, {0}},
    {"brelu", CLAMP("v", "{t_min}", "{t_max}"), NULL, DEP_X, NULL, "dy * (float)(x > {t_min} && x < {t_max})",
     {{"t_min", 0, NULL}, {"t_max", 24, NULL}}, {0}, {0}},
    /* ZeroGradFunctor: 0 * Out@GRAD (a NaN stays NaN) */
    {"ceil", "ceilf(v)", NULL, DEP_NONE, NULL, "0.0f * dy", {{0}}, {0}, {0}},
    /* Eigen's max and min */
    {"celu", "(v < 0.0f ? 0.0f : v) + (0.0f < " CELU_NEG " ? 0.0f : " CELU_NEG ")", NULL, DEP_X,
     "const float a_pos = (float)({alpha} > 0.0f), a_neg = (float)({alpha} <= 0.0f);\n"
     "const float x_pos = (float)(x > 0.0f), x_neg = (float)(x <= 0.0f);",
     "dy * a_pos * x_pos + dy * expf(x / {alpha}) * a_pos * x_neg + dy * a_neg * x_pos + "
     "dy * expf(x / {alpha}) * a_neg * x_neg",
     {{"alpha", 1, NULL}}, {0}, {0}},
    {"clip", CLAMP("v", "{min}", "{max}"), NULL, DEP_X, NULL, "x > {min} && x < {max} ? dy : 0.0f",
     {{"min", 0, "Min"}, {"max", 0, "Max"}}, {0}, {"clip", RT_ACT_CLIP, {"min", 0}, {"max", 0}}},
    {"cos", "cosf(v)", NULL, DEP_X, NULL, "-dy * sinf(x)", {{0}}, {0}, {0}},
    {"cosh", "coshf(v)", NULL, DEP_X, NULL, "dy * sinhf(x)", {{0}}, {0}, {0}},
    /* DigammaGradFunctor: Eigen's polygamma(1, x), the formula of rt_polygamma_<t> */
    {"digamma", "rt_digammaf(v)", NULL, DEP_X, NULL, "dy * rt_polygamma_f32(1, x)", {{0}}, {0}, {0}},
    /* EluGradKernel: ELUGradFunctor for alpha > 0, ELUGradNegativeAlphaFunctor otherwise */
    {"elu", "v > 0.0f ? v : {alpha} * (expf(v) - 1.0f)", NULL, DEP_X | DEP_OUT, NULL,
     "y > 0.0f ? dy : dy * (y + {alpha})", {{"alpha", 1, NULL}}, {0}, {0}},
    {"elu(alpha<=0)", "v > 0.0f ? v : {alpha} * (expf(v) - 1.0f)", NULL, DEP_X | DEP_OUT, NULL,
     "x > 0.0f ? dy : dy * {alpha} * expf(x)", {{"alpha", 1, NULL}}, {0}, {0}},
    /* EigenErfGrad: M_2_SQRTPI * exp(-x^2) */
    {"erf", "erff(v)", NULL, DEP_X, NULL, "dy * (float)1.1283791670955126 * expf(-(x * x))", {{0}}, {0}, {0}},
    /* ErfinvGradKernel: (float)(1 / M_2_SQRTPI) * dy * exp(y^2) */
    {"erfinv", "rt_erfinvf(v)", NULL, DEP_OUT, NULL, "0.88622692545275801f * dy * expf(y * y)", {{0}}, {0}, {0}},
    {"exp", "expf(v)", NULL, DEP_OUT, NULL, "dy * y", {{0}}, {0}, {0}},
    {"expm1", "expm1f(v)", NULL, DEP_OUT, NULL, "dy * y + dy", {{0}}, {0}, {0}},
    {"floor", "floorf(v)", NULL, DEP_NONE, NULL, "0.0f * dy", {{0}}, {0}, {0}},
    /* gelu_grad_kernel.cc, the Eigen path */
    {"gelu", "0.5f * v * (1.0f + rt_erff(v * 0.70710678f))", NULL, DEP_X,
     "const float first = 0.5f * (1.0f + rt_erff(x * 0.70710678f));\n"
     "const float second = (float)0.3989422804014327 * x * expf(-0.5f * (x * x));", /* 0.5 * M_2_SQRTPI * M_SQRT1_2 */
     "dy * (first + second)", {{0}}, {0}, {"gelu", RT_ACT_GELU, {0}, {0}}},
    {"gelu(approximate)", "0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)))", NULL, DEP_X,
     "const float th = tanhf(" GELU_KA " * (0.044715f * (x * x * x) + x));",
     "0.5f * dy * (1.0f + th + (x - x * (th * th)) * (" GELU_KA " + " GELU_KA " * 0.044715f * 3.0f * (x * x)))", {{0}},
     {0}, {"gelu_tanh", RT_ACT_GELU_TANH, {0}, {0}}},
    {"hard_shrink", "v * (float)(v < -{threshold} || v > {threshold})", NULL, DEP_X, NULL,
     "dy * (float)(x < -{threshold} || x > {threshold})", {{"threshold", 0.5, NULL}}, {0}, {0}},
    {"hard_sigmoid", CLAMP("({slope} * v + {offset})", "0.0f", "1.0f"), NULL, DEP_OUT, NULL,
     "dy * (float)(y > 0.0f && y < 1.0f) * {slope}", {{"slope", 0.2, NULL}, {"offset", 0.5, NULL}}, {0},
     {"hard_sigmoid", RT_ACT_HARD_SIGMOID, {"slope", 0}, {"offset", 0}}},
    {"hard_swish", "v * " CLAMP("(v + 3.0f)", "0.0f", "6.0f") " / 6.0f", NULL, DEP_X,
     "const float tmp = (float)(x + 3.0f < 6.0f);",
     "dy * ((float)(x + 3.0f > 0.0f) * (2.0f * x + 3.0f) / 6.0f * tmp + 1.0f * (1.0f - tmp))", {{0}},
     {"threshold", "scale", "offset"},
     {"hard_swish", RT_ACT_HARD_SWISH, {NULL, 1.0 / 6.0}, {NULL, 0.5}}}, /* as 2.6 computes it */
    {"leaky_relu", "v > 0.0f ? v : {alpha} * v", NULL, DEP_X, NULL,
     "dy * ({alpha} * (float)(x < 0.0f) + (float)(x >= 0.0f))", {{"alpha", 0.02, NULL}}, {0},
     {"leaky_relu", RT_ACT_RELU, {"alpha", 0}, {0}}},
    /* LgammaGradFunctor: Eigen's digamma, as rt_digammaf / rt_digamma */
    {"lgamma", "lgammaf(v)", NULL, DEP_X, NULL, "dy * rt_digammaf(x)", {{0}}, {0}, {0}},
    {"log", "logf(v)", NULL, DEP_X, NULL, "dy * (1.0f / x)", {{0}}, {0}, {0}},
    {"log10", "log10f(v)", NULL, DEP_X, NULL, "dy * 1.0f / (x * (float)2.302585092994046)", {{0}}, {0}, {0}},
    {"log1p", "log1pf(v)", NULL, DEP_X, NULL, "dy * (1.0f / (x + 1.0f))", {{0}}, {0}, {0}},
    {"log2", "log2f(v)", NULL, DEP_X, NULL, "dy * 1.0f / (x * (float)0.6931471805599453)", {{0}}, {0}, {0}},
    {"logit", NULL, logit_fwd, DEP_X, NULL, NULL, {{0}}, {0}, {0}}, /* grad: logit_grad() */
    {"logsigmoid", "-log1pf(expf(-v))", NULL, DEP_X, "const float m = -x > 0.0f ? -x : 0.0f;",
     "dy * (expf(-x - m) / (expf(-m) + expf(-x - m)))", {{0}}, {0}, {0}},
    {"mish", "v * tanhf(v > {threshold} ? v : log1pf(expf(v)))", NULL, DEP_X,
     "const float sp = x > {threshold} ? x : logf(1.0f + expf(x));\n"
     "const float gsp = 1.0f - expf(-sp), tsp = tanhf(sp);",
     "dy * (tsp + x * (1.0f - tsp * tsp) * gsp)", {{"threshold", 20, NULL}}, {0}, {0}},
    {"pow", "powf(v, {factor})", NULL, DEP_X, NULL, "dy * {factor} * powf(x, {factor} - 1.0f)",
     {{"factor", 1, "FactorTensor"}}, {0}, {0}},
    {"reciprocal", "1.0f / v", NULL, DEP_OUT, NULL, "dy * -1.0f * y * y", {{0}}, {0}, {0}},
    {"relu", "v > 0.0f ? v : 0.0f", NULL, DEP_OUT, NULL, "dy * (float)(y > 0.0f)", {{0}}, {0},
     {"relu", RT_ACT_RELU, {0}, {0}}},
    {"relu6", CLAMP("v", "0.0f", "6.0f"), NULL, DEP_OUT, NULL, "dy * (float)(y > 0.0f && y < 6.0f)", {{0}},
     {"threshold"}, {"relu6", RT_ACT_CLIP, {NULL, 0}, {NULL, 6}}},
    {"round", "roundf(v)", NULL, DEP_NONE, NULL, "0.0f * dy", {{0}}, {0}, {0}},
    {"rsqrt", "1.0f / sqrtf(v)", NULL, DEP_OUT, NULL, "-0.5f * dy * y * y * y", {{0}}, {0}, {0}},
    /* scale's gradient is a scale op */
    {"scale", "{scale} * v + {bias}", NULL, 0, NULL, NULL, {{"scale", 1, "ScaleTensor"}, {"bias", 0, NULL}}, {0}, {0}},
    {"scale(bias_before)", "{scale} * (v + {bias})", NULL, 0, NULL, NULL,
     {{"scale", 1, "ScaleTensor"}, {"bias", 0, NULL}}, {0}, {0}},
    /* SeluGradFunctor: the slope below 0 is alpha * scale, taken in float */
    {"selu", "{scale} * (v > 0.0f ? v : {alpha} * (expf(v) - 1.0f))", NULL, DEP_OUT, NULL,
     "dy * (y <= 0.0f ? y + {alpha} * {scale} : {scale})",
     {{"scale", 1.0507009873554804934193349852946, NULL}, {"alpha", 1.6732632423543772848170429916717, NULL}},
     {0}, {0}},
    {"sigmoid", "1.0f / (1.0f + expf(-v))", NULL, DEP_OUT, NULL, "dy * y * (1.0f - y)", {{0}}, {0},
     {"sigmoid", RT_ACT_SIGMOID, {0}, {0}}},
    {"sign", "(float)((v > 0.0f) - (v < 0.0f))", NULL, 0, NULL, NULL, {{0}}, {0}, {0}},
    /* SiluGradKernel takes Out too, and reads X only */
    {"silu", "v / (1.0f + expf(-v))", NULL, DEP_X | DEP_OUT, "const float t1 = 1.0f + expf(-x), t2 = x * expf(-x);",
     "dy * ((1.0f / t1) * (1.0f + t2 / t1))", {{0}}, {0}, {"swish", RT_ACT_SWISH, {NULL, 1}, {0}}},
    {"sin", "sinf(v)", NULL, DEP_X, NULL, "dy * cosf(x)", {{0}}, {0}, {0}},
    {"sinh", "sinhf(v)", NULL, DEP_X, NULL, "dy * coshf(x)", {{0}}, {0}, {0}},
    /* the clip keeps a NaN, as Eigen's cwiseMax/cwiseMin */
    /* SoftReluGradFunctor (fluid, kDepOut): the mask reads Out, not X */
    {"soft_relu", "logf(1.0f + expf(" SOFT_RELU_LO " > {threshold} ? {threshold} : " SOFT_RELU_LO "))", NULL, DEP_OUT,
     NULL, "dy * (1.0f - expf(-y)) * (float)(y > -{threshold} && y < {threshold})", {{"threshold", 40, NULL}}, {0},
     {0}},
    {"softplus", "{beta} * v > {threshold} ? v : log1pf(expf({beta} * v)) / {beta}", NULL, DEP_X,
     "const float xb = {beta} * x;", "xb > {threshold} ? dy : dy / (1.0f + expf(-xb))",
     {{"beta", 1, NULL}, {"threshold", 20, NULL}}, {0}, {0}},
    {"softshrink", "(float)(v > {lambda}) * (v - {lambda}) + (float)(v < -{lambda}) * (v + {lambda})", NULL, DEP_X,
     NULL, "dy * ((float)(x > {lambda}) + (float)(x < -{lambda}))", {{"lambda", 0.5, NULL}}, {0}, {0}},
    {"softsign", "v / (1.0f + fabsf(v))", NULL, DEP_X, NULL,
     "dy * (1.0f / ((1.0f + fabsf(x)) * (1.0f + fabsf(x))))", {{0}}, {0}, {0}},
    {"sqrt", "sqrtf(v)", NULL, DEP_OUT, NULL, "0.5f * dy / y", {{0}}, {0}, {0}},
    {"square", "v * v", NULL, DEP_X, NULL, "dy * 2.0f * x", {{0}}, {0}, {0}},
    {"stanh", "{scale_b} * tanhf({scale_a} * v)", NULL, DEP_X,
     "const float th2 = tanhf({scale_a} * x) * tanhf({scale_a} * x);", "dy * {scale_a} * {scale_b} * (1.0f - th2)",
     {{"scale_a", 0.67, NULL}, {"scale_b", 1.7159, NULL}}, {0}, {0}},
    {"swish", "v / (1.0f + expf(-v))", NULL, DEP_X,
     "const float t1 = 1.0f / (1.0f + expf(-x)), o = x * t1, t2 = t1 * (1.0f - o);", "dy * (o + t2)", {{0}},
     {"beta"}, {"swish", RT_ACT_SWISH, {NULL, 1}, {0}}},
    {"tan", "tanf(v)", NULL, DEP_X, NULL, "dy / (cosf(x) * cosf(x))", {{0}}, {0}, {0}},
    {"tanh", "tanhf(v)", NULL, DEP_OUT, NULL, "dy * (1.0f - y * y)", {{0}}, {0}, {"tanh", RT_ACT_TANH, {0}, {0}}},
    {"tanh_shrink", "v - tanhf(v)", NULL, DEP_X, NULL, "dy * (tanhf(x) * tanhf(x))", {{0}}, {0}, {0}},
    {"thresholded_relu", "v > {threshold} ? v : 0.0f", NULL, DEP_X, NULL, "dy * (float)(x > {threshold})",
     {{"threshold", 1, NULL}}, {0}, {0}},
    /* grad: emit_trunc_grad() */
    {"trunc", "truncf(v)", NULL, 0, NULL, NULL, {{0}}, {0}, {0}},
};

/* The row of unary op `type` (without "_grad") as `op`'s attributes pick
 * it; NULL when unknown. */
static const Act *act_find(const Op *op, const char *type) {
  const char *key = type;
  if (!strcmp(type, "gelu") && attr_bool(op, "approximate", 0)) key = "gelu(approximate)";
  if (!strcmp(type, "elu") && !(attr_float(op, "alpha", 1) > 0)) key = "elu(alpha<=0)";
  if (!strcmp(type, "scale") && !attr_bool(op, "bias_after_scale", 1)) key = "scale(bias_before)";
  for (size_t i = 0; i < sizeof acts / sizeof acts[0]; i++)
    if (!strcmp(acts[i].type, key)) {
      for (int k = 0; k < 3 && acts[i].fixed[k]; k++) attr_superseded(op, acts[i].fixed[k]);
      return &acts[i];
    }
  return NULL;
}

/* Template t with each {name} replaced by the attribute's value (or its
 * tensor's element) for `op`; NULL for a name the row does not declare. */
static const char *act_expand(EmitCtx *e, const Op *op, const Act *a, const char *t, int f64) {
  const char *out = "";
  while (*t) {
    const char *open = strchr(t, '{');
    if (!open) return pool_printf("%s%s", out, t);
    const char *close = strchr(open, '}');
    if (!close) return NULL;
    const ActAttr *at = NULL;
    for (int k = 0; k < 3 && a->attrs[k].name; k++)
      if ((size_t)(close - open - 1) == strlen(a->attrs[k].name) && !strncmp(open + 1, a->attrs[k].name, (size_t)(close - open - 1)))
        at = &a->attrs[k];
    if (!at) return NULL;
    const char *val =
        at->slot ? tensor_or_attr(e, op, at->slot, at->name, at->dflt, f64) : f(op, at->name, at->dflt, f64);
    out = pool_printf("%s%.*s%s", out, (int)(open - t), t, val);
    t = close + 1;
  }
  return out;
}

static const char *act_double(const char *t);

const char *unary_float_expr(EmitCtx *e, const Op *op, const char *type) {
  const Act *a = act_find(op, type);
  if (!a) return NULL;
  return a->fwd_fn ? a->fwd_fn(e, op) : act_expand(e, op, a, a->fwd, 0);
}

/* The row of grad op type `grad_type` ("<act>_grad") when its gradient
 * reads Out and Out@GRAD alone (dep DEP_OUT, a grad template), else NULL. */
static const Act *out_only_grad(const Op *op, const char *grad_type) {
  size_t n = strlen(grad_type), k = strlen("_grad");
  if (n <= k || strcmp(grad_type + n - k, "_grad")) return NULL;
  const Act *a = act_find(op, pool_printf("%.*s", (int)(n - k), grad_type));
  return a && a->dep == DEP_OUT && a->grad ? a : NULL;
}

int unary_grad_out_only(const Op *op) { return out_only_grad(op, op->type) != NULL; }

const char *unary_grad_expr(EmitCtx *e, const Op *op, const char *grad_type, const char **body) {
  const Act *a = out_only_grad(op, grad_type);
  if (!a) return NULL;
  *body = a->gbody ? act_expand(e, op, a, a->gbody, 0) : NULL;
  return act_expand(e, op, a, a->grad, 0);
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

/* ---- integer tensors ----
 * The ops whose Paddle 2.6 CPU kernels take integer tensors, as those
 * kernels compute them (measured against 2.6.2 in e2e_int_math.py).
 * Signed overflow wraps, as the kernels' int arithmetic does in practice:
 * the C computes it in unsigned types, without undefined behaviour. */

/* exp, expm1, log, log2, log10, log1p of int32/int64: Paddle casts x to
 * float and computes in float (activation_functor.h: U = float for
 * integral T); Out is float32. */
static int int_to_float_op(const char *type) {
  static const char *const ops[] = {"exp", "expm1", "log", "log2", "log10", "log1p"};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (!strcmp(type, ops[i])) return 1;
  return 0;
}

static int is_int_dtype(int dt) { return dt == RT_DT_INT32 || dt == RT_DT_INT64; }

/* Out's dtype: float32 for an int_to_float_op of int32/int64, else X's. */
static int infer_unary_real(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  return x ? infer_same(c, is_int_dtype(x->dtype) ? RT_DT_FP32 : x->dtype) : -1;
}

/* static_cast<T>(v) of a float attribute for an int32/int64 T, as x86
 * converts it (toward zero; NaN or out of range the most negative value),
 * as a C literal: tu_literal's, which leaves NaN and values past int64 to
 * the caller. */
static const char *int_cast_literal(int dt, double v) {
  const char *s = tu_literal(dt, v);
  return s ? s : dt == RT_DT_INT32 ? "INT32_MIN" : "INT64_MIN";
}

/* clip's bound of an int32/int64 X: Scalar(Min or Max tensor, else the
 * float attribute).to<T>(). */
static const char *int_clip_bound(EmitCtx *e, int dt, const char *slot, const char *attr) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *t = ctx_in(&c, slot, 0);
  if (!t) return int_cast_literal(dt, (float)attr_float(e->op, attr, 0));
  attr_superseded(e->op, attr);
  const char *v = pool_printf("%s[0]", em_ptr(e, t, 1));
  if (t->dtype == RT_DT_FP32 || t->dtype == RT_DT_FP64)
    return pool_printf(dt == RT_DT_INT32 ? "rt_f2i32((double)%s)" : "rt_f2i64((double)%s)", v);
  return pool_printf("(%s)%s", em_ctype(dt), v);
}

/* clip's bounds from its attributes (no Min or Max tensor), converted to
 * dtype as the kernel converts them: Paddle's ClipKernel raises an error
 * unless min <= max (a NaN bound too).  1 after em_fail. */
static int clip_bounds_refused(EmitCtx *e, int dt) {
  OpCtx c = {e->g, (Op *)e->op};
  if (ctx_in(&c, "Min", 0) || ctx_in(&c, "Max", 0)) return 0;
  const double lo = (float)attr_float(e->op, "min", 0), hi = (float)attr_float(e->op, "max", 0);
  if (dt == RT_DT_FP32 || dt == RT_DT_FP64) {
    if (lo <= hi) return 0;
    return em_fail(e, "min %g is not <= max %g: Paddle's kernel raises an error", lo, hi), 1;
  }
  const int i32 = dt == RT_DT_INT32;
  const int64_t ilo = i32 ? rt_f2i32(lo) : rt_f2i64(lo), ihi = i32 ? rt_f2i32(hi) : rt_f2i64(hi);
  if (ilo <= ihi) return 0;
  return em_fail(e, "min %g and max %g are %lld and %lld as %s: Paddle's kernel raises an error for min > max", lo,
                 hi, (long long)ilo, (long long)ihi, rt_dtype_name(dt)), 1;
}

static int emit_unary_int(EmitCtx *e, const Var *x, const Var *out, const char *t) {
  const char *type = e->op->type;
  const int dt = x->dtype, i32 = dt == RT_DT_INT32;
  const char *u = i32 ? "uint32_t" : "uint64_t";
  if (!strcmp(type, "sign") && dt == RT_DT_UINT8) return ew_unary(e, x, out, NULL, "(uint8_t)(v != 0)");
  if (!strcmp(type, "sign") && dt != RT_DT_BOOL) /* int8/16/32/64 */
    return ew_unary(e, x, out, NULL, pool_printf("(%s)((v > 0) - (v < 0))", t));
  if (!is_int_dtype(dt)) return em_fail(e, "%s on %s tensors is not supported yet", type, rt_dtype_name(dt));
  if (int_to_float_op(type)) {
    const Act *a = act_find(e->op, type);
    const EwIn in[1] = {{x, -1, "x", "xi"}};
    return ew_nary(e, out, 1, in, NULL, "const float v = (float)xi;", act_expand(e, e->op, a, a->fwd, 0));
  }
  if (!strcmp(type, "abs")) /* std::abs; the most negative value stays itself */
    return ew_unary(e, x, out, NULL, pool_printf("v < 0 ? (%s)(0u - (%s)v) : v", t, u));
  if (!strcmp(type, "square")) return ew_unary(e, x, out, NULL, pool_printf("(%s)((%s)v * (%s)v)", t, u, u));
  if (!strcmp(type, "trunc")) return ew_unary(e, x, out, NULL, "v");
  if (!strcmp(type, "relu")) return ew_unary(e, x, out, NULL, "v > 0 ? v : 0");
  if (!strcmp(type, "clip")) {
    if (clip_bounds_refused(e, dt)) return -1;
    const char *lo = int_clip_bound(e, dt, "Min", "min"), *hi = int_clip_bound(e, dt, "Max", "max");
    return ew_unary(e, x, out, pool_printf("const %s min = %s, max = %s;", t, lo, hi),
                    "v < min ? min : v > max ? max : v");
  }
  if (!strcmp(type, "pow")) {
    OpCtx c = {e->g, (Op *)e->op};
    if (ctx_in(&c, "FactorTensor", 0))
      return em_fail(e, "pow of %s tensors with a FactorTensor is not supported (only the factor attribute)",
                     rt_dtype_name(dt));
    const double factor = (float)attr_float(e->op, "factor", 1.0);
    const int64_t n = i32 ? rt_f2i32(factor) : rt_f2i64(factor);
    if (n < 0)
      return em_fail(e, "pow of %s tensors with factor %g (%lld as an integer): Paddle's kernel (Eigen's integer "
                        "pow) never returns for a negative exponent",
                     rt_dtype_name(dt), factor, (long long)n);
    return ew_unary(e, x, out, NULL, pool_printf("(%s)rt_ipow(v, INT64_C(%lld))", t, (long long)n));
  }
  return em_fail(e, "%s on %s tensors is not supported yet", type, rt_dtype_name(dt));
}

static int emit_unary(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *out = ctx_out(&c, "Out", 0);
  if (!x || !out) return em_fail(e, "missing X or Out");
  const char *type = e->op->type;
  /* scale 1 + 0 with no ScaleTensor is the identity (Paddle Inference's
   * identity_scale_op_clean_pass drops it too): a copy, nothing in place */
  if (!strcmp(type, "scale") && !ctx_in(&c, "ScaleTensor", 0) && attr_float(e->op, "scale", 1) == 1.0 &&
      attr_float(e->op, "bias", 0) == 0.0 && x->dtype == out->dtype) {
    attr_superseded(e->op, "bias_after_scale"); /* with a zero bias, before or after makes no difference */
    return tu_copy(e, x, out);
  }
  if (x->dtype == RT_DT_FP32 || x->dtype == RT_DT_FP64) {
    const int f64 = x->dtype == RT_DT_FP64;
    if (!strcmp(type, "clip") && clip_bounds_refused(e, x->dtype)) return -1;
    const Act *a = act_find(e->op, type);
    const char *expr = !a ? NULL : a->fwd_fn ? a->fwd_fn(e, e->op) : act_expand(e, e->op, a, a->fwd, f64);
    if (!expr) return em_fail(e, "no C expression for %s", type);
    return ew_unary(e, x, out, NULL, f64 ? act_double(expr) : expr);
  }
  const char *t = em_ctype(x->dtype);
  if (t && !strcmp(type, "scale")) return emit_scale_other(e, x, out, t);
  if (t && x->dtype != RT_DT_BOOL) return emit_unary_int(e, x, out, t);
  return em_fail(e, "%s on %s tensors is not supported yet", type, rt_dtype_name(x->dtype));
}

/* A float template of the table rewritten for double operands: float
 * declarations and casts become double ones, <math.h> and runtime float
 * functions their double versions (ew_expr_double: rt_erff double erf,
 * rt_digammaf rt_digamma, ...; NULL for one without), and gelu's x / sqrt(2)
 * takes M_SQRT1_2 (its tanh form M_2_SQRTPI * M_SQRT1_2), as Paddle's
 * double kernels compute. */
static const char *act_double(const char *t) {
  static const char *const sub[][2] = {{"0.70710678f", "0.70710678118654752440"},
                                       {"0.7978845608f", "0.79788456080286535588"}};
  for (size_t k = 0; k < sizeof sub / sizeof sub[0]; k++)
    for (const char *at; (at = strstr(t, sub[k][0]));)
      t = pool_printf("%.*s%s%s", (int)(at - t), t, sub[k][1], at + strlen(sub[k][0]));
  for (const char *at = t; (at = strstr(at, "float"));) { /* the identifier float: double */
    const char *end = at + strlen("float");
    int word = (at == t || !(isalnum((unsigned char)at[-1]) || at[-1] == '_')) && !(isalnum((unsigned char)*end) || *end == '_');
    if (!word) {
      at = end;
      continue;
    }
    size_t off = (size_t)(at - t);
    t = pool_printf("%.*sdouble%s", (int)off, t, end);
    at = t + off + strlen("double");
  }
  return ew_expr_double(t);
}

/* The loop of an activation grad (ops.h), for its own op and for the fused
 * ops that take one in (fused_gemm_epilogue_grad). */
int unary_grad_emit(EmitCtx *e, const Op *op, const char *grad_type, const Var *dy, const Var *x, const Var *y,
                    const Var *dx) {
  size_t n = strlen(grad_type), k = strlen("_grad");
  if (n <= k || strcmp(grad_type + n - k, "_grad")) return em_fail(e, "'%s' is no activation grad", grad_type);
  const char *type = pool_printf("%.*s", (int)(n - k), grad_type);
  const Act *a = act_find(op, type);
  if (!a || !a->dep) return em_fail(e, "no C gradient for %s", type);
  if (!dy || ((a->dep & DEP_X) && !x) || ((a->dep & DEP_OUT) && !y))
    return em_fail(e, "missing Out@GRAD%s%s", a->dep & DEP_X ? ", X" : "", a->dep & DEP_OUT ? ", Out" : "");
  if (!(a->dep & DEP_X)) x = NULL;
  if (!(a->dep & DEP_OUT)) y = NULL;
  if (!dx) return 0; /* nothing wants the gradient */
  const Var *const all[4] = {dy, dx, x, y};
  const int f64 = dx->dtype == RT_DT_FP64;
  for (int i = 0; i < 4; i++)
    if (all[i] && all[i]->dtype != dx->dtype)
      return em_fail(e, "'%s' is %s where X@GRAD is %s", all[i]->name, rt_dtype_name(all[i]->dtype),
                     rt_dtype_name(dx->dtype));
  if (dx->dtype != RT_DT_FP32 && !f64)
    return em_fail(e, "X@GRAD is %s: only float32 and float64 gradients are supported", rt_dtype_name(dx->dtype));
  const char *body = a->gbody ? act_expand(e, op, a, a->gbody, f64) : "";
  const char *expr = a->grad                   ? act_expand(e, op, a, a->grad, f64)
                     : !strcmp(type, "logit") ? logit_grad(op, f64)
                                              : NULL;
  if (!body || !expr) return em_fail(e, "malformed gradient template for %s", type);
  if (f64) body = act_double(body), expr = !strcmp(type, "selu") ? selu_grad64(op) : act_double(expr);
  if (!body) return em_fail(e, "no double C gradient for %s (a float runtime function without a double twin)", type);
  const char *text = pool_printf("%s %s", body, expr);
  tu_pass_extent(e, dy, dx); /* X@GRAD's run-time extents are Out@GRAD's */
  EwIn in[3] = {{dy, -1, "pdy", "dy"}};
  int m = 1;
  if (x && ew_names(text, "x")) in[m++] = (EwIn){x, -1, "px", "x"};
  if (y && ew_names(text, "y")) in[m++] = (EwIn){y, -1, "py", "y"};
  return ew_nary(e, dx, m, in, NULL, *body ? body : NULL, expr);
}

/* <op>_grad: Out@GRAD and the forward tensors the row's dep names (X, Out)
 * -> X@GRAD (float32 or float64), the row's gradient element by element.  X@GRAD may
 * take Out@GRAD's buffer (each element is read before it is written). */
static int emit_act_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  char *type = pool_strdup(e->op->type);
  type[strlen(type) - strlen("_grad")] = 0;
  const Act *a = act_find(e->op, type);
  if (!a || !a->dep) return em_fail(e, "no C gradient for %s", type);
  Var *x = a->dep & DEP_X ? ctx_in(&c, "X", 0) : NULL, *y = a->dep & DEP_OUT ? ctx_in(&c, "Out", 0) : NULL;
  return unary_grad_emit(e, e->op, e->op->type, ctx_in(&c, "Out@GRAD", 0), x, y, ctx_out(&c, "X@GRAD", 0));
}

int unary_fusible(const Graph *g, const Op *op) {
  if (!op->def || op->def->emit_c != emit_unary) return 0;
  for (int s = 0; s < op->nin; s++)
    if (strcmp(op->in[s].name, "X") && op->in[s].n > 0 && op->in[s].vars[0] >= 0) return 0;
  const Slot *x = slot_find(op->in, op->nin, "X");
  return x && x->n == 1 && x->vars[0] >= 0 && g->vars[x->vars[0]].dtype == RT_DT_FP32;
}

/* The value of epilogue parameter p for op (row a). */
static double epi_param(const Op *op, const Act *a, ActParam p) {
  if (!p.attr) return p.value;
  for (int k = 0; k < 3 && a->attrs[k].name; k++)
    if (!strcmp(a->attrs[k].name, p.attr)) return attr_float(op, p.attr, a->attrs[k].dflt);
  return p.value; /* not reached: every epilogue attribute is a row attribute */
}

int unary_epilogue(const Graph *g, const Op *op, const char **name, double *alpha, double *beta) {
  if (!unary_fusible(g, op)) return 0;
  const Act *a = act_find(op, op->type);
  if (!a || !a->epi.name) return 0;
  *name = a->epi.name;
  *alpha = epi_param(op, a, a->epi.alpha);
  *beta = epi_param(op, a, a->epi.beta);
  return 1;
}

int em_act(EmitCtx *e, const char *name, double alpha, double beta, RtAct *act, float *fa, float *fb) {
  *act = RT_ACT_NONE;
  int found = !*name || !strcmp(name, "none");
  for (size_t i = 0; !found && i < sizeof acts / sizeof acts[0]; i++)
    if (acts[i].epi.name && !strcmp(acts[i].epi.name, name)) *act = acts[i].epi.act, found = 1;
  if (!found) return em_fail(e, "activation '%s' is not supported in a fused epilogue", name);
  *fa = (float)alpha;
  *fb = (float)beta;
  if (*act == RT_ACT_CLIP && !(*fa <= *fb))
    return em_fail(e, "activation %s needs fuse_alpha <= fuse_beta (got %g, %g)", name, alpha, beta);
  return 0;
}

const char *em_act_name(RtAct act) {
  static const char *const names[] = {
      [RT_ACT_NONE] = "RT_ACT_NONE",         [RT_ACT_RELU] = "RT_ACT_RELU",
      [RT_ACT_CLIP] = "RT_ACT_CLIP",         [RT_ACT_SWISH] = "RT_ACT_SWISH",
      [RT_ACT_HARD_SWISH] = "RT_ACT_HARD_SWISH", [RT_ACT_HARD_SIGMOID] = "RT_ACT_HARD_SIGMOID",
      [RT_ACT_SIGMOID] = "RT_ACT_SIGMOID",   [RT_ACT_TANH] = "RT_ACT_TANH",
      [RT_ACT_GELU] = "RT_ACT_GELU",         [RT_ACT_GELU_TANH] = "RT_ACT_GELU_TANH",
  };
  return (size_t)act < sizeof names / sizeof names[0] && names[act] ? names[act] : "RT_ACT_NONE";
}

#define OP_UNARY(name)                                                                             \
  const OpDef op_##name = {.type = #name, .infer = infer_unary, .emit_c = emit_unary, .inplace = "X:Out", \
                           .runtime_extents = 2};
/* exp, log and the like: an integer X gives a float32 Out (in place only
 * for float X: the plan shares a buffer between tensors of one dtype). */
#define OP_UNARY_REAL(name)                                                                             \
  const OpDef op_##name = {.type = #name, .infer = infer_unary_real, .emit_c = emit_unary, .inplace = "X:Out", \
                           .runtime_extents = 2};
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
OP_UNARY_REAL(exp)
OP_UNARY_REAL(expm1)
OP_UNARY(floor)
OP_UNARY(gelu)
OP_UNARY(hard_shrink)
OP_UNARY(hard_sigmoid)
OP_UNARY(hard_swish)
OP_UNARY(leaky_relu)
OP_UNARY(lgamma)
OP_UNARY_REAL(log)
OP_UNARY_REAL(log10)
OP_UNARY_REAL(log1p)
OP_UNARY_REAL(log2)
OP_UNARY(logsigmoid)
OP_UNARY(logit)
OP_UNARY(mish)
OP_UNARY(pow)
OP_UNARY(reciprocal)
OP_UNARY(relu)
OP_UNARY(relu6)
OP_UNARY(round)
OP_UNARY(rsqrt)
/* Integer values scaled in double, truncated as Paddle's int kernel. */
static void fold_scale(OpCtx *c) {
  Var *x = ctx_in(c, "X", 0);
  double s = attr_float(c->op, "scale", 1), b = attr_float(c->op, "bias", 0);
  if (!consteval_tracked(x) || ctx_in(c, "ScaleTensor", 0)) return;
  int64_t v[CONST_MAX];
  for (int i = 0; i < x->nvals; i++)
    v[i] = attr_bool(c->op, "bias_after_scale", 1) ? (int64_t)(s * (double)x->vals[i] + b)
                                                   : (int64_t)(s * ((double)x->vals[i] + b));
  consteval_set(ctx_out(c, "Out", 0), v, x->nvals, x->vmask);
}
const OpDef op_scale = {.type = "scale", .infer = infer_unary, .emit_c = emit_unary, .fold = fold_scale,
                        .inplace = "X:Out", .runtime_extents = 2};
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
/* The grads of the rows with a dep, sorted. */
#define OP_ACT_GRAD(name)                                                                               \
  const OpDef op_##name = {.type = #name, .infer = grad_infer, .emit_c = emit_act_grad, \
                           .inplace = "Out@GRAD:X@GRAD", .runtime_extents = 2};
OP_ACT_GRAD(abs_grad)
OP_ACT_GRAD(acos_grad)
OP_ACT_GRAD(acosh_grad)
OP_ACT_GRAD(asin_grad)
OP_ACT_GRAD(asinh_grad)
OP_ACT_GRAD(atan_grad)
OP_ACT_GRAD(atanh_grad)
OP_ACT_GRAD(brelu_grad)
OP_ACT_GRAD(celu_grad)
OP_ACT_GRAD(clip_grad)
OP_ACT_GRAD(cos_grad)
OP_ACT_GRAD(cosh_grad)
OP_ACT_GRAD(digamma_grad)
OP_ACT_GRAD(elu_grad)
OP_ACT_GRAD(erf_grad)
OP_ACT_GRAD(erfinv_grad)
OP_ACT_GRAD(exp_grad)
OP_ACT_GRAD(expm1_grad)
OP_ACT_GRAD(gelu_grad)
OP_ACT_GRAD(hard_shrink_grad)
OP_ACT_GRAD(hard_swish_grad)
OP_ACT_GRAD(leaky_relu_grad)
OP_ACT_GRAD(lgamma_grad)
OP_ACT_GRAD(log_grad)
OP_ACT_GRAD(logit_grad)
OP_ACT_GRAD(log10_grad)
OP_ACT_GRAD(log1p_grad)
OP_ACT_GRAD(log2_grad)
OP_ACT_GRAD(logsigmoid_grad)
OP_ACT_GRAD(mish_grad)
OP_ACT_GRAD(pow_grad)
OP_ACT_GRAD(reciprocal_grad)
OP_ACT_GRAD(relu_grad)
OP_ACT_GRAD(relu6_grad)
OP_ACT_GRAD(rsqrt_grad)
OP_ACT_GRAD(selu_grad)
OP_ACT_GRAD(sigmoid_grad)
OP_ACT_GRAD(silu_grad)
OP_ACT_GRAD(sin_grad)
OP_ACT_GRAD(sinh_grad)
OP_ACT_GRAD(soft_relu_grad)
OP_ACT_GRAD(softplus_grad)
OP_ACT_GRAD(softshrink_grad)
OP_ACT_GRAD(softsign_grad)
OP_ACT_GRAD(sqrt_grad)
OP_ACT_GRAD(square_grad)
OP_ACT_GRAD(stanh_grad)
OP_ACT_GRAD(swish_grad)
OP_ACT_GRAD(tan_grad)
OP_ACT_GRAD(tanh_grad)
OP_ACT_GRAD(tanh_shrink_grad)
OP_ACT_GRAD(thresholded_relu_grad)
/* HardSigmoidGradFunctor takes offset but reads only Out and slope. */
static const char *const hard_sigmoid_grad_ignores[] = {"offset", NULL};
const OpDef op_hard_sigmoid_grad = {.type = "hard_sigmoid_grad", .infer = grad_infer, .emit_c = emit_act_grad,
                                    .inplace = "Out@GRAD:X@GRAD", .attr_ignores = hard_sigmoid_grad_ignores,
                                    .runtime_extents = 2};
/* The grads that take Out@GRAD alone (floor, ceil, round, trunc): X@GRAD has its
 * shape (Paddle's ActivationOpGrad without X or Out). */
static int infer_grad_nodep(OpCtx *c) {
  Var *dy = ctx_need(c, "Out@GRAD", 0);
  if (!dy) return -1;
  ctx_set(c, "X@GRAD", 0, &dy->shape, dy->dtype);
  ctx_pass_runtime_extent(c, dy, "X@GRAD", 0);
  return 0;
}
#define OP_ACT_GRAD_NODEP(name) \
  const OpDef op_##name = {.type = #name, .infer = infer_grad_nodep, .emit_c = emit_act_grad, \
                           .inplace = "Out@GRAD:X@GRAD", .runtime_extents = 2};
OP_ACT_GRAD_NODEP(ceil_grad)
OP_ACT_GRAD_NODEP(floor_grad)
OP_ACT_GRAD_NODEP(round_grad)
/* trunc_grad: Out@GRAD -> X@GRAD, all zeros, NaN or not in Out@GRAD (phi
 * TruncGradKernel memsets X@GRAD). */
static int emit_trunc_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *dx = ctx_out(&c, "X@GRAD", 0);
  if (!dx) return 0;
  const char *t = em_ctype(dx->dtype);
  if (!t) return em_fail(e, "trunc_grad of %s tensors is not supported", rt_dtype_name(dx->dtype));
  FillCall call = {.kind = FILL_VALUE, .type = t, .local = "dx", .out = em_ptr(e, dx, 0), .value = "0"};
  call.n = em_numel(e, dx);
  fill_print_c(e->p, &call);
  return 0;
}
const OpDef op_trunc_grad = {.type = "trunc_grad", .infer = infer_grad_nodep, .emit_c = emit_trunc_grad,
                             .runtime_extents = 2};

/* Optimizer ops (spec 8.3).  Each updates its parameter and accumulators in
 * place: every `<X>Out` output has the shape of Param (Paddle's InferMeta
 * uses the param dims for moments too) or, for the beta-power accumulators,
 * its own input's shape; dtypes are those of the matching input.  Paddle
 * checks that LearningRate holds one element.
 *
 *   sgd: Param, LearningRate, Grad, MasterParam† -> ParamOut, MasterParamOut†;
 *     multi_precision=false
 *   momentum: Param, Grad, Velocity, LearningRate, MasterParam† -> ParamOut,
 *     VelocityOut, MasterParamOut†; mu, use_nesterov=false,
 *     regularization_method="", regularization_coeff=0, multi_precision=false,
 *     rescale_grad=1
 *   adam / adamw / lamb: Param, Grad, LearningRate, Moment1, Moment2, Beta1Pow,
 *     Beta2Pow, Beta1Tensor†, Beta2Tensor†, EpsilonTensor†, MasterParam†,
 *     SkipUpdate† -> ParamOut, Moment1Out, Moment2Out, Beta1PowOut,
 *     Beta2PowOut, MasterParamOut†.  adam: beta1=0.9, beta2=0.999,
 *     epsilon=1e-8, lazy_mode=false, min_row_size_to_use_multithread=1000,
 *     multi_precision=false, use_global_beta_pow=false; adamw adds
 *     lr_ratio=1, coeff=0.01, with_decay=false; lamb: weight_decay, beta1=0.9,
 *     beta2=0.999, epsilon=1e-6, multi_precision=false (old lamb files have
 *     no Beta*PowOut outputs)
 *   rmsprop: Param, MeanSquare, Grad, Moment, LearningRate, MeanGrad†,
 *     MasterParam† -> ParamOut, MomentOut, MeanSquareOut, MeanGradOut†
 *     (set only when centered), MasterParamOut†; epsilon=1e-10, decay=0.9,
 *     momentum=0, centered=false, multi_precision=false
 *   adagrad: Param, Grad, Moment, LearningRate, MasterParam† -> ParamOut,
 *     MomentOut, MasterParamOut†; epsilon=1e-6, multi_precision=false
 *   adamax: Param, Grad, LearningRate, Moment, InfNorm, Beta1Pow -> ParamOut,
 *     MomentOut, InfNormOut; beta1=0.9, beta2=0.999, epsilon=1e-8
 *   adadelta: Param, Grad, AvgSquaredGrad, AvgSquaredUpdate, LearningRate† ->
 *     ParamOut, AvgSquaredGradOut, AvgSquaredUpdateOut; rho=0.95, epsilon=1e-6 */
#include <string.h>

#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

typedef struct OptOut {
  const char *out; /* output slot */
  const char *in;  /* input it updates (dtype source) */
  int own_shape;   /* 1: shape of `in`; 0: shape of Param */
} OptOut;

typedef struct OptRule {
  const char *type; /* op type */
  int has_lr;       /* LearningRate is required */
  OptOut outs[7];   /* outputs, terminated by out == NULL */
} OptRule;

/* clang-format off */
#define ADAM_OUTS                                                              \
  {{"ParamOut", "Param", 0}, {"Moment1Out", "Moment1", 0},                     \
   {"Moment2Out", "Moment2", 0}, {"Beta1PowOut", "Beta1Pow", 1},               \
   {"Beta2PowOut", "Beta2Pow", 1}, {"MasterParamOut", "MasterParam", 1},       \
   {NULL, NULL, 0}}

static const OptRule rules[] = {
    {"adadelta", 0, {{"ParamOut", "Param", 0}, {"AvgSquaredGradOut", "AvgSquaredGrad", 0},
                     {"AvgSquaredUpdateOut", "AvgSquaredUpdate", 0}, {NULL, NULL, 0}}},
    {"adagrad", 1, {{"ParamOut", "Param", 0}, {"MomentOut", "Moment", 0},
                    {"MasterParamOut", "MasterParam", 1}, {NULL, NULL, 0}}},
    {"adam", 1, ADAM_OUTS},
    {"adamax", 1, {{"ParamOut", "Param", 0}, {"MomentOut", "Moment", 0},
                   {"InfNormOut", "InfNorm", 0}, {NULL, NULL, 0}}},
    {"adamw", 1, ADAM_OUTS},
    {"lamb", 1, ADAM_OUTS},
    {"momentum", 1, {{"ParamOut", "Param", 0}, {"VelocityOut", "Velocity", 0},
                     {"MasterParamOut", "MasterParam", 1}, {NULL, NULL, 0}}},
    {"rmsprop", 1, {{"ParamOut", "Param", 0}, {"MomentOut", "Moment", 0},
                    {"MeanSquareOut", "MeanSquare", 0}, {"MeanGradOut", "MeanGrad", 0},
                    {"MasterParamOut", "MasterParam", 1}, {NULL, NULL, 0}}},
    {"sgd", 1, {{"ParamOut", "Param", 0}, {"MasterParamOut", "MasterParam", 1}, {NULL, NULL, 0}}},
};
/* clang-format on */

static int infer_optimizer(OpCtx *c) {
  const OptRule *r = NULL;
  for (size_t i = 0; i < sizeof rules / sizeof rules[0] && !r; i++)
    if (strcmp(rules[i].type, c->op->type) == 0) r = &rules[i];
  if (!r) return ctx_fail(c, "no optimizer rule for this op type");
  Var *param = ctx_need(c, "Param", 0);
  if (!param) return -1;
  if (r->has_lr) {
    Var *lr = ctx_need(c, "LearningRate", 0);
    if (!lr) return -1;
    int64_t n = shape_numel(&lr->shape);
    if (n >= 0 && n != 1)
      return ctx_fail(c, "LearningRate has %lld elements, expected 1", (long long)n);
  }
  int centered = attr_bool(c->op, "centered", 0);
  for (const OptOut *o = r->outs; o->out; o++) {
    if (!ctx_out(c, o->out, 0)) continue;
    if (strcmp(o->out, "MeanGradOut") == 0 && !centered) continue; /* rmsprop */
    Var *in = ctx_in(c, o->in, 0);
    if (!in) {
      if (strcmp(o->in, "MasterParam") == 0) continue; /* dispensable */
      return ctx_fail(c, "output %s has no input %s", o->out, o->in);
    }
    if (in->shape.rank < 0)
      return ctx_fail(c, "input %s ('%s') has no known shape", o->in, in->name);
    if (!o->own_shape && !shape_equal(&in->shape, &param->shape))
      return ctx_fail(c, "%s %s does not match Param %s", o->in, shape_str(&in->shape),
                      shape_str(&param->shape));
    ctx_set(c, o->out, 0, o->own_shape ? &in->shape : &param->shape, in->dtype);
  }
  return 0;
}

/* ---- C emission ----
 *
 * Each update is one loop over Param's elements, split into tasks
 * (em_task_begin): element i of every output is computed from element i of
 * the inputs alone, read before it is written, so any output may be its
 * input's var (ParamOut = Param, as Paddle's optimizers bind them) or a var
 * of its own.  The scalars (learning rate, beta powers, ...) are read from
 * their one-element tensors at the top of each task; one-element outputs
 * (Beta1PowOut, ...) are written by the kernel after the loop, once every
 * task has read the inputs they may alias.  float32 only.
 *
 * The arithmetic is Paddle 2.6's CPU kernels' on an x86-64 CPU with
 * AVX-512 (where the tests' reference runs), operation by operation: sgd
 * and adam/adamw run JIT code (phi/kernels/funcs/jit/gen) whose fused
 * multiply-adds appear here as fmaf(); momentum runs Eigen expressions
 * without them.  Every other product and sum is a statement of its own:
 * clang contracts a * b + c within one expression into a fused
 * multiply-add (-ffp-contract=on), which would round differently. */

/* A float32 input (required or not) with a concrete shape; NULL when
 * absent (*bad stays) or after em_fail (*bad = 1). */
static Var *opt_in(EmitCtx *e, const char *slot, int required, int *bad) {
  OpCtx c = {e->g, (Op *)e->op};
  if (!ctx_in(&c, slot, 0)) {
    if (required) *bad = em_fail(e, "input %s is missing", slot);
    return NULL;
  }
  Var *v = tu_in(e, slot, 0);
  if (!v) {
    *bad = 1;
    return NULL;
  }
  if (v->dtype != RT_DT_FP32) {
    *bad = em_fail(e, "input %s ('%s') is %s; paddlec's %s supports float32 only", slot, v->name,
                   rt_dtype_name(v->dtype), e->op->type);
    return NULL;
  }
  return v;
}

/* The output bound to `slot` (float32, the shape of its input), or NULL
 * when the program leaves it out. */
static Var *opt_out(EmitCtx *e, const char *slot, int *bad) {
  OpCtx c = {e->g, (Op *)e->op};
  if (!ctx_out(&c, slot, 0)) return NULL;
  Var *v = tu_out(e, slot, 0);
  if (!v || v->dtype != RT_DT_FP32) {
    *bad = v ? em_fail(e, "output %s ('%s') is not float32", slot, v->name) : 1;
    return NULL;
  }
  return v;
}

/* An input holding one element (LearningRate, Beta1Pow, ...). */
static Var *opt_scalar_in(EmitCtx *e, const char *slot, int required, int *bad) {
  Var *v = opt_in(e, slot, required, bad);
  if (v && strcmp(em_numel(e, v), "1"))
    *bad = em_fail(e, "input %s ('%s') must hold one element", slot, v->name);
  return v;
}

/* multi_precision (float16/bfloat16 parameters with a float32 MasterParam)
 * is refused: paddlec updates float32 parameters only. */
static int opt_no_master(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  if (attr_bool(e->op, "multi_precision", 0) || ctx_in(&c, "MasterParam", 0))
    return em_fail(e, "multi_precision=true (a MasterParam) is not supported");
  return 0;
}

/* One pointer the update loop uses: its C name, the var, and whether the
 * loop writes it. */
typedef struct OptPtr {
  const char *name; /* C name in the loop */
  const Var *v;     /* the tensor (NULL: not declared) */
  int out;          /* 1: written (float *), 0: read (const float *) */
} OptPtr;

/* Prints the update loop over Param's n elements as tasks: the pointers,
 * the scalar lines `pre` (each task reads the one-element inputs itself),
 * then `for (i = lo; i < hi; i++) { body }`.  Line lists end with NULL. */
static void opt_loop(EmitCtx *e, const Var *param, const OptPtr *ptrs, int nptrs, const char *const *pre,
                     const char *const *body) {
  const char *n = em_numel(e, param);
  em_task_begin(e, n, n);
  for (int k = 0; k < nptrs; k++)
    if (ptrs[k].v)
      pr_line(e->p, "%sfloat *%s = %s;", ptrs[k].out ? "" : "const ", ptrs[k].name,
              em_ptr(e, ptrs[k].v, !ptrs[k].out));
  for (int k = 0; pre && pre[k]; k++) pr_line(e->p, "%s", pre[k]);
  pr_line(e->p, "for (int64_t i = lo; i < hi; i++) {");
  for (int k = 0; body[k]; k++) pr_line(e->p, "%s", body[k]);
  pr_line(e->p, "}");
  em_task_end(e);
}

/* sgd (phi SGDDenseKernel): ParamOut = Param - lr * Grad.  Paddle 2.6 runs
 * its JIT sgd (a product, then a difference) when Param's element count is
 * a multiple of 8; otherwise its reference loop, whose compiled code rounds
 * once (a fused multiply-add) when ParamOut is Param and twice (its
 * vectorized path) when ParamOut is a var of its own. */
static int emit_sgd(EmitCtx *e) {
  int bad = opt_no_master(e);
  Var *p = opt_in(e, "Param", 1, &bad), *g = opt_in(e, "Grad", 1, &bad);
  Var *lr = opt_scalar_in(e, "LearningRate", 1, &bad), *po = opt_out(e, "ParamOut", &bad);
  if (bad) return -1;
  if (!po) return em_fail(e, "output ParamOut is missing");
  const SymDim n = em_sym_prod(e, p, 0, tu_rank(e, p));
  const int fused = po == p && n.a == 0 && n.c % 8 != 0;
  const OptPtr ptrs[] = {{"p", p, 0}, {"g", g, 0}, {"lr_t", lr, 0}, {"po", po, 1}};
  const char *pre[] = {"const float lr = lr_t[0];", NULL};
  const char *fma_body[] = {"po[i] = fmaf(-lr, g[i], p[i]);", NULL};
  const char *body[] = {"const float step = lr * g[i];", "po[i] = p[i] - step;", NULL};
  opt_loop(e, p, ptrs, 4, pre, fused ? fma_body : body);
  return 0;
}

/* momentum (phi MomentumDenseKernel, CPUDenseMomentumFunctor): with
 * regularization_method "l2_decay" the gradient is Param * coeff + Grad
 * (any other method: Grad, as Paddle has it); VelocityOut = Velocity * mu
 * + grad; ParamOut = Param - (grad + VelocityOut * mu) * lr with
 * use_nesterov, Param - lr * VelocityOut without.  Paddle's CPU kernel
 * does not read rescale_grad (only its GPU functor scales the gradient). */
static int emit_momentum(EmitCtx *e) {
  int bad = opt_no_master(e);
  Var *p = opt_in(e, "Param", 1, &bad), *g = opt_in(e, "Grad", 1, &bad), *vel = opt_in(e, "Velocity", 1, &bad);
  Var *lr = opt_scalar_in(e, "LearningRate", 1, &bad);
  Var *po = opt_out(e, "ParamOut", &bad), *vo = opt_out(e, "VelocityOut", &bad);
  if (bad) return -1;
  if (!po || !vo) return em_fail(e, "outputs ParamOut and VelocityOut are required");
  const int l2 = !strcmp(attr_str(e->op, "regularization_method", ""), "l2_decay");
  const char *mu = em_float((float)attr_float(e->op, "mu", 0));
  const char *coeff = em_float((float)attr_float(e->op, "regularization_coeff", 0));
  const OptPtr ptrs[] = {{"p", p, 0}, {"g", g, 0}, {"v", vel, 0}, {"lr_t", lr, 0}, {"po", po, 1}, {"vo", vo, 1}};
  const char *pre[] = {"const float lr = lr_t[0];", NULL};
  const int nesterov = attr_bool(e->op, "use_nesterov", 0);
  const char *body[9];
  int nb = 0;
  if (l2) {
    body[nb++] = pool_printf("const float decay = p[i] * %s;", coeff);
    body[nb++] = "const float gr = decay + g[i];";
  } else {
    body[nb++] = "const float gr = g[i];";
  }
  body[nb++] = pool_printf("const float kept = v[i] * %s;", mu);
  body[nb++] = "const float vn = kept + gr;";
  if (nesterov) {
    body[nb++] = pool_printf("const float ahead = vn * %s;", mu);
    body[nb++] = "const float step = (gr + ahead) * lr;";
  } else {
    body[nb++] = "const float step = lr * vn;";
  }
  body[nb++] = "po[i] = p[i] - step;";
  body[nb++] = "vo[i] = vn;";
  body[nb] = NULL;
  opt_loop(e, p, ptrs, 6, pre, body);
  return 0;
}

/* The value of a beta/epsilon Scalar: its tensor input (Beta1Tensor, ...)
 * read at run time when bound, else the attribute, as a C expression. */
static const char *opt_scalar(EmitCtx *e, const char *tensor, const char *ptr, const char *attr, double dflt,
                              OptPtr *slot, const char **kernel_expr, int *bad) {
  Var *t = opt_scalar_in(e, tensor, 0, bad);
  *slot = (OptPtr){ptr, t, 0};
  const char *a = em_float((float)attr_float(e->op, attr, dflt)); /* looked up either way: the tensor wins */
  if (kernel_expr) *kernel_expr = t && !*bad ? pool_printf("%s[0]", em_ptr(e, t, 1)) : a;
  return t ? pool_printf("%s[0]", ptr) : a;
}

/* adam, and adamw (phi AdamDenseKernel / AdamwDenseKernel, the JIT adam and
 * adamw), with b1, b2, eps the attributes beta1, beta2, epsilon or the
 * tensors Beta1Tensor, Beta2Tensor, EpsilonTensor, and b1p, b2p the beta
 * powers:
 *   lr_t = lr * (sqrt(1 - b2p) / (1 - b1p)), eps_t = eps * sqrt(1 - b2p)
 *   m1 = fma(b1, Moment1, (1 - b1) * g), m2 = fma(b2, Moment2, (1 - b2) * (g * g))
 *   adamw with_decay: p = fma(-((lr * lr_ratio) * coeff), Param, Param)
 *   ParamOut = fma(m1 / (sqrt(m2) + eps_t), -lr_t, p)
 * and Beta1PowOut = b1 * b1p, Beta2PowOut = b2 * b2p unless
 * use_global_beta_pow.  A SkipUpdate holding true copies every input to its
 * output instead.  lazy_mode changes only SelectedRows gradients: a dense
 * Grad updates every row either way. */
static int emit_adam(EmitCtx *e) {
  static const char *const slots[][2] = {{"Param", "ParamOut"},       {"Moment1", "Moment1Out"},
                                         {"Moment2", "Moment2Out"},   {"Beta1Pow", "Beta1PowOut"},
                                         {"Beta2Pow", "Beta2PowOut"}};
  int bad = opt_no_master(e);
  Var *in[5], *out[5];
  for (int k = 0; k < 5; k++) {
    in[k] = k < 3 ? opt_in(e, slots[k][0], 1, &bad) : opt_scalar_in(e, slots[k][0], 1, &bad);
    out[k] = opt_out(e, slots[k][1], &bad);
  }
  Var *g = opt_in(e, "Grad", 1, &bad), *lr = opt_scalar_in(e, "LearningRate", 1, &bad);
  Var *skip = NULL;
  {
    OpCtx c = {e->g, (Op *)e->op};
    if (ctx_in(&c, "SkipUpdate", 0)) {
      skip = tu_in(e, "SkipUpdate", 0);
      if (!skip) return -1;
      if (skip->dtype != RT_DT_BOOL || strcmp(em_numel(e, skip), "1"))
        return em_fail(e, "SkipUpdate must be one bool");
    }
  }
  OptPtr ptrs[11] = {{"p", in[0], 0}, {"m1", in[1], 0}, {"m2", in[2], 0}, {"b1p_t", in[3], 0}, {"b2p_t", in[4], 0},
                     {"g", g, 0},     {"lr_t", lr, 0},  {"po", out[0], 1}, {"m1o", out[1], 1}};
  const char *kb[2];
  const char *b1 = opt_scalar(e, "Beta1Tensor", "b1_t", "beta1", 0.9, &ptrs[9], &kb[0], &bad);
  const char *b2 = opt_scalar(e, "Beta2Tensor", "b2_t", "beta2", 0.999, &ptrs[10], &kb[1], &bad);
  OptPtr eps_ptr, m2o_ptr = {"m2o", out[2], 1};
  const char *eps = opt_scalar(e, "EpsilonTensor", "eps_tt", "epsilon", 1e-8, &eps_ptr, NULL, &bad);
  if (bad) return -1;
  if (!out[0] || !out[1] || !out[2]) return em_fail(e, "outputs ParamOut, Moment1Out and Moment2Out are required");
  (void)attr_bool(e->op, "lazy_mode", 0); /* dense Grad: no effect */
  (void)attr_float(e->op, "min_row_size_to_use_multithread", 0); /* SelectedRows only */
  const int global_pow = attr_bool(e->op, "use_global_beta_pow", 0);
  const int adamw = !strcmp(e->op->type, "adamw") && attr_bool(e->op, "with_decay", 0);
  if (!strcmp(e->op->type, "adamw")) { /* read with with_decay false too (Paddle's adam ignores them) */
    (void)attr_float(e->op, "coeff", 0.01);
    (void)attr_float(e->op, "lr_ratio", 1);
  }
  const OptPtr all[] = {ptrs[0], ptrs[1], ptrs[2], ptrs[3], ptrs[4], ptrs[5], ptrs[6], ptrs[7], ptrs[8], m2o_ptr,
                        ptrs[9], ptrs[10], eps_ptr};
  if (skip) {
    pr_line(e->p, "if (%s[0]) { /* SkipUpdate: the outputs keep the inputs */", em_ptr(e, skip, 1));
    for (int k = 0; k < 5; k++)
      if (out[k]) {
        em_wrote(e, out[k]);
        if (out[k] != in[k])
          pr_line(e->p, "memcpy(%s, %s, sizeof(float) * %s);", em_ptr(e, out[k], 0), em_ptr(e, in[k], 1),
                  em_numel(e, in[k]));
      }
    pr_line(e->p, "} else {");
  }
  const char *pre[] = {
      "const float b1p = b1p_t[0], b2p = b2p_t[0];",
      "const float lr = lr_t[0] * (sqrtf(1.0f - b2p) / (1.0f - b1p));",
      pool_printf("const float eps = %s * sqrtf(1.0f - b2p);", eps),
      pool_printf("const float b1 = %s, b2 = %s;", b1, b2),
      adamw ? pool_printf("const float decay = (lr_t[0] * %s) * %s;",
                          em_float((float)attr_float(e->op, "lr_ratio", 1)),
                          em_float((float)attr_float(e->op, "coeff", 0.01)))
            : NULL,
      NULL};
  const char *body[] = {
      "const float gi = g[i];",
      "const float m1n = fmaf(b1, m1[i], (1.0f - b1) * gi);",
      "const float m2n = fmaf(b2, m2[i], (1.0f - b2) * (gi * gi));",
      adamw ? "const float pi = fmaf(-decay, p[i], p[i]);" : "const float pi = p[i];",
      "m1o[i] = m1n;",
      "m2o[i] = m2n;",
      "po[i] = fmaf(m1n / (sqrtf(m2n) + eps), -lr, pi);",
      NULL};
  opt_loop(e, in[0], all, 13, pre, body);
  if (!global_pow)
    for (int k = 3; k < 5; k++) {
      if (!out[k]) continue;
      pr_line(e->p, "%s[0] = %s * %s[0];", em_ptr(e, out[k], 0), kb[k - 3], em_ptr(e, in[k], 1));
    }
  if (skip) pr_line(e->p, "}");
  return 0;
}

/* adagrad (phi DenseAdagradFunctor, Eigen): MomentOut = Moment + g * g;
 * ParamOut = Param - lr * g / (sqrt(MomentOut) + epsilon).  MomentOut is
 * bitwise Paddle's; ParamOut is within an ulp or two but not bitwise (no
 * order of these operations reproduces it: Eigen's vectorized sqrt may be
 * its fast approximation, not checked). */
static int emit_adagrad(EmitCtx *e) {
  int bad = opt_no_master(e);
  Var *p = opt_in(e, "Param", 1, &bad), *g = opt_in(e, "Grad", 1, &bad), *mom = opt_in(e, "Moment", 1, &bad);
  Var *lr = opt_scalar_in(e, "LearningRate", 1, &bad);
  Var *po = opt_out(e, "ParamOut", &bad), *mo = opt_out(e, "MomentOut", &bad);
  if (bad) return -1;
  if (!po || !mo) return em_fail(e, "outputs ParamOut and MomentOut are required");
  const OptPtr ptrs[] = {{"p", p, 0}, {"g", g, 0}, {"mom", mom, 0}, {"lr_t", lr, 0}, {"po", po, 1}, {"mo", mo, 1}};
  const char *pre[] = {"const float lr = lr_t[0];", NULL};
  const char *body[] = {"const float sq = g[i] * g[i];",
                        "const float mn = mom[i] + sq;",
                        "const float step = lr * g[i];",
                        pool_printf("po[i] = p[i] - step / (sqrtf(mn) + %s);",
                                    em_float((float)attr_float(e->op, "epsilon", 1e-6))),
                        "mo[i] = mn;",
                        NULL};
  opt_loop(e, p, ptrs, 6, pre, body);
  return 0;
}

#define OP_OPTIMIZER(name) const OpDef op_##name = {.type = #name, .infer = infer_optimizer};
OP_OPTIMIZER(adadelta)
const OpDef op_adagrad = {.type = "adagrad", .infer = infer_optimizer, .emit_c = emit_adagrad};
OP_OPTIMIZER(adamax)
OP_OPTIMIZER(lamb)
OP_OPTIMIZER(rmsprop)
const OpDef op_sgd = {.type = "sgd", .infer = infer_optimizer, .emit_c = emit_sgd};
/* momentum: Paddle 2.6's CPU kernel never reads rescale_grad (see emit_momentum) */
static const char *const momentum_attr_ignores[] = {"rescale_grad", NULL};
const OpDef op_momentum = {.type = "momentum", .infer = infer_optimizer, .emit_c = emit_momentum,
                           .attr_ignores = momentum_attr_ignores};
const OpDef op_adam = {.type = "adam", .infer = infer_optimizer, .emit_c = emit_adam};
const OpDef op_adamw = {.type = "adamw", .infer = infer_optimizer, .emit_c = emit_adam};

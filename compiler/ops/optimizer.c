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
 *     beta2=0.999, epsilon=1e-6, always_adapt=false, multi_precision=false
 *     (old lamb files have no Beta*PowOut outputs)
 *   rmsprop: Param, MeanSquare, Grad, Moment, LearningRate, MeanGrad†,
 *     MasterParam† -> ParamOut, MomentOut, MeanSquareOut, MeanGradOut†
 *     (set only when centered), MasterParamOut†; epsilon=1e-10, decay=0.9,
 *     momentum=0, centered=false, multi_precision=false
 *   adagrad: Param, Grad, Moment, LearningRate, MasterParam† -> ParamOut,
 *     MomentOut, MasterParamOut†; epsilon=1e-6, multi_precision=false
 *   adamax: Param, Grad, LearningRate, Moment, InfNorm, Beta1Pow,
 *     MasterParam† -> ParamOut, MomentOut, InfNormOut, MasterParamOut†;
 *     beta1=0.9, beta2=0.999, epsilon=1e-8, multi_precision=false (no
 *     Beta1PowOut: the optimizer scales Beta1Pow with an op of its own)
 *   adadelta: Param, Grad, AvgSquaredGrad, AvgSquaredUpdate, LearningRate†
 *     (required from Paddle 2.5 on; older files have none), MasterParam† ->
 *     ParamOut, AvgSquaredGradOut, AvgSquaredUpdateOut, MasterParamOut†;
 *     rho=0.95, epsilon=1e-6, multi_precision=false */
#include <string.h>

#include "../util.h"
#include "ops.h"
#include "opt_call.h"
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
                     {"AvgSquaredUpdateOut", "AvgSquaredUpdate", 0},
                     {"MasterParamOut", "MasterParam", 1}, {NULL, NULL, 0}}},
    {"adagrad", 1, {{"ParamOut", "Param", 0}, {"MomentOut", "Moment", 0},
                    {"MasterParamOut", "MasterParam", 1}, {NULL, NULL, 0}}},
    {"adam", 1, ADAM_OUTS},
    {"adamax", 1, {{"ParamOut", "Param", 0}, {"MomentOut", "Moment", 0},
                   {"InfNormOut", "InfNorm", 0}, {"MasterParamOut", "MasterParam", 1},
                   {NULL, NULL, 0}}},
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
  Var *param = ctx_need(c, "Param", 0), *grad = ctx_need(c, "Grad", 0);
  if (!param || !grad) return -1;
  /* every update reads Grad element for element with Param (Paddle's
   * kernels take Grad's numel as Param's) */
  const int64_t np = shape_numel(&param->shape), ng = shape_numel(&grad->shape);
  if (np >= 0 && ng >= 0 && np != ng)
    return ctx_fail(c, "Grad %s does not match Param %s", shape_str(&grad->shape), shape_str(&param->shape));
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
    if (strcmp(o->out, "MeanGradOut") == 0 && !centered && !ctx_in(c, "MeanGrad", 0))
      continue; /* rmsprop: MeanGrad is read only when centered */
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
 * task has read the inputs they may alias.
 *
 * The arithmetic is Paddle 2.6's CPU kernels' on an x86-64 CPU with
 * AVX-512 (where the tests' reference runs), operation by operation: sgd
 * and adam/adamw run JIT code (phi/kernels/funcs/jit/gen) whose fused
 * multiply-adds appear here as fmaf(); momentum runs Eigen expressions
 * without them.  Every other product and sum is a statement of its own:
 * clang contracts a * b + c within one expression into a fused
 * multiply-add (-ffp-contract=on), which would round differently.
 *
 * float64: Paddle registers every one of these CPU kernels for float and
 * double from one template, and the double kernel reads every tensor as
 * double (a float32 Grad, accumulator, ... beside a float64 Param is
 * refused: Paddle 2.6's kernels fail on it too; only its sgd takes a
 * float32 LearningRate there, converted by the executor, which paddlec
 * refuses as well) and computes in double, the operations in the float
 * kernel's order.  So each loop below is written
 * once, in float, and printed through tu_respell (float -> double, sqrtf
 * -> sqrt, 1.0f -> 1.0, ...) with the attribute constants printed for the
 * op's dtype (opt_num: the float attribute's value, as static_cast<T>).
 * Where the float kernel is JIT code, the double one is the JIT's
 * reference loop instead (no JIT code for double): sgd and adam/adamw
 * write that loop for float64.  Attributes are float in Paddle's ops, so a
 * float64 update still scales by e.g. (double)0.9f, as Paddle's does. */

/* The dtype of the update: Param's (float32 when it has no Param, which
 * opt_in reports). */
static int opt_dtype(const EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  const Var *p = ctx_in(&c, "Param", 0);
  return p ? p->dtype : RT_DT_FP32;
}

/* An attribute's value as a constant of the update's dtype. */
static const char *opt_num(int dt, double attr_value) { return tu_literal(dt, (float)attr_value); }

/* An input (required or not) of the update's dtype, float32 or float64,
 * with a concrete shape; NULL when absent (*bad stays) or after em_fail
 * (*bad = 1). */
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
  const int dt = opt_dtype(e);
  if (v->dtype != RT_DT_FP32 && v->dtype != RT_DT_FP64) {
    *bad = em_fail(e, "input %s ('%s') is %s; paddlec's %s supports float32 and float64", slot, v->name,
                   rt_dtype_name(v->dtype), e->op->type);
    return NULL;
  }
  if (v->dtype != dt) {
    *bad = em_fail(e, "input %s ('%s') is %s but Param is %s; paddlec's %s takes every input in Param's dtype, as "
                   "Paddle's kernel reads them", slot, v->name, rt_dtype_name(v->dtype), rt_dtype_name(dt), e->op->type);
    return NULL;
  }
  return v;
}

/* The output bound to `slot` (the update's dtype, the shape of its
 * input), or NULL when the program leaves it out. */
static Var *opt_out(EmitCtx *e, const char *slot, int *bad) {
  OpCtx c = {e->g, (Op *)e->op};
  if (!ctx_out(&c, slot, 0)) return NULL;
  Var *v = tu_out(e, slot, 0);
  if (!v || v->dtype != opt_dtype(e)) {
    *bad = v ? em_fail(e, "output %s ('%s') is %s, not Param's %s", slot, v->name, rt_dtype_name(v->dtype),
                       rt_dtype_name(opt_dtype(e)))
             : 1;
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
 * is refused: paddlec updates float32 and float64 parameters only. */
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

/* The update loop over Param's n elements as tasks (OPT_UPDATE): the
 * pointers (of their var's C type), the scalar lines `pre` (each task reads
 * the one-element inputs itself), then the loop over [lo, hi) running
 * `body`, the lines respelled for dtype dt by the printer.  Line lists end
 * with NULL. */
static void opt_loop(EmitCtx *e, int dt, const Var *param, const OptPtr *ptrs, int nptrs, const char *const *pre,
                     const char *const *body) {
  const char *n = em_numel(e, param);
  em_task_begin(e, n, n);
  OptOperand *ops = pool_alloc(sizeof *ops * (size_t)nptrs);
  int nops = 0;
  for (int k = 0; k < nptrs; k++)
    if (ptrs[k].v)
      ops[nops++] = (OptOperand){ptrs[k].name, em_ctype(ptrs[k].v->dtype), em_ptr(e, ptrs[k].v, !ptrs[k].out),
                                 ptrs[k].out};
  opt_print_c(e->p, &(OptCall){.kind = OPT_UPDATE, .dtype = dt, .ptrs = ops, .nptrs = nops, .pre = pre, .body = body});
  em_task_end(e);
}

/* sgd (phi SGDDenseKernel): ParamOut = Param - lr * Grad.  Paddle 2.6 runs
 * its JIT sgd (a product, then a difference) when Param's element count is
 * a multiple of 8; otherwise its reference loop, whose compiled code rounds
 * once (a fused multiply-add) when ParamOut is Param and twice (its
 * vectorized path) when ParamOut is a var of its own.  float64 has no JIT
 * sgd: the reference loop, a product then a difference here. */
static int emit_sgd(EmitCtx *e) {
  const int dt = opt_dtype(e);
  int bad = opt_no_master(e);
  Var *p = opt_in(e, "Param", 1, &bad), *g = opt_in(e, "Grad", 1, &bad);
  Var *lr = opt_scalar_in(e, "LearningRate", 1, &bad), *po = opt_out(e, "ParamOut", &bad);
  if (bad) return -1;
  if (!po) return em_fail(e, "output ParamOut is missing");
  const SymDim n = em_sym_prod(e, p, 0, tu_rank(e, p));
  const int fused = dt == RT_DT_FP32 && po == p && n.a == 0 && n.c % 8 != 0;
  const OptPtr ptrs[] = {{"p", p, 0}, {"g", g, 0}, {"lr_t", lr, 0}, {"po", po, 1}};
  const char *pre[] = {"const float lr = lr_t[0];", NULL};
  const char *fma_body[] = {"po[i] = fmaf(-lr, g[i], p[i]);", NULL};
  const char *body[] = {"const float step = lr * g[i];", "po[i] = p[i] - step;", NULL};
  opt_loop(e, dt, p, ptrs, 4, pre, fused ? fma_body : body);
  return 0;
}

/* momentum (phi MomentumDenseKernel, CPUDenseMomentumFunctor): with
 * regularization_method "l2_decay" the gradient is Param * coeff + Grad
 * (any other method: Grad, as Paddle has it); VelocityOut = Velocity * mu
 * + grad; ParamOut = Param - (grad + VelocityOut * mu) * lr with
 * use_nesterov, Param - lr * VelocityOut without.  Paddle's CPU kernel
 * does not read rescale_grad (only its GPU functor scales the gradient). */
static int emit_momentum(EmitCtx *e) {
  const int dt = opt_dtype(e);
  int bad = opt_no_master(e);
  Var *p = opt_in(e, "Param", 1, &bad), *g = opt_in(e, "Grad", 1, &bad), *vel = opt_in(e, "Velocity", 1, &bad);
  Var *lr = opt_scalar_in(e, "LearningRate", 1, &bad);
  Var *po = opt_out(e, "ParamOut", &bad), *vo = opt_out(e, "VelocityOut", &bad);
  if (bad) return -1;
  if (!po || !vo) return em_fail(e, "outputs ParamOut and VelocityOut are required");
  const int l2 = !strcmp(attr_str(e->op, "regularization_method", ""), "l2_decay");
  const char *mu = opt_num(dt, attr_float(e->op, "mu", 0));
  const char *coeff = opt_num(dt, attr_float(e->op, "regularization_coeff", 0));
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
  opt_loop(e, dt, p, ptrs, 6, pre, body);
  return 0;
}

/* A Scalar's tensor input (Beta1Tensor, Beta2Tensor, EpsilonTensor): one
 * element of any dtype Paddle's Scalar takes from a tensor (phi reads it
 * with Scalar::to<T>, a static_cast: a float32 Beta1Tensor beside float64
 * parameters, as `beta1=<a float32 Variable>` writes, is widened); NULL when
 * absent or after em_fail (*bad = 1). */
static Var *opt_scalar_tensor(EmitCtx *e, const char *slot, int *bad) {
  OpCtx c = {e->g, (Op *)e->op};
  if (!ctx_in(&c, slot, 0)) return NULL;
  Var *v = tu_in(e, slot, 0);
  if (!v) {
    *bad = 1;
    return NULL;
  }
  const int dt = v->dtype;
  if (dt != RT_DT_FP32 && dt != RT_DT_FP64 && dt != RT_DT_INT32 && dt != RT_DT_INT64) {
    *bad = em_fail(e, "input %s ('%s') is %s; paddlec's %s reads it as a float32, float64, int32 or int64 scalar", slot,
                   v->name, rt_dtype_name(dt), e->op->type);
    return NULL;
  }
  if (strcmp(em_numel(e, v), "1")) {
    *bad = em_fail(e, "input %s ('%s') must hold one element", slot, v->name);
    return NULL;
  }
  return v;
}

/* The value of a beta/epsilon Scalar: its tensor input (Beta1Tensor, ...)
 * read at run time when bound, converted to the update's dtype, else the
 * attribute, as a C expression. */
static const char *opt_scalar(EmitCtx *e, const char *tensor, const char *ptr, const char *attr, double dflt,
                              OptPtr *slot, const char **kernel_expr, int *bad) {
  Var *t = opt_scalar_tensor(e, tensor, bad);
  const char *cast = !t || t->dtype == opt_dtype(e) ? "" : opt_dtype(e) == RT_DT_FP64 ? "(double)" : "(float)";
  *slot = (OptPtr){ptr, t, 0};
  const char *a = opt_num(opt_dtype(e), attr_float(e->op, attr, dflt)); /* looked up either way: the tensor wins */
  if (kernel_expr) *kernel_expr = t && !*bad ? pool_printf("%s%s[0]", cast, em_ptr(e, t, 1)) : a;
  return t ? pool_printf("%s%s[0]", cast, ptr) : a;
}

/* The SkipUpdate input (one bool) in *skip, NULL when absent; -1 after
 * em_fail. */
static int opt_skip(EmitCtx *e, Var **skip) {
  OpCtx c = {e->g, (Op *)e->op};
  *skip = NULL;
  if (!ctx_in(&c, "SkipUpdate", 0)) return 0;
  *skip = tu_in(e, "SkipUpdate", 0);
  if (!*skip) return -1;
  if ((*skip)->dtype != RT_DT_BOOL || strcmp(em_numel(e, *skip), "1")) return em_fail(e, "SkipUpdate must be one bool");
  return 0;
}

/* SkipUpdate's test in the OPT_BEGIN record *c: when skip holds true,
 * every input in[k] is copied to its output out[k] (when a var of its
 * own); the OPT_END record closes the brace. */
static void opt_skip_open(EmitCtx *e, const Var *skip, Var *const *in, Var *const *out, int n, OptCall *c) {
  OptCopy *copies = pool_alloc(sizeof *copies * (size_t)n);
  c->skip = em_ptr(e, skip, 1);
  for (int k = 0; k < n; k++)
    if (out[k]) {
      em_wrote(e, out[k]);
      if (out[k] != in[k])
        copies[c->ncopies++] = (OptCopy){em_ptr(e, out[k], 0), em_ptr(e, in[k], 1), em_ctype(in[k]->dtype),
                                         em_numel(e, in[k])};
    }
  c->copies = copies;
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
 * Grad updates every row either way.  float64 runs the JIT's reference
 * loops (refer::Adam, refer::AdamW), without fused multiply-adds and with
 * (1 - b2) * g * g from the left:
 *   m1 = b1 * Moment1 + (1 - b1) * g, m2 = b2 * Moment2 + ((1 - b2) * g) * g
 *   adamw with_decay: p = Param - ((lr * lr_ratio) * coeff) * Param
 *   ParamOut = p + -lr_t * (m1 / (sqrt(m2) + eps_t)) */
static int emit_adam(EmitCtx *e) {
  const int dt = opt_dtype(e);
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
  if (opt_skip(e, &skip)) return -1;
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
  OptCall begin = {.kind = OPT_BEGIN};
  if (skip) {
    opt_skip_open(e, skip, in, out, 5, &begin);
    opt_print_c(e->p, &begin);
  }
  const char *pre[] = {
      "const float b1p = b1p_t[0], b2p = b2p_t[0];",
      "const float lr = lr_t[0] * (sqrtf(1.0f - b2p) / (1.0f - b1p));",
      pool_printf("const float eps = %s * sqrtf(1.0f - b2p);", eps),
      pool_printf("const float b1 = %s, b2 = %s;", b1, b2),
      adamw ? pool_printf("const float decay = (lr_t[0] * %s) * %s;", opt_num(dt, attr_float(e->op, "lr_ratio", 1)),
                          opt_num(dt, attr_float(e->op, "coeff", 0.01)))
            : NULL,
      NULL};
  const char *body32[] = {
      "const float gi = g[i];",
      "const float m1n = fmaf(b1, m1[i], (1.0f - b1) * gi);",
      "const float m2n = fmaf(b2, m2[i], (1.0f - b2) * (gi * gi));",
      adamw ? "const float pi = fmaf(-decay, p[i], p[i]);" : "const float pi = p[i];",
      "m1o[i] = m1n;",
      "m2o[i] = m2n;",
      "po[i] = fmaf(m1n / (sqrtf(m2n) + eps), -lr, pi);",
      NULL};
  const char *body64[17] = {"const double gi = g[i];",
                            "const double k1 = b1 * m1[i];",
                            "const double f1 = (1.0 - b1) * gi;",
                            "const double m1n = k1 + f1;",
                            "const double k2 = b2 * m2[i];",
                            "const double f2 = (1.0 - b2) * gi;",
                            "const double s2 = f2 * gi;",
                            "const double m2n = k2 + s2;"};
  int nb = 8;
  if (adamw) {
    body64[nb++] = "const double shrink = decay * p[i];";
    body64[nb++] = "const double pi = p[i] - shrink;";
  } else {
    body64[nb++] = "const double pi = p[i];";
  }
  body64[nb++] = "const double den = sqrt(m2n) + eps;";
  body64[nb++] = "const double dir = m1n / den;";
  body64[nb++] = "const double step = -lr * dir;";
  body64[nb++] = "m1o[i] = m1n;";
  body64[nb++] = "m2o[i] = m2n;";
  body64[nb++] = "po[i] = pi + step;";
  body64[nb] = NULL;
  opt_loop(e, dt, in[0], all, 13, pre, dt == RT_DT_FP64 ? body64 : body32);
  OptCall end = {.kind = OPT_END, .skip = begin.skip};
  if (!global_pow)
    for (int k = 3; k < 5; k++) {
      if (!out[k]) continue;
      const char *o = em_ptr(e, out[k], 0);
      end.pows[end.npows++] = (OptPow){o, kb[k - 3], pool_printf("%s[0]", em_ptr(e, in[k], 1))};
    }
  opt_print_c(e->p, &end);
  return 0;
}

/* adagrad (phi DenseAdagradFunctor, Eigen): MomentOut = Moment + g * g;
 * ParamOut = Param - lr * g / (sqrt(MomentOut) + epsilon).  MomentOut is
 * bitwise Paddle's; ParamOut is within an ulp or two but not bitwise (no
 * order of these operations reproduces it: Eigen's vectorized sqrt may be
 * its fast approximation, not checked). */
static int emit_adagrad(EmitCtx *e) {
  const int dt = opt_dtype(e);
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
                                    opt_num(dt, attr_float(e->op, "epsilon", 1e-6))),
                        "mo[i] = mn;",
                        NULL};
  opt_loop(e, dt, p, ptrs, 6, pre, body);
  return 0;
}

/* rmsprop (phi RmspropDenseKernel, Eigen on CPU), with rho = decay:
 *   MeanSquareOut = rho * MeanSquare + ((1 - rho) * g) * g
 *   centered: MeanGradOut = rho * MeanGrad + (1 - rho) * g;
 *     MomentOut = momentum * Moment + (lr * g) / sqrt((MeanSquareOut -
 *     MeanGradOut * MeanGradOut) + epsilon)
 *   not centered: MomentOut = momentum * Moment + (lr * g) /
 *     sqrt(MeanSquareOut + epsilon)
 *   ParamOut = Param - MomentOut
 * Not centered, MeanGradOut (which Paddle requires: its optimizer binds it
 * to MeanGrad) keeps MeanGrad: Paddle's kernel does not touch it.  Paddle
 * requires every output in place.  MeanSquareOut and MeanGradOut are
 * bitwise Paddle's; MomentOut and ParamOut within a few ulps, as adagrad's
 * (likely Eigen's vectorized sqrt, which under EIGEN_FAST_MATH is a
 * hardware reciprocal square root and a Newton step; not checked). */
static int emit_rmsprop(EmitCtx *e) {
  const int dt = opt_dtype(e);
  int bad = opt_no_master(e);
  const int centered = attr_bool(e->op, "centered", 0);
  Var *p = opt_in(e, "Param", 1, &bad), *g = opt_in(e, "Grad", 1, &bad), *ms = opt_in(e, "MeanSquare", 1, &bad);
  Var *mom = opt_in(e, "Moment", 1, &bad), *lr = opt_scalar_in(e, "LearningRate", 1, &bad);
  Var *mg = opt_in(e, "MeanGrad", centered, &bad);
  Var *po = opt_out(e, "ParamOut", &bad), *mo = opt_out(e, "MomentOut", &bad), *mso = opt_out(e, "MeanSquareOut", &bad);
  Var *mgo = opt_out(e, "MeanGradOut", &bad);
  if (bad) return -1;
  if (!po || !mo || !mso || (centered && !mgo))
    return em_fail(e, "outputs ParamOut, MomentOut, MeanSquareOut (and MeanGradOut when centered) are required");
  if (!centered && mgo) { /* MeanGradOut keeps MeanGrad */
    if (!mg) return em_fail(e, "output MeanGradOut is bound without a MeanGrad");
    em_wrote(e, mgo);
    if (mgo != mg) {
      const OptCopy copy = {em_ptr(e, mgo, 0), em_ptr(e, mg, 1), em_ctype(mg->dtype), em_numel(e, mg)};
      opt_print_c(e->p, &(OptCall){.kind = OPT_BEGIN, .copies = &copy, .ncopies = 1});
    }
    mg = mgo = NULL;
  }
  const char *rho = opt_num(dt, attr_float(e->op, "decay", 0.9));
  const char *eps = opt_num(dt, attr_float(e->op, "epsilon", 1e-10));
  const char *mu = opt_num(dt, attr_float(e->op, "momentum", 0));
  const OptPtr ptrs[] = {{"p", p, 0},   {"g", g, 0},   {"ms", ms, 0},   {"mom", mom, 0}, {"lr_t", lr, 0},
                         {"mg", mg, 0}, {"po", po, 1}, {"mso", mso, 1}, {"mo", mo, 1},   {"mgo", mgo, 1}};
  const char *pre[] = {"const float lr = lr_t[0];", pool_printf("const float rho = %s, rest = 1.0f - rho;", rho),
                       NULL};
  const char *body[18]; /* 17 lines at most, and NULL */
  int nb = 0;
  body[nb++] = "const float gi = g[i];";
  body[nb++] = "const float kept = rho * ms[i];";
  body[nb++] = "const float rg = rest * gi;";
  body[nb++] = "const float sq = rg * gi;";
  body[nb++] = "const float msn = kept + sq;";
  if (centered) {
    body[nb++] = "const float mkept = rho * mg[i];";
    body[nb++] = "const float mgn = mkept + rg;";
    body[nb++] = "const float mg2 = mgn * mgn;";
    body[nb++] = "const float var = msn - mg2;";
    body[nb++] = pool_printf("const float den = sqrtf(var + %s);", eps);
  } else {
    body[nb++] = pool_printf("const float den = sqrtf(msn + %s);", eps);
  }
  body[nb++] = pool_printf("const float inertia = %s * mom[i];", mu);
  body[nb++] = "const float step = lr * gi;";
  body[nb++] = "const float mn = inertia + step / den;";
  body[nb++] = "po[i] = p[i] - mn;";
  body[nb++] = "mso[i] = msn;";
  body[nb++] = "mo[i] = mn;";
  if (centered) body[nb++] = "mgo[i] = mgn;";
  body[nb] = NULL;
  opt_loop(e, dt, p, ptrs, 10, pre, body);
  return 0;
}

/* adamax (phi AdamaxKernel, Eigen):
 *   MomentOut = beta1 * Moment + (1 - beta1) * g
 *   InfNormOut = max(|g|, beta2 * InfNorm + epsilon)
 *   ParamOut = Param - (lr / (1 - Beta1Pow)) * (MomentOut / InfNormOut)
 * Paddle 2.6's op has no Beta1PowOut: its Adamax optimizer multiplies
 * Beta1Pow by beta1 with a scale op of its own.  Bitwise Paddle's. */
static int emit_adamax(EmitCtx *e) {
  const int dt = opt_dtype(e);
  int bad = opt_no_master(e);
  Var *p = opt_in(e, "Param", 1, &bad), *g = opt_in(e, "Grad", 1, &bad), *mom = opt_in(e, "Moment", 1, &bad);
  Var *inf = opt_in(e, "InfNorm", 1, &bad), *lr = opt_scalar_in(e, "LearningRate", 1, &bad);
  Var *b1p = opt_scalar_in(e, "Beta1Pow", 1, &bad);
  Var *po = opt_out(e, "ParamOut", &bad), *mo = opt_out(e, "MomentOut", &bad), *io = opt_out(e, "InfNormOut", &bad);
  if (bad) return -1;
  if (!po || !mo || !io) return em_fail(e, "outputs ParamOut, MomentOut and InfNormOut are required");
  const char *b1 = opt_num(dt, attr_float(e->op, "beta1", 0.9));
  const char *b2 = opt_num(dt, attr_float(e->op, "beta2", 0.999));
  const char *eps = opt_num(dt, attr_float(e->op, "epsilon", 1e-8));
  const OptPtr ptrs[] = {{"p", p, 0},       {"g", g, 0},   {"mom", mom, 0}, {"inf", inf, 0}, {"lr_t", lr, 0},
                         {"b1p_t", b1p, 0}, {"po", po, 1}, {"mo", mo, 1},   {"io", io, 1}};
  const char *pre[] = {"const float lr = lr_t[0] / (1.0f - b1p_t[0]);",
                       pool_printf("const float b1 = %s, rest = 1.0f - b1;", b1), NULL};
  const char *body[] = {"const float gi = g[i];",
                        "const float kept = b1 * mom[i];",
                        "const float rg = rest * gi;",
                        "const float mn = kept + rg;",
                        pool_printf("const float decayed = %s * inf[i];", b2),
                        pool_printf("const float floor_ = decayed + %s;", eps),
                        "const float ag = fabsf(gi);",
                        "const float in = ag < floor_ ? floor_ : ag;",
                        "const float ratio = mn / in;",
                        "const float step = lr * ratio;",
                        "po[i] = p[i] - step;",
                        "mo[i] = mn;",
                        "io[i] = in;",
                        NULL};
  opt_loop(e, dt, p, ptrs, 9, pre, body);
  return 0;
}

/* adadelta (phi AdadeltaKernel, Eigen), Paddle 2.5 on (LearningRate):
 *   AvgSquaredGradOut = rho * AvgSquaredGrad + (1 - rho) * (g * g)
 *   update = -((sqrt(AvgSquaredUpdate + eps) / sqrt(AvgSquaredGradOut +
 *     eps)) * g)
 *   ParamOut = Param + lr * update
 *   AvgSquaredUpdateOut = rho * AvgSquaredUpdate + (1 - rho) * (update *
 *     update)
 * Older programs without LearningRate (ParamOut = Param + update) are
 * refused.  AvgSquaredGradOut is bitwise Paddle's, the others within a few
 * ulps (the square roots, as rmsprop's). */
static int emit_adadelta(EmitCtx *e) {
  const int dt = opt_dtype(e);
  int bad = opt_no_master(e);
  Var *p = opt_in(e, "Param", 1, &bad), *g = opt_in(e, "Grad", 1, &bad);
  Var *asg = opt_in(e, "AvgSquaredGrad", 1, &bad), *asu = opt_in(e, "AvgSquaredUpdate", 1, &bad);
  if (bad) return -1;
  {
    OpCtx c = {e->g, (Op *)e->op};
    if (!ctx_in(&c, "LearningRate", 0))
      return em_fail(e, "input LearningRate is missing (adadelta before Paddle 2.5 is not supported)");
  }
  Var *lr = opt_scalar_in(e, "LearningRate", 1, &bad);
  Var *po = opt_out(e, "ParamOut", &bad), *go = opt_out(e, "AvgSquaredGradOut", &bad);
  Var *uo = opt_out(e, "AvgSquaredUpdateOut", &bad);
  if (bad) return -1;
  if (!po || !go || !uo) return em_fail(e, "outputs ParamOut, AvgSquaredGradOut and AvgSquaredUpdateOut are required");
  const char *rho = opt_num(dt, attr_float(e->op, "rho", 0.95));
  const char *eps = opt_num(dt, attr_float(e->op, "epsilon", 1e-6));
  const OptPtr ptrs[] = {{"p", p, 0},   {"g", g, 0},   {"asg", asg, 0}, {"asu", asu, 0},
                         {"lr_t", lr, 0}, {"po", po, 1}, {"go", go, 1},   {"uo", uo, 1}};
  const char *pre[] = {"const float lr = lr_t[0];", pool_printf("const float rho = %s, rest = 1.0f - rho;", rho),
                       NULL};
  const char *body[] = {"const float gi = g[i], ui = asu[i];",
                        "const float kept = rho * asg[i];",
                        "const float sq = gi * gi;",
                        "const float fresh = rest * sq;",
                        "const float gn = kept + fresh;",
                        pool_printf("const float num = sqrtf(ui + %s);", eps),
                        pool_printf("const float den = sqrtf(gn + %s);", eps),
                        "const float ratio = num / den;",
                        "const float upd = -(ratio * gi);",
                        "const float step = lr * upd;",
                        "const float ukept = rho * ui;",
                        "const float usq = upd * upd;",
                        "const float ufresh = rest * usq;",
                        "po[i] = p[i] + step;",
                        "go[i] = gn;",
                        "uo[i] = ukept + ufresh;",
                        NULL};
  opt_loop(e, dt, p, ptrs, 8, pre, body);
  return 0;
}

/* lamb (phi LambKernel, funcs/lamb_functors.h), in three passes:
 *   1. per element (tasks): Moment1Out = beta1 * Moment1 + (1 - beta1) * g,
 *      Moment2Out = beta2 * Moment2 + ((1 - beta2) * g) * g, and into
 *      scratch r = (m1 / (1 - Beta1Pow)) / (sqrt(m2 / (1 - Beta2Pow)) +
 *      epsilon) + weight_decay * Param
 *   2. when weight_decay > 0 or always_adapt: the squared L2 norms of Param
 *      and r, summed in one task in element order (in double: Paddle's
 *      Eigen sum runs in float in its own order, so the trust ratio agrees
 *      to rounding, not bitwise)
 *   3. per element (tasks): ParamOut = Param - (lr * ratio) * r, ratio =
 *      |Param| / |r| when both norms are > 0, else 1
 * then Beta1PowOut = Beta1Pow * beta1, Beta2PowOut = Beta2Pow * beta2 (when
 * bound).  A SkipUpdate holding true copies every input to its output
 * (Paddle returns without writing them: in place, the same).  Bitwise
 * Paddle's in the tests (the norms' rounding could differ on other
 * data). */
static int emit_lamb(EmitCtx *e) {
  const int dt = opt_dtype(e);
  static const char *const slots[][2] = {{"Param", "ParamOut"},
                                         {"Moment1", "Moment1Out"},
                                         {"Moment2", "Moment2Out"},
                                         {"Beta1Pow", "Beta1PowOut"},
                                         {"Beta2Pow", "Beta2PowOut"}};
  int bad = opt_no_master(e);
  Var *in[5], *out[5];
  for (int k = 0; k < 5; k++) {
    in[k] = k < 3 ? opt_in(e, slots[k][0], 1, &bad) : opt_scalar_in(e, slots[k][0], 1, &bad);
    out[k] = opt_out(e, slots[k][1], &bad);
  }
  Var *g = opt_in(e, "Grad", 1, &bad), *lr = opt_scalar_in(e, "LearningRate", 1, &bad);
  Var *skip = NULL;
  if (bad || opt_skip(e, &skip)) return -1;
  if (!out[0] || !out[1] || !out[2]) return em_fail(e, "outputs ParamOut, Moment1Out and Moment2Out are required");
  const float wd = (float)attr_float(e->op, "weight_decay", 0.01);
  const int adapt = wd > 0 || attr_bool(e->op, "always_adapt", 0);
  const char *b1 = opt_num(dt, attr_float(e->op, "beta1", 0.9));
  const char *b2 = opt_num(dt, attr_float(e->op, "beta2", 0.999));
  const char *eps = opt_num(dt, attr_float(e->op, "epsilon", 1e-6));
  const SymDim n = em_sym_prod(e, in[0], 0, tu_rank(e, in[0]));
  const int64_t esz = dt == RT_DT_FP64 ? 8 : 4; /* r, then the ratio, in the update's dtype */
  const char *trd = pool_printf("((%s *)%s)", em_ctype(dt), em_scratch_at(e, "r", (SymDim){n.a * esz, n.c * esz + esz}));
  OptCall begin = {.kind = OPT_BEGIN, .lamb = 1};
  if (skip) opt_skip_open(e, skip, in, out, 5, &begin);
  opt_print_c(e->p, &begin);
  const OptPtr p1[] = {{"p", in[0], 0}, {"m1", in[1], 0},  {"m2", in[2], 0},   {"b1p_t", in[3], 0},
                       {"b2p_t", in[4], 0}, {"g", g, 0},   {"m1o", out[1], 1}, {"m2o", out[2], 1}};
  const char *pre1[] = {pool_printf("float *r = %s;", trd),
                        pool_printf("const float b1 = %s, b2 = %s;", b1, b2),
                        "const float c1 = 1.0f - b1p_t[0], c2 = 1.0f - b2p_t[0];", NULL};
  const char *body1[] = {"const float gi = g[i];",
                         "const float k1 = b1 * m1[i];",
                         "const float f1 = (1.0f - b1) * gi;",
                         "const float m1n = k1 + f1;",
                         "const float k2 = b2 * m2[i];",
                         "const float f2 = (1.0f - b2) * gi;",
                         "const float s2 = f2 * gi;",
                         "const float m2n = k2 + s2;",
                         "const float u1 = m1n / c1;",
                         "const float u2 = m2n / c2;",
                         pool_printf("const float den = sqrtf(u2) + %s;", eps),
                         pool_printf("const float decay = %s * p[i];", opt_num(dt, wd)),
                         "const float dir = u1 / den;",
                         "r[i] = dir + decay;",
                         "m1o[i] = m1n;",
                         "m2o[i] = m2n;",
                         NULL};
  opt_loop(e, dt, in[0], p1, 8, pre1, body1);
  /* 2, then 3: the tasks see the kernel's locals only through memory: the
   * ratio goes to the scratch float after r */
  opt_print_c(e->p, &(OptCall){.kind = OPT_LAMB_RATIO, .dtype = dt, .type = em_ctype(dt), .r = trd, .adapt = adapt,
                               .p = adapt ? em_ptr(e, in[0], 1) : NULL, .numel = em_numel(e, in[0])});
  const OptPtr p3[] = {{"p", in[0], 0}, {"lr_t", lr, 0}, {"po", out[0], 1}};
  const char *pre3[] = {pool_printf("const float *r = %s;", trd),
                        pool_printf("const float lr = lr_t[0] * r[%s];", em_numel(e, in[0])), NULL};
  const char *body3[] = {"const float step = lr * r[i];", "po[i] = p[i] - step;", NULL};
  opt_loop(e, dt, in[0], p3, 3, pre3, body3);
  OptCall end = {.kind = OPT_END, .lamb = 1, .skip = begin.skip};
  const char *const betas[2] = {b1, b2};
  for (int k = 3; k < 5; k++)
    if (out[k]) {
      const char *o = em_ptr(e, out[k], 0);
      end.pows[end.npows++] = (OptPow){o, pool_printf("%s[0]", em_ptr(e, in[k], 1)), betas[k - 3]};
    }
  opt_print_c(e->p, &end);
  return 0;
}

/* ---- merged optimizer ops ----
 * fuse_all_optimizer_ops and fuse_adamw (passes/) merge the ops of one
 * optimizer type that have the same attributes and read the same shared
 * inputs into one op of that type: each per-parameter slot (Param, Grad,
 * the accumulators, every output) holds one var per parameter, in program
 * order; the shared slots (LearningRate, Beta1Tensor, Beta2Tensor,
 * EpsilonTensor, SkipUpdate) hold the one var they all read.  Its kernel
 * runs each parameter's update in that order, each exactly the loop of the
 * op it replaced, so the floats are those of the separate ops.  Only an op
 * a pass made may hold several parameters (each of Paddle's updates one).
 * float64 updates merge like float32 ones: each parameter's loop is printed
 * for its own Param's dtype (Paddle's coalescing passes group parameters
 * by dtype because they copy them into one buffer; paddlec copies
 * nothing, and the shared LearningRate must have each Param's dtype). */
static const char *const shared_slots[] = {"LearningRate", "Beta1Tensor", "Beta2Tensor", "EpsilonTensor",
                                           "SkipUpdate", NULL};

int optimizer_shared_slot(const char *slot) { return str_in(slot, shared_slots); }

/* How many parameters op updates (its Param vars). */
static int nparams_of(const Op *op) {
  const Slot *p = slot_find(op->in, op->nin, "Param");
  return p ? p->n : 0;
}

/* Slots of `src` narrowed to parameter k of n: a per-parameter slot with
 * n vars keeps its k-th. */
static Slot *narrow(const Slot *src, int nslots, int k, int n) {
  Slot *t = pool_alloc(sizeof *t * (size_t)(nslots ? nslots : 1));
  for (int s = 0; s < nslots; s++) {
    t[s] = src[s];
    t[s].seen = 0;
    if (n > 1 && src[s].n == n && !optimizer_shared_slot(src[s].name)) t[s].n = 1, t[s].vars = &src[s].vars[k];
  }
  return t;
}

/* Op `op` seen as the op of its k-th parameter. */
static Op param_op(const Op *op, int k, int n) {
  Op t = *op;
  t.in = narrow(op->in, op->nin, k, n);
  t.out = narrow(op->out, op->nout, k, n);
  return t;
}

/* The slots the k-th parameter's rule or emitter looked up count as looked
 * up on the merged op. */
static void take_seen(Op *op, const Op *t) {
  for (int s = 0; s < op->nin; s++) op->in[s].seen |= t->in[s].seen;
  for (int s = 0; s < op->nout; s++) op->out[s].seen |= t->out[s].seen;
}

static int infer_optimizer_all(OpCtx *c) {
  const int n = nparams_of(c->op);
  if (n <= 1) return infer_optimizer(c);
  if (!c->op->from_pass) return ctx_fail(c, "Param holds %d vars; Paddle's %s updates one", n, c->op->type);
  for (int k = 0; k < n; k++) {
    Op t = param_op(c->op, k, n);
    OpCtx tc = *c;
    tc.op = &t;
    int bad = infer_optimizer(&tc);
    take_seen(c->op, &t);
    if (bad) return -1;
  }
  return 0;
}

static const struct {
  const char *type;
  int (*emit)(EmitCtx *e);
} emitters[] = {
    {"adadelta", emit_adadelta}, {"adagrad", emit_adagrad}, {"adam", emit_adam}, {"adamax", emit_adamax},
    {"adamw", emit_adam},       {"lamb", emit_lamb},       {"momentum", emit_momentum},
    {"rmsprop", emit_rmsprop},   {"sgd", emit_sgd},
};

static int emit_optimizer(EmitCtx *e) {
  int (*one)(EmitCtx *) = NULL;
  for (size_t i = 0; i < sizeof emitters / sizeof emitters[0] && !one; i++)
    if (!strcmp(emitters[i].type, e->op->type)) one = emitters[i].emit;
  if (!one) return em_fail(e, "no optimizer emitter for this op type");
  const int n = nparams_of(e->op);
  if (n <= 1) return one(e);
  if (!e->op->from_pass) return em_fail(e, "Param holds %d vars; Paddle's %s updates one", n, e->op->type);
  const Op *merged = e->op;
  for (int k = 0; k < n; k++) {
    Op t = param_op(merged, k, n);
    OpCtx c = {e->g, &t};
    opt_print_c(e->p, &(OptCall){.kind = OPT_PARAM_OPEN, .k = k + 1, .n = n, .name = ctx_in(&c, "Param", 0)->name});
    e->op = &t;
    int bad = one(e);
    e->op = merged;
    opt_print_c(e->p, &(OptCall){.kind = OPT_PARAM_CLOSE});
    take_seen((Op *)merged, &t);
    if (bad) return -1;
  }
  return 0;
}

const OpDef op_adadelta = {.type = "adadelta", .infer = infer_optimizer_all, .emit_c = emit_optimizer};
const OpDef op_adagrad = {.type = "adagrad", .infer = infer_optimizer_all, .emit_c = emit_optimizer};
const OpDef op_adamax = {.type = "adamax", .infer = infer_optimizer_all, .emit_c = emit_optimizer};
const OpDef op_lamb = {.type = "lamb", .infer = infer_optimizer_all, .emit_c = emit_optimizer};
const OpDef op_rmsprop = {.type = "rmsprop", .infer = infer_optimizer_all, .emit_c = emit_optimizer};
const OpDef op_sgd = {.type = "sgd", .infer = infer_optimizer_all, .emit_c = emit_optimizer};
/* momentum: Paddle 2.6's CPU kernel never reads rescale_grad (see emit_momentum) */
static const char *const momentum_attr_ignores[] = {"rescale_grad", NULL};
const OpDef op_momentum = {.type = "momentum", .infer = infer_optimizer_all, .emit_c = emit_optimizer,
                           .attr_ignores = momentum_attr_ignores};
const OpDef op_adam = {.type = "adam", .infer = infer_optimizer_all, .emit_c = emit_optimizer};
const OpDef op_adamw = {.type = "adamw", .infer = infer_optimizer_all, .emit_c = emit_optimizer};

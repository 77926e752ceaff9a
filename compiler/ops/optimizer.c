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

#include "ops.h"

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

#define OP_OPTIMIZER(name) const OpDef op_##name = {.type = #name, .infer = infer_optimizer};
OP_OPTIMIZER(adadelta)
OP_OPTIMIZER(adagrad)
OP_OPTIMIZER(adam)
OP_OPTIMIZER(adamax)
OP_OPTIMIZER(adamw)
OP_OPTIMIZER(lamb)
OP_OPTIMIZER(momentum)
OP_OPTIMIZER(rmsprop)
OP_OPTIMIZER(sgd)

/* Unary element-wise ops (activations and math): Out has X's shape and
 * dtype.  Attributes of each (Paddle op makers):
 *   relu, sigmoid, tanh, exp, sqrt, rsqrt, abs, cos, sin, reciprocal, square,
 *   log, floor, ceil, round, sign, softsign, erf, silu, mish(threshold=20),
 *   logsigmoid, tanh_shrink: none
 *   relu6(threshold=6), leaky_relu(alpha=0.02), elu(alpha=1), gelu(approximate=false),
 *   swish(beta=1), hard_swish(threshold=6, scale=6, offset=3),
 *   hard_sigmoid(slope=0.2, offset=0.5), softplus(beta=1, threshold=20),
 *   pow(factor=1), brelu(t_min=0, t_max=24), thresholded_relu(threshold=1),
 *   hard_shrink(threshold=0.5), softshrink(lambda=0.5), selu(scale, alpha),
 *   celu(alpha=1), stanh(scale_a=0.67, scale_b=1.7159), clip(min, max),
 *   scale(scale=1, bias=0, bias_after_scale=true)
 * Their C expressions come with code generation. */
#include "ops.h"

static int infer_unary(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  return 0;
}

#define OP_UNARY(name) const OpDef op_##name = {.type = #name, .infer = infer_unary};
OP_UNARY(abs)
OP_UNARY(brelu)
OP_UNARY(ceil)
OP_UNARY(celu)
OP_UNARY(clip)
OP_UNARY(cos)
OP_UNARY(elu)
OP_UNARY(erf)
OP_UNARY(exp)
OP_UNARY(floor)
OP_UNARY(gelu)
OP_UNARY(hard_shrink)
OP_UNARY(hard_sigmoid)
OP_UNARY(hard_swish)
OP_UNARY(leaky_relu)
OP_UNARY(log)
OP_UNARY(logsigmoid)
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
OP_UNARY(softplus)
OP_UNARY(softshrink)
OP_UNARY(softsign)
OP_UNARY(sqrt)
OP_UNARY(square)
OP_UNARY(stanh)
OP_UNARY(swish)
OP_UNARY(tanh)
OP_UNARY(tanh_shrink)
OP_UNARY(thresholded_relu)

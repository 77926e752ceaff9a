/* Gradient ops (`<forward>_grad`), as Paddle's default grad op makers build
 * them (spec 8.1): each output slot `S@GRAD` is the gradient of the forward
 * input bound to slot `S`, and has that input's shape and dtype (argument by
 * argument for duplicable slots).  Activation grads that keep only the
 * forward output (relu_grad, sigmoid_grad, ...: inputs Out, Out@GRAD) give
 * X@GRAD the shape of Out, as Paddle's ActivationOpGrad does.  Only grad ops whose Paddle InferShape
 * follows this rule are listed in op_list.h; others get their own file. */
#include <string.h>

#include "../util.h"
#include "ops.h"

static int infer_grad(OpCtx *c) {
  for (int s = 0; s < c->op->nout; s++) {
    const Slot *slot = &c->op->out[s];
    const char *at = strstr(slot->name, "@GRAD");
    if (!at || at[5]) continue;
    char *fwd = pool_strdup(slot->name);
    fwd[at - slot->name] = 0;
    for (int k = 0; k < slot->n; k++) {
      if (slot->vars[k] < 0) continue;
      Var *x = ctx_in(c, fwd, k);
      if (!x && strcmp(fwd, "X") == 0 && !ctx_nin(c, "X")) x = ctx_in(c, "Out", 0);
      if (!x) return ctx_fail(c, "output %s has no forward input %s[%d]", slot->name, fwd, k);
      if (x->shape.rank < 0) return ctx_fail(c, "forward input %s ('%s') has no known shape", fwd, x->name);
      ctx_set(c, slot->name, k, &x->shape, x->dtype);
    }
  }
  return 0;
}

#define OP_GRAD(name) const OpDef op_##name = {.type = #name, .infer = infer_grad};
OP_GRAD(abs_grad)
OP_GRAD(batch_norm_grad)
OP_GRAD(concat_grad)
OP_GRAD(conv2d_grad)
OP_GRAD(conv2d_transpose_grad)
OP_GRAD(depthwise_conv2d_grad)
OP_GRAD(elementwise_add_grad)
OP_GRAD(elementwise_div_grad)
OP_GRAD(elementwise_mul_grad)
OP_GRAD(elementwise_sub_grad)
OP_GRAD(exp_grad)
OP_GRAD(hard_sigmoid_grad)
OP_GRAD(hard_swish_grad)
OP_GRAD(im2sequence_grad)
OP_GRAD(lstm_grad)
OP_GRAD(matmul_v2_grad)
OP_GRAD(mean_grad)
OP_GRAD(mul_grad)
OP_GRAD(nearest_interp_grad)
OP_GRAD(pool2d_grad)
OP_GRAD(reciprocal_grad)
OP_GRAD(reduce_mean_grad)
OP_GRAD(reduce_sum_grad)
OP_GRAD(relu_grad)
OP_GRAD(sigmoid_grad)
OP_GRAD(slice_grad)
OP_GRAD(square_grad)
OP_GRAD(tanh_grad)
OP_GRAD(warpctc_grad)

/* Gradient ops (`<forward>_grad`), as Paddle's grad op makers build them
 * (spec 8.1).  Several rules, each listed with the op types whose Paddle
 * InferShape it reproduces:
 *
 *  OP_GRAD (generic, grad_infer): each output slot `S@GRAD` is the
 *    gradient of the forward input bound to slot `S` and gets that input's
 *    shape and dtype (argument by argument for duplicable slots).
 *    Activation and softmax grads that keep only the forward output (relu_grad, sigmoid_grad, softmax_grad, ...:
 *    inputs Out, Out@GRAD) give X@GRAD the shape of Out, as Paddle's
 *    ActivationOpGrad does.
 *  infer_grad_xshape: X@GRAD = XShape[1:] (reshape2_grad, transpose2_grad,
 *    ...; XShape is [0] + X.dims, spec 7.5).
 *
 * Grads with a C emitter live in their forward op's file, most with the
 * generic rule (grad_infer, ops.h).
 * Grads of ops whose rule lives elsewhere (softmax_with_cross_entropy_grad,
 * cross_entropy_grad2, huber_loss_grad, dropout_grad, ...) are in their
 * forward op's file. */
#include <string.h>

#include "../util.h"
#include "ops.h"

int grad_infer(OpCtx *c) {
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
      if (var_runtime_axis(x) >= 0) ctx_set_runtime_extent(c, slot->name, k, x->runtime_axis, x->runtime_from);
    }
  }
  return 0;
}



int infer_grad_xshape(OpCtx *c) {
  Var *xs = ctx_need(c, "XShape", 0), *dout = ctx_need(c, "Out@GRAD", 0);
  if (!xs || !dout) return -1;
  if (xs->shape.rank < 1) return ctx_fail(c, "XShape ('%s') has rank 0", xs->name);
  Shape x = {xs->shape.rank - 1, {0}};
  for (int i = 0; i < x.rank; i++) x.d[i] = xs->shape.d[i + 1];
  ctx_set(c, "X@GRAD", 0, &x, dout->dtype);
  return 0;
}


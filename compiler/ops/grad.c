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
      ctx_pass_runtime_extent(c, x, slot->name, k); /* X@GRAD is as large as X at run time too */
    }
  }
  return 0;
}



const Var *grad_forward_x(const Graph *g, const Op *op) {
  const Slot *x = slot_find(op->in, op->nin, "X");
  if (x && x->n > 0 && x->vars[0] >= 0) return &g->vars[x->vars[0]];
  const Slot *xs = slot_find(op->in, op->nin, "XShape");
  if (!xs || xs->n < 1 || xs->vars[0] < 0 || g->vars[xs->vars[0]].producer < 0) return NULL;
  const Op *fwd = &g->ops[g->vars[xs->vars[0]].producer];
  x = slot_find(fwd->in, fwd->nin, "X");
  return x && x->n > 0 && x->vars[0] >= 0 ? &g->vars[x->vars[0]] : NULL;
}

int infer_grad_xshape(OpCtx *c) {
  Var *xs = ctx_need(c, "XShape", 0), *dout = ctx_need(c, "Out@GRAD", 0);
  if (!xs || !dout) return -1;
  if (xs->shape.rank < 1) return ctx_fail(c, "XShape ('%s') has rank 0", xs->name);
  Shape x = {xs->shape.rank - 1, {0}};
  for (int i = 0; i < x.rank; i++) x.d[i] = xs->shape.d[i + 1];
  ctx_set(c, "X@GRAD", 0, &x, dout->dtype);
  if (!var_runtime_mask(dout)) return 0;
  /* dims the run gives: X@GRAD's are the forward X's (grad_forward_x) */
  const Var *fx = grad_forward_x(c->g, c->op);
  if (!fx || !var_runtime_mask(fx))
    return ctx_fail(c, "Out@GRAD ('%s') has dims only the run knows, and no forward op of X made XShape ('%s') to "
                    "give X@GRAD's", dout->name, xs->name);
  ctx_pass_runtime_extent(c, fx, "X@GRAD", 0);
  return 0;
}


/* im2sequence: X [N, C, H, W], Y? (real image sizes, run time) -> Out, a LoD
 * tensor (level 1) of image patches [N*OH*OW, C*kh*kw], dtype of X.
 *   attrs: kernels [kh, kw], strides=[1,1], paddings=[0,0,0,0] (up, left,
 *          down, right), out_stride=[1,1].
 * At compile time Paddle declares Out as [N, C*kh*kw] (the sequence length is
 * only known at run time); this rule does the same. */
#include "ops.h"

static int infer_im2sequence(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  if (xs->rank != 4) return ctx_fail(c, "X %s must have rank 4", shape_str(xs));
  int64_t *k;
  if (attr_ints(c->op, "kernels", &k) != 2) return ctx_fail(c, "kernels must have 2 values");
  Shape o = {2, {xs->d[0], xs->d[1] * k[0] * k[1]}}; /* Paddle's product, taken literally */
  ctx_set(c, "Out", 0, &o, x->dtype);
  return 0;
}

const OpDef op_im2sequence = {.type = "im2sequence", .infer = infer_im2sequence};

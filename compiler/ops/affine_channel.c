/* affine_channel: X, Scale [C], Bias [C] -> Out, X's shape and dtype;
 * Out = X * Scale + Bias per channel (C = X.dims[1], or the last dim when
 * data_layout is "NHWC").  attrs: data_layout="AnyLayout". */
#include <strings.h>

#include "ops.h"

static int infer_affine_channel(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  if (xs->rank < 2) return ctx_fail(c, "X %s must have rank >= 2", shape_str(xs));
  int nhwc = strcasecmp(attr_str(c->op, "data_layout", "AnyLayout"), "NHWC") == 0;
  int64_t ch = nhwc ? xs->d[xs->rank - 1] : xs->d[1];
  Var *scale = ctx_in(c, "Scale", 0);
  if (scale && ch > 0 && scale->shape.rank == 1 && scale->shape.d[0] > 0 && scale->shape.d[0] != ch)
    return ctx_fail(c, "Scale %s does not match the %lld channels of X %s",
                    shape_str(&scale->shape), (long long)ch, shape_str(xs));
  ctx_set(c, "Out", 0, xs, x->dtype);
  return 0;
}

const OpDef op_affine_channel = {.type = "affine_channel", .infer = infer_affine_channel};

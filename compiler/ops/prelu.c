/* prelu (Paddle PReluInferMeta): X, Alpha -> Out, X's shape and dtype.
 *   attrs: mode="all" (Alpha has one element), "channel" (one per channel:
 *          C = X.dims[1] for data_format "NCHW", the last dim for "NHWC"),
 *          "element" (one per element of a sample); data_format="NCHW".
 * The Alpha size is checked when every dim involved is known. */
#include <string.h>

#include "ops.h"

static int infer_prelu(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  Var *alpha = ctx_need(c, "Alpha", 0);
  if (!x || !alpha) return -1;
  const Shape *xs = &x->shape;
  const char *mode = attr_str(c->op, "mode", "all");
  int64_t want = -1, have = shape_numel(&alpha->shape);
  if (strcmp(mode, "all") == 0) {
    want = 1;
  } else if (strcmp(mode, "channel") == 0) {
    if (xs->rank < 2)
      return ctx_fail(c, "mode 'channel' needs X of rank >= 2, got %s", shape_str(xs));
    want = strcmp(attr_str(c->op, "data_format", "NCHW"), "NHWC") == 0 ? xs->d[xs->rank - 1]
                                                                       : xs->d[1];
  } else if (strcmp(mode, "element") == 0) {
    want = xs->rank >= 1 ? dims_prod(xs, 1, xs->rank) : 1;
  } else {
    return ctx_fail(c, "unknown mode '%s'", mode);
  }
  if (want > 0 && have > 0 && want != have)
    return ctx_fail(c, "Alpha %s has %lld values, mode '%s' of X %s needs %lld",
                    shape_str(&alpha->shape), (long long)have, mode, shape_str(xs),
                    (long long)want);
  ctx_set(c, "Out", 0, xs, x->dtype);
  return 0;
}

const OpDef op_prelu = {.type = "prelu", .infer = infer_prelu};

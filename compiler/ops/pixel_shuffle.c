/* pixel_shuffle (Paddle PixelShuffleInferMeta): X [N, C*r*r, H, W] ->
 * Out [N, C, H*r, W*r] (NHWC: [N, H, W, C*r*r] -> [N, H*r, W*r, C]), dtype of X.
 *   attrs: upscale_factor=1 (r), data_format="NCHW".
 * The arithmetic is Paddle's, applied to unknown (-1) dims as well: an unknown
 * H becomes -r and an unknown channel count -1/(r*r) = 0, as in its VarDescs. */
#include <string.h>

#include "ops.h"

static int infer_pixel_shuffle(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  if (xs->rank != 4) return ctx_fail(c, "X %s must have rank 4", shape_str(xs));
  int64_t r = attr_int(c->op, "upscale_factor", 1);
  if (r <= 0) return ctx_fail(c, "upscale_factor must be positive");
  int last = strcmp(attr_str(c->op, "data_format", "NCHW"), "NHWC") == 0;
  int ci = last ? 3 : 1, hi = last ? 1 : 2;
  if (xs->d[ci] > 0 && xs->d[ci] % (r * r))
    return ctx_fail(c, "channels of X %s are not divisible by upscale_factor^2 = %lld",
                    shape_str(xs), (long long)(r * r));
  Shape o = *xs;
  o.d[ci] = xs->d[ci] / (r * r);
  o.d[hi] = xs->d[hi] * r;
  o.d[hi + 1] = xs->d[hi + 1] * r;
  ctx_set(c, "Out", 0, &o, x->dtype);
  return 0;
}

const OpDef op_pixel_shuffle = {.type = "pixel_shuffle", .infer = infer_pixel_shuffle};

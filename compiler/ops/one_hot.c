/* one_hot, one_hot_v2: X, depth_tensor† -> Out; depth:INT (-1 in v2),
 * dtype:INT=5, allow_out_of_range:BOOLEAN=false.
 *   one_hot (v1): X's last dim (1) becomes depth.
 *   one_hot_v2: depth is appended to X's dims.
 * A depth_tensor (or a tensor-valued depth) makes that dim -1.  Out has
 * dtype `dtype`. */
#include <string.h>

#include "ops.h"

static int infer_one_hot(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t depth = attr_int(c->op, "depth", -1);
  if (ctx_in(c, "depth_tensor", 0) || attr_is_var(c->op, "depth")) depth = DIM_UNKNOWN;
  Shape s = x->shape;
  if (strcmp(c->op->type, "one_hot") == 0) {
    if (s.rank < 2) return ctx_fail(c, "X %s must have rank >= 2", shape_str(&s));
    s.d[s.rank - 1] = depth;
  } else {
    if (s.rank >= RT_MAX_RANK) return ctx_fail(c, "X %s has too many dims", shape_str(&s));
    s.d[s.rank++] = depth;
  }
  ctx_set(c, "Out", 0, &s, (int)attr_int(c->op, "dtype", RT_DT_FP32));
  return 0;
}

const OpDef op_one_hot = {.type = "one_hot", .infer = infer_one_hot};
const OpDef op_one_hot_v2 = {.type = "one_hot_v2", .infer = infer_one_hot};

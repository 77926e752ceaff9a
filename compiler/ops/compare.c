/* Comparison ops: less_than, less_equal, greater_than, greater_equal, equal,
 * not_equal.
 *   inputs:  X, Y
 *   outputs: Out (bool)
 *   attrs:   axis:INT=-1 (never used for the shape: Paddle's compile-time
 *            rule always aligns the trailing dims), force_cpu:BOOLEAN=false
 *            (legacy, placement only)
 * Shape rule (phi CompareRawInferMeta, fluid compare_op since 1.8): equal
 * shapes pass through; otherwise numpy-style right-aligned broadcasting where
 * a pair gives max(a, b) when either is > 1 or both are 1, else -1. */
#include "ops.h"

static int infer_compare(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  Shape out;
  if (shape_broadcast(c, &x->shape, &y->shape, -1, &out)) return -1; /* right-aligned */
  ctx_set(c, "Out", 0, &out, RT_DT_BOOL);
  return 0;
}

#define OP_COMPARE(name) const OpDef op_##name = {.type = #name, .infer = infer_compare};
OP_COMPARE(equal)
OP_COMPARE(greater_equal)
OP_COMPARE(greater_than)
OP_COMPARE(less_equal)
OP_COMPARE(less_than)
OP_COMPARE(not_equal)

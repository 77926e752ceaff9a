/* stack, unstack.
 *   stack: X* -> Y; axis:INT=0 (in [-(rank+1), rank]; negative += rank+1).
 *     Y = the common input shape with len(X) inserted at `axis`; a -1 in
 *     X[0] is replaced by a known dim of a later input (phi StackInferMeta
 *     reuses concat's compile-time check).
 *   unstack: X -> Y*; axis:INT=0, num:INT; each Y is X without `axis`.
 * Outputs have X[0]'s dtype. */
#include "ops.h"

static int infer_stack(OpCtx *c) {
  int n = ctx_nin(c, "X");
  Var *x0 = ctx_need(c, "X", 0);
  if (!x0) return -1;
  Shape s = x0->shape;
  for (int i = 1; i < n; i++) {
    Var *xi = ctx_need(c, "X", i);
    if (!xi) return -1;
    if (xi->shape.rank != s.rank)
      return ctx_fail(c, "X[%d] %s and X[0] %s differ in rank", i, shape_str(&xi->shape),
                      shape_str(&x0->shape));
    for (int j = 0; j < s.rank; j++) {
      int64_t a = x0->shape.d[j], b = xi->shape.d[j];
      if (a > 0 && b > 0 && a != b)
        return ctx_fail(c, "X[%d] %s and X[0] %s differ in dim %d", i, shape_str(&xi->shape),
                        shape_str(&x0->shape), j);
      if (s.d[j] == DIM_UNKNOWN && b > 0) s.d[j] = b;
    }
  }
  int64_t axis = attr_int(c->op, "axis", 0);
  if (axis < -(s.rank + 1) || axis > s.rank || s.rank + 1 > RT_MAX_RANK)
    return ctx_fail(c, "axis %lld is out of range for rank %d", (long long)axis, s.rank);
  if (axis < 0) axis += s.rank + 1;
  for (int j = s.rank; j > axis; j--) s.d[j] = s.d[j - 1];
  s.d[axis] = n;
  s.rank++;
  ctx_set(c, "Y", 0, &s, x0->dtype);
  return 0;
}

static int infer_unstack(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t a = attr_int(c->op, "axis", 0);
  int axis = axis_norm(a, x->shape.rank);
  if (axis < 0 || x->shape.rank == 0)
    return ctx_fail(c, "axis %lld is out of range for X %s", (long long)a, shape_str(&x->shape));
  Shape s = {0, {0}};
  for (int i = 0; i < x->shape.rank; i++)
    if (i != axis) s.d[s.rank++] = x->shape.d[i];
  ctx_set_all(c, "Y", &s, x->dtype);
  return 0;
}

const OpDef op_stack = {.type = "stack", .infer = infer_stack};
const OpDef op_unstack = {.type = "unstack", .infer = infer_unstack};

/* where, where_index.
 *   where: Condition, X, Y -> Out; the three have one shape (Python
 *     broadcasts them beforehand); Out has X's dims and dtype.
 *   where_index: Condition -> Out, int64 [-1, rank(Condition)] (the
 *     coordinates of the true elements; their count is known at run time). */
#include "ops.h"

static int infer_where(OpCtx *c) {
  Var *cond = ctx_need(c, "Condition", 0), *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!cond || !x || !y) return -1;
  if (cond->shape.rank != x->shape.rank || x->shape.rank != y->shape.rank)
    return ctx_fail(c, "Condition %s, X %s and Y %s differ in rank", shape_str(&cond->shape),
                    shape_str(&x->shape), shape_str(&y->shape));
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  return 0;
}

static int infer_where_index(OpCtx *c) {
  Var *cond = ctx_need(c, "Condition", 0);
  if (!cond) return -1;
  Shape s = {2, {DIM_UNKNOWN, cond->shape.rank}};
  ctx_set(c, "Out", 0, &s, RT_DT_INT64);
  return 0;
}

const OpDef op_where = {.type = "where", .infer = infer_where};
const OpDef op_where_index = {.type = "where_index", .infer = infer_where_index};

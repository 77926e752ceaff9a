/* Gathers and scatters.
 *   gather: X, Index, Axis† -> Out; axis:INT=0 (a tensor gives it at run
 *     time; Paddle then assumes axis 0).  Index is 1-D ([N] or [N, 1]) or
 *     0-D; Out = X with dim `axis` replaced by N, or removed for a 0-D Index
 *     (phi GatherInferMeta).
 *   gather_nd: X, Index -> Out = Index.dims[:-1] ++ X.dims[Index.dims[-1]:]
 *   index_select: X, Index -> Out; dim:INT=0; Out = X with dim `dim`
 *     replaced by Index.dims[0].
 *   scatter: X, Ids, Updates -> Out (X's dims); overwrite:BOOLEAN=true.
 * Out has X's dtype. */
#include "ops.h"

static int infer_gather(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *idx = ctx_need(c, "Index", 0);
  if (!x || !idx) return -1;
  const Shape *in = &x->shape, *is = &idx->shape;
  if (is->rank > 2 || (is->rank == 2 && is->d[1] != 1))
    return ctx_fail(c, "Index %s must be 0-D, [N] or [N, 1]", shape_str(is));
  int from_tensor = ctx_in(c, "Axis", 0) || attr_is_var(c->op, "axis");
  int64_t a = from_tensor ? 0 : attr_int(c->op, "axis", 0);
  if (a < 0) a += in->rank;
  if (a < 0 || a >= in->rank) return ctx_fail(c, "axis is out of range for X %s", shape_str(in));
  Shape s = {0, {0}};
  for (int i = 0; i < in->rank; i++) {
    if (i != a) s.d[s.rank++] = in->d[i];
    else if (is->rank > 0) s.d[s.rank++] = is->d[0];
  }
  ctx_set(c, "Out", 0, &s, x->dtype);
  return 0;
}

static int infer_gather_nd(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *idx = ctx_need(c, "Index", 0);
  if (!x || !idx) return -1;
  const Shape *is = &idx->shape;
  int64_t k = is->rank ? is->d[is->rank - 1] : 0;
  if (is->rank == 0 || k < 0 || k > x->shape.rank)
    return ctx_fail(c, "Index %s does not fit X %s", shape_str(is), shape_str(&x->shape));
  Shape s = {0, {0}};
  for (int i = 0; i < is->rank - 1; i++) s.d[s.rank++] = is->d[i];
  for (int i = (int)k; i < x->shape.rank; i++) {
    if (s.rank >= RT_MAX_RANK) return ctx_fail(c, "result has too many dims");
    s.d[s.rank++] = x->shape.d[i];
  }
  ctx_set(c, "Out", 0, &s, x->dtype);
  return 0;
}

static int infer_index_select(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *idx = ctx_need(c, "Index", 0);
  if (!x || !idx) return -1;
  int64_t d = attr_int(c->op, "dim", 0);
  int a = axis_norm(d, x->shape.rank);
  if (a < 0 || x->shape.rank == 0) return ctx_fail(c, "dim %lld is out of range", (long long)d);
  if (!(idx->shape.rank == 1 || (idx->shape.rank == 2 && idx->shape.d[1] == 1)))
    return ctx_fail(c, "Index %s must be [N] or [N, 1]", shape_str(&idx->shape));
  Shape s = x->shape;
  s.d[a] = idx->shape.d[0];
  ctx_set(c, "Out", 0, &s, x->dtype);
  return 0;
}

static int infer_scatter(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x || !ctx_need(c, "Ids", 0) || !ctx_need(c, "Updates", 0)) return -1;
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  return 0;
}

const OpDef op_gather = {.type = "gather", .infer = infer_gather};
const OpDef op_gather_nd = {.type = "gather_nd", .infer = infer_gather_nd};
const OpDef op_index_select = {.type = "index_select", .infer = infer_index_select};
const OpDef op_scatter = {.type = "scatter", .infer = infer_scatter};

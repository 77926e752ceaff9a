/* top_k, top_k_v2: X, K† -> Out, Indices (int64; see below for v1).
 *   top_k: k:INT=1; the last dim becomes k.  K (a tensor) is only read at
 *     run time: the compile-time shape uses the attribute (1.8.5 and 2.6).
 *   top_k_v2: k:INT=1 (may be a tensor), axis:INT=-1, largest:BOOLEAN=true,
 *     sorted:BOOLEAN=true; dim `axis` becomes k (-1 when K is given); a 0-D
 *     X stays 0-D (phi TopKInferMeta).
 * Out has X's dtype. */
#include <string.h>

#include "ops.h"

static int infer_top_k(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *in = &x->shape;
  int v2 = strcmp(c->op->type, "top_k_v2") == 0;
  int64_t axis = v2 ? attr_int(c->op, "axis", -1) : -1;
  int64_t k = attr_int(c->op, "k", 1);
  if (v2 && (ctx_in(c, "K", 0) || attr_is_var(c->op, "k"))) k = DIM_UNKNOWN;
  else if (k < 1) return ctx_fail(c, "k %lld must be >= 1", (long long)k);
  if (!v2 && in->rank < 1) return ctx_fail(c, "X must have rank >= 1");
  if (in->rank ? (axis < -in->rank || axis >= in->rank) : (axis != 0 && axis != -1))
    return ctx_fail(c, "axis %lld is out of range for X %s", (long long)axis, shape_str(in));
  Shape s = *in;
  if (s.rank > 0) s.d[axis < 0 ? axis + s.rank : axis] = k;
  ctx_set(c, "Out", 0, &s, x->dtype);
  /* top_k (v1) Indices are int64 in files up to 2.5 (1.8.5 checked); the
   * 2.6 InferShape writes int32. */
  int idx = !v2 && c->g->version >= 2006000 ? RT_DT_INT32 : RT_DT_INT64;
  ctx_set(c, "Indices", 0, &s, idx);
  return 0;
}

const OpDef op_top_k = {.type = "top_k", .infer = infer_top_k};
const OpDef op_top_k_v2 = {.type = "top_k_v2", .infer = infer_top_k};

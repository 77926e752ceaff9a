/* Embedding lookups.
 * lookup_table (v1): W [V, D], Ids [..., 1] (int64) -> Out [..., D], dtype of W.
 *   The last dim of Ids must be 1; it is replaced by D.
 * lookup_table_v2: W [V, D], Ids [...] -> Out Ids.dims + [D], dtype of W
 *   (Paddle EmbeddingInferMeta).
 *   attrs (both): padding_idx=-1 (LONG; rows equal to it read as zeros);
 *   v1 also is_sparse, is_distributed, remote_prefetch, entry_config,
 *   is_test, entry, table_class, table_names, trainer_id, slot, grad_inplace,
 *   epmap, height_sections (distributed training only, no effect on shapes). */
#include "ops.h"

static int infer_lookup(OpCtx *c, int v1) {
  Var *w = ctx_need(c, "W", 0);
  Var *ids = ctx_need(c, "Ids", 0);
  if (!w || !ids) return -1;
  const Shape *is = &ids->shape;
  if (w->shape.rank != 2)
    return ctx_fail(c, "W has shape %s, expected rank 2", shape_str(&w->shape));
  Shape o = *is;
  if (v1) {
    if (is->rank < 1 || is->d[is->rank - 1] != 1)
      return ctx_fail(c, "Ids %s must have last dim 1", shape_str(is));
    o.d[is->rank - 1] = w->shape.d[1];
  } else {
    if (is->rank + 1 > RT_MAX_RANK) return ctx_fail(c, "Ids %s has too many dims", shape_str(is));
    o.d[o.rank++] = w->shape.d[1];
  }
  ctx_set(c, "Out", 0, &o, w->dtype);
  return 0;
}

static int infer_lookup_v1(OpCtx *c) { return infer_lookup(c, 1); }
static int infer_lookup_v2(OpCtx *c) { return infer_lookup(c, 0); }

const OpDef op_lookup_table = {.type = "lookup_table", .infer = infer_lookup_v1};
const OpDef op_lookup_table_v2 = {.type = "lookup_table_v2", .infer = infer_lookup_v2};

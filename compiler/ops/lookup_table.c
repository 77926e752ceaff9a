/* Embedding lookups.
 * lookup_table (v1): W [V, D], Ids [..., 1] (int64) -> Out [..., D], dtype of W.
 *   The last dim of Ids must be 1; it is replaced by D.
 * lookup_table_v2: W [V, D], Ids [...] -> Out Ids.dims + [D], dtype of W
 *   (Paddle EmbeddingInferMeta).
 *   attrs (both): padding_idx=-1 (LONG; rows equal to it read as zeros);
 *   v1 also is_sparse, is_distributed, remote_prefetch, entry_config,
 *   is_test, entry, table_class, table_names, trainer_id, slot, grad_inplace,
 *   epmap, height_sections (distributed training only, no effect on shapes).
 * Ids' dims known only at run time (a sequence length the run gives) are
 * Out's, the gather running over the run's ids.
 * Emission: rt_gather of W's rows by Ids (int32 or int64); the row of
 * padding_idx reads as zeros; an id outside [0, V), for which Paddle raises
 * an error, stops the run (em_fault). */
#include "../util.h"
#include "embed_call.h"
#include "ops.h"
#include "tensor_util.h"

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
  if (v1 && var_runtime_mask(ids) >> (is->rank - 1) & 1)
    return ctx_fail(c, "the last dim of Ids ('%s') must be 1, not a run-time extent", ids->name);
  ctx_pass_runtime_extent(c, ids, "Out", 0); /* Ids' dims lead Out's */
  return 0;
}

static int infer_lookup_v1(OpCtx *c) { return infer_lookup(c, 1); }
static int infer_lookup_v2(OpCtx *c) { return infer_lookup(c, 0); }

/* padding_idx as a C literal, NULL for -1 (none). */
static const char *pad_literal(int64_t pad) {
  return pad == -1 ? NULL : pool_printf("INT64_C(%lld)", (long long)pad);
}

static int emit_lookup(EmitCtx *e) {
  Var *w = tu_in(e, "W", 0), *ids = tu_in(e, "Ids", 0), *out = tu_out(e, "Out", 0);
  if (!w || !ids || !out) return -1;
  if (ids->dtype != RT_DT_INT64 && ids->dtype != RT_DT_INT32)
    return em_fail(e, "Ids is %s; int32 or int64 expected", rt_dtype_name(ids->dtype));
  int64_t pad = attr_int(e->op, "padding_idx", -1);
  const char *row = tu_mul(em_dim(e, w, 1), pool_printf("(int64_t)sizeof(%s)", em_ctype(w->dtype)));
  em_fault(e, em_spec(e, w)->runtime_mask & 1 /* W's rows counted by the run (a gather's) */
                  ? "an id is outside [0, W's rows in this run) (Paddle raises an error)"
                  : pool_printf("an id is outside [0, %s), W's rows (Paddle raises an error)", em_dim(e, w, 0)));
  embed_print_c(e->p, &(EmbedCall){.kind = EMBED_LOOKUP, .w = em_ptr(e, w, 1), .rows = em_dim(e, w, 0), .row = row,
                                   .ids = em_ptr(e, ids, 1), .ids_bytes = ids->dtype == RT_DT_INT32 ? 4 : 8,
                                   .count = em_numel(e, ids), .pad = pad_literal(pad), .out = em_ptr(e, out, 0)});
  return 0;
}

/* Distributed training's attributes and is_sparse (the gradient's format):
 * the forward lookup is the same whatever they say. */
static const char *const lookup_attr_ignores[] = {"is_sparse", "is_distributed", "remote_prefetch", "entry_config",
                                                  "is_test", "entry", "table_class", "table_names", "trainer_id",
                                                  "slot", "grad_inplace", "epmap", "height_sections", NULL};
const OpDef op_lookup_table = {.type = "lookup_table", .infer = infer_lookup_v1, .emit_c = emit_lookup,
                               .attr_ignores = lookup_attr_ignores, .runtime_extents = 2};
const OpDef op_lookup_table_v2 = {.type = "lookup_table_v2", .infer = infer_lookup_v2, .emit_c = emit_lookup,
                                  .attr_ignores = lookup_attr_ignores, .runtime_extents = 2};

/* lookup_table_grad, lookup_table_v2_grad (W, Ids, Out@GRAD -> W@GRAD; phi
 * EmbeddingGradKernel, dense): W@GRAD starts at zeros and each id's row of
 * Out@GRAD is added to row id, in id order; padding_idx's row (and, where
 * Paddle raises an error, an id outside [0, V)) gets nothing.  is_sparse
 * (a SelectedRows W@GRAD) is refused. */
static int emit_lookup_grad(EmitCtx *e) {
  Var *w = tu_in(e, "W", 0), *ids = tu_in(e, "Ids", 0), *dout = tu_in(e, "Out@GRAD", 0), *dw = tu_out(e, "W@GRAD", 0);
  if (!w || !ids || !dout || !dw) return -1;
  if (attr_bool(e->op, "is_sparse", 0)) return em_fail(e, "is_sparse (a SelectedRows W@GRAD) is not supported");
  if (ids->dtype != RT_DT_INT64 && ids->dtype != RT_DT_INT32)
    return em_fail(e, "Ids is %s; int32 or int64 expected", rt_dtype_name(ids->dtype));
  if (tu_rank(e, w) != 2 || (dw->dtype != RT_DT_FP32 && dw->dtype != RT_DT_FP64) || dout->dtype != dw->dtype)
    return em_fail(e, "W@GRAD must be 2-D float32 or float64 with Out@GRAD's dtype");
  int64_t pad = attr_int(e->op, "padding_idx", -1);
  embed_print_c(e->p, &(EmbedCall){.kind = EMBED_LOOKUP_GRAD, .type = em_ctype(dw->dtype),
                                   .ids_type = em_ctype(ids->dtype), .ids = em_ptr(e, ids, 1),
                                   .dout = em_ptr(e, dout, 1), .dw = em_ptr(e, dw, 0), .rows = em_dim(e, w, 0),
                                   .row = em_dim(e, w, 1), .count = em_numel(e, ids),
                                   .pad = pad_literal(pad)});
  return 0;
}

/* Ids may have run-time extents (their count is the run's); W@GRAD is W's. */
const OpDef op_lookup_table_grad = {.type = "lookup_table_grad", .infer = grad_infer, .emit_c = emit_lookup_grad,
                                    .attr_ignores = lookup_attr_ignores, .runtime_extents = 2};
const OpDef op_lookup_table_v2_grad = {.type = "lookup_table_v2_grad", .infer = grad_infer,
                                       .emit_c = emit_lookup_grad, .attr_ignores = lookup_attr_ignores,
                                       .runtime_extents = 2};

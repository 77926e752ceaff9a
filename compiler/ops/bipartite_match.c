/* bipartite_match (fluid detection op): DistMat [K, M] ->
 * ColToRowMatchIndices (int32), ColToRowMatchDist (DistMat's dtype);
 * match_type:STRING="bipartite" ("per_prediction"), dist_threshold:FLOAT=0.5.
 * Shape rule (BipartiteMatchOp::InferShape): DistMat has rank 2 and both
 * outputs get its dims at compile time.  At run time they are [N, M] with
 * N the number of sequences in DistMat's LoD, and [1, M] without LoD --
 * which is what paddlec compiles (it has no LoD), so while specializing the
 * rule gives [1, M].  A DistMat whose VarDesc carries LoD is refused.
 * Emission (float32): rt_bipartite_match_f32 (runtime/rt_bipartite_match.c):
 * Paddle's greedy matching of the whole matrix, by std::sort of all pairs
 * from 130 rows on, then ArgMaxMatch for per_prediction. */
#include <string.h>

#include "detection_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_bipartite_match(OpCtx *c) {
  Var *d = ctx_need(c, "DistMat", 0);
  if (!d) return -1;
  if (d->shape.rank != 2) return ctx_fail(c, "DistMat %s must have rank 2", shape_str(&d->shape));
  const char *type = attr_str(c->op, "match_type", "bipartite");
  if (strcmp(type, "bipartite") && strcmp(type, "per_prediction"))
    return ctx_fail(c, "match_type '%s' is not bipartite or per_prediction", type);
  Shape o = d->shape;
  if (c->g->specializing) o.d[0] = 1;
  ctx_set(c, "ColToRowMatchIndices", 0, &o, RT_DT_INT32);
  ctx_set(c, "ColToRowMatchDist", 0, &o, d->dtype);
  return 0;
}

static int emit_bipartite_match(EmitCtx *e) {
  Var *d = tu_in(e, "DistMat", 0), *idx = tu_out(e, "ColToRowMatchIndices", 0);
  Var *dist = tu_out(e, "ColToRowMatchDist", 0);
  if (!d || !idx || !dist) return -1;
  if (d->lod_level > 0)
    return em_fail(e, "DistMat '%s' is a LoD tensor (one matching per sequence), which paddlec does not support",
                   d->name);
  if (d->dtype != RT_DT_FP32 || dist->dtype != RT_DT_FP32 || idx->dtype != RT_DT_INT32)
    return em_fail(e, "bipartite_match of %s distances is not supported (float32, int32 indices)",
                   rt_dtype_name(d->dtype));
  SymDim rows = em_spec(e, d)->d[0], cols = em_spec(e, d)->d[1];
  if (cols.a != 0) return em_fail(e, "DistMat's column count depends on the batch");
  SymDim work = {rows.a * (cols.c * 12 + 4), rows.c * (cols.c * 12 + 4)};
  pr_line(e->p, "/* %s matching of the whole DistMat (no LoD: one instance) */",
          attr_str(e->op, "match_type", "bipartite"));
  detection_print_c(e->p, &(DetectionCall){.kind = DETECTION_BIPARTITE_MATCH, .dist = em_ptr(e, d, 1),
                                           .row = em_dim(e, d, 0), .col = em_dim(e, d, 1),
                                           .per_prediction = !strcmp(attr_str(e->op, "match_type", "bipartite"),
                                                                     "per_prediction"),
                                           .threshold = em_float((float)attr_float(e->op, "dist_threshold", 0.5)),
                                           .match_indices = em_ptr(e, idx, 0), .match_dist = em_ptr(e, dist, 0),
                                           .work = em_scratch_named(e, "unsigned char", "work", work)});
  return 0;
}

const OpDef op_bipartite_match = {.type = "bipartite_match", .infer = infer_bipartite_match,
                                  .emit_c = emit_bipartite_match};

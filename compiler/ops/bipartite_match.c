/* bipartite_match (fluid detection op): DistMat [K, M] ->
 * ColToRowMatchIndices (int32), ColToRowMatchDist (DistMat's dtype);
 * match_type:STRING="bipartite" ("per_prediction"), dist_threshold:FLOAT=0.5.
 * Shape rule (BipartiteMatchOp::InferShape): DistMat has rank 2 and both
 * outputs get its dims at compile time.  At run time they are [N, M] with
 * N the number of sequences in DistMat's LoD, and [1, M] without LoD --
 * which is what paddlec compiles (it has no LoD), so while specializing the
 * rule gives [1, M].  A DistMat whose VarDesc carries LoD is refused.
 * Emission: rt_bipartite_match_f32, or rt_bipartite_match_f64 for float64
 * distances (runtime/rt_bipartite_match.c): Paddle's greedy matching of
 * the whole matrix, by std::sort of all pairs from 130 rows on, then
 * ArgMaxMatch for per_prediction (the float dist_threshold, a float
 * literal, converted to T by the call as by the kernel). */
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
  const int dt = tu_float_dtype(e, (Var *const[]){d, dist}, 2), f64 = dt == RT_DT_FP64;
  if (dt < 0) return -1;
  if (idx->dtype != RT_DT_INT32)
    return em_fail(e, "ColToRowMatchIndices is %s; int32 expected", rt_dtype_name(idx->dtype));
  SymDim rows = em_spec(e, d)->d[0], cols = em_spec(e, d)->d[1];
  if (cols.a != 0) return em_fail(e, "DistMat's column count depends on the batch");
  const int64_t pair = f64 ? 16 : 12; /* RT_BIPARTITE_WORK_BYTES: (row, column, distance) */
  SymDim work = {rows.a * (cols.c * pair + 4), rows.c * (cols.c * pair + 4)};
  const char *dp = em_ptr(e, d, 1), *ip = em_ptr(e, idx, 0), *distp = em_ptr(e, dist, 0);
  detection_print_c(e->p, &(DetectionCall){.kind = DETECTION_BIPARTITE_MATCH, .f64 = f64, .dist = dp,
                                           .row = em_dim(e, d, 0), .col = em_dim(e, d, 1),
                                           .per_prediction = !strcmp(attr_str(e->op, "match_type", "bipartite"),
                                                                     "per_prediction"),
                                           .threshold = em_float((float)attr_float(e->op, "dist_threshold", 0.5)),
                                           .match_indices = ip, .match_dist = distp,
                                           .work = em_scratch_named(e, "unsigned char", "work", work)});
  return 0;
}

const OpDef op_bipartite_match = {.type = "bipartite_match", .infer = infer_bipartite_match,
                                  .emit_c = emit_bipartite_match};

/* beam_search_decode (1.x fluid.layers.beam_search_decode): the sentences
 * a beam search kept, walked back through its steps.
 *
 *   Ids (a tensor array of int64 LoD tensors [M_t, 1]: each step's
 *   selected_ids), Scores (the same of float32 or float64: each step's
 *   selected_scores)
 *     -> SentenceIds [N] int64, SentenceScores [N] (Scores' dtype).
 *   beam_size:INT, end_id:INT (both required).
 *
 * Paddle's kernel (fluid beam_search_decode_op.cc and _def.h; no
 * InferShape of dims) reads every element's LoD of two levels (level 0:
 * each source's prefixes, level 1: each prefix's candidates) and walks
 * from the last step back: each source gets beam_size sentences, sorted by
 * the score of their last step (highest first), written in step order;
 * both outputs carry the LoD it makes (OpDef.lod_made 2): level 0 beam_size
 * sentences a source, level 1 each sentence's tokens.  N is a run-time
 * extent (one root for both), sized while specializing for L steps of
 * beam_size sentences of at most `rows` sources (L the arrays' length,
 * rows the most an element of Ids has).
 *
 * Emission (beam_call.h prints it): rt_beam_search_decode
 * (runtime/rt_beam_search_decode.c).  The arrays are arrays of LoD tensors
 * (tensor_array.c: each element's rows and LoD kept in a slot beside it),
 * every write into Ids carrying a LoD of two levels.  The run stops
 * (MODEL_ERR_SHAPE) where Paddle stops or crashes: arrays of different
 * lengths or empty, no source or more than the outputs have room for, a
 * source with more candidates than beam_size where its sentences start
 * (Paddle: out of range) or, with beam_size above 1, fewer sentences than
 * beam_size at the end (Paddle sorts an empty sentence's score: a crash),
 * a candidate past the rows of Scores' element, a LoD that does not fit
 * its rows, a NaN score among more than 16 sentences (Paddle's `>` then
 * has no order std::sort can rely on). */
#include <string.h>

#include "../util.h"
#include "beam_call.h"
#include "ops.h"
#include "rt_beam_search_decode.h"
#include "tensor_util.h"

enum { BEAM_MAX = 1 << 16 }; /* a larger beam_size is refused: the sizes stay far from overflow */

/* Input `slot`: a tensor array some op wrote. */
static Var *need_array(OpCtx *c, const char *slot) {
  Var *a = ctx_need(c, slot, 0);
  if (!a) return NULL;
  if (a->vtype != VT_LOD_TENSOR_ARRAY) return ctx_fail(c, "%s '%s' is not a tensor array", slot, a->name), NULL;
  if (!(a->flags & VAR_INFERRED))
    return ctx_fail(c, "%s '%s' is read before any op writes it (Paddle: an empty array)", slot, a->name), NULL;
  return a;
}

static int infer_beam_search_decode(OpCtx *c) {
  Var *ids = need_array(c, "Ids"), *scores = need_array(c, "Scores");
  if (!ids || !scores) return -1;
  const int64_t beam = attr_int(c->op, "beam_size", 0);
  if (beam < 1 || beam > BEAM_MAX) return ctx_fail(c, "beam_size %lld is outside [1, %d]", (long long)beam, BEAM_MAX);
  if (ids->shape.rank < 1 || scores->shape.rank < 1)
    return ctx_fail(c, "Ids '%s' and Scores '%s' must hold tensors of rank >= 1 (rows)", ids->name, scores->name);
  if (ids->dtype != RT_DT_INT64)
    return ctx_fail(c, "Ids '%s' holds %s: Paddle's kernel reads it as int64", ids->name, rt_dtype_name(ids->dtype));
  if (scores->dtype != RT_DT_FP32 && scores->dtype != RT_DT_FP64)
    return ctx_fail(c, "Scores '%s' holds %s: paddlec takes float32 and float64 scores", scores->name,
                    rt_dtype_name(scores->dtype));
  Shape out = {1, {DIM_UNKNOWN}};
  const int fixed = c->g->specializing && ids->arr_len >= 0 && ids->shape.rank >= 1 && ids->shape.d[0] >= 0;
  if (fixed) out.d[0] = ids->arr_len * beam * (ids->shape.d[0] > 0 ? ids->shape.d[0] : 1);
  ctx_set(c, "SentenceIds", 0, &out, RT_DT_INT64);
  ctx_set(c, "SentenceScores", 0, &out, scores->dtype);
  if (!fixed) return 0;
  const char *from = pool_printf("the sentences beam_search_decode walks back through Ids ('%s')", ids->name);
  ctx_set_runtime_extent(c, "SentenceIds", 0, 0, from);
  ctx_set_runtime_extent(c, "SentenceScores", 0, 0, from);
  ctx_inherit_root(ctx_out(c, "SentenceScores", 0), ctx_out(c, "SentenceIds", 0), 1);
  return 0;
}

/* Every write into array a carries a LoD of two levels (Paddle checks each
 * element of Ids); -1 after em_fail. */
static int writes_two_levels(EmitCtx *e, const Var *a) {
  const int id = (int)(a - e->g->vars);
  for (int o = 0; o < e->g->nops; o++) {
    const Op *op = &e->g->ops[o];
    if (op->removed || strcmp(op->type, "write_to_array") || slot_first(op->out, op->nout, "Out") != id) continue;
    const int x = slot_first(op->in, op->nin, "X");
    const char *why = "";
    int levels = 0;
    if (x >= 0 && op_lod_input_levels(e->g, e->spec, &e->g->vars[x], &levels, &why) >= 0 && levels == 2) continue;
    return em_fail(e, "Ids '%s' is written by %s with '%s', which carries %s: Paddle's kernel takes elements with a "
                   "LoD of two levels", a->name, graph_op_where(e->g, op), x >= 0 ? e->g->vars[x].name : "?",
                   levels ? "a LoD of one level" : pool_printf("no LoD (%s)", why));
  }
  return 0;
}

/* The array as rt_beam_search_decode reads it; -1 after em_fail. */
static int decode_array(EmitCtx *e, const char *slot, Var *a, BeamDecodeArray *out) {
  const int rank = tu_rank(e, a);
  if (rank > 3 || (rank == 3 && em_const_dim(e, a, 2) != 1))
    return em_fail(e, "%s '%s' holds elements %s: paddlec takes [rows] or [rows, 1] (Paddle reads them flat)", slot,
                   a->name, shape_str(&a->shape));
  out->slots = em_array_lod(e, a, (SymDim){-1, 0}, &out->cap);
  if (!out->slots)
    return em_fail(e, "%s '%s' is no array of LoD tensors: no write into it carries a LoD", slot, a->name);
  out->data = em_ptr(e, a, 1);
  out->stride = em_prod(e, a, 1, rank);
  out->len = em_array_len(e, a);
  return 0;
}

static int emit_beam_search_decode(EmitCtx *e) {
  Var *ids = tu_in(e, "Ids", 0), *scores = tu_in(e, "Scores", 0);
  Var *sent_ids = tu_out(e, "SentenceIds", 0), *sent_scores = tu_out(e, "SentenceScores", 0);
  if (!ids || !scores || !sent_ids || !sent_scores) return -1;
  if (var_runtime_axis(sent_ids) != 0)
    return em_fail(e, "SentenceIds ('%s') must have a length known at run time", sent_ids->name);
  BeamDecodeCall call = {.f64 = scores->dtype == RT_DT_FP64, .beam_size = attr_int(e->op, "beam_size", 0),
                         .end_id = attr_int(e->op, "end_id", 0)};
  if (writes_two_levels(e, ids) || decode_array(e, "Ids", ids, &call.ids) ||
      decode_array(e, "Scores", scores, &call.scores))
    return -1;
  const SymDim src = em_spec(e, ids)->d[1]; /* the most rows an element has: the most sources */
  const int64_t beam = call.beam_size, steps = em_bound_dim(e, ids, 0);
  call.max_src = em_dim(e, ids, 1);
  Var *made[2] = {sent_ids, sent_scores};
  for (int i = 0; i < 2; i++) {
    call.made[i] = op_lod_input_levels(e->g, e->spec, made[i], NULL, NULL);
    call.made_rows[i] = em_makes_lod(e, call.made[i], (SymDim){src.a * beam, src.c * beam + 1});
    call.made_outer[i] = em_makes_lod_outer(e, call.made[i]);
  }
  const int64_t fixed = RT_BEAM_DECODE_WORK(0, beam, steps), per_src = RT_BEAM_DECODE_WORK(1, beam, steps) - fixed;
  call.work = em_scratch_named(e, "int64_t", "work", (SymDim){src.a * per_src, src.c * per_src + fixed});
  call.out_ids = em_ptr(e, sent_ids, 0);
  call.out_scores = em_ptr(e, sent_scores, 0);
  call.tokens[0] = em_dim(e, sent_ids, 0);
  const char *more = em_dim(e, sent_scores, 0);
  call.tokens[1] = strcmp(more, call.tokens[0]) ? more : NULL;
  em_fault(e, "beam_search_decode: Ids and Scores differ in length or are empty, the first step has no source or more "
           "than paddlec planned for, a source has more candidates than beam_size where its sentences start or "
           "(beam_size > 1) fewer sentences than beam_size at the end (Paddle crashes there), a step's LoD does "
           "not fit its rows or Scores' rows, or a NaN score among more than 16 sentences");
  pr_line(e->p, "/* each source's %lld sentences, walked back through the steps of '%s' and sorted by score; the LoD "
          "made: the sources, then each sentence's tokens */", (long long)beam, ids->name);
  beam_decode_print_c(e->p, &call);
  return 0;
}

/* Both outputs carry the 2-level LoD the kernel makes. */
static int beam_search_decode_lod_made(const Graph *g, const Op *op, int var) {
  (void)g;
  return slot_first(op->out, op->nout, "SentenceIds") == var || slot_first(op->out, op->nout, "SentenceScores") == var
             ? 2
             : 0;
}

const OpDef op_beam_search_decode = {.type = "beam_search_decode", .infer = infer_beam_search_decode,
                                     .emit_c = emit_beam_search_decode, .lod_made = beam_search_decode_lod_made};

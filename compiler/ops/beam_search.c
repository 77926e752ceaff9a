/* beam_search (1.x fluid.layers.beam_search): one step of beam search over
 * LoD tensors.
 *
 *   pre_ids [R, 1] int64, pre_scores [R, 1] float32 (the R prefixes of the
 *   step before), ids† [R, W] int64 (the candidates' ids; absent: the
 *   column), scores [R, W] float32 with a LoD (its level `level` groups the
 *   prefixes by source sentence)
 *     -> selected_ids [M, 1] int64, selected_scores [M, 1] float32,
 *        parent_idx† [M] int32 (the prefix each extends).
 *   level:INT, beam_size:INT, end_id:INT (required), is_accumulated:BOOL=true.
 *
 * Paddle's InferShape sets no dims (the Python layer declares [-1, 1] and
 * [-1]): at compile time the rule gives those.  At run time M is what the
 * kernel keeps: at most beam_size a source with rows, so while
 * specializing the outputs are sized for R * beam_size rows, or for S *
 * beam_size when fewer: S the most sources level 0 of a 2-level LoD may
 * hold (sources_bound: a feed's rows, which its LoD's sequences never
 * exceed, carried through the beam_search steps that read level 0 and
 * keep the sources, and through tensor arrays read back, in a loop's
 * body too) -- what keeps the 1.x decoder's steps at one size instead of
 * beam_size times the step before; a run-time extent (one root for the
 * three), the run stopping should a run bring more sources.  Both
 * selected outputs carry the LoD the kernel makes
 * (OpDef.lod_made 2): level 0 the sources as rows of scores (Paddle's
 * absolute offsets of scores' level `level`), level 1 where each prefix's
 * kept candidates start.
 *
 * Emission (beam_call.h prints it): rt_beam_search
 * (runtime/rt_beam_search.c), Paddle 2.6's CPU
 * kernel (fluid operators/math/beam_search.cc) step for step: per source
 * the best beam_size candidates in Insert's order, a prefix ending in
 * end_id offering only (end_id, its pre_score), is_accumulated false
 * scoring pre_score + log(score), and a source whose kept candidates all
 * end after ended prefixes pruned.  scores' LoD is a feed's (lod_level 1 or
 * 2) or passed on to it: a level-1 LoD with level 0, or a 2-level one with
 * level 0 (its level 0 made absolute through its level 1) or 1.  The dtypes
 * are the ones the functor reads (data<int64_t>, data<float>); others, a
 * beam_size below 1 and a level outside the LoD are refused.  The run
 * stops (MODEL_ERR_SHAPE) when pre_ids or pre_scores has fewer rows than
 * scores, or ids' dims are not scores'. */
#include <string.h>

#include "../util.h"
#include "beam_call.h"
#include "ops.h"
#include "rt_beam_search.h"
#include "tensor_util.h"

enum { BEAM_MAX = 1 << 16 }; /* a larger beam_size is refused: the sizes stay far from overflow */

enum { SRC_CYCLE = -4 }; /* sources_walk: back at a var on the walk */

/* The most sources level 0 of the 2-level LoD v carries may hold, while
 * inferring: a feed's rows (lod_check: no more sequences than rows), those
 * of the LoD the beam_search that made v's read at level 0 (it keeps the
 * sources), or the most of those the writes into a read_from_array's
 * array put there (in block 0 the writes before the read; in a loop's
 * body every write, the body's own among them); -1 when not known.
 * Around a loop (the body reads what it writes on the trip before) the
 * walk meets a var it is on: SRC_CYCLE, which adds nothing (each trip
 * keeps the sources of the one before), so the bound is the most the
 * walk's other ends bring.  memo[id]: -3 unseen, -2 on the walk. */
static int64_t sources_walk(const Graph *g, const Var *v, int64_t *memo) {
  const int id = (int)(v - g->vars);
  if (memo[id] != -3) return memo[id] == -2 ? SRC_CYCLE : memo[id];
  memo[id] = -2;
  const char *why;
  int levels;
  const int k = op_lod_input_levels(g, NULL, v, &levels, &why);
  int64_t r = -1;
  if (k >= 0 && levels == 2 && k < g->nfeeds) {
    const Var *f = &g->vars[g->feeds[k]];
    r = f->shape.rank >= 1 ? f->shape.d[0] : -1;
  } else if (k >= 0 && levels == 2) {
    const int made = g->vars[op_lod_made_var(g, k - g->nfeeds)].producer;
    const Op *op = &g->ops[made];
    const int in = slot_first(op->in, op->nin, !strcmp(op->type, "beam_search") ? "scores" : "X");
    if (!strcmp(op->type, "beam_search") && attr_int(op, "level", 0) == 0 && in >= 0) {
      r = sources_walk(g, &g->vars[in], memo);
    } else if (!strcmp(op->type, "read_from_array") && in >= 0) {
      r = SRC_CYCLE;
      for (int o = 0; o < g->nops && r != -1; o++) {
        const Op *w = &g->ops[o];
        if (w->removed || (op->block == 0 && w->block == 0 && o > made) || strcmp(w->type, "write_to_array") ||
            slot_first(w->out, w->nout, "Out") != in)
          continue;
        const int x = slot_first(w->in, w->nin, "X");
        const int64_t b = x >= 0 ? sources_walk(g, &g->vars[x], memo) : -1;
        if (b == -1 || (b != SRC_CYCLE && b > r)) r = b;
      }
    }
  }
  memo[id] = r;
  return r;
}

static int64_t sources_bound(const Graph *g, const Var *v) {
  int64_t *memo = pool_alloc(sizeof *memo * ((size_t)g->nvars + 1));
  for (int i = 0; i < g->nvars; i++) memo[i] = -3;
  const int64_t r = sources_walk(g, v, memo);
  return r == SRC_CYCLE ? -1 : r;
}

static int infer_beam_search(OpCtx *c) {
  Var *pre_ids = ctx_need(c, "pre_ids", 0), *pre_scores = ctx_need(c, "pre_scores", 0);
  Var *scores = ctx_need(c, "scores", 0);
  if (!pre_ids || !pre_scores || !scores) return -1;
  const int64_t beam = attr_int(c->op, "beam_size", 0);
  if (beam < 1 || beam > BEAM_MAX) return ctx_fail(c, "beam_size %lld is outside [1, %d]", (long long)beam, BEAM_MAX);
  if (scores->shape.rank < 1) return ctx_fail(c, "scores %s must have rank >= 1", shape_str(&scores->shape));
  Shape sel = {2, {DIM_UNKNOWN, 1}}, parent = {1, {DIM_UNKNOWN}};
  const int64_t rows = scores->shape.d[0];
  const int fixed = c->g->specializing && rows >= 0;
  if (fixed) {
    const int64_t src = attr_int(c->op, "level", 0) == 0 ? sources_bound(c->g, scores) : -1;
    const int64_t most = src >= 0 && src < rows ? src : rows;
    sel.d[0] = parent.d[0] = most * beam > 0 ? most * beam : 1;
  }
  ctx_set(c, "selected_ids", 0, &sel, RT_DT_INT64);
  ctx_set(c, "selected_scores", 0, &sel, RT_DT_FP32);
  ctx_set(c, "parent_idx", 0, &parent, RT_DT_INT32);
  if (!fixed) return 0;
  const char *from = pool_printf("the candidates beam_search keeps of scores ('%s')", scores->name);
  ctx_set_runtime_extent(c, "selected_ids", 0, 0, from);
  ctx_set_runtime_extent(c, "selected_scores", 0, 0, from);
  ctx_set_runtime_extent(c, "parent_idx", 0, 0, from);
  Var *ids = ctx_out(c, "selected_ids", 0);
  ctx_inherit_root(ctx_out(c, "selected_scores", 0), ids, 1);
  ctx_inherit_root(ctx_out(c, "parent_idx", 0), ids, 1);
  return 0;
}

/* v's dtype is `want` (what the functor reads it as); -1 after em_fail. */
static int dtype_is(EmitCtx *e, const char *slot, const Var *v, int want) {
  if (v->dtype == want) return 0;
  return em_fail(e, "%s ('%s') is %s; Paddle's kernel reads it as %s", slot, v->name, rt_dtype_name(v->dtype),
                 rt_dtype_name(want));
}

static int emit_beam_search(EmitCtx *e) {
  Var *pre_ids = tu_in(e, "pre_ids", 0), *pre_scores = tu_in(e, "pre_scores", 0), *scores = tu_in(e, "scores", 0);
  Var *sel_ids = tu_out(e, "selected_ids", 0), *sel_scores = tu_out(e, "selected_scores", 0);
  if (!pre_ids || !pre_scores || !scores || !sel_ids || !sel_scores) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  Var *ids = ctx_in(&c, "ids", 0), *parent = ctx_out(&c, "parent_idx", 0);
  if (dtype_is(e, "pre_ids", pre_ids, RT_DT_INT64) || dtype_is(e, "pre_scores", pre_scores, RT_DT_FP32) ||
      dtype_is(e, "scores", scores, RT_DT_FP32) || (ids && dtype_is(e, "ids", ids, RT_DT_INT64)))
    return -1;
  if (var_runtime_axis(sel_ids) != 0)
    return em_fail(e, "selected_ids ('%s') must have rows known at run time", sel_ids->name);
  const int64_t level = attr_int(e->op, "level", 0);
  const char *why;
  int levels;
  const int k = op_lod_input_levels(e->g, e->spec, scores, &levels, &why);
  if (k < 0)
    return em_fail(e, "scores ('%s') must carry a LoD (a feed's of lod_level 1 or 2): %s", scores->name, why);
  if (level < 0 || level >= levels)
    return em_fail(e, "level %lld is not a level of the LoD scores ('%s') carries (it has %d)", (long long)level,
                   scores->name, levels);
  em_reads_lod(e, k);
  const SymDim rows = em_spec(e, scores)->d[0], bound = {rows.a, rows.c + 1};
  const int64_t beam = attr_int(e->op, "beam_size", 0);
  BeamCall call = {.rows = em_dim(e, scores, 0), .width = em_prod(e, scores, 1, scores->shape.rank),
                   .pre_rows = {em_dim(e, pre_ids, 0), em_dim(e, pre_scores, 0)},
                   .pre_ids = em_ptr(e, pre_ids, 1), .pre_scores = em_ptr(e, pre_scores, 1),
                   .scores = em_ptr(e, scores, 1), .lod = k, .outer = levels == 2 && level == 0,
                   .beam_size = beam, .end_id = attr_int(e->op, "end_id", 0),
                   .is_accumulated = attr_bool(e->op, "is_accumulated", 1)};
  if (ids) {
    call.ids_rows = em_dim(e, ids, 0);
    call.ids_width = em_prod(e, ids, 1, ids->shape.rank);
    call.ids = em_ptr(e, ids, 1);
  }
  Var *made[2] = {sel_ids, sel_scores};
  for (int i = 0; i < 2; i++) {
    call.made[i] = op_lod_input_levels(e->g, e->spec, made[i], NULL, NULL);
    call.made_rows[i] = em_makes_lod(e, call.made[i], bound);
    call.made_outer[i] = em_makes_lod_outer(e, call.made[i]);
  }
  call.top = em_scratch_named(e, "RtBeamItem", "top", (SymDim){0, beam * (int64_t)sizeof(RtBeamItem)});
  call.sel_ids = em_ptr(e, sel_ids, 0);
  call.sel_scores = em_ptr(e, sel_scores, 0);
  call.parent = parent ? em_ptr(e, parent, 0) : NULL;
  call.kept = em_dim(e, sel_ids, 0);
  const char *more[2] = {em_dim(e, sel_scores, 0), parent ? em_dim(e, parent, 0) : NULL};
  for (int i = 0; i < 2; i++) /* one root: one extent, unless the spec keeps them apart */
    call.kept_more[i] = more[i] && strcmp(more[i], call.kept) ? more[i] : NULL;
  call.room = em_sym(em_spec(e, sel_ids)->d[0]);
  em_fault(e, "pre_ids or pre_scores has fewer rows than scores, ids' dims are not scores', or scores' LoD has more "
           "sources than paddlec planned for");
  pr_line(e->p, "/* the best %lld candidates of each source of the LoD of '%s' (its level %lld); the LoD made: the "
          "sources, then each prefix's kept candidates */", (long long)beam, op_lod_name(e->g, k), (long long)level);
  beam_print_c(e->p, &call);
  return 0;
}

/* selected_ids and selected_scores carry the 2-level LoD the kernel makes. */
static int beam_search_lod_made(const Graph *g, const Op *op, int var) {
  (void)g;
  return slot_first(op->out, op->nout, "selected_ids") == var || slot_first(op->out, op->nout, "selected_scores") == var
             ? 2
             : 0;
}

const OpDef op_beam_search = {.type = "beam_search", .infer = infer_beam_search, .emit_c = emit_beam_search,
                              .lod_made = beam_search_lod_made, .runtime_extents = 1};

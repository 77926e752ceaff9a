/* 1.x sequence ops on LoD tensors.  At compile time Paddle does not know the
 * LoD, so the first dim of a sequence result is what each InferShape sets
 * (often -1, sometimes the input's first dim although the run-time size
 * differs).  These rules reproduce Paddle's compile-time dims.
 *
 *   sequence_conv: X [T, N], Filter [L*N, M], PaddingData† -> Out [T, M].
 *     contextLength (required), contextStart=0, contextStride=1,
 *     paddingTrainable=false.
 *   sequence_pool: X -> Out (= X dims at compile time), MaxIndex (= X dims,
 *     pooltype MAX only).  pooltype="AVERAGE", is_test=false, pad_value=0.
 *     The kernel writes int32 indices into MaxIndex, but Paddle sets no dtype
 *     (the Python API declares it with X's dtype): the rule keeps the
 *     VarDesc's, and gives the kernel's int32 while specializing (what the
 *     run holds, and sequence_pool_grad reads).  While specializing, Out's
 *     and MaxIndex's dim 0 is the number of sequences N, a run-time extent
 *     bounded by X's rows (Paddle's kernel requires N <= rows).
 *   sequence_softmax: X -> Out = X.  use_cudnn=false, data_format="AnyLayout".
 *   sequence_reverse: X (rank >= 2) -> Y = X.
 *   sequence_enumerate: X [T, 1] -> Out [T, win_size] (win_size >= 2).
 *   sequence_expand: X, Y -> Out = X with dims[0] = -1.  ref_level=-1.
 *   sequence_expand_as: X, Y -> Out = X with dims[0] = -1.
 *   (sequence_reshape, sequence_concat and lod_reset, which make Out's LoD:
 *   sequence_lod.c; sequence_pad and sequence_unpad: sequence_pad.c; the
 *   grads of sequence_pool, _softmax, _expand(_as): sequence_grad.c.)
 *   sequence_mask: X, MaxLenTensor† -> Y = X dims + [maxlen or -1] of dtype
 *     out_dtype.  maxlen=-1, out_dtype=3 (int64).
 *     Emission (the only emitter here; X float32/64 or int32/64, Y any
 *     dtype paddlec compiles): phi SequenceMaskKernel, y[i, j] = j < x[i]
 *     for j < maxlen, with maxlen from the attribute or from MaxLenTensor
 *     when its value is known at compile time and Y's last dim agrees.  The
 *     kernel reads MaxLenTensor as int32 (data<int32_t>: 2.6.2 raises for
 *     an int64 one): one of another dtype is refused.  maxlen <= 0 (the
 *     largest element of X) sizes Y from data and is refused.
 *
 * Emission (seq_call.h prints the loops) of sequence_pool, sequence_conv,
 * sequence_softmax, sequence_reverse, sequence_expand(_as) and
 * sequence_enumerate over X (Y) whose LoD is a level-1 feed's
 * (op_lod_input: what Paddle's ShareLoD passes on), which the run is given
 * (<prefix>_set_input_lod, checked when it starts), or one an op makes;
 * X's rows may be a run-time extent (an element read back from an array),
 * which Out keeps; the first three of float32 or float64 (the CPU
 * kernels' types):
 *   sequence_pool: every pooltype, pad_value for an empty sequence; Out has
 *     N rows and no LoD.  MaxIndex (int32), when read, as the training
 *     kernel writes it; with is_test Paddle leaves it unwritten: refused.
 *   sequence_conv (float32 only: 2.6.2's float64 kernel stops with a dtype
 *     mismatch): contextStride 1, paddingTrainable false (PaddingData,
 *     bound or not, is then not read: Paddle pads with zeros); Out keeps
 *     X's LoD.
 *   sequence_softmax: X [T] or [T, 1] (the kernel's one element a step);
 *     Out keeps X's LoD.
 *   sequence_reverse: X [T, ...] (rank >= 2) of float32, float64, int32,
 *     int64 or uint8 -> Y = X's rows reversed in each sequence; Y keeps X's
 *     LoD.
 *   sequence_expand_as: X [N, ...] of float32, float64, int32 or int64, N
 *     the sequences of Y's LoD (X a run-time extent of that LoD's root:
 *     a sequence_pool over it); Out has Y's rows (the rule sets them while
 *     specializing) and Y's LoD.
 *   sequence_expand: the same for an X without LoD (each row a sequence
 *     of one), over the last level of Y's LoD of one or two levels
 *     (ref_level -1, or that level's index; ref_level 0 of two is
 *     refused): X's rows must be that level's sequences, proven as above or
 *     checked by the run as Paddle's InferShape checks them (the 1.x
 *     decoder's state read back from one array beside its scores read
 *     back from another); Out has Y's rows (Y's run-time extent when it
 *     has one) and no LoD (X has none).  An X with a level-1 LoD (a
 *     feed's or one an op makes, of float32, float64, int32 or int64):
 *     Paddle's SequenceExpandKernel
 *     copies sequence i of X once a row of sequence i of Y (none for an
 *     empty one of Y; an empty one of X gives as many empty sequences), and
 *     Out's LoD, which the kernel makes (OpDef.lod_made), has one sequence a
 *     copy.  While specializing Out's rows are a run-time extent bounded by
 *     X's rows times Y's (a batch in both is not linear: --shape fixes it).
 *     X's and Y's LoDs with different numbers of sequences stop the run
 *     (Paddle's InferShape raises).  Refused: an X of lod_level 2 (Paddle
 *     too), or declared with a LoD paddlec cannot follow, and a Y of more
 *     than one level (ref_level then picks among them).
 *   sequence_enumerate: X [T, 1] of int32 or int64, win_size >= 2 ->
 *     Out [T, win_size], X's LoD; pad_value an int. */
#include <string.h>

#include "../subblock.h"
#include "../util.h"
#include "flat_call.h"
#include "ops.h"
#include "seq_call.h"
#include "tensor_util.h"

enum { DT_INT64 = 3 };

static int infer_sequence_conv(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *f = ctx_need(c, "Filter", 0);
  if (!x || !f) return -1;
  if (x->shape.rank != 2 || f->shape.rank != 2)
    return ctx_fail(c, "X %s and Filter %s must have rank 2", shape_str(&x->shape),
                    shape_str(&f->shape));
  if (attr_int(c->op, "contextStride", 1) != 1) return ctx_fail(c, "contextStride must be 1");
  int64_t len = attr_int(c->op, "contextLength", 0);
  if (x->shape.d[1] >= 0 && f->shape.d[0] != len * x->shape.d[1])
    return ctx_fail(c, "Filter %s must have contextLength * %lld rows", shape_str(&f->shape),
                    (long long)x->shape.d[1]);
  Shape out = {2, {x->shape.d[0], f->shape.d[1]}};
  ctx_set(c, "Out", 0, &out, x->dtype);
  ctx_pass_runtime_extent(c, x, "Out", 0);
  return 0;
}

/* The run-time root (Var.runtime_root) of the number of sequences in the
 * LoD of input k: negative, apart from every var's 1 + id. */
static int lod_root(int k) { return -1 - k; }

static int infer_sequence_pool(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  Var *mi = ctx_out(c, "MaxIndex", 0);
  int max = strcmp(attr_str(c->op, "pooltype", "AVERAGE"), "MAX") == 0;
  /* Paddle's compile-time dtype (the VarDesc's); while specializing, the kernel's int32 */
  const int decl = mi && mi->decl_dtype >= 0 ? mi->decl_dtype : x->dtype;
  if (max) ctx_set(c, "MaxIndex", 0, &x->shape, c->g->specializing ? RT_DT_INT32 : decl);
  /* N is the count of the LoD X carries less 1: every pool over one
   * feed's LoD has the same (emit_sequence_pool checks the feed) */
  ctx_set_lod_extent(c, "Out", 0, "X");
  if (max) ctx_set_lod_extent(c, "MaxIndex", 0, "X");
  return 0;
}

static int infer_same_as_x(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_pass_runtime_extent(c, x, "Out", 0);
  return 0;
}

/* sequence_expand / sequence_expand_as: rows depend on Y's LoD. */
static int infer_sequence_expand(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x || !ctx_need(c, "Y", 0)) return -1;
  if (x->shape.rank < 2) return ctx_fail(c, "X %s must have rank >= 2", shape_str(&x->shape));
  Shape out = x->shape;
  out.d[0] = DIM_UNKNOWN;
  Var *y = ctx_in(c, "Y", 0);
  if (!c->g->specializing || y->shape.rank < 1) {
    ctx_set(c, "Out", 0, &out, x->dtype);
    return 0;
  }
  const int lod_x = !strcmp(c->op->type, "sequence_expand") && op_lod_input(c->g, NULL, x, NULL) >= 0;
  if (lod_x && x->shape.d[0] >= 0 && y->shape.d[0] >= 0) {
    /* sequence_expand of an X with a LoD: sequence i of X repeated once a
     * row of sequence i of Y, at most X's rows times Y's rows (a bound; the
     * kernel writes the rows) */
    out.d[0] = x->shape.d[0] * y->shape.d[0];
    ctx_set(c, "Out", 0, &out, x->dtype);
    ctx_set_runtime_extent(c, "Out", 0, 0, pool_printf("the LoDs of X ('%s') and Y ('%s')", x->name, y->name));
    return 0;
  }
  /* Out has Y's rows (its finest level's last offset, which Paddle sets at
   * run time) for the other X the emitter takes (one row per sequence of
   * Y, no LoD): Y's run-time extent where it has one; it refuses the
   * others */
  if (!lod_x && var_runtime_axis(y) <= 0) out.d[0] = y->shape.d[0];
  ctx_set(c, "Out", 0, &out, x->dtype);
  if (!lod_x && var_runtime_axis(y) == 0) ctx_pass_runtime_extent_at(c, y, "Out", 0, 0);
  return 0;
}

static int infer_sequence_mask(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  if (x->shape.rank + 1 > RT_MAX_RANK) return ctx_fail(c, "X has too many dims");
  int64_t maxlen = attr_int(c->op, "maxlen", -1), mv[1];
  Var *mt = ctx_in(c, "MaxLenTensor", 0);
  /* known at compile time, or not (the emitter refuses a MaxLenTensor that is not int32) */
  if (mt) maxlen = ctx_int_values(c, mt, mv, 1) == 1 ? mv[0] : -1;
  Shape y = x->shape;
  y.d[y.rank++] = maxlen <= 0 ? DIM_UNKNOWN : maxlen;
  ctx_set(c, "Y", 0, &y, (int)attr_int(c->op, "out_dtype", DT_INT64));
  return 0;
}

static int emit_sequence_mask(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *y = tu_out(e, "Y", 0);
  if (!x || !y) return -1;
  if (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64 && x->dtype != RT_DT_INT32 && x->dtype != RT_DT_INT64)
    return em_fail(e, "sequence_mask of %s lengths is not supported", rt_dtype_name(x->dtype));
  OpCtx c = {e->g, (Op *)e->op};
  Var *mt = ctx_in(&c, "MaxLenTensor", 0);
  int64_t maxlen = attr_int(e->op, "maxlen", -1), last = em_const_dim(e, y, tu_rank(e, y) - 1);
  if (mt) {
    const int64_t *v;
    if (mt->dtype != RT_DT_INT32)
      return em_fail(e, "MaxLenTensor '%s' is %s: Paddle's kernel reads it as int32", mt->name,
                     rt_dtype_name(mt->dtype));
    if (ctx_values(&c, mt, &v) < 1)
      return em_fail(e, "the value of MaxLenTensor is not known at compile time (Y's size depends on it)");
    maxlen = v[0];
  }
  if (maxlen <= 0) return em_fail(e, "maxlen is %lld: Y's last dim would be the largest length in X, known only at "
                                     "run time", (long long)maxlen);
  if (last != maxlen) return em_fail(e, "Y's last dim is %lld, maxlen %lld", (long long)last, (long long)maxlen);
  FlatCall call = {.kind = FLAT_SEQUENCE_MASK, .dtype = x->dtype, .out_dtype = y->dtype, .x = em_ptr(e, x, 1)};
  call.out = em_ptr(e, y, 0);
  call.numel = em_numel(e, x);
  call.width = pool_printf("%lld", (long long)maxlen);
  flat_print_c(e->p, &call);
  return 0;
}


/* ---- LoD ---- */

enum { LOD_MEMO_UNSEEN = 0 };

/* Whether var u has the rows of var id, which a LoD could describe: dim 0
 * as the specialization knows it, or with s NULL (while inferring) as the
 * current inference left it (-1 while the batch is unknown, as in
 * constant_folding's inference: -1 rows match -1 rows); a dim 0 known only
 * at run time matches the same run-time extent (same_runtime_extent). */
static int rows_of(const Graph *g, const Spec *s, int id, SymDim *rows, int *runtime) {
  const Var *v = &g->vars[id];
  if (s) {
    const VarSpec *vs = &s->vars[id];
    if (!vs->known || vs->rank < 1) return 0;
    *rows = vs->d[0];
    *runtime = vs->runtime_dim == 1;
    return !vs->runtime_dim || *runtime;
  }
  if (v->shape.rank < 1) return 0;
  *rows = (SymDim){0, v->shape.d[0]};
  *runtime = var_runtime_axis(v) == 0;
  return var_runtime_axis(v) <= 0;
}

static int same_rows(const Graph *g, const Spec *s, int u, int id) {
  SymDim ru, rv;
  int tu, tv;
  if (!rows_of(g, s, u, &ru, &tu) || !rows_of(g, s, id, &rv, &tv) || tu != tv) return 0;
  if (tu) return same_runtime_extent(&g->vars[u], &g->vars[id]);
  return ru.a == rv.a && ru.c == rv.c;
}

/* An op other than `only` that writes var id (the ops that run a
 * sub-block, which name what their block writes, aside) in a block other
 * than `block` (any block: -1), or NULL. */
static const Op *other_writer(const Graph *g, int id, int only, int block) {
  for (int o = 0; o < g->nops; o++) {
    const Op *op = &g->ops[o];
    if (o == only || op->removed || op_runs_block(g, op) || op->block == block) continue;
    for (int s = 0; s < op->nout; s++)
      for (int a = 0; a < op->out[s].n; a++)
        if (op->out[s].vars[a] == id) return op;
  }
  return NULL;
}

/* 1 when var id's producer makes its LoD (OpDef.lod_made): in a sub-block
 * (a loop's body: the kernel makes it again each trip, into the same
 * store) only when no other op writes the var -- one written before the
 * loop too would carry the LoD of either, by the trip. */
static int lod_made_here(const Graph *g, int id) {
  const Var *v = &g->vars[id];
  if (v->producer < 0) return 0;
  const Op *op = &g->ops[v->producer];
  return op->def && op->def->lod_made && (op->block == 0 || !other_writer(g, id, v->producer, -1)) &&
         op->def->lod_made(g, op, id) > 0;
}

int op_lod_made_count(const Graph *g) {
  int n = 0;
  for (int id = 0; id < g->nvars; id++) n += lod_made_here(g, id);
  return n;
}

int op_lod_made_var(const Graph *g, int j) {
  for (int id = 0; id < g->nvars; id++)
    if (lod_made_here(g, id) && j-- == 0) return id;
  return -1;
}

int op_lod_levels(const Graph *g, int k) {
  if (k >= 0 && k < g->nfeeds) return g->vars[g->feeds[k]].lod_level;
  const int id = op_lod_made_var(g, k - g->nfeeds);
  if (id < 0) return 0;
  const Op *op = &g->ops[g->vars[id].producer];
  return op->def->lod_made(g, op, id);
}

const char *op_lod_name(const Graph *g, int k) {
  if (k >= 0 && k < g->nfeeds) return g->vars[g->feeds[k]].name;
  int id = op_lod_made_var(g, k - g->nfeeds);
  return id >= 0 ? g->vars[id].name : "?";
}

/* 1 when input `a` of slot `sl` of op (var u) may pass its LoD on to
 * the op's output var id, as Paddle's ShareLoD does (OpDef.lod_slot,
 * lod_first, lod_any_rows): an input without id's rows has no LoD to
 * share. */
static int shares_lod(const Graph *g, const Spec *s, const Op *op, int sl, int a, int id) {
  const OpDef *d = op->def;
  if (d && d->lod_slot && strcmp(op->in[sl].name, d->lod_slot)) return 0;
  if (d && d->lod_first && a > 0) return 0;
  return (d && d->lod_any_rows) || same_rows(g, s, op->in[sl].vars[a], id);
}

/* op_lod_input's walk (s NULL: over the current shapes); memo[id] = result
 * + 2 once known (1 while in progress: a cycle gives -1). */
static int lod_walk(const Graph *g, const Spec *s, const Var *v, int *memo, const char **why) {
  const int id = (int)(v - g->vars);
  if (memo[id] != LOD_MEMO_UNSEEN) return memo[id] - 2;
  memo[id] = 1;
  int r = -1;
  const VarSpec *vs = s ? &s->vars[id] : NULL;
  SymDim rows;
  int runtime;
  const Op *other;
  if (v->flags & VAR_FEED) {
    int k = 0;
    while (k < g->nfeeds && g->feeds[k] != id) k++;
    if (v->lod_level == 0)
      *why = pool_printf("feed '%s' has no LoD (lod_level 0)", v->name);
    else if (v->lod_level > 2)
      *why = pool_printf("feed '%s' has lod_level %d; paddlec takes 1 or 2 levels", v->name, v->lod_level);
    else if (k == g->nfeeds || (s ? !vs->known || vs->rank < 1 : v->shape.rank < 1))
      *why = pool_printf("feed '%s' is not an input of rank >= 1", v->name);
    else
      r = k;
  } else if (v->producer < 0) {
    *why = pool_printf("'%s' is neither a feed nor made by an op", v->name);
  } else if ((other = other_writer(g, id, v->producer, g->ops[v->producer].block))) {
    *why = pool_printf("'%s' is written by %s and by %s, in another block (a loop's var written before the loop and "
                       "in its body): the LoD it carries depends on the trip; paddlec does not follow it", v->name,
                       graph_op_where(g, &g->ops[v->producer]), graph_op_where(g, other));
  } else if (lod_made_here(g, id)) {
    int j = 0;
    for (int u = 0; u < id; u++) j += lod_made_here(g, u);
    r = g->nfeeds + j;
  } else {
    const Op *op = &g->ops[v->producer];
    const char *only = op->def ? op->def->lod_slot : NULL;
    if (only && !*only) {
      *why = pool_printf("'%s' comes from %s, which gives it a LoD of its own or none; paddlec does not follow it",
                         v->name, graph_op_where(g, op));
    } else if (rows_of(g, s, id, &rows, &runtime)) {
      const char *first = NULL;
      for (int sl = 0; sl < op->nin && r != -2; sl++)
        for (int a = 0; a < op->in[sl].n && r != -2; a++) {
          const int u = op->in[sl].vars[a];
          if (u < 0 || u == id || !shares_lod(g, s, op, sl, a, id)) continue;
          const char *w = NULL;
          int k = lod_walk(g, s, &g->vars[u], memo, &w);
          if (k < 0 && !first) first = w;
          if (k < 0) continue;
          if (r >= 0 && r != k) {
            *why = pool_printf("'%s' comes from %s, whose inputs carry two LoDs ('%s', '%s')", v->name,
                               graph_op_where(g, op), op_lod_name(g, r), op_lod_name(g, k));
            r = -2;
          } else {
            r = k;
          }
        }
      if (r == -2) r = -1;
      else if (r < 0)
        *why = first ? first
                     : pool_printf("'%s' comes from %s, none of whose inputs with its rows carries a LoD", v->name,
                                   graph_op_where(g, op));
    } else {
      *why = pool_printf("'%s' has no rows that a LoD could describe", v->name);
    }
  }
  memo[id] = r + 2;
  return r;
}

int op_lod_input_levels(const Graph *g, const Spec *s, const Var *v, int *levels, const char **why) {
  int *memo = pool_alloc(sizeof *memo * ((size_t)g->nvars + 1));
  memset(memo, 0, sizeof *memo * ((size_t)g->nvars + 1));
  const char *w = NULL;
  int r = lod_walk(g, s, v, memo, &w);
  if (why) *why = w ? w : "no LoD";
  if (levels) *levels = r >= 0 ? op_lod_levels(g, r) : 0;
  return r;
}

int op_lod_input(const Graph *g, const Spec *s, const Var *v, const char **why) {
  int levels;
  const int k = op_lod_input_levels(g, s, v, &levels, why);
  if (k < 0 || levels == 1) return k;
  if (why && k < g->nfeeds)
    *why = pool_printf("feed '%s' has lod_level %d; paddlec takes level 1 only in this op", op_lod_name(g, k), levels);
  else if (why)
    *why = pool_printf("'%s' carries the %d-level LoD its op makes; this op takes level 1 only", op_lod_name(g, k),
                       levels);
  return -1;
}

/* The input whose LoD X carries, recorded as read (em_reads_lod); -1
 * after em_fail. */
static int lod_of(EmitCtx *e, const Var *x) {
  const char *why;
  int k = op_lod_input(e->g, e->spec, x, &why);
  if (k < 0) return em_fail(e, "X ('%s') must carry a level-1 LoD (a feed's or one an op makes): %s", x->name, why);
  em_reads_lod(e, k);
  return k;
}

static int float_types(EmitCtx *e, const Var *x, const Var *out) {
  if (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64)
    return em_fail(e, "X ('%s') is %s; Paddle's CPU kernel takes float32 and float64", x->name,
                   rt_dtype_name(x->dtype));
  if (out->dtype != x->dtype)
    return em_fail(e, "Out ('%s') is %s, X %s", out->name, rt_dtype_name(out->dtype), rt_dtype_name(x->dtype));
  return 0;
}

static int emit_sequence_pool(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out || float_types(e, x, out)) return -1;
  const char *pt = attr_str(e->op, "pooltype", "AVERAGE");
  static const char *const types[] = {"AVERAGE", "SUM", "SQRT", "MAX", "LAST", "FIRST"};
  int known = 0;
  for (int i = 0; i < 6; i++) known |= !strcmp(pt, types[i]);
  if (!known) return em_fail(e, "pooltype '%s' is none of AVERAGE, SUM, SQRT, MAX, LAST, FIRST", pt);
  int r = tu_rank(e, x), max = !strcmp(pt, "MAX");
  if (r < (max ? 2 : 1)) return em_fail(e, "X ('%s') has rank %d; %s pooling needs %d", x->name, r, pt, max ? 2 : 1);
  int in = lod_of(e, x);
  if (in < 0) return -1;
  SeqCall call = {.kind = SEQ_POOL, .f64 = x->dtype == RT_DT_FP64, .input = in, .feed = op_lod_name(e->g, in),
                  .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0), .width = em_prod(e, x, 1, r), .pooltype = pt,
                  .pad = em_float((float)attr_float(e->op, "pad_value", 0.0))};
  if (out->runtime_root < 0 && out->runtime_root != lod_root(in)) /* not reached: one walk, two shapes */
    return em_fail(e, "Out ('%s') was taken for the sequences of input %d, but X carries the LoD of input %d", out->name,
                   -1 - out->runtime_root, in);
  if (em_spec(e, out)->runtime_dim == 1) call.extents[0] = em_dim(e, out, 0);
  OpCtx c = {e->g, (Op *)e->op};
  Var *mi = ctx_out(&c, "MaxIndex", 0);
  const int is_test = attr_bool(e->op, "is_test", 0); /* Out is the same either way */
  if (max && mi && (mi->nusers || (mi->flags & VAR_FETCH))) {
    if (is_test)
      return em_fail(e, "MaxIndex ('%s') is read, but with is_test Paddle's kernel does not write it", mi->name);
    call.index = em_ptr(e, mi, 0);
    if (em_spec(e, mi)->runtime_dim == 1) call.extents[1] = em_dim(e, mi, 0);
  }
  if (in >= e->g->nfeeds) { /* a LoD an op made (a feed's the run's start checks): Out has room for X's rows */
    em_fault(e, "X's LoD has more sequences than X has rows");
    pr_line(e->p, "if (m->lod_count[%d] - 1 > %s) return 1;", in, em_dim(e, x, 0));
  }
  seq_print_c(e->p, &call);
  return 0;
}

static int emit_sequence_conv(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *f = tu_in(e, "Filter", 0), *out = tu_out(e, "Out", 0);
  if (!x || !f || !out || float_types(e, x, out)) return -1;
  if (x->dtype == RT_DT_FP64) /* registered, but its run stops with a float32 / float64 mismatch in 2.6.2 */
    return em_fail(e, "sequence_conv of float64 is not supported (Paddle 2.6.2's CPU kernel fails on it, so there "
                      "is nothing to check it against)");
  if (f->dtype != x->dtype)
    return em_fail(e, "Filter ('%s') is %s, X %s", f->name, rt_dtype_name(f->dtype), rt_dtype_name(x->dtype));
  if (attr_bool(e->op, "paddingTrainable", 0))
    return em_fail(e, "paddingTrainable is true (the padding rows from PaddingData); paddlec pads with zeros only");
  if (attr_int(e->op, "contextStride", 1) != 1) return em_fail(e, "contextStride must be 1");
  int64_t len = attr_int(e->op, "contextLength", 0), start = attr_int(e->op, "contextStart", 0);
  if (len < 1 || len > 4096 || start < -4096 || start > 4096)
    return em_fail(e, "contextLength %lld / contextStart %lld out of range", (long long)len, (long long)start);
  if (tu_rank(e, x) != 2 || tu_rank(e, f) != 2) return em_fail(e, "X and Filter must have rank 2");
  int64_t ch = em_const_dim(e, x, 1), m = em_const_dim(e, f, 1);
  if (ch < 0 || m < 0) return em_fail(e, "X's and Filter's widths must not depend on the batch");
  if (em_const_dim(e, f, 0) != len * ch)
    return em_fail(e, "Filter ('%s') must have contextLength * %lld rows", f->name, (long long)ch);
  int in = lod_of(e, x);
  if (in < 0) return -1;
  SymDim rows = em_spec(e, x)->d[0];
  const int64_t sz = x->dtype == RT_DT_FP64 ? 8 : 4;
  SeqCall call = {.kind = SEQ_CONV, .f64 = x->dtype == RT_DT_FP64, .input = in,
                  .feed = op_lod_name(e->g, in), .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0),
                  .width = em_dim(e, x, 1), .rows = em_dim(e, x, 0), .filter = em_ptr(e, f, 1), .m = em_dim(e, f, 1),
                  .start = (int)start, .length = (int)len};
  call.col = em_scratch_named(e, call.f64 ? "double" : "float", "col",
                              (SymDim){rows.a * len * ch * sz, rows.c * len * ch * sz});
  if (!call.f64) call.ws = em_gemm_ws(e, rows, (SymDim){0, m}, (SymDim){0, len * ch});
  seq_print_c(e->p, &call);
  return 0;
}

static int emit_sequence_softmax(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out || float_types(e, x, out)) return -1;
  int r = tu_rank(e, x);
  if (r < 1 || r > 2 || (r == 2 && em_const_dim(e, x, 1) != 1))
    return em_fail(e, "X ('%s') must be [T] or [T, 1] (Paddle's kernel wants one element a time step)", x->name);
  int in = lod_of(e, x);
  if (in < 0) return -1;
  SeqCall call = {.kind = SEQ_SOFTMAX, .f64 = x->dtype == RT_DT_FP64, .input = in,
                  .feed = op_lod_name(e->g, in), .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0)};
  seq_print_c(e->p, &call);
  return 0;
}

static int infer_sequence_reverse(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  if (x->shape.rank < 2) return ctx_fail(c, "X %s must have rank >= 2", shape_str(&x->shape));
  ctx_set(c, "Y", 0, &x->shape, x->dtype);
  ctx_pass_runtime_extent(c, x, "Y", 0);
  return 0;
}

static int emit_sequence_reverse(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *y = tu_out(e, "Y", 0);
  if (!x || !y) return -1;
  if (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64 && x->dtype != RT_DT_INT32 && x->dtype != RT_DT_INT64 &&
      x->dtype != RT_DT_UINT8)
    return em_fail(e, "X ('%s') is %s; Paddle's CPU kernel takes float32, float64, int32, int64 and uint8", x->name,
                   rt_dtype_name(x->dtype));
  if (y->dtype != x->dtype)
    return em_fail(e, "Y ('%s') is %s, X %s", y->name, rt_dtype_name(y->dtype), rt_dtype_name(x->dtype));
  int r = tu_rank(e, x);
  if (r < 2) return em_fail(e, "X ('%s') has rank %d; Paddle wants 2 or more", x->name, r);
  int in = lod_of(e, x);
  if (in < 0) return -1;
  SeqCall call = {.kind = SEQ_REVERSE, .input = in, .feed = op_lod_name(e->g, in), .x = em_ptr(e, x, 1),
                  .out = em_ptr(e, y, 0), .width = em_prod(e, x, 1, r), .esize = (int)rt_dtype_size(x->dtype)};
  seq_print_c(e->p, &call);
  return 0;
}

/* sequence_expand_as, and sequence_expand of an X without LoD (each row a
 * sequence of one): the same copy; Out has Y's LoD or (sequence_expand)
 * none. */
static int emit_sequence_expand_as(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *y = tu_in(e, "Y", 0), *out = tu_out(e, "Out", 0);
  if (!x || !y || !out) return -1;
  if (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64 && x->dtype != RT_DT_INT32 && x->dtype != RT_DT_INT64)
    return em_fail(e, "X ('%s') is %s; Paddle's CPU kernel takes float32, float64, int32 and int64", x->name,
                   rt_dtype_name(x->dtype));
  if (out->dtype != x->dtype)
    return em_fail(e, "Out ('%s') is %s, X %s", out->name, rt_dtype_name(out->dtype), rt_dtype_name(x->dtype));
  int expand = !strcmp(e->op->type, "sequence_expand");
  int64_t level = attr_int(e->op, "ref_level", -1);
  const char *why;
  int levels = 0;
  const int in = expand ? op_lod_input_levels(e->g, e->spec, y, &levels, &why) : op_lod_input(e->g, e->spec, y, &why);
  if (in < 0)
    return em_fail(e, "Y ('%s') must carry a %s LoD (a feed's or one an op makes): %s", y->name,
                   expand ? "level-1 or level-2" : "level-1", why);
  if (expand && (level < -1 || level >= levels))
    return em_fail(e, "ref_level %lld: Y has %d level%s of LoD (-1 is the last)", (long long)level, levels,
                   levels > 1 ? "s" : "");
  if (expand && levels == 2 && level == 0)
    return em_fail(e, "ref_level 0 of Y's two levels: Out would have a row per sequence of level 0; paddlec takes "
                      "the last level (ref_level -1 or 1)");
  if (var_runtime_axis(x) > 0 || var_runtime_mask(x) >> 1)
    return em_fail(e, "X ('%s') has a size known only at run time beyond its rows", x->name);
  /* X's rows are Y's sequences: provably (a sequence_pool over Y's LoD),
   * else checked by the run, as Paddle's InferShape checks them */
  const int proven = var_runtime_axis(x) == 0 && x->runtime_root == lod_root(in);
  if (!proven && !expand)
    return em_fail(e, "X ('%s') must have one row per sequence of Y's LoD (that of input '%s'), as a sequence_pool "
                      "over it gives; paddlec cannot tell that its rows are that many", x->name,
                   op_lod_name(e->g, in));
  const VarSpec *os = em_spec(e, out), *ys = em_spec(e, y);
  const int run_rows = var_runtime_axis(y) == 0 && same_runtime_extent(out, y);
  if (!run_rows && (os->runtime_dim || !ys->known || os->d[0].a != ys->d[0].a || os->d[0].c != ys->d[0].c))
    return em_fail(e, "Out ('%s') must have Y's rows", out->name); /* not reached: the rule gives them */
  em_reads_lod(e, in);
  if (!proven) em_fault(e, "X's rows are not the number of sequences in Y's LoD");
  int r = tu_rank(e, x);
  SeqCall call = {.kind = SEQ_EXPAND_AS, .input = in, .feed = op_lod_name(e->g, in),
                  .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0), .width = em_prod(e, x, 1, r),
                  .esize = (int)rt_dtype_size(x->dtype), .rows = proven ? NULL : em_dim(e, x, 0)};
  seq_print_c(e->p, &call);
  return 0;
}

/* sequence_expand's Out when X carries a LoD (OpDef.lod_made). */
static int expand_lod_made(const Graph *g, const Op *op, int var) {
  const int x = slot_first(op->in, op->nin, "X");
  return var == slot_first(op->out, op->nout, "Out") && x >= 0 && op_lod_input(g, NULL, &g->vars[x], NULL) >= 0;
}

/* sequence_expand: of an X with a level-1 LoD (kx), Paddle's
 * SequenceExpandKernel with Out's LoD made here; of an X without one,
 * sequence_expand_as's copy. */
static int emit_sequence_expand(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *y = tu_in(e, "Y", 0), *out = tu_out(e, "Out", 0);
  if (!x || !y || !out) return -1;
  const char *why;
  const int kx = op_lod_input(e->g, e->spec, x, &why);
  if (kx < 0 && x->lod_level > 1)
    return em_fail(e, "X ('%s') has lod_level %d; Paddle's kernel takes an X of at most one level", x->name,
                   x->lod_level);
  if (kx < 0 && x->lod_level > 0)
    return em_fail(e, "X ('%s') is declared with a LoD that paddlec cannot follow: %s", x->name, why);
  if (kx < 0) return emit_sequence_expand_as(e);
  if (tu_seq_types(e, x, out)) return -1;
  const int64_t level = attr_int(e->op, "ref_level", -1);
  if (level != -1 && level != 0)
    return em_fail(e, "ref_level %lld: Y has one level of LoD (use -1 or 0)", (long long)level);
  const int ky = op_lod_input(e->g, e->spec, y, &why);
  if (ky < 0) return em_fail(e, "Y ('%s') must carry a level-1 LoD (a feed's or one an op makes): %s", y->name, why);
  if (var_runtime_axis(out) != 0) return em_fail(e, "Out ('%s') must have rows known at run time", out->name);
  em_reads_lod(e, kx);
  em_reads_lod(e, ky);
  const int k = op_lod_input(e->g, e->spec, out, NULL);
  const SymDim yrows = em_spec(e, y)->d[0];
  const char *store = em_makes_lod(e, k, (SymDim){yrows.a, yrows.c + 1}); /* one offset a row of Y, and 0 */
  em_fault(e, "X's LoD and Y's have different numbers of sequences");
  const char *t = em_ctype(x->dtype);
  Printer *p = e->p;
  pr_line(p, "/* sequence i of X (LoD '%s') once a row of sequence i of Y (LoD '%s'); Out's LoD: a sequence a copy */",
          op_lod_name(e->g, kx), op_lod_name(e->g, ky));
  pr_line(p, "const int64_t *x_lod = m->lod[%d], *y_lod = m->lod[%d], N = m->lod_count[%d] - 1, W = %s;", kx, ky, ky,
          em_prod(e, x, 1, tu_rank(e, x)));
  pr_line(p, "if (m->lod_count[%d] - 1 != N || y_lod[N] > %s) return 1;", kx, em_dim(e, y, 0));
  pr_line(p, "const %s *x = %s;", t, em_ptr(e, x, 1));
  pr_line(p, "%s *out = %s;", t, em_ptr(e, out, 0));
  pr_line(p, "int64_t *out_lod = %s, n = 0;", store);
  pr_line(p, "out_lod[0] = 0;");
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "const int64_t rows = x_lod[i + 1] - x_lod[i];");
  pr_line(p, "for (int64_t j = y_lod[i]; j < y_lod[i + 1]; j++, n++) {");
  pr_line(p, "if (rows > 0) memcpy(out + out_lod[n] * W, x + x_lod[i] * W, (size_t)(rows * W) * sizeof(%s));", t);
  pr_line(p, "out_lod[n + 1] = out_lod[n] + rows;");
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "m->lod_count[%d] = n + 1;", k);
  pr_line(p, "%s = out_lod[n];", em_dim(e, out, 0));
  return 0;
}

static int infer_sequence_enumerate(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t win = attr_int(c->op, "win_size", 0);
  if (x->shape.rank != 2) return ctx_fail(c, "X %s must have rank 2", shape_str(&x->shape));
  if (win < 2) return ctx_fail(c, "win_size %lld must be at least 2", (long long)win);
  Shape out = {2, {x->shape.d[0], win}};
  ctx_set(c, "Out", 0, &out, x->dtype);
  ctx_pass_runtime_extent(c, x, "Out", 0);
  return 0;
}

static int emit_sequence_enumerate(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (x->dtype != RT_DT_INT32 && x->dtype != RT_DT_INT64)
    return em_fail(e, "X ('%s') is %s; Paddle's CPU kernel takes int32 and int64", x->name, rt_dtype_name(x->dtype));
  if (out->dtype != x->dtype)
    return em_fail(e, "Out ('%s') is %s, X %s", out->name, rt_dtype_name(out->dtype), rt_dtype_name(x->dtype));
  int64_t win = attr_int(e->op, "win_size", 0);
  if (tu_rank(e, x) != 2 || em_const_dim(e, x, 1) != 1) return em_fail(e, "X ('%s') must be [T, 1]", x->name);
  if (win < 2 || win > 4096) return em_fail(e, "win_size %lld is out of range", (long long)win);
  int in = lod_of(e, x);
  if (in < 0) return -1;
  int32_t pad = (int32_t)attr_int(e->op, "pad_value", 0); /* an int attribute, cast to the type */
  SeqCall call = {.kind = SEQ_ENUMERATE, .f64 = x->dtype == RT_DT_INT64, .input = in,
                  .feed = op_lod_name(e->g, in), .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0),
                  .length = (int)win, .pad_int = pad};
  seq_print_c(e->p, &call);
  return 0;
}

/* PaddingData: read only with paddingTrainable, which the emitter refuses. */
static const char *const sequence_conv_ignores[] = {"PaddingData", NULL};

const OpDef op_sequence_conv = {.type = "sequence_conv", .infer = infer_sequence_conv, .emit_c = emit_sequence_conv,
                                .ignores = sequence_conv_ignores, .runtime_extents = 1};
/* The ops whose outputs get a LoD of their own or none stop op_lod_input's
 * walk (lod_slot ""). */
const OpDef op_sequence_pool = {.type = "sequence_pool", .infer = infer_sequence_pool, .emit_c = emit_sequence_pool,
                                .lod_slot = "", .runtime_extents = 1};
const OpDef op_sequence_softmax = {.type = "sequence_softmax", .infer = infer_same_as_x,
                                   .emit_c = emit_sequence_softmax, .runtime_extents = 1};
const OpDef op_sequence_reverse = {.type = "sequence_reverse", .infer = infer_sequence_reverse,
                                   .emit_c = emit_sequence_reverse, .runtime_extents = 1};
const OpDef op_sequence_enumerate = {.type = "sequence_enumerate", .infer = infer_sequence_enumerate,
                                     .emit_c = emit_sequence_enumerate, .runtime_extents = 1};
const OpDef op_sequence_expand = {.type = "sequence_expand", .infer = infer_sequence_expand,
                                  .emit_c = emit_sequence_expand, .runtime_extents = 1, .lod_slot = "",
                                  .lod_made = expand_lod_made};
const OpDef op_sequence_expand_as = {.type = "sequence_expand_as", .infer = infer_sequence_expand,
                                     .emit_c = emit_sequence_expand_as, .runtime_extents = 1};
const OpDef op_sequence_mask = {.type = "sequence_mask", .infer = infer_sequence_mask,
                                .emit_c = emit_sequence_mask, .lod_slot = ""};

/* ---- outputs with one row per sequence ---- */

void ctx_set_lod_extent(OpCtx *c, const char *slot, int i, const char *lod_slot) {
  Var *o = ctx_out(c, slot, i), *x = ctx_in(c, lod_slot, 0);
  if (!c->g->specializing || !o || !x || o->shape.rank < 1) return;
  ctx_set_runtime_extent(c, slot, i, 0, pool_printf("input %s's LoD ('%s')", lod_slot, x->name));
  int k = op_lod_input(c->g, NULL, x, NULL);
  if (k >= 0) o->runtime_root = lod_root(k);
}

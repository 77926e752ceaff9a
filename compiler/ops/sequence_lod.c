/* 1.x LoD ops whose kernels give Out a level-1 LoD of their own, made as
 * the program runs (OpDef.lod_made, em_makes_lod): the data moves as
 * Paddle's CPU kernels move it and the offsets are written beside it.
 *
 *   sequence_reshape: X [T, M] (a level-1 LoD) -> Out [-1, new_dim] at
 *     compile time (Paddle's; while specializing T*M/new_dim rows, which
 *     the kernel gives it).  new_dim (required, >= 1).  Paddle's
 *     SequenceReshapeKernel (float32, float64, int32, int64): Out's data is
 *     X's, its LoD offsets[i] * M / new_dim, each sequence's len * M must
 *     divide by new_dim (else Paddle's InvalidArgument: here the run stops,
 *     em_fault).
 *   sequence_concat: X* (>= 2, each with a level-1 LoD, the same number of
 *     sequences) -> Out: dims[0] the sum of the inputs' (-1 when any is
 *     unknown), the other dims X[0]'s; every input the same row size.
 *     SeqConcatKernel (float32, float64, int32, int64): sequence i of Out
 *     is sequence i of X[0], X[1], ... in turn; Out's LoD the offsets'
 *     sums.  Inputs whose numbers of sequences differ stop the run (Paddle
 *     raises).
 *   lod_reset: X, Y† -> Out = X (dims, dtype, data; X's rows may be a
 *     run-time extent).  target_lod=[], append=false.  LoDResetKernel
 *     (float32, float64, int32, int64): Out's LoD is Y's, every level of
 *     it, when Y carries one (the last offset of its last level must be
 *     X's rows, whatever Y's rows: Out carries the very LoD Y does,
 *     OpDef.lod_any_rows), else Y's int32 data as offsets, else
 *     target_lod; those must
 *     have >= 2 offsets, start at 0, ascend and end at X's rows (Paddle
 *     raises otherwise: here a target_lod that breaks the first three is
 *     refused at compile time, anything else stops the run).  append adds
 *     the level under X's LoD: with an X that carries a LoD Out would have
 *     two levels, which paddlec does not keep: refused; without one it is
 *     the same as not appending.
 *   sequence_slice: X (a level-1 LoD), Offset [N, 1], Length [N, 1] (both
 *     int64) -> Out = X's dims at compile time (Paddle's); while
 *     specializing its rows are sum(Length), a run-time extent bounded by
 *     X's rows.  SequenceSliceOpKernel (float32, float64, int32, int64):
 *     sequence i of Out is Length[i] rows of sequence i of X from its row
 *     Offset[i]; Out's LoD the running sums of Length.  Offset's or
 *     Length's rows other than X's number of sequences, a negative value,
 *     or a slice past its sequence's end stop the run (Paddle raises).
 *
 *   sequence_reshape_grad: X (its shape), Out@GRAD -> X@GRAD, Out@GRAD's
 *     elements in order (SequenceReshapeGradKernel: a copy resized to X's
 *     dims; the same dtypes).
 *   sequence_concat_grad: X* (their LoDs), Out@GRAD -> X@GRAD* (some may
 *     be unbound: stop_gradient), SeqConcatGradKernel's split (the same
 *     dtypes): the rows of sequence i of Out@GRAD go to sequence i of
 *     X@GRAD[0], X@GRAD[1], ... in turn.  An X@GRAD[j] unbound (an input
 *     that needs no grad) is refused: Paddle's SplitFunctor then pairs the
 *     grads it writes with the sizes of the first pieces, not theirs.
 *     Inputs whose numbers of sequences differ, or whose rows the LoDs do
 *     not add up to Out@GRAD's, stop the run. */
#include <string.h>

#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

/* The most offsets LoD k can have (a*B + c): a feed's rows + 1 (the run
 * start caps its sequences at its rows), or the room its maker took. */
static SymDim lod_offsets_bound(EmitCtx *e, int k, const Var *x) {
  const Graph *g = e->g;
  if (k < g->nfeeds) {
    SymDim r = em_spec(e, &g->vars[g->feeds[k]])->d[0];
    return (SymDim){r.a, r.c + 1};
  }
  if (e->lod_bound && e->lod_bound[k - g->nfeeds].a >= 0) return e->lod_bound[k - g->nfeeds];
  SymDim r = em_spec(e, x)->d[0]; /* not reached in a model's emission: the maker comes first */
  return (SymDim){r.a, r.c + 1};
}

/* The LoD var x carries (recorded as read); -1 after em_fail. */
static int lod_input(EmitCtx *e, const char *slot, const Var *x) {
  const char *why;
  int k = op_lod_input(e->g, e->spec, x, &why);
  if (k < 0)
    return em_fail(e, "%s ('%s') must carry a level-1 LoD (a feed's or one an op makes): %s", slot, x->name, why);
  em_reads_lod(e, k);
  return k;
}

/* Out (its first output) is the LoD var each of these ops makes. */
static int out_lod_made(const Graph *g, const Op *op, int var) {
  (void)g;
  return slot_first(op->out, op->nout, "Out") == var;
}

/* ---- sequence_reshape ---- */

static int infer_sequence_reshape(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  if (x->shape.rank != 2) return ctx_fail(c, "X %s must have rank 2", shape_str(&x->shape));
  const int64_t nd = attr_int(c->op, "new_dim", 0);
  if (nd < 1) return ctx_fail(c, "new_dim %lld must be at least 1", (long long)nd);
  Shape out = {2, {DIM_UNKNOWN, nd}}; /* Paddle's compile-time dims */
  /* while specializing: the rows the kernel gives Out (X's elements in rows
   * of new_dim; a batch where they do not divide is not linear, and its run
   * stops on the sequence that does not) */
  if (c->g->specializing && x->shape.d[0] >= 0 && x->shape.d[1] >= 0) out.d[0] = x->shape.d[0] * x->shape.d[1] / nd;
  ctx_set(c, "Out", 0, &out, x->dtype);
  return 0;
}

static int emit_sequence_reshape(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out || tu_seq_types(e, x, out)) return -1;
  const int64_t nd = attr_int(e->op, "new_dim", 0), w = em_const_dim(e, x, 1);
  if (tu_rank(e, x) != 2 || w < 0) return em_fail(e, "X ('%s') must be [T, M] with M known", x->name);
  if (em_const_dim(e, out, 1) != nd) return em_fail(e, "Out ('%s') must have new_dim %lld columns", out->name, (long long)nd);
  const int in = lod_input(e, "X", x);
  if (in < 0) return -1;
  const int k = op_lod_input(e->g, e->spec, out, NULL);
  const char *store = em_makes_lod(e, k, lod_offsets_bound(e, in, x));
  em_fault(e, "a sequence's size (its rows x X's width) does not divide by new_dim");
  Printer *p = e->p;
  pr_line(p, "/* X's data in rows of %lld; Out's LoD: each sequence of '%s''s LoD re-cut, its rows x %lld / %lld */",
          (long long)nd, op_lod_name(e->g, in), (long long)w, (long long)nd);
  pr_line(p, "const int64_t *lod = m->lod[%d], N = m->lod_count[%d] - 1;", in, in);
  pr_line(p, "int64_t *out_lod = %s;", store);
  pr_line(p, "out_lod[0] = 0;");
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "  const int64_t size = (lod[i + 1] - lod[i]) * %lld;", (long long)w);
  pr_line(p, "  if (size %% %lld != 0) return 1;", (long long)nd);
  pr_line(p, "  out_lod[i + 1] = out_lod[i] + size / %lld;", (long long)nd);
  pr_line(p, "}");
  pr_line(p, "m->lod_count[%d] = N + 1;", k);
  return tu_copy(e, x, out);
}

/* ---- sequence_concat ---- */

static int infer_sequence_concat(OpCtx *c) {
  int n = ctx_nin(c, "X");
  if (n < 2) return ctx_fail(c, "needs at least two inputs");
  Var *x0 = ctx_need(c, "X", 0);
  if (!x0) return -1;
  if (x0->shape.rank < 1) return ctx_fail(c, "X[0] has rank 0");
  Shape out = x0->shape;
  int64_t rows = 0, feat = dims_prod(&x0->shape, 1, x0->shape.rank);
  for (int i = 0; i < n; i++) {
    Var *x = ctx_need(c, "X", i);
    if (!x) return -1;
    if (x->shape.rank < 1) return ctx_fail(c, "X[%d] has rank 0", i);
    int64_t f = dims_prod(&x->shape, 1, x->shape.rank);
    if (f >= 0 && feat >= 0 && f != feat)
      return ctx_fail(c, "X[%d] %s has another row size than X[0] %s", i, shape_str(&x->shape),
                      shape_str(&x0->shape));
    rows = (rows < 0 || x->shape.d[0] < 0) ? DIM_UNKNOWN : rows + x->shape.d[0];
  }
  out.d[0] = rows;
  ctx_set(c, "Out", 0, &out, x0->dtype);
  return 0;
}

static int emit_sequence_concat(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  const int n = ctx_nin(&c, "X");
  Var *out = tu_out(e, "Out", 0), *x0 = tu_in(e, "X", 0);
  if (!out || !x0 || tu_seq_types(e, x0, out)) return -1;
  const char *row = em_prod(e, x0, 1, tu_rank(e, x0));
  int *in = pool_alloc(sizeof *in * (size_t)n);
  const char **xs = pool_alloc(sizeof *xs * (size_t)n);
  for (int j = 0; j < n; j++) {
    Var *x = tu_in(e, "X", j);
    if (!x) return -1;
    if (x->dtype != x0->dtype)
      return em_fail(e, "X[%d] ('%s') is %s, X[0] %s", j, x->name, rt_dtype_name(x->dtype), rt_dtype_name(x0->dtype));
    if ((in[j] = lod_input(e, pool_printf("X[%d]", j), x)) < 0) return -1;
    xs[j] = em_ptr(e, x, 1);
  }
  const int k = op_lod_input(e->g, e->spec, out, NULL);
  const char *store = em_makes_lod(e, k, lod_offsets_bound(e, in[0], x0));
  em_fault(e, "the inputs have different numbers of sequences");
  const char *t = em_ctype(x0->dtype);
  Printer *p = e->p;
  pr_line(p, "/* sequence i of Out: sequence i of each input in turn; Out's LoD the sums of their offsets */");
  pr_line(p, "const int64_t N = m->lod_count[%d] - 1, W = %s;", in[0], row);
  for (int j = 1; j < n; j++) pr_line(p, "if (m->lod_count[%d] - 1 != N) return 1;", in[j]);
  pr_line(p, "const int64_t *lods[%d] = {", n);
  for (int j = 0; j < n; j++) pr_line(p, "  m->lod[%d], /* '%s' */", in[j], op_lod_name(e->g, in[j]));
  pr_line(p, "};");
  pr_line(p, "const %s *xs[%d] = {", t, n);
  for (int j = 0; j < n; j++) pr_line(p, "  %s,", xs[j]);
  pr_line(p, "};");
  pr_line(p, "%s *out = %s;", t, em_ptr(e, out, 0));
  pr_line(p, "int64_t *out_lod = %s, at = 0;", store);
  pr_line(p, "out_lod[0] = 0;");
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "  for (int j = 0; j < %d; j++) {", n);
  pr_line(p, "    const int64_t rows = lods[j][i + 1] - lods[j][i];");
  pr_line(p, "    if (rows > 0) memcpy(out + at * W, xs[j] + lods[j][i] * W, (size_t)(rows * W) * sizeof(%s));", t);
  pr_line(p, "    at += rows;");
  pr_line(p, "  }");
  pr_line(p, "  out_lod[i + 1] = at;");
  pr_line(p, "}");
  pr_line(p, "m->lod_count[%d] = N + 1;", k);
  return 0;
}

/* ---- lod_reset ---- */

static int infer_lod_reset(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t *t;
  if (!ctx_in(c, "Y", 0) && attr_ints(c->op, "target_lod", &t) < 1)
    return ctx_fail(c, "without Y, target_lod must give the LoD (it is empty)");
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_pass_runtime_extent(c, x, "Out", 0);
  return 0;
}

/* Out carries Y's LoD, every level of it, when Y has one (op_lod_input's
 * walk goes there: OpDef.lod_any_rows); otherwise the kernel makes it from
 * Y's data or target_lod. */
static int lod_reset_made(const Graph *g, const Op *op, int var) {
  const int y = slot_first(op->in, op->nin, "Y");
  if (var != slot_first(op->out, op->nout, "Out")) return 0;
  return y < 0 || op_lod_input_levels(g, NULL, &g->vars[y], NULL, NULL) < 0;
}

static int emit_lod_reset(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out || tu_seq_types(e, x, out)) return -1;
  if (tu_rank(e, x) < 1) return em_fail(e, "X ('%s') has rank 0: no rows for a LoD", x->name);
  OpCtx c = {e->g, (Op *)e->op};
  Var *y = ctx_in(&c, "Y", 0);
  const int k = op_lod_input_levels(e->g, e->spec, out, NULL, NULL);
  const int y_lod = y ? op_lod_input_levels(e->g, e->spec, y, NULL, NULL) : -1;
  /* X's own LoD, when it has one, is replaced: taken (the run's inputs
   * give it) but not read */
  const int x_lod = op_lod_input(e->g, e->spec, x, NULL);
  if (attr_bool(e->op, "append", 0) && y_lod < 0 && (x_lod >= 0 || x->lod_level > 0))
    return em_fail(e, "append with an X ('%s') that carries a LoD gives Out two levels of LoD; paddlec keeps one",
                   x->name);
  if (x_lod >= 0) em_reads_lod(e, x_lod);
  int64_t *t;
  const int n = attr_ints(e->op, "target_lod", &t); /* read only without Y */
  const char *rows = em_dim(e, x, 0);
  Printer *p = e->p;
  if (y && y_lod >= 0) {
    if (k != y_lod) /* not reached: the walk goes from Out to Y */
      return em_fail(e, "Out ('%s') does not carry Y's LoD", out->name);
    em_reads_lod(e, y_lod);
    em_fault(e, "Y's LoD does not end at X's rows");
    pr_line(p, "/* Out carries Y's LoD ('%s'), whose last level must end at X's rows */", op_lod_name(e->g, y_lod));
    pr_line(p, "if (m->lod[%d][m->lod_count[%d] - 1] != %s) return 1;", y_lod, y_lod, rows);
  } else if (y) {
    if (y->lod_level > 0)
      return em_fail(e, "Y ('%s') is declared with a LoD that paddlec cannot follow; Paddle would take it as Out's",
                     y->name);
    if (y->dtype != RT_DT_INT32)
      return em_fail(e, "Y ('%s') is %s; Paddle's kernel reads its data as int32 offsets", y->name,
                     rt_dtype_name(y->dtype));
    Var *yv = tu_in(e, "Y", 0);
    if (!yv) return -1;
    const VarSpec *ys = em_spec(e, yv);
    if (ys->runtime_dim) return em_fail(e, "Y ('%s') must not have a run-time extent", y->name);
    SymDim cnt = spec_numel(ys);
    const char *store = em_makes_lod(e, k, cnt);
    em_fault(e, "Y's offsets (Out's LoD) are fewer than 2, do not start at 0, descend or do not end at X's rows");
    pr_line(p, "/* Out's LoD: Y's int32 data, at least 2 offsets from 0 up to X's rows */");
    pr_line(p, "const int32_t *y = %s;", em_ptr(e, yv, 1));
    pr_line(p, "const int64_t n = %s;", em_numel(e, yv));
    pr_line(p, "int64_t *out_lod = %s;", store);
    pr_line(p, "if (n < 2 || y[0] != 0 || y[n - 1] != %s) return 1;", rows);
    pr_line(p, "for (int64_t i = 0; i < n; i++) {");
    pr_line(p, "  if (i > 0 && y[i] < y[i - 1]) return 1;");
    pr_line(p, "  out_lod[i] = y[i];");
    pr_line(p, "}");
    pr_line(p, "m->lod_count[%d] = n;", k);
  } else {
    if (n < 2) return em_fail(e, "target_lod has %d offsets; Paddle wants at least 2", n < 0 ? 0 : n);
    if (t[0] != 0) return em_fail(e, "target_lod starts at %lld; Paddle wants 0", (long long)t[0]);
    for (int i = 1; i < n; i++)
      if (t[i] < t[i - 1]) return em_fail(e, "target_lod descends at offset %d; Paddle wants them ascending", i);
    const char *store = em_makes_lod(e, k, (SymDim){0, n});
    em_fault(e, "target_lod does not end at X's rows");
    const char *list = "";
    for (int i = 0; i < n; i++) list = pool_printf("%s%s%lld", list, i ? ", " : "", (long long)(int32_t)t[i]);
    pr_line(p, "/* Out's LoD: target_lod, which must end at X's rows */");
    pr_line(p, "static const int64_t target[%d] = {%s};", n, list);
    pr_line(p, "if (target[%d] != %s) return 1;", n - 1, rows);
    pr_line(p, "memcpy(%s, target, sizeof target);", store);
    pr_line(p, "m->lod_count[%d] = %d;", k, n);
  }
  return tu_copy(e, x, out);
}

/* ---- sequence_slice ---- */

static int infer_sequence_slice(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *off = ctx_need(c, "Offset", 0), *len = ctx_need(c, "Length", 0);
  if (!x || !off || !len) return -1;
  if (off->shape.rank != 2 || len->shape.rank != 2)
    return ctx_fail(c, "Offset %s and Length %s must have rank 2", shape_str(&off->shape), shape_str(&len->shape));
  if (x->shape.rank < 1) return ctx_fail(c, "X has rank 0");
  ctx_set(c, "Out", 0, &x->shape, x->dtype); /* Paddle's compile-time dims: X's, the rows a bound */
  if (c->g->specializing && x->shape.d[0] >= 0)
    ctx_set_runtime_extent(c, "Out", 0, 0, pool_printf("input Length's values ('%s')", len->name));
  return 0;
}

static int emit_sequence_slice(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *off = tu_in(e, "Offset", 0), *len = tu_in(e, "Length", 0), *out = tu_out(e, "Out", 0);
  if (!x || !off || !len || !out || tu_seq_types(e, x, out)) return -1;
  if (off->dtype != RT_DT_INT64 || len->dtype != RT_DT_INT64)
    return em_fail(e, "Offset ('%s') is %s and Length ('%s') %s; Paddle's kernel reads both as int64", off->name,
                   rt_dtype_name(off->dtype), len->name, rt_dtype_name(len->dtype));
  if (var_runtime_axis(out) != 0) return em_fail(e, "Out ('%s') must have rows known at run time", out->name);
  const int in = lod_input(e, "X", x);
  if (in < 0) return -1;
  const int k = op_lod_input(e->g, e->spec, out, NULL);
  const char *store = em_makes_lod(e, k, lod_offsets_bound(e, in, x));
  em_fault(e, "Offset's or Length's rows are not X's number of sequences, or a slice is negative or runs past its "
              "sequence");
  const char *t = em_ctype(x->dtype);
  Printer *p = e->p;
  pr_line(p, "/* Length[i] rows of sequence i of '%s''s LoD from its row Offset[i]; Out's LoD their running sums */",
          op_lod_name(e->g, in));
  pr_line(p, "const int64_t *lod = m->lod[%d], N = m->lod_count[%d] - 1, W = %s;", in, in, em_prod(e, x, 1, tu_rank(e, x)));
  pr_line(p, "const int64_t *off = %s, *len = %s;", em_ptr(e, off, 1), em_ptr(e, len, 1));
  pr_line(p, "if (N != %s || N != %s) return 1;", em_dim(e, len, 0), em_dim(e, off, 0));
  pr_line(p, "const %s *x = %s;", t, em_ptr(e, x, 1));
  pr_line(p, "%s *out = %s;", t, em_ptr(e, out, 0));
  pr_line(p, "int64_t *out_lod = %s;", store);
  pr_line(p, "out_lod[0] = 0;");
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "  if (off[i] < 0 || len[i] < 0 || lod[i] + off[i] + len[i] > lod[i + 1]) return 1;");
  pr_line(p, "  if (len[i] > 0) memcpy(out + out_lod[i] * W, x + (lod[i] + off[i]) * W, (size_t)(len[i] * W) * sizeof(%s));",
          t);
  pr_line(p, "  out_lod[i + 1] = out_lod[i] + len[i];");
  pr_line(p, "}");
  pr_line(p, "m->lod_count[%d] = N + 1;", k);
  pr_line(p, "%s = out_lod[N];", em_dim(e, out, 0));
  return 0;
}

/* ---- the grads ---- */

static int emit_sequence_reshape_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !dout || !dx || tu_seq_types(e, dout, dx)) return -1;
  (void)attr_int(e->op, "new_dim", 0); /* the forward's: the grad copies the elements whatever it was */
  pr_line(e->p, "/* X@GRAD: Out@GRAD's elements in X's dims */");
  return tu_copy(e, dout, dx);
}

static int emit_sequence_concat_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  const int n = ctx_nin(&c, "X");
  Var *dout = tu_in(e, "Out@GRAD", 0), *x0 = tu_in(e, "X", 0);
  if (!dout || !x0) return -1;
  if (ctx_nout(&c, "X@GRAD") > n) return em_fail(e, "X@GRAD has more vars than X");
  const int r = tu_rank(e, dout);
  const char *t = em_ctype(dout->dtype);
  int *in = pool_alloc(sizeof *in * (size_t)n);
  const char **dxs = pool_alloc(sizeof *dxs * (size_t)n);
  for (int j = 0; j < n; j++) {
    Var *x = tu_in(e, "X", j), *dx = ctx_out(&c, "X@GRAD", j);
    if (!x) return -1;
    if ((in[j] = lod_input(e, pool_printf("X[%d]", j), x)) < 0) return -1;
    if (!dx)
      return em_fail(e, "X@GRAD[%d] is unbound (X[%d] '%s' needs no grad): Paddle's kernel then splits Out@GRAD into "
                        "the wrong pieces (SplitFunctor pairs the grads it writes with the first pieces' sizes)",
                     j, j, x->name);
    if (!(dx = tu_out(e, "X@GRAD", j)) || tu_seq_types(e, dout, dx)) return -1;
    if (tu_rank(e, dx) != r || strcmp(em_prod(e, dx, 1, r), em_prod(e, dout, 1, r)))
      return em_fail(e, "X@GRAD[%d] ('%s') and Out@GRAD ('%s') differ in row size", j, dx->name, dout->name);
    dxs[j] = em_ptr(e, dx, 0);
  }
  em_fault(e, "the inputs have different numbers of sequences, or rows other than Out@GRAD's");
  Printer *p = e->p;
  pr_line(p, "/* sequence i of Out@GRAD split into sequence i of each input's grad in turn */");
  pr_line(p, "const int64_t N = m->lod_count[%d] - 1, W = %s;", in[0], em_prod(e, dout, 1, r));
  for (int j = 1; j < n; j++) pr_line(p, "if (m->lod_count[%d] - 1 != N) return 1;", in[j]);
  pr_line(p, "const int64_t *lods[%d] = {", n);
  for (int j = 0; j < n; j++) pr_line(p, "  m->lod[%d], /* '%s' */", in[j], op_lod_name(e->g, in[j]));
  pr_line(p, "};");
  pr_line(p, "%s *const dxs[%d] = {", t, n);
  for (int j = 0; j < n; j++) pr_line(p, "  %s,", dxs[j]);
  pr_line(p, "};");
  pr_line(p, "const %s *g = %s;", t, em_ptr(e, dout, 1));
  pr_line(p, "int64_t at = 0;");
  for (int j = 0; j < n; j++) pr_line(p, "at += lods[%d][N];", j);
  pr_line(p, "if (at != %s) return 1;", em_dim(e, dout, 0));
  pr_line(p, "at = 0;");
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "  for (int j = 0; j < %d; j++) {", n);
  pr_line(p, "    const int64_t rows = lods[j][i + 1] - lods[j][i];");
  pr_line(p, "    if (rows > 0) memcpy(dxs[j] + lods[j][i] * W, g + at * W, (size_t)(rows * W) * sizeof(%s));",
          t);
  pr_line(p, "    at += rows;");
  pr_line(p, "  }");
  pr_line(p, "}");
  return 0;
}

const OpDef op_sequence_reshape = {.type = "sequence_reshape", .infer = infer_sequence_reshape,
                                   .emit_c = emit_sequence_reshape, .lod_made = out_lod_made};
const OpDef op_sequence_concat = {.type = "sequence_concat", .infer = infer_sequence_concat,
                                  .emit_c = emit_sequence_concat, .lod_made = out_lod_made};
const OpDef op_lod_reset = {.type = "lod_reset", .infer = infer_lod_reset, .emit_c = emit_lod_reset,
                            .lod_made = lod_reset_made, .lod_slot = "Y", .lod_any_rows = 1,
                            .runtime_extents = 1};
const OpDef op_sequence_slice = {.type = "sequence_slice", .infer = infer_sequence_slice, .emit_c = emit_sequence_slice,
                                 .lod_made = out_lod_made};
/* X@GRAD carries X's LoD (Paddle's ShareLoD), each X@GRAD[j] X[j]'s. */
const OpDef op_sequence_reshape_grad = {.type = "sequence_reshape_grad", .infer = grad_infer,
                                        .emit_c = emit_sequence_reshape_grad, .lod_slot = "X"};
const OpDef op_sequence_concat_grad = {.type = "sequence_concat_grad", .infer = grad_infer,
                                       .emit_c = emit_sequence_concat_grad, .lod_slot = "X"};

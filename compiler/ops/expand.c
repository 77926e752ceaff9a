/* Broadcasting copies.
 *   expand (v1): X, ExpandTimes†, expand_times_tensor†* -> Out;
 *     expand_times:INTS=[] (-1 where a tensor gives the value).
 *     Out[i] = X[i] * expand_times[i], -1 when either is -1.
 *   expand_v2: X, Shape†, expand_shapes_tensor†* -> Out; shape:INTS=[]
 *     (-2 where a tensor gives the value, -1 = keep X's dim).
 *   expand_as: X, target_tensor -> Out = target_tensor's dims.
 *   expand_as_v2: X, Y† -> Out = target_shape:INTS=[] (Python writes Y's
 *     shape there); with a -1 in it Y's dims are the target (phi
 *     ExpandAsKernel), which at compile time are the same -1s.
 *   tile: X, RepeatTimes†, repeat_times_tensor†* -> Out;
 *     repeat_times:INTS=[].
 *   broadcast_tensors: X* -> Out*, numpy broadcasting of all inputs.
 * Outputs keep X's dtype.  The expand_v2 and tile rules below are phi
 * ExpandInferMeta / TileInferMeta, with their compile-time quirks; while
 * specializing, values of the shape / repeat tensors known at compile time
 * (ctx_values) are used as the kernels use them.
 * Emission: strided copies (rt_copy_strided) with stride 0 where the data
 * repeats: a broadcast dim for expand_v2 / expand_as_v2 / broadcast_tensors
 * (X aligned to the right), a leading (repeats, stride 0) dim before each
 * of X's dims for tile, expand and expand_as (v1), whose repeat counts are
 * Out's dims over X's.  Everything is read off the concrete shapes, so
 * shapes given by tensors work whenever specialization resolved them.
 * expand_as_v2 to a Y whose sizes the run gives takes them (X's, where it
 * has such sizes too, checked against them at run time).  tile of an X
 * whose sizes the run gives (repeat counts known at compile time): Out's
 * dims there are the run's times the counts, the copy walks X's.
 * expand_v2 keeps X's sizes the run gives where `shape` has -1
 * (take_along_axis broadcasting its index). */
#include <string.h>

#include "../util.h"
#include "move_call.h"
#include "ops.h"
#include "run_hw.h"
#include "slice_call.h"
#include "tensor_util.h"

/* tensor_list_len() of the tensors in `slot`; -1 after an error. */
static int slot_list_len(OpCtx *c, const char *slot) {
  Var *v = ctx_need(c, slot, 0);
  return v ? (int)tensor_list_len(&v->shape, ctx_nin(c, slot)) : -1;
}

static int infer_expand(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t *times;
  int n = attr_ints(c->op, "expand_times", &times);
  Shape s = x->shape;
  if (n && n != s.rank) return ctx_fail(c, "expand_times has %d entries for rank %d", n, s.rank);
  for (int i = 0; i < s.rank; i++) {
    int64_t t = n ? times[i] : -1;
    s.d[i] = (s.d[i] == -1 || t == -1) ? DIM_UNKNOWN : s.d[i] * t;
  }
  ctx_set(c, "Out", 0, &s, x->dtype);
  return 0;
}

/* X's sizes the run gives (the rows of paddle.nonzero, an image's height),
 * each kept by a -1 of the target `shape` (n dims) of X's rank: Out takes
 * them; refused otherwise. */
static int run_kept(OpCtx *c, const Var *x, const int64_t *shape, int n) {
  for (int i = 0; i < x->shape.rank && var_runtime_mask(x); i++)
    if (var_runtime_mask(x) >> i & 1 && (n != x->shape.rank || shape[i] != -1))
      return ctx_fail(c, "dim %d of X ('%s') is only known at run time; expand_v2 takes it where `shape` keeps it "
                      "(-1, X and Out of one rank)", i, x->name);
  ctx_pass_runtime_extent(c, x, "Out", 0);
  return 0;
}

static int infer_expand_v2(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *in = &x->shape;
  int64_t *shape, unknown[RT_MAX_RANK];
  int n = attr_ints(c->op, "shape", &shape);
  /* run-time values known while specializing: Shape, else the list; -1
   * keeps X's dim, aligned to the right (phi ExpandKernel) */
  int nt = tu_slot_values(c, "Shape", 0, unknown, RT_MAX_RANK);
  if (nt < 0) nt = tu_slot_values(c, "expand_shapes_tensor", 1, unknown, RT_MAX_RANK);
  if (nt >= in->rank) {
    Shape s = {nt, {0}};
    for (int i = 0; i < nt; i++) {
      int j = i - (nt - in->rank);
      s.d[i] = unknown[i] == -1 && j >= 0 ? in->d[j] : unknown[i];
      if (s.d[i] <= 0) return ctx_fail(c, "shape value %d is %lld", i, (long long)unknown[i]);
    }
    ctx_set(c, "Out", 0, &s, x->dtype);
    return run_kept(c, x, unknown, nt);
  }
  /* At compile time a non-empty `shape` wins; otherwise the values come
   * from the tensors and are all -1. */
  const char *slot = ctx_in(c, "Shape", 0)                  ? "Shape"
                     : ctx_in(c, "expand_shapes_tensor", 0) ? "expand_shapes_tensor"
                                                            : NULL;
  if (n == 0) {
    n = slot ? slot_list_len(c, slot) : in->rank;
    if (n < 0) return -1;
    if (n > RT_MAX_RANK) return ctx_fail(c, "target shape has %d dims", n);
    for (int i = 0; i < n; i++) unknown[i] = -1;
    shape = unknown;
  }
  if (slot && ctx_feeds_fixed(c) && var_runtime_axis(x) < 0) { /* Out's dims are the run's: a bound? */
    int rank = slot_list_len(c, slot);
    if (rank < 0) return -1;
    if (rank < in->rank || rank > RT_MAX_RANK)
      return ctx_fail(c, "input %s gives %d dims for X %s", slot, rank, shape_str(in));
    int b = ctx_max_shape(c, "Out", 0, rank, x->dtype, pool_printf("%s's values", slot));
    if (b) return b < 0 ? -1 : 0;
    n = rank;
  }
  if (slot && c->g->specializing) { /* the run's values (spec.c refuses Out, naming them), or the batch open */
    Shape s = {n, {0}};
    for (int i = 0; i < n; i++) s.d[i] = DIM_UNKNOWN;
    ctx_set(c, "Out", 0, &s, x->dtype);
    return 0;
  }
  if (n > RT_MAX_RANK || n < in->rank)
    return ctx_fail(c, "target shape has %d dims for X %s", n, shape_str(in));
  Shape s = {n, {0}};
  for (int i = 0; i < n; i++) {
    /* Paddle 2.6 reads X's dims here without aligning them to the right. */
    if (i < in->rank && in->d[i] == -1) s.d[i] = DIM_UNKNOWN;
    else if (shape[i] == -1) s.d[i] = i < in->rank ? in->d[i] : DIM_UNKNOWN;
    else if (shape[i] == -2) s.d[i] = DIM_UNKNOWN;
    else if (shape[i] > 0) s.d[i] = shape[i];
    else return ctx_fail(c, "shape[%d] = %lld is invalid", i, (long long)shape[i]);
  }
  ctx_set(c, "Out", 0, &s, x->dtype);
  return run_kept(c, x, shape, n);
}

/* expand_as_v2 to Y's shape where the run gives some of Y's dims (y: the Y
 * whose shape is the target, else NULL): Out takes them; a dim of X the
 * run gives must meet one of them (the run checks the two agree, as
 * Paddle's kernel does), a fixed one there must be 1. */
static int expand_as_extents(OpCtx *c, const Var *x, const Var *y) {
  const unsigned mx = var_runtime_mask(x), my = y ? var_runtime_mask(y) : 0;
  if (!mx && !my) return 0;
  const int shift = y ? y->shape.rank - x->shape.rank : 0;
  for (int i = 0; y && i < y->shape.rank; i++) {
    const int j = i - shift, xrun = j >= 0 && mx >> j & 1, yrun = my >> i & 1;
    if (xrun != yrun && (xrun || (j >= 0 && x->shape.d[j] != 1))) y = NULL;
  }
  if (!y)
    return ctx_fail(c, "X ('%s') or the target has dims only the run gives; %s takes them where the target is Y's "
                    "shape, a dim of X the run gives against one of Y's, a fixed one there 1", x->name, c->op->type);
  ctx_pass_runtime_extent(c, y, "Out", 0);
  return 0;
}

static int infer_expand_as(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Var *from_y = NULL; /* Y, when its shape is the target */
  int64_t *target;
  int n = attr_ints(c->op, "target_shape", &target);
  Shape s;
  if (strcmp(c->op->type, "expand_as") == 0) {
    Var *y = ctx_need(c, "target_tensor", 0);
    if (!y) return -1;
    s = y->shape;
  } else {
    if (n > RT_MAX_RANK) return ctx_fail(c, "target_shape has %d dims", n);
    s = shape_make(n, target);
    /* phi ExpandAsKernel: a -1 in target_shape means "Y's shape" */
    Var *y = ctx_in(c, "Y", 0);
    for (int i = 0; i < n; i++)
      if (target[i] == -1 && y && y->shape.rank >= 0) s = y->shape, from_y = y;
  }
  if (s.rank < x->shape.rank)
    return ctx_fail(c, "target %s has lower rank than X %s", shape_str(&s), shape_str(&x->shape));
  ctx_set(c, "Out", 0, &s, x->dtype);
  return expand_as_extents(c, x, from_y);
}

/* tile's Out from an X whose sizes the run gives, by n repeat counts rep
 * known here: Out's dim i (rank dims) is a run-time extent where X's is,
 * the same extents where every such count is 1, else extents of their own
 * (one root per X root and counts). */
static int tile_extents(OpCtx *c, const Var *x, int rank, int n, const int64_t *rep) {
  const unsigned run = var_runtime_mask(x);
  if (!run) return 0;
  const int shift = rank - x->shape.rank;
  if (shift < 0 || rank > RT_MAX_RANK) return ctx_fail(c, "Out has fewer dims than X ('%s')", x->name);
  unsigned mask = 0;
  int ones = 1;
  const char *key = "";
  for (int j = 0; j < x->shape.rank; j++) {
    if (!(run >> j & 1)) continue;
    const int ir = j + shift - (rank - n);
    const int64_t r = ir >= 0 ? rep[ir] : 1;
    if (r < 1) return ctx_fail(c, "repeat_times[%d] is not known; X ('%s') has sizes only the run gives", ir, x->name);
    const int at = j + shift; /* Out's dim */
    if (at < 0 || at >= RT_MAX_RANK) return ctx_fail(c, "Out has too many dims");
    mask |= 1u << at;
    ones &= r == 1;
    key = pool_printf("%s %d*%lld", key, j, (long long)r);
  }
  ctx_set_runtime_extents(c, "Out", 0, mask, x->runtime_from);
  Var *out = ctx_out(c, "Out", 0);
  if (!out) return 0;
  if (ones) ctx_inherit_root(out, x, 1);
  else run_hw_share_root(c->g, out, pool_printf("%d:%u:tile%s", x->runtime_root, run, key));
  return 0;
}

static int infer_tile(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t *rep, unknown[RT_MAX_RANK];
  int n = attr_ints(c->op, "repeat_times", &rep);
  const char *slot = ctx_in(c, "RepeatTimes", 0) ? "RepeatTimes" : NULL;
  /* the kernel's: RepeatTimes, else the list (the compile-time rule takes
   * the list only with an empty repeat_times) */
  const char *run = slot ? slot : ctx_in(c, "repeat_times_tensor", 0) ? "repeat_times_tensor" : NULL;
  if (!slot && n == 0) slot = run;
  /* run-time values known while specializing: RepeatTimes, else the list */
  int nt = tu_slot_values(c, "RepeatTimes", 0, unknown, RT_MAX_RANK);
  if (nt < 0) nt = tu_slot_values(c, "repeat_times_tensor", 1, unknown, RT_MAX_RANK);
  if (nt >= 0) {
    rep = unknown;
    n = nt;
  } else if (run && ctx_has_max_shape(c, "Out", 0) && var_runtime_axis(x) < 0) { /* the run's, within a bound */
    int nr = slot_list_len(c, run);
    if (nr < 0 || nr > RT_MAX_RANK) return nr < 0 ? -1 : ctx_fail(c, "input %s gives %d repeat counts", run, nr);
    int b = ctx_max_shape(c, "Out", 0, nr > x->shape.rank ? nr : x->shape.rank, x->dtype,
                          pool_printf("%s's values", run));
    return b < 0 ? -1 : 0;
  } else if (slot && c->g->specializing) { /* Out's dims would be the run's: spec.c would refuse them */
    const Var *o = ctx_out(c, "Out", 0);
    return ctx_fail(c, "the repeat counts come from input %s, whose values only the run knows; bound Out with "
                       "--max-shape '%s'=d0,d1,... to compile it", slot, o ? o->name : "");
  } else if (slot || n == 0) {
    n = slot ? slot_list_len(c, slot) : x->shape.rank;
    if (n < 0) return -1;
    if (n > RT_MAX_RANK) return ctx_fail(c, "repeat_times has %d entries", n);
    for (int i = 0; i < n; i++) unknown[i] = -1;
    rep = unknown;
  }
  int rank = x->shape.rank > n ? x->shape.rank : n;
  if (rank > RT_MAX_RANK) return ctx_fail(c, "repeat_times has %d entries", n);
  Shape s = {rank, {0}};
  for (int i = 0; i < rank; i++) {
    /* the shorter of X's dims and repeat_times is padded in front with 1 */
    int ix = i - (rank - x->shape.rank), ir = i - (rank - n);
    int64_t d = ix >= 0 ? x->shape.d[ix] : 1, r = ir >= 0 ? rep[ir] : 1;
    if (d != -1 && r != -1 && r <= 0)
      return ctx_fail(c, "repeat_times[%d] = %lld must be > 0", ir, (long long)r);
    s.d[i] = (d == -1 || r == -1) ? DIM_UNKNOWN : d * r;
  }
  ctx_set(c, "Out", 0, &s, x->dtype);
  return tile_extents(c, x, rank, n, rep);
}

static int infer_broadcast_tensors(OpCtx *c) {
  int n = ctx_nin(c, "X"), rank = 0;
  for (int i = 0; i < n; i++) {
    Var *xi = ctx_need(c, "X", i);
    if (!xi) return -1;
    if (xi->shape.rank > rank) rank = xi->shape.rank;
  }
  Shape s = {rank, {0}};
  for (int k = 0; k < rank; k++) { /* k counts from the last dim */
    int64_t t = 1;
    for (int i = 0; i < n; i++) {
      const Shape *xs = &ctx_in(c, "X", i)->shape;
      int a = xs->rank - k - 1;
      int64_t d = a >= 0 ? xs->d[a] : 1;
      if (t > 1 && d > 1 && t != d) return ctx_fail(c, "X[%d] does not broadcast", i);
      if (d != 1 && !(d == -1 && t > 1)) t = d;
    }
    s.d[rank - k - 1] = t;
  }
  for (int i = 0; i < ctx_nout(c, "Out"); i++) {
    Var *xi = ctx_in(c, "X", i);
    ctx_set(c, "Out", i, &s, xi ? xi->dtype : ctx_in(c, "X", 0)->dtype);
  }
  return 0;
}

/* ---- emission ---- */

static int emit_bounded_repeat(EmitCtx *e, Var *x, Var *out, int tile);

/* Out = X broadcast numpy-style (X's dims aligned to the right; a dim of 1
 * repeats); `braced`: the copy in braces of its own. */
static int emit_broadcast(EmitCtx *e, Var *x, Var *out, int braced) {
  if (!x || !out) return -1;
  if (x->dtype != out->dtype) return em_fail(e, "X and Out differ in dtype");
  const VarSpec *xs = em_spec(e, x), *os = em_spec(e, out);
  int r = os->rank, shift = r - xs->rank;
  if (shift < 0) return em_fail(e, "X has more dims than Out");
  const char *xst[RT_MAX_RANK], *dims[RT_MAX_RANK], *st[RT_MAX_RANK];
  tu_strides(e, x, xst);
  for (int i = 0; i < r; i++) {
    int j = i - shift;
    dims[i] = em_dim(e, out, i); /* a size the run gives: X's there is the same (checked) or 1 */
    if (j >= 0 && xs->runtime_mask >> j & 1) st[i] = xst[j];
    else if (j >= 0 && !(os->runtime_mask >> i & 1) && !memcmp(&xs->d[j], &os->d[i], sizeof(SymDim))) st[i] = xst[j];
    else if (j < 0 || tu_is_one(xs->d[j])) st[i] = "0";
    else if (xs->d[j].a)
      return em_fail(e, "dim %d of X (%s) broadcasts to %s only at some batch sizes; fix the batch with --shape", j,
                     em_sym(xs->d[j]), dims[i]);
    else return em_fail(e, "dim %d of X (%s) does not broadcast to %s", j, em_sym(xs->d[j]), dims[i]);
  }
  MoveCall call;
  if (tu_strided_call(e, x, "0", out, r, dims, st, &call)) return -1;
  call.braced = braced;
  move_print_c(e->p, &call);
  return 0;
}

/* The view of `out` (Out, or Out@GRAD) as X repeated along each dim (X
 * padded in front with 1s): the repeat count of a dim is Out's dim over
 * X's (so repeats given by tensors work too), and each dim becomes a
 * (repeats, stride 0) pair before X's own (dims[2 * rank], X's strides in
 * st).  This also covers broadcasting (X's dim 1 repeated Out's dim times).
 * Returns the pair count, or -1 after em_fail. */
static int repeat_view(EmitCtx *e, const Var *x, const Var *out, const char *xname, SymDim *dims,
                       const char **st) {
  const VarSpec *xs = em_spec(e, x), *os = em_spec(e, out);
  int r = os->rank, shift = r - xs->rank;
  if (shift < 0) return em_fail(e, "X has more dims than %s", xname);
  const char *xst[RT_MAX_RANK];
  tu_strides(e, x, xst);
  for (int i = 0; i < r; i++) {
    int j = i - shift;
    SymDim xd = j >= 0 ? xs->d[j] : (SymDim){0, 1}, od = os->d[i], rep = {-1, -1};
    if (!memcmp(&xd, &od, sizeof xd)) rep = (SymDim){0, 1};
    else if (xd.a == 0 && xd.c > 0 && od.a % xd.c == 0 && od.c % xd.c == 0) rep = (SymDim){od.a / xd.c, od.c / xd.c};
    else if (xd.a > 0 && od.a % xd.a == 0 && od.c == od.a / xd.a * xd.c) rep = (SymDim){0, od.a / xd.a};
    if (rep.a < 0 || (rep.a == 0 && rep.c < 1))
      return em_fail(e, "%s dim %d (%s) is not a multiple of X's (%s)", xname, i, em_sym(od), em_sym(xd));
    dims[2 * i] = rep;
    st[2 * i] = "0";
    dims[2 * i + 1] = xd;
    st[2 * i + 1] = j >= 0 ? xst[j] : "0";
  }
  return r;
}

/* Out = X repeated along each dim (repeat_view); along a size the run gives
 * (tile, tile_extents) X's extent, Out's being it times the count. */
static int emit_repeat(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (!strcmp(e->op->type, "tile") && tu_max_shaped(e, out)) return emit_bounded_repeat(e, x, out, 1);
  if (x->dtype != out->dtype) return em_fail(e, "X and Out differ in dtype");
  SymDim d[2 * RT_MAX_RANK];
  const char *dims[2 * RT_MAX_RANK], *st[2 * RT_MAX_RANK];
  int r = repeat_view(e, x, out, "Out", d, st);
  if (r < 0) return -1;
  for (int i = 0; i < 2 * r; i++) dims[i] = em_sym(d[i]);
  const unsigned xrun = em_spec(e, x)->runtime_mask, orun = em_spec(e, out)->runtime_mask;
  for (int i = 0, shift = r - tu_rank(e, x); i < r && xrun; i++) { /* tile_extents: the run's, times the count */
    const int j = i - shift;
    if (j < 0 || !(xrun >> j & 1)) continue;
    if (!(orun >> i & 1)) return em_fail(e, "Out's dim %d is not a size the run gives, X's is", i);
    dims[2 * i + 1] = em_dim(e, x, j);
    const char *count = em_sym(d[2 * i]);
    move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = em_dim(e, out, i), .src = tu_mul(dims[2 * i + 1], count)});
  }
  return tu_strided_copy(e, x, "0", out, 2 * r, dims, st);
}

/* X's dims as a C initializer list padded in front with 1s to `rank`. */
static const char *padded_dims(EmitCtx *e, const Var *x, int rank) {
  const VarSpec *xs = em_spec(e, x);
  const char *s = "";
  for (int i = 0; i < rank; i++) {
    int j = i - (rank - xs->rank);
    s = pool_printf("%s%s%s", s, i ? ", " : "", j >= 0 ? em_sym(xs->d[j]) : "1");
  }
  return s;
}

/* expand_v2 / tile with Out's dims from tensors the run gives (a
 * --max-shape bound): the kernel works the dims out as phi's ExpandKernel /
 * TileKernel do, with their checks (a 0, a negative value other than
 * expand's -1 on an existing dim, a non-singleton dim of X that does not
 * match: the run stops), sets Out's extents, then copies X repeated
 * (stride 0 along a dim of X that is 1, or along tile's repeats). */
static int emit_bounded_repeat(EmitCtx *e, Var *x, Var *out, int tile) {
  if (x->dtype != out->dtype) return em_fail(e, "X and Out differ in dtype");
  int r = tu_rank(e, out);
  const char *v[RT_MAX_RANK], *vals = "";
  int n = tile ? tu_run_values(e, "RepeatTimes", "repeat_times_tensor", "the repeat counts", v)
               : tu_run_values(e, "Shape", "expand_shapes_tensor", "the target shape", v);
  if (n < 0) return -1;
  for (int i = 0; i < n; i++) vals = pool_printf("%s%s%s", vals, i ? ", " : "", v[i]);
  const char *dims[RT_MAX_RANK], *copy_dims[2 * RT_MAX_RANK], *st[2 * RT_MAX_RANK], *xst[RT_MAX_RANK];
  pr_line(e->p, "/* Out's dims, the run's: %s */", tile ? "X's (padded with 1s) times the repeat counts"
                                                          : "the shape values, -1 keeping X's dim");
  pr_line(e->p, "const int64_t v[%d] = {%s}, xd[%d] = {%s};", n, vals, r, padded_dims(e, x, r));
  pr_line(e->p, "int64_t od[%d];", r);
  pr_line(e->p, "for (int i = 0; i < %d; i++) {", r);
  if (tile) {
    if (r > n) pr_line(e->p, "const int64_t rep = i < %d ? 1 : v[i - %d];", r - n, r - n);
    else pr_line(e->p, "const int64_t rep = v[i];");
    pr_line(e->p, "if (rep <= 0 || (xd[i] && rep > INT64_MAX / xd[i])) return 1;");
    pr_line(e->p, "od[i] = xd[i] * rep;");
  } else {
    pr_line(e->p, "if (v[i] == 0 || (v[i] < 0 && (v[i] != -1 || i < %d))) return 1;", r - tu_rank(e, x));
    pr_line(e->p, "if (v[i] > 0 && xd[i] != 1 && xd[i] != v[i]) return 1;");
    pr_line(e->p, "od[i] = v[i] == -1 ? xd[i] : v[i];");
  }
  pr_line(e->p, "}");
  for (int i = 0; i < r; i++) dims[i] = pool_printf("od[%d]", i);
  tu_set_extents(e, out, dims, r, tile ? "a repeat count from tensors below 1, or Out past its --max-shape bound"
                                       : "a shape from tensors Paddle's expand refuses, or past its --max-shape bound");
  tu_strides(e, x, xst);
  const VarSpec *xs = em_spec(e, x);
  for (int i = 0; i < r; i++) { /* each dim as (repeats, stride 0), (X's dim, X's stride) */
    int j = i - (r - xs->rank);
    const char *xdim = j >= 0 ? em_sym(xs->d[j]) : "1", *stride = j >= 0 ? xst[j] : "0";
    copy_dims[2 * i] = pool_printf("(xd[%d] ? od[%d] / xd[%d] : 0)", i, i, i);
    st[2 * i] = "0";
    copy_dims[2 * i + 1] = xdim;
    st[2 * i + 1] = stride;
  }
  return tu_strided_copy(e, x, "0", out, 2 * r, copy_dims, st);
}

static int emit_expand(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (x && out && !strcmp(e->op->type, "expand_v2") && tu_max_shaped(e, out)) return emit_bounded_repeat(e, x, out, 0);
  OpCtx c = {e->g, (Op *)e->op};
  Var *y = ctx_in(&c, "Y", 0);
  if (x && out && y && em_spec(e, out)->runtime_mask) /* Out's sizes from Y's, X's checked against them */
    tu_bcast_extents(e, out, 2, (const Var *const[]){y, x}, (const int64_t[]){-1, -1});
  return emit_broadcast(e, x, out, 0);
}

static int emit_broadcast_tensors(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  for (int i = 0; i < ctx_nout(&c, "Out"); i++)
    if (emit_broadcast(e, tu_in(e, "X", i), tu_out(e, "Out", i), 1)) return -1;
  return 0;
}

/* ---- gradients ---- */

/* expand_grad, expand_v2_grad, expand_as_v2_grad, tile_grad (X, Out@GRAD
 * -> X@GRAD; phi ExpandGradKernel / ExpandAsGradKernel / TileGradKernel,
 * fluid ExpandGradKernel): X@GRAD takes X's shape, each element the sum of
 * the Out@GRAD elements its X element was copied to.  Out@GRAD is read as
 * repeat_view reads Out (its dims over X's are the repeat counts), so the
 * attributes and tensors that gave Out's shape are not needed.  Out@GRAD
 * is walked once in memory order, one task; each X@GRAD element starts at
 * 0 and adds its terms in that order (Paddle sums with Eigen over the
 * repeat axes, in an order of its own: results agree to rounding).  With
 * nothing repeated, X@GRAD = Out@GRAD.  `braced`: the kernel in braces of
 * its own. */
static int repeat_grad(EmitCtx *e, const Var *dout, const Var *dx, int braced) {
  if ((dx->dtype != RT_DT_FP32 && dx->dtype != RT_DT_FP64) || dout->dtype != dx->dtype)
    return em_fail(e, "%s of %s (Out@GRAD %s) is not supported (float32 or float64)", e->op->type,
                   rt_dtype_name(dx->dtype), rt_dtype_name(dout->dtype));
  SymDim d[2 * RT_MAX_RANK];
  const char *st[2 * RT_MAX_RANK];
  int r = repeat_view(e, dx, dout, "Out@GRAD", d, st);
  if (r < 0) return -1;
  /* sizes the run gives: X@GRAD's own dims (X's, grad_infer), each
   * repeated a fixed count (emit_repeat's tile_extents); a repeat count the
   * run gives is refused */
  const char *ext[2 * RT_MAX_RANK];
  const unsigned xrun = em_spec(e, dx)->runtime_mask, orun = em_spec(e, dout)->runtime_mask;
  for (int i = 0, shift = r - tu_rank(e, dx); i < r; i++) {
    const int j = i - shift, run = j >= 0 && xrun >> j & 1;
    if (orun >> i & 1 && !run)
      return em_fail(e, "dim %d of Out@GRAD is a size the run gives that X's dim does not have (a repeat count the "
                     "run gives), which is not supported", i);
    ext[2 * i] = em_sym(d[2 * i]);
    ext[2 * i + 1] = run ? em_dim(e, dx, j) : em_sym(d[2 * i + 1]);
  }
  /* loops: the dims that are not 1, adjacent dims of one kind (repeat:
   * stride 0; X's own: X's strides, which then chain) merged */
  SliceCall call = {.kind = SLICE_REPEAT_GRAD, .type = em_ctype(dx->dtype), .braced = braced};
  const char **n = call.dims, **xs = call.strides;
  int nl = 0, reduce = 0;
  for (int i = 0; i < 2 * r; i++) {
    if (tu_is_one(d[i]) && !strcmp(ext[i], "1")) continue;
    int rep = !strcmp(st[i], "0");
    reduce |= rep;
    if (nl && (strcmp(xs[nl - 1], "0") == 0) == rep) {
      n[nl - 1] = tu_mul(n[nl - 1], ext[i]);
      if (!rep) xs[nl - 1] = st[i];
    } else {
      n[nl] = ext[i];
      xs[nl++] = st[i];
    }
  }
  call.rank = nl, call.reduce = reduce;
  call.dout = em_ptr(e, dout, 1);
  call.dx = em_ptr(e, dx, 0);
  call.numel = em_numel(e, dx);
  slice_print_c(e->p, &call);
  return 0;
}

static int emit_repeat_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !dout || !dx) return -1;
  return repeat_grad(e, dout, dx, 0);
}

/* broadcast_tensors_grad (X*, Out@GRAD* -> X@GRAD*, each may be absent;
 * phi BroadcastTensorsGradKernel): X@GRAD[i] sums Out@GRAD[i] over the
 * dims X[i] was broadcast along, as repeat_grad does (Paddle sums with
 * Eigen: results agree to rounding); X gives only the count. */
static int emit_broadcast_tensors_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  for (int i = 0; i < ctx_nout(&c, "X@GRAD"); i++) {
    if (!ctx_out(&c, "X@GRAD", i)) continue;
    Var *x = tu_in(e, "X", i), *dout = tu_in(e, "Out@GRAD", i), *dx = tu_out(e, "X@GRAD", i);
    if (!x || !dout || !dx) return -1;
    if (repeat_grad(e, dout, dx, 1)) return -1;
  }
  return 0;
}

/* The attributes and tensors that gave Out's shape: Out@GRAD's dims over
 * X's give the same repeat counts (emit_repeat_grad). */
static const char *const expand_grad_ignores[] = {"ExpandTimes", "expand_times_tensor", NULL};
static const char *const expand_grad_attr_ignores[] = {"expand_times", NULL};
static const char *const expand_v2_grad_ignores[] = {"Shape", "expand_shapes_tensor", NULL};
static const char *const expand_v2_grad_attr_ignores[] = {"shape", NULL};
static const char *const expand_as_v2_grad_attr_ignores[] = {"target_shape", NULL};
static const char *const tile_grad_ignores[] = {"RepeatTimes", "repeat_times_tensor", NULL};
static const char *const tile_grad_attr_ignores[] = {"repeat_times", NULL};
const OpDef op_expand_grad = {.type = "expand_grad", .infer = grad_infer, .emit_c = emit_repeat_grad,
                              .ignores = expand_grad_ignores, .attr_ignores = expand_grad_attr_ignores,
                              .runtime_extents = 2};
const OpDef op_expand_v2_grad = {.type = "expand_v2_grad", .infer = grad_infer, .emit_c = emit_repeat_grad,
                                 .ignores = expand_v2_grad_ignores, .attr_ignores = expand_v2_grad_attr_ignores,
                                 .runtime_extents = 2};
const OpDef op_expand_as_v2_grad = {.type = "expand_as_v2_grad", .infer = grad_infer, .emit_c = emit_repeat_grad,
                                    .attr_ignores = expand_as_v2_grad_attr_ignores,
                                    .runtime_extents = 2};
const OpDef op_tile_grad = {.type = "tile_grad", .infer = grad_infer, .emit_c = emit_repeat_grad,
                            .ignores = tile_grad_ignores, .attr_ignores = tile_grad_attr_ignores,
                            .runtime_extents = 2};

const OpDef op_broadcast_tensors = {.type = "broadcast_tensors", .infer = infer_broadcast_tensors,
                                    .emit_c = emit_broadcast_tensors};
const OpDef op_broadcast_tensors_grad = {.type = "broadcast_tensors_grad", .infer = grad_infer,
                                         .emit_c = emit_broadcast_tensors_grad};
const OpDef op_expand = {.type = "expand", .infer = infer_expand, .emit_c = emit_repeat};
const OpDef op_expand_as = {.type = "expand_as", .infer = infer_expand_as, .emit_c = emit_repeat};
const OpDef op_expand_as_v2 = {.type = "expand_as_v2", .infer = infer_expand_as, .emit_c = emit_expand,
                               .runtime_extents = 2};
const OpDef op_expand_v2 = {.type = "expand_v2", .infer = infer_expand_v2, .emit_c = emit_expand, .max_shape = 1,
                            .runtime_extents = 2};
const OpDef op_tile = {.type = "tile", .infer = infer_tile, .emit_c = emit_repeat, .max_shape = 1,
                       .runtime_extents = 2};

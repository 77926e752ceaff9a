/* reshape, reshape2 (spec 7.5).
 *   inputs:  X, Shape† (1-D int tensor), ShapeTensor†* (1-element tensors)
 *   outputs: Out; reshape2 also XShape = [0] ++ X.dims
 *   attrs:   shape:INTS=[]; extra use_mkldnn, use_quantizer,
 *            mkldnn_data_type; legacy `inplace` (reshape v1, ignored)
 * Shape rule (fluid ReshapeOp::InferShape, kept through 2.6):
 *   - ShapeTensor given: Out = `shape` with 0 replaced by X's dim; every other
 *     entry as written (Python writes -1 where a tensor goes);
 *   - Shape given and `shape` empty: numel(Shape) unknown dims;
 *   - otherwise `shape`: 0 copies X's dim, one -1 takes the remaining
 *     elements when every X dim is known (else it stays -1).
 * (Shape with a non-empty `shape` gives the `shape` rule at compile time.)
 * At run time ShapeTensor, else Shape, else `shape` is the target (phi
 * ReshapeKernel's IntArray): while specializing for code generation,
 * ShapeTensor or Shape values known at compile time (ctx_values: folded
 * constants, parameters, shape arithmetic of static dims) are the target,
 * validated the same way; values known only at run time are refused, as
 * the compile-time rules above would give a shape the kernel does not,
 * unless each ShapeTensor entry is known or a dim read with `shape`
 * (traced_target: x.reshape([b, n, h, d]) with b, n from paddle.shape(x);
 * one entry may be a product of X's run-time dims, x.reshape([b, c, h * w]),
 * which then stands for the -1 that takes them; entries may be other
 * run-time dims, t.reshape([b, c, h, w]) of tokens t [b, c, h * w]: Out
 * takes them, the run checking they hold X's elements, foreign_target;
 * entries may be arithmetic on run-time sizes the compiler bounds,
 * ctx_int_range: Swin's x.reshape([b, hp // 4, 4, wp // 4, 4, c]), each a
 * run-time extent of Out bounded there, with no -1 beside them),
 * or --max-shape bounds Out: then Out's dims are the run's, worked out
 * by the kernel from the values as ValidateShape does (reshape_extents).
 * Emission: a copy of X's elements (memcpy; nothing when Out is X).
 * X with dim 0 known only at run time (the RoIs after roi_align, the
 * sequences after sequence_pool): a target that keeps dim 0 (0 or -1
 * first, the rest X's other dims regrouped) passes the extent to Out;
 * another target is refused. */
#include <string.h>

#include "../consteval.h"
#include "../util.h"
#include "move_call.h"
#include "ops.h"
#include "run_hw.h"
#include "tensor_util.h"

/* ValidateShape: the target dims for `shape` applied to `in`. */
static int reshape_dims(OpCtx *c, const Shape *in, const int64_t *shape, int n, Shape *out) {
  if (n > RT_MAX_RANK) return ctx_fail(c, "target shape has %d dims", n);
  int all_known = 1, unk = -1;
  for (int i = 0; i < in->rank; i++) all_known &= in->d[i] > 0;
  int64_t capacity = 1;
  Shape s = {n, {0}};
  for (int i = 0; i < n; i++) {
    if (shape[i] == -1) {
      if (unk >= 0) return ctx_fail(c, "shape has more than one -1");
      unk = i;
    } else if (shape[i] == 0) {
      if (i >= in->rank)
        return ctx_fail(c, "shape[%d] = 0 copies a dim X %s lacks", i, shape_str(in));
    } else if (shape[i] < 0) {
      return ctx_fail(c, "shape[%d] = %lld is invalid", i, (long long)shape[i]);
    }
    s.d[i] = shape[i] ? shape[i] : in->d[i];
    int64_t mag; /* capacity keeps the sign of the -1s it includes */
    if (rt_size_mul(capacity < 0 ? -capacity : capacity, s.d[i] < 0 ? -s.d[i] : s.d[i], &mag))
      return ctx_fail(c, "shape[%d]: the target shape has more elements than fit in 64 bits", i);
    capacity = (capacity < 0) != (s.d[i] < 0) ? -mag : mag;
  }
  int64_t numel = shape_numel(in);
  if (unk >= 0) {
    if (all_known) {
      /* capacity includes the -1, so it is negative here */
      if (capacity == 0 || numel % -capacity)
        return ctx_fail(c, "cannot reshape %s to the shape given", shape_str(in));
      s.d[unk] = numel / -capacity;
    } else {
      s.d[unk] = DIM_UNKNOWN;
    }
  } else if (all_known && capacity != numel) {
    return ctx_fail(c, "cannot reshape %s (%lld elements) to %lld elements", shape_str(in),
                    (long long)numel, (long long)capacity);
  }
  *out = s;
  return 0;
}

/* How a target shape moves X's run-time extents (the RoIs of roi_align's
 * [R, C, 7, 7], an image's tokens [B, N, 360]): a dim copied by a 0 at its
 * index keeps its extent; the others must all go into the -1, which then
 * is the run's X elements over the target's other dims (a new extent,
 * rooted by rule: run_hw_share_root) -- unless it takes just one at its
 * own index, sized alike ([-1, C*49], [0, -1, 3, 8, 15]), which keeps it.
 * RunTarget.unk is the -1's index when it is such a product, else -1. */
typedef struct RunTarget {
  int to[RT_MAX_RANK]; /* X's run-time dims kept, to Out's same index; -1 otherwise */
  int unk;             /* Out's dim that is the product, or -1 */
} RunTarget;

static int run_target_of(const Shape *in, unsigned run, const int64_t *shape, int n, const Shape *out, RunTarget *t) {
  int unk = -1;
  unsigned absorbed = 0;
  for (int i = 0; i < n; i++) unk = shape[i] == -1 ? i : unk;
  for (int d = 0; d < RT_MAX_RANK; d++) {
    t->to[d] = -1;
    if (!(run >> d & 1)) continue;
    if (d < n && shape[d] == 0) t->to[d] = d;
    else absorbed |= 1u << d;
  }
  t->unk = -1;
  if (!absorbed) return 0;
  if (unk < 0) return -1;
  if (absorbed == 1u << unk && out->d[unk] == in->d[unk]) { /* the -1 is that one extent again */
    t->to[unk] = unk;
    return 0;
  }
  t->unk = unk;
  return 0;
}

static int run_target(OpCtx *c, const Var *x, const int64_t *shape, int n, const Shape *out) {
  RunTarget t;
  if (run_target_of(&x->shape, var_runtime_mask(x), shape, n, out, &t))
    return ctx_fail(c, "X ('%s') has dims only the run knows that the target shape neither copies (0 at their "
                    "index) nor takes into its -1", x->name);
  if (t.unk < 0) {
    ctx_pass_runtime_extents_to(c, x, "Out", 0, t.to);
    return 0;
  }
  unsigned mask = 1u << t.unk;
  for (int d = 0; d < RT_MAX_RANK; d++) mask |= t.to[d] >= 0 ? 1u << t.to[d] : 0;
  ctx_set_runtime_extents(c, "Out", 0, mask, x->runtime_from);
  const char *rule = pool_printf("%d:%u:reshape", x->runtime_root, var_runtime_mask(x));
  for (int i = 0; i < n; i++) rule = pool_printf("%s %lld", rule, (long long)shape[i]);
  Var *o = ctx_out(c, "Out", 0);
  if (o) run_hw_share_root(c->g, o, rule);
  return 0;
}

/* A target entry that is a product of X's own run-time dims and a
 * constant (ctx_size_expr: x.reshape([b, c, h * w]) with h, w read from
 * x's shape): 1, the dims it multiplies added to *dims (each at most
 * once, else 0), its value at the bounds in *bound. */
static int expr_entry(OpCtx *c, const Var *x, const Var *entry, unsigned *dims, int64_t *bound) {
  SizeExpr e;
  if (!ctx_size_expr(c, entry, 0, &e)) return 0;
  *bound = e.k;
  for (int f = 0; f < e.n; f++) *bound *= e.v[f]->shape.d[e.d[f]];
  for (int f = 0; f < e.n; f++) {
    int at = -1;
    for (int d = 0; d < x->shape.rank && at < 0; d++)
      if (same_runtime_dims(e.v[f], e.d[f], x, d)) at = d;
    if (at < 0 || *dims >> at & 1) return 0;
    *dims |= 1u << at;
  }
  return 1;
}

/* A ShapeTensor list whose entries are values the compiler knows or dims
 * of tensors read with `shape` (ctx_shape_dim_of: x.reshape([b, n, 3, 2,
 * 8]) with b, n = paddle.shape(x)[0], [1]), as traced_target reads it. */
typedef struct Traced {
  int n;             /* the entries, -1 when some entry is none of those below */
  int64_t tv[RT_MAX_RANK]; /* the target as an attribute would give it */
  int expr_at;       /* the entry that is a product of X's run-time dims, or -1 */
  int64_t expr_bound; /* and its value at the bounds */
  unsigned foreign;  /* entries that are a run-time dim other than X's own at
                      * that index (bit i: entry i): the tokens of [b, h * w, c]
                      * back to a map, x.reshape([b, c, h, w]) with h, w read
                      * from the map's shape; their value at the bound in tv */
  const Var *fv[RT_MAX_RANK]; /* and whose dim each is */
  int fd[RT_MAX_RANK];
  unsigned ranged;   /* entries that are arithmetic on run-time dims the compiler
                      * bounds (ctx_int_range: Swin's windows, Hp // w): new
                      * run-time extents, their bound in tv */
  const char *rkey[RT_MAX_RANK]; /* and how each is computed */
} Traced;

/* The target in t: a run-time extent as 0 where it is X's own at that
 * index (same_runtime_dims), another run-time dim as its value at the
 * bound (Traced.foreign), another dim as its value (the batch at this
 * probe: the specialization sees it follow B).  t->n is -1 when some entry
 * is none of these. */
static void traced_target(OpCtx *c, const Var *x, Traced *t) {
  const int n = ctx_nin(c, "ShapeTensor");
  *t = (Traced){.n = -1, .expr_at = -1};
  if (n > RT_MAX_RANK || !c->g->specializing) return;
  unsigned product = 0; /* X's run-time dims an entry multiplies (expr_entry) */
  int nexpr = 0, unk = 0;
  for (int i = 0; i < n; i++) {
    const Var *entry = ctx_in(c, "ShapeTensor", i), *v;
    const int64_t *val;
    int d;
    IntRange r;
    if (entry && ctx_values(c, entry, &val) == 1) {
      t->tv[i] = val[0];
    } else if (entry && ctx_shape_dim_of(c->g, entry, 0, &v, &d) && var_runtime_mask(v) >> d & 1) {
      const int own = i < x->shape.rank && same_runtime_dims(v, d, x, i);
      t->tv[i] = own ? 0 : v->shape.d[d];
      t->foreign |= own ? 0 : 1u << i;
      t->fv[i] = v, t->fd[i] = d;
    } else if (entry && ctx_shape_dim_of(c->g, entry, 0, &v, &d) && v->shape.d[d] >= 0) {
      t->tv[i] = v->shape.d[d];
    } else if (entry && expr_entry(c, x, entry, &product, &t->expr_bound)) {
      t->tv[i] = -1, nexpr++, t->expr_at = i;
    } else if (entry && shape_numel(&entry->shape) == 1 && ctx_int_range(c, entry, 0, &r) && r.hi >= 1) {
      t->tv[i] = r.hi, t->ranged |= 1u << i, t->rkey[i] = r.key;
    } else {
      return;
    }
    unk += t->tv[i] == -1;
  }
  if (!nexpr) {
    t->n = t->ranged && unk ? -1 : n; /* no -1 beside bounded entries: its bound would be unknown */
    return;
  }
  /* one product of X's own run-time dims, each once, standing for the -1
   * that takes them: the dims it multiplies must be exactly those no 0
   * copies (the rest of the product, a constant, infer_reshape checks
   * against the -1's value at the bounds) */
  unsigned absorbed = 0;
  for (int d = 0; d < x->shape.rank; d++)
    if (var_runtime_mask(x) >> d & 1 && !(d < n && t->tv[d] == 0)) absorbed |= 1u << d;
  t->n = nexpr == 1 && unk == 1 && absorbed == product && !t->foreign && !t->ranged ? n : -1;
}

/* Dim da of a and dim db of b, run-time dims of one root whose extents
 * are in one order (neither runtime_same: Var.runtime_root), are the same
 * extent: each the k-th of its var's (a map and its transpose [0, 2, 1, 3,
 * 4] that keeps the order of depth, height and width). */
static int same_place_in_root(const Var *a, int da, const Var *b, int db) {
  const unsigned ma = var_runtime_mask(a), mb = var_runtime_mask(b);
  if (!(ma >> da & 1) || !(mb >> db & 1) || !same_runtime_extent(a, b) || a->runtime_same || b->runtime_same)
    return 0;
  int ka = 0, kb = 0, na = 0, nb = 0;
  for (int d = 0; d < RT_MAX_RANK; d++) {
    ka += d < da && (ma >> d & 1), kb += d < db && (mb >> d & 1);
    na += ma >> d & 1, nb += mb >> d & 1;
  }
  return ka == kb && na == nb;
}

/* Out's run-time dims where the target has entries that are other
 * run-time dims (Traced.foreign): those and the dims a 0 copies from X.
 * Where X keeps a run-time dim no entry names: with every entry one of
 * X's own run-time dims, a -1 takes it with the rest, the run's elements
 * over the other entries (a video's frames into the batch, [b, t, c, h, w]
 * to [-1, c, h, w] with h, w read from its shape: at most its value at the
 * bound, as the entries are X's own sizes), refused without a -1; with an
 * entry another var's, the -1 keeps its value at the bound, the elements
 * X's other run-time dims hold being the entries' (h * w tokens back to h
 * by w), which the run checks (foreign_extents).
 * Out takes the root of the one var its run-time dims all come from in
 * that var's order (a residual add of the map and the tokens made back
 * into it needs no check); else its own. */
static int foreign_target(OpCtx *c, const Var *x, const Traced *t) {
  unsigned mask = t->foreign | t->ranged, named = 0, copied = 0;
  int twice = 0; /* an X dim two entries take */
  for (int i = 0; i < t->n; i++) copied |= t->tv[i] == 0 && !((t->foreign | t->ranged) >> i & 1) ? 1u << i : 0;
  int other = t->ranged != 0;
  const Var *from = NULL;
  int in_order = 1, last = -1;
  for (int i = 0; i < t->n; i++) {
    if (t->tv[i] == 0 && var_runtime_mask(x) >> i & 1) mask |= 1u << i, in_order = 0;
    if (!(t->foreign >> i & 1)) continue;
    int at = -1;
    for (int d = 0; d < x->shape.rank && at < 0; d++)
      if (var_runtime_mask(x) >> d & 1 && (same_runtime_dims(t->fv[i], t->fd[i], x, d) ||
                                           same_place_in_root(t->fv[i], t->fd[i], x, d)))
        at = d;
    twice |= at >= 0 && ((named | copied) >> at & 1);
    named |= at >= 0 ? 1u << at : 0;
    other |= at < 0;
    in_order &= (!from || from == t->fv[i]) && t->fd[i] > last;
    from = t->fv[i], last = t->fd[i];
  }
  unsigned left = 0;
  for (int d = 0; d < x->shape.rank; d++)
    if (var_runtime_mask(x) >> d & 1 && !(d < t->n && t->tv[d] == 0) && !(named >> d & 1)) left |= 1u << d;
  int unk = -1; /* the -1 entry */
  for (int i = 0; i < t->n; i++)
    if (!((t->foreign | t->ranged) >> i & 1) && t->tv[i] == -1) unk = i;
  const int run_unk = left && !other && !twice && unk >= 0;
  if (run_unk) {
    mask |= 1u << unk;
    from = NULL; /* Out's own root: the -1 is none of the entries' */
  } else if (left && !other) {
    return ctx_fail(c, "X ('%s') has dims only the run knows that the target shape's entries read from tensors' "
                    "shapes do not name, %s", x->name,
                    unk < 0 ? "and no -1 to take them" : "which its -1 would take beside an entry that repeats a size");
  }
  if (t->ranged) { /* Out's own extents, named by how the entries compute them */
    const char *rule = pool_printf("reshape to %u", mask);
    for (int i = 0; i < t->n; i++)
      rule = t->ranged >> i & 1      ? pool_printf("%s %s", rule, t->rkey[i])
             : t->foreign >> i & 1   ? pool_printf("%s r%d.%d", rule, t->fv[i]->runtime_root, t->fd[i])
             : i == unk && run_unk   ? pool_printf("%s -1 of r%d", rule, x->runtime_root)
             : mask >> i & 1         ? pool_printf("%s r%d.%d", rule, x->runtime_root, i)
                                     : pool_printf("%s %lld", rule, (long long)t->tv[i]);
    ctx_set_runtime_extents(c, "Out", 0, mask, from ? from->runtime_from : x->runtime_from);
    Var *o = ctx_out(c, "Out", 0);
    if (o) run_hw_share_root(c->g, o, rule);
    return 0;
  }
  if (run_unk) {
    ctx_set_runtime_extents(c, "Out", 0, mask, x->runtime_from);
    return 0;
  }
  if (!from) return 0; /* no foreign entry: not called then */
  ctx_set_runtime_extents(c, "Out", 0, mask, from->runtime_from);
  unsigned from_mask = var_runtime_mask(from), used = 0;
  for (int i = 0; i < t->n; i++) used |= t->foreign >> i & 1 ? 1u << t->fd[i] : 0;
  ctx_inherit_root(ctx_out(c, "Out", 0), from, in_order && used == from_mask);
  return 0;
}

static int infer_reshape(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *in = &x->shape;
  int64_t *shape, tv[RT_MAX_RANK];
  /* ShapeTensor wins over Shape, as in Paddle's kernel: a Shape given
   * beside a ShapeTensor is looked at and, as there, not used */
  (void)ctx_nin(c, "Shape");
  int nt = ctx_in(c, "ShapeTensor", 0) ? tu_slot_values(c, "ShapeTensor", 1, tv, RT_MAX_RANK)
                                       : tu_slot_values(c, "Shape", 0, tv, RT_MAX_RANK);
  Traced tr = {.n = -1, .expr_at = -1};
  if (nt < 0 && ctx_in(c, "ShapeTensor", 0)) {
    traced_target(c, x, &tr);
    nt = tr.n;
    if (nt >= 0) memcpy(tv, tr.tv, sizeof tv);
  }
  int n = attr_ints(c->op, "shape", &shape);
  Shape out = {0, {0}};
  const char *slot = ctx_in(c, "ShapeTensor", 0) ? "ShapeTensor" : ctx_in(c, "Shape", 0) ? "Shape" : NULL;
  if (nt < 0 && slot && ctx_feeds_fixed(c)) {
    Var *sv = ctx_in(c, slot, 0);
    int64_t rank = strcmp(slot, "ShapeTensor") == 0 ? ctx_nin(c, slot) : shape_numel(&sv->shape);
    if (rank < 0 || rank > RT_MAX_RANK) return ctx_fail(c, "input %s gives %lld dims", slot, (long long)rank);
    const char *from = pool_printf("%s's values", slot);
    int b = var_runtime_axis(x) < 0 ? ctx_max_shape(c, "Out", 0, (int)rank, x->dtype, from) : 0;
    if (b) return b < 0 ? -1 : ctx_set_xshape(c, x);
    const Var *o = ctx_out(c, "Out", 0);
    return ctx_fail(c, "input %s gives the target shape at run time, which is not supported (only values known "
                       "at compile time are) unless --max-shape bounds Out ('%s')", slot, o ? o->name : "");
  }
  int minus = 0; /* a -1 among the entries */
  for (int i = 0; i < nt; i++) minus |= tv[i] == -1;
  if (nt >= 0 && (tr.ranged || tr.foreign) && !minus) { /* Out's dims the entries' bounds (0: X's dim), which need
                                                           * not hold X's elements at the bound: the run checks */
    out.rank = nt;
    for (int i = 0; i < nt; i++) {
      if (tv[i] == 0 && i >= in->rank) return ctx_fail(c, "shape[%d] = 0 copies a dim X %s lacks", i, shape_str(in));
      if (tv[i] < 0) return ctx_fail(c, "shape[%d] = %lld is invalid", i, (long long)tv[i]);
      out.d[i] = tv[i] ? tv[i] : in->d[i];
    }
  } else if (nt >= 0) { /* run-time shape values known at compile time */
    if (reshape_dims(c, in, tv, nt, &out)) return -1;
    if (tr.expr_at >= 0 && out.d[tr.expr_at] != tr.expr_bound)
      return ctx_fail(c, "target shape entry %d is a product of X's sizes the run gives that does not hold the "
                      "elements the other entries leave (%lld of %lld at the bound)", tr.expr_at,
                      (long long)tr.expr_bound, (long long)out.d[tr.expr_at]);
  } else if (ctx_in(c, "ShapeTensor", 0)) {
    if (n > RT_MAX_RANK) return ctx_fail(c, "target shape has %d dims", n);
    out.rank = n;
    for (int i = 0; i < n; i++) {
      if (shape[i] == 0 && i >= in->rank)
        return ctx_fail(c, "shape[%d] = 0 copies a dim X %s lacks", i, shape_str(in));
      out.d[i] = shape[i] == 0 ? in->d[i] : shape[i];
    }
  } else if (ctx_in(c, "Shape", 0) && n == 0) {
    Var *sv = ctx_need(c, "Shape", 0);
    if (!sv) return -1;
    int64_t k = shape_numel(&sv->shape);
    if (k < 0 || k > RT_MAX_RANK)
      return ctx_fail(c, "input Shape %s is not usable", shape_str(&sv->shape));
    out.rank = (int)k;
    for (int i = 0; i < out.rank; i++) out.d[i] = DIM_UNKNOWN;
  } else {
    if (n == 0) return ctx_fail(c, "attribute shape is empty and no Shape input is given");
    if (reshape_dims(c, in, shape, n, &out)) return -1;
  }
  ctx_set(c, "Out", 0, &out, x->dtype);
  const int known = nt >= 0 || (n > 0 && !slot); /* the target the kernel takes is known here */
  if ((tr.foreign || tr.ranged) && foreign_target(c, x, &tr)) return -1;
  if (!tr.foreign && !tr.ranged && var_runtime_mask(x) && (known ? run_target(c, x, nt >= 0 ? tv : shape, nt >= 0 ? nt : n, &out)
                                    : ctx_refuse_runtime_extents(c)))
    return -1;
  return ctx_set_xshape(c, x);
}

/* The run's target shape (ShapeTensor's values, else Shape's) as
 * ValidateShape takes it, into t[]: 0 copies X's dim, one -1 takes the
 * elements left; any other negative value, a second -1, a 0 past X's dims,
 * a dim past bounds[i] (C expressions) or a target that does not hold X's
 * elements stops the run (Paddle stops at each but the last). */
static int print_run_target(EmitCtx *e, const Var *x, const Var *out, const char *const *bound) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *st = ctx_in(&c, "ShapeTensor", 0); /* the list wins over Shape, as in the kernel */
  const int n = tu_rank(e, out), xr = tu_rank(e, x);
  const char *v[RT_MAX_RANK], *vals = "", *xd = "", *bounds = "";
  if (tu_run_values(e, st ? "" : "Shape", "ShapeTensor", "a target shape tensor", v) != n)
    return em_fail(e, "the target shape tensors do not give Out's %d dims", n);
  for (int i = 0; i < n; i++) vals = pool_printf("%s%s%s", vals, i ? ", " : "", v[i]);
  for (int i = 0; i < n; i++) bounds = pool_printf("%s%s%s", bounds, i ? ", " : "", bound[i]);
  for (int i = 0; i < xr; i++) xd = pool_printf("%s%s%s", xd, i ? ", " : "", em_dim(e, x, i));
  pr_line(e->p, "/* the target shape, the run's: 0 copies X's dim, one -1 takes the elements left */");
  pr_line(e->p, "int64_t t[%d] = {%s};", n, vals);
  pr_line(e->p, "const int64_t bound[%d] = {%s}%s;", n, bounds, xr ? pool_printf(", xd[%d] = {%s}", xr, xd) : "");
  pr_line(e->p, "int64_t held = 1;");
  pr_line(e->p, "int unk = -1;");
  pr_line(e->p, "for (int i = 0; i < %d; i++) {", n);
  pr_line(e->p, "if (t[i] == 0 && i >= %d) return 1;", xr);
  if (xr) pr_line(e->p, "if (t[i] == 0) t[i] = xd[i];");
  pr_line(e->p, "if (t[i] == -1 && unk >= 0) return 1;");
  pr_line(e->p, "if (t[i] == -1) unk = i;");
  pr_line(e->p, "else if (t[i] < 0 || t[i] > bound[i]) return 1;");
  pr_line(e->p, "else held *= t[i];");
  pr_line(e->p, "}");
  const char *numel = em_numel(e, x);
  pr_line(e->p, "if (unk >= 0 && (held == 0 || (%s) %% held != 0)) return 1;", numel);
  pr_line(e->p, "if (unk >= 0) t[unk] = (%s) / held;", numel);
  pr_line(e->p, "else if (held != (%s)) return 1;", numel);
  return 0;
}

/* v's dims in the batch B (a run-time one's bound), for the messages. */
static const char *spec_dims(EmitCtx *e, const Var *v) {
  const char *s = "";
  for (int i = 0; i < tu_rank(e, v); i++) s = pool_printf("%s%s%s", s, i ? ", " : "", em_sym(em_spec(e, v)->d[i]));
  return s;
}

/* Out's dims from the run's target shape (a --max-shape bound). */
static int reshape_extents(EmitCtx *e, const Var *x, const Var *out) {
  OpCtx c = {e->g, (Op *)e->op};
  const int n = tu_rank(e, out);
  const char *dims[RT_MAX_RANK];
  const char *bound[RT_MAX_RANK] = {NULL};
  for (int i = 0; i < n; i++) bound[i] = pool_printf("INT64_C(%lld)", (long long)em_spec(e, out)->d[i].c);
  if (print_run_target(e, x, out, bound)) return -1;
  for (int i = 0; i < n; i++) dims[i] = pool_printf("t[%d]", i);
  tu_set_extents(e, out, dims, n,
                 pool_printf("a target shape from %s that does not hold X [%s] or is past --max-shape %s",
                             ctx_in(&c, "ShapeTensor", 0) ? "ShapeTensor" : "Shape", spec_dims(e, x),
                             shape_str(&out->shape)));
  return 0;
}

/* Out's run-time dims from the run's target shape when its entries read
 * other run-time dims (foreign_target): each the dim it was read from (a
 * 0's X's), every other dim the one compiled (the -1 of [b, -1, h, w] the
 * channels); another target stops the run.  No bound enters the code: the
 * dims read are within their own. */
static int foreign_extents(EmitCtx *e, const Var *x, const Var *out, const Traced *tr) {
  const VarSpec *vs = em_spec(e, out);
  const char *want[RT_MAX_RANK];
  for (int d = 0; d < vs->rank; d++)
    want[d] = tr->ranged >> d & 1              ? "INT64_MAX"
              : tr->foreign >> d & 1           ? em_dim(e, tr->fv[d], tr->fd[d])
              : d < tr->n && tr->tv[d] == 0 && d < tu_rank(e, x) ? em_dim(e, x, d)
              : vs->runtime_mask >> d & 1 && d < tr->n && tr->tv[d] == -1 ? "INT64_MAX" /* the -1 the run's */
              : vs->runtime_mask >> d & 1      ? NULL
                                               : em_dim(e, out, d);
  for (int d = 0; d < vs->rank; d++)
    if (!want[d]) return em_fail(e, "Out's dim %d is the run's but no entry of the target shape gives it", d);
  pr_line(e->p, "/* Out's dims the ones read from the tensors' shapes */");
  if (print_run_target(e, x, out, want)) return -1;
  for (int d = 0; d < vs->rank; d++)
    if (!(tr->ranged >> d & 1) && strcmp(want[d], "INT64_MAX")) pr_line(e->p, "if (t[%d] != bound[%d]) return 1;", d, d);
  for (int d = 0; d < vs->rank; d++)
    if (vs->runtime_mask >> d & 1) pr_line(e->p, "%s = t[%d];", em_dim(e, out, d), d);
  em_fault(e, "a target shape that does not hold X's elements in the sizes its entries read from tensors' shapes "
              "(Paddle gives another shape or raises an error)");
  return 0;
}

/* Out's run-time extents from X's (run_target): those kept copied, the
 * -1's the run's elements over the other dims, stopping the run where
 * they do not divide (Paddle raises an error). */
static int run_extents(EmitCtx *e, const Var *x, const Var *out) {
  OpCtx c = {e->g, (Op *)e->op};
  int64_t tv[RT_MAX_RANK], *shape = tv;
  int n = ctx_in(&c, "ShapeTensor", 0) ? tu_slot_values(&c, "ShapeTensor", 1, tv, RT_MAX_RANK)
                                       : tu_slot_values(&c, "Shape", 0, tv, RT_MAX_RANK);
  Traced tr = {.n = -1};
  if (n < 0 && ctx_in(&c, "ShapeTensor", 0)) {
    traced_target(&c, x, &tr);
    n = tr.n, shape = tr.tv;
  }
  if (tr.foreign || tr.ranged) return foreign_extents(e, x, out, &tr);
  if (n < 0) n = attr_ints(e->op, "shape", &shape);
  RunTarget t;
  if (run_target_of(&x->shape, em_spec(e, x)->runtime_mask, shape, n, &out->shape, &t))
    return em_fail(e, "the target shape does not place X's run-time dims");
  if (t.unk < 0) return 0;
  const char *held = tu_mul(em_prod(e, out, 0, t.unk), em_prod(e, out, t.unk + 1, tu_rank(e, out)));
  pr_line(e->p, "if ((%s) %% (%s) != 0) return 1;", em_numel(e, x), held);
  move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = em_dim(e, out, t.unk),
                                 .src = pool_printf("(%s) / (%s)", em_numel(e, x), held)});
  em_fault(e, "X's elements the run gives do not fill the target shape (Paddle raises an error)");
  return 0;
}

/* Out holds X's elements in X's order: a copy (a later pass may alias the
 * two instead). */
static int emit_reshape(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (tu_max_shaped(e, out)) /* X's elements, which the run's target shape holds */
    return reshape_extents(e, x, out) ? -1 : tu_copy_count(e, x, out, em_numel(e, x));
  if (!em_spec(e, x)->runtime_mask && !em_spec(e, out)->runtime_mask) return tu_copy(e, x, out);
  /* X's elements at the run's sizes, which the run checks Out's hold (their bounds may differ) */
  return run_extents(e, x, out) ? -1 : tu_copy_count(e, x, out, em_numel(e, out));
}

const OpDef op_reshape = {
    .type = "reshape", .infer = infer_reshape, .emit_c = emit_reshape,
    .fold = consteval_fold_copy, .inplace = "X:Out", .runtime_extents = 2, .max_shape = 1};
const OpDef op_reshape2 = {
    .type = "reshape2", .infer = infer_reshape, .emit_c = emit_reshape,
    .fold = consteval_fold_copy, .inplace = "X:Out", .runtime_extents = 2, .max_shape = 1};

/* reshape2_grad: X@GRAD = Out@GRAD (XShape gives its shape); `shape` was
 * the forward's. */
static const char *const reshape2_grad_attr_ignores[] = {"shape", NULL};
const OpDef op_reshape2_grad = {.type = "reshape2_grad", .infer = infer_grad_xshape, .emit_c = tu_grad_copy,
                                .inplace = "Out@GRAD:X@GRAD", .attr_ignores = reshape2_grad_attr_ignores,
                                .runtime_extents = 2};

/* reshape_grad (fluid 1.x reshape; X, Out, Out@GRAD, Shape, ShapeTensor as
 * Paddle's default grad maker passes them): X@GRAD = Out@GRAD in X's
 * shape.  Out, Shape, ShapeTensor and `shape` gave Out's dims; the same
 * elements in the same order need none of them. */
static const char *const reshape_grad_ignores[] = {"Out", "Shape", "ShapeTensor", NULL};
const OpDef op_reshape_grad = {.type = "reshape_grad", .infer = grad_infer, .emit_c = tu_grad_copy,
                               .inplace = "Out@GRAD:X@GRAD", .ignores = reshape_grad_ignores,
                               .attr_ignores = reshape2_grad_attr_ignores, .runtime_extents = 2};

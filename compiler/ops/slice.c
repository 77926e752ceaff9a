/* slice, strided_slice (spec 7.4).
 *   slice: Input, StartsTensor†, EndsTensor†, StartsTensorList†*,
 *          EndsTensorList†* -> Out
 *     axes:INTS, starts:INTS, ends:INTS, infer_flags:INTS=[1...],
 *     decrease_axis:INTS=[]; extra use_mkldnn, mkldnn_data_type
 *   strided_slice: Input, StartsTensor†, EndsTensor†, StridesTensor†,
 *          StartsTensorList†*, EndsTensorList†*, StridesTensorList†* -> Out
 *     axes, starts, ends, strides:INTS, infer_flags, decrease_axis
 * slice (fluid SliceOp::InferShape): an axis whose infer_flags entry is -1
 * (its bounds come from a tensor) becomes -1; an unknown dim stays -1;
 * otherwise negative bounds += dim, then clamp to [0, dim].  The dims in
 * decrease_axis are dropped; dropping all gives shape_scalar().
 * strided_slice (phi StridedSliceRawInferMeta): a Starts/Ends/StridesTensor
 * makes every dim -1; otherwise per axis as Python slicing with the step
 * (infer_flags -1 gives -1, except that start -1, end 0 on a decreased
 * axis means one element).
 * decrease_axis there removes the listed dims and any dim of size 0.
 * Both read infer_flags[i] for every axis i without checking its length (an
 * empty list counts as all 1): Python writes one flag per axis, and a
 * shorter list (Paddle's own op tests have some) runs there; an axis
 * without a flag counts here as flag 1, bounds as written.
 * Dropping every dim gives [1] up to Paddle 2.5 (a 2.5.0 file still has
 * [1] where reductions already give []) and [] from 2.6.
 * A slice of a LoDTensorArray has no shape at compile time.  Out has the
 * input's dtype.
 * Emission: a strided copy (rt_copy_strided) starting at each axis' first
 * element with the step as stride; a negative step walks backwards from
 * min(start, dim - 1), as Paddle's reversed slice does.  The first element
 * of an axis whose size depends on the batch is found at batch 1, 2, 3 and 8
 * and must be affine in it, like every shape.  slice's bounds from tensors
 * whose values only the run knows (Starts/EndsTensor[List]) are supported
 * when every sliced axis is dropped (Out's shape is then known): the start
 * is found at run time as Paddle's kernel finds it (start -1 with end 0
 * where infer_flags is -1 is the last element), and a bound that does
 * not give one element stops the run, as it stops Paddle (slice_grad
 * writes its Out@GRAD where the forward read, found the same way); kept
 * axes get run-time extents (planned for the axis' size).  strided_slice's
 * bounds and strides from such tensors likewise (emit_runtime_strided),
 * and so are its bounds on an Input whose sizes the run gives (an image's
 * height and width: x[:, :, ::2, 1::2]): Out's kept axes are the run's.
 * slice's attribute bounds on an axis whose size the run gives go the
 * same way when the cut moves with that size (x[:, -1], x[:, 1:],
 * x[:, :-1]: run_cut_axes); a cut the same for every size (x[:, 0],
 * x[:, :1]) keeps Out's dim fixed.  A kept axis cut by tensor bounds is
 * planned for the most they leave where the compiler bounds them
 * (cut_bound: a padded map cut back to the run's sizes). */
#include <string.h>

#include "../consteval.h"
#include "../util.h"
#include "move_call.h"
#include "ops.h"
#include "run_hw.h"
#include "slice_call.h"
#include "tensor_util.h"

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The shape of a fully decreased slice: [] from Paddle 2.6 on (and in a
 * develop-build file that uses 0-D tensors), [1] before. */
static Shape decreased_scalar(const OpCtx *c) {
  int64_t v = c->g->version;
  if (v >= 2006000 || (v == 0 && c->g->zero_d)) return (Shape){0, {0}};
  return (Shape){1, {1}};
}

static int drop_axes(OpCtx *c, Shape *s, const int64_t *dec, int ndec, int zeros_too) {
  int drop[RT_MAX_RANK] = {0};
  for (int i = 0; i < ndec; i++) {
    if (dec[i] < 0 || dec[i] >= s->rank) return ctx_fail(c, "decrease_axis[%d] is out of range", i);
    drop[dec[i]] = 1;
  }
  if (!ndec) return 0;
  Shape t = {0, {0}};
  for (int i = 0; i < s->rank; i++)
    if (!drop[i] && !(zeros_too && s->d[i] == 0)) t.d[t.rank++] = s->d[i];
  *s = t.rank ? t : decreased_scalar(c);
  return 0;
}

/* Whether bound i of the op, from `tensor` or entry i of `list`, is held
 * in a tensor whose value only the run knows. */
static int bound_unknown(OpCtx *c, const char *tensor, const char *list, int i) {
  int64_t v[RT_MAX_RANK];
  Var *t = ctx_in(c, tensor, 0);
  if (t) return ctx_int_values(c, t, v, RT_MAX_RANK) <= i;
  Var *one = ctx_in(c, list, 0) ? ctx_in(c, list, i) : NULL;
  return one && ctx_int_values(c, one, v, 1) != 1;
}

/* 1 when the cut [start, end) of an axis whose extent the run gives (1 to
 * `bound`) starts and ends at the same places for every extent: the first
 * token of a sequence, x[:, 0] or x[:, :1]. */
static int fixed_cut(int64_t start, int64_t end, int64_t bound) {
  int64_t b0 = -1, n0 = -1;
  for (int64_t len = 1; len <= bound; len++) {
    const int64_t b = clamp64(start < 0 ? start + len : start, 0, len);
    const int64_t n = clamp64(end < 0 ? end + len : end, 0, len) - b;
    if (len > 1 && (b != b0 || n != n0)) return 0;
    b0 = b, n0 = n;
  }
  return n0 > 0;
}

/* The count the cut [start, end) leaves on an axis whose extent the run
 * gives (1 to `bound`) when it is the same for every extent though the
 * cut moves (the last element kept, x[:, -1:]); else -1. */
static int64_t fixed_count(int64_t start, int64_t end, int64_t bound) {
  int64_t n0 = -1;
  for (int64_t len = 1; len <= bound; len++) {
    const int64_t b = clamp64(start < 0 ? start + len : start, 0, len);
    const int64_t n = clamp64(end < 0 ? end + len : end, 0, len) - b;
    if (len > 1 && n != n0) return -1;
    n0 = n;
  }
  return n0;
}

/* The axes of x whose extent the run gives that the slice cuts where the
 * cut moves with that extent (x[:, -1], x[:, 1:]; not fixed_cut): the
 * kernel finds their bounds as Paddle's does (runtime_bounds), a kept
 * one's count Out's run-time extent.  starts / ends: n known bounds. */
static unsigned run_cut_axes(const Var *x, unsigned run, const int64_t *axes, int n, const int64_t *starts,
                             const int64_t *ends) {
  unsigned cut = 0;
  for (int i = 0; i < n && starts && ends; i++) {
    const int64_t a = axes[i] < 0 ? axes[i] + x->shape.rank : axes[i];
    if (a >= 0 && a < x->shape.rank && run >> a & 1 && !fixed_cut(starts[i], ends[i], x->shape.d[a]))
      cut |= 1u << a;
  }
  return cut;
}

/* X's run-time extents (an image's height and width, the rows of a
 * detector's boxes) on axes the slice does not cut pass to Out's same
 * axes (the dropped ones gone); one on a cut axis is Out's fixed dim where
 * the cut is the same for every extent (fixed_cut), and the kernel's
 * (`moving`, run_cut_axes: Out's extents set by the caller, `kept`) where
 * not, beside which the others pass too (x[:, 1:] - x[:, :-1] of a map:
 * Out's extents then its own, rooted by rule; beside bounds only the run
 * knows, `tensors`, its own root); other cut ones are refused.  starts / ends: the known
 * bounds (NULL where the op has none to read). */
static int pass_input_extents(OpCtx *c, const Var *x, const int64_t *axes, int n, const int64_t *starts,
                              const int64_t *ends, const int64_t *dec, int ndec, unsigned kept, unsigned moving,
                              int tensors) {
  const unsigned run = var_runtime_mask(x);
  if (!run) return 0;
  const int refused = kept && tensors; /* Out's axes from tensors' bounds */
  int to[RT_MAX_RANK];
  for (int d = 0, o = 0; d < RT_MAX_RANK; d++) {
    int cut = 0, gone = 0, fixed = 0;
    for (int i = 0; i < n; i++) {
      const int on = (axes[i] < 0 ? axes[i] + x->shape.rank : axes[i]) == d;
      cut |= on;
      if (on && starts && ends) fixed = fixed_cut(starts[i], ends[i], x->shape.d[d]);
    }
    for (int k = 0; k < ndec; k++) gone |= dec[k] == d;
    if (run >> d & 1 && ((fixed && !refused) || moving >> d & 1)) {
      to[d] = -1; /* Out's dim is the cut's count */
      o += !gone;
      continue;
    }
    if (run >> d & 1 && cut)
      return ctx_fail(c, "dim %d of Input ('%s') is only known at run time; %s cuts it%s, which is not supported", d,
                      x->name, c->op->type, refused ? " (or takes other bounds from tensors)" : "");
    to[d] = gone ? -1 : o++;
  }
  unsigned passed = 0; /* Out's axes that are X's extents */
  for (int d = 0; d < RT_MAX_RANK; d++) passed |= run >> d & 1 && to[d] >= 0 ? 1u << to[d] : 0;
  if (!kept || !passed) {
    if (!kept) ctx_pass_runtime_extents_to(c, x, "Out", 0, to);
    return 0;
  }
  ctx_set_runtime_extents(c, "Out", 0, kept | passed, x->runtime_from);
  if (tensors) return 0; /* Out's own root: its bounds are tensors' values, which no rule below names */
  const char *rule = pool_printf("%d:%u:slice", x->runtime_root, run);
  for (int i = 0; i < n && starts && ends; i++)
    rule = pool_printf("%s %lld:%lld:%lld", rule, (long long)axes[i], (long long)starts[i], (long long)ends[i]);
  for (int k = 0; k < ndec; k++) rule = pool_printf("%s -%lld", rule, (long long)dec[k]);
  Var *out = ctx_out(c, "Out", 0);
  if (out) run_hw_share_root(c->g, out, rule);
  return 0;
}

/* The most elements bound i of the op, taken from tensors, leaves on an
 * axis of at most `dim`: fewer where the compiler bounds the end and the
 * start is not below 0 (ctx_int_range: a padded map cut back to the
 * run's size, t[:, :h, :w] with h, w read by `shape`). */
static int64_t cut_bound(OpCtx *c, int i, int64_t dim) {
  const Var *st = ctx_in(c, "StartsTensor", 0), *en = ctx_in(c, "EndsTensor", 0);
  const Var *sl = ctx_in(c, "StartsTensorList", 0) ? ctx_in(c, "StartsTensorList", i) : NULL;
  const Var *el = ctx_in(c, "EndsTensorList", 0) ? ctx_in(c, "EndsTensorList", i) : NULL;
  int64_t *attr;
  IntRange b = {0}, e;
  if (st || sl) {
    if (!ctx_int_range(c, st ? st : sl, st ? i : 0, &b)) return dim;
  } else if (attr_ints(c->op, "starts", &attr) > i) {
    b.lo = attr[i];
  }
  if (!(en || el) || !ctx_int_range(c, en ? en : el, en ? i : 0, &e) || b.lo < 0 || e.lo < 0) return dim;
  const int64_t most = e.hi - b.lo;
  return most < 0 ? 0 : most < dim ? most : dim;
}

static int infer_slice(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0);
  if (!x) return -1;
  if (x->vtype == VT_LOD_TENSOR_ARRAY) return 0;
  int64_t *axes, *starts, *ends, *flags, *dec;
  int n = attr_ints(c->op, "axes", &axes);
  int ns = attr_ints(c->op, "starts", &starts), ne = attr_ints(c->op, "ends", &ends);
  int nf = attr_ints(c->op, "infer_flags", &flags), ndec = attr_ints(c->op, "decrease_axis", &dec);
  if (ctx_in(c, "StartsTensorList", 0)) ns = ctx_nin(c, "StartsTensorList");
  if (ctx_in(c, "EndsTensorList", 0)) ne = ctx_nin(c, "EndsTensorList");
  if ((!ctx_in(c, "StartsTensor", 0) && ns != n) || (!ctx_in(c, "EndsTensor", 0) && ne != n))
    return ctx_fail(c, "axes, starts and ends differ in length");
  /* bounds held in tensors whose values are known at compile time (folded
   * constants, shape arithmetic of static dims) count as attributes */
  int64_t sv[RT_MAX_RANK], ev[RT_MAX_RANK];
  int ks = ctx_bounds(c, "StartsTensor", "StartsTensorList", sv, RT_MAX_RANK);
  int ke = ctx_bounds(c, "EndsTensor", "EndsTensorList", ev, RT_MAX_RANK);
  if (ks != 0 || ke != 0) {
    if (ks > 0) starts = sv, ns = ks;
    if (ke > 0) ends = ev, ne = ke;
    if (ks >= 0 && ke >= 0 && ns == n && ne == n) nf = 0; /* every bound known */
  }
  Shape s = x->shape;
  unsigned runtime = 0; /* axes of x whose bounds only the run knows (while specializing) */
  const unsigned moving = c->g->specializing && ns == n && ne == n
                              ? run_cut_axes(x, var_runtime_mask(x), axes, n, starts, ends)
                              : 0; /* cut where the run's extent moves the cut */
  for (int i = 0; i < n; i++) {
    int64_t a = axes[i] < 0 ? axes[i] + s.rank : axes[i];
    if (a < 0) a = 0;
    if (a >= s.rank) return ctx_fail(c, "axes[%d] = %lld is out of range", i, (long long)axes[i]);
    const int64_t count = moving >> a & 1 ? fixed_count(starts[i], ends[i], x->shape.d[a]) : -1;
    if (count >= 0 && !bound_unknown(c, "StartsTensor", "StartsTensorList", i) &&
        !bound_unknown(c, "EndsTensor", "EndsTensorList", i)) { /* the start moves, the count does not */
      s.d[a] = count;
      continue;
    }
    if (c->g->specializing && (moving >> a & 1 || bound_unknown(c, "StartsTensor", "StartsTensorList", i) ||
                               bound_unknown(c, "EndsTensor", "EndsTensorList", i))) {
      /* the kernel's bounds: at most the axis, the extent the run's (1 on a dropped axis, or it stops) */
      runtime |= 1u << a;
      s.d[a] = cut_bound(c, i, s.d[a]);
      continue;
    }
    if (i < nf && flags[i] == -1) {
      s.d[a] = DIM_UNKNOWN;
      continue;
    }
    int64_t dim = x->shape.d[a];
    if (dim < 0) continue;
    if (i >= ns || i >= ne) return ctx_fail(c, "starts/ends are shorter than axes");
    int64_t st = starts[i] < 0 ? starts[i] + dim : starts[i];
    int64_t en = ends[i] < 0 ? ends[i] + dim : ends[i];
    st = clamp64(st, 0, dim);
    en = clamp64(en, 0, dim);
    if (en < st)
      return ctx_fail(c, "slice end %lld is before start %lld", (long long)en, (long long)st);
    s.d[a] = en - st;
  }
  unsigned kept = 0; /* the axes of Out with a run-time extent */
  for (int a = 0, o = 0; a < s.rank; a++) {
    int dropped = 0;
    for (int k = 0; k < ndec; k++) dropped |= dec[k] == a;
    if (runtime >> a & 1 && dropped) s.d[a] = 1;
    if (runtime >> a & 1 && !dropped && s.d[a] >= 0) kept |= 1u << o;
    o += !dropped;
  }
  if (drop_axes(c, &s, dec, ndec, 0)) return -1;
  ctx_set(c, "Out", 0, &s, x->dtype);
  if (kept)
    ctx_set_runtime_extents(c, "Out", 0, kept,
                            moving ? pool_printf("cut of Input ('%s'), which the run's sizes move", x->name)
                                   : "Starts/Ends tensors");
  int tensors = 0; /* bounds from tensors only the run knows */
  for (int i = 0; i < n && c->g->specializing; i++)
    tensors |= bound_unknown(c, "StartsTensor", "StartsTensorList", i) ||
               bound_unknown(c, "EndsTensor", "EndsTensorList", i);
  return pass_input_extents(c, x, axes, n, ns == n ? starts : NULL, ne == n ? ends : NULL, dec, ndec, kept,
                            moving, tensors);
}

/* One axis of a strided slice (phi StridedSliceOutDims). */
static int64_t strided_dim(int64_t size, int64_t st, int64_t en, int64_t step) {
  if (st < 0 && (st += size) < 0) st = 0;
  /* an end of -1 with a negative step means "through the front" */
  if (en < 0 && !(en == -1 && step < 0) && (en += size) < 0) en = 0;
  if (step < 0) {
    st += 1;
    en += 1;
  }
  if ((step < 0 && st < en) || (step > 0 && st > en)) return -2;
  int64_t lo = st < en ? st : en, hi = st < en ? en : st;
  if (lo < 0) lo = 0;
  if (hi > size) hi = size;
  int64_t k = step < 0 ? -step : step, span = hi - lo < 0 ? lo - hi : hi - lo;
  return (span + k - 1) / k;
}

static int infer_strided_slice(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0);
  if (!x) return -1;
  if (x->vtype == VT_LOD_TENSOR_ARRAY) return 0;
  int64_t *axes, *starts, *ends, *strides, *flags, *dec;
  int n = attr_ints(c->op, "axes", &axes);
  int ns = attr_ints(c->op, "starts", &starts), ne = attr_ints(c->op, "ends", &ends);
  int nst = attr_ints(c->op, "strides", &strides);
  int nf = attr_ints(c->op, "infer_flags", &flags), ndec = attr_ints(c->op, "decrease_axis", &dec);
  /* The *TensorList inputs are not read at compile time by Paddle (the
   * attributes, with infer_flags -1 at their entries, stand in), a single
   * tensor makes every dim unknown; tensors whose values are known at compile
   * time (folded constants, shape arithmetic of static dims) count as
   * attributes. */
  int from_tensor = ctx_in(c, "StartsTensor", 0) || ctx_in(c, "EndsTensor", 0) ||
                    ctx_in(c, "StridesTensor", 0);
  static const char *const bounds[3][2] = {{"StartsTensor", "StartsTensorList"}, {"EndsTensor", "EndsTensorList"},
                                           {"StridesTensor", "StridesTensorList"}};
  int64_t vals[3][RT_MAX_RANK], **dst[3] = {&starts, &ends, &strides};
  int *cnt[3] = {&ns, &ne, &nst}, all_known = 1, any = 0;
  for (int k = 0; k < 3; k++) {
    int got = ctx_bounds(c, bounds[k][0], bounds[k][1], vals[k], RT_MAX_RANK);
    if (got > 0) *dst[k] = vals[k], *cnt[k] = got, any = 1;
    all_known &= got >= 0;
  }
  if (any && all_known) from_tensor = 0, nf = 0;
  Shape s = x->shape;
  for (int i = 0; i < n; i++)
    if (axes[i] < 0 || axes[i] >= s.rank) return ctx_fail(c, "axes[%d] is out of range", i);
  const unsigned xrun = var_runtime_mask(x); /* X's sizes the run gives: the kernel finds the bounds as below */
  if (c->g->specializing && (!all_known || xrun)) { /* the kernel's bounds: each sliced axis at most its size */
    unsigned runtime = xrun, kept = 0, cut = 0;
    for (int i = 0; i < n; i++) {
      cut |= 1u << axes[i];
      int decreased = 0;
      for (int k = 0; k < ndec; k++) decreased |= dec[k] == axes[i];
      const int64_t size = s.d[axes[i]];
      if (decreased) {
        s.d[axes[i]] = 1;
      } else if (all_known && !from_tensor && !(xrun >> axes[i] & 1) && size >= 0 && i < ns && i < ne &&
                 i < nst && (i >= nf || flags[i] != -1)) { /* a fixed axis cut by known bounds: a fixed count */
        if (strides[i] == 0) return ctx_fail(c, "strides[%d] is 0", i);
        if ((s.d[axes[i]] = strided_dim(size, starts[i], ends[i], strides[i])) < 0)
          return ctx_fail(c, "axis %lld: the slice runs against its stride", (long long)axes[i]);
      } else if (size >= 0) {
        runtime |= 1u << axes[i];
      }
    }
    for (int a = 0, o = 0; a < s.rank; a++) {
      int dropped = 0;
      for (int k = 0; k < ndec; k++) dropped |= dec[k] == a;
      dropped |= ndec && s.d[a] == 0;
      if (runtime >> a & 1 && !dropped) kept |= 1u << o;
      o += !dropped;
    }
    int to[RT_MAX_RANK]; /* where X's axes land in Out (drop_axes: the decreased ones and, beside them, 0s) */
    for (int a = 0, o = 0; a < RT_MAX_RANK; a++) {
      int dropped = a >= s.rank || (ndec && s.d[a] == 0);
      for (int k = 0; k < ndec; k++) dropped |= dec[k] == a;
      to[a] = dropped ? -1 : o++;
    }
    if (drop_axes(c, &s, dec, ndec, 1)) return -1;
    ctx_set(c, "Out", 0, &s, x->dtype);
    if (runtime == xrun && xrun && !(cut & xrun)) { /* X's run-time sizes uncut: Out's, where they land */
      ctx_pass_runtime_extents_to(c, x, "Out", 0, to);
      return 0;
    }
    if (kept) ctx_set_runtime_extents(c, "Out", 0, kept, xrun && all_known ? x->runtime_from : "Starts/Ends/Strides tensors");
    return 0;
  }
  if (from_tensor) {
    for (int i = 0; i < s.rank; i++) s.d[i] = DIM_UNKNOWN;
  } else {
    if (ns != n || ne != n || nst != n) return ctx_fail(c, "axes, starts, ends and strides differ in length");
    for (int i = 0; i < n; i++) {
      int flag = i < nf ? (int)flags[i] : 1, decreased = 0;
      for (int k = 0; k < ndec; k++) decreased |= dec[k] == axes[i];
      if (starts[i] == -1 && ends[i] == 0 && flag == -1 && decreased) {
        s.d[axes[i]] = 1;
        continue;
      }
      if (flag == -1) {
        s.d[axes[i]] = DIM_UNKNOWN;
        continue;
      }
      if (strides[i] == 0) return ctx_fail(c, "strides[%d] is 0", i);
      int64_t size = x->shape.d[axes[i]];
      if (size < 0) continue;
      int64_t d = strided_dim(size, starts[i], ends[i], strides[i]);
      if (d < 0)
        return ctx_fail(c, "axis %lld: the slice runs against its stride", (long long)axes[i]);
      s.d[axes[i]] = d;
    }
  }
  if (drop_axes(c, &s, dec, ndec, 1)) return -1;
  ctx_set(c, "Out", 0, &s, x->dtype);
  return 0;
}

/* ---- emission ---- */

static const int64_t probes[] = {1, 2, 3, 8}; /* the batch values spec.c tries */
enum { NPROBES = sizeof probes / sizeof probes[0] };

/* One sliced axis as the attributes give it. */
typedef struct Cut {
  int64_t start, end, step; /* bounds as written; step 1 for slice */
  int single;               /* strided_slice's "start -1, end 0" on a decreased axis */
} Cut;

/* First element and element count of a cut of an axis of size `dim`:
 * slice clamps the bounds into [0, dim]; strided_slice follows phi
 * StridedSliceOutDims / StridedSliceFunctor.  -1 when Paddle would read
 * outside the axis. */
static int cut_at(const Cut *k, int strided, int64_t dim, int64_t *begin, int64_t *count) {
  int64_t st = k->start, en = k->end, step = k->step;
  if (!strided) {
    st = clamp64(st < 0 ? st + dim : st, 0, dim);
    en = clamp64(en < 0 ? en + dim : en, 0, dim);
    *begin = st;
    *count = en > st ? en - st : 0;
    return 0;
  }
  if (st < 0 && (st += dim) < 0) st = 0;
  if (k->single) {
    *begin = st;
    *count = 1;
    return st < dim ? 0 : -1;
  }
  int64_t n = strided_dim(dim, k->start, en, step);
  if (n < 0) return -1;
  *count = n;
  *begin = step > 0 ? st : (st < dim - 1 ? st : dim - 1);
  return n > 0 && (*begin < 0 || *begin >= dim) ? -1 : 0;
}

/* v(B) = a*B + c fitted through the probes; -1 when not affine. */
static int fit(const int64_t *v, SymDim *out) {
  int64_t a = v[1] - v[0], c = v[0] - a;
  for (int p = 0; p < NPROBES; p++)
    if (v[p] != a * probes[p] + c) return -1;
  *out = (SymDim){a, c};
  return 0;
}

/* The attributes as cuts per input axis (cut[a].step == 0: axis untouched). */
static int read_cuts(EmitCtx *e, int rank, int strided, Cut *cut) {
  OpCtx c = {e->g, (Op *)e->op};
  int64_t *axes, *starts, *ends, *strides, *flags, *dec;
  int n = attr_ints(e->op, "axes", &axes), ns = attr_ints(e->op, "starts", &starts);
  int ne = attr_ints(e->op, "ends", &ends), nst = attr_ints(e->op, "strides", &strides);
  int nf = attr_ints(e->op, "infer_flags", &flags), ndec = attr_ints(e->op, "decrease_axis", &dec);
  /* bounds in tensors: their values when known at compile time */
  static const char *const tensors[3][2] = {{"StartsTensor", "StartsTensorList"}, {"EndsTensor", "EndsTensorList"},
                                            {"StridesTensor", "StridesTensorList"}};
  static int64_t vals[3][RT_MAX_RANK];
  int64_t **dst[3] = {&starts, &ends, &strides};
  int *cnt[3] = {&ns, &ne, &nst};
  for (int k = 0; k < 3; k++) {
    int got = ctx_bounds(&c, tensors[k][0], tensors[k][1], vals[k], RT_MAX_RANK);
    if (got < 0)
      return em_fail(e, "input %s gives the bounds at run time, which is not supported",
                     ctx_in(&c, tensors[k][0], 0) ? tensors[k][0] : tensors[k][1]);
    if (got > 0) *dst[k] = vals[k], *cnt[k] = got;
  }
  if (ns != n || ne != n || (strided && nst != n))
    return em_fail(e, "axes, starts, ends (and strides) differ in length");
  for (int a = 0; a < rank; a++) cut[a] = (Cut){0, 0, 0, 0};
  for (int i = 0; i < n; i++) {
    int64_t a = axes[i] < 0 && !strided ? axes[i] + rank : axes[i];
    if (a < 0) a = 0;
    if (a >= rank) return em_fail(e, "axes[%d] is out of range", i);
    Cut k = {starts[i], ends[i], strided ? strides[i] : 1, 0};
    if (k.step == 0) return em_fail(e, "strides[%d] is 0", i);
    for (int d = 0; strided && d < ndec; d++)
      k.single |= dec[d] == a && k.start == -1 && k.end == 0 && nf > i && flags[i] == -1;
    cut[a] = k;
  }
  return 0;
}

/* Where the slice of x that out holds lies in x: the offset of its first
 * element, and per axis of x its element count and stride in x (C
 * expressions); *empty when it has no element.  -1 after em_fail(). */
static int slice_geometry(EmitCtx *e, const Var *x, const Var *out, int strided, const char **offset_out,
                          const char **dims, const char **st, int *empty_out) {
  int rank = tu_rank(e, x);
  Cut cut[RT_MAX_RANK];
  if (read_cuts(e, rank, strided, cut)) return -1;
  const VarSpec *xs = em_spec(e, x), *os = em_spec(e, out);
  const char *xst[RT_MAX_RANK], *offset = "0";
  SymDim kept[RT_MAX_RANK];
  int nkept = 0, empty = 0;
  tu_strides(e, x, xst);
  for (int a = 0; a < rank; a++) {
    SymDim count = xs->d[a], begin = {0, 0};
    if (cut[a].step) {
      int64_t b[NPROBES], n[NPROBES];
      for (int p = 0; p < NPROBES; p++)
        if (cut_at(&cut[a], strided, symdim_at(xs->d[a], probes[p]), &b[p], &n[p]))
          return em_fail(e, "axis %d: the slice reads outside the axis", a);
      if (fit(b, &begin) || fit(n, &count))
        return em_fail(e, "axis %d: the slice bounds are not affine in the batch", a);
    }
    empty |= count.a == 0 && count.c == 0;
    if (!tu_is_one(count)) kept[nkept++] = count;
    /* an axis the slice does not cut whose extent the run gives (pass_input_extents): the run's count */
    dims[a] = !cut[a].step && xs->runtime_mask >> a & 1 ? em_dim(e, x, a) : em_sym(count);
    st[a] = cut[a].step == 1 || !cut[a].step ? xst[a] : tu_mul(xst[a], pool_printf("%lld", (long long)cut[a].step));
    offset = tu_add(offset, tu_mul(em_sym(begin), xst[a]));
  }
  *offset_out = offset;
  *empty_out = empty;
  if (empty) return 0;
  /* the copy's dims, without 1s, must be Out's (whose decreased dims are gone) */
  int nout = 0, same = 1;
  for (int d = 0; d < os->rank; d++)
    if (!tu_is_one(os->d[d])) same &= nout < nkept && !memcmp(&os->d[d], &kept[nout++], sizeof(SymDim));
  if (!same || nout != nkept) return em_fail(e, "the slice does not give Out's shape");
  return 0;
}

/* 1 when axis a of the input is in decrease_axis (dropped from Out); *oa
 * the axis of Out it is when kept (the dropped ones before it gone). */
static int out_axis(const int64_t *dec, int ndec, int a, int *oa) {
  int dropped = 0;
  *oa = 0;
  for (int d = 0; d <= a; d++) {
    int gone = 0;
    for (int k = 0; k < ndec; k++) gone |= dec[k] == d;
    if (d < a) *oa += !gone;
    else dropped = gone;
  }
  return dropped;
}

/* Bound i of a slice as an int64 C expression: the attribute, a known
 * value of its tensor, or the tensor's element read at run time (*rt = 1). */
static const char *bound_expr(EmitCtx *e, const char *tensor, const char *list, const int64_t *attr, int n, int i,
                              int *rt) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *t = ctx_in(&c, tensor, 0);
  int64_t v[RT_MAX_RANK];
  if (t) {
    if (ctx_int_values(&c, t, v, RT_MAX_RANK) > i) return pool_printf("%lld", (long long)v[i]);
    *rt = 1;
    return pool_printf("(int64_t)%s[%d]", em_ptr(e, t, 1), i);
  }
  if (ctx_in(&c, list, 0)) {
    Var *one = ctx_in(&c, list, i);
    if (!one) return NULL;
    if (ctx_int_values(&c, one, v, 1) == 1) return pool_printf("%lld", (long long)v[0]);
    *rt = 1;
    return pool_printf("(int64_t)%s[0]", em_ptr(e, one, 1));
  }
  return i < n ? pool_printf("%lld", (long long)attr[i]) : NULL;
}

/* slice whose bounds some tensor gives at run time: a dropped axis
 * (decrease_axis: x[i] in a loop) keeps one element, a kept one as many as
 * the run's bounds give, its extent written for Out (infer_slice planned
 * Out for the axis' size).  The start of each is found at run time (*call:
 * SLICE_BOUNDS); a bound that does not give one element on a dropped axis,
 * or an end before its start, stops the run.  The box in x: its first element (*offset, in the
 * start<a> the bounds' code declares), dims and x's strides.  Returns 1
 * when every bound is known at compile time (the static path). */
static int runtime_bounds(EmitCtx *e, const Var *x, const Var *out, SliceCall *call, const char **offset,
                          const char **dims, const char **st) {
  OpCtx c = {e->g, (Op *)e->op};
  int64_t sv[RT_MAX_RANK], ev[RT_MAX_RANK];
  int64_t *axes, *starts, *ends, *dec, *flags;
  int n = attr_ints(e->op, "axes", &axes), ns = attr_ints(e->op, "starts", &starts);
  int ne = attr_ints(e->op, "ends", &ends), ndec = attr_ints(e->op, "decrease_axis", &dec), rank = tu_rank(e, x);
  const int ks = ctx_bounds(&c, "StartsTensor", "StartsTensorList", sv, RT_MAX_RANK);
  const int ke = ctx_bounds(&c, "EndsTensor", "EndsTensorList", ev, RT_MAX_RANK);
  if (ks >= 0 && ke >= 0 &&
      !run_cut_axes(x, em_spec(e, x)->runtime_mask, axes, n, ks > 0 ? sv : ns == n ? starts : NULL,
                    ke > 0 ? ev : ne == n ? ends : NULL))
    return 1; /* every bound known, none moved by the run's sizes */
  int nf = attr_ints(e->op, "infer_flags", &flags);
  static const char *const slots[] = {"StartsTensor", "StartsTensorList", "EndsTensor", "EndsTensorList"};
  const char *given = "";
  for (int k = 0; k < 4; k++)
    if (ctx_in(&c, slots[k], 0)) given = pool_printf("%s%s%s", given, *given ? " and " : "", slots[k]);
  *call = (SliceCall){.kind = SLICE_BOUNDS, .rank = rank};
  *offset = "0";
  tu_strides(e, x, st);
  for (int a = 0; a < rank; a++) dims[a] = em_dim(e, x, a);
  const VarSpec *os = out ? em_spec(e, out) : NULL;
  for (int i = 0; i < n; i++) {
    int64_t a = axes[i] < 0 ? axes[i] + rank : axes[i];
    int rt = 0, oa; /* oa: the axis of Out a kept axis is */
    if (a < 0 || a >= rank) return em_fail(e, "axes[%d] is out of range", i);
    const int dropped = out_axis(dec, ndec, (int)a, &oa);
    call->bstart[a] = bound_expr(e, "StartsTensor", "StartsTensorList", starts, ns, i, &rt);
    call->bend[a] = bound_expr(e, "EndsTensor", "EndsTensorList", ends, ne, i, &rt);
    if (!call->bstart[a] || !call->bend[a]) return em_fail(e, "axes, starts and ends differ in length");
    call->bdim[a] = dims[a];
    call->blast[a] = dropped && i < nf && flags[i] == -1; /* x[-1]: on a decreased axis only */
    call->bkeep[a] = !dropped;
    if (!dropped && rt && !(os && os->runtime_mask >> oa & 1))
      return em_fail(e, "%s give the bounds of axis %lld at run time, and Out has no run-time extent there", given,
                     (long long)a);
    if (!dropped && os && os->runtime_mask >> oa & 1) call->bextent[a] = em_dim(e, out, oa);
    if (call->bextent[a] && !e->size_classes && !os->d[oa].a && !em_spec(e, x)->d[a].a &&
        os->d[oa].c < em_spec(e, x)->d[a].c) /* a bound cut_bound proved: checked (one per class otherwise) */
      call->bmost[a] = pool_printf("INT64_C(%lld)", (long long)os->d[oa].c);
    dims[a] = dropped ? "1" : pool_printf("(end%lld - start%lld)", (long long)a, (long long)a);
    *offset = tu_add(*offset, tu_mul(pool_printf("start%lld", (long long)a), st[a]));
  }
  em_fault(e, "slice: bounds that do not give one element along a dropped axis (from tensors, or against an axis "
              "of the run's size too short for them), or that end before they start (Paddle stops too), or a cut "
              "past the bound paddlec planned");
  return 0;
}

/* X's run-time sizes along the axes the slice does not cut: Out's the same. */
static void pass_uncut_extents(EmitCtx *e, const Var *x, const Var *out, const int64_t *axes, int n,
                               const int64_t *dec, int ndec) {
  const unsigned xrun = em_spec(e, x)->runtime_mask;
  for (int a = 0; a < tu_rank(e, x); a++) {
    int oa, cut = 0;
    for (int i = 0; i < n; i++) cut |= axes[i] == a;
    if (!cut && xrun >> a & 1 && !out_axis(dec, ndec, a, &oa) && em_spec(e, out)->runtime_mask >> oa & 1)
      move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = em_dim(e, out, oa), .src = em_dim(e, x, a)});
  }
}

static int emit_runtime_slice(EmitCtx *e, const Var *x, const Var *out) {
  SliceCall call;
  const char *offset, *dims[RT_MAX_RANK], *st[RT_MAX_RANK];
  const int r = runtime_bounds(e, x, out, &call, &offset, dims, st);
  if (r) return r;
  int64_t *axes, *dec;
  const int n = attr_ints(e->op, "axes", &axes), ndec = attr_ints(e->op, "decrease_axis", &dec);
  pass_uncut_extents(e, x, out, axes, n, dec, ndec);
  slice_print_c(e->p, &call);
  return tu_strided_copy(e, x, offset, out, tu_rank(e, x), dims, st);
}

/* strided_slice whose bounds or strides some tensor gives at run time:
 * each sliced axis' first element and count found as phi's kernel finds
 * them (SLICE_STRIDED_BOUNDS), a kept axis' count Out's run-time extent
 * (infer_strided_slice planned it for the axis' size), a dropped one's 1;
 * then one strided copy, the stride times the axis' step.  Returns 1 when
 * every bound is known at compile time (the static path). */
static int emit_runtime_strided(EmitCtx *e, const Var *x, const Var *out) {
  OpCtx c = {e->g, (Op *)e->op};
  int64_t v[RT_MAX_RANK];
  const unsigned xrun = em_spec(e, x)->runtime_mask; /* sizes the run gives: the bounds found at run time too */
  if (ctx_bounds(&c, "StartsTensor", "StartsTensorList", v, RT_MAX_RANK) >= 0 &&
      ctx_bounds(&c, "EndsTensor", "EndsTensorList", v, RT_MAX_RANK) >= 0 &&
      ctx_bounds(&c, "StridesTensor", "StridesTensorList", v, RT_MAX_RANK) >= 0 && !xrun)
    return 1;
  int64_t *axes, *starts, *ends, *strides, *dec, *flags;
  int n = attr_ints(e->op, "axes", &axes), ns = attr_ints(e->op, "starts", &starts);
  int ne = attr_ints(e->op, "ends", &ends), nst = attr_ints(e->op, "strides", &strides);
  int ndec = attr_ints(e->op, "decrease_axis", &dec), nf = attr_ints(e->op, "infer_flags", &flags);
  const int rank = tu_rank(e, x);
  const VarSpec *os = em_spec(e, out);
  SliceCall call = {.kind = SLICE_STRIDED_BOUNDS, .rank = rank, .bnozero = ndec > 0};
  const char *dims[RT_MAX_RANK], *st[RT_MAX_RANK], *xst[RT_MAX_RANK], *offset = "0";
  tu_strides(e, x, xst);
  for (int a = 0; a < rank; a++) dims[a] = em_dim(e, x, a), st[a] = xst[a];
  for (int i = 0; i < n; i++) {
    const int64_t a = axes[i];
    int rt = 0, oa; /* oa: the axis of Out a kept axis is (Out drops no other axis: its sizes are bounds, not 0) */
    if (a < 0 || a >= rank) return em_fail(e, "axes[%d] is out of range", i);
    const int dropped = out_axis(dec, ndec, (int)a, &oa);
    call.bstart[a] = bound_expr(e, "StartsTensor", "StartsTensorList", starts, ns, i, &rt);
    call.bend[a] = bound_expr(e, "EndsTensor", "EndsTensorList", ends, ne, i, &rt);
    call.bstep[a] = bound_expr(e, "StridesTensor", "StridesTensorList", strides, nst, i, &rt);
    if (!call.bstart[a] || !call.bend[a] || !call.bstep[a])
      return em_fail(e, "axes, starts, ends and strides differ in length");
    call.bdim[a] = dims[a];
    call.bsingle[a] = dropped && i < nf && flags[i] == -1;
    call.bkeep[a] = !dropped;
    if (!dropped && oa < os->rank && os->runtime_mask >> oa & 1)
      call.bextent[a] = em_dim(e, out, oa);
    else if (!dropped)
      call.bwant[a] = oa < os->rank ? em_dim(e, out, oa) : "0";
    dims[a] = dropped ? "1" : pool_printf("cnt%lld", (long long)a);
    st[a] = tu_mul(xst[a], pool_printf("step%lld", (long long)a));
    offset = tu_add(offset, tu_mul(pool_printf("begin%lld", (long long)a), xst[a]));
  }
  pass_uncut_extents(e, x, out, axes, n, dec, ndec);
  em_fault(e, "strided_slice: bounds or strides from tensors where Paddle stops (a stride of 0, bounds against "
              "the stride, more than one element on a dropped axis), or that read outside the axis");
  slice_print_c(e->p, &call);
  return tu_strided_copy(e, x, offset, out, rank, dims, st);
}

static int emit_slice_op(EmitCtx *e, int strided) {
  Var *x = tu_in(e, "Input", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  int r = strided ? emit_runtime_strided(e, x, out) : emit_runtime_slice(e, x, out);
  if (r <= 0) return r;
  const char *offset, *dims[RT_MAX_RANK], *st[RT_MAX_RANK];
  int empty;
  if (slice_geometry(e, x, out, strided, &offset, dims, st, &empty)) return -1;
  if (empty) {
    slice_print_c(e->p, &(SliceCall){.kind = SLICE_EMPTY});
    return 0;
  }
  return tu_strided_copy(e, x, offset, out, tu_rank(e, x), dims, st);
}

/* slice_grad, strided_slice_grad (Input, Out@GRAD -> Input@GRAD; phi
 * SliceGradKernel / StridedSliceGradKernel): zeros, with Out@GRAD's
 * elements written, in order, where the forward read its elements; Input
 * gives only the shape. */
static int emit_slice_grad_op(EmitCtx *e, int strided) {
  Var *x = tu_in(e, "Input", 0), *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "Input@GRAD", 0);
  if (!x || !dout || !dx) return -1;
  if (dout->dtype != dx->dtype) return em_fail(e, "Out@GRAD and Input@GRAD differ in dtype");
  const char *offset, *dims[RT_MAX_RANK] = {0}, *st[RT_MAX_RANK] = {0};
  int empty = 0, rank = tu_rank(e, x), r = 1;
  SliceCall bounds;
  if (!strided && (r = runtime_bounds(e, x, NULL, &bounds, &offset, dims, st)) < 0) return -1;
  if (r == 0) /* the forward's starts, found again at run time */
    slice_print_c(e->p, &bounds);
  else if (slice_geometry(e, x, dout, strided, &offset, dims, st, &empty))
    return -1;
  SliceCall call = {.kind = SLICE_GRAD, .type = em_ctype(dx->dtype), .rank = rank, .offset = offset, .empty = empty};
  call.dx = em_ptr(e, dx, 0);
  call.numel = em_numel(e, dx);
  if (!empty) call.dout = em_ptr(e, dout, 1);
  for (int a = 0; a < rank; a++) call.dims[a] = dims[a], call.strides[a] = st[a]; /* slice_geometry sets them all */
  slice_print_c(e->p, &call);
  return 0;
}

static int emit_slice(EmitCtx *e) { return emit_slice_op(e, 0); }
static int emit_strided_slice(EmitCtx *e) { return emit_slice_op(e, 1); }

/* A 1-D slice with attribute bounds (the form `shape(x)[i:j]` takes). */
static void fold_slice(OpCtx *c) {
  Var *in = ctx_in(c, "Input", 0);
  int64_t *axes, *st, *en, v[CONST_MAX];
  int na = attr_ints(c->op, "axes", &axes), ns = attr_ints(c->op, "starts", &st), ne = attr_ints(c->op, "ends", &en);
  if (!consteval_tracked(in) || in->shape.rank != 1 || na != 1 || ns != 1 || ne != 1 || axes[0] != 0) return;
  if (ctx_in(c, "StartsTensor", 0) || ctx_in(c, "EndsTensor", 0) || ctx_in(c, "StartsTensorList", 0) ||
      ctx_in(c, "EndsTensorList", 0))
    return;
  int64_t n = in->nvals, s0 = st[0] < 0 ? st[0] + n : st[0], e0 = en[0] < 0 ? en[0] + n : en[0];
  s0 = s0 < 0 ? 0 : (s0 > n ? n : s0);
  e0 = e0 < 0 ? 0 : (e0 > n ? n : e0);
  int k = 0;
  uint64_t mask = 0;
  for (int64_t i = s0; i < e0; i++, k++) {
    v[k] = in->vals[i];
    mask |= (in->vmask >> i & 1) << k;
  }
  consteval_set(ctx_out(c, "Out", 0), v, k, mask);
}

const OpDef op_slice = {.type = "slice", .infer = infer_slice, .emit_c = emit_slice, .fold = fold_slice,
                        .runtime_extents = 2};
const OpDef op_strided_slice = {.type = "strided_slice", .infer = infer_strided_slice, .emit_c = emit_strided_slice,
                                .runtime_extents = 2};
static int emit_slice_grad(EmitCtx *e) { return emit_slice_grad_op(e, 0); }
static int emit_strided_slice_grad(EmitCtx *e) { return emit_slice_grad_op(e, 1); }

/* the lengths the run gives: Input's, as the forward took them */
const OpDef op_slice_grad = {.type = "slice_grad", .infer = grad_infer, .emit_c = emit_slice_grad,
                             .runtime_extents = 2};
const OpDef op_strided_slice_grad = {.type = "strided_slice_grad", .infer = grad_infer,
                                     .emit_c = emit_strided_slice_grad, .runtime_extents = 2};

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
 * Dropping every dim gives [1] up to Paddle 2.5 (a 2.5.0 file still has
 * [1] where reductions already give []) and [] from 2.6.
 * A slice of a LoDTensorArray has no shape at compile time.  Out has the
 * input's dtype. */
#include "ops.h"

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
  if (nf && nf < n) return ctx_fail(c, "infer_flags is shorter than axes");
  Shape s = x->shape;
  for (int i = 0; i < n; i++) {
    int64_t a = axes[i] < 0 ? axes[i] + s.rank : axes[i];
    if (a < 0) a = 0;
    if (a >= s.rank) return ctx_fail(c, "axes[%d] = %lld is out of range", i, (long long)axes[i]);
    if (nf && flags[i] == -1) {
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
  if (drop_axes(c, &s, dec, ndec, 0)) return -1;
  ctx_set(c, "Out", 0, &s, x->dtype);
  return 0;
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
  /* The *TensorList inputs are not read at compile time (the attributes,
   * with infer_flags -1 at their entries, stand in); a single tensor is. */
  int from_tensor = ctx_in(c, "StartsTensor", 0) || ctx_in(c, "EndsTensor", 0) ||
                    ctx_in(c, "StridesTensor", 0);
  Shape s = x->shape;
  for (int i = 0; i < n; i++)
    if (axes[i] < 0 || axes[i] >= s.rank) return ctx_fail(c, "axes[%d] is out of range", i);
  if (from_tensor) {
    for (int i = 0; i < s.rank; i++) s.d[i] = DIM_UNKNOWN;
  } else {
    if (ns != n || ne != n || nst != n || (nf && nf < n))
      return ctx_fail(c, "axes, starts, ends, strides and infer_flags differ in length");
    for (int i = 0; i < n; i++) {
      int flag = nf ? (int)flags[i] : 1, decreased = 0;
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

const OpDef op_slice = {.type = "slice", .infer = infer_slice};
const OpDef op_strided_slice = {.type = "strided_slice", .infer = infer_strided_slice};

/* set_value: Out = Input with a strided slice overwritten -- what
 * `x[1:3, ::2] = v` and paddle.static.setitem become.
 *   inputs:  Input, ValueTensor†, StartsTensorList†*, EndsTensorList†*,
 *            StepsTensorList†*
 *   outputs: Out (Input's dims and dtype; often Input itself)
 *   attrs:   axes:LONGS, starts:LONGS=[], ends:LONGS=[], steps:LONGS=[]
 *            (1 per axis), decrease_axes:LONGS=[], none_axes:LONGS=[],
 *            dtype:INT=5 (of the values), values:SCALARS=[] with
 *            shape:LONGS=[] (the value tensor when ValueTensor is absent;
 *            files before 2.6 hold fp32_values, fp64_values, int32_values,
 *            int64_values, fp16_values or bool_values instead)
 * Shape rule (fluid SetValueOp): rank(Input) < 7; Out = Input.
 * The slice (phi CheckAndUpdateSliceAttrs / GetSliceDims): per axis,
 * negative starts (and, for step > 0, ends) += dim; for step > 0 start and
 * end are clamped to [0, dim]; for step < 0 start to at most dim - 1 and end
 * (+= dim when below -1) to at least -1; the slice takes ceil((end -
 * start) / step) elements.  An axis listed twice takes the bounds of its
 * last entry; an empty entry (start == end), the earlier ones too, leaves
 * Out = Input (SetValueImpl returns there, after the value's check).  The
 * value broadcasts, numpy-style, against the slice's dims with
 * decrease_axes removed and a 1 inserted at each entry of none_axes (phi
 * CheckIsDimsMatch and ExpandKernel), empty or not; the values convert to
 * Input's type (Scalar::to<T>).
 * Emission: a copy of Input (none when Out is Input), then loops over the
 * slice storing the broadcast value.  Slice bounds must be known at compile
 * time: tensor bounds only when constant, and sliced dims must not depend
 * on the batch.  An Input whose dims the run gives (Swin's attention mask,
 * paddle.zeros([1, Hp, Wp, 1]) with img[:, -4:-2, 0:-4, :] = k) passes
 * them to Out; a sliced one is cut when the kernel runs, as
 * CheckAndUpdateSliceAttrs cuts it (print_run_axis), the value repeated
 * along it (of dim 1 there).  set_value_grad is at the end. */
#include <string.h>

#include "../util.h"
#include "ops.h"
#include "slice_call.h"
#include "tensor_util.h"

static int infer_set_value(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0);
  if (!x) return -1;
  if (x->shape.rank >= 7) return ctx_fail(c, "Input %s has more than 6 dims", shape_str(&x->shape));
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  const Var *vt = ctx_in(c, "ValueTensor", 0);
  if (vt && var_runtime_mask(vt))
    return ctx_fail(c, "ValueTensor ('%s') has dims only the run gives (from its %s); set_value takes them in Input "
                    "only", vt->name, vt->runtime_from ? vt->runtime_from : "inputs");
  ctx_pass_runtime_extent(c, x, "Out", 0);
  return 0;
}

/* One sliced axis after normalization. */
typedef struct SliceAxis {
  int64_t start, end, step; /* as the kernel uses them */
  int64_t count;            /* elements taken */
} SliceAxis;

/* starts/ends/steps from attribute `name` or tensor list `slot`; n values
 * expected.  -1 after em_fail. */
static int bounds(EmitCtx *e, const char *slot, const char *name, int n, int64_t dflt, int64_t *out) {
  OpCtx c = {e->g, (Op *)e->op};
  if (ctx_in(&c, slot, 0)) {
    if (tu_slot_values(&c, slot, 1, out, RT_MAX_RANK) != n)
      return em_fail(e, "%s does not hold %d values known at compile time", slot, n);
    return 0;
  }
  int64_t *v;
  int k = attr_ints(e->op, name, &v);
  if (k == 0 && dflt != 0) {
    for (int i = 0; i < n; i++) out[i] = dflt; /* steps default to 1 */
    return 0;
  }
  if (k != n) return em_fail(e, "%s has %d values for %d axes", name, k, n);
  for (int i = 0; i < n; i++) out[i] = v[i];
  return 0;
}

/* phi CheckAndUpdateSliceAttrs and GetSliceDims for one axis of size dim. */
static int slice_axis(EmitCtx *e, int64_t dim, int64_t start, int64_t end, int64_t step, SliceAxis *s) {
  if (step == 0) return em_fail(e, "a step is 0");
  if (dim == 0) {
    *s = (SliceAxis){0, 0, step, 0};
    return 0;
  }
  start = start < 0 ? start + dim : start;
  start = start < 0 ? 0 : start;
  end = step > 0 && end < 0 ? end + dim : end;
  end = end > dim ? dim : end;
  if (step > 0) {
    start = start > dim ? dim : start;
    end = end < 0 ? 0 : end;
    if (end < start)
      return em_fail(e, "the slice [%lld, %lld) runs backwards with step %lld", (long long)start, (long long)end,
                     (long long)step);
  } else {
    start = start > dim - 1 ? dim - 1 : start;
    end = end < -1 ? end + dim : end; /* -1 stands for "through element 0" */
    end = end < -1 ? -1 : end;
    if (start < end)
      return em_fail(e, "the slice from %lld to %lld runs forwards with step %lld", (long long)start, (long long)end,
                     (long long)step);
  }
  /* cppcheck-suppress zerodivcond ; step 0 was refused at the top */
  *s = (SliceAxis){start, end, step, step > 0 ? (end - start + step - 1) / step : (end - start + step + 1) / step};
  return 0;
}

/* Prints the cut of axis a, whose size `dim` (C) the run gives, as
 * slice_axis makes it: locals start_a, step_a and count_a; bounds that
 * run backwards stop the run (Paddle raises an error). */
static void print_run_axis(EmitCtx *e, int a, const char *dim, int64_t start, int64_t end, int64_t step) {
  Printer *p = e->p;
  pr_line(p, "/* axis %d of the run's size: the slice [%lld, %lld) step %lld as Paddle cuts it */", a, (long long)start,
          (long long)end, (long long)step);
  pr_line(p, "const int64_t dim_%d = %s;", a, dim);
  pr_line(p, "int64_t start_%d = INT64_C(%lld), end_%d = INT64_C(%lld);", a, (long long)start, a, (long long)end);
  pr_line(p, "if (start_%d < 0) start_%d += dim_%d;", a, a, a);
  pr_line(p, "if (start_%d < 0) start_%d = 0;", a, a);
  if (step > 0) pr_line(p, "if (end_%d < 0) end_%d += dim_%d;", a, a, a);
  pr_line(p, "if (end_%d > dim_%d) end_%d = dim_%d;", a, a, a, a);
  if (step > 0) {
    pr_line(p, "if (start_%d > dim_%d) start_%d = dim_%d;", a, a, a, a);
    pr_line(p, "if (end_%d < 0) end_%d = 0;", a, a);
    pr_line(p, "if (end_%d < start_%d) return 1;", a, a);
  } else {
    pr_line(p, "if (start_%d > dim_%d - 1) start_%d = dim_%d - 1;", a, a, a, a);
    pr_line(p, "if (end_%d < -1) end_%d += dim_%d;", a, a, a);
    pr_line(p, "if (end_%d < -1) end_%d = -1;", a, a);
    pr_line(p, "if (start_%d < end_%d) return 1;", a, a);
  }
  if (step == 1)
    pr_line(p, "const int64_t count_%d = end_%d - start_%d;", a, a, a);
  else
    pr_line(p, "const int64_t count_%d = dim_%d == 0 ? 0 : (end_%d - start_%d %s %lld) / %lld;", a, a, a, a,
            step > 0 ? "+" : "-", (long long)(step > 0 ? step - 1 : -step - 1), (long long)step);
  em_fault(e, "a slice whose bounds run against its step along a dim the run gives (Paddle raises an error)");
}

/* The assigned values (ValueTensor absent) as literals of dtype dt, in
 * *lits; their dims from `shape` in *vs.  Returns the count, -1 after
 * em_fail. */
static int attr_values(EmitCtx *e, int dt, const char ***lits, VarSpec *vs) {
  const Op *op = e->op;
  const OpAttr *a = attr_find(op, "values");
  int n = a && a->type == AT_SCALARS ? (int)a->n_scalars : 0;
  const char **out = NULL;
  if (n > 0) {
    out = pool_alloc(sizeof *out * (size_t)n);
    for (int i = 0; i < n; i++) {
      const Paddlec__Fw__Scalar *s = a->scalars[i];
      if (s->type == 2 && dt == RT_DT_INT64) out[i] = pool_printf("INT64_C(%lld)", (long long)s->i);
      else if (s->type == 2 && dt == RT_DT_INT32) out[i] = pool_printf("%d", (int32_t)s->i);
      else if (s->type == 2) out[i] = tu_literal(dt, (double)s->i);
      else out[i] = tu_literal(dt, s->type == 1 ? (double)s->b : s->type == 3 ? s->r : 0.0);
    }
  } else { /* before 2.6: one list per value type, in the order Paddle's old kernel signature tries them */
    static const struct {
      const char *name;
      int is_float;
    } lists[] = {{"fp32_values", 1}, {"fp64_values", 1}, {"int32_values", 0},
                 {"int64_values", 0}, {"fp16_values", 1}, {"bool_values", 0}};
    for (size_t k = 0; k < sizeof lists / sizeof lists[0] && n == 0; k++) {
      double *fv = NULL;
      int64_t *iv = NULL;
      n = lists[k].is_float ? attr_floats(op, lists[k].name, &fv) : attr_ints(op, lists[k].name, &iv);
      if (n > 0) out = pool_alloc(sizeof *out * (size_t)n);
      for (int i = 0; i < n; i++)
        out[i] = lists[k].is_float ? tu_literal(dt, fv[i])
                    : dt == RT_DT_INT64 ? pool_printf("INT64_C(%lld)", (long long)iv[i]) : tu_literal(dt, (double)iv[i]);
    }
  }
  if (n == 0) return em_fail(e, "neither ValueTensor nor a list of values is given");
  for (int i = 0; i < n; i++)
    if (!out[i]) return em_fail(e, "value %d does not convert to %s", i, rt_dtype_name(dt));
  int64_t *shape;
  int r = attr_ints(op, "shape", &shape);
  if (r > RT_MAX_RANK) return em_fail(e, "shape has %d dims", r);
  *vs = (VarSpec){.known = 1, .rank = r};
  int64_t count = 1;
  for (int i = 0; i < r; i++) {
    vs->d[i] = (SymDim){0, shape[i]};
    count *= shape[i];
  }
  if (count != n) return em_fail(e, "shape holds %lld values but %d are given", (long long)count, n);
  *lits = out;
  return n;
}

/* The slice's dims into the record: their element counts, and where a
 * sliced one starts and its step. */
static void slice_dims(int r, const SymDim *count, const SliceAxis *sl, const int *sliced, SliceCall *call) {
  for (int d = 0; d < r; d++) {
    call->dims[d] = em_sym(count[d]);
    call->start[d] = sliced[d] ? pool_printf("%lld", (long long)sl[d].start) : NULL;
    call->step[d] = sliced[d] ? pool_printf("%lld", (long long)sl[d].step) : NULL;
  }
}

/* The value attributes, where Paddle's kernel does not read them. */
static void supersede_value_attrs(const Op *op) {
  static const char *const attrs[] = {"shape", "values", "fp32_values", "fp64_values", "int32_values",
                                      "int64_values", "fp16_values", "bool_values"};
  for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) attr_superseded(op, attrs[i]);
}

static int emit_set_value(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "Input", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (x->dtype != out->dtype) return em_fail(e, "Input and Out differ in dtype");
  int r = tu_rank(e, x), dt = x->dtype;
  int64_t *axes, start[RT_MAX_RANK], end[RT_MAX_RANK], step[RT_MAX_RANK], *dec, *none;
  int na = attr_ints(e->op, "axes", &axes), ndec = attr_ints(e->op, "decrease_axes", &dec);
  int nnone = attr_ints(e->op, "none_axes", &none);
  if (na > RT_MAX_RANK || nnone > RT_MAX_RANK) /* an axis may be listed more than once */
    return em_fail(e, "%d axes and %d none_axes are too many", na, nnone);
  if (bounds(e, "StartsTensorList", "starts", na, 0, start) || bounds(e, "EndsTensorList", "ends", na, 0, end) ||
      bounds(e, "StepsTensorList", "steps", na, 1, step))
    return -1;
  /* the slice: every dim whole, then the sliced axes */
  const VarSpec *xs = em_spec(e, x);
  SymDim count[RT_MAX_RANK] = {{0, 0}};
  SliceAxis sl[RT_MAX_RANK] = {{0, 0, 0, 0}};
  int sliced[RT_MAX_RANK] = {0}, empty = 0, last[RT_MAX_RANK] = {0};
  for (int d = 0; d < r; d++) count[d] = xs->d[d];
  for (int i = 0; i < na; i++) /* an axis listed twice takes its last entry's bounds */
    if (axes[i] >= 0 && axes[i] < r) last[axes[i]] = i;
  for (int i = 0; i < na; i++) {
    int a = axes[i] >= 0 && axes[i] < r ? (int)axes[i] : -1;
    if (a < 0) return em_fail(e, "axis %lld is out of range", (long long)axes[i]);
    if (xs->runtime_mask >> a & 1) { /* cut when the kernel runs */
      if (step[i] == 0) return em_fail(e, "a step is 0");
      if (last[a] == i) print_run_axis(e, a, em_dim(e, x, a), start[i], end[i], step[i]);
      sliced[a] = 1;
      continue;
    }
    int64_t dim = em_const_dim(e, x, a);
    if (dim < 0) return em_fail(e, "slicing dim %d, which depends on the batch, is not supported", a);
    if (slice_axis(e, dim, start[i], end[i], step[i], &sl[a])) return -1;
    sliced[a] = 1;
    count[a] = (SymDim){0, sl[a].count};
    empty |= sl[a].start == sl[a].end;
  }
  if (tu_copy(e, x, out)) return -1;
  /* the dims the value broadcasts against: decrease_axes out, none_axes in */
  int dropped[RT_MAX_RANK] = {0}, to_assign[RT_MAX_RANK], na_dims = 0, cur = 0;
  SymDim assign[2 * RT_MAX_RANK];
  for (int i = 0; i < ndec; i++) {
    if (dec[i] < 0 || dec[i] >= r) return em_fail(e, "decrease_axes entry %lld is out of range", (long long)dec[i]);
    dropped[dec[i]] = 1;
  }
  for (int d = 0; d < r; d++) {
    while (cur < nnone && none[cur] <= d) assign[na_dims++] = (SymDim){0, 1}, cur++;
    to_assign[d] = dropped[d] ? -1 : na_dims;
    if (!dropped[d]) assign[na_dims++] = count[d];
  }
  while (cur < nnone) assign[na_dims++] = (SymDim){0, 1}, cur++;
  unsigned run_assign = 0; /* the assign dims that are run-time sliced axes: the value repeats along them */
  for (int d = 0; d < r; d++)
    if (to_assign[d] >= 0 && sliced[d] && xs->runtime_mask >> d & 1) run_assign |= 1u << to_assign[d];
  /* the value and its strides along the assign dims (0 where it repeats) */
  Var *vt = ctx_in(&c, "ValueTensor", 0) ? tu_in(e, "ValueTensor", 0) : NULL;
  if (ctx_in(&c, "ValueTensor", 0) && !vt) return -1;
  if (vt) supersede_value_attrs(e->op); /* ValueTensor holds the values */
  const char **lits = NULL;
  VarSpec attr_spec;
  /* cppcheck-suppress uninitvar ; only its address: attr_values fills it before vs is read */
  const VarSpec *vs = vt ? em_spec(e, vt) : &attr_spec;
  int nvals = 0;
  if (vt && vt->dtype != dt)
    return em_fail(e, "ValueTensor is %s, Input %s", rt_dtype_name(vt->dtype), rt_dtype_name(dt));
  if (!vt && (nvals = attr_values(e, dt, &lits, &attr_spec)) < 0) return -1;
  const char *vst[2 * RT_MAX_RANK], *acc = "1";
  for (int j = 0; j < na_dims; j++) vst[j] = "0";
  for (int k = vs->rank - 1; k >= 0; k--) {
    int j = na_dims - vs->rank + k;
    SymDim vd = vs->d[k];
    int one = vd.a == 0 && vd.c == 1;
    if (j < 0 ? !one : !one && (run_assign >> j & 1 || vd.a != assign[j].a || vd.c != assign[j].c))
      return em_fail(e, "the value (dim %d of %d) does not broadcast to the slice%s", k, vs->rank,
                     j >= 0 && run_assign >> j & 1 ? " (a value along a sliced dim the run gives has size 1 there)"
                                                   : "");
    if (j >= 0 && !one) vst[j] = acc;
    acc = tu_mul(acc, em_sym(vd));
  }
  if (empty) { /* nothing is assigned, once the value is checked against the slice as Paddle does */
    slice_print_c(e->p, &(SliceCall){.kind = SLICE_SET, .empty = 1});
    return 0;
  }
  /* Out[start + s * step] = value, over the slice */
  SliceCall call = {.kind = SLICE_SET, .type = em_ctype(dt), .rank = r, .vals = lits, .nvals = nvals};
  tu_strides(e, x, call.strides);
  call.out = em_ptr(e, out, 0);
  if (vt) call.val = em_ptr(e, vt, 1);
  slice_dims(r, count, sl, sliced, &call);
  for (int d = 0; d < r; d++) {
    call.vstrides[d] = to_assign[d] >= 0 ? vst[to_assign[d]] : NULL;
    if (!(xs->runtime_mask >> d & 1)) continue;
    call.dims[d] = sliced[d] ? pool_printf("count_%d", d) : em_dim(e, x, d); /* the run's */
    if (sliced[d]) call.start[d] = pool_printf("start_%d", d), call.step[d] = pool_printf("INT64_C(%lld)",
                                                                                            (long long)step[last[d]]);
  }
  slice_print_c(e->p, &call);
  return 0;
}

/* dtype: the values convert to Input's dtype (phi SetValueKernel<T>); the
 * attribute names the list that holds them, which attr_values finds by
 * looking. */
static const char *const set_value_attr_ignores[] = {"dtype", NULL};
const OpDef op_set_value = {.type = "set_value", .infer = infer_set_value, .emit_c = emit_set_value,
                             .runtime_extents = 2, .attr_ignores = set_value_attr_ignores};

/* ---- set_value_grad ---- */

/* Paddle's set_value_grad slices one axis its own way (phi
 * SetValueGradImpl: StridedSliceOutDims for the count,
 * StridedSliceFunctor for the first element and a positive step, then
 * Eigen's stridedSlice clamping them to [0, dim]); 0 when that takes the
 * same elements as the forward's slice f, -1 after em_fail when not. */
static int grad_axis_check(EmitCtx *e, int64_t dim, int64_t start, int64_t end, int64_t step, const SliceAxis *f) {
  if (dim == 0) return 0;
  if (start < 0) start = start + dim < 0 ? 0 : start + dim;
  if (end < 0 && !(end == -1 && step < 0)) end = end + dim < 0 ? 0 : end + dim; /* -1: "None" with step < 0 */
  const int64_t s1 = step < 0 ? start + 1 : start, e1 = step < 0 ? end + 1 : end;
  if ((step < 0 && s1 < e1) || (step > 0 && s1 > e1))
    return em_fail(e, "Paddle's set_value_grad rejects the slice from %lld to %lld with step %lld", (long long)start,
                   (long long)end, (long long)step);
  const int64_t left = s1 < e1 ? s1 : e1, right = s1 < e1 ? e1 : s1, mag = step < 0 ? -step : step;
  const int64_t lo = left < 0 ? 0 : left, hi = right > dim ? dim : right;
  const int64_t count = ((hi - lo < 0 ? lo - hi : hi - lo) + mag - 1) / mag;
  int64_t first = start, stop = end;
  if (step < 0) {
    if (first > stop) {
      const int64_t end_dim = dim - 1 < first ? dim - 1 : first;
      int64_t off = (end_dim - stop) % mag;
      off = off == 0 ? mag : off;
      first += off, stop += off;
    }
    const int64_t t = first;
    first = stop, stop = t;
  }
  first = first < 0 ? 0 : first > dim ? dim : first;
  stop = stop < 0 ? 0 : stop > dim ? dim : stop;
  const int64_t taken = stop > first ? (stop - first + mag - 1) / mag : 0;
  const int64_t f_first = f->step > 0 ? f->start : f->start + (f->count - 1) * f->step;
  if (taken != count || count != f->count || (count > 0 && first != f_first) || (count > 1 && mag != (f->step < 0 ? -f->step : f->step)))
    return em_fail(e, "Paddle's set_value_grad slices elements other than its forward's here (%lld from %lld by %lld, "
                      "not %lld from %lld by %lld)",
                   (long long)taken, (long long)first, (long long)mag, (long long)f->count, (long long)f_first,
                   (long long)f->step);
  return 0;
}

/* d[0] * ... * d[n-1] as a*B + c into *out; -1 when two dims grow with B. */
static int sym_prod(const SymDim *d, int n, SymDim *out) {
  SymDim p = {0, 1};
  for (int i = 0; i < n; i++) {
    if (d[i].a && p.a) return -1;
    p = d[i].a ? (SymDim){d[i].a * p.c, d[i].c * p.c} : (SymDim){p.a * d[i].c, p.c * d[i].c};
    if (p.a && p.c && d[i].a && d[i].c) return -1;
  }
  *out = p;
  return 0;
}

static int sym_eq(SymDim a, SymDim b) { return a.a == b.a && a.c == b.c; }

/* set_value_grad (Out@GRAD, ValueTensor, Starts/Ends/StepsTensorList ->
 * Input@GRAD, ValueTensor@GRAD, either absent; phi SetValueGradKernel /
 * SetValueWithTensorGradKernel).  Paddle's grad op maker makes it only for
 * a set_value with ValueTensor (one with attribute values gets `assign`).
 *   Input@GRAD = Out@GRAD with the slice's elements 0.
 *   ValueTensor@GRAD = the slice of Out@GRAD, summed over the dims the
 *   value was broadcast along.  Paddle's kernel lines the value's dims up
 *   with the slice's its own way: when they equal the slice's dims
 *   (decrease_axes kept as 1) one to one; else right-aligned against the
 *   slice with decrease_axes taken as 1 and skipped, none_axes not known
 *   to it (their 1s are just value dims); the sums then fill the value's
 *   buffer read with those dims.  paddlec reproduces that and refuses
 *   where Paddle's own checks fail, where those dims do not hold the
 *   value's element count (Paddle writes a part of the buffer, or past
 *   it), or where its slice differs from the forward's (grad_axis_check).
 * The slice bounds are the forward's (attributes, or bounds tensors known
 * at compile time); float32, float64, int32, int64. */
static int emit_set_value_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *dout = tu_in(e, "Out@GRAD", 0);
  Var *vt = ctx_in(&c, "ValueTensor", 0) ? tu_in(e, "ValueTensor", 0) : NULL;
  if (!dout || (ctx_in(&c, "ValueTensor", 0) && !vt)) return -1;
  Var *dx = ctx_out(&c, "Input@GRAD", 0) ? tu_out(e, "Input@GRAD", 0) : NULL;
  Var *dv = ctx_out(&c, "ValueTensor@GRAD", 0) ? tu_out(e, "ValueTensor@GRAD", 0) : NULL;
  if ((ctx_out(&c, "Input@GRAD", 0) && !dx) || (ctx_out(&c, "ValueTensor@GRAD", 0) && !dv)) return -1;
  if (dv && !vt) return em_fail(e, "ValueTensor@GRAD without ValueTensor");
  const int dt = dout->dtype;
  if (dt != RT_DT_FP32 && dt != RT_DT_FP64 && dt != RT_DT_INT32 && dt != RT_DT_INT64)
    return em_fail(e, "set_value_grad of %s tensors is not supported", rt_dtype_name(dt));
  if ((dx && dx->dtype != dt) || (dv && dv->dtype != dt)) return em_fail(e, "the gradients differ in dtype");
  if (dv && (em_same_buffer(e, dv, dout) || (dx && em_same_buffer(e, dv, dx))))
    return em_fail(e, "ValueTensor@GRAD must not share a buffer with Out@GRAD or Input@GRAD");
  int r = tu_rank(e, dout);
  if (dx && tu_rank(e, dx) != r) return em_fail(e, "Input@GRAD and Out@GRAD differ in rank");
  int64_t *axes, start[RT_MAX_RANK], end[RT_MAX_RANK], step[RT_MAX_RANK], *dec;
  int na = attr_ints(e->op, "axes", &axes), ndec = attr_ints(e->op, "decrease_axes", &dec);
  if (na > r) return em_fail(e, "%d axes for rank %d", na, r);
  if (bounds(e, "StartsTensorList", "starts", na, 0, start) || bounds(e, "EndsTensorList", "ends", na, 0, end) ||
      bounds(e, "StepsTensorList", "steps", na, 1, step))
    return -1;
  const VarSpec *xs = em_spec(e, dout);
  SymDim count[RT_MAX_RANK] = {{0, 0}};
  SliceAxis sl[RT_MAX_RANK] = {{0, 0, 0, 0}};
  int sliced[RT_MAX_RANK] = {0}, empty = 0;
  for (int d = 0; d < r; d++) count[d] = xs->d[d];
  for (int i = 0; i < na; i++) {
    int a = axes[i] >= 0 && axes[i] < r ? (int)axes[i] : -1;
    if (a < 0) return em_fail(e, "axis %lld is out of range", (long long)axes[i]);
    if (sliced[a]) return em_fail(e, "axis %d is sliced twice", a);
    if (xs->runtime_mask >> a & 1)
      return em_fail(e, "slicing dim %d, a size the run gives, is not supported in set_value_grad yet", a);
    int64_t dim = em_const_dim(e, dout, a);
    if (dim < 0) return em_fail(e, "slicing dim %d, which depends on the batch, is not supported", a);
    if (slice_axis(e, dim, start[i], end[i], step[i], &sl[a]) ||
        grad_axis_check(e, dim, start[i], end[i], step[i], &sl[a]))
      return -1;
    sliced[a] = 1;
    count[a] = (SymDim){0, sl[a].count};
    empty |= sl[a].count == 0;
  }
  /* the slice's loops, an axis with a negative step walked from its lowest
   * address up, as Paddle's grad kernel sums */
  SliceCall call = {.kind = SLICE_SET_ZERO, .type = em_ctype(dt), .rank = r, .empty = empty};
  tu_strides(e, dout, call.strides);
  slice_dims(r, count, sl, sliced, &call);
  for (int d = 0; d < r; d++) /* the dims the run gives, whole (no slice cuts them) */
    if (xs->runtime_mask >> d & 1) call.dims[d] = em_dim(e, dout, d);
  for (int d = 0; d < r; d++) call.down[d] = sliced[d] && sl[d].step < 0;
  if (dv) { /* first: Input@GRAD may be Out@GRAD's buffer */
    const VarSpec *vs = em_spec(e, vt);
    SymDim fake[RT_MAX_RANK] = {{0, 0}}, vnumel, fnumel;
    int direct = vs->rank == r;
    for (int d = 0; d < r && direct; d++) direct = sym_eq(vs->d[d], count[d]);
    for (int i = 0, num_dec = 0; i < r && !direct; i++) {
      int is_dec = 0;
      for (int k = 0; k < ndec; k++) is_dec |= dec[k] == i;
      const int lead = r - (vs->rank + ndec - num_dec);
      if (is_dec) {
        fake[i] = (SymDim){0, 1}, num_dec++;
      } else if (i < lead) {
        fake[i] = (SymDim){0, 1};
      } else {
        const int k = i - lead;
        if (k >= vs->rank) return em_fail(e, "Paddle's kernel reads past ValueTensor's dims here");
        fake[i] = vs->d[k];
        if (!sym_eq(fake[i], count[i]) && !sym_eq(fake[i], (SymDim){0, 1}))
          return em_fail(e, "ValueTensor (dim %d) does not accumulate into the slice (dim %d)", k, i);
      }
    }
    if (direct)
      for (int d = 0; d < r; d++) fake[d] = count[d];
    for (int d = 0; d < r; d++) /* ValueTensor has no run sizes (infer_set_value): it broadcast along them */
      if (xs->runtime_mask >> d & 1 && !sym_eq(fake[d], (SymDim){0, 1}))
        return em_fail(e, "ValueTensor is not 1 along dim %d of the slice, a size the run gives", d);
    if (sym_prod(vs->d, vs->rank, &vnumel) || sym_prod(fake, r, &fnumel) || !sym_eq(vnumel, fnumel))
      return em_fail(e, "Paddle's kernel sums into ValueTensor with dims that do not hold its elements "
                        "(none_axes or leading 1s it does not line up); not supported");
    SliceCall g = call;
    const char *acc = "1";
    for (int d = r - 1; d >= 0; d--) {
      g.vstrides[d] = sym_eq(fake[d], (SymDim){0, 1}) ? "0" : acc;
      acc = tu_mul(acc, em_sym(fake[d]));
    }
    g.kind = SLICE_SET_GRAD;
    g.dout = em_ptr(e, dout, 1);
    g.dv = em_ptr(e, dv, 0);
    g.numel = em_numel(e, dv);
    slice_print_c(e->p, &g);
  }
  if (dx) {
    if (tu_copy(e, dout, dx)) return -1;
    if (!empty) {
      call.dx = em_ptr(e, dx, 0);
      slice_print_c(e->p, &call);
    }
  }
  return 0;
}

/* set_value_grad's shape rule (fluid SetValueGrad, whose InferShape sets
 * ValueTensor@GRAD only): Input@GRAD as Out@GRAD, ValueTensor@GRAD as
 * ValueTensor. */
static int infer_set_value_grad(OpCtx *c) {
  Var *dout = ctx_need(c, "Out@GRAD", 0);
  if (!dout) return -1;
  if (dout->shape.rank >= 7) return ctx_fail(c, "Out@GRAD %s has more than 6 dims", shape_str(&dout->shape));
  ctx_set(c, "Input@GRAD", 0, &dout->shape, dout->dtype);
  ctx_pass_runtime_extent(c, dout, "Input@GRAD", 0); /* the run's sizes, the forward's */
  if (ctx_out(c, "ValueTensor@GRAD", 0)) {
    Var *v = ctx_need(c, "ValueTensor", 0);
    if (!v) return -1;
    ctx_set(c, "ValueTensor@GRAD", 0, &v->shape, v->dtype);
  }
  return 0;
}

/* The grad op carries every forward attribute: the value ones (dtype,
 * shape, values and the pre-2.6 lists) are the forward's, unused with
 * ValueTensor bound; none_axes Paddle's kernel takes but does not use
 * (see above). */
static const char *const set_value_grad_attr_ignores[] = {
    "dtype", "shape", "values", "fp32_values", "fp64_values", "int32_values", "int64_values", "fp16_values",
    "bool_values", "none_axes", NULL};
const OpDef op_set_value_grad = {.type = "set_value_grad", .infer = infer_set_value_grad,
                                 .emit_c = emit_set_value_grad, .attr_ignores = set_value_grad_attr_ignores,
                                 .runtime_extents = 2};

/* unique (Paddle UniqueRawInferMeta, phi UniqueRawKernel): X -> Out,
 *   Indices?, Index?, Counts?; attrs dtype (of Indices, Index, Counts:
 *   int32 or int64), return_index, return_inverse, return_counts, axis
 *   (none, or one dim: -1 is the last, other negatives Paddle's kernel
 *   reads as they are: refused), is_sorted (paddle.unique sets it).
 *   Sorted: Out holds X's distinct elements (no axis) or slices along the
 *   axis, ascending; Indices each one's first position, Index (inverse) for
 *   each element or slice of X the position of its value in Out (X's numel
 *   or dim `axis` long), Counts how many of X each holds.  Not sorted
 *   (fluid's unique, 1-D X): Out in the order first seen, Index the
 *   inverse.  Out, Indices and Counts are as long as the distinct count,
 *   known only at run time: while specializing they are sized for every
 *   element or slice and that dim is a run-time extent (graph.h
 *   VAR_RUNTIME_EXTENT) the kernel writes.
 * unique_consecutive (UniqueConsecutiveInferMeta, phi
 *   UniqueConsecutiveKernel): X -> Out, Index?, Counts?; attrs
 *   return_inverse, return_counts, axis (none or one dim >= 0: Paddle's
 *   kernel takes a negative one as it is: refused), dtype: each run of
 *   equal neighbours (elements, or slices along the axis) once, in X's
 *   order; a NaN equals nothing.  Out and Counts are run-time extents.
 * Emission (select_call.h, runtime/rt_unique.h): float32, float64, int32,
 * int64, as Paddle's CPU kernels.  A NaN in X with is_sorted stops the
 * run with an error (Paddle orders NaN through std::set and std::sort,
 * which NaN leaves without an order); Indices along an axis of more than
 * 16 slices is refused (Paddle's std::sort of them is not stable beyond 16:
 * which of equal slices it reports first is its introsort's). */
#include <string.h>

#include "../util.h"
#include "ops.h"
#include "rt_unique.h"
#include "select_call.h"
#include "tensor_util.h"

static int consecutive(const Op *op) { return !strcmp(op->type, "unique_consecutive"); }

/* The axis attribute: -1 for none, else the dim; -2 after ctx_fail. */
static int unique_axis(OpCtx *c, int rank) {
  int64_t *ax = NULL;
  const int n = attr_ints(c->op, "axis", &ax);
  if (n <= 0) return -1;
  if (ax[0] < (consecutive(c->op) ? 0 : -1) || ax[0] >= rank)
    return ctx_fail(c, "axis %lld is not supported for X of rank %d (0 to rank - 1, or -1: Paddle's kernel reads "
                    "other negative axes as they are)", (long long)ax[0], rank), -2;
  return ax[0] == -1 ? rank - 1 : (int)ax[0];
}

static int index_dtype(const Op *op) { return attr_int(op, "dtype", 3) == 2 ? RT_DT_INT32 : RT_DT_INT64; }

static int infer_unique(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  const int sorted = consecutive(c->op) || attr_bool(c->op, "is_sorted", 0), it = index_dtype(c->op);
  const int spec = c->g->specializing;
  const int64_t numel = shape_numel(xs);
  if (!sorted) { /* fluid's unique */
    if (xs->rank != 1) return ctx_fail(c, "X %s must be 1-D when is_sorted is false (Paddle's check)", shape_str(xs));
    Shape o = {1, {spec ? numel : DIM_UNKNOWN}};
    ctx_set(c, "Out", 0, &o, x->dtype);
    ctx_set(c, "Index", 0, xs, it);
    if (spec && numel >= 0) ctx_set_runtime_extent(c, "Out", 0, 0, "X (its distinct values)");
    ctx_pass_runtime_extent(c, x, "Index", 0); /* X's length the run's: Index's */
    return 0;
  }
  const int axis = unique_axis(c, xs->rank);
  if (axis == -2) return -1;
  if (axis >= 0 && var_runtime_mask(x))
    return ctx_fail(c, "X ('%s') has dims only the run gives (from its %s); %s takes them flattened (no axis) only",
                    x->name, x->runtime_from ? x->runtime_from : "inputs", c->op->type);
  /* a NaN first in X makes unique_consecutive's flattened loop write one
   * element more (rt_unique.h) */
  const int lead = consecutive(c->op) && axis < 0 && (x->dtype == RT_DT_FP32 || x->dtype == RT_DT_FP64);
  const int64_t n = axis < 0 ? (numel >= 0 ? numel + lead : numel) : xs->d[axis];
  Shape o = {1, {spec ? n : DIM_UNKNOWN}}, one = o, inv = {1, {axis < 0 ? numel : xs->d[axis]}};
  if (axis >= 0) o = *xs, o.d[axis] = spec ? n : DIM_UNKNOWN;
  ctx_set(c, "Out", 0, &o, x->dtype);
  if (!consecutive(c->op) && attr_bool(c->op, "return_index", 0)) ctx_set(c, "Indices", 0, &one, it);
  if (attr_bool(c->op, "return_inverse", 0)) ctx_set(c, "Index", 0, &inv, it);
  if (attr_bool(c->op, "return_inverse", 0) && spec && var_runtime_mask(x)) /* one a element of X: the run's count */
    ctx_set_runtime_extent(c, "Index", 0, 0, "X (its elements)");
  if (attr_bool(c->op, "return_counts", 0)) ctx_set(c, "Counts", 0, &one, it);
  if (spec && n >= 0) {
    const char *from = axis < 0 ? "X (its distinct values)" : "X (its distinct slices)";
    ctx_set_runtime_extent(c, "Out", 0, axis < 0 ? 0 : axis, from);
    if (!consecutive(c->op) && attr_bool(c->op, "return_index", 0)) ctx_set_runtime_extent(c, "Indices", 0, 0, from);
    if (attr_bool(c->op, "return_counts", 0)) ctx_set_runtime_extent(c, "Counts", 0, 0, from);
  }
  return 0;
}

/* The output of `slot` the kernel writes when `wanted`: its pointer, its
 * run-time extent appended to *rows; "NULL" when not written. */
static const char *output(EmitCtx *e, const char *slot, int wanted, int extent, const char **rows) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *v = wanted ? ctx_out(&c, slot, 0) : NULL;
  if (!v) return "NULL";
  if (extent) *rows = pool_printf("%s = %s", em_dim(e, v, 0), *rows);
  return em_ptr(e, v, 0);
}

static int emit_unique(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  const int dt = x->dtype, cons = consecutive(e->op), sorted = cons || attr_bool(e->op, "is_sorted", 0);
  const int rank = tu_rank(e, x);
  const char *suffix = dt == RT_DT_FP32 ? "f32" : dt == RT_DT_FP64 ? "f64" : dt == RT_DT_INT32 ? "i32"
                       : dt == RT_DT_INT64 ? "i64" : NULL;
  if (!suffix || out->dtype != dt)
    return em_fail(e, "unique of %s is not supported (float32, float64, int32, int64)", rt_dtype_name(dt));
  const int axis = sorted ? unique_axis(&c, rank) : -1;
  if (axis == -2) return -1;
  if (!sorted) /* fluid's UniqueOpFunctor reads none of these: Out and Index only */
    for (const char *const *a = (const char *const[]){"axis", "return_index", "return_inverse", "return_counts", NULL};
         *a; a++)
      attr_superseded(e->op, *a);
  const int want_index = sorted && !cons && attr_bool(e->op, "return_index", 0);
  const char *dims[RT_MAX_RANK]; /* X's dims, the batch's a run-time value */
  for (int d = 0; d < rank; d++) dims[d] = em_dim(e, x, d);
  if (want_index && axis >= 0 && (em_const_dim(e, x, axis) < 0 || em_const_dim(e, x, axis) > 16))
    return em_fail(e, "return_index along axis %d of %s slices is not supported: beyond 16, which of equal slices "
                   "Paddle reports is its std::sort's (not stable) choice", axis, em_dim(e, x, axis));
  const SymDim work = spec_numel(em_spec(e, x));
  const int64_t size = rt_dtype_size(dt);
  const char *rows = em_dim(e, out, axis < 0 ? 0 : axis);
  SelectCall call = {.kind = SELECT_UNIQUE, .suffix = suffix, .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0)};
  call.indices = output(e, "Indices", want_index, 1, &rows);
  const int want_inverse = !sorted || attr_bool(e->op, "return_inverse", 0);
  call.inverse = output(e, "Index", want_inverse, 0, &rows);
  Var *inv = ctx_out(&c, "Index", 0);
  if (want_inverse && inv && em_spec(e, inv)->runtime_mask) /* X's element count, the run's */
    pr_line(e->p, "%s = %s;", em_dim(e, inv, 0), em_numel(e, x));
  call.counts = output(e, "Counts", sorted && attr_bool(e->op, "return_counts", 0), 1, &rows);
  call.work = em_scratch_named(e, "unsigned char", "work",
                               (SymDim){work.a * (size + 32), RT_UNIQUE_WORK_BYTES(work.c, work.c, size)});
  call.rows = rows;
  call.rank = rank, call.axis = axis, call.sorted = sorted, call.consecutive = cons;
  for (int d = 0; d < rank; d++) call.dims[d] = dims[d];
  call.index64 = index_dtype(e->op) == RT_DT_INT64;
  call.nan_stops = sorted && !cons;
  if (call.nan_stops) em_fault(e, pool_printf("X ('%s') holds NaN, which Paddle's sorted unique has no order for", x->name));
  select_print_c(e->p, &call);
  return 0;
}

const OpDef op_unique = {.type = "unique", .infer = infer_unique, .emit_c = emit_unique, .runtime_extents = 2};
const OpDef op_unique_consecutive = {.type = "unique_consecutive", .infer = infer_unique, .emit_c = emit_unique,
                                     .runtime_extents = 2};

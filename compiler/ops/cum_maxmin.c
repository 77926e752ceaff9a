/* cummax, cummin (paddle.cummax / paddle.cummin): x -> out (x's dims and
 * dtype), indices (x's dims, int32 or int64); axis:INT=-1, dtype:INT=3
 * (the indices' VarType: 2 = int32, 3 = int64).  The Python API flattens x
 * first when axis is None.
 * Shape rule (phi CumWithIndicesInferMeta): axis in [-rank, rank) (0 or -1
 * for a 0-D x); dtype int32 or int64.
 * Emission (float32/64, int32/64): Paddle's ComputeImp, per line along the
 * axis: the running value starts at the line's first element; element i
 * replaces it (and its index i is recorded) when it is NaN, or when the
 * running value is not NaN and element >= value (cummax) or <= value
 * (cummin) -- so equal values move the index forward and a NaN sticks,
 * with the index of the latest NaN. */
#include <string.h>

#include "../util.h"
#include "ops.h"
#include "scan_call.h"
#include "tensor_util.h"

static int infer_cum_maxmin(OpCtx *c) {
  Var *x = ctx_need(c, "x", 0);
  if (!x) return -1;
  int64_t axis = attr_int(c->op, "axis", -1), dtype = attr_int(c->op, "dtype", RT_DT_INT64);
  int r = x->shape.rank;
  if (r > 0 ? axis < -r || axis >= r : axis != 0 && axis != -1)
    return ctx_fail(c, "axis %lld is out of range for x %s", (long long)axis, shape_str(&x->shape));
  if (dtype != RT_DT_INT32 && dtype != RT_DT_INT64)
    return ctx_fail(c, "dtype %lld is not int32 (2) or int64 (3)", (long long)dtype);
  ctx_set(c, "out", 0, &x->shape, x->dtype);
  ctx_set(c, "indices", 0, &x->shape, (int)dtype);
  ctx_pass_runtime_extent(c, x, "out", 0); /* X's dims the run gives: each scan the run's */
  ctx_pass_runtime_extent(c, x, "indices", 0);
  return 0;
}

static int emit_cum_maxmin(EmitCtx *e) {
  Var *x = tu_in(e, "x", 0), *out = tu_out(e, "out", 0), *ind = tu_out(e, "indices", 0);
  if (!x || !out || !ind) return -1;
  const int fp = x->dtype == RT_DT_FP32 || x->dtype == RT_DT_FP64;
  if ((!fp && x->dtype != RT_DT_INT32 && x->dtype != RT_DT_INT64) || out->dtype != x->dtype)
    return em_fail(e, "%s of %s tensors is not supported", e->op->type, rt_dtype_name(x->dtype));
  if (ind->dtype != RT_DT_INT32 && ind->dtype != RT_DT_INT64) return em_fail(e, "indices must be int32 or int64");
  if (x == out) return em_fail(e, "out is x itself, which is not supported");
  int r = tu_rank(e, x), axis = r ? axis_norm(attr_int(e->op, "axis", -1), r) : 0;
  if (axis < 0) return em_fail(e, "axis is out of range");
  const char *inner = r ? em_prod(e, x, axis + 1, r) : "1";
  ScanCall call = {.kind = strcmp(e->op->type, "cummax") ? SCAN_MIN : SCAN_MAX, .type = em_ctype(x->dtype),
                   .lines = r ? tu_mul(em_prod(e, x, 0, axis), inner) : "1", .n = r ? em_dim(e, x, axis) : "1",
                   .inner = inner, .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0), .nan = fp,
                   .indices = em_ptr(e, ind, 0), .index_type = em_ctype(ind->dtype)};
  scan_print_c(e->p, &call);
  return 0;
}

const OpDef op_cummax = {.type = "cummax", .infer = infer_cum_maxmin, .emit_c = emit_cum_maxmin, .runtime_extents = 2};
const OpDef op_cummin = {.type = "cummin", .infer = infer_cum_maxmin, .emit_c = emit_cum_maxmin, .runtime_extents = 2};

/* cummax_grad, cummin_grad: x, indices, out@GRAD -> x@GRAD (x's shape);
 * axis, dtype.  phi CumMaxGradKernel / CumMinGradKernel: zeros, then each
 * element of out@GRAD added at its index along the axis
 * (cpu_scatter_add_kernel), in memory order.  dtype names indices' type,
 * which the tensor carries.  A 0-D x gets 0 (Paddle's scatter writes
 * nothing there). */
static int emit_cum_maxmin_grad(EmitCtx *e) {
  Var *x = tu_in(e, "x", 0);
  if (!x) return -1;
  int r = tu_rank(e, x);
  int64_t a = attr_int(e->op, "axis", -1);
  int axis = r ? axis_norm(a, r) : a == 0 || a == -1 ? 0 : -1;
  if (axis < 0) return em_fail(e, "axis is out of range");
  return tu_index_grad(e, "x@GRAD", "indices", "out@GRAD", axis, 0, "0");
}

static const char *const cum_maxmin_grad_attr_ignores[] = {"dtype", NULL}; /* see above */
const OpDef op_cummax_grad = {.type = "cummax_grad", .infer = grad_infer, .emit_c = emit_cum_maxmin_grad,
                              .attr_ignores = cum_maxmin_grad_attr_ignores, .runtime_extents = 2};
const OpDef op_cummin_grad = {.type = "cummin_grad", .infer = grad_infer, .emit_c = emit_cum_maxmin_grad,
                              .attr_ignores = cum_maxmin_grad_attr_ignores, .runtime_extents = 2};

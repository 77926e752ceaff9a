/* take_along_axis, put_along_axis: element-wise gathers and scatters along
 * one axis.
 *   take_along_axis: Input, Index -> Result; Axis:INT.
 *     Shape rule (phi TakeAlongAxisInferMeta): Input and Index have rank
 *     >= 1; Result has Index's dims and Input's dtype.
 *   put_along_axis: Input, Index, Value -> Result; Axis:INT,
 *     Reduce:STRING="assign" (also "add", "mul" / "multiply", "mean",
 *     "amin", "amax"), Include_self:BOOLEAN=true.
 *     Shape rule (phi PutAlongAxisInferMeta): Result has Input's dims and
 *     dtype.
 * Index is int32 or int64.  The Python API broadcasts Index (and Value) to
 * Input's dims first; the ops themselves walk Index as [inner, n, outer]
 * around the axis and address the other tensors by flat offset, which this
 * emitter reproduces (phi cpu_gather_scatter_functor):
 *   take: Result[p] = Input[k + Index[p] * outer_in + i * outer_in * n_in]
 *   put:  Result[k + Index[p] * outer_in + i * outer_in * n_in] <reduce>=
 *         Value[k + j * outer_val + i * outer_val * n_val]
 * for p = (i, j, k), outer_X the product of X's dims after the axis and n_X
 * its dim at the axis.  Without Include_self, the first value to reach an
 * element replaces it; "mean" divides the sum by the number of values (+1
 * with Include_self) at the end.  Paddle 2.6 neither wraps nor checks an
 * index here (it reads or writes the flat offset, out of bounds or in
 * another row): take and put stop the run on an index outside [0, n_in)
 * rather than read or write that; put's grad skips an offset outside the
 * tensor.  A negative Axis counts from the end.  Sizes the run gives (an
 * image's height and width) pass from Index (take) or Input (put) to
 * Result; put checks at run time that Value covers Index. */
#include <string.h>

#include "../util.h"
#include "along_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_take_along_axis(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0), *idx = ctx_need(c, "Index", 0);
  if (!x || !idx) return -1;
  if (x->shape.rank < 1 || idx->shape.rank < 1)
    return ctx_fail(c, "Input %s and Index %s must have rank >= 1", shape_str(&x->shape), shape_str(&idx->shape));
  ctx_set(c, "Result", 0, &idx->shape, x->dtype);
  ctx_pass_runtime_extent(c, idx, "Result", 0);
  return 0;
}

static int infer_put_along_axis(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0);
  if (!x || !ctx_need(c, "Index", 0) || !ctx_need(c, "Value", 0)) return -1;
  ctx_set(c, "Result", 0, &x->shape, x->dtype);
  ctx_pass_runtime_extent(c, x, "Result", 0);
  return 0;
}

/* Checks the operands; *axis gets the normalized Axis.  -1 after em_fail. */
static int along_check(EmitCtx *e, const Var *x, const Var *idx, int *axis) {
  if (idx->dtype != RT_DT_INT32 && idx->dtype != RT_DT_INT64)
    return em_fail(e, "Index is %s; int32 or int64 expected", rt_dtype_name(idx->dtype));
  int r = tu_rank(e, x);
  if (tu_rank(e, idx) != r) return em_fail(e, "Input and Index differ in rank");
  *axis = axis_norm(attr_int(e->op, "Axis", 0), r);
  if (*axis < 0 || r == 0) return em_fail(e, "Axis %lld is out of range", (long long)attr_int(e->op, "Axis", 0));
  return 0;
}

/* The walk over Index as [ni, nj, nk] and x's flat geometry, into the
 * record. */
static void along_geometry(EmitCtx *e, const Var *x, const Var *idx, int axis, AlongCall *c) {
  int r = tu_rank(e, x);
  c->ni = em_prod(e, idx, 0, axis), c->nj = em_dim(e, idx, axis), c->nk = em_prod(e, idx, axis + 1, r);
  c->n_in = em_dim(e, x, axis), c->outer_in = em_prod(e, x, axis + 1, r), c->numel_in = em_numel(e, x);
  c->index_type = em_ctype(idx->dtype), c->index = em_ptr(e, idx, 1);
}

static int emit_take_along_axis(EmitCtx *e) {
  Var *x = tu_in(e, "Input", 0), *idx = tu_in(e, "Index", 0), *out = tu_out(e, "Result", 0);
  int axis;
  if (!x || !idx || !out || along_check(e, x, idx, &axis)) return -1;
  if (out->dtype != x->dtype) return em_fail(e, "Input and Result differ in dtype");
  if (x == out) return em_fail(e, "Result is Input itself (an in-place take_along_axis), which is not supported");
  AlongCall call = {.kind = ALONG_TAKE, .type = em_ctype(x->dtype), .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0)};
  em_fault(e, "an Index value is outside [0, Input's dim at Axis) (Paddle 2.6 reads outside the row or the tensor)");
  along_geometry(e, x, idx, axis, &call);
  along_print_c(e->p, &call);
  return 0;
}

/* put_along_axis's reductions by name (mul and multiply are one). */
static const struct {
  const char *name;
  AlongReduce reduce;
} reduces[] = {
    {"assign", ALONG_ASSIGN}, {"add", ALONG_ADD},   {"mul", ALONG_MUL},   {"multiply", ALONG_MUL},
    {"mean", ALONG_MEAN},     {"amax", ALONG_AMAX}, {"amin", ALONG_AMIN},
};

/* Reduce's value; -1 after em_fail. */
static int along_reduce(EmitCtx *e) {
  const char *reduce = attr_str(e->op, "Reduce", "assign");
  for (size_t i = 0; i < sizeof reduces / sizeof reduces[0]; i++)
    if (!strcmp(reduces[i].name, reduce)) return (int)reduces[i].reduce;
  return em_fail(e, "Reduce '%s' is not one of Paddle's (assign, add, mul, multiply, mean, amin, amax)", reduce);
}

static int emit_put_along_axis(EmitCtx *e) {
  Var *x = tu_in(e, "Input", 0), *idx = tu_in(e, "Index", 0), *val = tu_in(e, "Value", 0);
  Var *out = tu_out(e, "Result", 0);
  int axis;
  if (!x || !idx || !val || !out || along_check(e, x, idx, &axis)) return -1;
  if (out->dtype != x->dtype || val->dtype != x->dtype) return em_fail(e, "Input, Value and Result differ in dtype");
  if (x->dtype == RT_DT_BOOL) return em_fail(e, "put_along_axis of bool tensors is not supported");
  const int reduce = along_reduce(e);
  if (reduce < 0) return -1;
  const int include_self = attr_bool(e->op, "Include_self", 1);
  const int counted = reduce == ALONG_MEAN || (!include_self && reduce != ALONG_ASSIGN);
  int r = tu_rank(e, x);
  if (tu_rank(e, val) != r) return em_fail(e, "Value and Index differ in rank");
  for (int d = 0; d < r; d++) {
    SymDim vd = em_spec(e, val)->d[d], id = em_spec(e, idx)->d[d];
    if (vd.a < id.a || vd.a + vd.c < id.a + id.c) return em_fail(e, "Value is smaller than Index in dim %d", d);
  }
  const int run = em_spec(e, idx)->runtime_mask || em_spec(e, val)->runtime_mask;
  if (run) { /* the run's sizes: Value's cover Index's */
    for (int d = 0; d < r; d++)
      if ((em_spec(e, idx)->runtime_mask | em_spec(e, val)->runtime_mask) >> d & 1)
        pr_line(e->p, "if (%s < %s) return 1;", em_dim(e, val, d), em_dim(e, idx, d));
  }
  if (tu_copy(e, x, out)) return -1;
  AlongCall call = {.kind = ALONG_PUT, .type = em_ctype(x->dtype), .reduce = (AlongReduce)reduce,
                    .include_self = include_self, .val = em_ptr(e, val, 1), .out = em_ptr(e, out, 0),
                    .n_val = em_dim(e, val, axis), .outer_val = em_prod(e, val, axis + 1, r)};
  along_geometry(e, x, idx, axis, &call);
  if (counted) {
    SymDim n = spec_numel(em_spec(e, x));
    call.count = em_scratch_at(e, "count", (SymDim){n.a * 4, n.c * 4});
  }
  em_fault(e, run ? "Value is smaller than Index in this run, or an Index value is outside [0, Input's dim at Axis) "
                    "(Paddle 2.6 writes outside the row or the tensor)"
                  : "an Index value is outside [0, Input's dim at Axis) (Paddle 2.6 writes outside the row or the tensor)");
  along_print_c(e->p, &call);
  return 0;
}

const OpDef op_put_along_axis = {.type = "put_along_axis", .infer = infer_put_along_axis,
                                 .emit_c = emit_put_along_axis, .runtime_extents = 2};
const OpDef op_take_along_axis = {.type = "take_along_axis", .infer = infer_take_along_axis,
                                  .emit_c = emit_take_along_axis, .runtime_extents = 2};

/* ---- gradients ---- */

/* Checks a grad op's Index against X (the forward Input) and its
 * Result@GRAD; *axis gets the axis.  -1 after em_fail. */
static int along_grad_check(EmitCtx *e, const Var *x, const Var *idx, const Var *dout, int *axis) {
  if (along_check(e, x, idx, axis)) return -1;
  if (dout->dtype != RT_DT_FP32 && dout->dtype != RT_DT_FP64)
    return em_fail(e, "Result@GRAD is %s; float32 or float64 expected", rt_dtype_name(dout->dtype));
  return 0;
}

/* take_along_axis_grad (Input, Index, Result@GRAD -> Input@GRAD; phi
 * TakeAlongAxisGradKernel): Input@GRAD starts at zeros and each element of
 * Result@GRAD is added at the offset the forward read it from, in Index
 * order (cpu_scatter_add_kernel).  Offsets outside Input are skipped, as the
 * forward op reads zeros there.  Input gives only the shape. */
static int emit_take_along_axis_grad(EmitCtx *e) {
  Var *x = tu_in(e, "Input", 0), *idx = tu_in(e, "Index", 0), *dout = tu_in(e, "Result@GRAD", 0);
  Var *dx = tu_out(e, "Input@GRAD", 0);
  int axis;
  if (!x || !idx || !dout || !dx) return -1;
  if (along_grad_check(e, x, idx, dout, &axis)) return -1;
  if (dx->dtype != dout->dtype) return em_fail(e, "Input@GRAD and Result@GRAD differ in dtype");
  AlongCall call = {.kind = ALONG_TAKE_GRAD, .type = em_ctype(dout->dtype), .dout = em_ptr(e, dout, 1),
                    .dx = em_ptr(e, dx, 0), .numel_dx = em_numel(e, dx)};
  along_geometry(e, x, idx, axis, &call);
  along_print_c(e->p, &call);
  return 0;
}

/* put_along_axis_grad (Input, Index, Value, Result, Result@GRAD ->
 * Input@GRAD, Value@GRAD, either may be absent; phi PutAlongAxisGradKernel
 * and cpu_scatter_*_grad_kernel in Paddle 2.6), with `at` the offset in
 * Input of Index element p as the forward computes it:
 *   Input@GRAD = Result@GRAD, then
 *     assign, or Include_self false: zero at every `at`;
 *     add: nothing more;
 *     mul / multiply: at the first p reaching `at`, dx = dx * Result / Input;
 *     mean: dx /= (values reaching `at`) + 1 where any reach it;
 *     amin / amax: zero where Result != Input, else divided by 1 + the
 *       number of values equal to Result that reach `at`.
 *   Value@GRAD (Index's dims, zeros where no rule writes):
 *     assign: the last p reaching `at` takes Result@GRAD[at] (walked
 *       backwards, the first one seen);
 *     add: Result@GRAD[at]; mean: Result@GRAD[at] / (values reaching `at`
 *       + Include_self);
 *     mul / multiply: Result@GRAD[at] * (Result[at] / Value[p]);
 *     amin / amax: where Value[p] == Result[at], Result@GRAD[at] / n with n
 *       the values equal to Result reaching `at`, + 1 when Input[at] equals
 *       Result too.
 * Offsets outside Input are skipped, as the forward op skips them.  Value
 * must have Index's dims (the Python API broadcasts it so): Paddle sizes
 * Value@GRAD by Index. */
static int emit_put_along_axis_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "Input", 0), *idx = tu_in(e, "Index", 0), *val = tu_in(e, "Value", 0);
  Var *res = tu_in(e, "Result", 0), *dout = tu_in(e, "Result@GRAD", 0);
  Var *dx = ctx_out(&c, "Input@GRAD", 0), *dv = ctx_out(&c, "Value@GRAD", 0);
  int axis;
  if (!x || !idx || !val || !res || !dout) return -1;
  if ((dx && !tu_out(e, "Input@GRAD", 0)) || (dv && !tu_out(e, "Value@GRAD", 0))) return -1;
  const int reduce = along_reduce(e);
  if (reduce < 0) return -1;
  const int include_self = attr_bool(e->op, "Include_self", 1);
  const int mean = reduce == ALONG_MEAN, minmax = reduce == ALONG_AMAX || reduce == ALONG_AMIN;
  if (x->dtype != dout->dtype || val->dtype != dout->dtype || res->dtype != dout->dtype ||
      (dx && dx->dtype != dout->dtype) || (dv && dv->dtype != dout->dtype))
    return em_fail(e, "Input, Value, Result and their gradients differ in dtype");
  int r = tu_rank(e, x);
  if (tu_rank(e, val) != r) return em_fail(e, "Value and Index differ in rank");
  for (int d = 0; d < r; d++) {
    SymDim vd = em_spec(e, val)->d[d], id = em_spec(e, idx)->d[d];
    if (vd.a != id.a || vd.c != id.c) return em_fail(e, "Value and Index differ in dim %d", d);
  }
  if (along_grad_check(e, x, idx, dout, &axis)) return -1;
  AlongCall call = {.kind = ALONG_PUT_GRAD, .type = em_ctype(dout->dtype), .reduce = (AlongReduce)reduce,
                    .include_self = include_self, .numel_index = em_numel(e, idx), .x = em_ptr(e, x, 1),
                    .val = em_ptr(e, val, 1), .res = em_ptr(e, res, 1), .dout = em_ptr(e, dout, 1),
                    .dx = dx ? em_ptr(e, dx, 0) : NULL, .dv = dv ? em_ptr(e, dv, 0) : NULL};
  along_geometry(e, x, idx, axis, &call);
  const int dx_counts = dx && include_self && (reduce == ALONG_MUL || mean || minmax);
  const int dv_counts = dv && (mean || minmax);
  const SymDim n = spec_numel(em_spec(e, x));
  if (dx_counts || dv_counts) call.count = em_scratch_at(e, "count", (SymDim){n.a * 4, n.c * 4});
  if (dv && reduce == ALONG_ASSIGN) call.used = em_scratch_at(e, "used", n);
  along_print_c(e->p, &call);
  return 0;
}

const OpDef op_put_along_axis_grad = {.type = "put_along_axis_grad", .infer = grad_infer,
                                      .emit_c = emit_put_along_axis_grad, .runtime_extents = 2};
const OpDef op_take_along_axis_grad = {.type = "take_along_axis_grad", .infer = grad_infer,
                                       .emit_c = emit_take_along_axis_grad, .runtime_extents = 2};

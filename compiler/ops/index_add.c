/* index_add (paddle.index_add): X, Index, AddValue -> Out; axis:INT=0.
 * Shape rule (phi IndexAddInferMeta): axis in [-rank, rank); Index is 1-D
 * (int32 or int64) and not empty; AddValue has X's rank and X's dims
 * except at the axis (no broadcasting); Out is X.
 * Emission: phi IndexAddInner: Out = X, then with X viewed as [outer, n,
 * slice] and AddValue as [outer, len(Index), slice]
 *   out[o, Index[j], s] += add_value[o, j, s]
 * for j in order (a repeated index adds each time).  Paddle 2.6 raises an
 * error for an index outside [0, n): the compiled code stops the run. */
#include "../util.h"
#include "axis_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_index_add(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *idx = ctx_need(c, "Index", 0), *v = ctx_need(c, "AddValue", 0);
  if (!x || !idx || !v) return -1;
  const Shape *xs = &x->shape, *vs = &v->shape;
  int64_t axis = attr_int(c->op, "axis", 0);
  int a = axis_norm(axis, xs->rank);
  if (a < 0) return ctx_fail(c, "axis %lld is out of range for X %s", (long long)axis, shape_str(xs));
  if (idx->shape.rank != 1 || idx->shape.d[0] == 0)
    return ctx_fail(c, "Index %s must be 1-D and not empty", shape_str(&idx->shape));
  if (idx->dtype != RT_DT_INT32 && idx->dtype != RT_DT_INT64)
    return ctx_fail(c, "Index is %s; int32 or int64 expected", rt_dtype_name(idx->dtype));
  if (vs->rank != xs->rank) return ctx_fail(c, "AddValue %s must have the rank of X %s", shape_str(vs), shape_str(xs));
  for (int i = 0; i < xs->rank; i++)
    if (i != a && xs->d[i] != vs->d[i])
      return ctx_fail(c, "AddValue %s and X %s differ in dim %d", shape_str(vs), shape_str(xs), i);
  ctx_set(c, "Out", 0, xs, x->dtype);
  return 0;
}

static int emit_index_add(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *idx = tu_in(e, "Index", 0), *v = tu_in(e, "AddValue", 0), *out = tu_out(e, "Out", 0);
  if (!x || !idx || !v || !out) return -1;
  if (v->dtype != x->dtype || out->dtype != x->dtype || x->dtype == RT_DT_BOOL)
    return em_fail(e, "index_add of %s with %s into %s is not supported", rt_dtype_name(x->dtype),
                   rt_dtype_name(v->dtype), rt_dtype_name(out->dtype));
  if (idx->dtype != RT_DT_INT32 && idx->dtype != RT_DT_INT64)
    return em_fail(e, "Index is %s; int32 or int64 expected", rt_dtype_name(idx->dtype));
  if (v == out || idx == out) return em_fail(e, "Out is Index or AddValue, which is not supported");
  int r = tu_rank(e, x), a = axis_norm(attr_int(e->op, "axis", 0), r);
  if (a < 0) return em_fail(e, "axis is out of range");
  if (tu_copy(e, x, out)) return -1;
  AxisCall call = {.kind = AXIS_INDEX_ADD, .type = em_ctype(x->dtype), .outer = em_prod(e, x, 0, a),
                   .n = em_dim(e, x, a), .inner = em_prod(e, x, a + 1, r), .len = em_dim(e, idx, 0),
                   .index = em_ptr(e, idx, 1), .index_type = em_ctype(idx->dtype), .add = em_ptr(e, v, 1),
                   .out = em_ptr(e, out, 0)};
  em_fault(e, "an Index value is outside [0, X's dim at axis) (Paddle raises an error)");
  axis_print_c(e->p, &call);
  return 0;
}

const OpDef op_index_add = {.type = "index_add", .infer = infer_index_add, .emit_c = emit_index_add};

/* index_add_grad's shape rule: the grad op has no X; X@GRAD takes
 * Out@GRAD's shape, AddValue@GRAD AddValue's. */
static int infer_index_add_grad(OpCtx *c) {
  Var *dout = ctx_need(c, "Out@GRAD", 0), *v = ctx_need(c, "AddValue", 0);
  if (!dout || !v) return -1;
  ctx_set(c, "X@GRAD", 0, &dout->shape, dout->dtype);
  ctx_set(c, "AddValue@GRAD", 0, &v->shape, v->dtype);
  return 0;
}

/* index_add_grad (Index, AddValue, Out@GRAD -> X@GRAD, AddValue@GRAD,
 * either may be absent; phi IndexAddGradKernel): X@GRAD = Out@GRAD;
 * AddValue@GRAD = index_select(Out@GRAD, Index, axis), i.e.
 *   dv[o, j, s] = dout[o, Index[j], s]
 * (0 for an index outside [0, n), where Paddle raises an error).
 * AddValue gives only the shape. */
static int emit_index_add_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *idx = tu_in(e, "Index", 0), *v = tu_in(e, "AddValue", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *dv = ctx_out(&c, "AddValue@GRAD", 0);
  if (!idx || !v || !dout) return -1;
  if ((dx && !tu_out(e, "X@GRAD", 0)) || (dv && !tu_out(e, "AddValue@GRAD", 0))) return -1;
  if (idx->dtype != RT_DT_INT32 && idx->dtype != RT_DT_INT64)
    return em_fail(e, "Index is %s; int32 or int64 expected", rt_dtype_name(idx->dtype));
  if ((dout->dtype != RT_DT_FP32 && dout->dtype != RT_DT_FP64) || (dx && dx->dtype != dout->dtype) ||
      (dv && dv->dtype != dout->dtype))
    return em_fail(e, "the gradients must be float32 or float64 with Out@GRAD's dtype");
  if (dx && tu_copy(e, dout, dx)) return -1;
  if (!dv) return 0;
  int r = tu_rank(e, dout), a = axis_norm(attr_int(e->op, "axis", 0), r);
  if (a < 0) return em_fail(e, "axis is out of range");
  if (tu_rank(e, v) != r) return em_fail(e, "AddValue and Out@GRAD differ in rank");
  AxisCall call = {.kind = AXIS_INDEX_ADD_GRAD, .type = em_ctype(dout->dtype), .outer = em_prod(e, dout, 0, a),
                   .n = em_dim(e, dout, a), .inner = em_prod(e, dout, a + 1, r), .len = em_dim(e, idx, 0),
                   .index = em_ptr(e, idx, 1), .index_type = em_ctype(idx->dtype), .dout = em_ptr(e, dout, 1),
                   .dv = em_ptr(e, dv, 0)};
  axis_print_c(e->p, &call);
  return 0;
}

const OpDef op_index_add_grad = {.type = "index_add_grad", .infer = infer_index_add_grad,
                                 .emit_c = emit_index_add_grad};

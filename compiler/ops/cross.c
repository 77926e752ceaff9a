/* cross (paddle.cross): X, Y -> Out; dim:INT=9 (DDim::kMaxRank: the first
 * dim of size 3).
 * Shape rule (phi CrossInferMeta): X and Y have the same dims; an explicit
 * dim is in [-rank, rank) and both have 3 there; Out is X.
 * Emission (float32/64, int32/64): phi CrossKernel, with X viewed as
 * [outer, 3, slice] around the dim:
 *   out[i, j, k] = x[i, j+1, k] * y[i, j+2, k] - x[i, j+2, k] * y[i, j+1, k]
 * (indices mod 3).  With the default dim the kernel takes the first dim
 * equal to 3 at run time, which can be the batch: when a dim that depends
 * on the batch comes before the first constant 3, the generated code
 * searches the dims as the kernel does. */
#include "../util.h"
#include "axis_call.h"
#include "ops.h"
#include "tensor_util.h"

enum { CROSS_FIRST_3 = 9 }; /* Paddle's DDim::kMaxRank */

static int infer_cross(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  const Shape *xs = &x->shape, *ys = &y->shape;
  int same = xs->rank == ys->rank;
  for (int i = 0; same && i < xs->rank; i++)
    same = xs->d[i] == ys->d[i] || xs->d[i] == DIM_UNKNOWN || ys->d[i] == DIM_UNKNOWN;
  if (!same) return ctx_fail(c, "X %s and Y %s must have the same shape", shape_str(xs), shape_str(ys));
  int64_t dim = attr_int(c->op, "dim", CROSS_FIRST_3);
  if (dim != CROSS_FIRST_3) {
    int a = axis_norm(dim, xs->rank);
    if (a < 0) return ctx_fail(c, "dim %lld is out of range for X %s", (long long)dim, shape_str(xs));
    if ((xs->d[a] >= 0 && xs->d[a] != 3) || (ys->d[a] >= 0 && ys->d[a] != 3))
      return ctx_fail(c, "X %s and Y %s must have 3 in dim %d", shape_str(xs), shape_str(ys), a);
  }
  ctx_set(c, "Out", 0, xs, x->dtype);
  return 0;
}

/* The view of X (and Y, of the same dims) as [outer, 3, slice] around the
 * cross dim, into the record: searched for at run time (among dims, the
 * caller's array) when a batch-dependent dim comes before the first
 * constant 3.  -1 after em_fail. */
static int cross_view(EmitCtx *e, const Var *x, const Var *y, AxisCall *call, const char **dims) {
  int r = tu_rank(e, x), axis = -1, search = 0;
  for (int i = 0; i < r; i++) {
    SymDim a = em_spec(e, x)->d[i], b = em_spec(e, y)->d[i];
    if (a.a != b.a || a.c != b.c) return em_fail(e, "X and Y differ in dim %d", i);
  }
  int64_t dim = attr_int(e->op, "dim", CROSS_FIRST_3);
  if (dim != CROSS_FIRST_3) {
    axis = axis_norm(dim, r);
    if (axis < 0 || em_const_dim(e, x, axis) != 3) return em_fail(e, "dim %lld is not a dim of size 3", (long long)dim);
  } else {
    for (int i = 0; i < r && axis < 0; i++) {
      if (em_const_dim(e, x, i) == 3) axis = i;
      else if (em_const_dim(e, x, i) < 0) search = 1; /* the batch may be 3 */
    }
    if (axis < 0) return em_fail(e, "X has no dim of size 3 known at compile time");
  }
  if (search) {
    for (int i = 0; i <= axis; i++) dims[i] = em_dim(e, x, i);
    call->search = axis + 1, call->dims = dims, call->numel = em_numel(e, x);
  } else {
    call->outer = em_prod(e, x, 0, axis), call->inner = em_prod(e, x, axis + 1, r);
  }
  return 0;
}

static int emit_cross(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *y = tu_in(e, "Y", 0), *out = tu_out(e, "Out", 0);
  if (!x || !y || !out) return -1;
  if (y->dtype != x->dtype || out->dtype != x->dtype || x->dtype == RT_DT_BOOL)
    return em_fail(e, "cross of %s and %s into %s is not supported", rt_dtype_name(x->dtype), rt_dtype_name(y->dtype),
                   rt_dtype_name(out->dtype));
  if (x == out || y == out) return em_fail(e, "Out is an input (an in-place cross), which is not supported");
  AxisCall call = {.kind = AXIS_CROSS, .type = em_ctype(x->dtype), .x = em_ptr(e, x, 1), .y = em_ptr(e, y, 1),
                   .out = em_ptr(e, out, 0)};
  const char *dims[RT_MAX_RANK];
  if (cross_view(e, x, y, &call, dims)) return -1;
  axis_print_c(e->p, &call);
  return 0;
}

const OpDef op_cross = {.type = "cross", .infer = infer_cross, .emit_c = emit_cross};

/* cross_grad: X, Y, Out@GRAD -> X@GRAD, Y@GRAD (each optional); dim.
 * phi CrossGradKernel, over the same [outer, 3, slice] view (j + 1 and
 * j + 2 taken mod 3):
 *   dX[j] = dOut[j+2] * Y[j+1] - dOut[j+1] * Y[j+2]
 *   dY[j] = dOut[j+1] * X[j+2] - dOut[j+2] * X[j+1]
 * each product rounded before the difference.  float32, float64, int32,
 * int64. */
static int emit_cross_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X", 0), *y = tu_in(e, "Y", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *dy = ctx_out(&c, "Y@GRAD", 0);
  if (!x || !y || !dout) return -1;
  Var *const all[5] = {x, y, dout, dx, dy};
  for (int k = 0; k < 5; k++)
    if (all[k] && (all[k]->dtype != x->dtype || x->dtype == RT_DT_BOOL))
      return em_fail(e, "cross_grad of %s tensors is not supported", rt_dtype_name(all[k]->dtype));
  AxisCall call = {.kind = AXIS_CROSS_GRAD, .type = em_ctype(x->dtype), .dout = em_ptr(e, dout, 1),
                   .y = dx ? em_ptr(e, y, 1) : NULL, .x = dy ? em_ptr(e, x, 1) : NULL,
                   .dx = dx ? em_ptr(e, dx, 0) : NULL, .dy = dy ? em_ptr(e, dy, 0) : NULL};
  const char *dims[RT_MAX_RANK];
  if (cross_view(e, x, y, &call, dims)) return -1;
  axis_print_c(e->p, &call);
  return 0;
}

const OpDef op_cross_grad = {.type = "cross_grad", .infer = grad_infer, .emit_c = emit_cross_grad};

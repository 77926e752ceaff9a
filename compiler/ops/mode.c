/* mode (paddle.mode): X -> Out (X's dtype), Indices (int64 at run time);
 * axis:INT=-1, keepdim:BOOLEAN=false.
 * Shape rule (phi ModeInferMeta): axis in [-rank, rank) (0 or -1 for a 0-D
 * X); Out and Indices drop the axis (keepdim: keep it as 1).  Paddle 2.6
 * gives Indices X's dtype in the VarDesc while its kernel writes int64; this
 * rule does the same outside specialization and says int64 while
 * specializing.
 * Emission (float32/64, int32/64): Paddle's GetMode per line along the axis:
 * the line's (value, position) pairs sorted ascending, NaN last, with
 * libstdc++'s std::sort (runtime/rt_sort.c reproduces its order among equal
 * values), then the longest run of equal values wins, the first (smallest)
 * of equally long runs; its value and the position of its last pair after
 * the sort are the results.  Each NaN is a run of its own.  A 0-D X is
 * copied with index 0. */
#include "../util.h"
#include "ops.h"
#include "sort_call.h"
#include "tensor_util.h"

int infer_axis_value_index(OpCtx *c, const Var *x, int *axis) {
  int r = x->shape.rank;
  int64_t a = attr_int(c->op, "axis", -1);
  if (r > 0 ? a < -r || a >= r : a != 0 && a != -1)
    return ctx_fail(c, "axis %lld is out of range for X %s", (long long)a, shape_str(&x->shape));
  *axis = r ? axis_norm(a, r) : 0;
  const int keep = attr_bool(c->op, "keepdim", 0);
  Shape o = {0, {0}};
  for (int i = 0; i < r; i++)
    if (i != *axis) o.d[o.rank++] = x->shape.d[i];
    else if (keep) o.d[o.rank++] = 1;
  ctx_set(c, "Out", 0, &o, x->dtype);
  ctx_set(c, "Indices", 0, &o, c->g->specializing ? RT_DT_INT64 : x->dtype);
  int red[RT_MAX_RANK] = {0}, to[RT_MAX_RANK];
  if (r) red[*axis] = 1;
  reduce_kept_dims_to(r, red, keep, to); /* the dims the run gives but the axis are Out's and Indices' */
  ctx_pass_runtime_extents_to(c, x, "Out", 0, to);
  ctx_pass_runtime_extents_to(c, x, "Indices", 0, to);
  return 0;
}

static int infer_mode(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  int axis;
  return x ? infer_axis_value_index(c, x, &axis) : -1;
}

static int emit_mode(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0), *ind = tu_out(e, "Indices", 0);
  if (!x || !out || !ind) return -1;
  /* the shape rule checked the axis and gave Out X's dtype and Indices int64 (specializing) */
  if (!sort_dtype_ok(x->dtype)) return em_fail(e, "mode of %s tensors is not supported", rt_dtype_name(x->dtype));
  int r = tu_rank(e, x);
  SortCall call = {.kind = SORT_MODE, .dtype = x->dtype, .zero_d = r == 0};
  if (r == 0) {
    call.vals = em_ptr(e, out, 0);
    call.x = em_ptr(e, x, 1);
    call.indices = em_ptr(e, ind, 0);
    sort_print_c(e->p, &call);
    return 0;
  }
  int axis = axis_norm(attr_int(e->op, "axis", -1), r);
  SymDim n = em_sym_prod(e, x, axis, axis + 1), all = spec_numel(em_spec(e, x));
  int64_t es = (int64_t)rt_dtype_size(x->dtype);
  call.n = em_dim(e, x, axis);
  call.inner = em_prod(e, x, axis + 1, r);
  call.vals = em_scratch_at(e, "vals", (SymDim){all.a * es, all.c * es});
  call.idx = em_scratch_at(e, "pos", (SymDim){all.a * 8, all.c * 8});
  call.work = em_scratch_named(e, "unsigned char", "work", (SymDim){n.a * 16, n.c * 16});
  call.x = em_ptr(e, x, 1);
  call.outer = em_prod(e, x, 0, axis);
  call.out = em_ptr(e, out, 0);
  call.indices = em_ptr(e, ind, 0);
  sort_print_c(e->p, &call);
  return 0;
}

const OpDef op_mode = {.type = "mode", .infer = infer_mode, .emit_c = emit_mode, .runtime_extents = 2};

/* mode_grad (and kthvalue_grad, kthvalue.c): X, Indices, Out@GRAD ->
 * X@GRAD (X's shape); axis, keepdim.  phi ModeGradKernel: zeros, and each
 * line's Out@GRAD element at the position Indices names along the axis.
 * A 0-D X gets 1, whatever Out@GRAD holds (Paddle 2.6's kernels set the
 * constant 1 there). */
int emit_value_index_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0);
  if (!x) return -1;
  int r = tu_rank(e, x);
  int64_t a = attr_int(e->op, "axis", -1);
  int axis = r ? axis_norm(a, r) : a == 0 || a == -1 ? 0 : -1;
  if (axis < 0) return em_fail(e, "axis is out of range");
  return tu_index_grad(e, "X@GRAD", "Indices", "Out@GRAD", axis, !attr_bool(e->op, "keepdim", 0), "1");
}

const OpDef op_mode_grad = {.type = "mode_grad", .infer = grad_infer, .emit_c = emit_value_index_grad,
                            .runtime_extents = 2};

/* argsort: X -> Out (X's dims and dtype), Indices (X's dims, int64);
 * axis:INT=-1, descending:BOOLEAN=false.
 * Shape rule (phi ArgsortInferMeta): axis in [-rank, rank); a 0-D X takes
 * axis 0 or -1.
 * Emission: rt_argsort_<type> (runtime/rt_sort.c) sorts each line along the
 * axis through a scratch buffer of (value, position) pairs, in the order
 * Paddle's CPU kernel gives -- NaN last ascending, first descending, and
 * equal values in the order of libstdc++'s std::sort, which the kernel
 * calls.  A 0-D X is copied with index 0. */
#include "../util.h"
#include "ops.h"
#include "sort_call.h"
#include "tensor_util.h"

static int infer_argsort(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t axis = attr_int(c->op, "axis", -1);
  int r = x->shape.rank;
  if (r > 0 ? axis < -r || axis >= r : axis != 0 && axis != -1)
    return ctx_fail(c, "axis %lld is out of range for X %s", (long long)axis, shape_str(&x->shape));
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_set(c, "Indices", 0, &x->shape, RT_DT_INT64);
  ctx_pass_runtime_extent(c, x, "Out", 0); /* X's dims the run gives: each line the run's (scratch at the bound) */
  ctx_pass_runtime_extent(c, x, "Indices", 0);
  return 0;
}

static int emit_argsort(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0), *ind = tu_out(e, "Indices", 0);
  if (!x || !out || !ind) return -1;
  if (!sort_dtype_ok(x->dtype) || out->dtype != x->dtype)
    return em_fail(e, "argsort of %s tensors is not supported", rt_dtype_name(x->dtype));
  if (ind->dtype != RT_DT_INT64) return em_fail(e, "Indices must be int64");
  int r = tu_rank(e, x);
  if (r == 0) {
    SortCall call = {.kind = SORT_ARGSORT_OP, .dtype = x->dtype, .zero_d = 1, .vals = em_ptr(e, out, 0)};
    call.x = em_ptr(e, x, 1);
    call.indices = em_ptr(e, ind, 0);
    sort_print_c(e->p, &call);
    return 0;
  }
  int axis = axis_norm(attr_int(e->op, "axis", -1), r);
  if (axis < 0) return em_fail(e, "axis is out of range");
  SymDim n = em_sym_prod(e, x, axis, axis + 1);
  const char *work = em_scratch_named(e, "unsigned char", "work", (SymDim){n.a * 16, n.c * 16});
  sort_print_c(e->p, &(SortCall){.kind = SORT_ARGSORT_OP, .dtype = x->dtype, .x = em_ptr(e, x, 1),
                                 .outer = em_prod(e, x, 0, axis), .n = em_dim(e, x, axis),
                                 .inner = em_prod(e, x, axis + 1, r), .descending = attr_bool(e->op, "descending", 0),
                                 .vals = em_ptr(e, out, 0), .idx = em_ptr(e, ind, 0), .work = work});
  return 0;
}

const OpDef op_argsort = {.type = "argsort", .infer = infer_argsort, .emit_c = emit_argsort, .runtime_extents = 2};

/* argsort_grad: X, Indices, Out@GRAD -> X@GRAD (X's shape); axis,
 * descending (which Indices carries).  phi ArgsortGradKernel: each element
 * of Out@GRAD goes back to the position Indices names along the axis (a
 * permutation of each line; a 0-D X: a copy). */
static int emit_argsort_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0);
  if (!x) return -1;
  int r = tu_rank(e, x);
  int64_t a = attr_int(e->op, "axis", -1);
  int axis = r ? axis_norm(a, r) : a == 0 || a == -1 ? 0 : -1;
  if (axis < 0) return em_fail(e, "axis is out of range");
  return tu_index_grad(e, "X@GRAD", "Indices", "Out@GRAD", axis, 0, "dout[0]");
}

static const char *const argsort_grad_attr_ignores[] = {"descending", NULL}; /* see above */
const OpDef op_argsort_grad = {.type = "argsort_grad", .infer = grad_infer, .emit_c = emit_argsort_grad,
                               .attr_ignores = argsort_grad_attr_ignores, .runtime_extents = 2};

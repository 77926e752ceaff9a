/* kthvalue (paddle.kthvalue): X -> Out (X's dtype), Indices (int64 at run
 * time); k:INT=1, axis:INT=-1, keepdim:BOOLEAN=false.  (paddle.kthvalue
 * in static mode passes k and axis only, so keepdim is false there.)
 * Shape rule (phi KthvalueInferMeta): axis in [-rank, rank) (0 or -1 for
 * a 0-D X), k >= 1 and k <= X.dims[axis] when known; Out and Indices drop
 * the axis (keepdim: keep it as 1).  Paddle 2.6 gives Indices X's dtype in
 * the VarDesc while its kernel writes int64; this rule does the same
 * outside specialization and says int64 while specializing (as mode.c).
 * Emission (float32/64, int32/64): per line along the axis, runtime
 * rt_kthvalue_<t>: the k-th smallest (NaN largest) and its position, with
 * ties resolved as libstdc++'s partial_sort / nth_element resolve them in
 * Paddle's kernel.  A 0-D X (k must be 1) is copied with index 0.  Along
 * a dim the run gives, the line is the run's length and a k past it stops
 * the run (Paddle raises an error). */
#include "../util.h"
#include "ops.h"
#include "sort_call.h"
#include "rt_kthvalue.h"
#include "tensor_util.h"

static int infer_kthvalue(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  int a;
  if (!x || infer_axis_value_index(c, x, &a)) return -1;
  const int r = x->shape.rank;
  const int64_t k = attr_int(c->op, "k", 1);
  if (k < 1 || (r > 0 && x->shape.d[a] >= 0 && k > x->shape.d[a]) || (r == 0 && k != 1))
    return ctx_fail(c, "k = %lld is out of range for X %s", (long long)k, shape_str(&x->shape));
  return 0; /* dims the run gives pass to Out and Indices; along the axis k is checked when it runs */
}

static int emit_kthvalue(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0), *ind = tu_out(e, "Indices", 0);
  if (!x || !out || !ind) return -1;
  if (!sort_dtype_ok(x->dtype) || out->dtype != x->dtype)
    return em_fail(e, "kthvalue of %s tensors is not supported", rt_dtype_name(x->dtype));
  if (ind->dtype != RT_DT_INT64) return em_fail(e, "Indices must be int64");
  if (x == out) return em_fail(e, "Out is X (an in-place kthvalue), which is not supported");
  int r = tu_rank(e, x);
  int64_t k = attr_int(e->op, "k", 1);
  if (r == 0) {
    if (k != 1) return em_fail(e, "k = %lld for a 0-D X", (long long)k);
    SortCall call = {.kind = SORT_KTHVALUE_OP, .dtype = x->dtype, .zero_d = 1, .vals = em_ptr(e, out, 0)};
    call.x = em_ptr(e, x, 1);
    call.indices = em_ptr(e, ind, 0);
    sort_print_c(e->p, &call);
    return 0;
  }
  int axis = axis_norm(attr_int(e->op, "axis", -1), r);
  if (axis < 0) return em_fail(e, "axis is out of range");
  const int run = em_spec(e, x)->runtime_mask >> axis & 1; /* the run's length along the axis, at most n */
  int64_t n = run ? em_bound_dim(e, x, axis) : em_const_dim(e, x, axis);
  if (n < 0) return em_fail(e, "the dim along the axis depends on the batch, so k cannot be checked against it");
  if (k < 1 || k > n) return em_fail(e, "k = %lld is out of range for %lld elements along the axis", (long long)k,
                                     (long long)n);
  if (run) {
    em_fault(e, "k is larger than the run's size along the axis (Paddle raises an error)");
    pr_line(e->p, "if (%s < %lld) return 1;", em_dim(e, x, axis), (long long)k);
  }
  const char *work = em_scratch_named(e, "unsigned char", "work", (SymDim){0, n * 16});
  sort_print_c(e->p, &(SortCall){.kind = SORT_KTHVALUE_OP, .dtype = x->dtype, .x = em_ptr(e, x, 1),
                                 .outer = em_prod(e, x, 0, axis), .n = run ? em_dim(e, x, axis) : pool_printf("%lld", (long long)n),
                                 .inner = em_prod(e, x, axis + 1, r), .k = pool_printf("%lld", (long long)k),
                                 .vals = em_ptr(e, out, 0), .idx = em_ptr(e, ind, 0), .work = work});
  return 0;
}

const OpDef op_kthvalue = {.type = "kthvalue", .infer = infer_kthvalue, .emit_c = emit_kthvalue, .runtime_extents = 2};

/* kthvalue_grad: X, Indices, Out@GRAD -> X@GRAD; axis, keepdim, k (which
 * Indices carries).  phi KthvalueGradKernel: as mode_grad (mode.c). */
static const char *const kthvalue_grad_attr_ignores[] = {"k", NULL};
const OpDef op_kthvalue_grad = {.type = "kthvalue_grad", .infer = grad_infer, .emit_c = emit_value_index_grad,
                                .attr_ignores = kthvalue_grad_attr_ignores, .runtime_extents = 2};

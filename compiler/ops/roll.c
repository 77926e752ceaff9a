/* roll: circular shift of X's elements.
 *   inputs:  X, ShiftsTensor† (1-D int64, overrides `shifts` at run time)
 *   outputs: Out (X's shape and dtype)
 *   attrs:   shifts:LONGS=[], axis:LONGS=[] (empty axis = over the flattened tensor)
 * Shape rule (phi RollInferMeta): Out = X; with axis given, shifts and axis
 * must have the same length, without it shifts has one value.
 * Emission: element i of a rolled dim of size n moves to (i + shift) mod n
 * (taken into [0, n), as the kernel does); shifts along one dim add up.
 * Loops run over the dims up to the last rolled one and copy rows of the
 * dims after it.  ShiftsTensor's values, when the compiler does not know
 * them, are read when the kernel runs (Out keeps X's shape), each taken
 * into [0, n) before the shifts along one dim add up.  Dims the run gives
 * (Out takes them) are rolled by their run-time size. */
#include "../util.h"
#include "ops.h"
#include "roll_call.h"
#include "tensor_util.h"

static int infer_roll(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t *shifts, *axis;
  int ns = attr_ints(c->op, "shifts", &shifts), na = attr_ints(c->op, "axis", &axis);
  if (!ctx_in(c, "ShiftsTensor", 0) && ns != (na ? na : 1))
    return ctx_fail(c, "shifts has %d values but axis has %d", ns, na);
  for (int i = 0; i < na; i++)
    if (axis_norm(axis[i], x->shape.rank) < 0)
      return ctx_fail(c, "axis %lld is out of range for rank %d", (long long)axis[i], x->shape.rank);
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_pass_runtime_extent(c, x, "Out", 0);
  return 0;
}

static int emit_roll_any(EmitCtx *e, int grad) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, grad ? "Out@GRAD" : "X", 0), *out = tu_out(e, grad ? "X@GRAD" : "Out", 0);
  if (!x || !out) return -1;
  if (x->dtype != out->dtype) return em_fail(e, "X and Out differ in dtype");
  if (x == out) return em_fail(e, "Out is X itself (an in-place %s), which is not supported", e->op->type);
  int64_t *shifts, *axis, tshifts[RT_MAX_RANK];
  int ns = attr_ints(e->op, "shifts", &shifts), na = attr_ints(e->op, "axis", &axis);
  Var *st = ctx_in(&c, "ShiftsTensor", 0);
  const char *run = NULL; /* ShiftsTensor's data when only the run knows its values */
  if (st) {
    ns = tu_slot_values(&c, "ShiftsTensor", 0, tshifts, RT_MAX_RANK);
    shifts = tshifts;
    if (ns < 0) {
      if (st->dtype != RT_DT_INT64 && st->dtype != RT_DT_INT32)
        return em_fail(e, "ShiftsTensor is %s (int64 or int32)", rt_dtype_name(st->dtype));
      ns = (int)shape_numel(&st->shape);
      if (ns < 0 || ns > RT_MAX_RANK) return em_fail(e, "ShiftsTensor %s is not usable", shape_str(&st->shape));
      run = em_ptr(e, st, 1);
      for (int i = 0; i < ns; i++) tshifts[i] = 0;
    }
  }
  if (ns != (na ? na : 1)) return em_fail(e, "%d shifts for %d axes", ns, na);
  /* the rolled view: X's dims, or X flattened when no axis is given (or X is 0-D) */
  const int rank = tu_rank(e, x), by_axis = na && rank > 0;
  int r = by_axis ? rank : 1;
  RollCall call = {.type = em_ctype(x->dtype), .negate = grad};
  if (by_axis) {
    tu_strides(e, x, call.strides);
    for (int d = 0; d < r; d++) call.dims[d] = em_dim(e, x, d);
  } else {
    call.dims[0] = em_numel(e, x);
    call.strides[0] = "1";
  }
  int last = -1;
  for (int i = 0; i < ns; i++) {
    int d = by_axis ? axis_norm(axis[i], r) : 0;
    if (d < 0 || d >= r) return em_fail(e, "axis %lld is out of range", (long long)axis[i]);
    call.shift[d] += grad ? -shifts[i] : shifts[i];
    call.rolled[d] = 1;
    if (run) call.run[d][call.nrun[d]++] = pool_printf("(int64_t)%s[%d]", run, i);
    if (d > last) last = d;
  }
  call.loops = last + 1;
  call.row = last + 1 < r ? em_prod(e, x, last + 1, r) : "1";
  call.x = em_ptr(e, x, 1);
  call.out = em_ptr(e, out, 0);
  const unsigned runtime = em_spec(e, x)->runtime_mask;
  for (int d = 0; d <= last; d++) {
    if (!call.rolled[d]) continue;
    SymDim n = by_axis ? em_spec(e, x)->d[d] : spec_numel(em_spec(e, x));
    const int fixed = by_axis ? !(runtime >> d & 1) : !runtime; /* else d holds a bound, not the size */
    if (n.a == 0 && !call.nrun[d] && fixed) { /* a constant dim: the shift folds now */
      call.folded[d] = 1;
      call.shift[d] = n.c ? (call.shift[d] % n.c + n.c) % n.c : 0;
    }
  }
  roll_print_c(e->p, &call);
  return 0;
}

static int emit_roll(EmitCtx *e) { return emit_roll_any(e, 0); }

/* roll_grad (X, ShiftsTensor†, Out@GRAD -> X@GRAD; phi RollGradKernel):
 * Out@GRAD rolled back, by the negated shifts along the same axes. */
static int emit_roll_grad(EmitCtx *e) { return emit_roll_any(e, 1); }

const OpDef op_roll = {.type = "roll", .infer = infer_roll, .emit_c = emit_roll, .runtime_extents = 2};
const OpDef op_roll_grad = {.type = "roll_grad", .infer = grad_infer, .emit_c = emit_roll_grad, .runtime_extents = 2};

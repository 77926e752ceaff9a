/* masked_select (Paddle MaskedSelectInferMeta, phi MaskedSelectKernel):
 *   X, Mask (bool) -> Y [-1], X's dtype: X and Mask broadcast to one shape
 *   (NumPy's rule: right-aligned dims, a size-1 dim repeats; measured on
 *   2.6.2, X repeats as well as Mask), and Y holds X's elements where Mask
 *   holds, in row-major order: how many is known only at run time.  While
 *   specializing, Y is sized for every element of the broadcast shape and
 *   its dim 0 is a run-time extent (graph.h VAR_RUNTIME_EXTENT) the kernel
 *   writes.
 * masked_select_grad: X, Mask, Y@GRAD -> X@GRAD: Y@GRAD's elements in turn
 *   where Mask holds, 0 elsewhere, over the broadcast shape, summed into X's
 *   shape (in row-major order) where X was broadcast.
 * Emission (select_call.h): float32, float64, int32, int64, as Paddle's CPU
 * kernels. */
#include "../util.h"
#include "bcast_util.h"
#include "ops.h"
#include "select_call.h"
#include "tensor_util.h"

/* X's and Mask's dims the run gives: each one the other has too (one
 * extent: same_runtime_dims) or broadcasts (a fixed 1); -1 after ctx_fail. */
static int run_dims_meet(OpCtx *c, const Var *x, const Var *mask) {
  const Var *v[2] = {x, mask};
  for (int k = 0; k < 2; k++)
    for (int d = 0; d < v[k]->shape.rank; d++) {
      const Var *o = v[1 - k];
      const int od = d + o->shape.rank - v[k]->shape.rank; /* right-aligned */
      if (!(var_runtime_mask(v[k]) >> d & 1) || od < 0 || (o->shape.d[od] == 1 && !(var_runtime_mask(o) >> od & 1)))
        continue;
      if (!(var_runtime_mask(o) >> od & 1) || !same_runtime_dims(v[k], d, o, od))
        return ctx_fail(c, "dim %d of %s ('%s') is only known at run time, and %s ('%s') has %s there: masked_select "
                        "takes it where the other has the same extent or 1", d, k ? "Mask" : "X", v[k]->name,
                        k ? "X" : "Mask", o->name, var_runtime_mask(o) >> od & 1 ? "another run-time extent"
                                                                                  : "a fixed dim");
    }
  return 0;
}

static int infer_masked_select(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *mask = ctx_need(c, "Mask", 0);
  if (!x || !mask || run_dims_meet(c, x, mask)) return -1;
  Shape b, y = {1, {DIM_UNKNOWN}};
  if (shape_broadcast(c, &x->shape, &mask->shape, -1, &b)) return -1;
  if (c->g->specializing) y.d[0] = shape_numel(&b);
  ctx_set(c, "Y", 0, &y, x->dtype);
  if (c->g->specializing && y.d[0] >= 0) ctx_set_runtime_extent(c, "Y", 0, 0, "Mask (the elements it selects)");
  return 0;
}

static int dtype_ok(int dt) { return dt == RT_DT_FP32 || dt == RT_DT_FP64 || dt == RT_DT_INT32 || dt == RT_DT_INT64; }

/* The walk over the broadcast shape of X and Mask into *s: its dims (each
 * the extent of an operand that has it) and each operand's strides along
 * it, or flat when the operand has the walk's shape.  -1 after em_fail. */
static int walk(EmitCtx *e, Var *x, Var *mask, SelectCall *s) {
  Var *in[2] = {x, mask};
  SymDim dims[RT_MAX_RANK];
  if (bc_shape(e, 2, in, RT_MAX_RANK, &s->rank, dims)) return -1;
  if (s->rank == 0) { /* 0-D operands: one element */
    s->rank = 1, s->dims[0] = "1", s->x_flat = s->mask_flat = 1;
    return 0;
  }
  const char **strides[2] = {s->xstride, s->mstride};
  int *flat[2] = {&s->x_flat, &s->mask_flat};
  for (int k = 0; k < 2; k++) {
    const VarSpec *vs = em_spec(e, in[k]);
    *flat[k] = vs->rank == s->rank;
    for (int d = 0; d < s->rank; d++) {
      const int vd = d - (s->rank - vs->rank);
      const int moves = vd >= 0 && vs->d[vd].a == dims[d].a && vs->d[vd].c == dims[d].c;
      if (moves && (k == 0 || !s->dims[d])) s->dims[d] = em_dim(e, in[k], vd);
      strides[k][d] = moves ? em_prod(e, in[k], vd + 1, vs->rank) : "0";
      if (!moves && !(dims[d].a == 0 && dims[d].c == 1)) *flat[k] = 0;
    }
  }
  return 0;
}

static int emit_masked_select(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *mask = tu_in(e, "Mask", 0), *y = tu_out(e, "Y", 0);
  if (!x || !mask || !y) return -1;
  if (!dtype_ok(x->dtype) || y->dtype != x->dtype)
    return em_fail(e, "masked_select of %s is not supported (float32, float64, int32, int64)",
                   rt_dtype_name(x->dtype));
  if (mask->dtype != RT_DT_BOOL) return em_fail(e, "Mask ('%s') must be bool", mask->name);
  SelectCall s = {.kind = SELECT_MASKED, .ctype = em_ctype(x->dtype)};
  if (walk(e, x, mask, &s)) return -1;
  s.x = em_ptr(e, x, 1), s.mask = em_ptr(e, mask, 1), s.out = em_ptr(e, y, 0), s.rows = em_dim(e, y, 0);
  select_print_c(e->p, &s);
  return 0;
}

static int emit_masked_select_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *mask = tu_in(e, "Mask", 0), *dy = tu_in(e, "Y@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !mask || !dy || !dx) return -1;
  if (!dtype_ok(dx->dtype) || dy->dtype != dx->dtype)
    return em_fail(e, "masked_select_grad of %s is not supported (float32, float64, int32, int64)",
                   rt_dtype_name(dx->dtype));
  if (mask->dtype != RT_DT_BOOL) return em_fail(e, "Mask ('%s') must be bool", mask->name);
  SelectCall s = {.kind = SELECT_MASKED_GRAD, .ctype = em_ctype(dx->dtype)};
  if (walk(e, x, mask, &s)) return -1;
  s.mask = em_ptr(e, mask, 1), s.dout = em_ptr(e, dy, 1), s.dx = em_ptr(e, dx, 0), s.dx_numel = em_numel(e, dx);
  select_print_c(e->p, &s);
  return 0;
}

const OpDef op_masked_select = {.type = "masked_select", .infer = infer_masked_select, .emit_c = emit_masked_select,
                                .runtime_extents = 2};
const OpDef op_masked_select_grad = {.type = "masked_select_grad", .infer = grad_infer,
                                     .emit_c = emit_masked_select_grad, .runtime_extents = 1};

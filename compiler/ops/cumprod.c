/* cumprod: X -> Out (X's dims and dtype); dim:INT (no default).
 * Shape rule (phi UnchangedInferMetaCheckAxis): dim in [-rank, rank) (0 or
 * -1 for a 0-D X).
 * Emission: along `dim`, Out[j] = Out[j - 1] * X[j] in X's type, the first
 * element copied (phi CumprodKernel's order of products). */
#include "../util.h"
#include "axis_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_cumprod(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t dim = attr_int(c->op, "dim", -1);
  int r = x->shape.rank;
  if (r > 0 ? dim < -r || dim >= r : dim != 0 && dim != -1)
    return ctx_fail(c, "dim %lld is out of range for X %s", (long long)dim, shape_str(&x->shape));
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_pass_runtime_extent(c, x, "Out", 0); /* X's dims the run gives: each product the run's */
  return 0;
}

static int emit_cumprod(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (x->dtype != out->dtype || x->dtype == RT_DT_BOOL)
    return em_fail(e, "cumprod of %s tensors is not supported", rt_dtype_name(x->dtype));
  int r = tu_rank(e, x);
  if (r == 0) return tu_copy(e, x, out);
  int dim = axis_norm(attr_int(e->op, "dim", -1), r);
  if (dim < 0) return em_fail(e, "dim is out of range");
  AxisCall call = {.kind = AXIS_CUMPROD, .type = em_ctype(x->dtype), .outer = em_prod(e, x, 0, dim),
                   .n = em_dim(e, x, dim), .inner = em_prod(e, x, dim + 1, r), .x = em_ptr(e, x, 1),
                   .out = em_ptr(e, out, 0)};
  axis_print_c(e->p, &call);
  return 0;
}

const OpDef op_cumprod = {.type = "cumprod", .infer = infer_cumprod, .emit_c = emit_cumprod, .runtime_extents = 2};

/* cumprod_grad: X, Out, Out@GRAD -> X@GRAD (X's shape); dim.  phi
 * CumprodGradKernel's direct sum, in the element type, for each element j
 * of a line along `dim` (positions n = j .. len-1 in order):
 *   dX[j] = sum over n >= j of (j == 0 ? dOut[n] : dOut[n] * Out[j - 1])
 *           * X[j + 1] * ... * X[n]   (multiplied left to right)
 * which stays exact where X holds zeros.  A 0-D X: dX = dOut.
 * float32, float64, int32, int64 (Paddle's kernels). */
static int emit_cumprod_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_in(e, "Out", 0), *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !out || !dout || !dx) return -1;
  Var *const all[3] = {out, dout, dx};
  for (int k = 0; k < 3; k++)
    if (all[k]->dtype != x->dtype || !(x->dtype == RT_DT_FP32 || x->dtype == RT_DT_FP64 ||
                                       x->dtype == RT_DT_INT32 || x->dtype == RT_DT_INT64))
      return em_fail(e, "cumprod_grad of %s tensors is not supported", rt_dtype_name(all[k]->dtype));
  int r = tu_rank(e, x);
  int64_t d = attr_int(e->op, "dim", -1);
  int dim = r ? axis_norm(d, r) : d == 0 || d == -1 ? 0 : -1;
  if (dim < 0) return em_fail(e, "dim is out of range");
  if (r == 0) return tu_copy(e, dout, dx);
  AxisCall call = {.kind = AXIS_CUMPROD_GRAD, .type = em_ctype(x->dtype), .outer = em_prod(e, x, 0, dim),
                   .n = em_dim(e, x, dim), .inner = em_prod(e, x, dim + 1, r), .x = em_ptr(e, x, 1),
                   .out = em_ptr(e, out, 1), .dout = em_ptr(e, dout, 1), .dx = em_ptr(e, dx, 0)};
  axis_print_c(e->p, &call);
  return 0;
}

const OpDef op_cumprod_grad = {.type = "cumprod_grad", .infer = grad_infer, .emit_c = emit_cumprod_grad,
                               .runtime_extents = 2};

/* logsumexp: X -> Out; axis:INTS={0}, keepdim:BOOLEAN=false,
 * reduce_all:BOOLEAN=false.
 * Shape rule (phi LogsumexpInferMeta -> ReduceInferDim): rank(X) <= 4;
 * axes in [-rank, rank), negative += rank; every dim is reduced with
 * reduce_all, an empty axis list or one naming every dim; reduced dims
 * become 1 with keepdim and disappear without it (a scalar result is
 * shape_scalar(): [] from 2.5, [1] before).  Out has X's dtype.
 * Emission: per output element, m = the max over the reduced dims, then
 * Out = m + log(sum(exp(x - m))) -- phi's LogsumexpFunctor, which gives
 * NaN when m is infinite.  The kernel reduces everything when the axis list
 * is as long as X's rank (phi recompute_reduce_all).  Sums run in double.
 * float32 and float64, as Paddle's CPU kernel. */
#include "../util.h"
#include "lse_call.h"
#include "ops.h"
#include "tensor_util.h"

/* Which of X's `rank` dims are reduced (red[i] = 1), as the kernel decides;
 * with `for_shape`, as the shape rule does.  -1 on an axis out of range. */
static int reduced_dims(const Op *op, int rank, int for_shape, int *red) {
  static int64_t dflt[1] = {0}; /* the op maker's default */
  int64_t *axis = dflt;
  int n = attr_has(op, "axis") ? attr_ints(op, "axis", &axis) : 1;
  int all = attr_bool(op, "reduce_all", 0) || n == 0 || rank == 0 || (!for_shape && n == rank);
  for (int i = 0; i < n; i++) {
    int a = rank ? axis_norm(axis[i], rank) : (axis[i] == 0 || axis[i] == -1 ? 0 : -1);
    if (a < 0) return -1;
    if (rank) red[a] = 1;
  }
  int full = 1;
  for (int i = 0; i < rank; i++) full &= red[i];
  for (int i = 0; i < rank; i++) red[i] |= all || full;
  return 0;
}

static int infer_logsumexp(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int r = x->shape.rank, red[RT_MAX_RANK] = {0};
  if (r > 4) return ctx_fail(c, "X %s has more than 4 dims", shape_str(&x->shape));
  if (reduced_dims(c->op, r, 1, red)) return ctx_fail(c, "an axis is out of range for X %s", shape_str(&x->shape));
  int keep = attr_bool(c->op, "keepdim", 0);
  Shape s = {0, {0}};
  for (int i = 0; i < r; i++) {
    if (!red[i]) s.d[s.rank++] = x->shape.d[i];
    else if (keep) s.d[s.rank++] = 1;
  }
  if (!s.rank) s = shape_scalar(c);
  ctx_set(c, "Out", 0, &s, x->dtype);
  int to[RT_MAX_RANK];
  reduce_kept_dims_to(r, red, keep, to); /* a kept dim the run gives is Out's */
  ctx_pass_runtime_extents_to(c, x, "Out", 0, to);
  return 0;
}

/* Which of X's dims the kernel reduces (reduced_dims()) and X's dims and
 * strides, into the record; -1 on an axis out of range. */
static int lse_dims(EmitCtx *e, const Var *x, LseCall *c) {
  int r = tu_rank(e, x), red[RT_MAX_RANK] = {0};
  if (reduced_dims(e->op, r, 0, red)) return -1;
  for (int i = 0; i < r; i++) {
    if (red[i]) c->red[c->nred++] = i;
    else c->kept[c->nkept++] = i;
    c->dims[i] = em_dim(e, x, i);
  }
  tu_strides(e, x, c->strides);
  return 0;
}

static int emit_logsumexp(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64)
    return em_fail(e, "logsumexp of %s tensors is not supported", rt_dtype_name(x->dtype));
  if (out->dtype != x->dtype) return em_fail(e, "X and Out differ in dtype");
  LseCall call = {.kind = LSE_FORWARD, .type = em_ctype(x->dtype), .f32 = x->dtype == RT_DT_FP32};
  if (lse_dims(e, x, &call)) return em_fail(e, "an axis is out of range");
  call.x = em_ptr(e, x, 1);
  call.out = em_ptr(e, out, 0);
  lse_print_c(e->p, &call);
  return 0;
}

const OpDef op_logsumexp = {.type = "logsumexp", .infer = infer_logsumexp, .emit_c = emit_logsumexp,
                            .runtime_extents = 2};

/* logsumexp_grad: X, Out, Out@GRAD -> X@GRAD (X's shape); the forward's
 * attributes.  phi LogsumexpGradKernel: every element of X gets
 * dX = dOut * exp(X - Out) of the output element it was reduced into (the
 * same dims as the forward kernel reduces: reduced_dims()), in the element
 * type.  keepdim does not matter: Out and Out@GRAD hold the same elements
 * in the same order with or without the reduced dims of size 1. */
static int emit_logsumexp_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_in(e, "Out", 0), *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !out || !dout || !dx) return -1;
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || out->dtype != x->dtype || dout->dtype != x->dtype ||
      dx->dtype != x->dtype)
    return em_fail(e, "logsumexp_grad of %s tensors is not supported (float32 or float64, all alike)",
                   rt_dtype_name(x->dtype));
  if (tu_rank(e, x) > 4) return em_fail(e, "X has more than 4 dims");
  LseCall call = {.kind = LSE_GRAD, .type = em_ctype(x->dtype), .f32 = x->dtype == RT_DT_FP32};
  if (lse_dims(e, x, &call)) return em_fail(e, "an axis is out of range");
  call.x = em_ptr(e, x, 1);
  call.out = em_ptr(e, out, 1);
  call.dout = em_ptr(e, dout, 1);
  call.dx = em_ptr(e, dx, 0);
  lse_print_c(e->p, &call);
  return 0;
}

static const char *const logsumexp_grad_attr_ignores[] = {"keepdim", NULL}; /* see above */
const OpDef op_logsumexp_grad = {.type = "logsumexp_grad", .infer = grad_infer, .emit_c = emit_logsumexp_grad,
                                 .attr_ignores = logsumexp_grad_attr_ignores, .runtime_extents = 2};

/* maxout (paddle.nn.Maxout): X [N, C, H, W] -> Out with C / groups
 * channels, dtype of X; groups:INT (no default), axis:INT=1 (1, -1 or 3:
 * the channel dim, -1 = 3).
 * Shape rule (phi MaxOutInferMeta): X has rank 4 and Out is X's dims with
 * dims[axis] / groups.
 * Emission (float32/64): Paddle's MaxOutFunctor, element for element:
 * output channel c of a pixel is the maximum over channels c*groups ..
 * c*groups + groups - 1 of X, found as ele = ele > x ? ele : x from
 * (T)-FLT_MAX, so a NaN wins only as the last of its group. */
#include "../util.h"
#include "chan_call.h"
#include "ops.h"
#include "tensor_util.h"

static int maxout_axis(const Op *op, int rank) {
  int64_t axis = attr_int(op, "axis", 1);
  return axis == 1 || axis == 3 || axis == -1 ? (int)(axis < 0 ? axis + rank : axis) : -1;
}

static int infer_maxout(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  if (xs->rank != 4) return ctx_fail(c, "X %s must have rank 4", shape_str(xs));
  int axis = maxout_axis(c->op, 4);
  if (axis < 0) return ctx_fail(c, "axis %lld is not 1, -1 or 3", (long long)attr_int(c->op, "axis", 1));
  int64_t g = attr_int(c->op, "groups", 0);
  if (g <= 0) return ctx_fail(c, "groups must be positive");
  if (xs->d[axis] > 0 && xs->d[axis] % g)
    return ctx_fail(c, "dim %d of X %s is not divisible by groups %lld", axis, shape_str(xs), (long long)g);
  Shape o = *xs;
  o.d[axis] = xs->d[axis] / g;
  ctx_set(c, "Out", 0, &o, x->dtype);
  if (var_runtime_mask(x) >> axis & 1)
    return ctx_fail(c, "the channels of X ('%s', dim %d) are only known at run time (%s); maxout needs them fixed",
                    x->name, axis, x->runtime_from ? x->runtime_from : "inputs");
  ctx_pass_runtime_extent(c, x, "Out", 0); /* the other dims the run gives: Out's */
  return 0;
}

/* The elements of a channel of X (rank 4, channels at `axis`, 1 or 3). */
static const char *fea(EmitCtx *e, const Var *x, int axis) {
  return axis == 1 ? em_prod(e, x, 2, 4) : em_prod(e, x, 1, 3);
}

static int emit_maxout(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || out->dtype != x->dtype)
    return em_fail(e, "maxout of %s tensors is not supported", rt_dtype_name(x->dtype));
  if (x == out) return em_fail(e, "Out is X itself, which is not supported");
  int axis = maxout_axis(e->op, 4);
  int64_t g = attr_int(e->op, "groups", 0), oc = em_const_dim(e, out, axis);
  if (axis < 0 || g <= 0 || oc < 0) return em_fail(e, "bad axis or groups, or channels that depend on the batch");
  chan_print_c(e->p, &(ChanCall){.kind = CHAN_MAXOUT, .dtype = x->dtype, .outer = em_dim(e, x, 0),
                                 .channels = pool_printf("%lld", (long long)oc), .inner = fea(e, x, axis),
                                 .last = axis != 1, .groups = g, .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0)});
  return 0;
}

const OpDef op_maxout = {.type = "maxout", .infer = infer_maxout, .emit_c = emit_maxout, .runtime_extents = 2};

/* maxout_grad (X, Out, Out@GRAD -> X@GRAD; phi MaxOutGradKernel,
 * MaxOutGradFunctor): X@GRAD starts at zeros; each Out@GRAD element goes
 * to the first element of its group (in channel order) equal to Out, none
 * when no element equals it (a NaN). */
static int emit_maxout_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_in(e, "Out", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !out || !dout || !dx) return -1;
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || out->dtype != x->dtype || dout->dtype != x->dtype ||
      dx->dtype != x->dtype)
    return em_fail(e, "maxout_grad of %s tensors is not supported", rt_dtype_name(x->dtype));
  int axis = maxout_axis(e->op, 4);
  int64_t g = attr_int(e->op, "groups", 0), oc = axis < 0 ? -1 : em_const_dim(e, out, axis);
  if (axis < 0 || g <= 0 || oc < 0) return em_fail(e, "bad axis or groups, or channels that depend on the batch");
  chan_print_c(e->p, &(ChanCall){.kind = CHAN_MAXOUT_GRAD, .dtype = x->dtype, .outer = em_dim(e, x, 0),
                                 .channels = pool_printf("%lld", (long long)oc), .inner = fea(e, x, axis),
                                 .last = axis != 1, .groups = g, .numel = em_numel(e, dx), .x = em_ptr(e, x, 1),
                                 .out = em_ptr(e, out, 1), .dout = em_ptr(e, dout, 1), .dx = em_ptr(e, dx, 0)});
  return 0;
}

const OpDef op_maxout_grad = {.type = "maxout_grad", .infer = grad_infer, .emit_c = emit_maxout_grad,
                              .runtime_extents = 2};

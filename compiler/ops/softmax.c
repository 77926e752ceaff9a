/* softmax, log_softmax: X -> Out, same shape and dtype (Paddle
 * SoftmaxInferMeta / LogSoftmaxInferMeta).
 *   attrs: axis=-1 (negative counts from the end; very old files may lack it,
 *          meaning the last dim); softmax extra: data_format, use_cudnn,
 *          use_mkldnn, mkldnn_data_type, is_test.
 * The axis must lie in [-rank, rank) ([-1, 0] for a 0-D X).  X may have
 * dims known only at run time, the axis too (Out has them). */
#include <string.h>

#include "attention_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_softmax(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t axis = attr_int(c->op, "axis", -1);
  int rank = x->shape.rank;
  if (rank == 0 ? (axis < -1 || axis > 0) : axis_norm(axis, rank) < 0)
    return ctx_fail(c, "axis %lld is out of range for X %s", (long long)axis, shape_str(&x->shape));
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  /* run-time extents (the rows of a [R, classes] head, an image's height
   * and width, the keys of attention scores) pass on: the kernel's outer,
   * inner and axis counts are the run's */
  ctx_pass_runtime_extent(c, x, "Out", 0);
  return 0;
}

/* rt_softmax (rt_softmax_f64 for float64: Paddle's double functors) over
 * the axis of X viewed as [outer, n, inner]. */
static int emit_softmax(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *out = ctx_out(&c, "Out", 0);
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || out->dtype != x->dtype)
    return em_fail(e, "%s of %s tensors is not supported yet", e->op->type, rt_dtype_name(x->dtype));
  const char *fmt = attr_str(e->op, "data_format", "AnyLayout");
  int rank = em_spec(e, x)->rank;
  int axis = axis_norm(attr_int(e->op, "axis", -1), rank);
  if (axis < 0) return em_fail(e, "axis out of range");
  if (!strcmp(fmt, "NHWC") && rank == 4 && axis == 1) axis = 3; /* channel axis of NHWC data */
  int is_log = !strcmp(e->op->type, "log_softmax");
  attention_print_c(e->p, &(AttentionCall){.kind = is_log ? ATTN_LOG_SOFTMAX : ATTN_SOFTMAX,
                                           .f64 = x->dtype == RT_DT_FP64, .x = em_ptr(e, x, 1),
                                           .out = em_ptr(e, out, 0), .outer = em_prod(e, x, 0, axis),
                                           .n = rank ? em_dim(e, x, axis) : "1",
                                           .inner = em_prod(e, x, axis + 1, rank)});
  return 0;
}

/* softmax_grad and log_softmax_grad (inputs Out, Out@GRAD; phi
 * SoftmaxGradFunctor / LogSoftmaxGradFunctor) over X@GRAD viewed as
 * [n, c, r] around axis, each line of c elements:
 *   softmax:     dX = (dOut - sum(dOut * Out)) * Out
 *   log_softmax: dX = dOut - exp(Out) * sum(dOut)
 * the sums in double, in class order; float32 or float64. */
static int emit_softmax_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *out = ctx_in(&c, "Out", 0), *dout = ctx_in(&c, "Out@GRAD", 0), *dx = ctx_out(&c, "X@GRAD", 0);
  if (!out || !dout || !dx) return em_fail(e, "needs Out, Out@GRAD and X@GRAD");
  const int f64 = out->dtype == RT_DT_FP64;
  if ((out->dtype != RT_DT_FP32 && !f64) || dout->dtype != out->dtype || dx->dtype != out->dtype)
    return em_fail(e, "%s of %s tensors is not supported yet", e->op->type, rt_dtype_name(out->dtype));
  int rank = em_spec(e, out)->rank;
  int axis = rank ? axis_norm(attr_int(e->op, "axis", -1), rank) : 0;
  if (axis < 0) return em_fail(e, "axis out of range");
  int is_log = !strcmp(e->op->type, "log_softmax_grad");
  attention_print_c(e->p, &(AttentionCall){.kind = is_log ? ATTN_LOG_SOFTMAX_GRAD : ATTN_SOFTMAX_GRAD, .f64 = f64,
                                           .out = em_ptr(e, out, 1), .dout = em_ptr(e, dout, 1),
                                           .dx = em_ptr(e, dx, 0), .outer = em_prod(e, out, 0, axis),
                                           .n = rank ? em_dim(e, out, axis) : "1",
                                           .inner = em_prod(e, out, axis + 1, rank)});
  return 0;
}

const OpDef op_softmax = {.type = "softmax", .infer = infer_softmax, .emit_c = emit_softmax, .runtime_extents = 2};
const OpDef op_log_softmax = {.type = "log_softmax", .infer = infer_softmax, .emit_c = emit_softmax,
                              .runtime_extents = 2};
const OpDef op_softmax_grad = {.type = "softmax_grad", .infer = grad_infer, .emit_c = emit_softmax_grad,
                               .runtime_extents = 2};
const OpDef op_log_softmax_grad = {.type = "log_softmax_grad", .infer = grad_infer, .emit_c = emit_softmax_grad,
                                   .runtime_extents = 2};

/* lrn (local response normalization, the fluid op): X [N, C, H, W] -> Out,
 * MidOut (both X's dims and dtype); n:INT=5 (odd), k:FLOAT=2.0,
 * alpha:FLOAT=1e-4, beta:FLOAT=0.75, data_format:STRING="AnyLayout"
 * ("NHWC": channels last; anything else channel first); extra use_mkldnn,
 * is_test.
 *   MidOut[c] = k + alpha * sum of X[j]^2 over j in [c - (n-1)/2, c + n/2]
 *   Out[c]    = X[c] * MidOut[c]^(-beta)
 * (paddle.nn.LocalResponseNorm does not emit this op: it is built from
 * pad, pool and elementwise ops.)
 * Shape rule (fluid LRNOp::InferShape): X has rank 4, n > 0 and odd.
 * Emission (float32): Paddle's CPU LRNFunctor step for step, per pixel: the
 * window sum starts as k plus alpha times each of the first n squares
 * (channels before 0 count as 0), then slides one channel at a time by
 * adding alpha times the entering square and adding -alpha times the
 * leaving one; Out = powf(MidOut, -beta) * X. */
#include <strings.h>

#include "../util.h"
#include "chan_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_lrn(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  if (x->shape.rank != 4) return ctx_fail(c, "X %s must have rank 4", shape_str(&x->shape));
  int64_t n = attr_int(c->op, "n", 5);
  if (n <= 0 || n % 2 == 0) return ctx_fail(c, "n = %lld must be positive and odd", (long long)n);
  const int last = !strcasecmp(attr_str(c->op, "data_format", "AnyLayout"), "NHWC");
  if (var_runtime_mask(x) >> (last ? 3 : 1) & 1)
    return ctx_fail(c, "the channel dim of X ('%s') is only known at run time (from its %s); lrn takes run-time "
                    "sizes in its height and width", x->name, x->runtime_from ? x->runtime_from : "inputs");
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_set(c, "MidOut", 0, &x->shape, x->dtype);
  ctx_pass_runtime_extent(c, x, "Out", 0); /* the pixels per image are the run's (lrn_geometry) */
  ctx_pass_runtime_extent(c, x, "MidOut", 0);
  return 0;
}

/* The layout, geometry, window and constants both kernels read, into the
 * record (the buffers are the caller's, after it); -1 after em_fail. */
static int lrn_geometry(EmitCtx *e, const Var *x, ChanCall *call) {
  const char *fmt = attr_str(e->op, "data_format", "AnyLayout");
  int last = !strcasecmp(fmt, "NHWC");
  if (!last && strcasecmp(fmt, "NCHW") && strcasecmp(fmt, "AnyLayout"))
    return em_fail(e, "data_format '%s' is not supported", fmt);
  int64_t C = em_const_dim(e, x, last ? 3 : 1);
  const SymDim hw = em_sym_prod(e, x, last ? 1 : 2, last ? 3 : 4);
  if (C < 0 || hw.a) return em_fail(e, "dims after the batch must not depend on it");
  int64_t n = attr_int(e->op, "n", 5);
  if (n <= 0 || n % 2 == 0) return em_fail(e, "n must be positive and odd");
  call->dtype = RT_DT_FP32, call->last = last, call->window = n;
  call->outer = em_dim(e, x, 0);
  call->channels = pool_printf("%lld", (long long)C), call->inner = em_prod(e, x, last ? 1 : 2, last ? 3 : 4);
  call->alpha = (float)attr_float(e->op, "alpha", 1e-4), call->beta = (float)attr_float(e->op, "beta", 0.75);
  return 0;
}

static int emit_lrn(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  Var *mid = ctx_out(&c, "MidOut", 0);
  if (x->dtype != RT_DT_FP32 || out->dtype != RT_DT_FP32 || (mid && mid->dtype != RT_DT_FP32))
    return em_fail(e, "lrn of %s tensors is not supported (Paddle's CPU kernel is float32)", rt_dtype_name(x->dtype));
  if (x == out || x == mid) return em_fail(e, "Out or MidOut is X itself, which is not supported");
  ChanCall call = {.kind = CHAN_LRN, .k = (float)attr_float(e->op, "k", 2.0)};
  if (lrn_geometry(e, x, &call)) return -1;
  call.x = em_ptr(e, x, 1), call.out = em_ptr(e, out, 0), call.mid = mid ? em_ptr(e, mid, 0) : NULL;
  chan_print_c(e->p, &call);
  return 0;
}

const OpDef op_lrn = {.type = "lrn", .infer = infer_lrn, .emit_c = emit_lrn, .runtime_extents = 2};

/* lrn_grad (X, Out, MidOut, Out@GRAD -> X@GRAD; the forward's attributes;
 * fluid LRNGradFunctor, float32), per pixel and channel i, in Paddle's
 * order:
 *   dx[i] = powf(MidOut[i], -beta) * dOut[i], then for each channel ch in
 *   [i - (n-1)/2, i + n/2] inside [0, C), in order:
 *   dx[i] += ratio * dOut[ch] * Out[ch] * X[i] / MidOut[ch]
 * with ratio = -2 * alpha * beta (float). */
static int emit_lrn_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_in(e, "Out", 0), *mid = tu_in(e, "MidOut", 0);
  Var *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !out || !mid || !dout || !dx) return -1;
  if (x->dtype != RT_DT_FP32 || out->dtype != RT_DT_FP32 || mid->dtype != RT_DT_FP32 || dout->dtype != RT_DT_FP32 ||
      dx->dtype != RT_DT_FP32)
    return em_fail(e, "lrn_grad of %s tensors is not supported (Paddle's CPU kernel is float32)",
                   rt_dtype_name(x->dtype));
  ChanCall call = {.kind = CHAN_LRN_GRAD};
  if (lrn_geometry(e, x, &call)) return -1;
  call.x = em_ptr(e, x, 1), call.out = em_ptr(e, out, 1), call.mid = em_ptr(e, mid, 1);
  call.dout = em_ptr(e, dout, 1), call.dx = em_ptr(e, dx, 0);
  chan_print_c(e->p, &call);
  return 0;
}

/* lrn_grad: MidOut already holds k */
static const char *const lrn_grad_attr_ignores[] = {"k", NULL};
const OpDef op_lrn_grad = {.type = "lrn_grad", .infer = grad_infer, .emit_c = emit_lrn_grad,
                           .attr_ignores = lrn_grad_attr_ignores};

/* affine_channel: X, Scale [C], Bias [C] -> Out, X's shape and dtype;
 * Out = X * Scale + Bias per channel (C = X.dims[1], or the last dim when
 * data_layout is "NHWC").  attrs: data_layout="AnyLayout".
 * C emission (float32 and float64, the types of Paddle's CPU kernels, which
 * compute in the tensors' type): rt_channel_affine (rt_channel_affine_f64)
 * over X viewed as [outer, C, inner].  Scale or Bias whose size the run
 * gives (a bound of C) must hold C values in the run (Paddle raises): the
 * run stops otherwise. */
#include <strings.h>

#include "../util.h"
#include "chan_call.h"
#include "move_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_affine_channel(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  if (xs->rank < 2) return ctx_fail(c, "X %s must have rank >= 2", shape_str(xs));
  int nhwc = strcasecmp(attr_str(c->op, "data_layout", "AnyLayout"), "NHWC") == 0;
  int64_t ch = nhwc ? xs->d[xs->rank - 1] : xs->d[1];
  Var *scale = ctx_in(c, "Scale", 0);
  if (scale && ch > 0 && scale->shape.rank == 1 && scale->shape.d[0] > 0 && scale->shape.d[0] != ch)
    return ctx_fail(c, "Scale %s does not match the %lld channels of X %s",
                    shape_str(&scale->shape), (long long)ch, shape_str(xs));
  if (var_runtime_mask(x) >> (nhwc ? xs->rank - 1 : 1) & 1)
    return ctx_fail(c, "the channel dim of X ('%s') is only known at run time (from its %s); affine_channel takes "
                    "run-time sizes in the other dims", x->name, x->runtime_from ? x->runtime_from : "inputs");
  ctx_set(c, "Out", 0, xs, x->dtype);
  ctx_pass_runtime_extent(c, x, "Out", 0);
  return 0;
}

static int emit_affine_channel(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *sc = ctx_in(&c, "Scale", 0), *b = ctx_in(&c, "Bias", 0), *out = ctx_out(&c, "Out", 0);
  if (!x || !sc || !b || !out) return em_fail(e, "missing X, Scale, Bias or Out");
  const int dt = tu_float_dtype(e, (Var *const[]){x, sc, b, out}, 4);
  if (dt < 0) return -1;
  int rank = em_spec(e, x)->rank;
  int ci = strcasecmp(attr_str(e->op, "data_layout", "AnyLayout"), "NHWC") == 0 ? rank - 1 : 1;
  int64_t ch = em_const_dim(e, x, ci);
  SymDim ns = spec_numel(em_spec(e, sc)), nb = spec_numel(em_spec(e, b));
  if (ch < 0 || ns.a || nb.a || ns.c != ch || nb.c != ch)
    return em_fail(e, "Scale and Bias must have one value per channel (%lld)", (long long)ch);
  const char *chs = pool_printf("%lld", (long long)ch);
  tu_run_equal(e, sc, NULL, em_numel(e, sc), chs, "Scale or Bias does not hold one value per channel (Paddle raises)");
  tu_run_equal(e, b, NULL, em_numel(e, b), chs, "Scale or Bias does not hold one value per channel (Paddle raises)");
  move_print_c(e->p, &(MoveCall){.kind = MOVE_CHANNEL_AFFINE, .src = em_ptr(e, x, 1), .dst = em_ptr(e, out, 0),
                                  .scale = em_ptr(e, sc, 1), .bias = em_ptr(e, b, 1), .outer = em_prod(e, x, 0, ci),
                                  .channels = pool_printf("%lld", (long long)ch),
                                  .inner = em_prod(e, x, ci + 1, rank), .f64 = dt == RT_DT_FP64});
  return 0;
}

const OpDef op_affine_channel = {.type = "affine_channel", .infer = infer_affine_channel,
                                 .emit_c = emit_affine_channel, .runtime_extents = 2};

/* affine_channel_grad (X, Scale, Out@GRAD -> X@GRAD, Scale@GRAD,
 * Bias@GRAD, each may be absent; fluid AffineChannelGradKernel, float32
 * and float64, each loop printed once and respelled for the dtype):
 *   X@GRAD = Out@GRAD * Scale per channel;
 *   Scale@GRAD[c] = sum of X * Out@GRAD over channel c's elements,
 *   Bias@GRAD[c] = sum of Out@GRAD over them,
 * summed image by image, pixels in order, in the tensors' type (Paddle
 * sums with Eigen's column sums: results agree to rounding).  Shape rule
 * (fluid AffineChannelOpGrad): X@GRAD takes X's dims, Scale@GRAD and
 * Bias@GRAD Scale's. */
static int infer_affine_channel_grad(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *sc = ctx_need(c, "Scale", 0);
  if (!x || !sc) return -1;
  ctx_set(c, "X@GRAD", 0, &x->shape, x->dtype);
  ctx_set(c, "Scale@GRAD", 0, &sc->shape, sc->dtype);
  ctx_set(c, "Bias@GRAD", 0, &sc->shape, sc->dtype);
  return 0;
}

static int emit_affine_channel_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *sc = ctx_in(&c, "Scale", 0), *dout = ctx_in(&c, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *dsc = ctx_out(&c, "Scale@GRAD", 0), *db = ctx_out(&c, "Bias@GRAD", 0);
  if (!x || !sc || !dout) return em_fail(e, "missing X, Scale or Out@GRAD");
  const int dt = tu_float_dtype(e, (Var *const[]){x, sc, dout, dx, dsc, db}, 6);
  if (dt < 0) return -1;
  int rank = em_spec(e, x)->rank;
  int ci = strcasecmp(attr_str(e->op, "data_layout", "AnyLayout"), "NHWC") == 0 ? rank - 1 : 1;
  int64_t ch = em_const_dim(e, x, ci);
  SymDim ns = spec_numel(em_spec(e, sc));
  if (ch < 0 || ns.a || ns.c != ch) return em_fail(e, "Scale must have one value per channel (%lld)", (long long)ch);
  chan_print_c(e->p, &(ChanCall){.kind = CHAN_AFFINE_GRAD, .dtype = dt, .outer = em_prod(e, x, 0, ci),
                                 .channels = pool_printf("%lld", (long long)ch), .inner = em_prod(e, x, ci + 1, rank),
                                 .x = em_ptr(e, x, 1), .scale = em_ptr(e, sc, 1), .dout = em_ptr(e, dout, 1),
                                 .dx = dx ? em_ptr(e, dx, 0) : NULL, .dscale = dsc ? em_ptr(e, dsc, 0) : NULL,
                                 .dbias = db ? em_ptr(e, db, 0) : NULL});
  return 0;
}

const OpDef op_affine_channel_grad = {.type = "affine_channel_grad", .infer = infer_affine_channel_grad,
                                      .emit_c = emit_affine_channel_grad};

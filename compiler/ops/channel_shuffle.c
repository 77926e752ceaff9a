/* channel_shuffle (paddle.nn.ChannelShuffle) and shuffle_channel (the
 * legacy fluid op): X [N, C, H, W] -> Out, X's dims and dtype; the channels,
 * viewed as [g, C/g], are transposed to [C/g, g]: Out channel j*g + i is X
 * channel i*(C/g) + j.
 *   channel_shuffle: groups:INT (no default), data_format="NCHW" ("NHWC":
 *     channels last; the kernel compares with "NHWC").
 *   shuffle_channel: group:INT=1, always NCHW.
 * Shape rules (phi ChannelShuffleInferMeta, fluid ShuffleChannelOp): X has
 * rank 4; channel_shuffle also needs data_format NCHW or NHWC and groups > 0
 * dividing a known channel count.
 * Emission: one strided copy, Out viewed as [N, C/g, g, H*W] (NHWC [N, H*W,
 * C/g, g]).  shuffle_channel's CPU kernel copies sizeof(int) * H * W bytes
 * per channel whatever the element type, so only float32 (the one 4-byte
 * type it is registered for) matches Paddle; others are refused.
 * Height and width the run gives (an image model exported with
 * InputSpec([None, C, None, None])) pass to Out and the copy walks the
 * run's; the channels must be fixed. */
#include <string.h>

#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

static int is_shuffle_channel(const Op *op) { return !strcmp(op->type, "shuffle_channel"); }

static int64_t shuffle_groups(const Op *op) {
  return is_shuffle_channel(op) ? attr_int(op, "group", 1) : attr_int(op, "groups", 1);
}

static int shuffle_last(const Op *op) {
  return !is_shuffle_channel(op) && !strcmp(attr_str(op, "data_format", "NCHW"), "NHWC");
}

static int infer_channel_shuffle(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  if (xs->rank != 4) return ctx_fail(c, "X %s must have rank 4", shape_str(xs));
  const char *fmt = attr_str(c->op, "data_format", "NCHW");
  if (!is_shuffle_channel(c->op) && strcmp(fmt, "NCHW") && strcmp(fmt, "NHWC"))
    return ctx_fail(c, "data_format '%s' is not NCHW or NHWC", fmt);
  int64_t g = shuffle_groups(c->op), ch = xs->d[shuffle_last(c->op) ? 3 : 1];
  if (g <= 0) return ctx_fail(c, "groups must be positive");
  if (var_runtime_mask(x) >> (shuffle_last(c->op) ? 3 : 1) & 1)
    return ctx_fail(c, "the channels of X ('%s') are only known at run time; %s takes fixed channels", x->name,
                    c->op->type);
  if (ch > 0 && ch % g)
    return ctx_fail(c, "%lld channels of X are not divisible by %lld groups", (long long)ch, (long long)g);
  ctx_set(c, "Out", 0, xs, x->dtype);
  ctx_pass_runtime_extent(c, x, "Out", 0);
  return 0;
}

/* out = x with the channels, viewed as [g, C/g], transposed to [C/g, g]:
 * one strided copy (over the run's height and width when it gives them). */
static int shuffle_copy(EmitCtx *e, const Var *x, const Var *out, int64_t g, int last) {
  const int64_t C = em_const_dim(e, x, last ? 3 : 1);
  if (C < 0) return em_fail(e, "the channels must not depend on the batch");
  if (g <= 0 || C % g) return em_fail(e, "%lld groups do not divide %lld channels", (long long)g, (long long)C);
  const char *hw = last ? em_prod(e, x, 1, 3) : em_prod(e, x, 2, 4), *c = pool_printf("%lld", (long long)C);
  const char *cg = pool_printf("%lld", (long long)(C / g)), *gs = pool_printf("%lld", (long long)g);
  const char *cs = last ? "1" : hw, *ps = last ? c : "1"; /* X strides of a channel and a pixel */
  const char *dims[4] = {em_dim(e, x, 0), last ? hw : cg, last ? cg : gs, last ? gs : hw};
  const char *st[4] = {tu_mul(c, hw), last ? ps : cs, last ? cs : tu_mul(cg, cs), last ? tu_mul(cg, cs) : ps};
  return tu_strided_copy(e, x, "0", out, 4, dims, st);
}

static int emit_channel_shuffle(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (x->dtype != out->dtype) return em_fail(e, "X and Out differ in dtype");
  if (x == out) return em_fail(e, "Out is X itself, which is not supported");
  if (is_shuffle_channel(e->op) && x->dtype != RT_DT_FP32)
    return em_fail(e, "shuffle_channel of %s tensors is not supported (Paddle's kernel copies 4-byte elements)",
                   rt_dtype_name(x->dtype));
  return shuffle_copy(e, x, out, shuffle_groups(e->op), shuffle_last(e->op));
}

const OpDef op_channel_shuffle = {.type = "channel_shuffle", .infer = infer_channel_shuffle,
                                  .emit_c = emit_channel_shuffle, .runtime_extents = 2};
const OpDef op_shuffle_channel = {.type = "shuffle_channel", .infer = infer_channel_shuffle,
                                  .emit_c = emit_channel_shuffle, .runtime_extents = 2};

/* channel_shuffle_grad, shuffle_channel_grad (Out@GRAD -> X@GRAD, the
 * forward's attributes; phi ChannelShuffleGradKernel, fluid
 * ShuffleChannelGradOpKernel): channel_shuffle_grad is the inverse
 * permutation, a shuffle of Out@GRAD with C/g groups.  Paddle 2.6's
 * shuffle_channel_grad shuffles Out@GRAD with the forward's g groups again
 * (the inverse only where g = C/g), which paddlec reproduces; float32 only,
 * as the forward.  X@GRAD has Out@GRAD's dims. */
static int infer_channel_shuffle_grad(OpCtx *c) {
  Var *dout = ctx_need(c, "Out@GRAD", 0);
  if (!dout) return -1;
  if (dout->shape.rank != 4) return ctx_fail(c, "Out@GRAD %s must have rank 4", shape_str(&dout->shape));
  ctx_set(c, "X@GRAD", 0, &dout->shape, dout->dtype);
  ctx_pass_runtime_extent(c, dout, "X@GRAD", 0); /* the run's height and width, the forward's */
  return 0;
}

static int emit_channel_shuffle_grad(EmitCtx *e) {
  Var *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!dout || !dx) return -1;
  if (dout->dtype != dx->dtype) return em_fail(e, "Out@GRAD and X@GRAD differ in dtype");
  if (dout == dx) return em_fail(e, "X@GRAD is Out@GRAD itself, which is not supported");
  int legacy = !strcmp(e->op->type, "shuffle_channel_grad");
  int last = !legacy && !strcmp(attr_str(e->op, "data_format", "NCHW"), "NHWC");
  int64_t g = legacy ? attr_int(e->op, "group", 1) : attr_int(e->op, "groups", 1);
  if (legacy && dx->dtype != RT_DT_FP32)
    return em_fail(e, "shuffle_channel_grad of %s tensors is not supported (Paddle's kernel copies 4-byte elements)",
                   rt_dtype_name(dx->dtype));
  int64_t C = em_const_dim(e, dout, last ? 3 : 1);
  if (C < 0 || g <= 0 || C % g) return em_fail(e, "%lld groups do not divide the channels", (long long)g);
  return shuffle_copy(e, dout, dx, legacy ? g : C / g, last);
}

const OpDef op_channel_shuffle_grad = {.type = "channel_shuffle_grad", .infer = infer_channel_shuffle_grad,
                                       .emit_c = emit_channel_shuffle_grad, .runtime_extents = 2};
const OpDef op_shuffle_channel_grad = {.type = "shuffle_channel_grad", .infer = infer_channel_shuffle_grad,
                                       .emit_c = emit_channel_shuffle_grad};

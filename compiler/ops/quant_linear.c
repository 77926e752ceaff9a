/* quantize_linear and dequantize_linear (the QAT / PTQ programs of
 * paddle.static.quantization's V2 passes and paddleslim).  Both:
 *   X, Scale, ZeroPoint, InAccum? (extra), InState? (extra) -> Y [X's dims],
 *   OutState? [1], OutAccum? [1], OutScale? ([1] when quant_axis < 0, else
 *   [X.dims[quant_axis]]), all extra;  attrs: quant_axis=0 (-1, 0 or 1),
 *   bit_length=8 ([1, 16]), round_type=0 (0 or 1), is_test=true,
 *   only_observer=false, moving_rate=0.9 (extra).
 * Y of quantize_linear has X's dtype (the values stay floats); Y of
 * dequantize_linear the scale's (X may hold int8 weights); states and
 * scales keep the dtype of their inputs.
 *
 * What Paddle 2.6 computes (CPU kernels; bc = 2^(bit_length-1) - 1):
 *   quantize_linear (fluid quantize_linear_op.h, float32 only):
 *     only_observer: Y = X (the scale below is still computed in training).
 *     is_test: the scale is Scale: Scale[0] for quant_axis -1
 *       (ClipAndFakeQuantFunctor), Scale[c] of X's channel c along
 *       quant_axis otherwise (ChannelClipAndFakeQuantFunctor); OutScale,
 *       OutState and OutAccum are left unwritten.
 *     training (is_test false), quant_axis -1: the moving average of
 *       fake_quant.c (FindMovingAverageAbsMaxFunctor with moving_rate, from
 *       InState and InAccum) into OutState, OutAccum and OutScale, which is
 *       the scale; quant_axis 0 or 1: OutScale[c] = max |X| of channel c
 *       (FindChannelAbsMaxFunctor), the scales.  Scale is not read.
 *     Then Y = q, each element as quant_call.h's quant_round_c says.
 *   dequantize_linear (phi quantize_linear_kernel.cc; X int8, float32 or
 *   float64, Scale float32 or float64 (float16: refused), Y of Scale's
 *   dtype D): X is cast to D, then Y = x * Scale[0] / bc (quant_axis -1)
 *   or x * Scale[c] / bc; only_observer: Y = X as it is (refused where X's
 *   dtype is not D: Paddle's Y then holds X's type, not the one its var
 *   declares).  round_type, is_test and moving_rate are never read, nor
 *   InAccum and InState; OutState, OutAccum and OutScale stay unwritten.
 * Neither kernel reads ZeroPoint (symmetric quantization), nor the dequantize
 * kernel InAccum and InState: declared without effect.  A per-channel Scale must be a [C] vector (Paddle reads Scale[c]
 * for each channel c). */
#include <string.h>

#include "../emit_ew.h"
#include "../util.h"
#include "ops.h"
#include "quant_call.h"

/* quantize_linear (dequant = 0) and dequantize_linear (dequant = 1). */
static int infer_linear_quant(OpCtx *c, int dequant) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int sdt = quant_slot_dtype(c, "Scale", x->dtype);
  Shape one = {1, {1}}, s = one;
  if (ctx_out(c, "OutScale", 0) && quant_channel_shape(c, &x->shape, attr_int(c->op, "quant_axis", 0), &s))
    return -1;
  ctx_set(c, "Y", 0, &x->shape, dequant ? sdt : x->dtype);
  ctx_set(c, "OutScale", 0, &s, sdt);
  ctx_set(c, "OutState", 0, &one, quant_slot_dtype(c, "InState", sdt));
  ctx_set(c, "OutAccum", 0, &one, quant_slot_dtype(c, "InAccum", sdt));
  return 0;
}

static int infer_quantize_linear(OpCtx *c) { return infer_linear_quant(c, 0); }
static int infer_dequantize_linear(OpCtx *c) { return infer_linear_quant(c, 1); }

/* The var bound to `slot` (an output when out), NULL when absent; *bad is
 * set (after em_fail) when it is there and not float32, and the first such
 * var alone is named. */
static Var *f32_var(EmitCtx *e, OpCtx *c, const char *slot, int out, int *bad) {
  Var *v = out ? ctx_out(c, slot, 0) : ctx_in(c, slot, 0);
  if (v && v->dtype != RT_DT_FP32 && !*bad)
    *bad = em_fail(e, "%s ('%s') is %s; Paddle's quantize_linear kernel takes float32", slot, v->name,
                   rt_dtype_name(v->dtype));
  return v;
}

/* quant_axis, which must be -1, 0 or 1 (the op maker's checker). */
static int linear_axis(EmitCtx *e, int64_t *axis) {
  *axis = attr_int(e->op, "quant_axis", 0);
  if (*axis != -1 && *axis != 0 && *axis != 1) return em_fail(e, "quant_axis %lld is not -1, 0 or 1", (long long)*axis);
  return 0;
}

static int emit_quantize_linear(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  int bad = 0;
  Var *x = f32_var(e, &c, "X", 0, &bad), *y = f32_var(e, &c, "Y", 1, &bad), *scale = f32_var(e, &c, "Scale", 0, &bad);
  Var *in_state = f32_var(e, &c, "InState", 0, &bad), *in_accum = f32_var(e, &c, "InAccum", 0, &bad);
  Var *out_scale = f32_var(e, &c, "OutScale", 1, &bad), *out_state = f32_var(e, &c, "OutState", 1, &bad);
  Var *out_accum = f32_var(e, &c, "OutAccum", 1, &bad);
  if (bad) return -1;
  if (!x || !y) return em_fail(e, "X and Y are required");
  int64_t axis;
  if (linear_axis(e, &axis)) return -1;
  const int is_test = attr_bool(e->op, "is_test", 1), observe = attr_bool(e->op, "only_observer", 0);
  const int64_t bits = attr_int(e->op, "bit_length", 8), round_type = attr_int(e->op, "round_type", 0);
  if (quant_check_attrs(e, bits, round_type)) return -1;
  const Var *channel_scale = NULL; /* the per-channel scales once the block below has run */
  const char *tensor_scale = NULL; /* the per-tensor scale's buffer, alike */
  if (is_test) {
    attr_superseded(e->op, "moving_rate"); /* only training moves the scale */
    if (!scale) return em_fail(e, "input Scale is required");
    if (axis < 0)
      tensor_scale = em_ptr(e, scale, 1);
    else
      channel_scale = scale;
  } else if (axis < 0) {
    if (!in_state || !in_accum || !out_state || !out_accum || !out_scale)
      return em_fail(e, "training (is_test false) with quant_axis -1 needs InState, InAccum, OutState, OutAccum "
                        "and OutScale");
    const char *rate = em_float((float)attr_float(e->op, "moving_rate", 0.9));
    quant_print_c(e->p, &(QuantCall){.kind = QUANT_MOVING_AVERAGE, .rate = rate, .x = em_ptr(e, x, 1),
                                     .n = em_numel(e, x), .in_state = em_ptr(e, in_state, 1),
                                     .in_accum = em_ptr(e, in_accum, 1), .out_state = em_ptr(e, out_state, 0),
                                     .out_accum = em_ptr(e, out_accum, 0), .out_scale = em_ptr(e, out_scale, 0)});
    tensor_scale = em_ptr(e, out_scale, 1);
  } else {
    attr_superseded(e->op, "moving_rate"); /* the per-channel scales are this run's max |X| */
    if (!out_scale) return em_fail(e, "training (is_test false) with quant_axis %lld needs OutScale", (long long)axis);
    quant_channel_abs_max(e, x, (int)axis, out_scale);
    channel_scale = out_scale;
  }
  if (observe) {
    /* Y = X: the scales only watch (bit_length and round_type unread) */
    attr_superseded(e->op, "bit_length"), attr_superseded(e->op, "round_type");
    return ew_unary(e, x, y, NULL, "v");
  }
  if (tensor_scale) return quant_tensor_ew(e, x, tensor_scale, bits, (int)round_type, 0, y);
  if (quant_check_channel_scale(e, is_test ? "Scale" : "OutScale", channel_scale, x, (int)axis)) return -1;
  return quant_channel_ew(e, x, channel_scale, (int)axis, bits, (int)round_type, 0, y);
}

static int emit_dequantize_linear(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *y = ctx_out(&c, "Y", 0), *scale = ctx_in(&c, "Scale", 0);
  if (!x || !y || !scale) return em_fail(e, "X, Scale and Y are required");
  if (x->dtype != RT_DT_INT8 && x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64)
    return em_fail(e, "X ('%s') is %s; Paddle's dequantize_linear kernel takes int8, float32 or float64", x->name,
                   rt_dtype_name(x->dtype));
  if ((scale->dtype != RT_DT_FP32 && scale->dtype != RT_DT_FP64) || y->dtype != scale->dtype)
    return em_fail(e, "Scale ('%s') is %s and Y %s; paddlec takes a float32 or float64 Scale and a Y of its dtype",
                   scale->name, rt_dtype_name(scale->dtype), rt_dtype_name(y->dtype));
  int64_t axis;
  if (linear_axis(e, &axis)) return -1;
  const int64_t bits = attr_int(e->op, "bit_length", 8);
  if (quant_check_attrs(e, bits, 0)) return -1;
  if (attr_bool(e->op, "only_observer", 0)) {
    if (x->dtype != y->dtype)
      return em_fail(e, "only_observer copies X ('%s', %s) as it is into Y, declared %s", x->name,
                     rt_dtype_name(x->dtype), rt_dtype_name(y->dtype));
    return ew_unary(e, x, y, NULL, "v");
  }
  const int f64 = y->dtype == RT_DT_FP64;
  const char *d = f64 ? "double" : "float", *range_lit = f64 ? pool_printf("%d.0", (1 << (bits - 1)) - 1)
                                                             : em_float((double)((1 << (bits - 1)) - 1));
  const char *result = x->dtype == y->dtype ? "v * s / r" : pool_printf("(%s)v * s / r", d);
  if (axis < 0) {
    const char *setup = pool_printf("const %s s = %s[0], r = %s;", d, em_ptr(e, scale, 1), range_lit);
    return ew_unary(e, x, y, setup, result);
  }
  if (quant_check_channel_scale(e, "Scale", scale, x, (int)axis)) return -1;
  const EwIn in[2] = {{x, -1, "x", "v"}, {scale, axis, "scale", "s"}};
  return ew_nary(e, y, 2, in, pool_printf("const %s r = %s;", d, range_lit), NULL, result);
}

/* ZeroPoint: neither CPU kernel reads it (symmetric quantization); nor
 * does the dequantize kernel read InAccum and InState. */
static const char *const quantize_ignores[] = {"ZeroPoint", NULL};
static const char *const dequantize_ignores[] = {"ZeroPoint", "InAccum", "InState", NULL};
/* the dequantize kernel reads no rounding, no mode and no moving rate */
static const char *const dequantize_attr_ignores[] = {"round_type", "is_test", "moving_rate", NULL};

const OpDef op_quantize_linear = {.type = "quantize_linear", .infer = infer_quantize_linear,
                                  .emit_c = emit_quantize_linear, .ignores = quantize_ignores};
const OpDef op_dequantize_linear = {.type = "dequantize_linear", .infer = infer_dequantize_linear,
                                    .emit_c = emit_dequantize_linear, .ignores = dequantize_ignores,
                                    .attr_ignores = dequantize_attr_ignores};

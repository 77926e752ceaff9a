/* Fake quantization ops (QAT and PTQ programs).  Every one keeps X's shape:
 *   fake_quantize_abs_max, fake_quantize_dequantize_abs_max:
 *     X -> Out, OutScale [1];  attrs: bit_length=8.
 *   fake_quantize_moving_average_abs_max,
 *   fake_quantize_dequantize_moving_average_abs_max:
 *     X, InScale, InAccum?, InState? -> Out, OutScale [1], OutState? [1],
 *     OutAccum? [1];  attrs: moving_rate=0.9, bit_length=8, is_test=false.
 *   fake_quantize_range_abs_max: X, InScale, Iter? -> Out, OutScale [1],
 *     OutScales? [window_size];  attrs: window_size=10000, bit_length=8, is_test.
 *   fake_channel_wise_quantize_abs_max,
 *   fake_channel_wise_quantize_dequantize_abs_max:
 *     X -> Out, OutScale [X.dims[quant_axis]];  attrs: quant_axis=0,
 *     bit_length=8, is_test=false (quantize only).
 *   fake_dequantize_max_abs: X, Scale -> Out;  attrs: max_range.
 *   fake_channel_wise_dequantize_max_abs: X, Scales* -> Out;  attrs:
 *     quant_bits=[8], quant_axis=0, x_num_col_dims=1.
 *   quantize_linear, dequantize_linear: X, Scale, ZeroPoint, InAccum?,
 *     InState? -> Y, OutState? [1], OutAccum? [1], OutScale? ([1] when
 *     quant_axis < 0, else [X.dims[quant_axis]]);  attrs: quant_axis=0,
 *     bit_length=8, round_type=0, is_test=true, only_observer=false.
 * Paddle's InferShape sets only dims here; dtypes are those Python gives the
 * vars: Out of a quantize op has X's dtype (the values stay floats), the
 * output of a dequantize op has the scale's dtype (X may hold int8 weights),
 * scales and states keep the dtype of their inputs. */
#include <string.h>

#include "../emit_ew.h"
#include "../util.h"
#include "ops.h"

/* dtype of the first var of `slot`, or `dflt` when absent. */
static int fq_dtype(const OpCtx *c, const char *slot, int dflt) {
  Var *v = ctx_in(c, slot, 0);
  return v ? v->dtype : dflt;
}

/* Shape of a per-channel scale: [X.dims[axis]], or [1] for axis < 0. */
static int fq_channel_shape(OpCtx *c, const Shape *xs, int64_t axis, Shape *out) {
  if (axis < 0) {
    *out = (Shape){1, {1}};
    return 0;
  }
  if (axis >= xs->rank)
    return ctx_fail(c, "quant_axis %lld is out of range for X %s", (long long)axis, shape_str(xs));
  *out = (Shape){1, {xs->d[axis]}};
  return 0;
}

static int infer_fake_quant(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int sdt = fq_dtype(c, "InScale", x->dtype);
  Shape one = {1, {1}};
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_set(c, "OutScale", 0, &one, sdt);
  ctx_set(c, "OutState", 0, &one, fq_dtype(c, "InState", sdt));
  ctx_set(c, "OutAccum", 0, &one, fq_dtype(c, "InAccum", sdt));
  if (ctx_out(c, "OutScales", 0)) {
    Shape win = {1, {attr_int(c->op, "window_size", 10000)}};
    ctx_set(c, "OutScales", 0, &win, sdt);
  }
  return 0;
}

static int infer_fake_channel_quant(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  Shape s;
  if (fq_channel_shape(c, &x->shape, attr_int(c->op, "quant_axis", 0), &s)) return -1;
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_set(c, "OutScale", 0, &s, x->dtype);
  return 0;
}

static int infer_fake_dequant(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int dt = fq_dtype(c, "Scale", x->dtype);
  if (ctx_nin(c, "Scales")) dt = fq_dtype(c, "Scales", dt);
  ctx_set(c, "Out", 0, &x->shape, dt);
  return 0;
}

/* quantize_linear (dequant = 0) and dequantize_linear (dequant = 1). */
static int infer_linear_quant(OpCtx *c, int dequant) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int sdt = fq_dtype(c, "Scale", x->dtype);
  Shape one = {1, {1}}, s = one;
  if (ctx_out(c, "OutScale", 0) &&
      fq_channel_shape(c, &x->shape, attr_int(c->op, "quant_axis", 0), &s))
    return -1;
  ctx_set(c, "Y", 0, &x->shape, dequant ? sdt : x->dtype);
  ctx_set(c, "OutScale", 0, &s, sdt);
  ctx_set(c, "OutState", 0, &one, fq_dtype(c, "InState", sdt));
  ctx_set(c, "OutAccum", 0, &one, fq_dtype(c, "InAccum", sdt));
  return 0;
}

static int infer_quantize_linear(OpCtx *c) { return infer_linear_quant(c, 0); }
static int infer_dequantize_linear(OpCtx *c) { return infer_linear_quant(c, 1); }

/* ---- C emission (inference: is_test, the scale comes from InScale or from
 * max|X| for the abs_max ops) ----
 * With bin_cnt = 2^(bit_length-1) - 1 and k = bin_cnt * (1/s), Paddle's CPU
 * functors compute, in this order of float operations:
 *   round_type 1 (the default of these ops): q = round(k * clip(x, -s, s)),
 *     half away from zero;
 *   round_type 0: q = clamp(rint(k * x), -bin_cnt - 1, bin_cnt), ties to even;
 *   quantize ops output q; quantize-dequantize ops output q * s / bin_cnt;
 *   fake_dequantize_max_abs outputs x * scale / max_range. */
static const char *quant_expr(int round_type, int dequant) {
  const char *q = round_type == 0 ? "fminf(fmaxf(rintf(k * v), -bc - 1.0f), bc)"
                                  : "roundf(k * fminf(fmaxf(v, -s), s))";
  return dequant ? pool_printf("%s * s / bc", q) : q;
}

static int emit_fake_quant(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *out = ctx_out(&c, "Out", 0), *in_scale = ctx_in(&c, "InScale", 0);
  const char *type = e->op->type;
  if (x->dtype != RT_DT_FP32) return em_fail(e, "%s tensors are not supported", rt_dtype_name(x->dtype));
  int moving = strstr(type, "moving_average") != NULL || !strcmp(type, "fake_quantize_range_abs_max");
  if (moving && !attr_bool(e->op, "is_test", 0))
    return em_fail(e, "only inference (is_test) is supported: training updates the scale");
  if (moving && !in_scale) return em_fail(e, "InScale is missing");
  int64_t bits = attr_int(e->op, "bit_length", 8);
  if (bits < 2 || bits > 16) return em_fail(e, "bit_length %lld is not supported", (long long)bits);
  const char *scale = moving ? pool_printf("%s[0]", em_ptr(e, in_scale, 1))
                             : pool_printf("rt_abs_max(%s, %s)", em_ptr(e, x, 1), em_numel(e, x));
  /* Paddle's inverse(): 1 / (s + 1e-6) for a zero scale */
  const char *setup = pool_printf("const float s = %s, bc = %s, k = bc * (s <= 1e-30f ? 1.0f / (s + 1e-6f) : 1.0f / s);",
                                  scale, em_float((double)((1 << (bits - 1)) - 1)));
  int dequant = strstr(type, "quantize_dequantize") != NULL;
  if (ew_unary(e, x, out, setup, quant_expr((int)attr_int(e->op, "round_type", 1), dequant))) return -1;
  Var *out_scale = ctx_out(&c, "OutScale", 0);
  if (out_scale && out_scale != in_scale) pr_line(e->p, "%s[0] = s;", em_ptr(e, out_scale, 0));
  return 0;
}

static int emit_fake_dequantize_max_abs(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *out = ctx_out(&c, "Out", 0), *scale = ctx_in(&c, "Scale", 0);
  if (x->dtype != RT_DT_FP32 || !scale) return em_fail(e, "float32 X and a Scale are required");
  const char *setup = pool_printf("const float s = %s[0], r = %s;", em_ptr(e, scale, 1),
                                  em_float(attr_float(e->op, "max_range", 0)));
  return ew_unary(e, x, out, setup, "v * s / r");
}

#define OP_FAKE_QUANT(name) \
  const OpDef op_##name = {.type = #name, .infer = infer_fake_quant, .emit_c = emit_fake_quant};
OP_FAKE_QUANT(fake_quantize_abs_max)
OP_FAKE_QUANT(fake_quantize_dequantize_abs_max)
OP_FAKE_QUANT(fake_quantize_dequantize_moving_average_abs_max)
OP_FAKE_QUANT(fake_quantize_moving_average_abs_max)
OP_FAKE_QUANT(fake_quantize_range_abs_max)

const OpDef op_fake_channel_wise_quantize_abs_max = {.type = "fake_channel_wise_quantize_abs_max",
                                                     .infer = infer_fake_channel_quant};
const OpDef op_fake_channel_wise_quantize_dequantize_abs_max = {
    .type = "fake_channel_wise_quantize_dequantize_abs_max", .infer = infer_fake_channel_quant};
const OpDef op_fake_dequantize_max_abs = {.type = "fake_dequantize_max_abs", .emit_c = emit_fake_dequantize_max_abs,
                                          .infer = infer_fake_dequant};
const OpDef op_fake_channel_wise_dequantize_max_abs = {
    .type = "fake_channel_wise_dequantize_max_abs", .infer = infer_fake_dequant};
const OpDef op_quantize_linear = {.type = "quantize_linear", .infer = infer_quantize_linear};
const OpDef op_dequantize_linear = {.type = "dequantize_linear", .infer = infer_dequantize_linear};

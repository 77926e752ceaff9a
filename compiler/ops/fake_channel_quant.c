/* The channel-wise fake quantization ops (QAT programs: a weight quantized
 * with one scale per output channel).  Every one keeps X's shape:
 *   fake_channel_wise_quantize_abs_max: X -> Out, OutScale [C];  attrs:
 *     quant_axis=0, bit_length=8, round_type=1 (extra), is_test=false.
 *   fake_channel_wise_quantize_dequantize_abs_max: X -> Out, OutScale [C];
 *     attrs: quant_axis=0, bit_length=8, round_type=1 (extra).
 *   fake_channel_wise_dequantize_max_abs: X, Scales (one or two) -> Out;
 *     attrs: quant_bits=[8], quant_axis=0, x_num_col_dims=1.
 * C = X.dims[quant_axis]; quant_axis is 0 or 1 (the op makers' checker).
 * round_type is extra in Paddle 2.6 and no longer checked: with a value
 * other than 0 and 1 its kernels clip without rounding.  paddlec refuses
 * those, as bit_length outside [1, 16].
 *
 * What Paddle 2.6 computes (fluid fake_quantize_op.cc / .h,
 * fake_dequantize_op.cc / .h, CPU kernels):
 *   the quantize ops (float32 only, as registered): OutScale[c] = max |X|
 *     over channel c (FindChannelAbsMaxFunctor), then each element with its
 *     channel's scale s as quant_call.h's quant_round_c says
 *     (ChannelClipAndFakeQuantFunctor): Out = q; the quantize-dequantize op
 *     (ChannelClipFakeQuantDequantFunctor) Out = q * s / bc.
 *     fake_channel_wise_quantize_abs_max with is_test does not compute
 *     OutScale: it quantizes with the values OutScale holds from before
 *     (the scales a training run left in Paddle's scope).  paddlec keeps no
 *     output from run to run: refused.
 *   fake_channel_wise_dequantize_max_abs (float32 and float64, Scales of
 *     X's dtype), with r(b) = 2^(b-1) - 1:
 *     one scale: Out = X * Scales[0][c] / r(quant_bits[0]), c along
 *       quant_axis (x_num_col_dims unread);
 *     two scales: Out = X * Scales[0][c] * Scales[1][0] /
 *       (r(quant_bits[0]) * r(quant_bits[1])), c along dim x_num_col_dims
 *       (dim 1 for 1; quant_axis unread); Scales[1] holds one value.
 *     Other counts of Scales Paddle leaves Out unwritten for: refused.
 *     quant_bits outside [1, 16] are refused (no checker; a product past
 *     int, or a range of 0, in Paddle).
 * Scales must be [C] vectors (Paddle reads one per channel, checking only
 * the count of elements of the dequantize op's). */
#include <string.h>

#include "../emit_ew.h"
#include "../util.h"
#include "ops.h"
#include "quant_call.h"

int quant_channel_shape(OpCtx *c, const Shape *xs, int64_t axis, Shape *out) {
  if (axis < 0) {
    *out = (Shape){1, {1}};
    return 0;
  }
  if (axis >= xs->rank)
    return ctx_fail(c, "quant_axis %lld is out of range for X %s", (long long)axis, shape_str(xs));
  *out = (Shape){1, {xs->d[axis]}};
  return 0;
}

static int infer_channel_quant(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  Shape s;
  if (quant_channel_shape(c, &x->shape, attr_int(c->op, "quant_axis", 0), &s)) return -1;
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_set(c, "OutScale", 0, &s, x->dtype);
  return 0;
}

static int infer_channel_dequant(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, quant_slot_dtype(c, "Scales", x->dtype));
  return 0;
}

int quant_check_channel_scale(EmitCtx *e, const char *slot, const Var *v, const Var *x, int axis) {
  const VarSpec *vs = em_spec(e, v), *xs = em_spec(e, x);
  if (axis >= xs->rank) return em_fail(e, "quant_axis %d is out of range for X %s", axis, shape_str(&x->shape));
  if (vs->rank != 1 || vs->d[0].a != xs->d[axis].a || vs->d[0].c != xs->d[axis].c)
    return em_fail(e, "%s ('%s') has shape %s; Paddle reads one scale per channel along X's dim %d: a [%s] vector",
                   slot, v->name, shape_str(&v->shape), axis, em_dim(e, x, axis));
  return 0;
}

void quant_channel_abs_max(EmitCtx *e, const Var *x, int axis, const Var *out_scale) {
  quant_print_c(e->p, &(QuantCall){.kind = QUANT_CHANNEL_ABS_MAX, .x = em_ptr(e, x, 1),
                                   .outer = axis ? em_dim(e, x, 0) : "1", .channels = em_dim(e, x, axis),
                                   .inner = em_prod(e, x, axis + 1, em_spec(e, x)->rank),
                                   .out_scale = em_ptr(e, out_scale, 0)});
}

int quant_channel_ew(EmitCtx *e, const Var *x, const Var *scale, int axis, int64_t bits, int round_type,
                     int dequant, const Var *out) {
  const char *setup = pool_printf("const float bc = %s;", em_float((double)((1 << (bits - 1)) - 1)));
  const char *body = pool_printf("const float k = " QUANT_K_C ";\n%s", quant_round_c(round_type));
  const EwIn in[2] = {{x, -1, "x", "v"}, {scale, axis, "scale", "s"}};
  return ew_nary(e, out, 2, in, setup, body, dequant ? "q * s / bc" : "q");
}

static int emit_channel_quant(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  const int dequant = strstr(e->op->type, "quantize_dequantize") != NULL;
  Var *x = ctx_in(&c, "X", 0), *out = ctx_out(&c, "Out", 0), *scale = ctx_out(&c, "OutScale", 0);
  if (!x || !out || !scale) return em_fail(e, "X, Out and OutScale are required");
  if (x->dtype != RT_DT_FP32 || out->dtype != RT_DT_FP32 || scale->dtype != RT_DT_FP32)
    return em_fail(e, "X is %s, Out %s, OutScale %s; Paddle's kernel takes float32", rt_dtype_name(x->dtype),
                   rt_dtype_name(out->dtype), rt_dtype_name(scale->dtype));
  const int64_t axis = attr_int(e->op, "quant_axis", 0), bits = attr_int(e->op, "bit_length", 8);
  const int64_t round_type = attr_int(e->op, "round_type", 1);
  if (axis != 0 && axis != 1) return em_fail(e, "quant_axis %lld is not 0 or 1", (long long)axis);
  if (quant_check_attrs(e, bits, round_type)) return -1;
  if (!dequant && attr_bool(e->op, "is_test", 0))
    return em_fail(e, "is_test quantizes with the scales OutScale holds from an earlier run, which paddlec does "
                      "not keep");
  quant_channel_abs_max(e, x, (int)axis, scale);
  return quant_channel_ew(e, x, scale, (int)axis, bits, (int)round_type, dequant, out);
}

static int emit_channel_dequant(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *out = ctx_out(&c, "Out", 0);
  const int n = ctx_nin(&c, "Scales");
  if (!x || !out) return em_fail(e, "X and Out are required");
  if (n != 1 && n != 2) return em_fail(e, "Scales holds %d tensors; Paddle's kernel computes Out for 1 or 2", n);
  Var *s1 = ctx_in(&c, "Scales", 0), *s2 = n == 2 ? ctx_in(&c, "Scales", 1) : NULL;
  if (!s1 || (n == 2 && !s2)) return em_fail(e, "Scales has an empty entry");
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || s1->dtype != x->dtype || out->dtype != x->dtype ||
      (s2 && s2->dtype != x->dtype))
    return em_fail(e, "X is %s, Scales[0] %s%s%s, Out %s; Paddle's kernel takes float32 or float64, all alike",
                   rt_dtype_name(x->dtype), rt_dtype_name(s1->dtype), s2 ? ", Scales[1] " : "",
                   s2 ? rt_dtype_name(s2->dtype) : "", rt_dtype_name(out->dtype));
  static int64_t eight[1] = {8}; /* Paddle's default */
  int64_t *bits;
  int nbits = attr_ints(e->op, "quant_bits", &bits);
  if (!attr_has(e->op, "quant_bits")) bits = eight, nbits = 1;
  if (nbits < n) return em_fail(e, "quant_bits has %d entries for %d Scales", nbits, n);
  int64_t range = 1;
  for (int i = 0; i < n; i++) {
    if (bits[i] < 1 || bits[i] > 16) return em_fail(e, "quant_bits[%d] %lld is not in [1, 16]", i, (long long)bits[i]);
    range *= ((int64_t)1 << (bits[i] - 1)) - 1;
  }
  const int rank = em_spec(e, x)->rank;
  int axis;
  if (n == 1) {
    attr_superseded(e->op, "x_num_col_dims"); /* read with two Scales only */
    const int64_t a = attr_int(e->op, "quant_axis", 0);
    if (a != 0 && a != 1) return em_fail(e, "quant_axis %lld is not 0 or 1", (long long)a);
    axis = (int)a;
  } else {
    attr_superseded(e->op, "quant_axis"); /* read with one Scales tensor only */
    const int64_t cols = attr_int(e->op, "x_num_col_dims", 1);
    if (cols < 1 || cols >= rank)
      return em_fail(e, "x_num_col_dims %lld is not in [1, %d) for X %s", (long long)cols, rank,
                     shape_str(&x->shape));
    axis = (int)cols;
    const VarSpec *ss = em_spec(e, s2);
    if (ss->rank > 1 || (ss->rank == 1 && (ss->d[0].a || ss->d[0].c != 1)))
      return em_fail(e, "Scales[1] ('%s') has shape %s; Paddle reads one value", s2->name, shape_str(&s2->shape));
  }
  if (quant_check_channel_scale(e, "Scales[0]", s1, x, axis)) return -1;
  const int f64 = x->dtype == RT_DT_FP64;
  const char *r = f64 ? pool_printf("%lld.0", (long long)range) : em_float((double)range);
  const char *setup = s2 ? pool_printf("const %s s2 = %s[0], r = %s;", f64 ? "double" : "float", em_ptr(e, s2, 1), r)
                         : pool_printf("const %s r = %s;", f64 ? "double" : "float", r);
  const EwIn in[2] = {{x, -1, "x", "v"}, {s1, axis, "scale", "s"}};
  return ew_nary(e, out, 2, in, setup, NULL, s2 ? "v * s * s2 / r" : "v * s / r");
}

const OpDef op_fake_channel_wise_quantize_abs_max = {.type = "fake_channel_wise_quantize_abs_max",
                                                     .infer = infer_channel_quant, .emit_c = emit_channel_quant};
const OpDef op_fake_channel_wise_quantize_dequantize_abs_max = {
    .type = "fake_channel_wise_quantize_dequantize_abs_max", .infer = infer_channel_quant,
    .emit_c = emit_channel_quant};
const OpDef op_fake_channel_wise_dequantize_max_abs = {
    .type = "fake_channel_wise_dequantize_max_abs", .infer = infer_channel_dequant, .emit_c = emit_channel_dequant};

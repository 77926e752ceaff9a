/* The per-tensor fake quantization ops (QAT and PTQ programs).  Every one
 * keeps X's shape:
 *   fake_quantize_abs_max, fake_quantize_dequantize_abs_max:
 *     X -> Out, OutScale [1];  attrs: bit_length=8, round_type=1.
 *   fake_quantize_moving_average_abs_max,
 *   fake_quantize_dequantize_moving_average_abs_max:
 *     X, InScale, InAccum?, InState? -> Out, OutScale [1], OutState? [1],
 *     OutAccum? [1];  attrs: moving_rate=0.9, bit_length=8, round_type=1,
 *     is_test=false.
 *   fake_quantize_range_abs_max: X, InScale, Iter? -> Out, OutScale [1],
 *     OutScales? [window_size];  attrs: window_size=10000, bit_length=8,
 *     round_type=1, is_test=false.
 *   fake_dequantize_max_abs: X, Scale -> Out;  attrs: max_range.
 * (The channel-wise ops are in fake_channel_quant.c, quantize_linear and
 * dequantize_linear in quant_linear.c.)
 * Paddle's InferShape sets only dims here; dtypes are those Python gives the
 * vars: Out of a quantize op has X's dtype (the values stay floats), the
 * output of a dequantize op has the scale's dtype, scales and states keep
 * the dtype of their inputs. */
#include <string.h>

#include "../emit_ew.h"
#include "../util.h"
#include "ops.h"
#include "quant_call.h"

int quant_slot_dtype(const OpCtx *c, const char *slot, int dflt) {
  Var *v = ctx_in(c, slot, 0);
  return v ? v->dtype : dflt;
}

static int infer_fake_quant(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int sdt = quant_slot_dtype(c, "InScale", x->dtype);
  Shape one = {1, {1}};
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_set(c, "OutScale", 0, &one, sdt);
  ctx_set(c, "OutState", 0, &one, quant_slot_dtype(c, "InState", sdt));
  ctx_set(c, "OutAccum", 0, &one, quant_slot_dtype(c, "InAccum", sdt));
  if (ctx_out(c, "OutScales", 0)) {
    Shape win = {1, {attr_int(c->op, "window_size", 10000)}};
    ctx_set(c, "OutScales", 0, &win, sdt);
  }
  return 0;
}

static int infer_fake_dequant(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, quant_slot_dtype(c, "Scale", x->dtype));
  return 0;
}

/* ---- C emission of the five fake_quantize ops (Paddle's CPU kernels,
 * fluid fake_quantize_op.h / .cc; float32 only, as they are registered) ----
 * bin_cnt bc = 2^(bit_length-1) - 1 (bit_length in [1, 16]); the scale s
 * comes from:
 *   fake_quantize[_dequantize]_abs_max: s = max|X| (FindAbsMaxFunctor: the
 *     |.| of the first element of largest |.|), written to OutScale;
 *   the moving_average ops with is_test: s = InScale; without (training):
 *     FindMovingAverageAbsMaxFunctor, in float, from cur = max|X|:
 *       state = rate * InState + 1, accum = rate * InAccum + cur,
 *       s = accum / state  -> OutState, OutAccum, OutScale
 *     (each product and sum its own statement: no contraction into an FMA);
 *   fake_quantize_range_abs_max with is_test: s = InScale.  Its training
 *     (is_test false) keeps a window of past scales in OutScales across runs
 *     and reads it back (FindRangeAbsMaxFunctor): refused.
 * With is_test Paddle writes only Out and leaves OutScale, OutState,
 * OutAccum and OutScales unwritten; paddlec copies InScale, InState and
 * InAccum into the first three when they are other vars (so that a reader
 * finds a defined value) and leaves OutScales alone.
 * Then each element is quantized as quant_call.h's quant_round_c says
 * (round_type 1, halves away from zero, the default in Paddle 2.6; 0, ties
 * to even); quantize ops output q, quantize-dequantize ops q * s / bc.
 * fake_dequantize_max_abs outputs x * scale / max_range. */

int quant_check_attrs(EmitCtx *e, int64_t bit_length, int64_t round_type) {
  if (bit_length < 1 || bit_length > 16) return em_fail(e, "bit_length %lld is not in [1, 16]", (long long)bit_length);
  if (round_type != 0 && round_type != 1) return em_fail(e, "round_type %lld is not 0 or 1", (long long)round_type);
  return 0;
}

int quant_tensor_ew(EmitCtx *e, const Var *x, const char *scale, int64_t bits, int round_type, int dequant,
                    const Var *out) {
  const char *setup = pool_printf("const float s = %s[0], bc = %s, k = " QUANT_K_C ";", scale,
                                  em_float((double)((1 << (bits - 1)) - 1)));
  const EwIn in[1] = {{x, -1, "x", "v"}};
  return ew_nary(e, out, 1, in, setup, quant_round_c(round_type), dequant ? "q * s / bc" : "q");
}

/* A float32 input or output of the op in `slot`, NULL when absent; *bad is
 * set (after em_fail) when it is there with another dtype. */
static Var *fq_var(EmitCtx *e, OpCtx *c, const char *slot, int out, int *bad) {
  Var *v = out ? ctx_out(c, slot, 0) : ctx_in(c, slot, 0);
  if (v && v->dtype != RT_DT_FP32) *bad = em_fail(e, "%s is %s, expected float32", slot, rt_dtype_name(v->dtype));
  return v;
}

/* The buffers of a copy dst[0] = src[0] into *to and *from when both are
 * there and are not the same var; else they stay NULL. */
static void fq_copy_state(EmitCtx *e, const Var *src, const Var *dst, const char **from, const char **to) {
  if (!src || !dst || src == dst) return;
  *to = em_ptr(e, dst, 0);
  *from = em_ptr(e, src, 1);
}

static int emit_fake_quant(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  const char *type = e->op->type;
  int bad = 0;
  Var *x = fq_var(e, &c, "X", 0, &bad), *out = fq_var(e, &c, "Out", 1, &bad);
  Var *in_scale = fq_var(e, &c, "InScale", 0, &bad), *in_state = fq_var(e, &c, "InState", 0, &bad);
  Var *in_accum = fq_var(e, &c, "InAccum", 0, &bad), *out_scale = fq_var(e, &c, "OutScale", 1, &bad);
  Var *out_state = fq_var(e, &c, "OutState", 1, &bad), *out_accum = fq_var(e, &c, "OutAccum", 1, &bad);
  if (bad) return -1;
  if (!x || !out) return em_fail(e, "X and Out are required");
  const int abs_max = strstr(type, "_abs_max") && !strstr(type, "moving_average") && !strstr(type, "range");
  const int range = !strcmp(type, "fake_quantize_range_abs_max");
  const int is_test = !abs_max && attr_bool(e->op, "is_test", 0);
  const int64_t bits = attr_int(e->op, "bit_length", 8), round_type = attr_int(e->op, "round_type", 1);
  if (quant_check_attrs(e, bits, round_type)) return -1;
  const char *scale; /* the buffer whose [0] is the scale once the block below has run */
  if (abs_max) {
    if (!out_scale) return em_fail(e, "output OutScale is required");
    const char *to = em_ptr(e, out_scale, 0);
    quant_print_c(e->p, &(QuantCall){.kind = QUANT_ABS_MAX, .out_scale = to, .x = em_ptr(e, x, 1),
                                     .n = em_numel(e, x)});
    scale = em_ptr(e, out_scale, 1);
  } else if (is_test) {
    /* only training updates the scale (over window_size, with moving_rate) */
    attr_superseded(e->op, "window_size"), attr_superseded(e->op, "moving_rate");
    if (!in_scale) return em_fail(e, "input InScale is required with is_test");
    QuantCall keep = {.kind = QUANT_KEEP};
    fq_copy_state(e, in_scale, out_scale, &keep.in_scale, &keep.out_scale);
    fq_copy_state(e, in_state, out_state, &keep.in_state, &keep.out_state);
    fq_copy_state(e, in_accum, out_accum, &keep.in_accum, &keep.out_accum);
    quant_print_c(e->p, &keep);
    scale = em_ptr(e, in_scale, 1);
  } else if (range) {
    return em_fail(e, "training (is_test false) keeps a window of scales in OutScales across runs, which is "
                      "not supported");
  } else {
    if (!in_state || !in_accum || !out_state || !out_accum || !out_scale)
      return em_fail(e, "training (is_test false) needs InState, InAccum, OutState, OutAccum and OutScale");
    const char *rate = em_float((float)attr_float(e->op, "moving_rate", 0.9));
    const char *xp = em_ptr(e, x, 1), *n = em_numel(e, x);
    quant_print_c(e->p, &(QuantCall){.kind = QUANT_MOVING_AVERAGE, .rate = rate, .x = xp, .n = n,
                                     .in_state = em_ptr(e, in_state, 1), .in_accum = em_ptr(e, in_accum, 1),
                                     .out_state = em_ptr(e, out_state, 0), .out_accum = em_ptr(e, out_accum, 0),
                                     .out_scale = em_ptr(e, out_scale, 0)});
    scale = em_ptr(e, out_scale, 1);
  }
  return quant_tensor_ew(e, x, scale, bits, (int)round_type, strstr(type, "quantize_dequantize") != NULL, out);
}

static int emit_fake_dequantize_max_abs(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *out = ctx_out(&c, "Out", 0), *scale = ctx_in(&c, "Scale", 0);
  if (!x || !out || !scale || x->dtype != RT_DT_FP32 || scale->dtype != RT_DT_FP32 || out->dtype != RT_DT_FP32)
    return em_fail(e, "a float32 X, Scale and Out are required");
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

const OpDef op_fake_dequantize_max_abs = {.type = "fake_dequantize_max_abs", .emit_c = emit_fake_dequantize_max_abs,
                                          .infer = infer_fake_dequant};

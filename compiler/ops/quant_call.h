/* The scale kernels of the quantization ops as the lowering decided them,
 * their C printer, and the pieces the three quantization op files share
 * (fake_quant.c: the per-tensor fake_quantize ops; fake_channel_quant.c:
 * the channel-wise ones; quant_linear.c: quantize_linear and
 * dequantize_linear).
 *
 * Before its elementwise pass (ew_nary) a quantize op settles its scale:
 * max |X| (abs_max) into [0] of a float32 buffer; max |X| per channel
 * (FindChannelAbsMaxFunctor) into [c]; the moving average of training
 * (FindMovingAverageAbsMaxFunctor, each product and sum its own statement);
 * or, with is_test, copies InScale, InState and InAccum into OutScale,
 * OutState and OutAccum.  The emitter checks the op and fills one record:
 * the kind, the moving rate as a float literal and the buffers;
 * quant_print_c prints the statements (max |X| through move_expr_c's
 * MOVE_ABS_MAX); another backend prints the same records.  Every buffer is
 * float32, as Paddle registers these kernels. */
#ifndef PADDLEC_OPS_QUANT_CALL_H
#define PADDLEC_OPS_QUANT_CALL_H

#include "ops.h"

typedef enum QuantKind {
  QUANT_ABS_MAX,         /* out_scale[0] = max |x| */
  QUANT_MOVING_AVERAGE,  /* state = rate * in_state + 1, accum = rate * in_accum + max |x|, scale = accum / state */
  QUANT_KEEP,            /* out_scale[0] = in_scale[0], and so for state and accum, each pair given */
  QUANT_CHANNEL_ABS_MAX, /* out_scale[c] = max |x| over channel c of x seen as [outer, channels, inner] */
} QuantKind;

typedef struct QuantCall {
  QuantKind kind;
  const char *x, *n;                             /* ABS_MAX, MOVING_AVERAGE: X and its element count */
  const char *outer, *channels, *inner;          /* CHANNEL_ABS_MAX: X's view (C expressions) */
  const char *rate;                              /* MOVING_AVERAGE: moving_rate, a float literal */
  const char *in_scale, *in_state, *in_accum;    /* read at [0] (KEEP: NULL where that pair is not copied) */
  const char *out_scale, *out_state, *out_accum; /* written at [0] (KEEP: alike; CHANNEL_ABS_MAX: [channels]) */
} QuantCall;

void quant_print_c(Printer *p, const QuantCall *c);

/* ---- one element's quantization (Paddle's fake_quantize_op.h) ----
 * With bc = 2^(bit_length-1) - 1, the scale s and k = bc * inverse(s)
 * (QUANT_K_C: 1 / (s + 1e-6) for s <= 1e-30, else 1 / s), the statements
 * that set q from the element v, in Paddle's order of float operations:
 *   round_type 0: q = clamp(rint(k * v), -bc - 1, bc), ties to even
 *     (QuantTensorFunctor's roundWithTiesToEven);
 *   round_type 1: q = round(k * clip(v, -s, s)), halves away from zero
 *     (ClipFunctor, then Eigen's round or std::round).
 * A quantize op outputs q, a quantize-dequantize op q * s / bc. */
#define QUANT_K_C "bc * (s <= 1e-30f ? 1.0f / (s + 1e-6f) : 1.0f / s)"
const char *quant_round_c(int round_type);

/* ---- shared by the op files ---- */
/* dtype of the first var of input `slot`, or `dflt` when absent. */
int quant_slot_dtype(const OpCtx *c, const char *slot, int dflt);
/* Shape of a per-channel scale: [X.dims[axis]], or [1] for axis < 0;
 * -1 after ctx_fail when axis is not a dim of X (fake_channel_quant.c). */
int quant_channel_shape(OpCtx *c, const Shape *xs, int64_t axis, Shape *out);
/* -1 after em_fail naming the attribute when bit_length is not in [1, 16]
 * or round_type not 0 or 1 (the op makers' checkers); else 0. */
int quant_check_attrs(EmitCtx *e, int64_t bit_length, int64_t round_type);
/* out = quantize(x) with the scale at scale[0] (a const float * C
 * expression), as ClipAndFakeQuantFunctor (dequant 0) or
 * ClipAndFakeQuantDequantFunctor (1) computes it; x and out float32
 * (fake_quant.c). */
int quant_tensor_ew(EmitCtx *e, const Var *x, const char *scale, int64_t bits, int round_type, int dequant,
                    const Var *out);
/* out = quantize(x) with the scale of channel c (along X's dim `axis`, 0 or
 * 1) at scale[c], a float32 [X.dims[axis]] var, as
 * ChannelClipAndFakeQuantFunctor (dequant 0) or
 * ChannelClipFakeQuantDequantFunctor (1) computes it (fake_channel_quant.c). */
int quant_channel_ew(EmitCtx *e, const Var *x, const Var *scale, int axis, int64_t bits, int round_type,
                     int dequant, const Var *out);
/* out_scale[c] = max |x| over channel c along X's dim `axis` (0 or 1), as
 * FindChannelAbsMaxFunctor computes it (fake_channel_quant.c). */
void quant_channel_abs_max(EmitCtx *e, const Var *x, int axis, const Var *out_scale);
/* -1 after em_fail unless `axis` is a dim of X and v, the scale of a
 * per-channel op, a [X.dims[axis]] vector (Paddle reads scale[c] for every
 * channel c); the message names quant_axis or `slot`. */
int quant_check_channel_scale(EmitCtx *e, const char *slot, const Var *v, const Var *x, int axis);

#endif

/* The scale kernels of the fake quantization ops as the lowering decided
 * them, and their C printer.
 *
 * Before its elementwise pass (ew_nary) a fake_quantize op settles the
 * scale s, the [0] of a float32 buffer: max |X| (abs_max), the moving
 * average of training (FindMovingAverageAbsMaxFunctor, each product and
 * sum its own statement), or InScale with is_test, copying InScale,
 * InState and InAccum into OutScale, OutState and OutAccum.  The emitter
 * (fake_quant.c) checks the op and fills one record: the kind, the moving
 * rate as a float literal and the buffers; quant_print_c prints the
 * statements (max |X| through move_expr_c's MOVE_ABS_MAX); another backend
 * prints the same records.  Every buffer is float32, as Paddle registers
 * these kernels. */
#ifndef PADDLEC_OPS_QUANT_CALL_H
#define PADDLEC_OPS_QUANT_CALL_H

#include "ops.h"

typedef enum QuantKind {
  QUANT_ABS_MAX,        /* out_scale[0] = max |x| */
  QUANT_MOVING_AVERAGE, /* state = rate * in_state + 1, accum = rate * in_accum + max |x|, scale = accum / state */
  QUANT_KEEP,           /* out_scale[0] = in_scale[0], and so for state and accum, each pair given */
} QuantKind;

typedef struct QuantCall {
  QuantKind kind;
  const char *x, *n;                             /* ABS_MAX, MOVING_AVERAGE: X and its element count */
  const char *rate;                              /* MOVING_AVERAGE: moving_rate, a float literal */
  const char *in_scale, *in_state, *in_accum;    /* read at [0] (KEEP: NULL where that pair is not copied) */
  const char *out_scale, *out_state, *out_accum; /* written at [0] (KEEP: alike) */
} QuantCall;

void quant_print_c(Printer *p, const QuantCall *c);

#endif

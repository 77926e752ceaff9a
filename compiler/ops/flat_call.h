/* One element-by-element kernel on flat indices as the lowering decided
 * it, and its C printer.
 *
 * The kernels here pair elements by their flat index, without Paddle's
 * broadcasting, in one plain loop (the broadcasting element-wise loops are
 * emit_ew.h's EwLoop): atan2 and its grad (phi Atan2Functor and
 * Atan2GradFunctor), isnan_v2 / isinf_v2 / isfinite_v2 of integer tensors
 * (a constant per element), and equal_all (one bool: the dims agree and
 * every pair of elements is equal); sequence_mask (a row of 1s and 0s per
 * length) and increment (one element plus a step).  The emitters (atan2.c,
 * isfinite.c, compare.c, sequence.c, increment.c) check the tensors and fill one record: the kind, the element
 * types, the count as a C expression and the buffers; flat_print_c prints
 * the loop; another backend prints the same records. */
#ifndef PADDLEC_OPS_FLAT_CALL_H
#define PADDLEC_OPS_FLAT_CALL_H

#include "ops.h"

typedef enum FlatKind {
  FLAT_ATAN2,      /* out[i] = atan2(x[i], y[i]), in double for float64, else in float (then widened) */
  FLAT_ATAN2_GRAD, /* r = x[i]^2 + y[i]^2; dx[i] = dout[i] * y[i] / r; dy[i] = -dout[i] * x[i] / r */
  FLAT_INT_CLASS,  /* out[i] = value: isnan, isinf, isfinite of an integer (false, false, true) */
  FLAT_EQUAL_ALL,  /* out[0] = same and, for every i, x[i] equal to y[i] (phi EqualFunctor) */
  FLAT_SEQUENCE_MASK, /* out[i * width + j] = j < x[i] ? 1 : 0 in out's type, j < width */
  FLAT_INCREMENT,  /* out[0] = x[0] + value, in the type */
} FlatKind;

typedef struct FlatCall {
  FlatKind kind;
  int dtype;             /* the inputs' RT_DT_* (FLAT_ATAN2: float32/64, int32/64; GRAD: float32/64) */
  int out_dtype;         /* FLAT_ATAN2: out's RT_DT_* (float32 for float32 inputs, else float64);
                          * FLAT_SEQUENCE_MASK: out's */
  const char *numel;     /* the elements paired (not FLAT_EQUAL_ALL's: it stops at the first unequal);
                          * FLAT_SEQUENCE_MASK: the lengths */
  const char *x, *y;     /* FLAT_ATAN2*: X1, X2; FLAT_EQUAL_ALL: X, Y (numel: X's); else x alone */
  const char *out;       /* written (bool for FLAT_INT_CLASS, FLAT_EQUAL_ALL) */
  const char *dout;      /* FLAT_ATAN2_GRAD: read */
  const char *dx, *dy;   /* FLAT_ATAN2_GRAD: X1@GRAD, X2@GRAD, either NULL when not asked */
  const char *value;     /* FLAT_INT_CLASS: "false" or "true"; FLAT_INCREMENT: the step, a literal of the type */
  const char *width;     /* FLAT_SEQUENCE_MASK: out's last dim (maxlen) */
  const char *same;      /* FLAT_EQUAL_ALL: C condition that X's and Y's dims agree ("1", "0", ...) */
} FlatCall;

void flat_print_c(Printer *p, const FlatCall *c);

#endif

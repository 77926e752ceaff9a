/* One histogram kernel as the lowering decided it, and its C printer.
 *
 * histogram counts X's elements into `bins` equal bins over [min, max] in
 * X's type; when min == max the range is X's smallest and largest element,
 * widened by 1 each way when those are equal too (Paddle's CPU kernel).
 * The emitter (histogram.c) checks the tensors and fills one record: the C
 * type, the attributes, the element count as a C expression and the
 * buffers; hist_print_c prints the loops; another backend prints the same
 * records. */
#ifndef PADDLEC_OPS_HIST_CALL_H
#define PADDLEC_OPS_HIST_CALL_H

#include <stdint.h>

#include "ops.h"

typedef struct HistCall {
  const char *type;  /* X's C type */
  int64_t bins;      /* Out's elements */
  int64_t min, max;  /* the range attributes (both 0, or equal: X's range) */
  const char *numel; /* X's elements */
  const char *x;     /* read */
  const char *out;   /* written: int64 counts */
} HistCall;

void hist_print_c(Printer *p, const HistCall *c);

#endif

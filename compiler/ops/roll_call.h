/* One roll kernel as the lowering decided it, and its C printer.
 *
 * roll (and its grad, the negated shifts) walks a view of X (X's dims, or
 * X flattened) with one loop per dim up to the last rolled one and copies
 * the rows of the dims after it in order: along a rolled dim of n
 * elements, output position i reads X's position (i - sh) mod n, sh the
 * shift taken into [0, n).  The emitter (roll.c) checks the tensors, adds
 * up the shifts per dim and fills one record: the C type, the view's dims
 * and strides as C expressions, the shifts and the buffers; roll_print_c
 * prints the loops; another backend prints the same records. */
#ifndef PADDLEC_OPS_ROLL_CALL_H
#define PADDLEC_OPS_ROLL_CALL_H

#include <stdint.h>

#include "ops.h"

typedef struct RollCall {
  const char *type;                 /* C element type */
  int loops;                        /* the view's dims walked: up to the last rolled one (n<d>, sh<d>, i<d>) */
  const char *dims[RT_MAX_RANK];    /* the view's dims */
  const char *strides[RT_MAX_RANK]; /* X's strides along them, in elements */
  int rolled[RT_MAX_RANK];          /* 1 along a rolled dim */
  int folded[RT_MAX_RANK];          /* a rolled dim known now: shift[d] is already in [0, n) */
  int64_t shift[RT_MAX_RANK];       /* a rolled dim's shift (the sum of its shifts, unfolded when not folded) */
  int nrun[RT_MAX_RANK];            /* and the shifts along it the run gives (ShiftsTensor's values), */
  const char *run[RT_MAX_RANK][RT_MAX_RANK]; /* as C expressions, each taken into [0, n) and added, */
  int negate;                       /* subtracted instead (the grad) */
  const char *row;                  /* the elements after the last rolled dim: one copy ("1": one element) */
  const char *x, *out;              /* read, written */
} RollCall;

void roll_print_c(Printer *p, const RollCall *c);

#endif

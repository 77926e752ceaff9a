/* One kernel that walks tensors as [outer, n, inner] around one axis, as
 * the lowering decided it, and its C printer.
 *
 * cumprod scans each line along the axis; repeat_interleave copies whole
 * inner slices (rows of `inner` elements) between positions along the
 * axis, index_add adds them at the positions Index names; their grads walk
 * the same slices back.  The emitters (cumprod.c, repeat_interleave.c,
 * index_add.c) check the tensors and fill one record: the kind, the C
 * types, the geometry as C expressions, the repeats and the buffers;
 * axis_print_c prints the loops; another backend prints the same
 * records. */
#ifndef PADDLEC_OPS_AXIS_CALL_H
#define PADDLEC_OPS_AXIS_CALL_H

#include "ops.h"

typedef enum AxisKind {
  AXIS_CUMPROD,        /* out[j] = out[j - 1] * x[j] along the axis, out[0] = x[0] */
  AXIS_CUMPROD_GRAD,   /* dx[j] = sum over m >= j of dout[m] * out[j - 1] * x[j + 1] * ... * x[m] */
  AXIS_REPEAT,         /* out slice (o, j) = x slice (o, the j-th entry of the repeated positions) */
  AXIS_REPEAT_GRAD,    /* dx = 0, then dx slice (o, i) += each dout slice it was repeated into */
  AXIS_INDEX_ADD,      /* out (already X) slice (o, index[j]) += add slice (o, j) */
  AXIS_INDEX_ADD_GRAD, /* dv slice (o, j) = dout slice (o, index[j]), 0 outside [0, n) */
} AxisKind;

typedef struct AxisCall {
  AxisKind kind;
  const char *type;              /* C element type */
  const char *outer, *n, *inner; /* X (X@GRAD; INDEX_ADD_GRAD: Out@GRAD) as [outer, n, inner] around the axis */
  const char *n_out;             /* REPEAT*: Out's (Out@GRAD's) dim at the axis */
  const char *len;               /* INDEX_ADD*: Index's entries */
  int64_t rep;                   /* REPEAT*: the Repeats attribute, when index and repeats are NULL */
  const int64_t *repeats;        /* AXIS_REPEAT: RepeatsTensor's values, known at compile time, or NULL
                                    (all 0: Out is empty, only a comment is printed) */
  int nrepeats;                  /* their count (X's dim at the axis) */
  const char *index, *index_type; /* INDEX_ADD*: Index; REPEAT_GRAD: RepeatsTensor (read at run time) or NULL */
  const char *x, *out, *add;     /* forwards: read, written; INDEX_ADD: AddValue */
  const char *dout, *dx, *dv;    /* grads: read, written; INDEX_ADD_GRAD: AddValue@GRAD */
} AxisCall;

void axis_print_c(Printer *p, const AxisCall *c);

#endif

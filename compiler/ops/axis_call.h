/* One kernel that walks tensors as [outer, n, inner] around one axis, as
 * the lowering decided it, and its C printer.
 *
 * cumprod scans each line along the axis; repeat_interleave copies whole
 * inner slices (rows of `inner` elements) between positions along the
 * axis, index_add adds them at the positions Index names; their grads walk
 * the same slices back.  cross combines the three slices of x and y along
 * an axis of 3 (found at run time, as Paddle does, when a dim known only
 * then comes before the first constant 3), and meshgrid_grad sums a grad
 * over outer and inner.  The emitters (cumprod.c, repeat_interleave.c,
 * index_add.c, cross.c, meshgrid.c) check the tensors and fill one record:
 * the kind, the C types, the geometry as C expressions, the repeats and
 * the buffers;
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
  AXIS_CROSS,          /* out (o, j) = x (o, j+1) * y (o, j+2) - x (o, j+2) * y (o, j+1), n 3, j + m mod 3 */
  AXIS_CROSS_GRAD,     /* dx (o, j) = dout (o, j+2) * y (o, j+1) - dout (o, j+1) * y (o, j+2); dy alike with x */
  AXIS_MESHGRID_GRAD,  /* dx[j] = the sum over o and k of dout[(o * n + j) * inner + k], in that order */
} AxisKind;

typedef struct AxisCall {
  AxisKind kind;
  const char *type;              /* C element type */
  const char *outer, *n, *inner; /* X (X@GRAD; INDEX_ADD_GRAD, MESHGRID_GRAD: Out@GRAD) as
                                    [outer, n, inner] around the axis (CROSS*: n unused, 3) */
  const char *n_out;             /* REPEAT*: Out's (Out@GRAD's) dim at the axis */
  const char *len;               /* INDEX_ADD*: Index's entries */
  int64_t rep;                   /* REPEAT*: the Repeats attribute, when index and repeats are NULL */
  const int64_t *repeats;        /* AXIS_REPEAT: RepeatsTensor's values, known at compile time, or NULL
                                    (all 0: Out is empty, only a comment is printed) */
  int nrepeats;                  /* their count (X's dim at the axis) */
  const char *index, *index_type; /* INDEX_ADD*: Index; REPEAT, REPEAT_GRAD: RepeatsTensor (read at run time) or
                                    * NULL */
  const char *x, *out, *add;     /* forwards: read, written; INDEX_ADD: AddValue */
  const char *dout, *dx, *dv;    /* grads: read, written; INDEX_ADD_GRAD: AddValue@GRAD */
  const char *y, *dy;            /* CROSS*: Y and (CROSS_GRAD) Y@GRAD; CROSS_GRAD: dx or dy NULL when not asked
                                    for, y read only for dx and x only for dy */
  int search;                    /* CROSS*: 0, or the count of dims[] searched at run time for the first 3
                                    (outer and inner then unused) */
  const char *const *dims;       /* CROSS* with search: X's first dims */
  const char *numel;             /* CROSS* with search: X's elements */
  int slot;                      /* MESHGRID_GRAD: the input, which is the dim kept */
} AxisCall;

void axis_print_c(Printer *p, const AxisCall *c);

#endif

/* One take_along_axis / put_along_axis kernel (or grad) as the lowering
 * decided it, and its C printer.
 *
 * The ops walk Index as [ni, nj, nk] around the axis (p = (i, j, k) its
 * flat position) and address Input by the flat offset
 *   at = k + Index[p] * outer_in + i * outer_in * n_in
 * (phi cpu_gather_scatter_functor; offsets outside Input read 0 or write
 * nothing).  The emitters (along_axis.c) check the tensors and fill one
 * record: the kind, the C types, the reduction, the geometry as C
 * expressions, the buffers and the scratch; along_print_c prints the
 * loops; another backend prints the same records. */
#ifndef PADDLEC_OPS_ALONG_CALL_H
#define PADDLEC_OPS_ALONG_CALL_H

#include "ops.h"

typedef enum AlongKind {
  ALONG_TAKE,      /* out[p] = x[at] */
  ALONG_PUT,       /* out = x (copied before), then out[at] <reduce>= val[p] */
  ALONG_TAKE_GRAD, /* dx = 0, dx[at] += dout[p] */
  ALONG_PUT_GRAD,  /* dx and / or dv from dout, x, val, res (see along_axis.c) */
} AlongKind;

typedef enum AlongReduce {
  ALONG_ASSIGN, ALONG_ADD, ALONG_MUL, ALONG_MEAN, ALONG_AMAX, ALONG_AMIN,
} AlongReduce;

typedef struct AlongCall {
  AlongKind kind;
  const char *type, *index_type;  /* C types of the data and of Index */
  AlongReduce reduce;             /* ALONG_PUT*, with include_self */
  int include_self;
  const char *ni, *nj, *nk;       /* Index as [ni, nj, nk] around the axis */
  const char *n_in, *outer_in, *numel_in; /* Input's dim at the axis, the product after it, its elements */
  const char *n_val, *outer_val;  /* ALONG_PUT: Value's dim at the axis and the product after it */
  const char *numel_index;        /* ALONG_PUT_GRAD: Index's elements (Value@GRAD's) */
  const char *numel_dx;           /* ALONG_TAKE_GRAD: Input@GRAD's elements */
  const char *x, *index, *val, *res, *out;
  const char *dout, *dx, *dv;     /* the grads (dx, dv: NULL when not computed) */
  const char *count;              /* ALONG_PUT, ALONG_PUT_GRAD: int32 scratch of numel_in, or NULL */
  const char *used;               /* ALONG_PUT_GRAD, assign with dv: byte scratch of numel_in */
} AlongCall;

void along_print_c(Printer *p, const AlongCall *c);

#endif

/* One nanmedian kernel as the lowering decided it, and its C printer.
 *
 * nanmedian and its grad gather X into `count` contiguous rows of `len`
 * values (X's kept dims first, then its reduced dims: a strided copy of
 * `rank` dims, or the one value when rank is 0), sort each row ascending
 * with NaN last (the grad: take its k smallest, as phi FullTopK), and read
 * the median, or hand Out@GRAD to the median's positions, from the first
 * values that are not NaN.  The emitters (nanmedian.c) check the tensors,
 * lay out the rows, take the scratch and fill one record: the kind, the
 * element type, the gather, the sizes as C expressions, the buffers and
 * the scratch; median_print_c prints the loops (the gather and the sort
 * through move_print_c and sort_print_c); another backend prints the same
 * records. */
#ifndef PADDLEC_OPS_MEDIAN_CALL_H
#define PADDLEC_OPS_MEDIAN_CALL_H

#include "ops.h"

typedef enum MedianKind {
  MEDIAN_FORWARD, /* out[o] = the median of row o's values that are not NaN (NaN for none) */
  MEDIAN_GRAD,    /* dx = 0 but at row o's median positions: dout[o], or dout[o] / 2 for each of two */
} MedianKind;

typedef struct MedianCall {
  MedianKind kind;
  int dtype;                         /* RT_DT_*: float32, float64, int32 or int64 */
  const char *type;                  /* its C type */
  int rank;                          /* the gather's dims (0: X holds one value) */
  const char *const *dims;           /* their sizes (C expressions) */
  const char *const *strides;        /* X's strides along them */
  const char *len, *count;           /* values per row, rows (Out's, Out@GRAD's elements) */
  const char *numel;                 /* MEDIAN_GRAD: X's elements */
  const char *x;                     /* X */
  const char *out;                   /* MEDIAN_FORWARD: Out */
  const char *dout, *dx;             /* MEDIAN_GRAD */
  const char *rows, *vals, *idx;     /* scratch: the rows, the sorted (top k) values and their positions */
  const char *at, *nans;             /* MEDIAN_GRAD scratch: X's offset of each row value, NaN per row */
  const char *work;                  /* the sort's scratch: len (value, position) pairs */
} MedianCall;

void median_print_c(Printer *p, const MedianCall *c);

#endif

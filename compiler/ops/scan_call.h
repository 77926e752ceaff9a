/* One scan kernel as the lowering decided it, and its C printer.
 *
 * The scans walk a tensor as `lines` lines of `n` elements along an axis,
 * `inner` apart (all of it as one line with flatten), front to back or
 * (reverse) back to front, carrying a running value: cumsum (and its grad,
 * the opposite direction over Out@GRAD) sums, logcumsumexp (and the two
 * scans of its grad) folds log(exp(acc) + exp(v)), exclusive storing the
 * running value before taking the element in; as phi's ScanKernel, a
 * one-element tensor is copied.  cummax and cummin keep the largest
 * (smallest) element so far and its index along the line.  The emitters
 * (cumsum.c, cum_maxmin.c) check the tensors and fill one record: the kind,
 * the C types, the geometry as C expressions, the direction and the
 * buffers; scan_print_c prints the loops; another backend prints the same
 * records. */
#ifndef PADDLEC_OPS_SCAN_CALL_H
#define PADDLEC_OPS_SCAN_CALL_H

#include "ops.h"

typedef enum ScanKind {
  SCAN_SUM,            /* out = the running sum of x, from 0 */
  SCAN_LOGSUMEXP,      /* out = the running log(sum(exp(x))), from the type's lowest finite value */
  SCAN_LOGSUMEXP_GRAD, /* dx = exp(scan(pos) + x) - exp(scan(neg) + x), pos and neg from dout and out,
                          the scans (LOGSUMEXP) in scratch tmp and scan */
  SCAN_MAX,            /* out = the largest element so far, indices its position along the line */
  SCAN_MIN,            /* out = the smallest alike */
} ScanKind;

typedef struct ScanCall {
  ScanKind kind;
  const char *type;                /* C element type */
  int f32;                         /* LOGSUMEXP*: float elements (else double): the lowest finite value and
                                      the math functions' f suffix */
  const char *lines, *n, *inner;   /* the lines, the elements of one, their distance */
  const char *numel;               /* the elements: SUM, LOGSUMEXP*: the run-time one-element test, and
                                      LOGSUMEXP_GRAD's passes */
  int one;                         /* SUM, LOGSUMEXP*: one element, known now: a copy, no scan */
  int by_batch;                    /* SUM, LOGSUMEXP*: the element count depends on the batch: a copy when it
                                      is 1 at run time, else the scan */
  int reverse, exclusive;          /* SUM, LOGSUMEXP*: the direction (of LOGSUMEXP_GRAD's scans), and
                                      whether an element's own value is left out of its result */
  const char *x, *out;             /* SUM, LOGSUMEXP, MAX, MIN: read, written (cumsum_grad: Out@GRAD,
                                      X@GRAD); LOGSUMEXP_GRAD: X and Out, both read */
  const char *dout, *dx;           /* LOGSUMEXP_GRAD: Out@GRAD read, X@GRAD written */
  const char *tmp;                 /* LOGSUMEXP_GRAD: scratch of 2 * numel elements (unsigned char *) */
  int nan;                         /* MAX, MIN: floating-point: a NaN element wins and sticks */
  const char *indices, *index_type; /* MAX, MIN: the indices written and their C type */
} ScanCall;

void scan_print_c(Printer *p, const ScanCall *c);

#endif

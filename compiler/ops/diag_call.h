/* One diagonal kernel as the lowering decided it, and its C printer.
 *
 * diag_v2 and its grad move a diagonal: diagonal `offset` of a row-major
 * matrix of width w starts at element offset (offset >= 0) or -offset * w
 * (below the main one) and steps w + 1.  trace, diagonal_grad, trace_grad
 * and diag_embed walk the diagonals of any two axes of a tensor, as a
 * strided view [other dims..., length] from a first element; tril_triu
 * and its grad keep the elements of each matrix on one side of a
 * diagonal.  The emitters (diag_v2.c, diagonal.c, tril_triu.c) check the
 * tensors and fill one record: the kind, the C type, the offset, the
 * padding literal, the geometry as C expressions and the buffers;
 * diag_print_c prints the loops; another backend prints the same
 * records. */
#ifndef PADDLEC_OPS_DIAG_CALL_H
#define PADDLEC_OPS_DIAG_CALL_H

#include "ops.h"

typedef enum DiagKind {
  DIAG_EMBED,        /* out [size, size] = pad, its diagonal = x (len elements) */
  DIAG_EXTRACT,      /* out (len elements) = the diagonal of x [., w] */
  DIAG_EMBED_GRAD,   /* dx (len elements) = the diagonal of dout [size, size] */
  DIAG_EXTRACT_GRAD, /* dx [., w] (numel elements) = 0, its diagonal = dout (len elements) */
  DIAG_TRACE,        /* out (numel elements) = the sum of each diagonal of the view of src, copied to scratch */
  DIAG_SCATTER_ND,   /* dx (numel elements) = 0, the view's diagonals = dout (per element or per diagonal) */
  DIAG_EMBED_ND,     /* out (numel elements) = 0, x's len elements in turn at the diagonals Out's strides walk */
  DIAG_TRIANGLE,     /* dst = src, zeroed above diagonal `offset` (lower) or below it, in each matrix */
} DiagKind;

typedef struct DiagCall {
  DiagKind kind;
  const char *type;           /* C element type */
  int64_t offset;             /* the diagonal: above the main one when positive */
  const char *pad;            /* DIAG_EMBED: padding_value as a C literal of the type */
  const char *size;           /* DIAG_EMBED, DIAG_EMBED_GRAD: the square matrix's side */
  const char *w;              /* *EXTRACT*, TRIANGLE: the matrix's width */
  const char *len;            /* the diagonal's elements (EMBED_ND: all of x's) */
  const char *numel;          /* DIAG_EXTRACT_GRAD, TRACE, *_ND: dst's elements */
  const char *src, *dst;      /* read, written: X and Out, or Out@GRAD and X@GRAD */
  int rank;                   /* TRACE, SCATTER_ND: the view's dims; EMBED_ND: x's */
  const char *const *dims;    /* their extents */
  const char *const *strides; /* TRACE, SCATTER_ND: src's (dst's) strides along the view; EMBED_ND: Out's
                                 for each dim of x, the last one's along the diagonal */
  const char *start;          /* TRACE, *_ND: the view's first element */
  int64_t dlen;               /* TRACE, SCATTER_ND: the diagonal's length (<= 0: empty, only zeros written) */
  const char *scratch;        /* TRACE: the kernel scratch the diagonals are copied to */
  int per_elem;               /* SCATTER_ND: dout holds each diagonal element (diagonal_grad), not each diagonal */
  int lower;                  /* TRIANGLE: keep the lower triangle (tril), else the upper one */
  const char *h, *mats;       /* TRIANGLE: a matrix's height (w: its width), the matrices */
} DiagCall;

void diag_print_c(Printer *p, const DiagCall *c);

#endif

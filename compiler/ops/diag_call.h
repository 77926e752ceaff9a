/* One diag_v2 kernel as the lowering decided it, and its C printer.
 *
 * diag_v2 and its grad move a diagonal: diagonal `offset` of a row-major
 * matrix of width w starts at element offset (offset >= 0) or -offset * w
 * (below the main one) and steps w + 1.  The emitters (diag_v2.c) check
 * the tensors and fill one record: the kind, the C type, the offset, the
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
} DiagKind;

typedef struct DiagCall {
  DiagKind kind;
  const char *type;      /* C element type */
  int64_t offset;        /* the diagonal: above the main one when positive */
  const char *pad;       /* DIAG_EMBED: padding_value as a C literal of the type */
  const char *size;      /* *EMBED*: the square matrix's side */
  const char *w;         /* *EXTRACT*: the matrix's width */
  const char *len;       /* the diagonal's elements */
  const char *numel;     /* DIAG_EXTRACT_GRAD: dx's elements */
  const char *src, *dst; /* read, written: X and Out, or Out@GRAD and X@GRAD */
} DiagCall;

void diag_print_c(Printer *p, const DiagCall *c);

#endif

/* One per-row index kernel as the lowering decided it, and its C printer.
 *
 * index_sample and unpool (unpool3d) and their grads walk an index tensor
 * as [rows, len] and address, by each index, an element of the same row
 * of a second tensor viewed as [rows, span]: index_sample gathers from X
 * ([N, M]) and its grad adds back; unpool scatters X into the (n, c)
 * planes of a zeroed Out and its grad gathers back.  An index outside
 * [0, span), where Paddle raises an error, reads 0 or writes nothing.
 * The emitters (index_sample.c, unpool.c) check the tensors and fill one
 * record: the kind, the C types, the geometry as C expressions and the
 * buffers; plane_print_c prints the loops; another backend prints the same
 * records. */
#ifndef PADDLEC_OPS_PLANE_CALL_H
#define PADDLEC_OPS_PLANE_CALL_H

#include "ops.h"

typedef enum PlaneKind {
  PLANE_SAMPLE,      /* index_sample: out[i][j] = x[i][index[i][j]] */
  PLANE_SAMPLE_GRAD, /* dx = 0, dx[i][index[i][j]] += dout[i][j] in row-major order */
  PLANE_UNPOOL,      /* out = 0, out[p][index[p][i]] = x[p][i] in order */
  PLANE_UNPOOL_GRAD, /* dx[p][i] = dout[p][index[p][i]] */
} PlaneKind;

typedef struct PlaneCall {
  PlaneKind kind;
  const char *type, *index_type; /* C element types of the data and of the index */
  const char *rows;              /* the rows (index_sample) or (n, c) planes (unpool) */
  const char *len;               /* the index's elements per row: Index's dim 1, X's plane size */
  const char *span;              /* the indexed tensor's per row: X's dim 1, Out's (Out@GRAD's) plane size */
  const char *numel;             /* PLANE_SAMPLE_GRAD: X@GRAD's elements */
  const char *index;             /* Index, Indices */
  const char *src, *dst;         /* read, written: x and out, or dout and dx */
} PlaneCall;

void plane_print_c(Printer *p, const PlaneCall *c);

#endif

/* One scatter kernel (an index op's writes and the gathers' gradients) as
 * the lowering decided it, and its C printer.
 *
 * scatter writes rows of Updates into a copy of X at the rows Ids names;
 * scatter_grad splits Out@GRAD back; gather_grad / index_select_grad and
 * gather_nd_grad add rows (slices) of Out@GRAD into zeroed X@GRAD at the
 * positions the index names, in index order; scatter_nd_add adds slices of
 * Updates at the positions its index tuples name, and its grad gathers
 * them back.  An index outside the tensor, for which Paddle raises an
 * error, writes or adds nothing (reads zeros).  The emitters (gather.c,
 * scatter_nd_add.c) check the tensors and fill one record: the kind, the
 * element and index types, the buffers and the geometry as C expressions;
 * index_print_c prints the loops; another backend prints the same
 * records. */
#ifndef PADDLEC_OPS_INDEX_CALL_H
#define PADDLEC_OPS_INDEX_CALL_H

#include "ops.h"

typedef enum IndexKind {
  INDEX_SCATTER,             /* out (already X) rows ids[i] = (or +=) upd rows i */
  INDEX_SCATTER_GRAD,        /* dx = dout with rows ids zeroed; du rows i = dout rows ids[i] */
  INDEX_GATHER_GRAD,         /* dx [outer, n, inner] = 0, rows index[i] += dout blocks */
  INDEX_GATHER_ND_GRAD,      /* dx = 0, the slice each index tuple names += dout's slice */
  INDEX_SCATTER_ND_ADD,      /* out (already X): the slice each index tuple names += upd's slice */
  INDEX_SCATTER_ND_ADD_GRAD, /* du's slice i = the slice of dout tuple i names, 0 outside */
} IndexKind;

typedef struct IndexCall {
  IndexKind kind;
  const char *type, *index_type; /* C element types of the data and of the index */
  const char *index;             /* the index (Ids, Index) */
  const char *src;               /* SCATTER, SCATTER_ND_ADD: Updates; the grads: Out@GRAD */
  const char *dst;               /* SCATTER, SCATTER_ND_ADD: Out; the grads but SCATTER_ND_ADD_GRAD: X@GRAD
                                    (SCATTER_GRAD: NULL when not computed) */
  const char *dupd;              /* SCATTER_GRAD: Updates@GRAD, or NULL; SCATTER_ND_ADD_GRAD: Updates@GRAD */
  int overwrite;                 /* SCATTER: replace rows, else zero them and add */
  const char *count;             /* SCATTER, SCATTER_GRAD, GATHER_GRAD: index entries; SCATTER_ND*: tuples */
  const char *rows, *row;        /* SCATTER(_GRAD): the rows of dst and a row's elements; GATHER_ND_GRAD: rows */
  const char *outer, *n, *inner; /* GATHER_GRAD: dx as [outer, n, inner] */
  const char *numel;             /* GATHER_ND_GRAD: dx's elements */
  const char *slice;             /* GATHER_ND_GRAD, SCATTER_ND*: the elements a tuple addresses */
  int k;                         /* GATHER_ND_GRAD, SCATTER_ND*: the tuple's length */
  const char *const *dims;       /* GATHER_ND_GRAD, SCATTER_ND*: the first k dims of dx, of X */
} IndexCall;

void index_print_c(Printer *p, const IndexCall *c);

#endif

/* One index kernel (the gathers along an axis, one_hot, an index op's
 * writes and the gathers' gradients) as the lowering decided it, and its C
 * printer.
 *
 * gather / index_select copy the rows of X (as [outer, n, row]) Index
 * names (rt_gather); one_hot writes a 1 at each id's place in a zeroed Out;
 * scatter writes rows of Updates into a copy of X at the rows Ids names;
 * scatter_grad splits Out@GRAD back; gather_grad / index_select_grad and
 * gather_nd_grad add rows (slices) of Out@GRAD into zeroed X@GRAD at the
 * positions the index names, in index order; scatter_nd_add adds slices of
 * Updates at the positions its index tuples name, and its grad gathers
 * them back; bincount counts (or sums the weights of) each value of X
 * into a zeroed Out as long as X's largest value (BINCOUNT_SIZE finds
 * it, BINCOUNT counts); multiplex copies row i from candidate Ids[i], its
 * grad back.  An index outside the tensor, for which Paddle raises an
 * error, stops the run in the gathers (the kernel returns 1); elsewhere it
 * writes or adds nothing (reads zeros).  The emitters (gather.c,
 * one_hot.c, scatter_nd_add.c, bincount.c, multiplex.c) check the tensors and fill one record: the
 * kind, the element and index types, the buffers and the geometry as C
 * expressions; index_print_c prints the loops (GATHER: its runtime call,
 * through move_call.h); another backend prints the same records. */
#ifndef PADDLEC_OPS_INDEX_CALL_H
#define PADDLEC_OPS_INDEX_CALL_H

#include "ops.h"

typedef enum IndexKind {
  INDEX_GATHER,              /* out [outer, count, row] = src [outer, n, row] rows index[i] (rt_gather) */
  INDEX_ONE_HOT,             /* out [count, depth] = 0, out[i, index[i]] = 1 for index[i] in [0, depth) */
  INDEX_SCATTER,             /* out (already X) rows ids[i] = (or +=) upd rows i */
  INDEX_SCATTER_GRAD,        /* dx = dout with rows ids zeroed; du rows i = dout rows ids[i] */
  INDEX_GATHER_GRAD,         /* dx [outer, n, inner] = 0, rows index[i] += dout blocks */
  INDEX_GATHER_ND_GRAD,      /* dx = 0, the slice each index tuple names += dout's slice */
  INDEX_SCATTER_ND_ADD,      /* out (already X): the slice each index tuple names += upd's slice */
  INDEX_SCATTER_ND_ADD_GRAD, /* du's slice i = the slice of dout tuple i names, 0 outside */
  INDEX_BINCOUNT_SIZE,       /* the local `size` = max(largest index + 1, depth); a negative index returns 1 */
  INDEX_BINCOUNT,            /* out [numel] = 0, out[index[i]] += src ? src[i] : 1 */
  INDEX_MULTIPLEX,           /* out row i = list[index[i]] row i; an index outside the list returns 1 */
  INDEX_MULTIPLEX_GRAD,      /* list[k] = 0 (each not NULL), then list[index[i]] row i = src row i */
} IndexKind;

typedef struct IndexCall {
  IndexKind kind;
  const char *type, *index_type; /* C element types of the data and of the index */
  const char *index;             /* the index (Ids, Index; ONE_HOT: X) */
  int index_bytes;               /* GATHER: bytes of an index entry, 4 or 8 */
  const char *src;               /* GATHER: X; SCATTER, SCATTER_ND_ADD: Updates; the grads: Out@GRAD;
                                    BINCOUNT: the weights (C type wtype), or NULL */
  const char *wtype;
  const char *dst;               /* GATHER, ONE_HOT, SCATTER, SCATTER_ND_ADD: Out; the grads but
                                    SCATTER_ND_ADD_GRAD: X@GRAD (SCATTER_GRAD: NULL when not computed) */
  const char *dupd;              /* SCATTER_GRAD: Updates@GRAD, or NULL; SCATTER_ND_ADD_GRAD: Updates@GRAD */
  int overwrite;                 /* SCATTER: replace rows, else zero them and add */
  const char *count;             /* GATHER, ONE_HOT, SCATTER, SCATTER_GRAD, GATHER_GRAD, BINCOUNT*: index entries;
                                    SCATTER_ND*: tuples */
  const char *rows, *row;        /* SCATTER(_GRAD): the rows of dst and a row's elements; GATHER_ND_GRAD: rows;
                                    GATHER: row, a row's bytes */
  const char *outer, *n, *inner; /* GATHER: src as [outer, n, row]; GATHER_GRAD: dx as [outer, n, inner] */
  const char *numel;             /* ONE_HOT, BINCOUNT: out's elements; GATHER_ND_GRAD: dx's elements */
  const char *depth;             /* ONE_HOT: out's last dim (a constant, or the run's); BINCOUNT_SIZE: minlength */
  int out_of_range;              /* and 1: an id outside [0, depth) leaves its row zero (else the kernel
                                  * returns 1: Paddle raises) */
  const char *slice;             /* GATHER_ND_GRAD, SCATTER_ND*: the elements a tuple addresses */
  int k;                         /* GATHER_ND_GRAD, SCATTER_ND*: the tuple's length */
  const char *const *dims;       /* GATHER_ND_GRAD, SCATTER_ND*: the first k dims of dx, of X */
  const char *const *list;       /* MULTIPLEX: the candidates X (read); MULTIPLEX_GRAD: their X@GRAD (written,
                                    NULL when not computed); rows, row: each one as [rows, row] */
  int nlist;
} IndexCall;

void index_print_c(Printer *p, const IndexCall *c);

#endif

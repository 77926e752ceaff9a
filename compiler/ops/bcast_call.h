/* Broadcasting kernels as the lowering decided them, and their C printer.
 *
 * Two loop nests.  NumPy-style broadcasting (lerp, dist and its grad): the
 * inputs, right-aligned, repeat along their size-1 dims to one shape; the
 * loops run over that shape and each operand is read at its strides along
 * them (BcLoop, which bc_loop fills: the extents and strides as C
 * expressions).  A broadcast operand's gradient (bc_grad: elementwise
 * grads, lerp_grad and the fused grads whose forward broadcasts): the sum
 * of a term over the elements of the full shape that map to each element
 * of g, the loops collapsed over the dims along which every tensor moves
 * alike, split into tasks by g's rows when g varies along the outermost
 * (BcGrad; the emitter opens the task between BCAST_GRAD_OPEN and
 * BCAST_GRAD, em_task_begin, and closes it after, em_task_end).  The
 * emitters (bcast_util.c, dist.c, lerp.c) check the tensors and fill one
 * record; bcast_print_c prints the loops; another backend prints the same
 * records. */
#ifndef PADDLEC_OPS_BCAST_CALL_H
#define PADDLEC_OPS_BCAST_CALL_H

#include "ops.h"

enum {
  BC_MAX_IN = 16,     /* operands of a broadcast loop */
  BC_GRAD_MAX_IN = 8, /* tensors of a gradient loop, g included */
};

typedef enum BcastKind {
  BCAST_LERP,       /* out[o] = x + w * (y - x), x, y and w broadcast to out's shape */
  BCAST_DIST,       /* out[0] = the p-norm of x - y broadcast, summed in double */
  BCAST_DIST_GRAD,  /* dx, dy zeroed, then the p-norm's grad of each difference added to both (dy negated) */
  BCAST_GRAD_OPEN,  /* "{": a scope for the gradient task's arguments (a kernel may run several) */
  BCAST_GRAD,       /* the gradient task's body: g[j] = (sum of) term over full's elements that map to j */
  BCAST_GRAD_CLOSE, /* "}" */
} BcastKind;

/* Loops over a broadcast shape: one per dim but the size-1 ones. */
typedef struct BcLoop {
  int rank;                                   /* the broadcast shape's dims */
  const char *ext[RT_MAX_RANK];               /* their extents, outermost first ("1": no loop) */
  int n;                                      /* operands */
  const char *stride[BC_MAX_IN][RT_MAX_RANK]; /* operand k's stride along dim d ("0": broadcast along it) */
} BcLoop;

/* A broadcast gradient's loops: operands 0..n-1 read, operand n is g. */
typedef struct BcGrad {
  int n;                                    /* operands read */
  const char *ctype[BC_GRAD_MAX_IN];        /* their C types */
  const char *ptr[BC_GRAD_MAX_IN];          /* the names of their pointers (and g's at [n]) */
  const char *at[BC_GRAD_MAX_IN];           /* the pointers (g's at [n]) */
  const char *elem[BC_GRAD_MAX_IN];         /* the names of their elements, loaded in the loops */
  const char *gtype;                        /* g's C type (float or double) */
  int nd;                                   /* collapsed loop dims, i<d>; n<d> = ext[d] for d >= 1 */
  const char *ext[RT_MAX_RANK];             /* their extents */
  int varies[RT_MAX_RANK][BC_GRAD_MAX_IN];  /* whether tensor k (g at n) moves along dim d */
  int split;                                /* tasks own rows of g (lo, hi: rows of dim 0); else one task */
  int reduce;                               /* g is broadcast along a dim: it starts at 0 and sums */
  const char *gnumel;                       /* reduce without split: g's elements */
  const char *body;                         /* statements before the term, per element (lines; NULL: none) */
  const char *term;                         /* the value added to (or stored in) g's element */
} BcGrad;

typedef struct BcastCall {
  BcastKind kind;
  int dtype;                /* LERP, DIST*: the element type (float32 or float64) */
  float p;                  /* DIST*: porder */
  BcLoop loop;              /* LERP, DIST*: the loops; operands x, y (, w) */
  const char *x, *y, *w;    /* LERP, DIST*: the inputs (DIST_GRAD: NULL when it only zeroes) */
  const char *out;          /* LERP, DIST: written; DIST_GRAD: the norm, read */
  const char *dout;         /* DIST_GRAD: Out@GRAD */
  const char *dx, *dy;      /* DIST_GRAD: the grads written (NULL: not wanted) */
  const char *dx_numel, *dy_numel; /* DIST_GRAD: their elements */
  BcGrad grad;              /* GRAD */
} BcastCall;

void bcast_print_c(Printer *p, const BcastCall *c);

#endif

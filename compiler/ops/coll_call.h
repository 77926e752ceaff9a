/* One collective call between processes as the lowering decided it, and
 * its C printer.
 *
 * The emitters of the c_* collective ops (collective.c) check the ring and
 * the attributes and fill one record: which collective, the buffer, its
 * elements and dtype, the combining op and the root (the set-up ops, done
 * by MPI, a record of their own: a note).  coll_print_c is the
 * only code that spells the runtime's collectives (rt_coll_reduce,
 * rt_coll_broadcast, rt_coll_allgather: runtime/rt_collective.h); another
 * backend prints the same records. */
#ifndef PADDLEC_OPS_COLL_CALL_H
#define PADDLEC_OPS_COLL_CALL_H

#include "ops.h"

typedef enum CollKind {
  COLL_REDUCE,    /* data combined with op over the processes, into every process's (root < 0) or root's */
  COLL_BROADCAST, /* root's data to every process */
  COLL_ALLGATHER, /* every process's data, in rank order, into out (after a note of nranks) */
  COLL_NONE,      /* a communicator's set-up: nothing to do under MPI, a note naming the op */
} CollKind;

typedef struct CollCall {
  CollKind kind;
  const char *data;  /* REDUCE, BROADCAST: in place; ALLGATHER: this process's part */
  const char *out;   /* ALLGATHER: the parts of every process */
  const char *count; /* elements of data (C expression) */
  int dtype;         /* RT_DT_* of an element */
  int op;            /* REDUCE: RT_COLL_SUM, _MAX, _MIN or _PROD */
  int root;          /* REDUCE (-1: every process), BROADCAST: a process number */
  long long nranks;  /* ALLGATHER: the processes the op expects (the trainer checks them) */
  const char *op_type; /* NONE: the op's type */
} CollCall;

void coll_print_c(Printer *p, const CollCall *c);

#endif

/* The dependency graph of a model's kernels, emitted with them for the
 * run-time scheduler (runtime/rt_sched.h).
 *
 * Kernel j depends on an earlier kernel i when they touch the same memory
 * and one of them writes it: j reads what i wrote (data), j overwrites what
 * i read (write-after-read: the arena reuse memory_optimize and
 * enable_inplace introduce, a shared slot), or j overwrites what i wrote.
 * Memory is an arena region [offset, offset + bytes) (affine in the batch;
 * two regions conflict when they overlap at any batch >= 1), a parameter or
 * a feed.  The kept edges are the transitive reduction: i -> j is dropped
 * when a path through other kernels already orders them. */
#ifndef PADDLEC_DEPS_H
#define PADDLEC_DEPS_H

#include "graph.h"
#include "plan.h"

typedef struct Deps {
  int n;         /* kernels */
  int *npred;    /* direct predecessors of each */
  int *pred_off; /* n + 1 offsets into pred */
  int *pred;     /* each kernel's direct predecessors, ascending */
  int *succ_off; /* n + 1 offsets into succ */
  int *succ;     /* each kernel's direct successors, ascending */
} Deps;

/* The graph of kernels ops[0..n) (program order) of g under plans
 * pls[0..npl) (one, or a model's size classes, whose buffers have the same
 * numbers: memory conflicts under any).  Ops that draw from the global
 * generator (op_global_rng) are ordered among themselves as in the
 * program; so are collectives (OpDef.collective). */
void deps_build(const Graph *g, const Plan *const *pls, int npl, const Op *const *ops, int n, Deps *d);
/* The tables for generated code: `static const int32_t P_npred[]`, ... and
 * the RtGraph `P_graph`. */
const char *deps_tables(const Deps *d, const char *prefix);
/* The longest chain of dependent kernels (1 for one kernel, 0 for none). */
int deps_depth(const Deps *d);

#endif

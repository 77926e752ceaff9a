/* The op scheduler: runs a model's kernels in dependency order, several at
 * once (ExecutionStrategy.num_threads).
 *
 * The compiler emits, with the kernels, the graph of their dependencies:
 * kernel k may start once every kernel it depends on has finished, namely
 * those whose writes it reads (data), whose reads it overwrites
 * (write-after-read, which includes the arena reuse of memory_optimize and
 * enable_inplace) and whose writes it overwrites.  Program order is one
 * order that respects them all.
 *
 * rt_graph_run runs the graph on the calling thread's pool (rt_pool_enter):
 * at most max_ops kernels at once, each started by a thread of the pool that
 * had nothing else to do, the ready kernel that comes first in program
 * order first.  Threads with no kernel to start help with the tasks of the
 * running ones (rt_parallel), so kernels and their tasks together never use
 * more threads than the pool has.  Each running kernel gets a scratch slot,
 * a number below max_ops that no other running kernel holds.  With one
 * kernel at a time, no pool, or a one-thread pool, the kernels run on the
 * calling thread in program order.  The results never depend on the order:
 * every kernel computes the same values whichever thread runs it, and the
 * graph keeps every two kernels that touch the same memory in program
 * order. */
#ifndef PADDLEC_RT_SCHED_H
#define PADDLEC_RT_SCHED_H

#include <stdint.h>

/* Kernel k waits for npred[k] kernels; when it finishes, each kernel in
 * succ[succ_off[k] .. succ_off[k + 1]) has one fewer to wait for. */
typedef struct RtGraph {
  int32_t n;               /* kernels */
  const int32_t *npred;    /* n */
  const int32_t *succ_off; /* n + 1 */
  const int32_t *succ;     /* succ_off[n] */
} RtGraph;

/* Runs kernel k with scratch slot `slot`; returns 0 or a status. */
typedef int (*RtOpFn)(void *ctx, int32_t k, int slot);

/* Runs every kernel of g, at most max_ops at once; `work` holds 2 * n ints
 * for the scheduler.  After a kernel fails, no new kernel starts; the status
 * returned is that of the failed kernel first in program order (0 if none). */
int rt_graph_run(const RtGraph *g, int max_ops, RtOpFn fn, void *ctx, int32_t *work);

#endif

/* The sub-blocks of control-flow ops as the rest of the compiler sees them.
 *
 * A `while` or `conditional_block` of block 0 becomes one kernel: a C loop
 * or branch around the kernels of its sub-block's ops (ops/control_flow.c).
 * Memory planning, the kernels' dependencies and the checks see that kernel
 * as touching every var its sub-block's ops touch (recursively): the
 * sub-block's own vars live while the kernel runs, and the outer vars it
 * reads or writes order it against the other kernels as its own operands. */
#ifndef PADDLEC_SUBBLOCK_H
#define PADDLEC_SUBBLOCK_H

#include "graph.h"

/* 1 when op runs a sub-block that paddlec compiles (while,
 * conditional_block, conditional_block_infer). */
int op_runs_block(const Graph *g, const Op *op);

/* Calls fn(ctx, var, write) for every var op reads (write 0) or writes
 * (write 1) in its own slots, then for those of its sub-block's ops,
 * recursively; vars that are neither dense tensors nor tensor arrays (a
 * while's StepScopes) are skipped. */
void op_each_var(const Graph *g, const Op *op, void (*fn)(void *ctx, int var, int write), void *ctx);

/* 1 when some op of op's sub-block (recursively) satisfies pred. */
int op_block_any(const Graph *g, const Op *op, int (*pred)(const Graph *g, const Op *op));

/* 1 when the ops of block b are compiled: block 0, or the sub-block of a
 * control-flow op with a C emitter in a compiled block. */
int block_compiled(const Graph *g, int b);

#endif

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
 * conditional_block, conditional_block_infer, conditional_block_grad,
 * recurrent). */
int op_runs_block(const Graph *g, const Op *op);

/* The var block `block` itself declares named `name` (not a parent's:
 * graph_find_var looks further), or NULL. */
const Var *block_own_var(const Graph *g, int block, const char *name);

/* recurrent (StaticRNN): how its step block's vars link to the outer ones
 * (Paddle's RecurrentOp links by name).  Step input k is the sub-block's
 * var of outer `inputs`[k]'s name, one time step of it; ex-state k is the
 * sub-block's var ex_states[k], initial_states[k] at the first step and
 * the sub-block's var states[k] of the step before after it; output k is
 * the sub-block's var of outer `outputs`[k]'s name, the outer one holding
 * every step's ([T] ++ its dims). */
typedef struct StepLinks {
  int nin, nstate, nout;
  const int *in_outer, *in_inner;           /* the step inputs */
  const int *init, *ex_state, *state;       /* the states */
  const int *out_outer, *out_inner;         /* the outputs */
} StepLinks;
/* The links of recurrent op `op`; -1 with *why when a name does not
 * resolve to a var of the sub-block (a StaticRNN file declares each). */
int step_links(const Graph *g, const Op *op, StepLinks *l, const char **why);

/* Calls fn(ctx, var, write) for every var op reads (write 0) or writes
 * (write 1) in its own slots, then for those of its sub-block's ops,
 * recursively; vars that are neither dense tensors nor tensor arrays (a
 * while's StepScopes) are skipped.  A recurrent op writes its step inputs
 * and ex-states before its sub-block's ops and reads its inner outputs and
 * states after them (StepLinks). */
void op_each_var(const Graph *g, const Op *op, void (*fn)(void *ctx, int var, int write), void *ctx);

/* 1 when some op of block b at positions [from, to) of its list writes
 * var v (op_each_var: its sub-blocks' ops too). */
int block_writes(const Graph *g, const Block *b, int from, int to, int v);

/* 1 when some op of op's sub-block (recursively) satisfies pred. */
int op_block_any(const Graph *g, const Op *op, int (*pred)(const Graph *g, const Op *op));

/* The while_grad of while op w (the op of w's block, or of its grad
 * block for a loop inside a trained loop, reading the StepScopes var w
 * writes), or NULL. */
const Op *while_steps_grad(const Graph *g, const Op *w);

/* 1 when block b is block `root` or nested in it (parents, not forward
 * blocks). */
int block_inside(const Graph *g, int b, int root);

/* 1 when the ops of block b are compiled: block 0, or the sub-block of a
 * control-flow op with a C emitter in a compiled block. */
int block_compiled(const Graph *g, int b);

#endif

/* What a training program's `while` keeps of each iteration for its
 * while_grad (Paddle's step scopes).
 *
 * Paddle's WhileOp, when not is_test, runs every iteration in a fresh step
 * scope: the vars the loop body declares live there, and each outer var of
 * X that the body writes (but no body op reads and writes in place, and no
 * parameter) is copied into it as it was when the iteration began.
 * WhileGradOp then runs the grad block once per step scope, the last
 * iteration first, reading those values.
 *
 * paddlec plans each var once, so the loop keeps a copy of each such var
 * the grad block reads (its "step var"): a tensor array of [L, its dims]
 * (L the iterations the compiler counts, array_len.h; one more slot for an
 * outer var, which while_grad gives back its value after the loop), the
 * while op's output `StepValues`, written at the start (an outer var) or
 * end (a body var) of every iteration, and the number of iterations run,
 * `StepCount` (int64 [1]).  while_grad reads both (inputs `StepValues`,
 * `StepCount`) and writes each step var back before each run of the grad
 * block (output `StepVars`, StepValues[k] holding StepVars[k]).
 *
 * The pairs are found by the StepScopes var the while writes and the
 * while_grad reads (while_steps_grad, subblock.h); a while_grad without its
 * while is left alone (code generation refuses it).  A loop inside a
 * trained loop's body (its while_grad inside the outer grad block) is
 * paired first, its kept arrays and count in the outer body's block: the
 * outer loop keeps them as step vars of its own, one copy per outer
 * iteration (Paddle's step scopes nested), and leaves the inner body's
 * vars to the inner loop.  The grad block's own
 * vars named as an Out@GRAD are the outer one (Paddle shares the outer
 * tensor or array into each step scope under that name). */
#ifndef PADDLEC_WHILE_STEPS_H
#define PADDLEC_WHILE_STEPS_H

#include "graph.h"

/* Adds the slots and arrays above to every while / while_grad pair of
 * block 0; returns how many pairs.  Run before inference. */
int while_steps_link(Graph *g);

#endif

/* If-conversion of small conditional blocks (the learning-rate schedules of
 * fluid training programs).
 *
 * fluid's piecewise_decay, linear_lr_warmup, polynomial_decay(cycle) and
 * PaddleOCR's cosine warmup write their schedule as `conditional_block`
 * ops whose sub-blocks compute a few scalars and assign the learning rate.
 * Such a block is run unconditionally here, in block 0 where the
 * conditional_block was, and its effect kept only when the condition holds:
 * every var of block 0 that the sub-block writes and that held a value
 * before (state, or written earlier) is written into a fresh var instead,
 * then `select_input(X = [old, new], Mask = int32(Cond))` puts the chosen
 * value back.  A var that held nothing before keeps the branch's value
 * (Paddle leaves it unset when the branch is not taken; the only reader
 * Python's front end writes, select_input, picks it only when it was).
 *
 * A block qualifies when its condition is a scalar (is_scalar_condition),
 * it holds no block of its own and no random op (an op with a `seed`
 * attribute: running it when Paddle does not would move the generator), and
 * every tensor it touches is a dense tensor of at most COND_INLINE_MAX
 * elements with known dims, so running it costs nothing and cannot fault.
 * Others stay as they are, refused by code generation (issue 19 brings
 * run-time control flow). */
#ifndef PADDLEC_COND_INLINE_H
#define PADDLEC_COND_INLINE_H

#include "graph.h"

#define COND_INLINE_MAX 64

/* Inlines every qualifying conditional_block of block 0; returns how many. */
int cond_inline(Graph *g);

#endif

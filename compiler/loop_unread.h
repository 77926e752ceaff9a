/* Loop-carried vars no op reads.
 *
 * Paddle 2.x's dy2static writes `for k in range(n)` over a tensor n as a
 * `while` whose body assigns k (int64 []) to a var it created before the
 * loop as a placeholder (`undefined_var_0`, float32 [1] from
 * assign_value), listed in the while's X and Out.  When nothing reads that
 * var -- not the body, not the condition, nothing after the loop -- its
 * value is never used and Paddle's change of its dtype and shape from one
 * iteration to the next is invisible; paddlec plans each var once, with one
 * dtype and shape, and would refuse the loop.  loop_drop_unread gives each
 * such write in the body a var of the body's own (of the same name, so the
 * body's kernels read as before) and takes the outer var out of the
 * while's X and Out.  Training programs keep their loops as written: the
 * while_grad reads every Out, so no Out of a trained loop qualifies. */
#ifndef PADDLEC_LOOP_UNREAD_H
#define PADDLEC_LOOP_UNREAD_H

#include "graph.h"

/* Rewrites every while of g as above; the number of vars dropped. */
int loop_drop_unread(Graph *g);

#endif

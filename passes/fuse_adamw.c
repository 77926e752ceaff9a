/* fuse_adamw: one AdamW update for every parameter (BuildStrategy.fuse_adamw;
 * Paddle's fused_adam with use_adamw, a multi-tensor kernel).  The adamw
 * ops with the same attributes and learning rate merge into one adamw op
 * whose kernel updates each parameter with the loop of the op it replaces
 * (optimizer.c's merged ops): the same floats.
 *
 * Requires and invalidates: as fuse_all_optimizer_ops (fuse_optimizer_ops).
 *
 * float64 optimizer ops merge too: the merged kernel prints each
 * parameter's update for its own dtype (optimizer.c). */
#include "fuse_util.h"
#include "pass.h"

int pass_fuse_adamw(Graph *g, PassCtx *c) {
  static const char *const types[] = {"adamw", NULL};
  fuse_optimizer_ops(g, types, &c->changes);
  return 0;
}

/* fuse_all_optimizer_ops: one optimizer op per optimizer type
 * (BuildStrategy.fuse_all_optimizer_ops; Paddle's fuse_sgd_op_pass,
 * fuse_momentum_op_pass, fuse_adam_op_pass).  Paddle coalesces the
 * parameters, gradients and accumulators of the ops of one type into
 * contiguous buffers and runs one op on them; paddlec keeps every tensor
 * where it is and merges the ops into one op of that type whose kernel
 * updates every parameter (optimizer.c's merged ops), each with the loop of
 * the op it replaces: the same floats.
 *
 * Types: every optimizer paddlec compiles but adamw, which
 * BuildStrategy.fuse_adamw merges.  Requires: the ops of a group have the
 * same attributes and shared inputs (LearningRate, ...) and nothing between
 * them depends on their order (fuse_optimizer_ops).  Invalidates: the
 * merged ops (removed).
 *
 * float64 optimizer ops merge too: the merged kernel prints each
 * parameter's update for its own dtype (optimizer.c). */
#include "fuse_util.h"
#include "pass.h"

int pass_fuse_all_optimizer_ops(Graph *g, PassCtx *c) {
  static const char *const types[] = {"adadelta", "adagrad", "adam",    "adamax", "lamb",
                                      "momentum", "rmsprop", "sgd",     NULL};
  fuse_optimizer_ops(g, types, &c->changes);
  return 0;
}

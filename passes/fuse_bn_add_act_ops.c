/* fuse_bn_add_act_ops: an inference batch_norm, the addition of a tensor of
 * its shape and an activation become one fused_bn_add_activation: one loop
 * computing act(x * scale[c] + shift[c] + z) (Paddle's
 * fuse_bn_add_act_pass; BuildStrategy.fuse_bn_add_act_ops, on by default in
 * Paddle).  It takes the residual joins of networks whose batch_norms no
 * convolution absorbed.
 *
 * Requires: fuse_bn_inference (fuse_util.h); Y read by the add alone and the
 * sum by the activation alone, neither fetched; the other addend of Y's
 * exact shape; the activation a fusible unary op (ops.h), its attributes
 * copied with act_type = its type.  Invalidates: the three ops (removed). */
#include <string.h>

#include "fuse_util.h"
#include "ops/ops.h"
#include "pass.h"
#include "rewrite.h"
#include "util.h"

static int fuse_one(Graph *g, int bn) {
  if (!fuse_bn_inference(g, bn)) return 0;
  int y = rw_out(g, bn, "Y"), add = fuse_next(g, y), z;
  if (add < 0 || !fuse_same_shape_add(g, add, y, &z)) return 0;
  int act = fuse_next(g, rw_out(g, add, "Out"));
  if (act < 0 || !unary_fusible(g, &g->ops[act])) return 0;
  int f = rw_new_op(g, "fused_bn_add_activation", act, 0);
  rw_copy_attrs(g, f, bn);
  rw_copy_attrs(g, f, act);
  rw_attr_str(g, f, "act_type", g->ops[act].type);
  fuse_copy_bn_inputs(g, f, bn);
  rw_set_slot(g, f, 0, "Z", &z, 1);
  int out = rw_out(g, act, "Out");
  rw_set_slot(g, f, 1, "Y", &out, 1);
  int chain[3] = {bn, add, act};
  rw_fuse(g, f, chain, 3);
  return 1;
}

int pass_fuse_bn_add_act_ops(Graph *g, PassCtx *c) {
  rw_each_op(g, &c->changes, fuse_one);
  return 0;
}

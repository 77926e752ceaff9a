/* fuse_bn_act_ops: an inference batch_norm and the activation after it
 * become one fused_batch_norm_act: one loop computing
 * act(x * scale[c] + shift[c]) (Paddle's fuse_bn_act_pass;
 * BuildStrategy.fuse_bn_act_ops).  It takes the batch_norms that
 * fold_batch_norm could not fold into a convolution (e.g. DenseNet's
 * batch_norm -> relu -> conv).
 *
 * Requires: fuse_bn_inference (fuse_util.h); Y read by the activation alone
 * and not fetched; the activation a fusible unary op (ops.h), whose
 * attributes are copied onto the fused op with act_type = its type.
 * Invalidates: the two ops (removed). */
#include <string.h>

#include "fuse_util.h"
#include "ops/ops.h"
#include "pass.h"
#include "rewrite.h"
#include "util.h"

static int fuse_one(Graph *g, int bn) {
  if (!fuse_bn_inference(g, bn)) return 0;
  int act = fuse_next(g, rw_out(g, bn, "Y"));
  if (act < 0 || !unary_fusible(g, &g->ops[act])) return 0;
  int f = rw_new_op(g, "fused_batch_norm_act", act, 0);
  rw_copy_attrs(g, f, bn);
  rw_copy_attrs(g, f, act);
  rw_attr_str(g, f, "act_type", g->ops[act].type);
  fuse_copy_bn_inputs(g, f, bn);
  int y = rw_out(g, act, "Out");
  rw_set_slot(g, f, 1, "Y", &y, 1);
  int chain[2] = {bn, act};
  rw_fuse(g, f, chain, 2);
  return 1;
}

int pass_fuse_bn_act_ops(Graph *g, PassCtx *c) {
  rw_each_op(g, &c->changes, fuse_one);
  return 0;
}

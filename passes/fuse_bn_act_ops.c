/* fuse_bn_act_ops: a batch_norm and the activation after it become one
 * fused_batch_norm_act (Paddle's fuse_bn_act_pass;
 * BuildStrategy.fuse_bn_act_ops).
 *
 * At inference: one loop computing act(x * scale[c] + shift[c]).  It takes
 * the batch_norms that fold_batch_norm could not fold into a convolution
 * (e.g. DenseNet's batch_norm -> relu -> conv).  Requires:
 * fuse_bn_inference (fuse_util.h).
 *
 * In training (the batch's statistics): the fused op keeps every output of
 * the batch_norm (the statistics the grad reads, the running ones) and runs
 * batch_norm's training kernel, then the activation over Y in place.  Its
 * backward fuses as Paddle's pass fuses it:
 *
 *   <act>_grad(Out, Out@GRAD) -> d;  batch_norm_grad(X, ..., Y@GRAD = d)
 *     -> fused_batch_norm_act_grad(X, Scale, Bias, Y = Out, SavedMean,
 *        SavedVariance, Y@GRAD = Out@GRAD) -> X@GRAD, Scale@GRAD, Bias@GRAD
 *
 * when Out is a training fused_batch_norm_act's Y with that op's X and
 * statistics, the act grad reads Out alone (relu, tanh, sigmoid, ...:
 * Paddle's pass takes relu), d is read by the batch_norm_grad alone and not
 * fetched, and the batch_norm_grad uses the batch's statistics.  The fused
 * kernels compute the floats of the ops they replace.
 *
 * Both: Y read by the activation alone (so by no grad op) and not fetched;
 * the activation a fusible unary op (ops.h), whose attributes are copied
 * onto the fused op with act_type = its type.  Invalidates: the fused ops
 * (removed). */
#include <string.h>

#include "attr.h"
#include "fuse_util.h"
#include "ops/ops.h"
#include "pass.h"
#include "rewrite.h"
#include "util.h"

static int fuse_one(Graph *g, int bn) {
  const int train = fuse_bn_training(g, bn);
  if (!train && !fuse_bn_inference(g, bn)) return 0;
  int act = fuse_next(g, rw_out(g, bn, "Y"));
  if (act < 0 || !unary_fusible(g, &g->ops[act])) return 0;
  int f = rw_new_op(g, "fused_batch_norm_act", act, 0);
  rw_copy_attrs(g, f, bn);
  rw_copy_attrs(g, f, act);
  rw_attr_str(g, f, "act_type", g->ops[act].type);
  fuse_copy_bn_inputs(g, f, bn);
  int y = rw_out(g, act, "Out");
  rw_set_slot(g, f, 1, "Y", &y, 1);
  static const char *const stats[] = {"MeanOut", "VarianceOut", "SavedMean", "SavedVariance", "ReserveSpace"};
  for (int i = 0; train && i < 5; i++) {
    int v = rw_out(g, bn, stats[i]);
    if (v >= 0) rw_set_slot(g, f, 1, stats[i], &v, 1);
  }
  int chain[2] = {bn, act};
  rw_fuse(g, f, chain, 2);
  return 1;
}

/* <act>_grad + batch_norm_grad of a training fused_batch_norm_act -> one
 * fused_batch_norm_act_grad. */
static int fuse_grad(Graph *g, int ag) {
  const Op *a = &g->ops[ag];
  size_t n = strlen(a->type);
  if (n < 6 || strcmp(a->type + n - 5, "_grad") || !unary_grad_out_only(a)) return 0;
  int out = rw_in(g, ag, "Out"), dout = rw_in(g, ag, "Out@GRAD"), d = rw_out(g, ag, "X@GRAD");
  int f = out >= 0 ? g->vars[out].producer : -1;
  if (dout < 0 || d < 0 || !fuse_is(g, f, "fused_batch_norm_act") || op_bn_running_stats(&g->ops[f])) return 0;
  const char *act = attr_str(&g->ops[f], "act_type", "");
  if (strlen(act) != n - 5 || strncmp(act, a->type, n - 5)) return 0;
  int bg = fuse_next(g, d);
  if (!fuse_is(g, bg, "batch_norm_grad") || rw_in(g, bg, "Y@GRAD") != d) return 0;
  const Op *b = &g->ops[bg];
  if (attr_bool(b, "is_test", 0) || attr_bool(b, "use_global_stats", 0)) return 0;
  static const char *const same[][2] = {{"X", "X"}, {"SavedMean", "SavedMean"}, {"SavedVariance", "SavedVariance"}};
  for (int i = 0; i < 3; i++) {
    int v = rw_in(g, bg, same[i][0]);
    if (v < 0 || v != (i ? rw_out(g, f, same[i][1]) : rw_in(g, f, same[i][1]))) return 0;
  }
  int fg = rw_new_op(g, "fused_batch_norm_act_grad", bg, 0);
  rw_copy_attrs(g, fg, bg);
  rw_copy_attrs(g, fg, ag);
  rw_attr_str(g, fg, "act_type", act);
  fuse_bn_grad_slots(g, fg, bg, out, dout, 0);
  int chain[2] = {ag, bg};
  rw_fuse(g, fg, chain, 2);
  return 1;
}

int pass_fuse_bn_act_ops(Graph *g, PassCtx *c) {
  rw_each_op(g, &c->changes, fuse_one);
  rw_each_op(g, &c->changes, fuse_grad);
  return 0;
}

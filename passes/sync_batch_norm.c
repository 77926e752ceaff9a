/* sync_batch_norm (BuildStrategy.sync_batch_norm; Paddle's
 * sync_batch_norm_pass swaps batch_norm for its GPU-only sync_batch_norm
 * op): on a trainer's places, each training batch_norm takes its statistics
 * over the whole batch, every place's rows, and its grad the sums of every
 * place.  On CPU places and processes, as paddlec runs them:
 *
 *   batch_norm(X, ...)
 *     -> batch_norm_sums(X) -> S;  place_sum(S) -> S;
 *        batch_norm(X, ..., Sums = S)           (mean, E[x^2] - mean^2 from S)
 *   batch_norm_grad(X, Y@GRAD, SavedMean, SavedVariance, ...)
 *     -> batch_norm_grad_sums(X, Y@GRAD, SavedMean, SavedVariance) -> G;
 *        place_sum(G) -> G;
 *        batch_norm_grad(..., Sums = G, Count = S)
 *
 * (compiler/ops/sync_batch_norm.c; a place_sum is where the places stop and
 * sum, templates/places.c.in).  On one place the sums are the place's own:
 * batch_norm's numbers but for the variance's formula.  Scale@GRAD and
 * Bias@GRAD stay each place's own, summed with the other gradients after.
 * Runs before the batch_norm fusions, which leave a synced batch_norm
 * alone (fuse_bn_training).  float64 batch_norms are synced the same way,
 * their kernels the _f64 ones (the sums are double for both, as Paddle's
 * GPU kernel keeps a double op's). */
#include <string.h>

#include "attr.h"
#include "fuse_util.h"
#include "ops/ops.h"
#include "pass.h"
#include "rewrite.h"
#include "util.h"

/* A new op `type` before op `at` reading `vars` in `slots` and writing
 * `out` to Out, with `at`'s data_layout (but a place_sum). */
static void add_op(Graph *g, const char *type, int at, const char *const *slots, const int *vars, int n, int out) {
  const char *layout = attr_str(&g->ops[at], "data_layout", "NCHW");
  int id = rw_new_op(g, type, at, 0);
  for (int i = 0; i < n; i++) rw_set_slot(g, id, 0, slots[i], &vars[i], 1);
  rw_set_slot(g, id, 1, "Out", &out, 1);
  if (strcmp(type, "place_sum")) rw_attr_str(g, id, "data_layout", layout);
}

/* The channel count of batch_norm `bn`'s X, or -1. */
static int64_t channels(const Graph *g, int bn) {
  const Shape *s = &g->vars[rw_in(g, bn, "X")].shape;
  if (s->rank < 2) return -1;
  const int nhwc = !strcmp(attr_str(&g->ops[bn], "data_layout", "NCHW"), "NHWC");
  return s->d[nhwc ? s->rank - 1 : 1];
}

/* A batch_norm with its batch's statistics (training), float32 or float64,
 * not synced yet.  Not fuse_bn_training, which takes float32 alone and no
 * MomentumTensor (Paddle 2.6's kernels ignore it, norm.c, so a batch_norm
 * with one is synced like any other: left alone it would normalize each
 * place by its own rows). */
static int synced_bn(const Graph *g, int id) {
  if (!fuse_is(g, id, "batch_norm") || op_bn_running_stats(&g->ops[id]) || rw_in(g, id, "Sums") >= 0) return 0;
  const int x = rw_in(g, id, "X");
  return x >= 0 && (g->vars[x].dtype == RT_DT_FP32 || g->vars[x].dtype == RT_DT_FP64);
}

static int sync_one(Graph *g, int bn) {
  if (!synced_bn(g, bn)) return 0;
  const int64_t ch = channels(g, bn);
  const int x = rw_in(g, bn, "X"), saved = rw_out(g, bn, "SavedMean");
  if (ch < 0 || saved < 0) return 0;
  const Shape ss = {1, {2 * ch + 1}}, gs = {1, {2 * ch}};
  const int s = rw_new_var(g, pool_printf("%s.sync_sums", g->vars[x].name), RT_DT_FP64, &ss);
  static const char *const xs[] = {"X"};
  add_op(g, "batch_norm_sums", bn, xs, &x, 1, s);
  add_op(g, "place_sum", bn, xs, &s, 1, s);
  rw_set_slot(g, bn, 0, "Sums", &s, 1);
  /* its grad: the batch_norm_grad that reads this SavedMean */
  const Var *sm = &g->vars[saved];
  for (int u = 0; u < sm->nusers; u++) {
    const int gr = sm->users[u];
    if (strcmp(g->ops[gr].type, "batch_norm_grad") || g->ops[gr].removed) continue;
    static const char *const ins[] = {"X", "Y@GRAD", "SavedMean", "SavedVariance"};
    int vars[4];
    for (int i = 0; i < 4; i++) vars[i] = rw_in(g, gr, ins[i]);
    if (vars[1] < 0 || vars[3] < 0) continue;
    const int gsum = rw_new_var(g, pool_printf("%s.sync_grad_sums", g->vars[x].name), RT_DT_FP64, &gs);
    add_op(g, "batch_norm_grad_sums", gr, ins, vars, 4, gsum);
    add_op(g, "place_sum", gr, xs, &gsum, 1, gsum);
    rw_set_slot(g, gr, 0, "Sums", &gsum, 1);
    rw_set_slot(g, gr, 0, "Count", &s, 1);
  }
  return 1;
}

int pass_sync_batch_norm(Graph *g, PassCtx *c) {
  rw_each_op(g, &c->changes, sync_one);
  return 0;
}

/* fused_feedforward: the feed-forward block of a Transformer layer becomes
 * one fused_feedforward op: two GEMMs whose epilogues add the biases, the
 * activation and the residual, then the layer_norm in place
 * (BuildStrategy.fused_feedforward).
 *
 *   h = act(matmul_v2(x, W1) + b1) [dropout]
 *   y = matmul_v2(h, W2) [+ b2] [dropout] + residual [layer_norm]
 *
 * Requires: each intermediate read by the next op alone and not fetched; W1
 * and W2 2-D parameters, b1 and b2 parameters along the last dim; the
 * activation one the GEMM epilogue computes (fuse_util.h); the dropouts
 * identities at inference; the residual of y's shape (a feed-forward block
 * without one is left to fuse_gemm_epilogue); a final layer_norm over the
 * last dim with unread Mean and Variance.  Invalidates: the ops (removed). */
#include <string.h>

#include "attr.h"
#include "fuse_util.h"
#include "pass.h"
#include "rewrite.h"
#include "util.h"

/* matmul_v2 (no transposes) of x by a 2-D parameter: the parameter. */
static int linear(const Graph *g, int id, int x) {
  if (!fuse_is(g, id, "matmul_v2") || rw_in(g, id, "X") != x || attr_bool(&g->ops[id], "trans_x", 0) ||
      attr_bool(&g->ops[id], "trans_y", 0))
    return -1;
  int w = rw_in(g, id, "Y");
  return rw_is_param(g, w) && g->vars[w].shape.rank == 2 && g->vars[w].dtype == RT_DT_FP32 ? w : -1;
}

typedef struct Chain {
  int ops[12], n; /* the pattern's ops, in order */
  int v;          /* the current value */
  int next;       /* its sole reader */
} Chain;

static void step(const Graph *g, Chain *c, int op, const char *out) {
  c->ops[c->n++] = op;
  c->v = rw_out(g, op, out);
  c->next = fuse_next(g, c->v);
}

static int fuse_one(Graph *g, int mm1) {
  int x = rw_in(g, mm1, "X"), w1 = x >= 0 ? linear(g, mm1, x) : -1;
  if (w1 < 0 || g->vars[x].dtype != RT_DT_FP32) return 0;
  const int r = g->vars[x].shape.rank;
  Chain c = {.n = 0};
  step(g, &c, mm1, "Out");
  int b1 = -1, b2 = -1, res, w2;
  if (c.next < 0 || !fuse_channel_param(g, c.next, c.v, r - 1, g->vars[w1].shape.d[1], &b1)) return 0;
  step(g, &c, c.next, "Out");
  FuseAct act;
  if (!fuse_act_of(g, c.next, &act)) return 0;
  step(g, &c, c.next, "Out");
  while (c.n < 8 && fuse_identity_dropout(g, c.next)) step(g, &c, c.next, "Out");
  if ((w2 = linear(g, c.next, c.v)) < 0 || g->vars[w2].shape.d[0] != g->vars[w1].shape.d[1]) return 0;
  step(g, &c, c.next, "Out");
  if (c.next >= 0 && fuse_channel_param(g, c.next, c.v, r - 1, g->vars[w2].shape.d[1], &b2)) step(g, &c, c.next, "Out");
  while (c.n < 8 && fuse_identity_dropout(g, c.next)) step(g, &c, c.next, "Out");
  if (c.next < 0 || !fuse_same_shape_add(g, c.next, c.v, &res)) return 0;
  step(g, &c, c.next, "Out");
  int ln = -1;
  if (fuse_ln_last_dim(g, c.next, r)) {
    ln = c.next;
    step(g, &c, c.next, "Y");
  }
  int f = rw_new_op(g, "fused_feedforward", c.ops[c.n - 1], 0);
  rw_set_slot(g, f, 0, "X", &x, 1);
  rw_set_slot(g, f, 0, "Linear1Weight", &w1, 1);
  rw_set_slot(g, f, 0, "Linear1Bias", &b1, 1);
  rw_set_slot(g, f, 0, "Linear2Weight", &w2, 1);
  if (b2 >= 0) rw_set_slot(g, f, 0, "Linear2Bias", &b2, 1);
  rw_set_slot(g, f, 0, "Residual", &res, 1);
  rw_attr_str(g, f, "act_method", act.name);
  if (act.alpha != 0 || act.beta != 0) {
    rw_attr_float(g, f, "fuse_alpha", act.alpha);
    rw_attr_float(g, f, "fuse_beta", act.beta);
  }
  rw_attr_bool(g, f, "post_layer_norm", ln >= 0);
  if (ln >= 0) {
    int s = rw_in(g, ln, "Scale"), b = rw_in(g, ln, "Bias");
    if (s >= 0) rw_set_slot(g, f, 0, "Ln2Scale", &s, 1);
    if (b >= 0) rw_set_slot(g, f, 0, "Ln2Bias", &b, 1);
    rw_attr_float(g, f, "ln2_epsilon", attr_float(&g->ops[ln], "epsilon", 1e-5));
  }
  rw_set_slot(g, f, 1, "Out", &c.v, 1);
  rw_fuse(g, f, c.ops, c.n);
  return 1;
}

int pass_fused_feedforward(Graph *g, PassCtx *c) {
  rw_each_op(g, &c->changes, fuse_one);
  return 0;
}

/* fused_attention: the multi-head attention paddle.nn.MultiHeadAttention
 * (and the Transformer layers) save becomes one fused_attention op, whose
 * kernel keeps each (image, head) score matrix in its thread's scratch
 * instead of the arena (BuildStrategy.fused_attention).
 *
 *   q = transpose2(reshape2(matmul_v2(xq, Wq) [+ bq], [0, 0, H, D]), [0, 2, 1, 3])
 *   k, v likewise from xk, xv
 *   s = matmul_v2([scale](q), k, trans_y) [scale] [+ mask]
 *   p = [dropout] softmax(s, axis -1)
 *   c = reshape2(transpose2(matmul_v2(p, v), [0, 2, 1, 3]), [0, 0, H*D])
 *   y = matmul_v2(c, Wo) [+ bo] [dropout] [+ residual] [layer_norm]
 *
 * Requires: every intermediate read by the next op alone and not fetched
 * (the XShape outputs unread); the weights 2-D parameters; scales without a
 * bias or ScaleTensor; dropouts at inference that leave values unchanged
 * (upscale_in_train, or dropout_prob 0); the residual of y's shape; a final
 * layer_norm over the last dim with unread Mean and Variance; static dims
 * but the batch, one batch dim for the queries', keys' and values' inputs.  Invalidates: every op of the pattern (removed). */
#include <string.h>

#include "attr.h"
#include "fuse_util.h"
#include "pass.h"
#include "rewrite.h"
#include "util.h"

enum { MAXOPS = 40 };

typedef struct Match {
  int ops[MAXOPS], n;          /* the pattern's ops */
  int x[3], w[3], b[3];        /* q, k, v: input, weight, bias (-1) */
  int64_t heads, dh;           /* from the reshapes */
  double scale;                /* of the scores */
  int mask;                    /* -1 */
  int wo, bo, res, ln_s, ln_b; /* -1 when absent */
  int ln;                      /* the layer_norm op, -1 */
  int out;                     /* the pattern's result */
} Match;

static int producer(const Graph *g, int v) { return v >= 0 ? g->vars[v].producer : -1; }

static void take(Match *m, int op) {
  if (m->n < MAXOPS) m->ops[m->n++] = op;
}

/* An op's XShape output, if any, is read by nobody. */
static int xshape_unread(const Graph *g, int id) {
  int xs = rw_out(g, id, "XShape");
  return xs < 0 || (!g->vars[xs].nusers && !(g->vars[xs].flags & VAR_FETCH));
}

static int perm_0213(const Graph *g, int id) {
  int64_t *p;
  return fuse_is(g, id, "transpose2") && attr_ints(&g->ops[id], "axis", &p) == 4 && p[0] == 0 && p[1] == 2 && p[2] == 1 &&
         p[3] == 3 && xshape_unread(g, id);
}

/* A scale op that only multiplies (no bias, no ScaleTensor): its factor. */
static int pure_scale(const Graph *g, int id, double *f) {
  if (!fuse_is(g, id, "scale") || rw_in(g, id, "ScaleTensor") >= 0 || attr_float(&g->ops[id], "bias", 0) != 0) return 0;
  *f = attr_float(&g->ops[id], "scale", 1);
  return 1;
}

/* A plain matmul_v2 (no transposes) of x and a 2-D parameter. */
static int proj_matmul(const Graph *g, int id, int *x, int *w) {
  if (!fuse_is(g, id, "matmul_v2") || attr_bool(&g->ops[id], "trans_x", 0) || attr_bool(&g->ops[id], "trans_y", 0))
    return 0;
  *x = rw_in(g, id, "X"), *w = rw_in(g, id, "Y");
  return rw_is_param(g, *w) && g->vars[*w].shape.rank == 2 && g->vars[*x].shape.rank == 3 &&
         g->vars[*x].dtype == RT_DT_FP32;
}

/* head = transpose2(reshape2(matmul_v2(x, W) [+ b])): one projection. */
static int match_head(const Graph *g, int head, Match *m, int i) {
  int tr = producer(g, head);
  if (!perm_0213(g, tr) || fuse_next(g, head) < 0) return 0;
  int r = rw_in(g, tr, "X"), rs = producer(g, r);
  if (fuse_next(g, r) != tr || !fuse_is(g, rs, "reshape2") || !xshape_unread(g, rs)) return 0;
  const Shape *hs = &g->vars[r].shape;
  if (hs->rank != 4 || hs->d[2] <= 0 || hs->d[3] <= 0) return 0;
  if (m->heads && (m->heads != hs->d[2] || m->dh != hs->d[3])) return 0;
  m->heads = hs->d[2], m->dh = hs->d[3];
  int t = rw_in(g, rs, "X"), op = producer(g, t), bias = -1;
  if (fuse_next(g, t) != rs) return 0;
  if (fuse_is(g, op, "elementwise_add")) {
    int a = rw_in(g, op, "X");
    if (!fuse_channel_param(g, op, a, 2, m->heads * m->dh, &bias) || fuse_next(g, a) != op) return 0;
    take(m, op);
    op = producer(g, a);
  }
  if (!proj_matmul(g, op, &m->x[i], &m->w[i]) || g->vars[m->w[i]].shape.d[1] != m->heads * m->dh) return 0;
  m->b[i] = bias;
  take(m, op), take(m, rs), take(m, tr);
  return 1;
}

/* The scores side: softmax's input back to q and k. */
static int match_scores(const Graph *g, int sm, Match *m) {
  int s = rw_in(g, sm, "X"), op = producer(g, s);
  m->scale = 1.0, m->mask = -1;
  if (fuse_next(g, s) != sm) return 0;
  if (fuse_is(g, op, "elementwise_add")) { /* + mask */
    int a = rw_in(g, op, "X"), bb = rw_in(g, op, "Y");
    if (a < 0 || bb < 0 || fuse_next(g, a) != op || g->vars[a].shape.rank != 4) return 0;
    /* the mask broadcasts into the scores, never the scores into the mask
     * (a mask of another, known batch beside the scores' unknown one would
     * change the sum's shape, which the fused op does not) */
    if (s < 0 || !shape_equal(&g->vars[a].shape, &g->vars[s].shape)) return 0;
    m->mask = bb;
    take(m, op);
    op = producer(g, a);
  }
  double f;
  if (pure_scale(g, op, &f)) { /* scale of the scores */
    m->scale *= f;
    take(m, op);
    s = rw_in(g, op, "X"), op = producer(g, s);
    if (fuse_next(g, s) < 0) return 0;
  }
  if (!fuse_is(g, op, "matmul_v2") || attr_bool(&g->ops[op], "trans_x", 0) || !attr_bool(&g->ops[op], "trans_y", 0))
    return 0;
  take(m, op);
  int q = rw_in(g, op, "X"), k = rw_in(g, op, "Y"), qs = producer(g, q);
  if (pure_scale(g, qs, &f) && fuse_next(g, q) == op) { /* scale of q */
    m->scale *= f;
    take(m, qs);
    q = rw_in(g, qs, "X");
    if (fuse_next(g, q) != qs) return 0;
  } else if (fuse_next(g, q) != op) {
    return 0;
  }
  return fuse_next(g, k) == op && match_head(g, q, m, 0) && match_head(g, k, m, 1);
}

/* The context side: softmax's output forward to the result. */
static int match_context(const Graph *g, int sm, Match *m) {
  int p = rw_out(g, sm, "Out"), op = fuse_next(g, p);
  while (m->n < MAXOPS - 4 && fuse_identity_dropout(g, op)) {
    take(m, op);
    p = rw_out(g, op, "Out"), op = fuse_next(g, p);
  }
  if (!fuse_is(g, op, "matmul_v2") || rw_in(g, op, "X") != p || attr_bool(&g->ops[op], "trans_x", 0) ||
      attr_bool(&g->ops[op], "trans_y", 0))
    return 0;
  int mm = op, v = rw_in(g, op, "Y");
  if (fuse_next(g, v) != mm || !match_head(g, v, m, 2)) return 0;
  take(m, mm);
  int tr = fuse_next(g, rw_out(g, mm, "Out"));
  if (!perm_0213(g, tr)) return 0;
  int rs = fuse_next(g, rw_out(g, tr, "Out")), ro = rs >= 0 ? rw_out(g, rs, "Out") : -1;
  if (!fuse_is(g, rs, "reshape2") || ro < 0 || !xshape_unread(g, rs) || g->vars[ro].shape.rank != 3 ||
      g->vars[ro].shape.d[2] != m->heads * m->dh)
    return 0;
  take(m, tr), take(m, rs);
  int c = rw_out(g, rs, "Out"), x;
  op = fuse_next(g, c);
  if (!proj_matmul(g, op, &x, &m->wo) || g->vars[m->wo].shape.d[0] != m->heads * m->dh) return 0;
  take(m, op);
  m->out = rw_out(g, op, "Out");
  const int64_t eo = g->vars[m->wo].shape.d[1];
  m->bo = m->res = m->ln_s = m->ln_b = m->ln = -1;
  op = fuse_next(g, m->out);
  if (op >= 0 && fuse_channel_param(g, op, m->out, 2, eo, &m->bo)) {
    take(m, op);
    m->out = rw_out(g, op, "Out"), op = fuse_next(g, m->out);
  }
  while (m->n < MAXOPS - 4 && fuse_identity_dropout(g, op)) {
    take(m, op);
    m->out = rw_out(g, op, "Out"), op = fuse_next(g, m->out);
  }
  if (op >= 0 && fuse_same_shape_add(g, op, m->out, &m->res)) {
    take(m, op);
    m->out = rw_out(g, op, "Out"), op = fuse_next(g, m->out);
  }
  if (fuse_ln_last_dim(g, op, 3)) {
    m->ln = op;
    m->ln_s = rw_in(g, op, "Scale"), m->ln_b = rw_in(g, op, "Bias");
    take(m, op);
    m->out = rw_out(g, op, "Y");
  }
  return m->n < MAXOPS;
}

/* The op of the pattern that comes last in the program (where every input
 * of the fused op is ready). */
static int last_op(const Graph *g, const Match *m) {
  int best = m->ops[0], bp = -1;
  for (int k = 0; k < g->blocks[0].nops; k++)
    for (int i = 0; i < m->n; i++)
      if (g->blocks[0].ops[k] == m->ops[i] && k > bp) bp = k, best = m->ops[i];
  return best;
}

static void set(Graph *g, int f, const char *slot, int v) {
  if (v >= 0) rw_set_slot(g, f, 0, slot, &v, 1);
}

static int fuse_one(Graph *g, int sm) {
  const int64_t axis = fuse_is(g, sm, "softmax") ? attr_int(&g->ops[sm], "axis", -1) : 0;
  if (axis != -1 && axis != 3) return 0;
  Match m = {.n = 0};
  if (!match_scores(g, sm, &m)) return 0;
  take(&m, sm);
  if (!match_context(g, sm, &m)) return 0;
  /* one batch: the kernel walks X's over KeyX and ValueX, where matmul_v2 broadcasts a batch of 1 */
  for (int i = 1; i < 3; i++)
    if (g->vars[m.x[i]].shape.d[0] != g->vars[m.x[0]].shape.d[0]) return 0;
  int f = rw_new_op(g, "fused_attention", last_op(g, &m), 0);
  static const char *const xs[3] = {"X", "KeyX", "ValueX"}, *ws[3] = {"QW", "KW", "VW"},
                           *bs[3] = {"QBias", "KBias", "VBias"};
  for (int i = 0; i < 3; i++) {
    set(g, f, xs[i], m.x[i]);
    set(g, f, ws[i], m.w[i]);
    set(g, f, bs[i], m.b[i]);
  }
  set(g, f, "SrcMask", m.mask);
  set(g, f, "OutLinearW", m.wo);
  set(g, f, "OutLinearBias", m.bo);
  set(g, f, "Residual", m.res);
  set(g, f, "Ln2Scale", m.ln_s);
  set(g, f, "Ln2Bias", m.ln_b);
  rw_set_slot(g, f, 1, "Y", &m.out, 1);
  rw_attr_int(g, f, "num_heads", m.heads);
  rw_attr_int(g, f, "head_dim", m.dh);
  rw_attr_float(g, f, "scale", m.scale);
  rw_attr_bool(g, f, "post_layer_norm", m.ln >= 0);
  if (m.ln >= 0) rw_attr_float(g, f, "ln_epsilon", attr_float(&g->ops[m.ln], "epsilon", 1e-5));
  /* the fused ops in program order */
  int ordered[MAXOPS], n = 0;
  for (int k = 0; k < g->blocks[0].nops; k++)
    for (int i = 0; i < m.n; i++)
      if (g->blocks[0].ops[k] == m.ops[i]) ordered[n++] = m.ops[i];
  rw_fuse(g, f, ordered, n);
  return 1;
}

int pass_fused_attention(Graph *g, PassCtx *c) {
  rw_each_op(g, &c->changes, fuse_one);
  return 0;
}

/* fuse_bn_add_act_ops: a batch_norm, the addition of a tensor of its shape
 * and an activation become one fused_bn_add_activation (Paddle's
 * fuse_bn_add_act_pass; BuildStrategy.fuse_bn_add_act_ops, on by default in
 * Paddle).
 *
 * At inference: one loop computing act(x * scale[c] + shift[c] + z).  It
 * takes the residual joins of networks whose batch_norms no convolution
 * absorbed.  Requires: fuse_bn_inference (fuse_util.h).
 *
 * In training (the batch's statistics, fuse_bn_training): the fused op keeps
 * every output of the batch_norm (the statistics the grad reads, the
 * running ones), runs batch_norm's training kernel, then act(Y + Z) over Y
 * in place.  Its backward fuses with it, as Paddle's pass fuses it:
 *
 *   <act>_grad(Out, Out@GRAD) -> d;  elementwise_add_grad(Y, Z, d) -> dY, dZ;
 *   batch_norm_grad(X, ..., Y@GRAD = dY)
 *     -> fused_bn_add_activation_grad(X, Scale, Bias, Y = Out, SavedMean,
 *        SavedVariance, ReserveSpace, Y@GRAD = Out@GRAD)
 *        -> X@GRAD, Z@GRAD, Scale@GRAD, Bias@GRAD
 *
 * The batch_norm's Y is an input of the add's grad (Paddle's grad maker
 * binds both addends), so the forward fuses only with its backward: the act
 * grad reads Out alone (relu, tanh, sigmoid, ...: Paddle's pass takes relu;
 * unary_grad_out_only), d is read by the add grad alone, which reads the
 * add's X and Y with its axis; dY is read by the batch_norm_grad alone,
 * which uses the batch's statistics and reads the batch_norm's X,
 * SavedMean and SavedVariance; none of d, dY fetched.  Without any act grad
 * (nothing upstream wants a gradient) the forward fuses alone when nothing
 * but the add reads Y.  Paddle's pass also asks for float16 and NHWC (its
 * only kernel is cuDNN's); paddlec's kernels compute the floats of the ops
 * they replace for float32 in either layout.
 *
 * Both: Y read by the add alone (and, in training, by that add's grad) and
 * not fetched; the sum read by the activation alone and not fetched; the
 * other addend of Y's exact shape and dtype (not Y itself); the activation
 * a fusible unary op (ops.h), its attributes copied with act_type = its
 * type.  Invalidates: the fused ops (removed). */
#include <string.h>

#include "attr.h"
#include "fuse_util.h"
#include "ops/ops.h"
#include "pass.h"
#include "rewrite.h"
#include "util.h"

/* 1 when var `v` has one writer, is not fetched, and is read by op `a`
 * and by no op but a and b (-1: none). */
static int read_by(const Graph *g, int v, int a, int b) {
  const Var *x = &g->vars[v];
  if ((x->flags & VAR_FETCH) || !fuse_one_writer(g, v)) return 0;
  int seen = 0;
  for (int u = 0; u < x->nusers; u++) {
    if (x->users[u] != a && x->users[u] != b) return 0;
    seen |= x->users[u] == a;
  }
  return seen;
}

/* 1 when op `op` binds var `v` as an input (side 0) or output (side 1). */
static int binds(const Op *op, int side, int v) {
  const int n = side ? op->nout : op->nin;
  const Slot *s = side ? op->out : op->in;
  for (int i = 0; i < n; i++)
    for (int a = 0; a < s[i].n; a++)
      if (s[i].vars[a] == v) return 1;
  return 0;
}

/* 1 when op `m` may run at block position `to` (the fused op's place)
 * instead of its own: no op it passes (those of `chain` aside) reads what
 * it writes or writes what it reads or writes. */
static int can_move(const Graph *g, const RwOrder *o, int m, int to, const int chain[3]) {
  const Op *op = &g->ops[m];
  const int from = o->pos[m], lo = from < to ? from : to, hi = from < to ? to : from;
  for (int k = lo; k < hi; k++) {
    const int id = o->ops[k];
    if (id == chain[0] || id == chain[1] || id == chain[2]) continue;
    const Op *other = &g->ops[id];
    for (int side = 0; side < 2; side++) {
      const int n = side ? op->nout : op->nin;
      const Slot *s = side ? op->out : op->in;
      for (int i = 0; i < n; i++)
        for (int a = 0; a < s[i].n; a++) {
          int v = s[i].vars[a];
          if (v >= 0 && (binds(other, 1, v) || (side && binds(other, 0, v)))) return 0;
        }
    }
  }
  return 1;
}

/* The backward of the chain bn -> add -> act (forward Y, Z, sum, Out), as
 * the header states it: 1 with the ops (*ag, *addg, *bg) when it is there
 * and fusible; 0 with *ag = -1 when no act grad reads Out; 0 otherwise. */
static int find_grad(const Graph *g, int bn, int add, int act, int *ag, int *addg, int *bg) {
  int out = rw_out(g, act, "Out"), y = rw_out(g, bn, "Y");
  const char *t = g->ops[act].type;
  size_t n = strlen(t);
  *ag = -1;
  for (int u = 0; u < g->vars[out].nusers; u++) {
    const Op *r = &g->ops[g->vars[out].users[u]];
    if (!strncmp(r->type, t, n) && !strcmp(r->type + n, "_grad")) {
      if (*ag >= 0) return 0; /* two: not the pattern */
      *ag = g->vars[out].users[u];
    }
  }
  if (*ag < 0 || !unary_grad_out_only(&g->ops[*ag]) || rw_in(g, *ag, "Out") != out) return 0;
  int d = rw_out(g, *ag, "X@GRAD");
  *addg = fuse_next(g, d);
  if (rw_in(g, *ag, "Out@GRAD") < 0 || !fuse_is(g, *addg, "elementwise_add_grad") ||
      rw_in(g, *addg, "Out@GRAD") != d)
    return 0;
  const Op *ga = &g->ops[*addg];
  if (rw_in(g, *addg, "X") != rw_in(g, add, "X") || rw_in(g, *addg, "Y") != rw_in(g, add, "Y") ||
      attr_int(ga, "axis", -1) != attr_int(&g->ops[add], "axis", -1))
    return 0;
  int dy = rw_out(g, *addg, rw_in(g, add, "X") == y ? "X@GRAD" : "Y@GRAD");
  *bg = fuse_next(g, dy);
  if (!fuse_is(g, *bg, "batch_norm_grad") || rw_in(g, *bg, "Y@GRAD") != dy) return 0;
  const Op *b = &g->ops[*bg];
  if (attr_bool(b, "is_test", 0) || attr_bool(b, "use_global_stats", 0)) return 0;
  if (rw_in(g, *bg, "X") != rw_in(g, bn, "X") || rw_in(g, *bg, "SavedMean") != rw_out(g, bn, "SavedMean") ||
      rw_in(g, *bg, "SavedVariance") != rw_out(g, bn, "SavedVariance") || rw_in(g, *bg, "SavedMean") < 0 ||
      rw_in(g, *bg, "SavedVariance") < 0)
    return 0;
  /* the fused grad runs at the act grad's place: the add grad's other
   * gradient (Z's) may be read before the batch_norm_grad runs */
  RwOrder o;
  rw_positions(g, &o);
  const int chain[3] = {*ag, *addg, *bg};
  return can_move(g, &o, *addg, o.pos[*ag], chain) && can_move(g, &o, *bg, o.pos[*ag], chain);
}

/* The three grad ops -> one fused_bn_add_activation_grad. */
static void fuse_grad(Graph *g, int bn, int add, int ag, int addg, int bg) {
  const int y = rw_out(g, bn, "Y");
  const char *act = g->ops[ag].type;
  int fg = rw_new_op(g, "fused_bn_add_activation_grad", ag, 0);
  rw_copy_attrs(g, fg, bg);
  rw_copy_attrs(g, fg, ag);
  rw_attr_str(g, fg, "act_type", pool_printf("%.*s", (int)(strlen(act) - 5), act));
  fuse_bn_grad_slots(g, fg, bg, rw_in(g, ag, "Out"), rw_in(g, ag, "Out@GRAD"), 1);
  int dz = rw_out(g, addg, rw_in(g, add, "X") == y ? "Y@GRAD" : "X@GRAD");
  if (dz >= 0) rw_set_slot(g, fg, 1, "Z@GRAD", &dz, 1);
  const int chain[3] = {ag, addg, bg};
  rw_fuse(g, fg, chain, 3);
}

static int fuse_one(Graph *g, int bn) {
  const int train = fuse_bn_training(g, bn);
  if (!train && !fuse_bn_inference(g, bn)) return 0;
  int y = rw_out(g, bn, "Y"), z;
  if (y < 0) return 0;
  /* the add: Y's reader that is not an elementwise_add_grad */
  int add = -1;
  for (int u = 0; u < g->vars[y].nusers; u++)
    if (fuse_is(g, g->vars[y].users[u], "elementwise_add")) add = g->vars[y].users[u];
  if (add < 0 || !fuse_same_shape_add(g, add, y, &z)) return 0;
  int act = fuse_next(g, rw_out(g, add, "Out"));
  if (act < 0 || !unary_fusible(g, &g->ops[act])) return 0;
  int ag = -1, addg = -1, bg = -1;
  if (train && !find_grad(g, bn, add, act, &ag, &addg, &bg) && ag >= 0) return 0;
  if (!read_by(g, y, add, addg)) return 0;
  RwOrder o;
  rw_positions(g, &o);
  const int chain[3] = {bn, add, act};
  if (!can_move(g, &o, bn, o.pos[act], chain) || !can_move(g, &o, add, o.pos[act], chain)) return 0;
  int f = rw_new_op(g, "fused_bn_add_activation", act, 0);
  rw_copy_attrs(g, f, bn);
  rw_copy_attrs(g, f, act);
  rw_attr_str(g, f, "act_type", g->ops[act].type);
  fuse_copy_bn_inputs(g, f, bn);
  rw_set_slot(g, f, 0, "Z", &z, 1);
  int out = rw_out(g, act, "Out");
  rw_set_slot(g, f, 1, "Y", &out, 1);
  static const char *const stats[] = {"MeanOut", "VarianceOut", "SavedMean", "SavedVariance", "ReserveSpace"};
  for (int i = 0; i < 5; i++) {
    int v = rw_out(g, bn, stats[i]);
    if (train && v >= 0) rw_set_slot(g, f, 1, stats[i], &v, 1);
  }
  if (ag >= 0) fuse_grad(g, bn, add, ag, addg, bg);
  rw_fuse(g, f, chain, 3);
  return 1;
}

int pass_fuse_bn_add_act_ops(Graph *g, PassCtx *c) {
  rw_each_op(g, &c->changes, fuse_one);
  return 0;
}

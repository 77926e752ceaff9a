/* fuse_elewise_add_act_ops: an elementwise_add and an activation become
 * one fused_elemwise_activation, one loop instead of two passes over memory
 * (Paddle's fuse_elewise_add_act_pass; BuildStrategy.fuse_elewise_add_act_ops).
 *
 *   act(elementwise_add(x, y))  -> functor_list [act, elementwise_add]
 *   elementwise_add(x, act(y))  -> functor_list [elementwise_add, act]
 *
 * The activation is any float32 unary op of activation.c whose parameters
 * are attributes (ops.h unary_fusible); its attributes are copied onto the
 * fused op.  Requires: the intermediate read by the next op alone and not
 * fetched; the add in float32.  Invalidates: the two ops (removed).
 *
 * On a training program the sum act(x + y) reads is then no tensor of its
 * own only where no grad op reads it (the forward pattern's check), and the
 * backward of such a pair fuses as Paddle's pass fuses it:
 *
 *   <act>_grad(Out, Out@GRAD) -> d;  elementwise_add_grad(X, Y, d) -> dX, dY
 *     -> fused_elemwise_add_activation_grad(Y, Out, Out@GRAD) -> dX, dY
 *
 * when Out is a fused act(add) op's output with that op's X and Y, the act
 * grad reads Out alone (relu, tanh, sigmoid, ...: Paddle's pass takes
 * relu_grad), d is read by the add grad alone and not fetched, and X has
 * Out's shape.  The fused kernel computes the floats of the two ops. */
#include <string.h>

#include "attr.h"
#include "fuse_util.h"
#include "ops/ops.h"
#include "pass.h"
#include "rewrite.h"
#include "util.h"

static int is_add(const Graph *g, int id) {
  if (id < 0 || strcmp(g->ops[id].type, "elementwise_add")) return 0;
  int x = rw_in(g, id, "X");
  return x >= 0 && g->vars[x].dtype == RT_DT_FP32;
}

/* One fused op for `add` and `act`; act_first: add(x, act(y)). */
static void fuse(Graph *g, int add, int act, int act_first) {
  int first = act_first ? act : add, last = act_first ? add : act;
  int x = rw_in(g, add, "X"), y = act_first ? rw_in(g, act, "X") : rw_in(g, add, "Y"), out = rw_out(g, last, "Out");
  int f = rw_new_op(g, "fused_elemwise_activation", last, 0);
  rw_copy_attrs(g, f, act);
  rw_attr_int(g, f, "axis", attr_int(&g->ops[add], "axis", -1));
  const char *fl[2] = {act_first ? "elementwise_add" : g->ops[act].type,
                       act_first ? g->ops[act].type : "elementwise_add"};
  rw_attr_strs(g, f, "functor_list", fl, 2);
  rw_attr_bool(g, f, "save_intermediate_out", 0);
  rw_set_slot(g, f, 0, "X", &x, 1);
  rw_set_slot(g, f, 0, "Y", &y, 1);
  rw_set_slot(g, f, 1, "Out", &out, 1);
  int chain[2] = {first, last};
  rw_fuse(g, f, chain, 2);
}

static int try_op(Graph *g, int id) {
  if (is_add(g, id)) { /* act(add(x, y)) */
    int act = fuse_next(g, rw_out(g, id, "Out"));
    if (act < 0 || !unary_fusible(g, &g->ops[act])) return 0;
    fuse(g, id, act, 0);
    return 1;
  }
  if (!unary_fusible(g, &g->ops[id])) return 0; /* add(x, act(y)) */
  int out = rw_out(g, id, "Out"), add = fuse_next(g, out);
  if (!is_add(g, add) || rw_in(g, add, "Y") != out || rw_in(g, add, "X") == out) return 0;
  fuse(g, add, id, 1);
  return 1;
}

/* The live fused_elemwise_activation act(add) writing `out`, or -1. */
static int fused_add_act_writing(const Graph *g, int out) {
  int f = out >= 0 ? g->vars[out].producer : -1;
  if (f < 0 || strcmp(g->ops[f].type, "fused_elemwise_activation")) return -1;
  const OpAttr *fl = attr_find(&g->ops[f], "functor_list");
  return fl && fl->n_strings == 2 && !strcmp(fl->strings[1], "elementwise_add") ? f : -1;
}

/* <act>_grad + elementwise_add_grad of a fused act(add) -> one grad op. */
static int try_grad(Graph *g, int ag) {
  const Op *a = &g->ops[ag];
  size_t n = strlen(a->type);
  if (n < 6 || strcmp(a->type + n - 5, "_grad") || !unary_grad_out_only(a)) return 0;
  int out = rw_in(g, ag, "Out"), dout = rw_in(g, ag, "Out@GRAD"), d = rw_out(g, ag, "X@GRAD");
  int f = fused_add_act_writing(g, out);
  if (f < 0 || dout < 0 || d < 0 || strncmp(attr_find(&g->ops[f], "functor_list")->strings[0], a->type, n - 5) ||
      attr_find(&g->ops[f], "functor_list")->strings[0][n - 5])
    return 0;
  int addg = fuse_next(g, d);
  if (!fuse_is(g, addg, "elementwise_add_grad") || rw_in(g, addg, "Out@GRAD") != d) return 0;
  int x = rw_in(g, addg, "X"), y = rw_in(g, addg, "Y");
  if (x != rw_in(g, f, "X") || y != rw_in(g, f, "Y") || !shape_equal(&g->vars[x].shape, &g->vars[out].shape) ||
      attr_int(&g->ops[addg], "axis", -1) != attr_int(&g->ops[f], "axis", -1))
    return 0;
  int dx = rw_out(g, addg, "X@GRAD"), dy = rw_out(g, addg, "Y@GRAD");
  int fg = rw_new_op(g, "fused_elemwise_add_activation_grad", addg, 0);
  rw_copy_attrs(g, fg, ag);
  rw_attr_int(g, fg, "axis", attr_int(&g->ops[addg], "axis", -1));
  const char *fl[2] = {a->type, "elementwise_add_grad"};
  rw_attr_strs(g, fg, "functor_list", fl, 2);
  rw_attr_bool(g, fg, "save_intermediate_out", 0);
  rw_set_slot(g, fg, 0, "Y", &y, 1);
  rw_set_slot(g, fg, 0, "Out", &out, 1);
  rw_set_slot(g, fg, 0, "Out@GRAD", &dout, 1);
  rw_set_slot(g, fg, 1, "X@GRAD", &dx, dx >= 0);
  rw_set_slot(g, fg, 1, "Y@GRAD", &dy, dy >= 0);
  int chain[2] = {ag, addg};
  rw_fuse(g, fg, chain, 2);
  return 1;
}

int pass_fuse_elewise_add_act_ops(Graph *g, PassCtx *c) {
  rw_each_op(g, &c->changes, try_op);
  rw_each_op(g, &c->changes, try_grad);
  return 0;
}

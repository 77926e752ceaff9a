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
 * fetched; the add in float32.  Invalidates: the two ops (removed). */
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

int pass_fuse_elewise_add_act_ops(Graph *g, PassCtx *c) {
  rw_each_op(g, &c->changes, try_op);
  return 0;
}

/* fuse_relu_depthwise_conv: a relu whose every reader is a depthwise
 * convolution is applied by those convolutions to their input as they load
 * it (fuse_relu_before_depthwise_conv), and the relu goes (Paddle's
 * fuse_relu_depthwise_conv_pass; BuildStrategy.fuse_relu_depthwise_conv).
 *
 * Requires: a float32 relu whose output is not fetched and is read only as
 * the Input of depthwise_conv2d ops with groups = input channels (the
 * runtime's depthwise path).  Invalidates: the relu and the convolutions
 * (replaced by copies reading the relu's input). */
#include <string.h>

#include "attr.h"
#include "pass.h"
#include "rewrite.h"
#include "util.h"

static int depthwise_reader(const Graph *g, int id, int v) {
  const Op *op = &g->ops[id];
  if (strcmp(op->type, "depthwise_conv2d") || rw_in(g, id, "Input") != v) return 0;
  int w = rw_in(g, id, "Filter");
  const Shape *xs = &g->vars[v].shape;
  const char *fmt = attr_str(op, "data_format", "NCHW");
  return w >= 0 && xs->rank == 4 && (!strcmp(fmt, "NCHW") || !strcmp(fmt, "AnyLayout")) &&
         attr_int(op, "groups", 1) == xs->d[1] && xs->d[1] > 1 && g->vars[w].shape.d[1] == 1 &&
         !attr_bool(op, "fuse_relu_before_depthwise_conv", 0);
}

static int fuse_one(Graph *g, int relu) {
  if (strcmp(g->ops[relu].type, "relu")) return 0;
  int x = rw_in(g, relu, "X"), out = rw_out(g, relu, "Out");
  if (x < 0 || out < 0 || g->vars[x].dtype != RT_DT_FP32 || (g->vars[out].flags & VAR_FETCH) || !g->vars[out].nusers)
    return 0;
  const Var *o = &g->vars[out];
  for (int u = 0; u < o->nusers; u++)
    if (!depthwise_reader(g, o->users[u], out)) return 0;
  int n = o->nusers, *convs = pool_alloc(sizeof(int) * ((size_t)n + 1));
  for (int i = 0; i < n; i++) convs[i] = o->users[i]; /* o->users changes as the convs are replaced */
  for (int i = 0; i < n; i++) {
    int conv = convs[i], f = rw_new_op(g, "depthwise_conv2d", conv, 0);
    rw_copy_attrs(g, f, conv);
    rw_attr_bool(g, f, "fuse_relu_before_depthwise_conv", 1);
    int w = rw_in(g, conv, "Filter"), y = rw_out(g, conv, "Output"), b = rw_in(g, conv, "Bias");
    rw_set_slot(g, f, 0, "Input", &x, 1);
    rw_set_slot(g, f, 0, "Filter", &w, 1);
    if (b >= 0) rw_set_slot(g, f, 0, "Bias", &b, 1);
    rw_set_slot(g, f, 1, "Output", &y, 1);
    int chain[2] = {relu, conv};
    rw_set_fused(g, f, chain, 2);
    rw_remove_op(g, conv);
  }
  rw_remove_op(g, relu);
  return 1;
}

int pass_fuse_relu_depthwise_conv(Graph *g, PassCtx *c) {
  rw_each_op(g, &c->changes, fuse_one);
  return 0;
}

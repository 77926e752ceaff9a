/* Pattern pieces shared by the fusion passes (see fuse_util.h). */
#include "fuse_util.h"

#include <stdint.h>
#include <string.h>

#include "attr.h"
#include "ops/ops.h"
#include "rewrite.h"
#include "util.h"

/* 1 when one op of block 0 alone writes v: a fusion that takes out its
 * writer must not leave another write of the same var behind. */
static int one_writer(const Graph *g, int v) {
  int n = 0;
  const Block *b = &g->blocks[0];
  for (int k = 0; k < b->nops && n < 2; k++) {
    const Op *op = &g->ops[b->ops[k]];
    if (op->removed) continue;
    for (int s = 0; s < op->nout; s++)
      for (int a = 0; a < op->out[s].n; a++) n += op->out[s].vars[a] == v;
  }
  return n == 1;
}

int fuse_one_writer(const Graph *g, int v) { return v >= 0 && one_writer(g, v); }

int fuse_next(const Graph *g, int v) { return v < 0 || !one_writer(g, v) ? -1 : rw_sole_user(g, v); }

int fuse_next_beside(const Graph *g, int v, int other) {
  if (v < 0 || other < 0 || !one_writer(g, v) || (g->vars[v].flags & VAR_FETCH) || g->vars[v].nusers != 2) return -1;
  const int *u = g->vars[v].users;
  return u[0] == other ? u[1] : u[1] == other ? u[0] : -1;
}

static int is_type(const Graph *g, int id, const char *type) { return id >= 0 && !strcmp(g->ops[id].type, type); }

int fuse_act_of(const Graph *g, int id, FuseAct *a) {
  return id >= 0 && unary_epilogue(g, &g->ops[id], &a->name, &a->alpha, &a->beta);
}

int fuse_channel_param(const Graph *g, int id, int x, int dim, int64_t c, int *param) {
  if (!is_type(g, id, "elementwise_add") || rw_in(g, id, "X") != x) return 0;
  int y = rw_in(g, id, "Y");
  if (!rw_is_param(g, y) || g->vars[y].dtype != RT_DT_FP32 || g->vars[x].dtype != RT_DT_FP32) return 0;
  const Shape *xs = &g->vars[x].shape, *ys = &g->vars[y].shape;
  if (ys->rank > xs->rank || shape_numel(ys) != c) return 0;
  /* The fused op's output keeps X's shape; Paddle's rule may not (a 0 dim
   * against a padded 1 becomes unknown). */
  int out = rw_out(g, id, "Out");
  if (out < 0 || !shape_equal(&g->vars[out].shape, xs)) return 0;
  int64_t axis = attr_int(&g->ops[id], "axis", -1);
  if (axis < 0 || ys->rank == xs->rank) axis = xs->rank - ys->rank;
  for (int j = 0; j < ys->rank; j++) {
    int at = (int)axis + j;
    if (at >= xs->rank) return 0;
    if (ys->d[j] != 1 && (at != dim || ys->d[j] != c)) return 0;
  }
  *param = y;
  return 1;
}

int fuse_same_shape_add(const Graph *g, int id, int x, int *other) {
  if (!is_type(g, id, "elementwise_add")) return 0;
  int a = rw_in(g, id, "X"), b = rw_in(g, id, "Y");
  if (a < 0 || b < 0 || (a != x && b != x) || a == b) return 0;
  int o = a == x ? b : a;
  if (!shape_equal(&g->vars[o].shape, &g->vars[x].shape) || g->vars[o].dtype != g->vars[x].dtype) return 0;
  int out = rw_out(g, id, "Out");
  if (out < 0 || !shape_equal(&g->vars[out].shape, &g->vars[x].shape)) return 0;
  *other = o;
  return 1;
}

int fuse_is(const Graph *g, int id, const char *type) { return is_type(g, id, type); }

int fuse_identity_dropout(const Graph *g, int id) {
  if (!is_type(g, id, "dropout")) return 0;
  const Op *op = &g->ops[id];
  int mask = rw_out(g, id, "Mask");
  if (!attr_bool(op, "is_test", 0) || (mask >= 0 && (g->vars[mask].nusers || (g->vars[mask].flags & VAR_FETCH))))
    return 0;
  return op_dropout_identity(op);
}

/* A var nobody reads or fetches (or none). */
static int unread(const Graph *g, int v) { return v < 0 || (!g->vars[v].nusers && !(g->vars[v].flags & VAR_FETCH)); }

int fuse_ln_last_dim(const Graph *g, int id, int rank) {
  return is_type(g, id, "layer_norm") && attr_int(&g->ops[id], "begin_norm_axis", 1) == rank - 1 &&
         unread(g, rw_out(g, id, "Mean")) && unread(g, rw_out(g, id, "Variance"));
}

int fuse_bn_inference(const Graph *g, int id) {
  if (!is_type(g, id, "batch_norm")) return 0;
  const Op *op = &g->ops[id];
  int x = rw_in(g, id, "X");
  if (x < 0 || g->vars[x].dtype != RT_DT_FP32) return 0;
  if (!op_bn_running_stats(op)) return 0;
  for (int s = 0; s < op->nout; s++) {
    if (!strcmp(op->out[s].name, "Y")) continue;
    for (int a = 0; a < op->out[s].n; a++) {
      int v = op->out[s].vars[a];
      if (v < 0) continue;
      if (g->vars[v].flags & VAR_FETCH) return 0;
      for (int u = 0; u < g->vars[v].nusers; u++)
        if (g->vars[v].users[u] != id) return 0;
    }
  }
  return 1;
}

int fuse_bn_training(const Graph *g, int id) {
  if (!is_type(g, id, "batch_norm") || op_bn_running_stats(&g->ops[id]) || rw_in(g, id, "MomentumTensor") >= 0 ||
      rw_in(g, id, "Sums") >= 0) /* synced by sync_batch_norm */
    return 0;
  int x = rw_in(g, id, "X");
  return x >= 0 && g->vars[x].dtype == RT_DT_FP32;
}

void fuse_copy_bn_inputs(Graph *g, int f, int bn) {
  static const char *const slots[] = {"X", "Scale", "Bias", "Mean", "Variance"};
  for (int i = 0; i < 5; i++) {
    int v = rw_in(g, bn, slots[i]);
    if (v >= 0) rw_set_slot(g, f, 0, slots[i], &v, 1); /* Scale and Bias are optional */
  }
}

void fuse_bn_grad_slots(Graph *g, int fg, int bg, int y, int dy, int reserve) {
  static const char *const ins[] = {"X", "Scale", "Bias", "SavedMean", "SavedVariance", "ReserveSpace"};
  for (int i = 0; i < (reserve ? 6 : 5); i++) {
    int v = rw_in(g, bg, ins[i]);
    if (v >= 0) rw_set_slot(g, fg, 0, ins[i], &v, 1);
  }
  rw_set_slot(g, fg, 0, "Y", &y, 1);
  rw_set_slot(g, fg, 0, "Y@GRAD", &dy, 1);
  static const char *const outs[] = {"X@GRAD", "Scale@GRAD", "Bias@GRAD"};
  for (int i = 0; i < 3; i++) {
    int v = rw_out(g, bg, outs[i]);
    if (v >= 0) rw_set_slot(g, fg, 1, outs[i], &v, 1);
  }
}

int fuse_is_plain_conv(const Graph *g, int id) {
  if (id < 0) return 0;
  const Op *op = &g->ops[id];
  if (strcmp(op->type, "conv2d") && strcmp(op->type, "depthwise_conv2d") && strcmp(op->type, "fused_conv2d"))
    return 0;
  const char *fmt = attr_str(op, "data_format", "NCHW");
  if (strcmp(fmt, "NCHW") && strcmp(fmt, "AnyLayout")) return 0;
  int x = rw_in(g, id, "Input"), w = rw_in(g, id, "Filter");
  if (x < 0 || w < 0 || g->vars[x].dtype != RT_DT_FP32 || g->vars[x].shape.rank != 4) return 0;
  return !*attr_str(op, "fuse_activation", "") && !attr_bool(op, "fuse_relu", 0) &&
         !attr_bool(op, "fuse_residual_connection", 0) && !attr_bool(op, "fuse_relu_before_depthwise_conv", 0);
}

/* ---- merged optimizer ops ---- */

/* The packed bytes of attribute a (its value, for comparison). */
static uint8_t *attr_bytes(const OpAttr *a, size_t *n) {
  *n = protobuf_c_message_get_packed_size(&a->base);
  uint8_t *b = pool_alloc(*n ? *n : 1);
  protobuf_c_message_pack(&a->base, b);
  return b;
}

/* The attribute of op named `name`, unmarked (the comparison is not a use). */
static const OpAttr *attr_raw(const Op *op, const char *name) {
  for (size_t i = 0; i < op->desc->n_attrs; i++)
    if (!strcmp(op->desc->attrs[i]->name, name)) return op->desc->attrs[i];
  return NULL;
}

/* 1 when a and b have the same attributes, bookkeeping ones aside. */
static int same_attrs(const Op *a, const Op *b) {
  size_t na = 0, nb = 0;
  for (size_t i = 0; i < b->desc->n_attrs; i++) nb += !attr_is_bookkeeping(b->desc->attrs[i]->name);
  for (size_t i = 0; i < a->desc->n_attrs; i++) {
    const OpAttr *x = a->desc->attrs[i], *y;
    if (attr_is_bookkeeping(x->name)) continue;
    na++;
    if (!(y = attr_raw(b, x->name))) return 0;
    size_t lx, ly;
    uint8_t *bx = attr_bytes(x, &lx), *by = attr_bytes(y, &ly);
    if (lx != ly || memcmp(bx, by, lx)) return 0;
  }
  return na == nb;
}

/* 1 when c can join leader l's group: same type, attributes, slot names;
 * the same shared inputs; one or no var in each per-parameter slot. */
static int same_update(const Op *l, const Op *c) {
  if (strcmp(l->type, c->type) || c->from_pass || l->nin != c->nin || l->nout != c->nout || !same_attrs(l, c))
    return 0;
  for (int side = 0; side < 2; side++)
    for (int s = 0; s < (side ? l->nout : l->nin); s++) {
      const Slot *x = side ? &l->out[s] : &l->in[s], *y = side ? &c->out[s] : &c->in[s];
      if (strcmp(x->name, y->name) || x->n != y->n) return 0;
      if (!side && optimizer_shared_slot(x->name)) {
        for (int k = 0; k < x->n; k++)
          if (x->vars[k] != y->vars[k]) return 0;
      } else if (x->n > 1) {
        return 0;
      }
    }
  return 1;
}

/* 1 when op reads (side 0) / writes (side 1) / touches (side 2) var v. */
static int op_has(const Op *op, int side, int v) {
  for (int sd = 0; sd < 2; sd++) {
    if (side != 2 && side != sd) continue;
    const Slot *sl = sd ? op->out : op->in;
    for (int s = 0; s < (sd ? op->nout : op->nin); s++)
      for (int k = 0; k < sl[s].n; k++)
        if (sl[s].vars[k] == v) return 1;
  }
  return 0;
}

/* 1 when other op x may run after member m instead of before it: x reads
 * nothing m writes and writes nothing m touches. */
static int commutes(const Op *m, const Op *x) {
  for (int s = 0; s < m->nout; s++)
    for (int k = 0; k < m->out[s].n; k++)
      if (m->out[s].vars[k] >= 0 && op_has(x, 0, m->out[s].vars[k])) return 0;
  for (int side = 0; side < 2; side++)
    for (int s = 0; s < (side ? m->nout : m->nin); s++) {
      const Slot *sl = side ? &m->out[s] : &m->in[s];
      for (int k = 0; k < sl->n; k++)
        if (sl->vars[k] >= 0 && op_has(x, 1, sl->vars[k])) return 0;
    }
  return 1;
}

static const char *const *merge_types;

static int try_merge(Graph *g, int lead) {
  const Op *l = &g->ops[lead];
  if (!str_in(l->type, merge_types) || l->from_pass || l->block != 0) return 0;
  const Block *b = &g->blocks[0];
  int *pos = pool_alloc(sizeof *pos * (size_t)b->nops), m = 0, first = -1;
  int *ids = pool_alloc(sizeof *ids * (size_t)b->nops);
  for (int k = 0; k < b->nops; k++) {
    int id = b->ops[k];
    if (id == lead) first = k;
    if (first < 0 || g->ops[id].removed || (id != lead && !same_update(l, &g->ops[id]))) continue;
    pos[m] = k, ids[m++] = id;
  }
  if (m < 2) return 0;
  /* the ops between the members commute with the members before them */
  for (int k = pos[0] + 1, i = 1; k < pos[m - 1]; k++) {
    if (k == pos[i]) {
      i++;
      continue;
    }
    for (int j = 0; j < i; j++)
      if (!commutes(&g->ops[ids[j]], &g->ops[b->ops[k]])) return 0;
  }
  int f = rw_new_op(g, l->type, ids[m - 1], 0);
  rw_copy_attrs(g, f, lead);
  for (int side = 0; side < 2; side++) {
    const int ns = side ? g->ops[lead].nout : g->ops[lead].nin;
    for (int s = 0; s < ns; s++) {
      const Slot *ls = side ? &g->ops[lead].out[s] : &g->ops[lead].in[s];
      const char *name = ls->name;
      if (!side && optimizer_shared_slot(name)) {
        rw_set_slot(g, f, side, name, ls->vars, ls->n);
      } else {
        int *vars = pool_alloc(sizeof *vars * (size_t)m), n = 0;
        for (int j = 0; j < m && ls->n; j++) vars[n++] = (side ? g->ops[ids[j]].out : g->ops[ids[j]].in)[s].vars[0];
        rw_set_slot(g, f, side, name, vars, n);
      }
      for (int j = 0; j < m; j++) ((side ? g->ops[ids[j]].out : g->ops[ids[j]].in)[s]).seen = 1;
    }
  }
  /* every member's attributes equal the lead's, which the merged op reads */
  for (int j = 0; j < m; j++)
    for (size_t i = 0; i < g->ops[ids[j]].desc->n_attrs; i++)
      (void)attr_find(&g->ops[ids[j]], g->ops[ids[j]].desc->attrs[i]->name);
  rw_fuse(g, f, ids, m);
  return 1;
}

void fuse_optimizer_ops(Graph *g, const char *const *types, int *changes) {
  merge_types = types;
  rw_each_op(g, changes, try_merge);
  merge_types = NULL;
}

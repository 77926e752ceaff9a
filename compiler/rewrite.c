/* Graph rewriting for passes (see rewrite.h). */
#include "rewrite.h"

#include <string.h>

#include "attr.h"
#include "ops/ops.h"
#include "diag.h"
#include "util.h"

/* The position of op `id` in its block's list, or -1. */
static int block_pos(const Graph *g, int id) {
  const Block *b = &g->blocks[g->ops[id].block];
  for (int k = 0; k < b->nops; k++)
    if (b->ops[k] == id) return k;
  return -1;
}

/* Puts op `id` at position `pos` of block b's list. */
static void insert_at(Block *b, int pos, int id) {
  int *ops = pool_alloc(sizeof(int) * ((size_t)b->nops + 2));
  memcpy(ops, b->ops, sizeof(int) * (size_t)pos);
  ops[pos] = id;
  memcpy(ops + pos + 1, b->ops + pos, sizeof(int) * (size_t)(b->nops - pos));
  b->ops = ops;
  b->nops++;
}

int rw_new_op(Graph *g, const char *type, int at, int after) {
  const Op *ref = &g->ops[at];
  Op op = {0};
  OpDesc *d = pool_alloc(sizeof *d);
  paddlec__fw__op_desc__init(d);
  d->type = pool_strdup(type);
  op.desc = d;
  op.marks = ref->marks;
  op.from_pass = 1;
  op.type = d->type;
  op.block = ref->block;
  op.file_block = ref->file_block;
  op.index = ref->index;
  op.def = op_def_find(type);
  op.sub_block = -1;
  op.in = pool_alloc(sizeof *op.in);
  op.out = pool_alloc(sizeof *op.out);
  int blk = ref->block, pos = block_pos(g, at) + (after ? 1 : 0);
  VEC_PUSH(g->ops, g->nops, g->ops_cap, op);
  int id = g->nops - 1;
  insert_at(&g->blocks[blk], pos, id);
  return id;
}

void rw_remove_op(Graph *g, int id) {
  Block *b = &g->blocks[g->ops[id].block];
  int pos = block_pos(g, id);
  if (pos < 0) return;
  memmove(b->ops + pos, b->ops + pos + 1, sizeof(int) * (size_t)(b->nops - pos - 1));
  b->nops--;
  g->ops[id].removed = 1;
}

void rw_move_op(Graph *g, int id, int after) {
  rw_remove_op(g, id);
  g->ops[id].removed = 0;
  insert_at(&g->blocks[g->ops[after].block], block_pos(g, after) + 1, id);
  g->ops[id].block = g->ops[after].block;
}

void rw_set_slot(Graph *g, int id, int side, const char *slot, const int *vars, int n) {
  Op *op = &g->ops[id];
  Slot **slots = side ? &op->out : &op->in;
  int *count = side ? &op->nout : &op->nin;
  Slot *s = (Slot *)slot_find(*slots, *count, slot);
  if (!s) {
    Slot *grown = pool_alloc(sizeof *grown * ((size_t)*count + 1));
    if (*count) memcpy(grown, *slots, sizeof *grown * (size_t)*count);
    *slots = grown;
    s = &grown[(*count)++];
    s->name = pool_strdup(slot);
  }
  s->n = n;
  s->vars = pool_alloc(sizeof(int) * ((size_t)n + 1));
  if (n) memcpy(s->vars, vars, sizeof(int) * (size_t)n);
}

/* The first var of slot `name`, or -1; the slot is marked as looked up by a
 * pass (Slot.seen: an input of an op a pass merges away that neither the
 * pass nor the op's rule looked up is refused, op_check_slots). */
static int used_first(const Slot *slots, int n, const char *name) {
  const Slot *s = slot_use(slots, n, name);
  return s && s->n > 0 ? s->vars[0] : -1;
}

int rw_in(const Graph *g, int id, const char *slot) { return used_first(g->ops[id].in, g->ops[id].nin, slot); }
int rw_out(const Graph *g, int id, const char *slot) { return used_first(g->ops[id].out, g->ops[id].nout, slot); }

/* Op `id`'s own OpDesc, with room for one more attribute. */
static OpDesc *own_desc(Graph *g, int id) {
  OpDesc *d = (OpDesc *)g->ops[id].desc;
  OpAttr **attrs = pool_alloc(sizeof *attrs * (d->n_attrs + 1));
  if (d->n_attrs) memcpy(attrs, d->attrs, sizeof *attrs * d->n_attrs);
  d->attrs = attrs;
  return d;
}

/* Replaces the attribute named like `a`, or appends it. */
static void put_attr(Graph *g, int id, OpAttr *a) {
  OpDesc *d = own_desc(g, id);
  for (size_t i = 0; i < d->n_attrs; i++)
    if (d->attrs[i]->name && !strcmp(d->attrs[i]->name, a->name)) {
      d->attrs[i] = a;
      return;
    }
  d->attrs[d->n_attrs++] = a;
}

void rw_copy_attrs(Graph *g, int dst, int src) {
  const OpDesc *s = g->ops[src].desc;
  for (size_t i = 0; i < s->n_attrs; i++)
    if (s->attrs[i]->name) put_attr(g, dst, s->attrs[i]);
}

static OpAttr *new_attr(const char *name, int type) {
  OpAttr *a = pool_alloc(sizeof *a);
  paddlec__fw__op_desc__attr__init(a);
  a->name = pool_strdup(name);
  a->type = type;
  a->has_type = 1;
  return a;
}

void rw_attr_int(Graph *g, int id, const char *name, int64_t v) {
  OpAttr *a = new_attr(name, AT_LONG);
  a->l = v;
  a->has_l = 1;
  put_attr(g, id, a);
}

void rw_attr_float(Graph *g, int id, const char *name, double v) {
  OpAttr *a = new_attr(name, AT_FLOAT64);
  a->float64 = v;
  a->has_float64 = 1;
  put_attr(g, id, a);
}

void rw_attr_bool(Graph *g, int id, const char *name, int v) {
  OpAttr *a = new_attr(name, AT_BOOLEAN);
  a->b = v != 0;
  a->has_b = 1;
  put_attr(g, id, a);
}

void rw_attr_str(Graph *g, int id, const char *name, const char *v) {
  OpAttr *a = new_attr(name, AT_STRING);
  a->s = pool_strdup(v);
  put_attr(g, id, a);
}

void rw_attr_ints(Graph *g, int id, const char *name, const int64_t *v, int n) {
  OpAttr *a = new_attr(name, AT_LONGS);
  a->longs = pool_alloc(sizeof(int64_t) * ((size_t)n + 1));
  if (n) memcpy(a->longs, v, sizeof(int64_t) * (size_t)n);
  a->n_longs = (size_t)n;
  put_attr(g, id, a);
}

void rw_attr_strs(Graph *g, int id, const char *name, const char *const *v, int n) {
  OpAttr *a = new_attr(name, AT_STRINGS);
  a->strings = pool_alloc(sizeof(char *) * ((size_t)n + 1));
  for (int i = 0; i < n; i++) a->strings[i] = pool_strdup(v[i]);
  a->n_strings = (size_t)n;
  put_attr(g, id, a);
}

void rw_set_fused(Graph *g, int id, const int *ops, int n) {
  int total = 0;
  for (int i = 0; i < n; i++) total += g->ops[ops[i]].nfused ? g->ops[ops[i]].nfused : 1;
  int *list = pool_alloc(sizeof(int) * ((size_t)total + 1)), k = 0;
  for (int i = 0; i < n; i++) {
    const Op *o = &g->ops[ops[i]];
    if (!o->nfused) list[k++] = ops[i];
    for (int f = 0; f < o->nfused; f++) list[k++] = o->fused[f];
  }
  g->ops[id].fused = list;
  g->ops[id].nfused = k;
}

void rw_fuse(Graph *g, int id, const int *ops, int n) {
  rw_set_fused(g, id, ops, n);
  for (int i = 0; i < n; i++) rw_remove_op(g, ops[i]);
}

/* `base` + "@fuse" + a number that makes it unique in the program. */
static const char *unique_name(const Graph *g, const char *base) {
  for (int k = 0;; k++) {
    const char *name = pool_printf("%s@fuse%d", base, k);
    int taken = 0;
    for (int b = 0; b < g->nblocks && !taken; b++) taken = graph_find_var(g, b, name) >= 0;
    if (!taken) return name;
  }
}

int rw_new_var(Graph *g, const char *base, int dtype, const Shape *s) {
  int id = graph_new_var(g, 0, unique_name(g, base));
  Var *v = &g->vars[id];
  v->vtype = VT_LOD_TENSOR;
  v->dtype = v->decl_dtype = dtype;
  v->shape = v->decl = *s;
  v->flags |= VAR_INFERRED;
  return id;
}

int rw_new_param(Graph *g, const char *base, int dtype, const Shape *s, const void *data) {
  int id = rw_new_var(g, base, dtype, s);
  Var *v = &g->vars[id];
  const int64_t bytes = shape_bytes(s, dtype);
  if (bytes < 0) diag_internal("rw_new_param: '%s' %s has no size", v->name, shape_str(s));
  uint8_t *copy = pool_alloc(bytes ? (size_t)bytes : 1);
  memcpy(copy, data, (size_t)bytes);
  v->param_data = copy;
  v->param_file = "(computed by paddlec)";
  v->flags |= VAR_PERSISTABLE | VAR_PARAM | VAR_LOADED;
  return id;
}

void rw_each_op(Graph *g, int *changes, int (*fn)(Graph *g, int op)) {
  const Block *b = &g->blocks[0];
  int n = b->nops, *ops = pool_alloc(sizeof(int) * ((size_t)n + 1));
  memcpy(ops, b->ops, sizeof(int) * (size_t)n);
  for (int k = 0; k < n; k++) {
    if (g->ops[ops[k]].removed || !fn(g, ops[k])) continue;
    (*changes)++;
    graph_relink(g);
  }
}

void rw_replace_uses(Graph *g, int from, int to) {
  for (int b = 0; b < g->nblocks; b++)
    for (int k = 0; k < g->blocks[b].nops; k++) {
      Op *op = &g->ops[g->blocks[b].ops[k]];
      for (int s = 0; s < op->nin; s++)
        for (int a = 0; a < op->in[s].n; a++)
          if (op->in[s].vars[a] == from) op->in[s].vars[a] = to;
    }
}

void rw_positions(const Graph *g, RwOrder *o) {
  const Block *b = &g->blocks[0];
  o->n = b->nops;
  o->ops = b->ops;
  o->pos = pool_alloc(sizeof(int) * ((size_t)g->nops + 1));
  for (int i = 0; i < g->nops; i++) o->pos[i] = -1;
  for (int k = 0; k < b->nops; k++) o->pos[b->ops[k]] = k;
}

int rw_sole_user(const Graph *g, int v) {
  const Var *x = &g->vars[v];
  if (x->nusers != 1 || (x->flags & VAR_FETCH)) return -1;
  return x->users[0];
}

int rw_is_param(const Graph *g, int v) { return v >= 0 && (g->vars[v].flags & VAR_PARAM) != 0; }

float *rw_param_f32(const Graph *g, int v) {
  if (!rw_is_param(g, v)) return NULL;
  const Var *x = &g->vars[v];
  if (!(x->flags & VAR_LOADED) || !x->param_data || x->dtype != RT_DT_FP32) return NULL;
  int64_t n = shape_numel(&x->shape);
  if (n < 0) return NULL;
  float *f = pool_alloc(sizeof(float) * ((size_t)n + 1));
  memcpy(f, x->param_data, sizeof(float) * (size_t)n);
  return f;
}

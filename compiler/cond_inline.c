/* If-conversion of small conditional blocks (cond_inline.h). */
#include "cond_inline.h"

#include <string.h>

#include "attr.h"
#include "rewrite.h"
#include "util.h"

static int small_tensor(const Var *v) {
  const int64_t n = shape_numel(&v->shape);
  return v->vtype == VT_LOD_TENSOR && n >= 0 && n <= COND_INLINE_MAX;
}

/* The condition of a conditional_block that may be inlined, or -1. */
static int inline_cond(const Graph *g, const Op *c) {
  if (strcmp(c->type, "conditional_block") && strcmp(c->type, "conditional_block_infer")) return -1;
  if (c->sub_block <= 0 || c->sub_block >= g->nblocks || !attr_bool(c, "is_scalar_condition", 0)) return -1;
  int cond = -1;
  for (int s = 0; s < c->nin; s++)
    if (!strcmp(c->in[s].name, "Cond") && c->in[s].n == 1) cond = c->in[s].vars[0];
  if (cond < 0 || g->vars[cond].dtype != RT_DT_BOOL || !small_tensor(&g->vars[cond])) return -1;
  const Block *b = &g->blocks[c->sub_block];
  for (int k = 0; k < b->nops; k++) {
    const Op *op = &g->ops[b->ops[k]];
    if (op->sub_block >= 0 || attr_has(op, "seed")) return -1;
    for (int side = 0; side < 2; side++)
      for (int s = 0; s < (side ? op->nout : op->nin); s++) {
        const Slot *sl = side ? &op->out[s] : &op->in[s];
        for (int a = 0; a < sl->n; a++)
          if (sl->vars[a] >= 0 && !small_tensor(&g->vars[sl->vars[a]])) return -1;
      }
  }
  return cond;
}

/* A var of block 0 named `name`, or `name@condN` when that is taken. */
static int block0_var(Graph *g, const char *name, const Var *like) {
  const char *n = name;
  for (int k = 0; graph_find_var(g, 0, n) >= 0; k++) n = pool_printf("%s@cond%d", name, k);
  const int id = graph_new_var(g, 0, n);
  Var *v = &g->vars[id];
  v->vtype = VT_LOD_TENSOR;
  v->dtype = v->decl_dtype = like->dtype;
  v->shape = v->decl = like->shape;
  v->flags |= VAR_INFERRED;
  return id;
}

/* Whether outer var v holds a value before op `at` of block 0 runs: state,
 * data, or written by an earlier op. */
static int has_value(const Graph *g, int v, int at) {
  if (g->vars[v].flags & (VAR_PERSISTABLE | VAR_NEED_CHECK_FEED | VAR_FEED)) return 1;
  const Block *b = &g->blocks[0];
  for (int k = 0; k < b->nops && b->ops[k] != at; k++) {
    const Op *op = &g->ops[b->ops[k]];
    for (int s = 0; s < op->nout; s++)
      for (int a = 0; a < op->out[s].n; a++)
        if (op->out[s].vars[a] == v) return 1;
  }
  return 0;
}

/* What the sub-block's vars become in block 0: map[id] (id itself when
 * unchanged), and for the outer vars that need a select, the fresh var
 * the branch writes (fresh[id], -1 otherwise) once it has written it. */
typedef struct Remap {
  int *map, *fresh, *written;
  int *order, norder; /* outer vars with a fresh copy, in first-write order */
} Remap;

static int remap_in(const Remap *r, int id) {
  if (id < 0) return id;
  id = r->map[id];
  return r->fresh[id] >= 0 && r->written[id] ? r->fresh[id] : id;
}

static int remap_out(Remap *r, int id) {
  if (id < 0) return id;
  id = r->map[id];
  if (r->fresh[id] < 0) return id;
  if (!r->written[id]) r->order[r->norder++] = id;
  r->written[id] = 1;
  return r->fresh[id];
}

/* A new op after `last` whose provenance is the conditional_block `c` it
 * stands for. */
static int new_op(Graph *g, const char *type, int last, int c, int role) {
  const int id = rw_new_op(g, type, last, 1);
  g->ops[id].file_block = g->ops[c].file_block;
  g->ops[id].index = g->ops[c].index;
  rw_attr_int(g, id, "op_role", role);
  return id;
}

static void inline_one(Graph *g, int c, int cond) {
  const Op *cop = &g->ops[c];
  const int sub = cop->sub_block, role = (int)attr_int(cop, "op_role", 0);
  const Block *b = &g->blocks[sub];
  const int nops = b->nops, nv = g->nvars;
  int *ops = pool_alloc(sizeof(int) * ((size_t)nops + 1));
  memcpy(ops, b->ops, sizeof(int) * (size_t)nops);
  /* room for every var of the sub-block twice over (a local and a fresh copy each) */
  const size_t cap = (size_t)nv * 3 + 8;
  Remap r = {pool_alloc(sizeof(int) * cap), pool_alloc(sizeof(int) * cap), pool_alloc(sizeof(int) * cap),
             pool_alloc(sizeof(int) * cap), 0};
  for (size_t i = 0; i < cap; i++) {
    r.map[i] = (int)i;
    r.fresh[i] = -1;
    r.written[i] = 0;
  }
  for (int k = 0; k < nops; k++) {
    const Op *op = &g->ops[ops[k]];
    for (int side = 0; side < 2; side++)
      for (int s = 0; s < (side ? op->nout : op->nin); s++) {
        const Slot *sl = side ? &op->out[s] : &op->in[s];
        for (int a = 0; a < sl->n; a++) {
          const int id = sl->vars[a];
          if (id < 0 || r.map[id] != id || r.fresh[id] >= 0) continue;
          if (g->vars[id].block != 0) { /* a local of the sub-block (or of a block between: never, no nesting) */
            r.map[id] = block0_var(g, g->vars[id].name, &g->vars[id]);
          } else if (side && has_value(g, id, c)) {
            r.fresh[id] = block0_var(g, pool_printf("%s@cond", g->vars[id].name), &g->vars[id]);
          }
        }
      }
  }
  int last = c;
  for (int k = 0; k < nops; k++) {
    Op *op = &g->ops[ops[k]];
    for (int s = 0; s < op->nin; s++)
      for (int a = 0; a < op->in[s].n; a++) op->in[s].vars[a] = remap_in(&r, op->in[s].vars[a]);
    for (int s = 0; s < op->nout; s++)
      for (int a = 0; a < op->out[s].n; a++) op->out[s].vars[a] = remap_out(&r, op->out[s].vars[a]);
    rw_move_op(g, ops[k], last);
    last = ops[k];
  }
  if (r.norder) {
    const Shape one = {1, {1}};
    const int mask = block0_var(g, pool_printf("%s@mask", g->vars[cond].name), &g->vars[cond]);
    g->vars[mask].dtype = g->vars[mask].decl_dtype = RT_DT_INT32;
    g->vars[mask].shape = g->vars[mask].decl = g->vars[cond].shape.rank >= 0 ? g->vars[cond].shape : one;
    const int cast = new_op(g, "cast", last, c, role);
    rw_set_slot(g, cast, 0, "X", &cond, 1);
    rw_set_slot(g, cast, 1, "Out", &mask, 1);
    rw_attr_int(g, cast, "in_dtype", RT_DT_BOOL);
    rw_attr_int(g, cast, "out_dtype", RT_DT_INT32);
    last = cast;
    for (int i = 0; i < r.norder; i++) {
      const int w = r.order[i], xs[2] = {w, r.fresh[w]};
      const int sel = new_op(g, "select_input", last, c, role);
      rw_set_slot(g, sel, 0, "X", xs, 2);
      rw_set_slot(g, sel, 0, "Mask", &mask, 1);
      rw_set_slot(g, sel, 1, "Out", &w, 1);
      last = sel;
    }
  }
  rw_remove_op(g, c);
}

int cond_inline(Graph *g) {
  const Block *b = &g->blocks[0];
  const int n = b->nops;
  int *ops = pool_alloc(sizeof(int) * ((size_t)n + 1)), done = 0;
  memcpy(ops, b->ops, sizeof(int) * (size_t)n);
  for (int k = 0; k < n; k++) {
    const int cond = inline_cond(g, &g->ops[ops[k]]);
    if (cond < 0) continue;
    inline_one(g, ops[k], cond);
    done++;
  }
  if (done) graph_relink(g);
  return done;
}

/* Builds the IR from a decoded ProgramDesc (see graph.h). */
#include "graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attr.h"
#include "diag.h"
#include "ops/ops.h"
#include "util.h"

static uint32_t hash_str(const char *s) {
  uint32_t h = 2166136261u; /* FNV-1a */
  for (; *s; s++) h = (h ^ (uint8_t)*s) * 16777619u;
  return h;
}

static int block_lookup(const Graph *g, const Block *b, const char *name) {
  if (!b->hcap) return -1;
  for (uint32_t i = hash_str(name) & (uint32_t)(b->hcap - 1);;
       i = (i + 1) & (uint32_t)(b->hcap - 1)) {
    int id = b->htab[i] - 1;
    if (id < 0) return -1;
    if (strcmp(g->vars[id].name, name) == 0) return id;
  }
}

static void block_insert(Graph *g, Block *b, int id);

/* Doubles a block's name table and re-inserts its vars. */
static void block_grow(Graph *g, Block *b) {
  b->hcap = b->hcap ? b->hcap * 2 : 16;
  b->htab = pool_alloc((size_t)b->hcap * sizeof(int));
  for (int k = 0; k < b->nvars; k++) block_insert(g, b, b->vars[k]);
}

static void block_insert(Graph *g, Block *b, int id) {
  if ((b->nvars + 1) * 2 > b->hcap) block_grow(g, b);
  for (uint32_t i = hash_str(g->vars[id].name) & (uint32_t)(b->hcap - 1);;
       i = (i + 1) & (uint32_t)(b->hcap - 1))
    if (!b->htab[i]) {
      b->htab[i] = id + 1;
      return;
    }
}

/* Op's attr_vars: the vars its VAR / VARS attributes name. */
static void find_attr_vars(const Graph *g, Op *op) {
  int n = 0;
  for (size_t i = 0; op->desc && i < op->desc->n_attrs; i++) {
    const OpAttr *a = op->desc->attrs[i];
    n += a->type == AT_VAR ? 1 : a->type == AT_VARS ? (int)a->n_vars_name : 0;
  }
  op->nattr_vars = 0;
  if (!n) return;
  op->attr_vars = pool_alloc(sizeof *op->attr_vars * (size_t)n);
  op->attr_var_names = pool_alloc(sizeof *op->attr_var_names * (size_t)n);
  for (size_t i = 0; i < op->desc->n_attrs; i++) {
    const OpAttr *a = op->desc->attrs[i];
    const size_t m = a->type == AT_VAR ? 1 : a->type == AT_VARS ? a->n_vars_name : 0;
    for (size_t k = 0; k < m; k++) {
      const char *name = a->type == AT_VAR ? a->var_name : a->vars_name[k];
      const int v = name ? graph_find_var(g, op->block, name) : -1;
      if (v >= 0) op->attr_vars[op->nattr_vars] = v, op->attr_var_names[op->nattr_vars++] = a->name;
    }
  }
}

/* Paddle's BlockDesc::FindVarRecursive: breadth-first from `block` over
 * each block's forward block (backward blocks of training programs) and
 * parent, each block visited once. */
int graph_find_var(const Graph *g, int block, const char *name) {
  enum { SMALL = 64 };
  int small_q[SMALL];
  unsigned char small_seen[SMALL] = {0};
  int *q = small_q;
  unsigned char *seen = small_seen;
  if (block < 0 || block >= g->nblocks) return -1;
  if (g->nblocks > SMALL) {
    q = pool_alloc(sizeof *q * (size_t)g->nblocks);
    seen = pool_alloc((size_t)g->nblocks);
  }
  int head = 0, tail = 0;
  q[tail++] = block;
  seen[block] = 1;
  while (head < tail) {
    const Block *b = &g->blocks[q[head++]];
    int id = block_lookup(g, b, name);
    if (id >= 0) return id;
    int next[2] = {b->forward, b->parent};
    for (int k = 0; k < 2; k++)
      if (next[k] >= 0 && next[k] < g->nblocks && !seen[next[k]]) {
        seen[next[k]] = 1;
        q[tail++] = next[k];
      }
  }
  return -1;
}

const char *graph_op_where(const Graph *g, const Op *op) {
  const char *out = NULL;
  for (int s = 0; s < op->nout && !out; s++)
    for (int k = 0; k < op->out[s].n && !out; k++)
      if (op->out[s].vars[k] >= 0) out = g->vars[op->out[s].vars[k]].name;
  if (out) return pool_printf("block %d op %d (%s -> %s)", op->file_block, op->index, op->type, out);
  return pool_printf("block %d op %d (%s)", op->file_block, op->index, op->type);
}

/* Fills a var's kind, dtype and dims from its VarType. */
static void read_var_type(Var *v, const Paddlec__Fw__VarType *t) {
  const Paddlec__Fw__VarType__TensorDesc *td = NULL;
  v->vtype = t ? t->type : -1;
  v->decl_dtype = -1;
  v->decl.rank = -1;
  if (!t) return;
  if (t->lod_tensor && t->lod_tensor->tensor) {
    td = t->lod_tensor->tensor;
    v->lod_level = t->lod_tensor->lod_level;
  } else if (t->tensor_array && t->tensor_array->tensor) {
    td = t->tensor_array->tensor;
    v->lod_level = t->tensor_array->lod_level;
  } else if (t->selected_rows) {
    td = t->selected_rows;
  }
  if (!td) return;
  v->decl_dtype = td->data_type;
  v->decl.rank = (int)td->n_dims;
  if (td->n_dims > RT_MAX_RANK) v->decl.rank = RT_MAX_RANK; /* checked later */
  for (int i = 0; i < v->decl.rank; i++) v->decl.d[i] = td->dims[i];
}

static int add_var(Graph *g, int block, const Paddlec__Fw__VarDesc *vd) {
  Var v = {0};
  v.name = vd->name ? vd->name : "";
  v.block = block;
  read_var_type(&v, vd->type);
  v.dtype = v.decl_dtype;
  v.shape = v.decl;
  v.producer = -1;
  v.feed_col = v.fetch_col = -1;
  v.nvals = -1;
  if (vd->persistable) v.flags |= VAR_PERSISTABLE;
  if (vd->need_check_feed) v.flags |= VAR_NEED_CHECK_FEED;
  if (vd->is_parameter) v.flags |= VAR_IS_PARAMETER;
  if (strstr(v.name, "@GRAD")) v.flags |= VAR_GRAD;
  VEC_PUSH(g->vars, g->nvars, g->vars_cap, v);
  return g->nvars - 1;
}

static void add_user(Var *v, int op) {
  if (v->nusers && v->users[v->nusers - 1] == op) return;
  VEC_PUSH(v->users, v->nusers, v->users_cap, op);
}

typedef struct UserOf {
  Graph *g;
  int op;
} UserOf;

static void add_attr_user(void *ctx, int v, const char *attr) {
  (void)attr;
  const UserOf *u = ctx;
  add_user(&u->g->vars[v], u->op);
}

/* Op id is a user of its inputs and of the tensors its attributes are
 * bound to, the producer of its outputs. */
static void link_op(Graph *g, int id) {
  Op *op = &g->ops[id];
  find_attr_vars(g, op);
  for (int s = 0; s < op->nin; s++)
    for (int a = 0; a < op->in[s].n; a++)
      if (op->in[s].vars[a] >= 0) add_user(&g->vars[op->in[s].vars[a]], id);
  op_each_attr_var(g, op, add_attr_user, &(UserOf){g, id});
  for (int s = 0; s < op->nout; s++)
    for (int a = 0; a < op->out[s].n; a++)
      if (op->out[s].vars[a] >= 0) g->vars[op->out[s].vars[a]].producer = id;
}

/* True when the op's definition says this slot names an executor-scope
 * object that programs never declare. */
static int is_scope_input(const Op *op, const char *slot) {
  if (!op->def || !op->def->scope_inputs) return 0;
  for (const char *const *s = op->def->scope_inputs; *s; s++)
    if (strcmp(*s, slot) == 0) return 1;
  return 0;
}

/* Declares an executor-scope object as a RAW var of block 0. */
static int add_scope_var(Graph *g, const Op *op, const char *name) {
  Paddlec__Fw__VarDesc vd = PADDLEC__FW__VAR_DESC__INIT;
  vd.name = (char *)name;
  int id = add_var(g, 0, &vd);
  g->vars[id].vtype = VT_RAW;
  Block *b = &g->blocks[0];
  (void)op;
  block_insert(g, b, id);
  VEC_PUSH(b->vars, b->nvars, b->vars_cap, id);
  return id;
}

/* Resolves the arguments of one side (inputs or outputs) of an op. */
static int bind_slots(Graph *g, Op *op, Paddlec__Fw__OpDesc__Var **src, size_t n,
                      Slot **dst, int *ndst) {
  int bad = 0;
  *ndst = (int)n;
  *dst = pool_alloc((n ? n : 1) * sizeof **dst);
  for (size_t s = 0; s < n; s++) {
    Slot *slot = &(*dst)[s];
    slot->name = src[s]->parameter ? src[s]->parameter : "";
    slot->n = (int)src[s]->n_arguments;
    slot->vars = pool_alloc((src[s]->n_arguments + 1) * sizeof(int));
    for (size_t k = 0; k < src[s]->n_arguments; k++) {
      const char *name = src[s]->arguments[k];
      if (!name || strcmp(name, "@EMPTY@") == 0 || !*name) {
        slot->vars[k] = -1;
        continue;
      }
      int id = graph_find_var(g, op->block, name);
      if (id < 0 && is_scope_input(op, slot->name)) id = add_scope_var(g, op, name);
      if (id < 0) {
        diag_error("%s: block %d op %d (%s): slot %s names variable '%s', which no block declares",
                   g->file, op->block, op->index, op->type, slot->name, name);
        bad = 1;
      }
      slot->vars[k] = id;
    }
  }
  return bad ? -1 : 0;
}

static int sort_by_col_feed(Graph *g, int *ids, int n, int is_feed) {
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0; j--) {
      Var *a = &g->vars[ids[j - 1]], *b = &g->vars[ids[j]];
      int ca = is_feed ? a->feed_col : a->fetch_col;
      int cb = is_feed ? b->feed_col : b->fetch_col;
      if (ca <= cb) break;
      int t = ids[j - 1]; ids[j - 1] = ids[j]; ids[j] = t;
    }
  return 0;
}

/* Records feed/fetch targets from the feed and fetch ops of block 0. */
static void find_feeds_fetches(Graph *g) {
  int fcap = 0, tcap = 0;
  for (int i = 0; i < g->nops; i++) {
    Op *op = &g->ops[i];
    if (op->block != 0) continue;
    int feed = strcmp(op->type, "feed") == 0, fetch = strcmp(op->type, "fetch") == 0;
    if (!feed && !fetch) continue;
    const Slot *s = NULL;
    for (int k = 0; k < (feed ? op->nout : op->nin); k++) {
      const Slot *c = feed ? &op->out[k] : &op->in[k];
      if (strcmp(c->name, feed ? "Out" : "X") == 0) s = c;
    }
    if (!s || s->n < 1 || s->vars[0] < 0) continue;
    Var *v = &g->vars[s->vars[0]];
    int col = (int)attr_int(op, "col", feed ? g->nfeeds : g->nfetches);
    if (feed) {
      v->flags |= VAR_FEED;
      v->feed_col = col;
      VEC_PUSH(g->feeds, g->nfeeds, fcap, s->vars[0]);
    } else {
      v->flags |= VAR_FETCH;
      v->fetch_col = col;
      VEC_PUSH(g->fetches, g->nfetches, tcap, s->vars[0]);
    }
  }
  sort_by_col_feed(g, g->feeds, g->nfeeds, 1);
  sort_by_col_feed(g, g->fetches, g->nfetches, 0);
}

/* Parameters: persistable vars of every block whose kind carries data, minus
 * the feed/fetch holders, readers and RAW vars, de-duplicated by name and
 * sorted byte-wise (spec sections 5.2, 5.3). */
static void find_params(Graph *g) {
  const char **names = pool_alloc(((size_t)g->nvars + 1) * sizeof *names);
  int n = 0;
  for (int i = 0; i < g->nvars; i++) {
    Var *v = &g->vars[i];
    if (!(v->flags & VAR_PERSISTABLE)) continue;
    if (v->vtype == VT_FEED_MINIBATCH || v->vtype == VT_FETCH_LIST ||
        v->vtype == VT_READER || v->vtype == VT_RAW)
      continue;
    if (graph_find_var(g, 0, v->name) >= 0 && v->block != 0) continue;
    names[n++] = v->name;
  }
  qsort(names, (size_t)n, sizeof *names, cmp_bytes);
  g->params = pool_alloc(((size_t)n + 1) * sizeof(int));
  g->nparams = 0;
  for (int i = 0; i < n; i++) {
    if (i && strcmp(names[i], names[i - 1]) == 0) continue;
    int id = -1;
    for (int b = 0; b < g->nblocks && id < 0; b++) id = block_lookup(g, &g->blocks[b], names[i]);
    g->vars[id].flags |= VAR_PARAM;
    g->params[g->nparams++] = id;
  }
}

/* Paddle 2.5 made scalar results 0-D.  Release files say which side they are
 * on; develop builds write version 0, so there a declared rank-0 dense tensor
 * that is not a parameter tells. */
static int detect_zero_d(const Graph *g) {
  if (g->version >= 2005000) return 1;
  if (g->version > 0) return 0;
  for (int i = 0; i < g->nvars; i++) {
    const Var *v = &g->vars[i];
    if (v->vtype == VT_LOD_TENSOR && v->decl.rank == 0 && !(v->flags & VAR_PERSISTABLE))
      return 1;
  }
  return 0;
}

/* Control flow may nest blocks but never loop: no block may run itself
 * through the sub_block attributes of its ops (depth-first search, colour
 * 1 = on the path, 2 = done). */
static int check_sub_blocks(const Graph *g) {
  unsigned char *colour = pool_alloc((size_t)g->nblocks);
  int *stack = pool_alloc(sizeof(int) * (size_t)g->nblocks * 2), *pos = stack + g->nblocks;
  for (int root = 0; root < g->nblocks; root++) {
    if (colour[root]) continue;
    int top = 0;
    stack[top] = root;
    pos[top] = 0;
    colour[root] = 1;
    while (top >= 0) {
      const Block *b = &g->blocks[stack[top]];
      if (pos[top] == b->nops) {
        colour[stack[top--]] = 2;
        continue;
      }
      const Op *op = &g->ops[b->ops[pos[top]++]];
      const int sub = op->sub_block;
      if (sub < 0) continue;
      if (colour[sub] == 1)
        return diag_error("%s: %s: sub_block %d runs block %d again (a cycle through sub-blocks)", g->file,
                          graph_op_where(g, op), sub, sub);
      if (colour[sub]) continue;
      colour[sub] = 1;
      stack[++top] = sub;
      pos[top] = 0;
    }
  }
  return 0;
}

int graph_build(Graph *g, ProgramDesc *pd, const char *file) {
  int bad = 0;
  memset(g, 0, sizeof *g);
  g->file = file;
  g->pd = pd;
  g->version = pd->version && pd->version->has_version ? pd->version->version : -1;
  if (pd->n_blocks == 0) return diag_error("%s: the program has no blocks", file);
  g->nblocks = (int)pd->n_blocks;
  g->blocks = pool_alloc(pd->n_blocks * sizeof *g->blocks);
  for (size_t b = 0; b < pd->n_blocks; b++) {
    const Paddlec__Fw__BlockDesc *bd = pd->blocks[b];
    Block *blk = &g->blocks[b];
    blk->idx = (int)b;
    blk->parent = b == 0 ? -1 : (bd->has_parent_idx ? bd->parent_idx : 0);
    blk->forward = bd->has_forward_block_idx ? bd->forward_block_idx : -1;
    if (blk->parent >= (int)b || blk->parent < -1) {
      diag_error("%s: block %zu has parent %d, which is not an earlier block", file, b, blk->parent);
      blk->parent = b ? 0 : -1;
      bad = 1;
    }
    block_grow(g, blk);
    for (size_t k = 0; k < bd->n_vars; k++) {
      if (!bd->vars[k]->name || !*bd->vars[k]->name) {
        diag_error("%s: block %zu var %zu has no name", file, b, k);
        bad = 1;
        continue;
      }
      if (block_lookup(g, blk, bd->vars[k]->name) >= 0) {
        diag_error("%s: variable '%s' is declared twice in block %zu", file, bd->vars[k]->name, b);
        bad = 1;
        continue;
      }
      int id = add_var(g, (int)b, bd->vars[k]);
      const char *why;
      if (bd->vars[k]->type && bd->vars[k]->type->lod_tensor &&
          bd->vars[k]->type->lod_tensor->tensor &&
          bd->vars[k]->type->lod_tensor->tensor->n_dims > RT_MAX_RANK) {
        diag_error("%s: variable '%s' has %zu dims; at most %d are supported", file,
                   bd->vars[k]->name, bd->vars[k]->type->lod_tensor->tensor->n_dims, RT_MAX_RANK);
        bad = 1;
      } else if ((why = shape_size_problem(&g->vars[id].decl, g->vars[id].decl_dtype, bd->vars[k]->persistable))) {
        diag_error("%s: variable '%s': %s", file, g->vars[id].name, why);
        bad = 1;
      }
      block_insert(g, blk, id);
      VEC_PUSH(blk->vars, blk->nvars, blk->vars_cap, id);
    }
  }
  AttrMarks *marks = attr_marks_new();
  for (size_t b = 0; b < pd->n_blocks; b++) {
    const Paddlec__Fw__BlockDesc *bd = pd->blocks[b];
    Block *blk = &g->blocks[b];
    blk->ops = pool_alloc((bd->n_ops + 1) * sizeof(int));
    for (size_t k = 0; k < bd->n_ops; k++) {
      Op op = {0};
      op.desc = bd->ops[k];
      op.marks = marks;
      op.type = op.desc->type ? op.desc->type : "";
      op.block = op.file_block = (int)b;
      op.index = (int)k;
      if (!*op.type) {
        diag_error("%s: block %zu op %zu has no type", file, b, k);
        bad = 1;
      }
      op.def = op_def_find(op.type); /* before binding: it names scope inputs */
      if (bind_slots(g, &op, op.desc->inputs, op.desc->n_inputs, &op.in, &op.nin) ||
          bind_slots(g, &op, op.desc->outputs, op.desc->n_outputs, &op.out, &op.nout))
        bad = 1;
      op.sub_block = attr_block(&op, "sub_block");
      if (op.sub_block < 0) op.sub_block = attr_block(&op, "block");
      if (op.sub_block >= g->nblocks) {
        diag_error("%s: block %zu op %zu (%s): sub_block %d does not exist", file, b, k,
                   op.type, op.sub_block);
        bad = 1;
        op.sub_block = -1;
      }
      VEC_PUSH(g->ops, g->nops, g->ops_cap, op);
      blk->ops[blk->nops++] = g->nops - 1;
    }
  }
  if (!bad) bad = check_sub_blocks(g);
  if (bad) return -1;
  for (int i = 0; i < g->nops; i++) link_op(g, i);
  find_feeds_fetches(g);
  find_params(g);
  g->zero_d = detect_zero_d(g);
  return 0;
}

int graph_new_var(Graph *g, int block, const char *name) {
  Paddlec__Fw__VarDesc vd = PADDLEC__FW__VAR_DESC__INIT;
  vd.name = (char *)name;
  int id = add_var(g, block, &vd);
  g->vars[id].name = pool_strdup(name);
  Block *b = &g->blocks[block];
  block_insert(g, b, id);
  VEC_PUSH(b->vars, b->nvars, b->vars_cap, id);
  return id;
}

/* Insertion sort of the parameter ids by name (byte-wise). */
static void sort_params(Graph *g) {
  for (int i = 1; i < g->nparams; i++)
    for (int j = i; j > 0 && strcmp(g->vars[g->params[j - 1]].name, g->vars[g->params[j]].name) > 0; j--) {
      int t = g->params[j - 1];
      g->params[j - 1] = g->params[j];
      g->params[j] = t;
    }
}

void graph_relink(Graph *g) {
  for (int i = 0; i < g->nvars; i++) {
    g->vars[i].producer = -1;
    g->vars[i].nusers = 0;
  }
  for (int b = 0; b < g->nblocks; b++)
    for (int k = 0; k < g->blocks[b].nops; k++) link_op(g, g->blocks[b].ops[k]);
  int n = 0;
  int *params = pool_alloc(sizeof(int) * ((size_t)g->nvars + 1));
  for (int i = 0; i < g->nvars; i++)
    if ((g->vars[i].flags & VAR_PARAM) && (g->vars[i].nusers || (g->vars[i].flags & VAR_KEEP))) params[n++] = i;
  g->params = params;
  g->nparams = n;
  sort_params(g);
}

int graph_op_verror(const Graph *g, const Op *op, const char *fmt, va_list ap) {
  char msg[512];
  vsnprintf(msg, sizeof msg, fmt, ap);
  return diag_error("%s: %s: %s", g->file, graph_op_where(g, op), msg);
}

void graph_free(Graph *g) {
  if (g->pd) paddlec__fw__program_desc__free_unpacked(g->pd, NULL);
  g->pd = NULL;
}

int64_t shape_numel(const Shape *s) {
  int64_t n;
  /* cppcheck-suppress ctunullpointer ; tensor_list_len's NULL (from reduce.c) comes with n 0, which returns first */
  if (s->rank < 0) return -1;
  for (int i = 0; i < s->rank; i++)
    if (s->d[i] < 0) return -1;
  return rt_size_numel(s->d, s->rank, &n, NULL) ? -1 : n;
}

int64_t shape_bytes(const Shape *s, int dtype) {
  const int64_t n = shape_numel(s), es = (int64_t)rt_dtype_size(dtype);
  int64_t bytes;
  return n < 0 || !es || rt_size_mul(n, es, &bytes) ? -1 : bytes;
}

const char *shape_size_problem(const Shape *s, int dtype, int declared) {
  int64_t d[RT_MAX_RANK], n, bound;
  if (s->rank < 0) return NULL;
  for (int i = 0; i < s->rank; i++) {
    if (declared && s->d[i] < DIM_UNKNOWN)
      return pool_printf("dim %d is %lld; a dim is >= 0, or -1 when unknown", i, (long long)s->d[i]);
    d[i] = s->d[i] < 0 ? 1 : s->d[i];
  }
  const size_t es = rt_dtype_size(dtype);
  if (rt_size_numel(d, s->rank, &n, &bound) || rt_size_mul(bound, es ? (int64_t)es : 1, &n))
    return pool_printf("dims %s hold more %s than fit in 64 bits", shape_str(s), es ? "bytes" : "elements");
  return NULL;
}

int shape_equal(const Shape *a, const Shape *b) {
  if (a->rank != b->rank) return 0;
  for (int i = 0; i < a->rank; i++)
    if (a->d[i] != b->d[i]) return 0;
  return 1;
}

const Slot *slot_find(const Slot *slots, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(slots[i].name, name)) return &slots[i];
  return NULL;
}

Slot *slot_use(const Slot *slots, int n, const char *name) {
  Slot *s = (Slot *)slot_find(slots, n, name);
  if (s) s->seen = 1;
  return s;
}

int slot_first(const Slot *slots, int n, const char *name) {
  const Slot *s = slot_find(slots, n, name);
  return s && s->n > 0 ? s->vars[0] : -1;
}

int shape_agrees(const Shape *a, const Shape *b) {
  if (a->rank != b->rank) return 0;
  for (int i = 0; i < a->rank; i++)
    if (a->d[i] != b->d[i] && a->d[i] >= 0 && b->d[i] >= 0) return 0;
  return 1;
}

const char *shape_str(const Shape *s) {
  if (s->rank < 0) return "?";
  char buf[RT_MAX_RANK * 24 + 4];
  size_t n = 0;
  buf[n++] = '[';
  for (int i = 0; i < s->rank; i++)
    n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%lld", i ? ", " : "", (long long)s->d[i]);
  buf[n++] = ']';
  buf[n] = 0;
  return pool_strdup(buf);
}

/* The sub-blocks of control-flow ops (subblock.h). */
#include "subblock.h"

#include <string.h>

#include "attr.h"
#include "ops/ops.h"
#include "util.h"

int op_runs_block(const Graph *g, const Op *op) {
  if (op->sub_block <= 0 || op->sub_block >= g->nblocks || op->sub_block == op->block) return 0;
  return !strcmp(op->type, "while") || !strcmp(op->type, "conditional_block") ||
         !strcmp(op->type, "conditional_block_infer") || !strcmp(op->type, "recurrent") ||
         !strcmp(op->type, "conditional_block_grad") || !strcmp(op->type, "while_grad");
}

const Var *block_own_var(const Graph *g, int block, const char *name) {
  for (int v = 0; name && v < g->nvars; v++)
    if (g->vars[v].block == block && !strcmp(g->vars[v].name, name)) return &g->vars[v];
  return NULL;
}

/* The sub-block's own var named `name`, -1 (with *why) when it has none. */
static int inner_var(const Graph *g, const Op *op, const char *name, const char *what, const char **why) {
  const Var *v = block_own_var(g, op->sub_block, name);
  if (v) return (int)(v - g->vars);
  *why = pool_printf("its step block declares no var '%s' (%s)", name ? name : "?", what);
  return -1;
}

/* The vars of op's slot `slot`, n of them. */
static const int *slot_vars(const Op *op, const char *slot, int *n) {
  for (int s = 0; s < op->nin; s++)
    if (!strcmp(op->in[s].name, slot)) return *n = op->in[s].n, op->in[s].vars;
  for (int s = 0; s < op->nout; s++)
    if (!strcmp(op->out[s].name, slot)) return *n = op->out[s].n, op->out[s].vars;
  *n = 0;
  return NULL;
}

int step_links(const Graph *g, const Op *op, StepLinks *l, const char **why) {
  char *const *ex, *const *cur;
  int ninit, nex = attr_strs(op, "ex_states", &ex), ncur = attr_strs(op, "states", &cur);
  *l = (StepLinks){0};
  l->in_outer = slot_vars(op, "inputs", &l->nin);
  l->init = slot_vars(op, "initial_states", &ninit);
  l->out_outer = slot_vars(op, "outputs", &l->nout);
  if (!attr_bool(op, "has_states", 0)) ninit = nex = ncur = 0;
  if (ninit != nex || nex != ncur) {
    *why = pool_printf("%d initial_states, %d ex_states and %d states do not pair up", ninit, nex, ncur);
    return -1;
  }
  l->nstate = nex;
  int *in = pool_alloc(sizeof(int) * (size_t)(l->nin + 1)), *out = pool_alloc(sizeof(int) * (size_t)(l->nout + 1));
  int *exv = pool_alloc(sizeof(int) * (size_t)(nex + 1)), *curv = pool_alloc(sizeof(int) * (size_t)(nex + 1));
  for (int k = 0; k < l->nin; k++)
    if (l->in_outer[k] < 0 || (in[k] = inner_var(g, op, g->vars[l->in_outer[k]].name, "a step input", why)) < 0)
      return -1;
  for (int k = 0; k < l->nout; k++)
    if (l->out_outer[k] < 0 || (out[k] = inner_var(g, op, g->vars[l->out_outer[k]].name, "an output", why)) < 0)
      return -1;
  for (int k = 0; k < nex; k++)
    if (l->init[k] < 0 || (exv[k] = inner_var(g, op, ex[k], "an ex_state", why)) < 0 ||
        (curv[k] = inner_var(g, op, cur[k], "a state", why)) < 0)
      return -1;
  l->in_inner = in, l->out_inner = out, l->ex_state = exv, l->state = curv;
  return 0;
}

typedef struct AttrRead {
  const Graph *g;
  void (*fn)(void *, int, int);
  void *ctx;
} AttrRead;

static void attr_read(void *ctx, int v, const char *attr) {
  (void)attr;
  const AttrRead *r = ctx;
  if (r->g->vars[v].vtype == VT_LOD_TENSOR) r->fn(r->ctx, v, 0);
}

/* op's slots, and the tensors its attributes are bound to (read) */
static void slots_each(const Graph *g, const Op *op, void (*fn)(void *, int, int), void *ctx) {
  AttrRead r = {g, fn, ctx};
  op_each_attr_var(g, op, attr_read, &r);
  for (int side = 0; side < 2; side++)
    for (int s = 0; s < (side ? op->nout : op->nin); s++) {
      const Slot *sl = side ? &op->out[s] : &op->in[s];
      for (int a = 0; a < sl->n; a++)
        if (sl->vars[a] >= 0 && (g->vars[sl->vars[a]].vtype == VT_LOD_TENSOR || g->vars[sl->vars[a]].vtype == VT_LOD_TENSOR_ARRAY))
          fn(ctx, sl->vars[a], side);
    }
}

/* depth bounds the walk: graph.c refuses cycles through sub-blocks */
static void each_var(const Graph *g, const Op *op, void (*fn)(void *, int, int), void *ctx, int depth) {
  slots_each(g, op, fn, ctx);
  if (!op_runs_block(g, op) || depth > 64) return;
  StepLinks l = {0};
  const char *why;
  const int steps = !strcmp(op->type, "recurrent") && !step_links(g, op, &l, &why);
  for (int k = 0; steps && k < l.nin; k++) fn(ctx, l.in_inner[k], 1);
  for (int k = 0; steps && k < l.nstate; k++) fn(ctx, l.ex_state[k], 1);
  const Block *b = &g->blocks[op->sub_block];
  for (int k = 0; k < b->nops; k++)
    if (!g->ops[b->ops[k]].removed) each_var(g, &g->ops[b->ops[k]], fn, ctx, depth + 1);
  for (int k = 0; steps && k < l.nstate; k++) fn(ctx, l.state[k], 0);
  for (int k = 0; steps && k < l.nout; k++) fn(ctx, l.out_inner[k], 0);
}

void op_each_var(const Graph *g, const Op *op, void (*fn)(void *ctx, int var, int write), void *ctx) {
  each_var(g, op, fn, ctx, 0);
}

static void note_write(void *ctx, int v, int write) {
  int *p = ctx;
  if (write && v == p[0]) p[1] = 1;
}

int block_writes(const Graph *g, const Block *b, int from, int to, int v) {
  int probe[2] = {v, 0};
  for (int k = from; k < to && !probe[1]; k++)
    if (!g->ops[b->ops[k]].removed) op_each_var(g, &g->ops[b->ops[k]], note_write, probe);
  return probe[1];
}

static int block_any(const Graph *g, const Op *op, int (*pred)(const Graph *, const Op *), int depth) {
  if (!op_runs_block(g, op) || depth > 64) return 0;
  const Block *b = &g->blocks[op->sub_block];
  for (int k = 0; k < b->nops; k++) {
    const Op *o = &g->ops[b->ops[k]];
    if (!o->removed && (pred(g, o) || block_any(g, o, pred, depth + 1))) return 1;
  }
  return 0;
}

int op_block_any(const Graph *g, const Op *op, int (*pred)(const Graph *g, const Op *op)) {
  return block_any(g, op, pred, 0);
}

/* The first var of op's slot `slot` (slot_vars), or -1. */
static int slot_var(const Op *op, const char *slot) {
  int n;
  const int *v = slot_vars(op, slot, &n);
  return n ? v[0] : -1;
}

const Op *while_steps_grad(const Graph *g, const Op *w) {
  const int s = slot_var(w, "StepScopes");
  for (int i = 0; s >= 0 && i < g->nops; i++) {
    const Op *op = &g->ops[i];
    /* w's block, or the grad block of it (a loop inside a trained loop) */
    const int beside = op->block == w->block || (op->block >= 0 && g->blocks[op->block].forward == w->block);
    if (!op->removed && beside && !strcmp(op->type, "while_grad") && slot_var(op, "StepScopes") == s) return op;
  }
  return NULL;
}

int block_inside(const Graph *g, int b, int root) {
  for (int depth = 0; b >= 0 && b < g->nblocks && depth < 64; depth++, b = g->blocks[b].parent)
    if (b == root) return 1;
  return 0;
}

/* depth bounds the walk up: graph.c refuses cycles through sub-blocks */
static int compiled(const Graph *g, int b, int depth) {
  if (b == 0) return 1;
  if (b < 0 || b >= g->nblocks || depth > 64) return 0;
  for (int i = 0; i < g->nops; i++) {
    const Op *op = &g->ops[i];
    if (!op->removed && op->sub_block == b && op_runs_block(g, op) && op->def && op->def->emit_c)
      return compiled(g, op->block, depth + 1);
  }
  return 0;
}

int block_compiled(const Graph *g, int b) { return compiled(g, b, 0); }

/* The sub-blocks of control-flow ops (subblock.h). */
#include "subblock.h"

#include <string.h>

#include "ops/ops.h"

int op_runs_block(const Graph *g, const Op *op) {
  if (op->sub_block <= 0 || op->sub_block >= g->nblocks || op->sub_block == op->block) return 0;
  return !strcmp(op->type, "while") || !strcmp(op->type, "conditional_block") ||
         !strcmp(op->type, "conditional_block_infer");
}

static void slots_each(const Graph *g, const Op *op, void (*fn)(void *, int, int), void *ctx) {
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
  const Block *b = &g->blocks[op->sub_block];
  for (int k = 0; k < b->nops; k++)
    if (!g->ops[b->ops[k]].removed) each_var(g, &g->ops[b->ops[k]], fn, ctx, depth + 1);
}

void op_each_var(const Graph *g, const Op *op, void (*fn)(void *ctx, int var, int write), void *ctx) {
  each_var(g, op, fn, ctx, 0);
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

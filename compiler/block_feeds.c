/* Copies of the feeds a control-flow block writes (block_feeds.h). */
#include "block_feeds.h"

#include "rewrite.h"
#include "subblock.h"
#include "util.h"

/* The feeds a control-flow op's block writes. */
typedef struct Written {
  const Graph *g;
  int n, ids[8];
} Written;

static void written_feed(void *ctx, int id, int write) {
  Written *w = ctx;
  if (!write || !(w->g->vars[id].flags & VAR_FEED)) return;
  for (int k = 0; k < w->n; k++)
    if (w->ids[k] == id) return;
  if (w->n < 8) w->ids[w->n++] = id;
}

static void rename_in(Op *op, int from, int to) {
  for (int side = 0; side < 2; side++)
    for (int s = 0; s < (side ? op->nout : op->nin); s++) {
      Slot *sl = side ? &op->out[s] : &op->in[s];
      for (int a = 0; a < sl->n; a++)
        if (sl->vars[a] == from) sl->vars[a] = to;
    }
}

/* Every op from position `from` of block 0 on, and every op of a block
 * other than 0 under it, reads and writes `to` instead of `from`. */
static void rename_after(Graph *g, int from_pos, int from, int to) {
  for (int k = from_pos; k < g->blocks[0].nops; k++) rename_in(&g->ops[g->blocks[0].ops[k]], from, to);
  for (int b = 1; b < g->nblocks; b++)
    for (int k = 0; k < g->blocks[b].nops; k++) rename_in(&g->ops[g->blocks[b].ops[k]], from, to);
  for (int i = 0; i < g->nfetches; i++)
    if (g->fetches[i] == from) {
      g->fetches[i] = to;
      g->vars[to].flags |= VAR_FETCH;
      g->vars[to].fetch_col = g->vars[from].fetch_col;
    }
}

int block_copy_feeds(Graph *g) {
  int n = 0;
  for (int k = 0; k < g->blocks[0].nops; k++) {
    const int id = g->blocks[0].ops[k];
    if (!op_runs_block(g, &g->ops[id])) continue;
    for (Written w = {g, 0, {0}};; w.n = 0) { /* eight at a time: the renamed ones are no longer feeds */
      op_each_var(g, &g->ops[id], written_feed, &w);
      if (!w.n) break;
      for (int i = 0; i < w.n; i++) {
        const Var *f = &g->vars[w.ids[i]];
        const int copy = rw_new_var(g, pool_printf("%s@copy", f->name), g->vars[w.ids[i]].dtype, &g->vars[w.ids[i]].shape);
        rename_after(g, k, w.ids[i], copy);
        const int a = rw_new_op(g, "assign", id, 0);
        rw_set_slot(g, a, 0, "X", &w.ids[i], 1);
        rw_set_slot(g, a, 1, "Out", &copy, 1);
        k++; /* the control-flow op moved one on */
        n++;
      }
    }
  }
  if (n) graph_relink(g);
  return n;
}

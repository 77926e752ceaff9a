/* dead_code_elimination: ops of block 0 whose every output is read by no
 * op, not fetched and not persistable are removed, from the last op
 * backwards so that whole dead chains go in one sweep.
 *
 * A tensor an attribute is bound to (VAR, VARS) is read by that op.
 * Kept whatever their outputs: feed and fetch, ops with a sub-block or that
 * write no output at all (side effects: print, save, ...), ops that draw
 * from the global generator (the later draws depend on them), and ops that
 * write a var some op of another block reads.
 * Requires: producers and users up to date.  Invalidates: the removed ops. */
#include <string.h>

#include "ops/ops.h"
#include "pass.h"
#include "rewrite.h"
#include "util.h"

/* Adds `by` to the readers of the tensors op reads: its inputs and the
 * tensors its attributes are bound to (VAR, VARS: conv2d_transpose's
 * output_size = paddle.shape(y)[2:]: the op's rule takes their values,
 * which must still be there to fold); read[v] follows (NULL: not kept). */
typedef struct Reads {
  int by;
  int *readers;
  unsigned char *read;
} Reads;

static void count_read(void *ctx, int v, const char *attr) {
  (void)attr;
  Reads *r = ctx;
  if ((r->readers[v] += r->by) == 0 && r->read) r->read[v] = 0;
}

static void count_reads(const Graph *g, const Op *op, int by, int *readers, unsigned char *read) {
  Reads r = {by, readers, read};
  for (int s = 0; s < op->nin; s++)
    for (int a = 0; a < op->in[s].n; a++)
      if (op->in[s].vars[a] >= 0) count_read(&r, op->in[s].vars[a], NULL);
  op_each_attr_var(g, op, count_read, &r);
}

static int dead(const Graph *g, int id, const unsigned char *read) {
  const Op *op = &g->ops[id];
  if (!strcmp(op->type, "feed") || !strcmp(op->type, "fetch") || op->sub_block >= 0) return 0;
  if (op_global_rng(g, op)) return 0;
  int outputs = 0;
  for (int s = 0; s < op->nout; s++)
    for (int a = 0; a < op->out[s].n; a++) {
      int v = op->out[s].vars[a];
      if (v < 0) continue;
      outputs++;
      if (read[v] || (g->vars[v].flags & (VAR_FETCH | VAR_PERSISTABLE))) return 0;
    }
  return outputs > 0;
}

int pass_dead_code_elimination(Graph *g, PassCtx *c) {
  const Block *b0 = &g->blocks[0];
  unsigned char *read = pool_alloc((size_t)g->nvars + 1);
  /* what ops read, counting each reader until it is removed */
  int *readers = pool_alloc(sizeof(int) * ((size_t)g->nvars + 1));
  for (int b = 0; b < g->nblocks; b++)
    for (int k = 0; k < g->blocks[b].nops; k++) count_reads(g, &g->ops[g->blocks[b].ops[k]], 1, readers, NULL);
  for (int i = 0; i < g->nvars; i++) read[i] = readers[i] > 0;
  int n = b0->nops, *ops = pool_alloc(sizeof(int) * ((size_t)n + 1));
  memcpy(ops, b0->ops, sizeof(int) * (size_t)n);
  for (int k = n - 1; k >= 0; k--) {
    if (!dead(g, ops[k], read)) continue;
    count_reads(g, &g->ops[ops[k]], -1, readers, read); /* its inputs' producers may die with it */
    rw_remove_op(g, ops[k]);
    c->changes++;
  }
  if (c->changes) graph_relink(g);
  return 0;
}

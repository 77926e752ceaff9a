/* IR verifier (see verify.h). */
#include "verify.h"

#include <string.h>

#include "diag.h"
#include "infer.h"
#include "util.h"

static int fail(const Graph *g, const char *after, const char *msg) {
  return diag_error("%s: IR verification failed after %s: %s", g->file, after, msg);
}

/* Block 0's op list: valid ids, each once, none removed, all of block 0;
 * fused ops name only removed ops. */
static int check_ops(const Graph *g, const char *after) {
  const Block *b = &g->blocks[0];
  unsigned char *seen = pool_alloc((size_t)g->nops + 1);
  for (int k = 0; k < b->nops; k++) {
    int id = b->ops[k];
    if (id < 0 || id >= g->nops) return fail(g, after, pool_printf("block 0 position %d holds op id %d", k, id));
    const Op *op = &g->ops[id];
    if (seen[id]++) return fail(g, after, pool_printf("op %d (%s) is listed twice", id, op->type));
    if (op->removed || op->block != 0)
      return fail(g, after, pool_printf("%s is in block 0's list but %s", graph_op_where(g, op),
                                        op->removed ? "marked removed" : "belongs to another block"));
    for (int f = 0; f < op->nfused; f++)
      if (!g->ops[op->fused[f]].removed)
        return fail(g, after, pool_printf("%s fuses %s, which is still in the program", graph_op_where(g, op),
                                          graph_op_where(g, &g->ops[op->fused[f]])));
  }
  return 0;
}

/* Every input of a block-0 op is a feed, a persistable var, a var no op
 * writes (declared data such as holders), a tensor array (empty until
 * written: a loop's list of what it touches, array_length), or written by
 * an earlier op. */
static int check_defs(const Graph *g, const char *after) {
  const Block *b = &g->blocks[0];
  unsigned char *written = pool_alloc((size_t)g->nvars + 1), *defined = pool_alloc((size_t)g->nvars + 1);
  for (int k = 0; k < b->nops; k++) {
    const Op *op = &g->ops[b->ops[k]];
    for (int s = 0; s < op->nout; s++)
      for (int a = 0; a < op->out[s].n; a++)
        if (op->out[s].vars[a] >= 0) written[op->out[s].vars[a]] = 1;
  }
  for (int k = 0; k < b->nops; k++) {
    const Op *op = &g->ops[b->ops[k]];
    for (int s = 0; s < op->nin; s++)
      for (int a = 0; a < op->in[s].n; a++) {
        int v = op->in[s].vars[a];
        if (v < 0 || defined[v] || !written[v] || (g->vars[v].flags & (VAR_PERSISTABLE | VAR_FEED)) ||
            g->vars[v].vtype == VT_LOD_TENSOR_ARRAY)
          continue;
        return fail(g, after, pool_printf("%s reads '%s' before any op writes it", graph_op_where(g, op),
                                          g->vars[v].name));
      }
    for (int s = 0; s < op->nout; s++)
      for (int a = 0; a < op->out[s].n; a++)
        if (op->out[s].vars[a] >= 0) defined[op->out[s].vars[a]] = 1;
  }
  return 0;
}

/* Producers and users as graph_relink would compute them. */
static int check_links(Graph *g, const char *after) {
  int *producer = pool_alloc(sizeof(int) * ((size_t)g->nvars + 1)), *nusers = pool_alloc(sizeof(int) * ((size_t)g->nvars + 1));
  for (int i = 0; i < g->nvars; i++) producer[i] = g->vars[i].producer, nusers[i] = g->vars[i].nusers;
  graph_relink(g);
  for (int i = 0; i < g->nvars; i++)
    if (producer[i] != g->vars[i].producer || nusers[i] != g->vars[i].nusers)
      return fail(g, after, pool_printf("the producer or readers of '%s' are stale (graph_relink was not run)",
                                        g->vars[i].name));
  return 0;
}

/* Re-runs every rule: no var's shape or dtype may change. */
static int check_shapes(Graph *g, const char *after) {
  Shape *shape = pool_alloc(sizeof(Shape) * ((size_t)g->nvars + 1));
  int *dtype = pool_alloc(sizeof(int) * ((size_t)g->nvars + 1));
  for (int i = 0; i < g->nvars; i++) shape[i] = g->vars[i].shape, dtype[i] = g->vars[i].dtype;
  InferReport r;
  if (infer_program(g, &r)) return fail(g, after, "an op's shape rule rejects the rewritten program");
  for (int i = 0; i < g->nvars; i++) {
    const Var *v = &g->vars[i];
    if (shape_equal(&shape[i], &v->shape) && dtype[i] == v->dtype) continue;
    return fail(g, after, pool_printf("'%s' is %s %s, but its producer's rule gives %s %s", v->name,
                                      rt_dtype_name(dtype[i]), shape_str(&shape[i]), rt_dtype_name(v->dtype),
                                      shape_str(&v->shape)));
  }
  return 0;
}

int verify_graph(Graph *g, const char *after) {
  if (check_ops(g, after) || check_defs(g, after) || check_links(g, after) || check_shapes(g, after)) return -1;
  return 0;
}

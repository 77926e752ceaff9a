/* The parts of a training program for data parallelism (data_parallel.h). */
#include "data_parallel.h"

#include <string.h>

#include "attr.h"
#include "ops/ops.h"
#include "train.h"
#include "util.h"

/* The op whose op_role stands for op's: op itself when it has one, else the
 * op it was made from. */
static const Op *role_holder(const Graph *g, const Op *op) {
  if (attr_has(op, "op_role") || !op->from_pass) return op;
  if (op->nfused > 0) return role_holder(g, &g->ops[op->fused[0]]);
  for (int i = 0; i < g->nops; i++) {
    const Op *o = &g->ops[i];
    if (!o->from_pass && o->file_block == op->file_block && o->index == op->index) return o;
  }
  return op;
}

int dp_part_b(const Graph *g, const Op *op) {
  return (train_op_role(role_holder(g, op)) & (OP_ROLE_OPTIMIZE | OP_ROLE_LRSCHED)) != 0;
}

/* 1 when some var is bound both to a slot of `a` on side sa and of `b` on
 * side sb (0 inputs, 1 outputs). */
static int share(const Op *a, int sa, const Op *b, int sb) {
  const int na = sa ? a->nout : a->nin, nb = sb ? b->nout : b->nin;
  const Slot *xa = sa ? a->out : a->in, *xb = sb ? b->out : b->in;
  for (int i = 0; i < na; i++)
    for (int k = 0; k < xa[i].n; k++) {
      const int v = xa[i].vars[k];
      if (v < 0) continue;
      for (int j = 0; j < nb; j++)
        for (int l = 0; l < xb[j].n; l++)
          if (xb[j].vars[l] == v) return 1;
    }
  return 0;
}

const char *dp_order(Graph *g) {
  Block *b = &g->blocks[0];
  for (int i = 0; i < b->nops; i++) {
    const Op *ob = &g->ops[b->ops[i]];
    if (!dp_part_b(g, ob)) continue;
    for (int j = i + 1; j < b->nops; j++) {
      const Op *oa = &g->ops[b->ops[j]];
      if (dp_part_b(g, oa)) continue;
      if (share(ob, 1, oa, 0) || share(ob, 1, oa, 1) || share(ob, 0, oa, 1))
        return pool_printf("%s (an optimizer or learning-rate op) comes before %s, which depends on it or it on "
                           "which", graph_op_where(g, ob), graph_op_where(g, oa));
    }
  }
  int *order = pool_alloc(sizeof *order * (size_t)(b->nops ? b->nops : 1)), n = 0;
  for (int part = 0; part < 2; part++)
    for (int i = 0; i < b->nops; i++)
      if (dp_part_b(g, &g->ops[b->ops[i]]) == part) order[n++] = b->ops[i];
  memcpy(b->ops, order, sizeof *order * (size_t)n);
  return NULL;
}

int dp_grads(const Graph *g, int **ids) {
  const Block *b = &g->blocks[0];
  int n = 0, cap = 0;
  *ids = NULL;
  for (int i = 0; i < b->nops; i++) {
    const Op *op = &g->ops[b->ops[i]];
    if (!(train_op_role(op) & OP_ROLE_BACKWARD)) continue;
    const OpAttr *rv = attr_find(op, "op_role_var");
    for (size_t k = 1; rv && k < rv->n_strings; k += 2) {
      const int v = graph_find_var(g, 0, rv->strings[k]);
      int seen = v < 0;
      for (int j = 0; j < n && !seen; j++) seen = (*ids)[j] == v;
      if (!seen) VEC_PUSH(*ids, n, cap, v);
    }
  }
  return n;
}

/* The index in grads[0 .. n) of the gradient op's op_role_var names (its
 * second string), -1 when it names none of them or is not one pair. */
static int optimizer_grad(const Graph *g, const Op *op, const int *grads, int n) {
  const OpAttr *rv = attr_find(op, "op_role_var");
  if (!rv || rv->n_strings != 2) return -1;
  const int v = graph_find_var(g, 0, rv->strings[1]);
  for (int i = 0; i < n; i++)
    if (grads[i] == v) return i;
  return -1;
}

const char *dp_reduce_why(const Graph *g) {
  const Block *b = &g->blocks[0];
  int *grads, n = dp_grads(g, &grads);
  int *writer = pool_alloc(sizeof *writer * (size_t)(g->nvars + 1)); /* per var: the gradient whose ops write it */
  for (int v = 0; v < g->nvars; v++) writer[v] = -1;
  for (int i = 0; i < b->nops; i++) {
    const Op *op = &g->ops[b->ops[i]];
    if (train_op_role(op) != OP_ROLE_OPTIMIZE) continue; /* OpHaveRole: the role exactly */
    const int k = optimizer_grad(g, op, grads, n);
    if (k < 0 || !grads) /* (no gradients: k < 0 too) */
      return pool_printf("%s (an optimizer op) does not name one (parameter, gradient) pair of the backward in its "
                         "op_role_var, and Paddle's Reduce runs each optimizer op on the place that owns its "
                         "gradient (multi_devices_graph_pass.cc, ReduceSSAGraphBuilder::GetOpDeviceID)",
                         graph_op_where(g, op));
    for (int s = 0; s < op->nin; s++)
      for (int a = 0; a < op->in[s].n; a++) {
        const int v = op->in[s].vars[a];
        if (v >= 0 && writer[v] >= 0 && writer[v] != k)
          return pool_printf("%s (for '%s') reads '%s', which the optimizer ops for '%s' write, on another "
                             "owner place",
                             graph_op_where(g, op), g->vars[grads[k]].name, g->vars[v].name,
                             g->vars[grads[writer[v]]].name);
      }
    for (int s = 0; s < op->nout; s++)
      for (int a = 0; a < op->out[s].n; a++) {
        const int v = op->out[s].vars[a];
        if (v >= 0 && !(g->vars[v].flags & VAR_PERSISTABLE)) writer[v] = k;
      }
  }
  return NULL;
}

int dp_collective(const Graph *g, int *nranks) {
  const Block *b = &g->blocks[0];
  int found = 0;
  *nranks = 0;
  for (int i = 0; i < b->nops; i++) {
    const Op *op = &g->ops[b->ops[i]];
    if (!op->def || !op->def->collective) continue;
    found = 1;
    if (!strcmp(op->type, "c_allgather")) *nranks = (int)attr_int(op, "nranks", 1);
  }
  return found;
}

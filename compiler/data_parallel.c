/* The parts of a training program for data parallelism (data_parallel.h). */
#include "data_parallel.h"

#include <string.h>

#include "attr.h"
#include "diag.h"
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
  return (op_role(role_holder(g, op)) & (OP_ROLE_OPTIMIZE | OP_ROLE_LRSCHED)) != 0;
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
    if (!(op_role(op) & OP_ROLE_BACKWARD)) continue;
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
    if (op_role(op) != OP_ROLE_OPTIMIZE) continue; /* OpHaveRole: the role exactly */
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
  if (g->coll_nranks) *nranks = g->coll_nranks;
  return found;
}

/* Records in *nranks (0: none yet) the processes op says its ring or
 * gather spans; -1 with an error when an earlier op said otherwise. */
static int ring_size(const Graph *g, const Op *op, int *nranks, const char **said) {
  const int64_t n = attr_int(op, "nranks", 0);
  if (n < 1 || n > 65536)
    return diag_error("%s: %s: nranks %lld is no number of processes", g->file, graph_op_where(g, op), (long long)n);
  if (*nranks && n != *nranks)
    return diag_error("%s: %s spans %lld processes, %s %d: rings of different sizes are groups of model or pipeline "
                      "parallelism, which paddlec does not run (its rings span every process)", g->file,
                      graph_op_where(g, op), (long long)n, *said, *nranks);
  if (!*nranks) *said = pool_printf("%s said", graph_op_where(g, op));
  *nranks = (int)n;
  return 0;
}

/* Unlinks the communicator handles (OpDef.comm_handles: the RAW nccl_id
 * vars of c_gen_nccl_id and c_comm_init), which hold no data here: no
 * storage, no shape, nothing that computes or reads them. */
static void drop_handles(Graph *g) {
  int dropped = 0;
  for (int i = 0; i < g->nops; i++) {
    Op *op = &g->ops[i];
    if (!op->def || !op->def->comm_handles) continue;
    for (int side = 0; side < 2; side++)
      for (int s = 0; s < (side ? op->nout : op->nin); s++) {
        Slot *sl = side ? &op->out[s] : &op->in[s];
        for (int a = 0; a < sl->n; a++)
          if (sl->vars[a] >= 0 && g->vars[sl->vars[a]].vtype == VT_RAW) sl->vars[a] = -1, dropped = 1;
      }
  }
  if (dropped) graph_relink(g);
}

int dp_rings(Graph *g, Graph *st) {
  int nranks = 0, bad = 0;
  uint64_t rings = 0;
  const char *said = NULL;
  for (int i = 0; st && i < st->blocks[0].nops; i++) {
    const Op *op = &st->ops[st->blocks[0].ops[i]];
    if (strcmp(op->type, "c_comm_init")) continue;
    const int64_t ring = attr_int(op, "ring_id", 0);
    if (ring < 0 || ring > 63) {
      bad = diag_error("%s: %s: ring_id %lld: rings 0 to 63 are supported", st->file, graph_op_where(st, op),
                       (long long)ring);
      continue;
    }
    if (ring_size(st, op, &nranks, &said)) bad = -1;
    if (ring) rings |= (uint64_t)1 << ring;
  }
  const Block *b = &g->blocks[0];
  for (int i = 0; i < b->nops; i++) {
    const Op *op = &g->ops[b->ops[i]];
    if (!strcmp(op->type, "c_allgather") && ring_size(g, op, &nranks, &said)) bad = -1;
  }
  g->coll_rings = rings;
  g->coll_nranks = nranks;
  drop_handles(g);
  if (st) {
    st->coll_rings = rings;
    st->coll_nranks = nranks;
    drop_handles(st);
  }
  return bad;
}

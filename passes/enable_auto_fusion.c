/* enable_auto_fusion: every chain of two or more element-wise ops (float32
 * unary ops of activation.c with attribute parameters, and the binary ops
 * of elementwise.c with Paddle's broadcasting) becomes one fusion_group:
 * one loop, no intermediate tensors (BuildStrategy.enable_auto_fusion;
 * build_cinn_pass asks for the same, as paddlec generates the fused code
 * itself).
 *
 * A chain grows from an op along its result's only reader, while that
 * reader is element-wise, reads the result (it may read other tensors too)
 * and gives the same shape: so every op of the chain has the result's shape
 * and only outside operands broadcast.
 * Chains that start on a tensor of at most SMALL_MAX elements (sizes
 * computed from sizes) are left as they are.
 * Requires: the intermediates read by the next op alone and not fetched.
 * Invalidates: the chain's ops (removed; the group lists them). */
#include <string.h>

#include "fuse_util.h"
#include "ops/ops.h"
#include "pass.h"
#include "rewrite.h"
#include "util.h"

enum { CHAIN_MAX = 16, SMALL_MAX = 8 };

static int elementwise(const Graph *g, int id) {
  return id >= 0 && (unary_fusible(g, &g->ops[id]) || binary_fusible(g, &g->ops[id]));
}

/* The outside operands of op `id` (its inputs other than `chain`). */
static void add_inputs(const Graph *g, int id, int chain, int *ins, int *n) {
  const Op *op = &g->ops[id];
  for (int s = 0; s < op->nin; s++)
    for (int a = 0; a < op->in[s].n; a++) {
      int v = op->in[s].vars[a], seen = v == chain;
      for (int k = 0; k < *n && !seen; k++) seen = ins[k] == v;
      if (!seen && v >= 0) ins[(*n)++] = v;
    }
}

static int fuse_from(Graph *g, int first) {
  if (!elementwise(g, first)) return 0;
  int ops[CHAIN_MAX], n = 1, out = rw_out(g, first, "Out");
  if (out < 0) return 0; /* no Out var (an @EMPTY@ slot) */
  const int64_t numel = shape_numel(&g->vars[out].shape);
  if (numel >= 0 && numel <= SMALL_MAX) return 0; /* shape arithmetic (ceil(h / 4)): nothing to save, and the
                                                   * compiler reads the values through the ops (ctx_int_range) */
  ops[0] = first;
  for (int next = fuse_next(g, out); n < CHAIN_MAX && elementwise(g, next); next = fuse_next(g, out)) {
    int nout = rw_out(g, next, "Out");
    if (nout < 0 || !shape_equal(&g->vars[nout].shape, &g->vars[out].shape)) break;
    ops[n++] = next;
    out = nout;
  }
  for (int i = 0; i < n; i++) /* every op gives the result's shape */
    if (!shape_equal(&g->vars[rw_out(g, ops[i], "Out")].shape, &g->vars[out].shape)) n = i;
  if (n < 2) return 0;
  int ins[2 * CHAIN_MAX], nin = 0, chain = -1;
  for (int i = 0; i < n; i++) {
    add_inputs(g, ops[i], chain, ins, &nin);
    chain = rw_out(g, ops[i], "Out");
  }
  int f = rw_new_op(g, "fusion_group", ops[n - 1], 0);
  rw_set_slot(g, f, 0, "Inputs", ins, nin);
  rw_set_slot(g, f, 1, "Outs", &out, 1);
  rw_attr_int(g, f, "type", 0);
  rw_fuse(g, f, ops, n);
  return 1;
}

int pass_enable_auto_fusion(Graph *g, PassCtx *c) {
  rw_each_op(g, &c->changes, fuse_from);
  return 0;
}

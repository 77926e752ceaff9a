/* unbind: X -> Out*; axis:INT=0.
 * Shape rule (phi UnbindInferMeta): axis in [-rank, rank), negative +=
 * rank; every Out is X without dim `axis`, with X's dtype.  There is one Out
 * per entry of that dim.
 * Emission: as unstack, one memcpy per output and row of the dims before
 * `axis`. */
#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_unbind(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t a = attr_int(c->op, "axis", 0);
  int axis = axis_norm(a, x->shape.rank);
  if (axis < 0 || x->shape.rank == 0)
    return ctx_fail(c, "axis %lld is out of range for X %s", (long long)a, shape_str(&x->shape));
  Shape s = {0, {0}};
  for (int i = 0; i < x->shape.rank; i++)
    if (i != axis) s.d[s.rank++] = x->shape.d[i];
  ctx_set_all(c, "Out", &s, x->dtype);
  return 0;
}

static int emit_unbind(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X", 0);
  int n = ctx_nout(&c, "Out");
  if (!x || n < 1) return -1;
  int r = tu_rank(e, x), axis = axis_norm(attr_int(e->op, "axis", 0), r);
  if (axis < 0 || r == 0) return em_fail(e, "axis is out of range");
  if (em_const_dim(e, x, axis) != n) return em_fail(e, "%d outputs for dim %s", n, em_dim(e, x, axis));
  Var **outs = pool_alloc(sizeof *outs * (size_t)n);
  const char **inner = pool_alloc(sizeof *inner * (size_t)n);
  for (int i = 0; i < n; i++) {
    if (!(outs[i] = tu_out(e, "Out", i))) return -1;
    inner[i] = em_prod(e, x, axis + 1, r);
  }
  return tu_pieces(e, x, n, outs, em_prod(e, x, 0, axis), inner, 0);
}

const OpDef op_unbind = {.type = "unbind", .infer = infer_unbind, .emit_c = emit_unbind};

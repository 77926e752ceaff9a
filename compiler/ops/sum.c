/* sum: X* -> Out, the element-wise sum of its inputs; extra use_mkldnn.
 * Out takes the dims of the first input with a non-zero element count
 * (unknown dims count as non-zero), or [0] when there is none (phi
 * AddNInferMeta); its dtype is X[0]'s.  A sum of LoDTensorArrays or
 * SelectedRows has no dense shape to give.
 * Emission: one loop adding every input element-wise (inputs with no
 * elements drop out); Out may be one of the inputs (written in place).
 * Inputs with a dim known only at run time must all have it on the same
 * dim: Out has the first's extent, the loop counts the run's elements;
 * extents not known to be one (two roots: the rows of two elements read
 * back from two arrays) are checked by the run, as Paddle's kernel checks
 * its inputs' dims. */
#include "../util.h"
#include "fill_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_sum(OpCtx *c) {
  int n = ctx_nin(c, "X");
  Var *x0 = ctx_need(c, "X", 0);
  if (!x0) return -1;
  if (x0->vtype != VT_LOD_TENSOR) return 0;
  Shape s = {1, {0}};
  for (int i = 0; i < n; i++) {
    Var *xi = ctx_need(c, "X", i);
    if (!xi) return -1;
    int64_t p = 1;
    for (int k = 0; k < xi->shape.rank; k++) p *= xi->shape.d[k];
    if (p == 0) continue;
    if (!(s.rank == 1 && s.d[0] == 0)) {
      if (xi->shape.rank != s.rank)
        return ctx_fail(c, "X[%d] %s and %s differ in rank", i, shape_str(&xi->shape),
                        shape_str(&s));
      continue;
    }
    s = xi->shape;
  }
  ctx_set(c, "Out", 0, &s, x0->dtype);
  /* run-time extents: every input has one on the same dim (one root, or
   * checked by the run), and Out has the first's; an input without it
   * would need the run's extent to be its dim */
  const Var *first = NULL;
  for (int i = 0; i < n; i++) {
    const Var *xi = ctx_in(c, "X", i);
    if (var_runtime_axis(xi) >= 0 && !first) first = xi;
  }
  for (int i = 0; first && i < n; i++) {
    const Var *xi = ctx_in(c, "X", i);
    if (var_runtime_axis(xi) != first->runtime_axis || xi->runtime_more != first->runtime_more)
      return ctx_fail(c, "X[%d] ('%s') does not have a run-time extent on dim %d only, as X ('%s', from its %s) "
                      "has: sum takes run-time extents only when every input has them on the same dims",
                      i, xi->name, first->runtime_axis, first->name, first->runtime_from ? first->runtime_from : "inputs");
  }
  if (first) ctx_pass_runtime_extent(c, first, "Out", 0);
  return 0;
}

/* x's dims are out's but where either has a run-time extent. */
static int same_fixed_dims(EmitCtx *e, const Var *x, const Var *out) {
  const VarSpec *xs = em_spec(e, x), *os = em_spec(e, out);
  if (xs->rank != os->rank || xs->runtime_mask != os->runtime_mask) return 0;
  for (int d = 0; d < xs->rank; d++)
    if (!(xs->runtime_mask >> d & 1) && (xs->d[d].a != os->d[d].a || xs->d[d].c != os->d[d].c)) return 0;
  return 1;
}

static int emit_sum(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *out = tu_out(e, "Out", 0);
  if (!out) return -1;
  if (out->dtype == RT_DT_BOOL) return em_fail(e, "a sum of bool tensors is not supported");
  const int nin = ctx_nin(&c, "X");
  int *idx = pool_alloc(sizeof *idx * (size_t)(nin ? nin : 1)), nkept = 0;
  const char **xs = pool_alloc(sizeof *xs * (size_t)(nin ? nin : 1));
  const Var **kept = pool_alloc(sizeof *kept * (size_t)(nin ? nin : 1));
  int64_t *axes = pool_alloc(sizeof *axes * (size_t)(nin ? nin : 1));
  SymDim no = spec_numel(em_spec(e, out));
  int roots = 1; /* 0: inputs of run-time extents not known to be one */
  for (int i = 0; i < nin; i++) {
    Var *x = tu_in(e, "X", i);
    if (!x) return -1;
    SymDim nx = spec_numel(em_spec(e, x));
    if (nx.a == 0 && nx.c == 0) continue;
    if (nkept && em_spec(e, x)->runtime_dim && !same_runtime_extent(x, kept[0])) { /* dims but the run's agree */
      roots = 0;
      if (x->dtype != out->dtype || !same_fixed_dims(e, x, out))
        return em_fail(e, "X[%d] differs from Out in dtype or in a dim other than the run's", i);
    } else if (x->dtype != out->dtype || nx.a != no.a || nx.c != no.c) {
      return em_fail(e, "X[%d] differs from Out in dtype or element count", i);
    }
    kept[nkept] = x;
    axes[nkept] = -1;
    idx[nkept] = i;
    xs[nkept++] = em_ptr(e, x, 1);
  }
  const char *op = em_ptr(e, out, 0);
  if (!roots) tu_bcast_extents(e, out, nkept, kept, axes); /* the first's, the others checked against it */
  fill_print_c(e->p, &(FillCall){.kind = FILL_SUM, .type = em_ctype(out->dtype), .out = op, .n = em_numel(e, out),
                                 .idx = idx, .xs = xs, .nx = nkept});
  return 0;
}

const OpDef op_sum = {.type = "sum", .infer = infer_sum, .emit_c = emit_sum, .runtime_extents = 2, .lod_slot = "X",
                      .lod_first = 1};

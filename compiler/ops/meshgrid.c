/* meshgrid: X* -> Out*; no attributes.
 * Shape rule (phi MeshgridInferMeta): every Out has the dims [n_0, ...,
 * n_{k-1}], n_i the length of X[i] (1 for a 0-D X[i]), and X[0]'s dtype.
 * Emission: Out[i] repeats X[i] along every dim but i -- a strided copy with
 * stride 1 along dim i and 0 elsewhere. */
#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_meshgrid(OpCtx *c) {
  int n = ctx_nin(c, "X");
  if (n < 1 || n > RT_MAX_RANK) return ctx_fail(c, "meshgrid takes 1 to %d inputs, not %d", RT_MAX_RANK, n);
  Var *x0 = ctx_need(c, "X", 0);
  if (!x0) return -1;
  Shape s = {n, {0}};
  for (int i = 0; i < n; i++) {
    Var *xi = ctx_need(c, "X", i);
    if (!xi) return -1;
    if (xi->shape.rank > 1) return ctx_fail(c, "X[%d] %s must be 0-D or 1-D", i, shape_str(&xi->shape));
    s.d[i] = xi->shape.rank ? xi->shape.d[0] : 1;
  }
  ctx_set_all(c, "Out", &s, x0->dtype);
  return 0;
}

static int emit_meshgrid(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  int n = ctx_nin(&c, "X");
  if (ctx_nout(&c, "Out") != n) return em_fail(e, "%d inputs but %d outputs", n, ctx_nout(&c, "Out"));
  for (int i = 0; i < n; i++) {
    Var *x = tu_in(e, "X", i), *out = tu_out(e, "Out", i);
    if (!x || !out) return -1;
    if (x->dtype != out->dtype) return em_fail(e, "X[%d] and Out[%d] differ in dtype", i, i);
    if (tu_rank(e, out) != n) return em_fail(e, "Out[%d] must have rank %d", i, n);
    const char *dims[RT_MAX_RANK], *st[RT_MAX_RANK];
    for (int k = 0; k < n; k++) {
      dims[k] = em_dim(e, out, k);
      st[k] = k == i ? "1" : "0";
    }
    pr_line(e->p, "/* Out[%d]: X[%d] along dim %d */", i, i, i);
    if (tu_strided_copy(e, x, "0", out, n, dims, st)) return -1;
  }
  return 0;
}

const OpDef op_meshgrid = {.type = "meshgrid", .infer = infer_meshgrid, .emit_c = emit_meshgrid};

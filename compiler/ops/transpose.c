/* transpose, transpose2.
 *   inputs:  X
 *   outputs: Out; transpose2 also XShape = [0] ++ X.dims
 *   attrs:   axis:INTS (the permutation; negative entries += rank); extra
 *            use_mkldnn, data_format="AnyLayout", mkldnn_data_type
 * Out.dims[i] = X.dims[axis[i]].  `axis` may be shorter than X's rank (a
 * fused squeeze2 + transpose2): the dims past it are kept. */
#include "ops.h"

static int infer_transpose(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *in = &x->shape;
  int64_t *axis;
  int n = attr_ints(c->op, "axis", &axis);
  if (n > in->rank) return ctx_fail(c, "axis has %d entries for X %s", n, shape_str(in));
  int seen[RT_MAX_RANK] = {0};
  Shape out = *in;
  for (int i = 0; i < n; i++) {
    int a = axis_norm(axis[i], in->rank);
    if (a < 0 || seen[a]++)
      return ctx_fail(c, "axis[%d] = %lld is out of range or repeated", i, (long long)axis[i]);
    out.d[i] = in->d[a];
  }
  ctx_set(c, "Out", 0, &out, x->dtype);
  return ctx_set_xshape(c, x);
}

const OpDef op_transpose = {.type = "transpose", .infer = infer_transpose};
const OpDef op_transpose2 = {.type = "transpose2", .infer = infer_transpose};

/* sum: X* -> Out, the element-wise sum of its inputs; extra use_mkldnn.
 * Out takes the dims of the first input with a non-zero element count
 * (unknown dims count as non-zero), or [0] when there is none (phi
 * AddNInferMeta); its dtype is X[0]'s.  A sum of LoDTensorArrays or
 * SelectedRows has no dense shape to give. */
#include "ops.h"

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
  return 0;
}

const OpDef op_sum = {.type = "sum", .infer = infer_sum};

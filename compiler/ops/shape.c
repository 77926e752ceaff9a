/* shape: Input -> Out, the dims of Input as a 1-D int32 tensor of
 * rank(Input) elements (phi ShapeInferMeta).  No attributes. */
#include "ops.h"

static int infer_shape(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0);
  if (!x) return -1;
  Shape s = {1, {x->shape.rank}};
  ctx_set(c, "Out", 0, &s, RT_DT_INT32);
  return 0;
}

const OpDef op_shape = {.type = "shape", .infer = infer_shape};

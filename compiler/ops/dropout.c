/* dropout (Paddle DropoutInferMeta):
 *   inputs:  X, Seed? (int32 tensor overriding the seed)
 *   outputs: Out (X's shape and dtype), Mask? (X's shape, uint8; intermediate)
 *   attrs:   dropout_prob=0.5 (may be a VAR), is_test=false, fix_seed=false,
 *            seed=0, dropout_implementation="downgrade_in_infer"
 *            ("upscale_in_train"). */
#include "ops.h"

static int infer_dropout(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_set(c, "Mask", 0, &x->shape, RT_DT_UINT8);
  return 0;
}

const OpDef op_dropout = {.type = "dropout", .infer = infer_dropout};

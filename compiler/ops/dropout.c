/* dropout (Paddle DropoutInferMeta):
 *   inputs:  X, Seed? (int32 tensor overriding the seed)
 *   outputs: Out (X's shape and dtype), Mask? (X's shape, uint8; intermediate)
 *   attrs:   dropout_prob=0.5 (may be a VAR), is_test=false, fix_seed=false,
 *            seed=0, dropout_implementation="downgrade_in_infer"
 *            ("upscale_in_train").
 * Emission: inference dropout, which is what phi's DropoutRawKernel does
 * when is_test is set: downgrade_in_infer scales by 1 - dropout_prob,
 * upscale_in_train copies.  save_inference_model sets is_test on every op,
 * and Paddle Inference's is_test_pass does the same for any program it
 * loads, so a compiled program always runs dropout this way; Mask is not
 * written.  A dropout_prob given by a tensor is not supported. */
#include <string.h>

#include "../emit_ew.h"
#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_dropout(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_set(c, "Mask", 0, &x->shape, RT_DT_UINT8);
  return 0;
}

int op_dropout_identity(const Op *op) {
  /* inference whatever is_test says (Paddle Inference's is_test_pass, above):
   * no mask, so no seed */
  attr_superseded(op, "is_test"), attr_superseded(op, "fix_seed"), attr_superseded(op, "seed");
  if (!strcmp(attr_str(op, "dropout_implementation", "downgrade_in_infer"), "upscale_in_train")) {
    attr_superseded(op, "dropout_prob"); /* inference copies, whatever the probability */
    return 1;
  }
  return !attr_is_var(op, "dropout_prob") && attr_float(op, "dropout_prob", 0.5) == 0;
}

static int emit_dropout(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  const char *mode = attr_str(e->op, "dropout_implementation", "downgrade_in_infer");
  if (strcmp(mode, "upscale_in_train") && strcmp(mode, "downgrade_in_infer"))
    return em_fail(e, "dropout_implementation '%s' is unknown", mode);
  if (op_dropout_identity(e->op)) return tu_copy(e, x, out);
  if (attr_is_var(e->op, "dropout_prob")) return em_fail(e, "dropout_prob comes from a tensor, which is not supported");
  if (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64)
    return em_fail(e, "%s X is not supported", rt_dtype_name(x->dtype));
  /* Paddle computes 1 - p in float and multiplies in T */
  float keep = 1.0f - (float)attr_float(e->op, "dropout_prob", 0.5);
  return ew_unary(e, x, out, NULL, pool_printf("v * (%s)%s", em_ctype(x->dtype), em_float(keep)));
}

const OpDef op_dropout = {.type = "dropout", .infer = infer_dropout, .emit_c = emit_dropout, .inplace = "X:Out"};

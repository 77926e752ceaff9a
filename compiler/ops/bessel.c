/* i0, i0e, i1, i1e: x -> out (x's dims and dtype); no attributes.
 * Modified Bessel functions of the first kind of order 0 and 1, and the
 * same scaled by exp(-|x|) (paddle.i0, paddle.i0e, paddle.i1, paddle.i1e).
 * These phi-era ops name their slots in lower case.
 * Emission: an element-wise loop calling runtime/rt_special.c (float32). */
#include "../emit_ew.h"
#include "../util.h"
#include "ops.h"

static int infer_bessel(OpCtx *c) {
  Var *x = ctx_need(c, "x", 0);
  if (!x) return -1;
  ctx_set(c, "out", 0, &x->shape, x->dtype);
  return 0;
}

static int emit_bessel(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "x", 0), *out = ctx_out(&c, "out", 0);
  if (!x || !out) return em_fail(e, "missing x or out");
  if (x->dtype != RT_DT_FP32 || out->dtype != RT_DT_FP32)
    return em_fail(e, "%s of %s tensors is not supported yet", e->op->type, rt_dtype_name(x->dtype));
  return ew_unary(e, x, out, NULL, pool_printf("rt_%sf(v)", e->op->type));
}

const OpDef op_i0 = {.type = "i0", .infer = infer_bessel, .emit_c = emit_bessel};
const OpDef op_i0e = {.type = "i0e", .infer = infer_bessel, .emit_c = emit_bessel};
const OpDef op_i1 = {.type = "i1", .infer = infer_bessel, .emit_c = emit_bessel};
const OpDef op_i1e = {.type = "i1e", .infer = infer_bessel, .emit_c = emit_bessel};

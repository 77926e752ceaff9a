/* clip_by_norm: X -> Out; max_norm:FLOAT.  What paddle.nn.ClipGradByNorm
 * writes for each gradient a static program's optimizer clips.
 * Shape rule (phi ClipByNormInferMeta): Out is X; max_norm must be above 0.
 * Emission (float32, Paddle's only CPU kernel): OPT_CLIP_BY_NORM, X scaled
 * by max_norm / its L2 norm where that norm is above max_norm (opt_call.c).
 * Out may be X (computed in place: the norm is read first). */
#include "ops.h"
#include "opt_call.h"
#include "tensor_util.h"

static int infer_clip_by_norm(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  if (!(attr_float(c->op, "max_norm", 0) > 0))
    return ctx_fail(c, "max_norm %g must be above 0", attr_float(c->op, "max_norm", 0));
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  return 0;
}

static int emit_clip_by_norm(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (x->dtype != RT_DT_FP32 || out->dtype != RT_DT_FP32)
    return em_fail(e, "X is %s: Paddle's CPU clip_by_norm takes float32", rt_dtype_name(x->dtype));
  opt_print_c(e->p, &(OptCall){.kind = OPT_CLIP_BY_NORM, .type = "float", .x = em_ptr(e, x, 1),
                               .out = em_ptr(e, out, 0), .numel = em_numel(e, x),
                               .max_norm = tu_literal(RT_DT_FP32, attr_float(e->op, "max_norm", 0))});
  return 0;
}

const OpDef op_clip_by_norm = {.type = "clip_by_norm", .infer = infer_clip_by_norm, .emit_c = emit_clip_by_norm};

/* isnan_v2, isinf_v2, isfinite_v2: X -> Out (bool, X's dims); no
 * attributes (phi IsfiniteInferMeta).  Element-wise tests of float tensors;
 * on integer tensors Paddle's kernels answer false, false and true. */
#include <string.h>

#include "../emit_ew.h"
#include "flat_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_isfinite(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, RT_DT_BOOL);
  ctx_pass_runtime_extent(c, x, "Out", 0);
  return 0;
}

static int emit_isfinite(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *out = ctx_out(&c, "Out", 0);
  if (!x || !out) return em_fail(e, "missing X or Out");
  if (out->dtype != RT_DT_BOOL) return em_fail(e, "Out must be bool");
  int is_float = x->dtype == RT_DT_FP32 || x->dtype == RT_DT_FP64;
  int is_int = x->dtype == RT_DT_INT32 || x->dtype == RT_DT_INT64 || x->dtype == RT_DT_INT16 ||
               x->dtype == RT_DT_INT8 || x->dtype == RT_DT_UINT8;
  if (!is_float && !is_int)
    return em_fail(e, "%s of %s tensors is not supported", e->op->type, rt_dtype_name(x->dtype));
  const char *expr;
  if (!strcmp(e->op->type, "isnan_v2")) expr = is_float ? "isnan(v)" : "false";
  else if (!strcmp(e->op->type, "isinf_v2")) expr = is_float ? "isinf(v)" : "false";
  else expr = is_float ? "isfinite(v)" : "true";
  if (is_float) return ew_unary(e, x, out, NULL, expr);
  FlatCall call = {.kind = FLAT_INT_CLASS, .dtype = x->dtype, .value = expr};
  call.numel = em_numel(e, out);
  call.out = em_ptr(e, out, 0);
  flat_print_c(e->p, &call);
  return 0;
}

const OpDef op_isfinite_v2 = {.type = "isfinite_v2", .infer = infer_isfinite, .emit_c = emit_isfinite,
                              .runtime_extents = 2};
const OpDef op_isinf_v2 = {.type = "isinf_v2", .infer = infer_isfinite, .emit_c = emit_isfinite, .runtime_extents = 2};
const OpDef op_isnan_v2 = {.type = "isnan_v2", .infer = infer_isfinite, .emit_c = emit_isfinite, .runtime_extents = 2};

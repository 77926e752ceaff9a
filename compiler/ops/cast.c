/* cast: X -> Out; in_dtype:INT, out_dtype:INT (VarType codes); extra
 * use_mkldnn.  Out has X's dims and dtype out_dtype.
 * Emission: an element-wise conversion among bool, int8, uint8, int16,
 * int32, int64, float32 and float64 with Paddle's static_cast semantics:
 * anything to bool is `!= 0` (NaN is true); float to integer truncates
 * toward zero (rt_f2i32 / rt_f2i64, which also give x86's result for NaN
 * and out-of-range values); the rest are C conversions.  X's run-time
 * extents (nonzero's count, an image's height and width, ...) are Out's. */
#include "../consteval.h"
#include "../emit_ew.h"
#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_cast(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  if (!attr_has(c->op, "out_dtype")) return ctx_fail(c, "attribute out_dtype is missing");
  ctx_set(c, "Out", 0, &x->shape, (int)attr_int(c->op, "out_dtype", RT_DT_FP32));
  ctx_pass_runtime_extent(c, x, "Out", 0);
  return 0;
}

/* The C expression converting element `v` of dtype `from` to `to`. */
static const char *convert(int from, int to) {
  int from_float = from == RT_DT_FP32 || from == RT_DT_FP64;
  if (to == RT_DT_BOOL) return "v != 0";
  if (from_float && to == RT_DT_INT64) return "rt_f2i64(v)";
  if (from_float && to == RT_DT_INT32) return "rt_f2i32(v)";
  if (from_float && to != RT_DT_FP32 && to != RT_DT_FP64) return pool_printf("(%s)rt_f2i32(v)", em_ctype(to));
  return pool_printf("(%s)v", em_ctype(to));
}

static int emit_cast(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (x->dtype == out->dtype) return tu_copy(e, x, out);
  return ew_unary(e, x, out, NULL, convert(x->dtype, out->dtype));
}

/* in_dtype: Paddle 2.6's kernel (phi CastKernel) casts from X's dtype and
 * never reads it. */
static const char *const cast_attr_ignores[] = {"in_dtype", NULL};
const OpDef op_cast = {
    .type = "cast", .infer = infer_cast, .emit_c = emit_cast,
    .fold = consteval_fold_copy, .attr_ignores = cast_attr_ignores, .runtime_extents = 2};

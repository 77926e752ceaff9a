/* eye: no inputs -> Out; num_rows:LONG, num_columns:LONG=-1 (= num_rows),
 * dtype:INT=5 (float32).  Either count may be a tensor (a VAR attribute in
 * 2.5+ files), unknown at compile time.
 * Shape rule (phi EyeInferMeta): Out = [num_rows, num_columns] of `dtype`.
 * Emission: zeros with ones on the main diagonal, from Out's concrete
 * dims. */
#include "../util.h"
#include "fill_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_eye(OpCtx *c) {
  int64_t rows = attr_is_var(c->op, "num_rows") ? DIM_UNKNOWN : attr_int(c->op, "num_rows", -1);
  int64_t cols = DIM_UNKNOWN;
  if (!attr_is_var(c->op, "num_columns")) {
    cols = attr_int(c->op, "num_columns", -1);
    if (cols == -1) cols = rows;
  }
  if (rows < DIM_UNKNOWN || cols < DIM_UNKNOWN)
    return ctx_fail(c, "num_rows %lld and num_columns %lld must not be negative", (long long)rows, (long long)cols);
  Shape s = {2, {rows, cols}};
  ctx_set(c, "Out", 0, &s, (int)attr_int(c->op, "dtype", RT_DT_FP32));
  return 0;
}

static int emit_eye(EmitCtx *e) {
  Var *out = tu_out(e, "Out", 0);
  if (!out) return -1;
  const char *ptr = em_ptr(e, out, 0); /* Out is 2-D: infer_eye */
  fill_print_c(e->p, &(FillCall){.kind = FILL_EYE, .type = em_ctype(out->dtype), .out = ptr,
                                 .rows = em_dim(e, out, 0), .cols = em_dim(e, out, 1),
                                 .zero = tu_literal(out->dtype, 0), .one = tu_literal(out->dtype, 1)});
  return 0;
}

const OpDef op_eye = {.type = "eye", .infer = infer_eye, .emit_c = emit_eye};

/* histogram (paddle.histogram): X -> Out [bins] (int64); bins:INT=100,
 * min:INT=0, max:INT=0.
 * Shape rule (phi HistogramInferMeta): bins >= 1 and max >= min.
 * Emission (float32/64, int32/64): Paddle's CPU kernel: the range is
 * [min, max] in X's type; when min == max the range is X's smallest and
 * largest element (std::min_element / max_element, so a leading NaN
 * stays), widened by 1 each way when those are equal too.  Each element in
 * the range adds one to bin (int64_t)((v - min) * bins / (max - min)) in
 * X's arithmetic, the last bin taking max itself; others (NaN included)
 * are skipped.  Paddle stops with an error when the range is not finite;
 * the generated code counts what its arithmetic gives. */
#include "../util.h"
#include "hist_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_histogram(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t bins = attr_int(c->op, "bins", 100), lo = attr_int(c->op, "min", 0), hi = attr_int(c->op, "max", 0);
  if (bins < 1) return ctx_fail(c, "bins %lld must be at least 1", (long long)bins);
  if (hi < lo) return ctx_fail(c, "max %lld is less than min %lld", (long long)hi, (long long)lo);
  Shape o = {1, {bins}};
  ctx_set(c, "Out", 0, &o, RT_DT_INT64);
  return 0;
}

static int emit_histogram(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64 && x->dtype != RT_DT_INT32 && x->dtype != RT_DT_INT64)
    return em_fail(e, "histogram of %s tensors is not supported", rt_dtype_name(x->dtype));
  if (out->dtype != RT_DT_INT64) return em_fail(e, "Out must be int64");
  HistCall call = {.type = em_ctype(x->dtype), .bins = attr_int(e->op, "bins", 100), .min = attr_int(e->op, "min", 0),
                   .max = attr_int(e->op, "max", 0), .numel = em_numel(e, x), .x = em_ptr(e, x, 1),
                   .out = em_ptr(e, out, 0)};
  hist_print_c(e->p, &call);
  return 0;
}

/* X's dims the run gives: its elements counted at the run's sizes */
const OpDef op_histogram = {.type = "histogram", .infer = infer_histogram, .emit_c = emit_histogram,
                            .runtime_extents = 2};

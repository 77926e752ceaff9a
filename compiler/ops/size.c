/* size: Input -> Out; no attributes.  paddle.numel emits it.
 * Shape rule (phi NumelInferMeta): Out is an int64 scalar (shape_scalar:
 * [] from 2.5, [1] before).
 * Emission: Out[0] = the element count of Input, an expression in the batch
 * (Input's data is not read, so any dtype will do). */
#include "fill_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_size(OpCtx *c) {
  if (!ctx_need(c, "Input", 0)) return -1;
  Shape s = shape_scalar(c);
  ctx_set(c, "Out", 0, &s, RT_DT_INT64);
  return 0;
}

static int emit_size(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *in = ctx_in(&c, "Input", 0), *out = tu_out(e, "Out", 0);
  if (!in || !out) return em_fail(e, "missing Input or Out");
  if (!em_spec(e, in)->known) return em_fail(e, "Input ('%s') has no concrete shape", in->name);
  if (out->dtype != RT_DT_INT64) return em_fail(e, "Out must be int64");
  FillCall call = {.kind = FILL_ONE, .type = "int64_t", .out = em_ptr(e, out, 0)};
  call.value = em_numel(e, in);
  fill_print_c(e->p, &call);
  return 0;
}

/* an Input whose sizes the run gives counts them (em_numel reads the run's) */
const OpDef op_size = {.type = "size", .infer = infer_size, .emit_c = emit_size, .runtime_extents = 2};

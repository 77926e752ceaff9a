/* is_empty: X -> Out; no attributes.  paddle.is_empty emits it, and the 1.x
 * beam-search loop tests beam_search's selected_ids with it.
 * Shape rule (phi IsEmptyInferMeta): Out is a bool scalar (shape_scalar:
 * [] from 2.5, [1] before).
 * Emission: Out[0] = (X's element count == 0), an expression in the batch
 * and the run-time extents X has (its data is not read: any dtype). */
#include "../util.h"
#include "fill_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_is_empty(OpCtx *c) {
  if (!ctx_need(c, "X", 0)) return -1;
  Shape s = shape_scalar(c);
  ctx_set(c, "Out", 0, &s, RT_DT_BOOL);
  return 0;
}

static int emit_is_empty(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (!em_spec(e, x)->known) return em_fail(e, "X ('%s') has no concrete shape", x->name);
  if (out->dtype != RT_DT_BOOL) return em_fail(e, "Out must be bool");
  FillCall call = {.kind = FILL_ONE, .type = "bool", .out = em_ptr(e, out, 0)};
  call.value = pool_printf("(%s) == 0", em_numel(e, x));
  fill_print_c(e->p, &call);
  return 0;
}

/* an X whose sizes the run gives is tested at the run's */
const OpDef op_is_empty = {.type = "is_empty", .infer = infer_is_empty, .emit_c = emit_is_empty,
                           .runtime_extents = 2};

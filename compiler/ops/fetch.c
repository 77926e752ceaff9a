/* fetch: hands X to the caller as the col-th output (spec 7.1).  Its Out is
 * the FETCH_LIST holder, which has no tensor shape. */
#include "ops.h"

static int infer_fetch(OpCtx *c) { return ctx_need(c, "X", 0) ? 0 : -1; }

/* No kernel: generated code reads outputs (copied at the end of a run) directly from the caller's buffer. */
static int emit_fetch(EmitCtx *e) {
  (void)e;
  return 0;
}

const OpDef op_fetch = {.type = "fetch", .infer = infer_fetch, .emit_c = emit_fetch, .runtime_extents = 2};

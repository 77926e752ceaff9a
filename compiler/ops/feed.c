/* feed: Out = the col-th user input (spec 7.1).  The shape and dtype of a
 * feed are the contract declared by its VarDesc, so the rule keeps the var's
 * current shape: the declared one, or the concrete one code generation
 * specialized it to (compiler/spec.c).  A feed --max-shape bounds takes
 * its unknown dims but the batch from the fed array at run time
 * (run-time extents, written by the model's set_input_dims). */
#include "ops.h"

static int infer_feed(OpCtx *c) {
  Var *out = ctx_out(c, "Out", 0);
  if (!out) return ctx_fail(c, "feed has no Out");
  if (out->shape.rank < 0) return ctx_fail(c, "feed target '%s' has no tensor shape", out->name);
  Shape s = out->shape;
  ctx_set(c, "Out", 0, &s, out->decl_dtype);
  unsigned run = 0; /* a feed --max-shape bounds: its unknown dims but the batch are the fed array's */
  for (int d = 1; d < s.rank && ctx_has_max_shape(c, "Out", 0); d++) /* bounded by spec.c (not yet: unknown) */
    run |= (unsigned)(out->decl.d[d] < 0 && s.d[d] >= 0) << d;
  if (run)
    ctx_set_runtime_extents(c, "Out", 0, run, ctx_class_bound(c, "Out", 0) ? "fed array (no bound: size classes)"
                                                                            : "fed array (bounded by --max-shape)");
  return 0;
}

/* No kernel: generated code reads inputs directly from the caller's buffer. */
static int emit_feed(EmitCtx *e) {
  (void)e;
  return 0;
}

const OpDef op_feed = {.type = "feed", .infer = infer_feed, .emit_c = emit_feed};

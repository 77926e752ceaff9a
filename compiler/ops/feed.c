/* feed: Out = the col-th user input (spec 7.1).  The shape and dtype of a
 * feed are the contract declared by its VarDesc, so the rule keeps them. */
#include "ops.h"

static int infer_feed(OpCtx *c) {
  Var *out = ctx_out(c, "Out", 0);
  if (!out) return ctx_fail(c, "feed has no Out");
  if (out->decl.rank < 0) return ctx_fail(c, "feed target '%s' has no tensor shape", out->name);
  ctx_set(c, "Out", 0, &out->decl, out->decl_dtype);
  return 0;
}

const OpDef op_feed = {.type = "feed", .infer = infer_feed};

/* shape: Input -> Out, the dims of Input as a 1-D int32 tensor of
 * rank(Input) elements (phi ShapeInferMeta).  No attributes.
 * Emission: each dim is a C expression in the batch (one the run gives:
 * its run-time extent), stored as int32; folded, such a dim is unknown. */
#include "../consteval.h"
#include "fill_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_shape(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0);
  if (!x) return -1;
  Shape s = {1, {x->shape.rank}};
  ctx_set(c, "Out", 0, &s, RT_DT_INT32);
  return 0;
}

static int emit_shape(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "Input", 0), *out = tu_out(e, "Out", 0);
  if (!out) return -1;
  if (!x || !em_spec(e, x)->known) return em_fail(e, "Input has no concrete shape");
  if (out->dtype != RT_DT_INT32) return em_fail(e, "Out must be int32");
  int r = tu_rank(e, x);
  const char *dims[RT_MAX_RANK];
  FillCall call = {.kind = FILL_DIMS, .type = "int32_t", .out = r > 0 ? em_ptr(e, out, 0) : NULL, .values = dims,
                   .nvalues = r};
  for (int d = 0; d < r; d++) dims[d] = em_dim(e, x, d);
  fill_print_c(e->p, &call);
  return 0;
}

/* The static dims; an entry unknown at compile time (the batch) stays
 * unknown. */
static void fold_shape(OpCtx *c) {
  Var *in = ctx_in(c, "Input", 0);
  if (!in || in->shape.rank < 0) return;
  int64_t v[CONST_MAX];
  uint64_t mask = 0;
  for (int i = 0; i < in->shape.rank; i++) { /* a run-time extent's is the run's, not its bound */
    const int known = in->shape.d[i] >= 0 && !(var_runtime_mask(in) >> i & 1);
    v[i] = known ? in->shape.d[i] : 0;
    if (known) mask |= 1ull << i;
  }
  consteval_set(ctx_out(c, "Out", 0), v, in->shape.rank, mask);
}

const OpDef op_shape = {.type = "shape", .infer = infer_shape, .emit_c = emit_shape, .fold = fold_shape,
                        .runtime_extents = 2};

/* tril_triu: X -> Out (X's dims and dtype); diagonal:INT=0,
 * lower:BOOLEAN=false (paddle.tril sets it, paddle.triu clears it).
 * Shape rule (phi TrilTriuInferMeta): X has rank >= 2; dims known only at
 * run time (a causal mask of the run's length) are Out's.
 * Emission: over each matrix of the last two dims, element (row, col) is
 * zeroed when col - row > diagonal (lower) or col - row < diagonal (upper),
 * as phi's TrilTriuCompute, and copied otherwise. */
#include "../util.h"
#include "diag_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_tril_triu(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  if (x->shape.rank < 2) return ctx_fail(c, "X %s must have rank >= 2", shape_str(&x->shape));
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_pass_runtime_extent(c, x, "Out", 0); /* a causal mask [L, L] of the run's length */
  return 0;
}

/* out = x masked (the forward), or X@GRAD = Out@GRAD masked alike (the
 * grad, phi TrilTriuGradKernel: the same TrilTriuCompute). */
static int emit_mask(EmitCtx *e, const char *in_slot, const char *out_slot) {
  Var *x = tu_in(e, in_slot, 0), *out = tu_out(e, out_slot, 0);
  if (!x || !out) return -1;
  if (x->dtype != out->dtype) return em_fail(e, "X and Out differ in dtype");
  int r = tu_rank(e, x);
  if (r < 2) return em_fail(e, "X must have rank >= 2");
  int64_t diag = attr_int(e->op, "diagonal", 0);
  int lower = attr_bool(e->op, "lower", 0);
  diag_print_c(e->p, &(DiagCall){.kind = DIAG_TRIANGLE, .type = em_ctype(x->dtype), .offset = diag, .lower = lower,
                                 .src = em_ptr(e, x, 1), .dst = em_ptr(e, out, 0), .h = em_dim(e, x, r - 2),
                                 .w = em_dim(e, x, r - 1), .mats = em_prod(e, x, 0, r - 2)});
  return 0;
}

static int emit_tril_triu(EmitCtx *e) { return emit_mask(e, "X", "Out"); }

/* tril_triu_grad: Out@GRAD -> X@GRAD (Out@GRAD's shape and dtype; the
 * forward X is not an input); the forward's attributes. */
static int infer_tril_triu_grad(OpCtx *c) {
  Var *dout = ctx_need(c, "Out@GRAD", 0);
  if (!dout) return -1;
  if (dout->shape.rank < 2) return ctx_fail(c, "Out@GRAD %s must have rank >= 2", shape_str(&dout->shape));
  ctx_set(c, "X@GRAD", 0, &dout->shape, dout->dtype);
  ctx_pass_runtime_extent(c, dout, "X@GRAD", 0); /* the run's sizes, the forward's */
  return 0;
}

static int emit_tril_triu_grad(EmitCtx *e) { return emit_mask(e, "Out@GRAD", "X@GRAD"); }

const OpDef op_tril_triu_grad = {.type = "tril_triu_grad", .infer = infer_tril_triu_grad, .emit_c = emit_tril_triu_grad,
                                 .runtime_extents = 2};

const OpDef op_tril_triu = {.type = "tril_triu", .infer = infer_tril_triu, .emit_c = emit_tril_triu,
                            .runtime_extents = 2};

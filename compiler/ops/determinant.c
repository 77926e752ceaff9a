/* determinant (paddle.linalg.det): Input -> Out; no attributes.
 * Shape rule (phi DeterminantInferMeta): Input is [..., n, n]; Out drops
 * the last two dims (a 0-D Out for one matrix).
 * Emission (float32/64, Paddle's CPU kernels): LU_DET, each matrix's
 * determinant as Eigen's PartialPivLU gives it (rt_linalg.h).
 * determinant_grad: Input, Out, Out@GRAD -> Input@GRAD (phi
 * DeterminantGradKernel): (Out@GRAD * Out) * inverse(Input)^T per matrix,
 * zeros everywhere when any determinant is 0. */
#include "../util.h"
#include "lu_call.h"
#include "ops.h"
#include "rt_linalg.h"
#include "tensor_util.h"

static int infer_determinant(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0);
  if (!x || ctx_square_matrices(c, "Input", &x->shape)) return -1;
  Shape o = x->shape;
  o.rank -= 2;
  ctx_set(c, "Out", 0, &o, x->dtype);
  return 0;
}

/* One float dtype, and the matrices' side known; -1 after em_fail. */
static int64_t det_side(EmitCtx *e, Var *const *vs, int n) {
  if (tu_float_dtype(e, vs, n) < 0) return -1;
  const int64_t side = em_const_dim(e, vs[0], tu_rank(e, vs[0]) - 1);
  return side >= 0 ? side : em_fail(e, "the matrices' side must be known at compile time");
}

static int emit_determinant(EmitCtx *e) {
  Var *x = tu_in(e, "Input", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  const int64_t n = det_side(e, (Var *const[]){x, out}, 2);
  if (n < 0) return -1;
  const int r = tu_rank(e, x);
  LuCall call = {.kind = LU_DET, .f64 = x->dtype == RT_DT_FP64, .batch = em_prod(e, x, 0, r - 2),
                 .n = em_dim(e, x, r - 1), .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0)};
  call.work = em_scratch_named(e, "void", "lu_work", (SymDim){0, RT_LINALG_WORK_BYTES(n)});
  lu_print_c(e->p, &call);
  return 0;
}

const OpDef op_determinant = {.type = "determinant", .infer = infer_determinant, .emit_c = emit_determinant};

static int emit_determinant_grad(EmitCtx *e) {
  Var *x = tu_in(e, "Input", 0), *out = tu_in(e, "Out", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = tu_out(e, "Input@GRAD", 0);
  if (!x || !out || !dout || !dx) return -1;
  const int64_t n = det_side(e, (Var *const[]){x, out, dout, dx}, 4);
  if (n < 0) return -1;
  const int r = tu_rank(e, x);
  LuCall call = {.kind = LU_DET_GRAD, .f64 = x->dtype == RT_DT_FP64, .batch = em_prod(e, x, 0, r - 2),
                 .n = em_dim(e, x, r - 1), .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 1),
                 .dout = em_ptr(e, dout, 1), .dx = em_ptr(e, dx, 0)};
  call.work = em_scratch_named(e, "void", "lu_work", (SymDim){0, RT_LINALG_WORK_BYTES(n)});
  call.tmp = tu_scratch_like(e, x, "inverse");
  lu_print_c(e->p, &call);
  return 0;
}

const OpDef op_determinant_grad = {.type = "determinant_grad", .infer = grad_infer,
                                   .emit_c = emit_determinant_grad};

/* inverse (paddle.linalg.inv): Input -> Output; no attributes.
 * Shape rule (phi InverseInferMeta): Input is [..., n, n], Output its dims.
 * Emission (float32/64, Paddle's CPU kernels): LU_INVERSE, each matrix
 * inverted through its LU factorization as Eigen's PartialPivLU does
 * (rt_linalg.h); a matrix of determinant 0 stops the run (Paddle raises
 * "Input is not invertible").
 * inverse_grad: Output, Output@GRAD -> Input@GRAD (phi InverseGradKernel):
 * -Output^T (Output@GRAD Output^T). */
#include "../util.h"
#include "lu_call.h"
#include "ops.h"
#include "rt_linalg.h"
#include "tensor_util.h"

static int infer_inverse(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0);
  if (!x || ctx_square_matrices(c, "Input", &x->shape)) return -1;
  ctx_set(c, "Output", 0, &x->shape, x->dtype);
  return 0;
}

static int emit_inverse(EmitCtx *e) {
  Var *x = tu_in(e, "Input", 0), *out = tu_out(e, "Output", 0);
  if (!x || !out || tu_float_dtype(e, (Var *const[]){x, out}, 2) < 0) return -1;
  const int r = tu_rank(e, x);
  const int64_t n = em_const_dim(e, x, r - 1);
  if (n < 0) return em_fail(e, "the matrices' side must be known at compile time");
  LuCall call = {.kind = LU_INVERSE, .f64 = x->dtype == RT_DT_FP64, .batch = em_prod(e, x, 0, r - 2),
                 .n = em_dim(e, x, r - 1), .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0)};
  call.work = em_scratch_named(e, "void", "lu_work", (SymDim){0, RT_LINALG_WORK_BYTES(n)});
  lu_print_c(e->p, &call);
  em_fault(e, "a matrix is not invertible (Paddle raises)");
  return 0;
}

const OpDef op_inverse = {.type = "inverse", .infer = infer_inverse, .emit_c = emit_inverse};

/* inverse_grad reads no Input: Input@GRAD takes Output's dims. */
static int infer_inverse_grad(OpCtx *c) {
  Var *out = ctx_need(c, "Output", 0);
  if (!out) return -1;
  ctx_set(c, "Input@GRAD", 0, &out->shape, out->dtype);
  return 0;
}

static int emit_inverse_grad(EmitCtx *e) {
  Var *out = tu_in(e, "Output", 0), *dout = tu_in(e, "Output@GRAD", 0), *dx = tu_out(e, "Input@GRAD", 0);
  if (!out || !dout || !dx || tu_float_dtype(e, (Var *const[]){out, dout, dx}, 3) < 0) return -1;
  const int r = tu_rank(e, out);
  LuCall call = {.kind = LU_INVERSE_GRAD, .f64 = out->dtype == RT_DT_FP64, .batch = em_prod(e, out, 0, r - 2),
                 .n = em_dim(e, out, r - 1), .out = em_ptr(e, out, 1), .dout = em_ptr(e, dout, 1),
                 .dx = em_ptr(e, dx, 0)};
  call.tmp = tu_scratch_like(e, out, "product");
  lu_print_c(e->p, &call);
  return 0;
}

const OpDef op_inverse_grad = {.type = "inverse_grad", .infer = infer_inverse_grad, .emit_c = emit_inverse_grad};

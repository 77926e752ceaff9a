/* cholesky (paddle.linalg.cholesky): X -> Out; upper:BOOL=false.
 * Shape rule (phi CholeskyInferMeta): X is [..., n, n]; Out its dims.
 * Emission (float32/64, Paddle's CPU kernels): LU_CHOLESKY, each matrix's
 * factor as Eigen's LLT gives it (rt_linalg.h: L from X's lower triangle,
 * or U = L^T from its upper one, the other triangle zero); a matrix that
 * is not positive definite stops the run (Paddle raises).  cholesky_grad
 * has no C emitter: training through it is refused. */
#include "../util.h"
#include "lu_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_cholesky(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x || ctx_square_matrices(c, "X", &x->shape)) return -1;
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  return 0;
}

static int emit_cholesky(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || out->dtype != x->dtype)
    return em_fail(e, "X is %s: cholesky takes float32 or float64", rt_dtype_name(x->dtype));
  if (x == out) return em_fail(e, "Out is X (in place), which is not supported");
  const int r = tu_rank(e, x);
  lu_print_c(e->p, &(LuCall){.kind = LU_CHOLESKY, .f64 = x->dtype == RT_DT_FP64, .batch = em_prod(e, x, 0, r - 2),
                             .n = em_dim(e, x, r - 1), .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0),
                             .upper = attr_bool(e->op, "upper", 0)});
  em_fault(e, "a matrix is not positive definite (Paddle raises)");
  return 0;
}

const OpDef op_cholesky = {.type = "cholesky", .infer = infer_cholesky, .emit_c = emit_cholesky};

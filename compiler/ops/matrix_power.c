/* matrix_power (paddle.linalg.matrix_power): X -> Out; n:INT.
 * Shape rule (phi MatrixPowerInferMeta): X is [..., m, m]; Out its dims.
 * Emission (float32/64, Paddle's CPU kernels): LU_MATRIX_POWER, the
 * products in Paddle's order (rt_linalg.h); a negative n inverts first,
 * a singular matrix then stopping the run as Paddle raises.
 * matrix_power_grad has no C emitter: training through it is refused. */
#include "../util.h"
#include "lu_call.h"
#include "ops.h"
#include "rt_linalg.h"
#include "tensor_util.h"

static int infer_matrix_power(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x || ctx_square_matrices(c, "X", &x->shape)) return -1;
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  return 0;
}

static int emit_matrix_power(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || out->dtype != x->dtype)
    return em_fail(e, "X is %s: matrix_power takes float32 or float64", rt_dtype_name(x->dtype));
  if (x == out) return em_fail(e, "Out is X (in place), which is not supported");
  const int r = tu_rank(e, x);
  const int64_t n = em_const_dim(e, x, r - 1), k = attr_int(e->op, "n", 0);
  if (n < 0) return em_fail(e, "the matrices' side must be known at compile time");
  if (k < -2147483647 || k > 2147483647) return em_fail(e, "n %lld is out of int's range", (long long)k);
  LuCall call = {.kind = LU_MATRIX_POWER, .f64 = x->dtype == RT_DT_FP64, .batch = em_prod(e, x, 0, r - 2),
                 .n = em_dim(e, x, r - 1), .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0), .power = (int)k};
  call.work = em_scratch_named(e, "void", "power_work", (SymDim){0, RT_MATPOW_WORK_BYTES(n)});
  lu_print_c(e->p, &call);
  if (k < 0) em_fault(e, "a matrix of a negative power is not invertible (Paddle raises)");
  return 0;
}

const OpDef op_matrix_power = {.type = "matrix_power", .infer = infer_matrix_power, .emit_c = emit_matrix_power};

/* triangular_solve (paddle.linalg.triangular_solve): X, Y -> Out;
 * upper:BOOL=true, transpose:BOOL=false, unitriangular:BOOL=false.
 * Solves op(X) Out = Y for each matrix, X [..., n, n] triangular (its
 * other triangle not read), op(X) = X^T with transpose, X's diagonal taken
 * as ones with unitriangular.
 * Shape rule (phi TriangularSolveInferMeta): Y is [..., n, m]; the batch
 * dims broadcast; Out is [batch..., n, m].
 * Emission (float32/64, Paddle's CPU kernels): LU_TRI_SOLVE, row by row
 * (lu_call.h).  paddlec broadcasts a whole batch (one matrix of X or of Y
 * for every batch); other broadcasts are refused.  triangular_solve_grad
 * has no C emitter: training through it is refused. */
#include "../util.h"
#include "lu_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_triangular_solve(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  const Shape *xs = &x->shape, *ys = &y->shape;
  if (xs->rank < 2 || ys->rank < 2) return ctx_fail(c, "X %s and Y %s must have rank 2 or more", shape_str(xs), shape_str(ys));
  const int64_t n = xs->d[xs->rank - 1];
  if ((xs->d[xs->rank - 2] >= 0 && n >= 0 && xs->d[xs->rank - 2] != n) ||
      (ys->d[ys->rank - 2] >= 0 && n >= 0 && ys->d[ys->rank - 2] != n))
    return ctx_fail(c, "X %s must hold square matrices of Y %s's rows", shape_str(xs), shape_str(ys));
  if (x->dtype != y->dtype) return ctx_fail(c, "X is %s and Y %s", rt_dtype_name(x->dtype), rt_dtype_name(y->dtype));
  const int xb = xs->rank - 2, yb = ys->rank - 2, ob = xb > yb ? xb : yb;
  Shape o = {ob + 2, {0}};
  for (int i = 0; i < ob; i++) {
    const int64_t a = i - (ob - xb) >= 0 ? xs->d[i - (ob - xb)] : 1, b = i - (ob - yb) >= 0 ? ys->d[i - (ob - yb)] : 1;
    if (a != b && a != 1 && b != 1 && a >= 0 && b >= 0)
      return ctx_fail(c, "the batch dims of X %s and Y %s do not broadcast", shape_str(xs), shape_str(ys));
    o.d[i] = a == 1 ? b : a;
  }
  o.d[ob] = ys->d[ys->rank - 2], o.d[ob + 1] = ys->d[ys->rank - 1];
  ctx_set(c, "Out", 0, &o, x->dtype);
  return 0;
}

static int emit_triangular_solve(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *y = tu_in(e, "Y", 0), *out = tu_out(e, "Out", 0);
  if (!x || !y || !out) return -1;
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || y->dtype != x->dtype || out->dtype != x->dtype)
    return em_fail(e, "X is %s: triangular_solve takes float32 or float64 (one dtype)", rt_dtype_name(x->dtype));
  if (out == y || out == x) return em_fail(e, "Out is an input (in place), which is not supported");
  const int rx = tu_rank(e, x), ry = tu_rank(e, y), ro = tu_rank(e, out);
  const SymDim bx = em_sym_prod(e, x, 0, rx - 2), by = em_sym_prod(e, y, 0, ry - 2), bo = em_sym_prod(e, out, 0, ro - 2);
  const int x_one = bx.a == 0 && bx.c == 1, y_one = by.a == 0 && by.c == 1;
  if ((!x_one && (bx.a != bo.a || bx.c != bo.c)) || (!y_one && (by.a != bo.a || by.c != bo.c)))
    return em_fail(e, "X's and Y's batch dims broadcast other than whole (one matrix for every batch): not supported");
  lu_print_c(e->p, &(LuCall){.kind = LU_TRI_SOLVE, .f64 = x->dtype == RT_DT_FP64, .batch = em_prod(e, out, 0, ro - 2),
                             .n = em_dim(e, x, rx - 1), .m = em_dim(e, y, ry - 1), .x = em_ptr(e, x, 1),
                             .y = em_ptr(e, y, 1), .out = em_ptr(e, out, 0), .upper = attr_bool(e->op, "upper", 1),
                             .transpose = attr_bool(e->op, "transpose", 0),
                             .unit = attr_bool(e->op, "unitriangular", 0), .x_bcast = x_one, .y_bcast = y_one});
  return 0;
}

const OpDef op_triangular_solve = {.type = "triangular_solve", .infer = infer_triangular_solve,
                                   .emit_c = emit_triangular_solve};

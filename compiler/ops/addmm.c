/* addmm (paddle.addmm): Input, X, Y -> Out; Alpha:FLOAT=1, Beta:FLOAT=1.
 *   Out = Beta * Input + Alpha * (X @ Y)
 * Shape rule (phi AddmmInferMeta): Input has rank 1 or 2, X and Y rank 2;
 * Out is [X.dims[0], Y.dims[1]] of Input's dtype.  The kernel broadcasts
 * Input ([N] as [1, N]) to Out: its rows must be 1 or X's, its columns 1
 * or Y's, and X's columns must be Y's rows.
 * Emission: Out filled with Input broadcast, then for float32 one
 * rt_sgemm_ws with beta = Beta (Paddle's blas.GEMM on the broadcast Input),
 * for float64 a product loop summed in double. */
#include "../util.h"
#include "mat_call.h"
#include "ops.h"
#include "rt_kernels.h"
#include "tensor_util.h"

/* 1 when a and b may be equal (either unknown). */
static int fits(int64_t a, int64_t b) { return a == b || a == DIM_UNKNOWN || b == DIM_UNKNOWN; }

static int infer_addmm(OpCtx *c) {
  Var *in = ctx_need(c, "Input", 0), *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!in || !x || !y) return -1;
  const Shape *is = &in->shape, *xs = &x->shape, *ys = &y->shape;
  if ((is->rank != 1 && is->rank != 2) || xs->rank != 2 || ys->rank != 2)
    return ctx_fail(c, "Input %s must have rank 1 or 2, X %s and Y %s rank 2", shape_str(is), shape_str(xs),
                    shape_str(ys));
  if (!fits(xs->d[1], ys->d[0])) return ctx_fail(c, "X %s and Y %s do not multiply", shape_str(xs), shape_str(ys));
  int64_t rows = is->rank == 2 ? is->d[0] : 1, cols = is->d[is->rank - 1];
  if ((rows != 1 && !fits(rows, xs->d[0])) || (cols != 1 && !fits(cols, ys->d[1])))
    return ctx_fail(c, "Input %s does not broadcast to [%lld, %lld]", shape_str(is), (long long)xs->d[0],
                    (long long)ys->d[1]);
  Shape o = {2, {xs->d[0], ys->d[1]}};
  ctx_set(c, "Out", 0, &o, in->dtype);
  return 0;
}

static int emit_addmm(EmitCtx *e) {
  Var *in = tu_in(e, "Input", 0), *x = tu_in(e, "X", 0), *y = tu_in(e, "Y", 0), *out = tu_out(e, "Out", 0);
  if (!in || !x || !y || !out) return -1;
  const int dt = out->dtype;
  if ((dt != RT_DT_FP32 && dt != RT_DT_FP64) || in->dtype != dt || x->dtype != dt || y->dtype != dt)
    return em_fail(e, "addmm of %s tensors is not supported (float32 or float64)", rt_dtype_name(in->dtype));
  if (in == out || x == out || y == out)
    return em_fail(e, "Out is an input (an in-place addmm), which is not supported");
  const VarSpec *is = em_spec(e, in);
  SymDim rows = is->rank == 2 ? is->d[0] : (SymDim){0, 1}, cols = is->d[is->rank - 1];
  const VarSpec *os = em_spec(e, out);
  if (!tu_is_one(rows) && (rows.a != os->d[0].a || rows.c != os->d[0].c))
    return em_fail(e, "Input's rows (%s) are neither 1 nor Out's (%s)", em_sym(rows), em_dim(e, out, 0));
  if (!tu_is_one(cols) && (cols.a != os->d[1].a || cols.c != os->d[1].c))
    return em_fail(e, "Input's columns (%s) are neither 1 nor Out's (%s)", em_sym(cols), em_dim(e, out, 1));
  double alpha = attr_float(e->op, "Alpha", 1), beta = attr_float(e->op, "Beta", 1);
  const int f32 = dt == RT_DT_FP32;
  AddmmCall call = {.dtype = dt, .m = em_dim(e, out, 0), .n = em_dim(e, out, 1), .k = em_dim(e, x, 1),
                    .in_rows = em_sym(rows), .in_cols = em_sym(cols), .one_row = tu_is_one(rows),
                    .one_col = tu_is_one(cols), .alpha = f32 ? em_float((float)alpha) : tu_literal(dt, alpha),
                    .beta = f32 ? em_float((float)beta) : tu_literal(dt, beta), .x = em_ptr(e, x, 1),
                    .y = em_ptr(e, y, 1), .in = em_ptr(e, in, 1), .out = em_ptr(e, out, 0)};
  if (f32) call.ws = em_gemm_ws(e, em_sym_prod(e, out, 0, 1), em_sym_prod(e, out, 1, 2), em_sym_prod(e, x, 1, 2));
  addmm_print_c(e->p, &call);
  return 0;
}

const OpDef op_addmm = {.type = "addmm", .infer = infer_addmm, .emit_c = emit_addmm};

/* addmm_grad: Input, X, Y, Out@GRAD -> Input@GRAD, X@GRAD, Y@GRAD (each
 * optional); Alpha, Beta.  phi AddmmGradKernel:
 *   Input@GRAD = Beta * (Out@GRAD summed over the rows and/or columns that
 *                Input was broadcast along; a copy otherwise)
 *   X@GRAD = Alpha * (Out@GRAD @ Y^T),  Y@GRAD = Alpha * (X^T @ Out@GRAD)
 * each product taken first, then scaled (blas SCAL), as Paddle does; the
 * sums run in the element type, row by row. */
static int emit_addmm_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *in = tu_in(e, "Input", 0), *x = tu_in(e, "X", 0), *y = tu_in(e, "Y", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *din = ctx_out(&c, "Input@GRAD", 0), *dx = ctx_out(&c, "X@GRAD", 0), *dy = ctx_out(&c, "Y@GRAD", 0);
  if (!in || !x || !y || !dout) return -1;
  const int dt = dout->dtype;
  Var *const all[6] = {in, x, y, din, dx, dy};
  for (int k = 0; k < 6; k++)
    if (all[k] && (all[k]->dtype != dt || (dt != RT_DT_FP32 && dt != RT_DT_FP64)))
      return em_fail(e, "addmm_grad of %s tensors is not supported (float32 or float64, all alike)",
                     rt_dtype_name(all[k]->dtype));
  const VarSpec *is = em_spec(e, in);
  SymDim rows = is->rank == 2 ? is->d[0] : (SymDim){0, 1}, cols = is->d[is->rank - 1];
  const VarSpec *os = em_spec(e, dout);
  int row_sum = rows.a != os->d[0].a || rows.c != os->d[0].c, col_sum = cols.a != os->d[1].a || cols.c != os->d[1].c;
  if ((row_sum && !tu_is_one(rows)) || (col_sum && !tu_is_one(cols)))
    return em_fail(e, "Input does not broadcast to Out@GRAD");
  double alpha = attr_float(e->op, "Alpha", 1), beta = attr_float(e->op, "Beta", 1);
  AddmmCall call = {.grad = 1, .dtype = dt, .m = em_dim(e, dout, 0), .n = em_dim(e, dout, 1), .k = em_dim(e, x, 1),
                    .sum_rows = row_sum, .sum_cols = col_sum, .alpha = tu_literal(dt, (float)alpha),
                    .beta = tu_literal(dt, (float)beta), .dout = em_ptr(e, dout, 1),
                    .din = din ? em_ptr(e, din, 0) : NULL};
  SymDim m = em_sym_prod(e, dout, 0, 1), n = em_sym_prod(e, dout, 1, 2), k = em_sym_prod(e, x, 1, 2);
  const int f32 = dt == RT_DT_FP32;
  if (dx) { /* dx = dout y^T, then times Alpha */
    call.dx = em_ptr(e, dx, 0), call.y = em_ptr(e, y, 1);
    if (f32) call.ws_dx = em_gemm_ws(e, m, k, n);
  }
  if (dy) { /* dy = x^T dout, then times Alpha */
    call.dy = em_ptr(e, dy, 0), call.x = em_ptr(e, x, 1);
    if (f32) call.ws_dy = em_gemm_ws(e, k, n, m);
  }
  addmm_print_c(e->p, &call);
  return 0;
}

const OpDef op_addmm_grad = {.type = "addmm_grad", .infer = grad_infer, .emit_c = emit_addmm_grad};

/* bilinear_tensor_product (paddle.nn.Bilinear): X [B, M], Y [B, N],
 * Weight [K, M, N], Bias? [1, K] -> Out [B, K], dtype of X; no attributes.
 *   Out[b, k] = sum_j (sum_i X[b, i] * Weight[k, i, j]) * Y[b, j] + Bias[k]
 * Shape rule (phi BilinearInferMeta): X and Y have rank 2, Weight rank 3,
 * Bias [1, K]; the batch dims of X and Y and M, N agree where known.
 * Emission (float32/64): Paddle's BilinearKernel order -- per k the product
 * X x Weight[k] (sums over i), then the row sums of its product with Y, then
 * the bias. */
#include "../util.h"
#include "mat_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_bilinear(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0), *w = ctx_need(c, "Weight", 0);
  if (!x || !y || !w) return -1;
  const Shape *xs = &x->shape, *ys = &y->shape, *ws = &w->shape;
  if (xs->rank != 2 || ys->rank != 2 || ws->rank != 3)
    return ctx_fail(c, "X %s and Y %s must have rank 2 and Weight %s rank 3", shape_str(xs), shape_str(ys),
                    shape_str(ws));
  if ((xs->d[1] >= 0 && ws->d[1] >= 0 && xs->d[1] != ws->d[1]) ||
      (ys->d[1] >= 0 && ws->d[2] >= 0 && ys->d[1] != ws->d[2]) ||
      (xs->d[0] >= 0 && ys->d[0] >= 0 && xs->d[0] != ys->d[0]))
    return ctx_fail(c, "X %s, Y %s and Weight %s do not fit", shape_str(xs), shape_str(ys), shape_str(ws));
  Var *b = ctx_in(c, "Bias", 0);
  if (b && (b->shape.rank != 2 || b->shape.d[0] != 1))
    return ctx_fail(c, "Bias %s must be [1, %lld]", shape_str(&b->shape), (long long)ws->d[0]);
  Shape o = {2, {xs->d[0], ws->d[0]}};
  ctx_set(c, "Out", 0, &o, x->dtype);
  return 0;
}

/* The sizes into the record: X's rows and Weight's constant [K, M, N]. */
static void dims(EmitCtx *e, const Var *x, int64_t K, int64_t M, int64_t N, BilinearCall *call) {
  call->rows = em_dim(e, x, 0);
  call->k = pool_printf("%lld", (long long)K);
  call->m = pool_printf("%lld", (long long)M);
  call->n = pool_printf("%lld", (long long)N);
}

static int emit_bilinear(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *y = tu_in(e, "Y", 0), *w = tu_in(e, "Weight", 0), *out = tu_out(e, "Out", 0);
  if (!x || !y || !w || !out) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  Var *b = ctx_in(&c, "Bias", 0);
  int dt = x->dtype;
  if ((dt != RT_DT_FP32 && dt != RT_DT_FP64) || y->dtype != dt || w->dtype != dt || out->dtype != dt ||
      (b && b->dtype != dt))
    return em_fail(e, "bilinear_tensor_product of %s tensors is not supported", rt_dtype_name(dt));
  int64_t K = em_const_dim(e, w, 0), M = em_const_dim(e, w, 1), N = em_const_dim(e, w, 2);
  if (K < 0 || M < 0 || N < 0 || em_const_dim(e, x, 1) != M || em_const_dim(e, y, 1) != N)
    return em_fail(e, "X, Y and Weight do not fit");
  BilinearCall call = {.dtype = dt, .x = em_ptr(e, x, 1), .y = em_ptr(e, y, 1), .w = em_ptr(e, w, 1),
                       .bias = b ? em_ptr(e, b, 1) : NULL, .out = em_ptr(e, out, 0)};
  dims(e, x, K, M, N, &call);
  bilinear_print_c(e->p, &call);
  return 0;
}

const OpDef op_bilinear_tensor_product = {.type = "bilinear_tensor_product", .infer = infer_bilinear,
                                          .emit_c = emit_bilinear};

/* bilinear_tensor_product_grad (X, Y, Weight, Out@GRAD -> X@GRAD, Y@GRAD,
 * Weight@GRAD, Bias@GRAD, each may be absent; phi BilinearGradKernel):
 *   X@GRAD[b, i] = sum_k sum_j Out@GRAD[b, k] * Y[b, j] * Weight[k, i, j]
 *   Y@GRAD[b, j] = sum_k sum_i Out@GRAD[b, k] * X[b, i] * Weight[k, i, j]
 *   Weight@GRAD[k, i, j] = sum_b Out@GRAD[b, k] * X[b, i] * Y[b, j]
 *   Bias@GRAD[0, k] = sum_b Out@GRAD[b, k]
 * with the scaled rows (Out@GRAD[b, k] * Y[b, j], ...) formed first and the
 * sums run k by k as Paddle's loop over k does (its inner sums are BLAS
 * products: results agree to rounding).  Shape rule: each gradient takes
 * its input's shape, Bias@GRAD [1, K] (the grad op has no Bias). */
static int infer_bilinear_grad(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0), *w = ctx_need(c, "Weight", 0);
  if (!x || !y || !w) return -1;
  ctx_set(c, "X@GRAD", 0, &x->shape, x->dtype);
  ctx_set(c, "Y@GRAD", 0, &y->shape, y->dtype);
  ctx_set(c, "Weight@GRAD", 0, &w->shape, w->dtype);
  Shape s = {2, {1, w->shape.d[0]}};
  ctx_set(c, "Bias@GRAD", 0, &s, w->dtype);
  return 0;
}

static int emit_bilinear_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X", 0), *y = tu_in(e, "Y", 0), *w = tu_in(e, "Weight", 0), *dout = tu_in(e, "Out@GRAD", 0);
  if (!x || !y || !w || !dout) return -1;
  Var *dx = ctx_out(&c, "X@GRAD", 0), *dy = ctx_out(&c, "Y@GRAD", 0), *dw = ctx_out(&c, "Weight@GRAD", 0);
  Var *db = ctx_out(&c, "Bias@GRAD", 0);
  int dt = x->dtype;
  if ((dt != RT_DT_FP32 && dt != RT_DT_FP64) || y->dtype != dt || w->dtype != dt || dout->dtype != dt ||
      (dx && dx->dtype != dt) || (dy && dy->dtype != dt) || (dw && dw->dtype != dt) || (db && db->dtype != dt))
    return em_fail(e, "bilinear_tensor_product_grad of %s tensors is not supported", rt_dtype_name(dt));
  int64_t K = em_const_dim(e, w, 0), M = em_const_dim(e, w, 1), N = em_const_dim(e, w, 2);
  if (K < 0 || M < 0 || N < 0 || em_const_dim(e, x, 1) != M || em_const_dim(e, y, 1) != N ||
      em_const_dim(e, dout, 1) != K)
    return em_fail(e, "X, Y, Weight and Out@GRAD do not fit");
  BilinearCall call = {.grad = 1, .dtype = dt, .x = em_ptr(e, x, 1), .y = em_ptr(e, y, 1), .w = em_ptr(e, w, 1),
                       .dout = em_ptr(e, dout, 1), .dx = dx ? em_ptr(e, dx, 0) : NULL,
                       .dy = dy ? em_ptr(e, dy, 0) : NULL, .dw = dw ? em_ptr(e, dw, 0) : NULL,
                       .db = db ? em_ptr(e, db, 0) : NULL};
  dims(e, x, K, M, N, &call);
  bilinear_print_c(e->p, &call);
  return 0;
}

const OpDef op_bilinear_tensor_product_grad = {.type = "bilinear_tensor_product_grad", .infer = infer_bilinear_grad,
                                               .emit_c = emit_bilinear_grad};

/* bilinear_tensor_product (paddle.nn.Bilinear): X [B, M], Y [B, N],
 * Weight [K, M, N], Bias? [1, K] -> Out [B, K], dtype of X; no attributes.
 *   Out[b, k] = sum_j (sum_i X[b, i] * Weight[k, i, j]) * Y[b, j] + Bias[k]
 * Shape rule (phi BilinearInferMeta): X and Y have rank 2, Weight rank 3,
 * Bias [1, K]; the batch dims of X and Y and M, N agree where known.
 * Emission (float32/64): Paddle's BilinearKernel order -- per k the product
 * X x Weight[k] (sums over i), then the row sums of its product with Y, then
 * the bias. */
#include "../util.h"
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
  const char *t = em_ctype(dt);
  pr_line(e->p, "const %s *x = %s, *y = %s, *w = %s;", t, em_ptr(e, x, 1), em_ptr(e, y, 1), em_ptr(e, w, 1));
  if (b) pr_line(e->p, "const %s *bias = %s;", t, em_ptr(e, b, 1));
  pr_line(e->p, "%s *out = %s;", t, em_ptr(e, out, 0));
  pr_line(e->p, "const int64_t K = %lld, M = %lld, N = %lld;", (long long)K, (long long)M, (long long)N);
  pr_line(e->p, "for (int64_t r = 0; r < %s; r++) {", em_dim(e, x, 0));
  pr_line(e->p, "for (int64_t k = 0; k < K; k++) {");
  pr_line(e->p, "%s sum = 0;", t);
  pr_line(e->p, "for (int64_t j = 0; j < N; j++) {");
  pr_line(e->p, "%s left = 0;", t);
  pr_line(e->p, "for (int64_t i = 0; i < M; i++) left += x[r * M + i] * w[(k * M + i) * N + j];");
  pr_line(e->p, "sum += left * y[r * N + j];");
  pr_line(e->p, "}");
  pr_line(e->p, "out[r * K + k] = %s;", b ? "sum + bias[k]" : "sum");
  pr_line(e->p, "}");
  pr_line(e->p, "}");
  return 0;
}

const OpDef op_bilinear_tensor_product = {.type = "bilinear_tensor_product", .infer = infer_bilinear,
                                          .emit_c = emit_bilinear};

/* lrn (local response normalization, the fluid op): X [N, C, H, W] -> Out,
 * MidOut (both X's dims and dtype); n:INT=5 (odd), k:FLOAT=2.0,
 * alpha:FLOAT=1e-4, beta:FLOAT=0.75, data_format:STRING="AnyLayout"
 * ("NHWC": channels last; anything else channel first); extra use_mkldnn,
 * is_test.
 *   MidOut[c] = k + alpha * sum of X[j]^2 over j in [c - (n-1)/2, c + n/2]
 *   Out[c]    = X[c] * MidOut[c]^(-beta)
 * (paddle.nn.LocalResponseNorm does not emit this op: it is built from
 * pad, pool and elementwise ops.)
 * Shape rule (fluid LRNOp::InferShape): X has rank 4, n > 0 and odd.
 * Emission (float32): Paddle's CPU LRNFunctor step for step, per pixel: the
 * window sum starts as k plus alpha times each of the first n squares
 * (channels before 0 count as 0), then slides one channel at a time by
 * adding alpha times the entering square and adding -alpha times the
 * leaving one; Out = powf(MidOut, -beta) * X. */
#include <strings.h>

#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_lrn(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  if (x->shape.rank != 4) return ctx_fail(c, "X %s must have rank 4", shape_str(&x->shape));
  int64_t n = attr_int(c->op, "n", 5);
  if (n <= 0 || n % 2 == 0) return ctx_fail(c, "n = %lld must be positive and odd", (long long)n);
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_set(c, "MidOut", 0, &x->shape, x->dtype);
  return 0;
}

static int emit_lrn(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  Var *mid = ctx_out(&c, "MidOut", 0);
  if (x->dtype != RT_DT_FP32 || out->dtype != RT_DT_FP32 || (mid && mid->dtype != RT_DT_FP32))
    return em_fail(e, "lrn of %s tensors is not supported (Paddle's CPU kernel is float32)", rt_dtype_name(x->dtype));
  if (x == out || x == mid) return em_fail(e, "Out or MidOut is X itself, which is not supported");
  const char *fmt = attr_str(e->op, "data_format", "AnyLayout");
  int last = !strcasecmp(fmt, "NHWC");
  if (!last && strcasecmp(fmt, "NCHW") && strcasecmp(fmt, "AnyLayout"))
    return em_fail(e, "data_format '%s' is not supported", fmt);
  int64_t C = em_const_dim(e, x, last ? 3 : 1), h = em_const_dim(e, x, 2), w = em_const_dim(e, x, last ? 1 : 3);
  if (C < 0 || h < 0 || w < 0) return em_fail(e, "dims after the batch must not depend on it");
  const int64_t hw = h * w;
  int64_t n = attr_int(e->op, "n", 5);
  if (n <= 0 || n % 2 == 0) return em_fail(e, "n must be positive and odd");
  pr_line(e->p, "const float *x = %s;", em_ptr(e, x, 1));
  pr_line(e->p, "float *out = %s;", em_ptr(e, out, 0));
  if (mid) pr_line(e->p, "float *mid = %s;", em_ptr(e, mid, 0));
  pr_line(e->p, "const float k = %s, alpha = %s, beta = %s;", em_float((float)attr_float(e->op, "k", 2.0)),
          em_float((float)attr_float(e->op, "alpha", 1e-4)), em_float((float)attr_float(e->op, "beta", 0.75)));
  /* channel j of pixel p of image b sits at b * C * hw + j * cs + p * ps */
  pr_line(e->p, "const int64_t C = %lld, hw = %lld, n = %lld, pre = %lld, cs = %lld, ps = %lld;", (long long)C,
          (long long)hw, (long long)n, (long long)((n - 1) / 2), (long long)(last ? 1 : hw), (long long)(last ? C : 1));
  pr_line(e->p, "for (int64_t b = 0; b < %s; b++) {", em_dim(e, x, 0));
  pr_line(e->p, "for (int64_t p = 0; p < hw; p++) {");
  pr_line(e->p, "const float *xp = x + b * C * hw + p * ps;");
  pr_line(e->p, "const int64_t at0 = b * C * hw + p * ps;");
  pr_line(e->p, "#define SQ(j) ((j) >= pre && (j) - pre < C ? xp[((j) - pre) * cs] * xp[((j) - pre) * cs] : 0.0f)");
  pr_line(e->p, "float m = k;");
  pr_line(e->p, "for (int64_t j = 0; j < n; j++) m += alpha * SQ(j);");
  pr_line(e->p, "for (int64_t ch = 0; ch < C; ch++) {");
  pr_line(e->p, "if (ch > 0) {");
  pr_line(e->p, "m += alpha * SQ(ch + n - 1);");
  pr_line(e->p, "m += -alpha * SQ(ch - 1);");
  pr_line(e->p, "}");
  if (mid) pr_line(e->p, "mid[at0 + ch * cs] = m;");
  pr_line(e->p, "out[at0 + ch * cs] = powf(m, -beta) * xp[ch * cs];");
  pr_line(e->p, "}");
  pr_line(e->p, "#undef SQ");
  pr_line(e->p, "}");
  pr_line(e->p, "}");
  return 0;
}

const OpDef op_lrn = {.type = "lrn", .infer = infer_lrn, .emit_c = emit_lrn};

/* lrn_grad (X, Out, MidOut, Out@GRAD -> X@GRAD; the forward's attributes;
 * fluid LRNGradFunctor, float32), per pixel and channel i, in Paddle's
 * order:
 *   dx[i] = powf(MidOut[i], -beta) * dOut[i], then for each channel ch in
 *   [i - (n-1)/2, i + n/2] inside [0, C), in order:
 *   dx[i] += ratio * dOut[ch] * Out[ch] * X[i] / MidOut[ch]
 * with ratio = -2 * alpha * beta (float). */
static int emit_lrn_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_in(e, "Out", 0), *mid = tu_in(e, "MidOut", 0);
  Var *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !out || !mid || !dout || !dx) return -1;
  if (x->dtype != RT_DT_FP32 || out->dtype != RT_DT_FP32 || mid->dtype != RT_DT_FP32 || dout->dtype != RT_DT_FP32 ||
      dx->dtype != RT_DT_FP32)
    return em_fail(e, "lrn_grad of %s tensors is not supported (Paddle's CPU kernel is float32)",
                   rt_dtype_name(x->dtype));
  const char *fmt = attr_str(e->op, "data_format", "AnyLayout");
  int last = !strcasecmp(fmt, "NHWC");
  if (!last && strcasecmp(fmt, "NCHW") && strcasecmp(fmt, "AnyLayout"))
    return em_fail(e, "data_format '%s' is not supported", fmt);
  int64_t C = em_const_dim(e, x, last ? 3 : 1), h = em_const_dim(e, x, 2), w = em_const_dim(e, x, last ? 1 : 3);
  if (C < 0 || h < 0 || w < 0) return em_fail(e, "dims after the batch must not depend on it");
  int64_t n = attr_int(e->op, "n", 5);
  if (n <= 0 || n % 2 == 0) return em_fail(e, "n must be positive and odd");
  const float alpha = (float)attr_float(e->op, "alpha", 1e-4), beta = (float)attr_float(e->op, "beta", 0.75);
  pr_line(e->p, "const float *x = %s;", em_ptr(e, x, 1));
  pr_line(e->p, "const float *out = %s;", em_ptr(e, out, 1));
  pr_line(e->p, "const float *mid = %s;", em_ptr(e, mid, 1));
  pr_line(e->p, "const float *dout = %s;", em_ptr(e, dout, 1));
  pr_line(e->p, "float *dx = %s;", em_ptr(e, dx, 0));
  pr_line(e->p, "const float beta = %s, ratio = %s;", em_float(beta), em_float(-2 * alpha * beta));
  pr_line(e->p, "const int64_t C = %lld, hw = %lld, start = %lld, end = %lld, cs = %lld, ps = %lld;", (long long)C,
          (long long)(h * w), (long long)(-(n - 1) / 2), (long long)(-(n - 1) / 2 + n), (long long)(last ? 1 : h * w),
          (long long)(last ? C : 1));
  pr_line(e->p, "for (int64_t b = 0; b < %s; b++) {", em_dim(e, x, 0));
  pr_line(e->p, "for (int64_t i = 0; i < C; i++) {");
  pr_line(e->p, "for (int64_t p = 0; p < hw; p++) {");
  pr_line(e->p, "const int64_t base = b * C * hw + p * ps, at = base + i * cs;");
  pr_line(e->p, "float g = powf(mid[at], -beta) * dout[at];");
  pr_line(e->p, "for (int64_t c = start; c < end; c++) {");
  pr_line(e->p, "const int64_t ch = i + c;");
  pr_line(e->p, "if (ch < 0 || ch >= C) continue;");
  pr_line(e->p, "const int64_t o = base + ch * cs;");
  pr_line(e->p, "g += ratio * dout[o] * out[o] * x[at] / mid[o];");
  pr_line(e->p, "}");
  pr_line(e->p, "dx[at] = g;");
  for (int i = 0; i < 3; i++) pr_line(e->p, "}");
  return 0;
}

/* lrn_grad: MidOut already holds k */
static const char *const lrn_grad_attr_ignores[] = {"k", NULL};
const OpDef op_lrn_grad = {.type = "lrn_grad", .infer = grad_infer, .emit_c = emit_lrn_grad,
                           .attr_ignores = lrn_grad_attr_ignores};

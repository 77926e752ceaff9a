/* fused_gemm_epilogue: Out = act(op(X) @ op(Y) + Bias), the op Paddle's
 * fuse_gemm_epilogue pass makes and paddlec's pass of the same name
 * (passes/fuse_gemm_epilogue.c) writes.
 *   X [..., K] (or [K, M] with trans_x, rank 2), Y [K, N] (or [N, K] with
 *   trans_y), Bias [N] -> Out [..., N]; ReserveSpace unused at inference.
 *   Attributes: trans_x=false, trans_y=false, activation="none" (Paddle:
 *   none, relu, gelu; paddlec also every name em_act knows, with fuse_alpha
 *   and fuse_beta).
 * Emission: one rt_sgemm_ep, the bias and activation applied to each block
 * of the output as soon as it is computed. */
#include <string.h>

#include "../util.h"
#include "ops.h"

static int infer_fused_gemm(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  const int tx = attr_bool(c->op, "trans_x", 0), ty = attr_bool(c->op, "trans_y", 0);
  if (x->shape.rank < 2 || y->shape.rank != 2 || (tx && x->shape.rank != 2))
    return ctx_fail(c, "X %s and Y %s: X must have rank >= 2 (2 with trans_x) and Y rank 2", shape_str(&x->shape),
                    shape_str(&y->shape));
  Shape s = x->shape;
  if (tx) s.d[0] = x->shape.d[1];
  s.d[s.rank - 1] = ty ? y->shape.d[0] : y->shape.d[1];
  ctx_set(c, "Out", 0, &s, x->dtype);
  return 0;
}

static int emit_fused_gemm(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *y = ctx_in(&c, "Y", 0), *b = ctx_in(&c, "Bias", 0), *out = ctx_out(&c, "Out", 0);
  if (!x || !y || !out) return em_fail(e, "missing X, Y or Out");
  if (x->dtype != RT_DT_FP32 || y->dtype != RT_DT_FP32 || (b && b->dtype != RT_DT_FP32))
    return em_fail(e, "only float32 is supported");
  const int tx = attr_bool(e->op, "trans_x", 0), ty = attr_bool(e->op, "trans_y", 0), r = em_spec(e, x)->rank;
  if (!em_spec(e, x)->known || !em_spec(e, y)->known || r < 2 || em_spec(e, y)->rank != 2)
    return em_fail(e, "X and Y need known shapes of rank >= 2 and 2");
  RtAct act;
  float fa, fb;
  if (em_act(e, attr_str(e->op, "activation", "none"), attr_float(e->op, "fuse_alpha", 0),
             attr_float(e->op, "fuse_beta", 0), &act, &fa, &fb))
    return -1;
  SymDim m = tx ? em_spec(e, x)->d[1] : em_sym_prod(e, x, 0, r - 1), k = em_spec(e, x)->d[tx ? 0 : r - 1];
  SymDim n = em_spec(e, y)->d[ty ? 0 : 1];
  if (b && (spec_numel(em_spec(e, b)).a || spec_numel(em_spec(e, b)).c != n.c))
    return em_fail(e, "Bias must have N = %lld elements", (long long)n.c);
  pr_line(e->p, "const int64_t M = %s, N = %s, K = %s;", tx ? em_dim(e, x, 1) : em_prod(e, x, 0, r - 1), em_sym(n),
          em_sym(k));
  pr_line(e->p, "const RtEpilogue ep = {%s, NULL, 0, %s, %s, %s};", b ? em_ptr(e, b, 1) : "NULL", em_act_name(act),
          em_float(fa), em_float(fb));
  pr_line(e->p, "rt_sgemm_ep(%d, %d, M, N, K, %s, %s, %s, %s, %s, N, %s, &ep);", tx, ty, em_ptr(e, x, 1),
          tx ? "M" : "K", em_ptr(e, y, 1), ty ? "K" : "N", em_ptr(e, out, 0), em_gemm_ws(e, m, n, k));
  return 0;
}

const OpDef op_fused_gemm_epilogue = {.type = "fused_gemm_epilogue", .infer = infer_fused_gemm,
                                      .emit_c = emit_fused_gemm};

/* fused_feedforward: the feed-forward block of a Transformer layer as one
 * kernel sequence, written by passes/fused_feedforward.c (named after
 * Paddle's fused_feedforward op; the residual is an input of its own).
 *   X [..., E], Linear1Weight [E, F], Linear1Bias [F] (optional),
 *   Linear2Weight [F, E2], Linear2Bias [E2] (optional), Residual (X's
 *   leading dims, E2; optional), Ln2Scale, Ln2Bias [E2] (optional) -> Out.
 *   Out = [layer_norm](act(X W1 + b1) W2 + b2 + Residual).
 *   Attributes: act_method (an em_act name) with fuse_alpha / fuse_beta,
 *   post_layer_norm, ln2_epsilon=1e-5.
 * Emission: two GEMMs whose epilogues add the biases, the activation and
 * the residual, the hidden [rows, F] in kernel scratch, then the layer_norm
 * in place. */
#include <string.h>

#include "../util.h"
#include "gemm_call.h"
#include "norm_call.h"
#include "ops.h"

static int infer_fused_ffn(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *w2 = ctx_need(c, "Linear2Weight", 0);
  if (!x || !w2) return -1;
  if (x->shape.rank < 2 || w2->shape.rank != 2)
    return ctx_fail(c, "X %s must have rank >= 2 and Linear2Weight %s rank 2", shape_str(&x->shape),
                    shape_str(&w2->shape));
  Shape s = x->shape;
  s.d[s.rank - 1] = w2->shape.d[1];
  ctx_set(c, "Out", 0, &s, x->dtype);
  return 0;
}

static int emit_fused_ffn(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *w1 = ctx_in(&c, "Linear1Weight", 0), *b1 = ctx_in(&c, "Linear1Bias", 0);
  Var *w2 = ctx_in(&c, "Linear2Weight", 0), *b2 = ctx_in(&c, "Linear2Bias", 0), *res = ctx_in(&c, "Residual", 0);
  Var *ls = ctx_in(&c, "Ln2Scale", 0), *lb = ctx_in(&c, "Ln2Bias", 0), *out = ctx_out(&c, "Out", 0);
  if (!x || !w1 || !w2 || !out) return em_fail(e, "missing X, Linear1Weight, Linear2Weight or Out");
  const Var *fl[] = {x, w1, b1, w2, b2, res, ls, lb};
  for (size_t i = 0; i < sizeof fl / sizeof fl[0]; i++)
    if (fl[i] && fl[i]->dtype != RT_DT_FP32) return em_fail(e, "'%s' is not float32", fl[i]->name);
  const int r = em_spec(e, x)->rank;
  const int64_t ein = em_const_dim(e, x, r - 1), f = em_const_dim(e, w1, 1), eo = em_const_dim(e, w2, 1);
  if (ein < 0 || em_const_dim(e, w1, 0) != ein || em_const_dim(e, w2, 0) != f || f < 0 || eo < 0)
    return em_fail(e, "X %s, Linear1Weight %s and Linear2Weight %s do not chain", shape_str(&x->shape),
                   shape_str(&w1->shape), shape_str(&w2->shape));
  const Var *vec[4] = {b1, b2, ls, lb};
  const int64_t len[4] = {f, eo, eo, eo};
  for (int i = 0; i < 4; i++) {
    SymDim n = vec[i] ? spec_numel(em_spec(e, vec[i])) : (SymDim){0, len[i]};
    if (n.a || n.c != len[i]) return em_fail(e, "'%s' must have %lld elements", vec[i]->name, (long long)len[i]);
  }
  SymDim no = spec_numel(em_spec(e, out)), nr = res ? spec_numel(em_spec(e, res)) : no;
  if (nr.a != no.a || nr.c != no.c) return em_fail(e, "Residual must be shaped like Out");
  RtAct act;
  float fa, fb;
  if (em_act(e, attr_str(e->op, "act_method", "none"), attr_float(e->op, "fuse_alpha", 0),
             attr_float(e->op, "fuse_beta", 0), &act, &fa, &fb))
    return -1;
  SymDim rows = em_sym_prod(e, x, 0, r - 1);
  const char *h = em_scratch(e, (SymDim){rows.a * f * 4, rows.c * f * 4});
  const char *gws = em_gemm_ws(e, rows, (SymDim){0, f > eo ? f : eo}, (SymDim){0, f > ein ? f : ein});
  pr_line(e->p, "const int64_t M = %s, E = %lld, F = %lld, E2 = %lld;", em_prod(e, x, 0, r - 1), (long long)ein,
          (long long)f, (long long)eo);
  pr_line(e->p, "float *hidden = (float *)%s;", h);
  pr_line(e->p, "const RtEpilogue ep1 = {%s, NULL, 0, %s, %s, %s};", b1 ? em_ptr(e, b1, 1) : "NULL", em_act_name(act),
          em_float(fa), em_float(fb));
  gemm_print_c(e->p, &(GemmCall){.m = "M", .n = "F", .k = "E", .a = em_ptr(e, x, 1), .lda = "E", .b = em_ptr(e, w1, 1),
                                  .ldb = "F", .c = "hidden", .ldc = "F", .ws = gws, .ep = "ep1"});
  pr_line(e->p, "const RtEpilogue ep2 = {%s, %s, E2, RT_ACT_NONE, 0.0f, 0.0f};", b2 ? em_ptr(e, b2, 1) : "NULL",
          res ? em_ptr(e, res, 1) : "NULL");
  gemm_print_c(e->p, &(GemmCall){.m = "M", .n = "E2", .k = "F", .a = "hidden", .lda = "F", .b = em_ptr(e, w2, 1),
                                  .ldb = "E2", .c = em_ptr(e, out, 0), .ldc = "E2", .ws = gws, .ep = "ep2"});
  if (attr_bool(e->op, "post_layer_norm", 0))
    norm_print_c(e->p, &(NormCall){.kind = NORM_LAYER, .rows = "M", .cols = "E2",
                                    .eps = em_float(attr_float(e->op, "ln2_epsilon", 1e-5)), .x = em_ptr(e, out, 0),
                                    .y = em_ptr(e, out, 0), .scale = ls ? em_ptr(e, ls, 1) : NULL,
                                    .bias = lb ? em_ptr(e, lb, 1) : NULL});
  return 0;
}

const OpDef op_fused_feedforward = {.type = "fused_feedforward", .infer = infer_fused_ffn, .emit_c = emit_fused_ffn};

/* fused_feedforward: the feed-forward block of a Transformer layer as one
 * kernel sequence, written by passes/fused_feedforward.c (named after
 * Paddle's fused_feedforward op; the residual is an input of its own).
 *   X [..., E], Linear1Weight [E, F], Linear1Bias [F] (optional),
 *   Linear2Weight [F, E2], Linear2Bias [E2] (optional), Residual (X's
 *   leading dims, E2; optional), Ln2Scale, Ln2Bias [E2] (optional) -> Out.
 *   Out = [layer_norm](act(X W1 + b1) W2 + b2 + Residual).
 *   Attributes: act_method (an em_act name) with fuse_alpha / fuse_beta,
 *   post_layer_norm, ln2_epsilon=1e-5.
 * The shape rule checks the sizes (X's last dim, Linear1Weight,
 * Linear2Weight chain; the biases and scales have their F or E2 elements;
 * Residual has Out's); the emitter that they do not depend on the batch.
 * Emission: two GEMMs whose epilogues add the biases, the activation and
 * the residual, the hidden [rows, F] in kernel scratch, then the layer_norm
 * in place. */
#include <string.h>

#include "../util.h"
#include "ffn_call.h"
#include "ops.h"
#include "tensor_util.h"

/* Two sizes that may be unknown (-1, outside specialization) disagree. */
static int sizes_differ(int64_t a, int64_t b) { return a >= 0 && b >= 0 && a != b; }

static int infer_fused_ffn(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *w1 = ctx_need(c, "Linear1Weight", 0), *w2 = ctx_need(c, "Linear2Weight", 0);
  if (!x || !w1 || !w2) return -1;
  if (x->shape.rank < 2 || w1->shape.rank != 2 || w2->shape.rank != 2)
    return ctx_fail(c, "X %s must have rank >= 2, Linear1Weight %s and Linear2Weight %s rank 2", shape_str(&x->shape),
                    shape_str(&w1->shape), shape_str(&w2->shape));
  const int64_t ein = x->shape.d[x->shape.rank - 1], f = w1->shape.d[1], eo = w2->shape.d[1];
  if (sizes_differ(w1->shape.d[0], ein) || sizes_differ(w2->shape.d[0], f))
    return ctx_fail(c, "X %s, Linear1Weight %s and Linear2Weight %s do not chain", shape_str(&x->shape),
                    shape_str(&w1->shape), shape_str(&w2->shape));
  Shape s = x->shape;
  s.d[s.rank - 1] = eo;
  static const char *const vecs[4] = {"Linear1Bias", "Linear2Bias", "Ln2Scale", "Ln2Bias"};
  for (int i = 0; i < 4; i++) {
    Var *v = ctx_in(c, vecs[i], 0);
    if (v && sizes_differ(shape_numel(&v->shape), i ? eo : f))
      return ctx_fail(c, "%s '%s' %s must have %lld elements", vecs[i], v->name, shape_str(&v->shape),
                      (long long)(i ? eo : f));
  }
  Var *res = ctx_in(c, "Residual", 0);
  if (res && sizes_differ(shape_numel(&res->shape), shape_numel(&s)))
    return ctx_fail(c, "Residual '%s' %s must be shaped like Out %s", res->name, shape_str(&res->shape),
                    shape_str(&s));
  ctx_set(c, "Out", 0, &s, x->dtype);
  /* rows the run gives (tokens of an image): Out has X's; a Residual has
   * them too, or none */
  if (var_runtime_mask(x) >> (x->shape.rank - 1) & 1 || var_runtime_mask(w1) || var_runtime_mask(w2) ||
      (res && var_runtime_mask(res) && (!same_runtime_extent(res, x) || var_runtime_mask(res) != var_runtime_mask(x))))
    return ctx_fail(c, "X ('%s') or Residual have dims only the run knows other than X's rows; fused_feedforward "
                    "does not take them", x->name);
  ctx_pass_runtime_extent(c, x, "Out", 0);
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
  /* the shape rule chained the sizes at each batch: here they must not depend on it */
  const int r = em_spec(e, x)->rank;
  const int64_t ein = em_const_dim(e, x, r - 1), f = em_const_dim(e, w1, 1), eo = em_const_dim(e, w2, 1);
  if (ein < 0 || f < 0 || eo < 0)
    return em_fail(e, "the sizes of X %s, Linear1Weight %s and Linear2Weight %s must not depend on the batch",
                   shape_str(&x->shape), shape_str(&w1->shape), shape_str(&w2->shape));
  RtAct act;
  float fa, fb;
  if (em_act(e, attr_str(e->op, "act_method", "none"), attr_float(e->op, "fuse_alpha", 0),
             attr_float(e->op, "fuse_beta", 0), &act, &fa, &fb))
    return -1;
  SymDim rows = em_sym_prod(e, x, 0, r - 1);
  FfnCall call = {.m = em_prod(e, x, 0, r - 1), .e = ein, .f = f, .e2 = eo, .act = act, .alpha = em_float(fa),
                  .beta = em_float(fb)};
  call.hidden = em_scratch_at(e, "hidden", (SymDim){rows.a * f * 4, rows.c * f * 4});
  call.ws = em_gemm_ws(e, rows, (SymDim){0, f > eo ? f : eo}, (SymDim){0, f > ein ? f : ein});
  call.b1 = b1 ? em_ptr(e, b1, 1) : NULL;
  call.x = em_ptr(e, x, 1);
  call.w1 = em_ptr(e, w1, 1);
  call.b2 = b2 ? em_ptr(e, b2, 1) : NULL;
  call.residual = res ? em_ptr(e, res, 1) : NULL;
  call.w2 = em_ptr(e, w2, 1);
  call.out = em_ptr(e, out, 0);
  if (attr_bool(e->op, "post_layer_norm", 0)) {
    call.layer_norm = 1;
    call.eps = em_float(attr_float(e->op, "ln2_epsilon", 1e-5));
    call.scale = ls ? em_ptr(e, ls, 1) : NULL;
    call.bias = lb ? em_ptr(e, lb, 1) : NULL;
  }
  ffn_print_c(e->p, &call);
  return 0;
}

const OpDef op_fused_feedforward = {.type = "fused_feedforward", .infer = infer_fused_ffn, .emit_c = emit_fused_ffn,
                                    .runtime_extents = 2};

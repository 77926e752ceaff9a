/* fc: Input, W, Bias† -> Out; in_num_col_dims:INT=1,
 * activation_type:STRING="", padding_weights:BOOL=false (and oneDNN's
 * quantization attributes at their defaults).  The op Paddle Inference's
 * fc_fuse_pass makes of mul + elementwise_add (+ relu): an optimized
 * model saved by Paddle Inference holds it.
 * Shape rule (FCInferMeta): Input flattened at in_num_col_dims into
 * [M, K]; W is [K, N]; Bias has N elements ([N] or [1, N]); Out is
 * Input's first in_num_col_dims dims and N.
 * Emission (float32/64, Paddle's CPU kernel, funcs::FCFunctor): the
 * product, then each row's Bias added, and clamped at 0 with
 * activation_type "relu".  Relu without a Bias (Paddle raises), another
 * activation_type (only Paddle's oneDNN kernel applies one) and padded
 * weights are refused. */
#include <string.h>

#include "../util.h"
#include "mat_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_fc(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0), *w = ctx_need(c, "W", 0), *b = ctx_in(c, "Bias", 0);
  if (!x || !w) return -1;
  const Shape *xs = &x->shape, *ws = &w->shape;
  const int64_t ncd = attr_int(c->op, "in_num_col_dims", 1);
  const char *act = attr_str(c->op, "activation_type", "");
  if (*act && strcmp(act, "relu"))
    return ctx_fail(c, "activation_type '%s': Paddle's CPU kernel applies relu alone (the others only under oneDNN)",
                    act);
  if (attr_bool(c->op, "padding_weights", 0)) return ctx_fail(c, "padding_weights (padded W) is not supported");
  if (*act && !b) return ctx_fail(c, "activation_type relu without a Bias (Paddle raises: \"When bias is NULL, relu can "
                                     "not be true\")");
  if (ncd < 1 || ncd >= xs->rank) return ctx_fail(c, "in_num_col_dims %lld for Input %s", (long long)ncd, shape_str(xs));
  if (ws->rank != 2) return ctx_fail(c, "W %s must be 2-D", shape_str(ws));
  int64_t k = 1;
  for (int i = (int)ncd; i < xs->rank && k >= 0; i++) k = xs->d[i] < 0 ? -1 : k * xs->d[i];
  if (k >= 0 && ws->d[0] >= 0 && k != ws->d[0])
    return ctx_fail(c, "Input %s flattened at %lld has %lld columns; W %s has %lld rows", shape_str(xs),
                    (long long)ncd, (long long)k, shape_str(ws), (long long)ws->d[0]);
  if (b && ws->d[1] >= 0 && shape_numel(&b->shape) >= 0 &&
      (shape_numel(&b->shape) != ws->d[1] || b->shape.rank > 2 || (b->shape.rank == 2 && b->shape.d[0] != 1)))
    return ctx_fail(c, "Bias %s must be [N] or [1, N] of W %s", shape_str(&b->shape), shape_str(ws));
  if (w->dtype != x->dtype || (b && b->dtype != x->dtype))
    return ctx_fail(c, "Input, W and Bias must have one dtype");
  Shape o = {(int)ncd + 1, {0}};
  for (int i = 0; i < ncd; i++) o.d[i] = xs->d[i];
  o.d[ncd] = ws->d[1];
  ctx_set(c, "Out", 0, &o, x->dtype);
  return 0;
}

static int emit_fc(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "Input", 0), *w = tu_in(e, "W", 0), *b = ctx_in(&c, "Bias", 0), *out = tu_out(e, "Out", 0);
  if (!x || !w || !out) return -1;
  if (tu_float_dtype(e, (Var *const[]){x, w, b, out}, 4) < 0) return -1;
  if (out == x || out == w || out == b) return em_fail(e, "Out is an input (in place), which is not supported");
  const int ncd = (int)attr_int(e->op, "in_num_col_dims", 1), r = tu_rank(e, x);
  const int f32 = x->dtype == RT_DT_FP32;
  FcCall call = {.dtype = x->dtype, .m = em_prod(e, x, 0, ncd), .n = em_dim(e, w, 1), .k = em_prod(e, x, ncd, r),
                 .x = em_ptr(e, x, 1), .w = em_ptr(e, w, 1), .bias = b ? em_ptr(e, b, 1) : NULL,
                 .relu = !strcmp(attr_str(e->op, "activation_type", ""), "relu"), .out = em_ptr(e, out, 0)};
  if (f32) call.ws = em_gemm_ws(e, em_sym_prod(e, x, 0, ncd), em_sym_prod(e, w, 1, 2), em_sym_prod(e, x, ncd, r));
  fc_print_c(e->p, &call);
  return 0;
}

const OpDef op_fc = {.type = "fc", .infer = infer_fc, .emit_c = emit_fc};

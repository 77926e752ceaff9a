/* affine_channel: X, Scale [C], Bias [C] -> Out, X's shape and dtype;
 * Out = X * Scale + Bias per channel (C = X.dims[1], or the last dim when
 * data_layout is "NHWC").  attrs: data_layout="AnyLayout".
 * C emission (fp32): rt_channel_affine over X viewed as [outer, C, inner]. */
#include <strings.h>

#include "ops.h"

static int infer_affine_channel(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  if (xs->rank < 2) return ctx_fail(c, "X %s must have rank >= 2", shape_str(xs));
  int nhwc = strcasecmp(attr_str(c->op, "data_layout", "AnyLayout"), "NHWC") == 0;
  int64_t ch = nhwc ? xs->d[xs->rank - 1] : xs->d[1];
  Var *scale = ctx_in(c, "Scale", 0);
  if (scale && ch > 0 && scale->shape.rank == 1 && scale->shape.d[0] > 0 && scale->shape.d[0] != ch)
    return ctx_fail(c, "Scale %s does not match the %lld channels of X %s",
                    shape_str(&scale->shape), (long long)ch, shape_str(xs));
  ctx_set(c, "Out", 0, xs, x->dtype);
  return 0;
}

static int emit_affine_channel(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *sc = ctx_in(&c, "Scale", 0), *b = ctx_in(&c, "Bias", 0), *out = ctx_out(&c, "Out", 0);
  if (!x || !sc || !b || !out) return em_fail(e, "missing X, Scale, Bias or Out");
  if (x->dtype != RT_DT_FP32 || sc->dtype != RT_DT_FP32 || b->dtype != RT_DT_FP32)
    return em_fail(e, "affine_channel is supported for float32 only");
  int rank = em_spec(e, x)->rank;
  int ci = strcasecmp(attr_str(e->op, "data_layout", "AnyLayout"), "NHWC") == 0 ? rank - 1 : 1;
  int64_t ch = em_const_dim(e, x, ci);
  SymDim ns = spec_numel(em_spec(e, sc)), nb = spec_numel(em_spec(e, b));
  if (ch < 0 || ns.a || nb.a || ns.c != ch || nb.c != ch)
    return em_fail(e, "Scale and Bias must have one value per channel (%lld)", (long long)ch);
  pr_line(e->p, "rt_channel_affine(%s, %s, %s, %s, %s, %lld, %s);", em_ptr(e, x, 1), em_ptr(e, out, 0),
          em_ptr(e, sc, 1), em_ptr(e, b, 1), em_prod(e, x, 0, ci), (long long)ch, em_prod(e, x, ci + 1, rank));
  return 0;
}

const OpDef op_affine_channel = {.type = "affine_channel", .infer = infer_affine_channel,
                                 .emit_c = emit_affine_channel};

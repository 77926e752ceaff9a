/* Pooling: pool2d, pool3d (Paddle Pool2DInferMeta / PoolInferMeta) and
 * max_pool2d_with_index, max_pool3d_with_index (MaxPoolWithIndexInferMeta).
 *   pool2d/pool3d: X -> Out (dtype of X)
 *     attrs: pooling_type ("max"/"avg"), ksize (pool2d: may be a VAR),
 *            strides=[1,..], paddings=[0,..] (one per spatial dim or begin/end
 *            pairs), global_pooling=false, adaptive=false, ceil_mode=false,
 *            exclusive=true, data_format="NCHW" (pool3d "NCDHW"; "NHWC"/"NDHWC"
 *            are channel last), padding_algorithm="EXPLICIT" (SAME/VALID);
 *            extra: use_cudnn, use_mkldnn, use_quantizer, mkldnn_data_type, is_test.
 *   max_pool{2,3}d_with_index: X -> Out (dtype of X), Mask (int32, same shape)
 *     attrs: ksize, strides=[1,..], paddings=[0,..] (one per spatial dim),
 *            global_pooling=false, adaptive=false; always channel first.
 * Output per spatial dim: adaptive -> ksize; else
 *   floor((in - k + pad_begin + pad_end) / s) + 1, with ceil_mode adding s-1
 * before the division; an unknown input dim stays unknown.  global_pooling sets
 * k = in and zero padding (with adaptive, the output is then the input size).
 * A pool2d ksize held in a tensor makes both spatial dims unknown. */
#include <string.h>

#include "ops.h"

static int infer_pool(OpCtx *c) {
  Var *x = conv_input(c, "X", NULL);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  int nsp = xs->rank - 2;
  const char *fmt = attr_str(c->op, "data_format", "NCHW");
  int last = strcmp(fmt, "NHWC") == 0 || strcmp(fmt, "NDHWC") == 0;
  int sp0 = last ? 1 : 2; /* index of the first spatial dim */
  Shape o = *xs;
  if (attr_is_var(c->op, "ksize")) { /* kernel size known only at run time */
    o.d[xs->rank - 2] = DIM_UNKNOWN;
    o.d[last ? xs->rank - 3 : xs->rank - 1] = DIM_UNKNOWN;
    ctx_set(c, "Out", 0, &o, x->dtype);
    return 0;
  }
  int64_t *kv, *sv;
  int nk = attr_ints(c->op, "ksize", &kv);
  int ns = attr_ints(c->op, "strides", &sv);
  if (nk != nsp) return ctx_fail(c, "ksize has %d values for %d spatial dims", nk, nsp);
  if (ns && ns != nk) return ctx_fail(c, "strides has %d values, ksize %d", ns, nk);
  int64_t ins[3], stride[3], pad[6];
  attr_ints_fill(c->op, "strides", nsp, 1, stride);
  for (int i = 0; i < nsp; i++) ins[i] = xs->d[sp0 + i];
  /* SAME padding uses the ksize as written; global_pooling replaces it below */
  if (conv_padding(c, nsp, ins, kv, stride, pad, NULL)) return -1;
  int global = attr_bool(c->op, "global_pooling", 0);
  int adaptive = attr_bool(c->op, "adaptive", 0);
  int ceil_mode = attr_bool(c->op, "ceil_mode", 0);
  for (int i = 0; i < nsp; i++) {
    int64_t in = ins[i], k = kv[i], s = stride[i], p0 = pad[2 * i], p1 = pad[2 * i + 1];
    if (s <= 0) return ctx_fail(c, "strides must be positive");
    if (global || adaptive) p0 = p1 = 0;
    if (global) k = in;
    int64_t v;
    if (adaptive)
      v = k;
    else if (in < 0)
      v = in;
    else
      v = (in - k + p0 + p1 + (ceil_mode ? s - 1 : 0)) / s + 1;
    o.d[sp0 + i] = v;
  }
  ctx_set(c, "Out", 0, &o, x->dtype);
  return 0;
}

static int infer_max_pool_with_index(OpCtx *c) {
  Var *x = conv_input(c, "X", NULL);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  int nsp = xs->rank - 2;
  int global = attr_bool(c->op, "global_pooling", 0);
  int adaptive = attr_bool(c->op, "adaptive", 0);
  int64_t *kv, *sv, *pv;
  int nk = attr_ints(c->op, "ksize", &kv);
  int ns = attr_ints(c->op, "strides", &sv);
  int np = attr_ints(c->op, "paddings", &pv);
  if (!global && nk != nsp) return ctx_fail(c, "ksize has %d values for %d spatial dims", nk, nsp);
  if (ns != nsp) return ctx_fail(c, "strides has %d values for %d spatial dims", ns, nsp);
  Shape o = *xs;
  for (int i = 0; i < nsp; i++) {
    int64_t in = xs->d[2 + i];
    int64_t k = global ? in : kv[i], p = (global || i >= np) ? 0 : pv[i];
    if (sv[i] <= 0) return ctx_fail(c, "strides must be positive");
    if (adaptive)
      o.d[2 + i] = k;
    else if (in < 0)
      o.d[2 + i] = in;
    else
      o.d[2 + i] = (in - k + 2 * p) / sv[i] + 1;
  }
  ctx_set(c, "Out", 0, &o, x->dtype);
  ctx_set(c, "Mask", 0, &o, RT_DT_INT32);
  return 0;
}

const OpDef op_pool2d = {.type = "pool2d", .infer = infer_pool};
const OpDef op_pool3d = {.type = "pool3d", .infer = infer_pool};
const OpDef op_max_pool2d_with_index = {.type = "max_pool2d_with_index",
                                        .infer = infer_max_pool_with_index};
const OpDef op_max_pool3d_with_index = {.type = "max_pool3d_with_index",
                                        .infer = infer_max_pool_with_index};

/* 1.x sequence ops on LoD tensors.  At compile time Paddle does not know the
 * LoD, so the first dim of a sequence result is what each InferShape sets
 * (often -1, sometimes the input's first dim although the run-time size
 * differs).  These rules reproduce Paddle's compile-time dims.
 *
 *   sequence_conv: X [T, N], Filter [L*N, M], PaddingData† -> Out [T, M].
 *     contextLength (required), contextStart=0, contextStride=1,
 *     paddingTrainable=false.
 *   sequence_pool: X -> Out (= X dims at compile time), MaxIndex (= X dims,
 *     pooltype MAX only).  pooltype="AVERAGE", is_test=false, pad_value=0.
 *     The kernel writes int32 indices into MaxIndex, but Paddle sets no dtype
 *     and the Python API declares it with X's dtype, which the rule keeps.
 *   sequence_softmax: X -> Out = X.  use_cudnn=false, data_format="AnyLayout".
 *   sequence_expand: X, Y -> Out = X with dims[0] = -1.  ref_level=-1.
 *   sequence_expand_as: X, Y -> Out = X with dims[0] = -1.
 *   sequence_concat: X* -> Out: dims[0] = sum of the inputs' (-1 when any is
 *     unknown), other dims from X[0]; all inputs have the same row size.
 *   sequence_reshape: X [N, M] -> Out [-1, new_dim].  new_dim (required).
 *   sequence_mask: X, MaxLenTensor† -> Y = X dims + [maxlen or -1] of dtype
 *     out_dtype.  maxlen=-1, out_dtype=3 (int64).
 *     Emission (the only emitter here; X float32/64 or int32/64, Y any
 *     dtype paddlec compiles): phi SequenceMaskKernel, y[i, j] = j < x[i]
 *     for j < maxlen, with maxlen from the attribute or from MaxLenTensor
 *     (read as int32, as the kernel reads it) when its value is known at
 *     compile time and Y's last dim agrees.  maxlen <= 0 (the largest
 *     element of X) sizes Y from data and is refused.
 *   sequence_pad: X [T, ...], PadValue -> Out [-1, padded_length, ...],
 *     Length [-1] (int64; [-1, 1] in early 1.x).  padded_length=-1,
 *     which is 1 at compile time.
 *   sequence_unpad: X [N, L, ...], Length [N] -> Out [-1, ...] ([-1, 1] when
 *     X has rank 2). */
#include <string.h>

#include "../util.h"
#include "flat_call.h"
#include "ops.h"
#include "tensor_util.h"

enum { DT_INT64 = 3 };

/* sequence_pad's Length was [N, 1] in the first releases (1.3-1.5 source)
 * and is [N] in the 1.6+ source; the exact release is not pinned down. */
#define PADDLE_SEQ_PAD_LENGTH_1D 1006000

static int infer_sequence_conv(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *f = ctx_need(c, "Filter", 0);
  if (!x || !f) return -1;
  if (x->shape.rank != 2 || f->shape.rank != 2)
    return ctx_fail(c, "X %s and Filter %s must have rank 2", shape_str(&x->shape),
                    shape_str(&f->shape));
  if (attr_int(c->op, "contextStride", 1) != 1) return ctx_fail(c, "contextStride must be 1");
  int64_t len = attr_int(c->op, "contextLength", 0);
  if (x->shape.d[1] >= 0 && f->shape.d[0] != len * x->shape.d[1])
    return ctx_fail(c, "Filter %s must have contextLength * %lld rows", shape_str(&f->shape),
                    (long long)x->shape.d[1]);
  Shape out = {2, {x->shape.d[0], f->shape.d[1]}};
  ctx_set(c, "Out", 0, &out, x->dtype);
  return 0;
}

static int infer_sequence_pool(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  if (strcmp(attr_str(c->op, "pooltype", "AVERAGE"), "MAX") == 0)
    ctx_set(c, "MaxIndex", 0, &x->shape, x->dtype);
  return 0;
}

static int infer_same_as_x(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  return 0;
}

/* sequence_expand / sequence_expand_as: rows depend on Y's LoD. */
static int infer_sequence_expand(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x || !ctx_need(c, "Y", 0)) return -1;
  if (x->shape.rank < 2) return ctx_fail(c, "X %s must have rank >= 2", shape_str(&x->shape));
  Shape out = x->shape;
  out.d[0] = DIM_UNKNOWN;
  ctx_set(c, "Out", 0, &out, x->dtype);
  return 0;
}

static int infer_sequence_concat(OpCtx *c) {
  int n = ctx_nin(c, "X");
  if (n < 2) return ctx_fail(c, "needs at least two inputs");
  Var *x0 = ctx_need(c, "X", 0);
  if (!x0) return -1;
  if (x0->shape.rank < 1) return ctx_fail(c, "X[0] has rank 0");
  Shape out = x0->shape;
  int64_t rows = 0, feat = dims_prod(&x0->shape, 1, x0->shape.rank);
  for (int i = 0; i < n; i++) {
    Var *x = ctx_need(c, "X", i);
    if (!x) return -1;
    if (x->shape.rank < 1) return ctx_fail(c, "X[%d] has rank 0", i);
    int64_t f = dims_prod(&x->shape, 1, x->shape.rank);
    if (f >= 0 && feat >= 0 && f != feat)
      return ctx_fail(c, "X[%d] %s has another row size than X[0] %s", i, shape_str(&x->shape),
                      shape_str(&x0->shape));
    rows = (rows < 0 || x->shape.d[0] < 0) ? DIM_UNKNOWN : rows + x->shape.d[0];
  }
  out.d[0] = rows;
  ctx_set(c, "Out", 0, &out, x0->dtype);
  return 0;
}

static int infer_sequence_reshape(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  if (x->shape.rank != 2) return ctx_fail(c, "X %s must have rank 2", shape_str(&x->shape));
  Shape out = {2, {DIM_UNKNOWN, attr_int(c->op, "new_dim", 0)}};
  ctx_set(c, "Out", 0, &out, x->dtype);
  return 0;
}

static int infer_sequence_mask(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  if (x->shape.rank + 1 > RT_MAX_RANK) return ctx_fail(c, "X has too many dims");
  int64_t maxlen = attr_int(c->op, "maxlen", -1), mv[1];
  Var *mt = ctx_in(c, "MaxLenTensor", 0);
  if (mt) maxlen = ctx_int_values(c, mt, mv, 1) == 1 ? (int32_t)mv[0] : -1; /* known at compile time, or not */
  Shape y = x->shape;
  y.d[y.rank++] = maxlen <= 0 ? DIM_UNKNOWN : maxlen;
  ctx_set(c, "Y", 0, &y, (int)attr_int(c->op, "out_dtype", DT_INT64));
  return 0;
}

static int infer_sequence_pad(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *pv = ctx_need(c, "PadValue", 0);
  if (!x || !pv) return -1;
  if (x->shape.rank < 2 || x->shape.rank + 1 > RT_MAX_RANK)
    return ctx_fail(c, "X %s must have rank >= 2", shape_str(&x->shape));
  Shape step = {x->shape.rank - 1, {0}};
  for (int i = 1; i < x->shape.rank; i++) step.d[i - 1] = x->shape.d[i];
  int scalar = (pv->shape.rank == 1 && pv->shape.d[0] == 1) || pv->shape.rank == 0;
  if (!scalar && !shape_equal(&pv->shape, &step))
    return ctx_fail(c, "PadValue %s is neither a scalar nor one time step %s",
                    shape_str(&pv->shape), shape_str(&step));
  int64_t plen = attr_int(c->op, "padded_length", -1);
  Shape out = {x->shape.rank + 1, {DIM_UNKNOWN, plen == -1 ? 1 : plen}};
  for (int i = 0; i < step.rank; i++) out.d[i + 2] = step.d[i];
  Shape len = {1, {DIM_UNKNOWN}};
  if (c->g->version > 0 && c->g->version < PADDLE_SEQ_PAD_LENGTH_1D)
    len = (Shape){2, {DIM_UNKNOWN, 1}};
  ctx_set(c, "Out", 0, &out, x->dtype);
  ctx_set(c, "Length", 0, &len, DT_INT64);
  return 0;
}

static int infer_sequence_unpad(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *len = ctx_need(c, "Length", 0);
  if (!x || !len) return -1;
  if (x->shape.rank < 2) return ctx_fail(c, "X %s must have rank >= 2", shape_str(&x->shape));
  if (len->shape.rank != 1)
    return ctx_fail(c, "Length %s must have rank 1", shape_str(&len->shape));
  if (len->shape.d[0] != x->shape.d[0])
    return ctx_fail(c, "Length %s and X %s differ in dims[0]", shape_str(&len->shape),
                    shape_str(&x->shape));
  Shape out = {1, {DIM_UNKNOWN}};
  if (x->shape.rank == 2) out.d[out.rank++] = 1;
  for (int i = 2; i < x->shape.rank; i++) out.d[out.rank++] = x->shape.d[i];
  ctx_set(c, "Out", 0, &out, x->dtype);
  return 0;
}

static int emit_sequence_mask(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *y = tu_out(e, "Y", 0);
  if (!x || !y) return -1;
  if (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64 && x->dtype != RT_DT_INT32 && x->dtype != RT_DT_INT64)
    return em_fail(e, "sequence_mask of %s lengths is not supported", rt_dtype_name(x->dtype));
  OpCtx c = {e->g, (Op *)e->op};
  Var *mt = ctx_in(&c, "MaxLenTensor", 0);
  int64_t maxlen = attr_int(e->op, "maxlen", -1), last = em_const_dim(e, y, tu_rank(e, y) - 1);
  if (mt) {
    const int64_t *v;
    if (ctx_values(&c, mt, &v) < 1)
      return em_fail(e, "the value of MaxLenTensor is not known at compile time (Y's size depends on it)");
    maxlen = (int32_t)v[0];
  }
  if (maxlen <= 0) return em_fail(e, "maxlen is %lld: Y's last dim would be the largest length in X, known only at "
                                     "run time", (long long)maxlen);
  if (last != maxlen) return em_fail(e, "Y's last dim is %lld, maxlen %lld", (long long)last, (long long)maxlen);
  FlatCall call = {.kind = FLAT_SEQUENCE_MASK, .dtype = x->dtype, .out_dtype = y->dtype, .x = em_ptr(e, x, 1)};
  call.out = em_ptr(e, y, 0);
  call.numel = em_numel(e, x);
  call.width = pool_printf("%lld", (long long)maxlen);
  flat_print_c(e->p, &call);
  return 0;
}

const OpDef op_sequence_conv = {.type = "sequence_conv", .infer = infer_sequence_conv};
const OpDef op_sequence_pool = {.type = "sequence_pool", .infer = infer_sequence_pool};
const OpDef op_sequence_softmax = {.type = "sequence_softmax", .infer = infer_same_as_x};
const OpDef op_sequence_expand = {.type = "sequence_expand", .infer = infer_sequence_expand};
const OpDef op_sequence_expand_as = {.type = "sequence_expand_as", .infer = infer_sequence_expand};
const OpDef op_sequence_concat = {.type = "sequence_concat", .infer = infer_sequence_concat};
const OpDef op_sequence_reshape = {.type = "sequence_reshape", .infer = infer_sequence_reshape};
const OpDef op_sequence_mask = {.type = "sequence_mask", .infer = infer_sequence_mask,
                                .emit_c = emit_sequence_mask};
const OpDef op_sequence_pad = {.type = "sequence_pad", .infer = infer_sequence_pad};
const OpDef op_sequence_unpad = {.type = "sequence_unpad", .infer = infer_sequence_unpad};

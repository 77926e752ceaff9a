/* reshape, reshape2 (spec 7.5).
 *   inputs:  X, Shape† (1-D int tensor), ShapeTensor†* (1-element tensors)
 *   outputs: Out; reshape2 also XShape = [0] ++ X.dims
 *   attrs:   shape:INTS=[]; extra use_mkldnn, use_quantizer,
 *            mkldnn_data_type; legacy `inplace` (reshape v1, ignored)
 * Shape rule (fluid ReshapeOp::InferShape, kept through 2.6):
 *   - ShapeTensor given: Out = `shape` with 0 replaced by X's dim; every other
 *     entry as written (Python writes -1 where a tensor goes);
 *   - Shape given and `shape` empty: numel(Shape) unknown dims;
 *   - otherwise `shape`: 0 copies X's dim, one -1 takes the remaining
 *     elements when every X dim is known (else it stays -1). */
#include "ops.h"

/* ValidateShape: the target dims for `shape` applied to `in`. */
static int reshape_dims(OpCtx *c, const Shape *in, const int64_t *shape, int n, Shape *out) {
  if (n > RT_MAX_RANK) return ctx_fail(c, "target shape has %d dims", n);
  int all_known = 1, unk = -1;
  for (int i = 0; i < in->rank; i++) all_known &= in->d[i] > 0;
  int64_t capacity = 1;
  Shape s = {n, {0}};
  for (int i = 0; i < n; i++) {
    if (shape[i] == -1) {
      if (unk >= 0) return ctx_fail(c, "shape has more than one -1");
      unk = i;
    } else if (shape[i] == 0) {
      if (i >= in->rank)
        return ctx_fail(c, "shape[%d] = 0 copies a dim X %s lacks", i, shape_str(in));
    } else if (shape[i] < 0) {
      return ctx_fail(c, "shape[%d] = %lld is invalid", i, (long long)shape[i]);
    }
    s.d[i] = shape[i] ? shape[i] : in->d[i];
    capacity *= s.d[i];
  }
  int64_t numel = shape_numel(in);
  if (unk >= 0) {
    if (all_known) {
      /* capacity includes the -1, so it is negative here */
      if (capacity == 0 || numel % -capacity)
        return ctx_fail(c, "cannot reshape %s to the shape given", shape_str(in));
      s.d[unk] = numel / -capacity;
    } else {
      s.d[unk] = DIM_UNKNOWN;
    }
  } else if (all_known && capacity != numel) {
    return ctx_fail(c, "cannot reshape %s (%lld elements) to %lld elements", shape_str(in),
                    (long long)numel, (long long)capacity);
  }
  *out = s;
  return 0;
}

static int infer_reshape(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *in = &x->shape;
  int64_t *shape;
  int n = attr_ints(c->op, "shape", &shape);
  Shape out = {0, {0}};
  if (ctx_in(c, "ShapeTensor", 0)) {
    if (n > RT_MAX_RANK) return ctx_fail(c, "target shape has %d dims", n);
    out.rank = n;
    for (int i = 0; i < n; i++) {
      if (shape[i] == 0 && i >= in->rank)
        return ctx_fail(c, "shape[%d] = 0 copies a dim X %s lacks", i, shape_str(in));
      out.d[i] = shape[i] == 0 ? in->d[i] : shape[i];
    }
  } else if (ctx_in(c, "Shape", 0) && n == 0) {
    Var *sv = ctx_need(c, "Shape", 0);
    if (!sv) return -1;
    int64_t k = shape_numel(&sv->shape);
    if (k < 0 || k > RT_MAX_RANK)
      return ctx_fail(c, "input Shape %s is not usable", shape_str(&sv->shape));
    out.rank = (int)k;
    for (int i = 0; i < out.rank; i++) out.d[i] = DIM_UNKNOWN;
  } else {
    if (n == 0) return ctx_fail(c, "attribute shape is empty and no Shape input is given");
    if (reshape_dims(c, in, shape, n, &out)) return -1;
  }
  ctx_set(c, "Out", 0, &out, x->dtype);
  return ctx_set_xshape(c, x);
}

const OpDef op_reshape = {.type = "reshape", .infer = infer_reshape};
const OpDef op_reshape2 = {.type = "reshape2", .infer = infer_reshape};

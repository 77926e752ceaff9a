/* crop_tensor (paddle.crop): X, Shape? (1-D int tensor), ShapeTensor?*
 * (one-element int tensors), Offsets? (1-D), OffsetsTensor?* -> Out, dtype
 * of X; shape:INTS=[], offsets:INTS=[].  Out = X[offsets : offsets + shape]
 * per dim.  The lists come from ShapeTensor, else Shape, else the
 * attribute (likewise OffsetsTensor, Offsets, offsets); Python writes -1 in
 * the attribute for the entries held in tensors.
 * Shape rule (phi CropTensorInferMeta): one shape entry per dim of X; Out's
 * dim is the shape entry when positive, X's dim - offset for -1 when both
 * are known, else -1.  Values in tensors are -1 at compile time, and known
 * while specializing when constant.
 * Emission (any element type): one strided copy.  The sizes are recomputed
 * as Paddle's kernel does (ValidateShape: -1 takes the rest of X's dim
 * after the offset) and must match the specialized shape; offsets must be
 * >= 0 and each crop must fit in X.  A -1 on the batch dim with a nonzero
 * offset (a run-time size B - offset) is refused.  Shape or offsets in
 * tensors only the run knows (fed, as Paddle's op tests feed them): each
 * dim whose size follows from them is planned for X's dim with a run-time
 * extent, and the kernel finds and checks every size and offset as
 * Paddle's does (emit_runtime_crop). */
#include "../util.h"
#include "ops.h"
#include "slice_call.h"
#include "tensor_util.h"

/* The IntArray from tensors `list_slot` or `slot`, else attribute `attr`:
 * its count (into v[RT_MAX_RANK], unknown values -1), or -1 after
 * ctx_fail.  *known is 0 when some value is unknown. */
static int crop_array(OpCtx *c, const char *list_slot, const char *slot, const char *attr, int64_t *v, int *known) {
  *known = 1;
  const char *from = ctx_in(c, list_slot, 0) ? list_slot : ctx_in(c, slot, 0) ? slot : NULL;
  if (!from) {
    int64_t *a;
    int n = attr_ints(c->op, attr, &a);
    if (n > RT_MAX_RANK) return ctx_fail(c, "%s has %d values", attr, n);
    for (int i = 0; i < n; i++) v[i] = a[i];
    return n;
  }
  attr_superseded(c->op, attr); /* Paddle reads the attribute only without the tensors */
  const int list = from == list_slot;
  int n = tu_slot_values(c, from, list, v, RT_MAX_RANK);
  if (n >= 0) return n;
  Var *t = ctx_in(c, from, 0);
  if (!t || t->shape.rank < 0) return ctx_fail(c, "%s has no known shape", from);
  int64_t len = tensor_list_len(&t->shape, list ? ctx_nin(c, from) : 1);
  if (len < 0 || len > RT_MAX_RANK) return ctx_fail(c, "%s %s is not usable", from, shape_str(&t->shape));
  for (int i = 0; i < len; i++) v[i] = -1;
  *known = 0;
  return (int)len;
}

static int infer_crop_tensor(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  int64_t shape[RT_MAX_RANK], off[RT_MAX_RANK];
  int ks, ko, ns = crop_array(c, "ShapeTensor", "Shape", "shape", shape, &ks);
  int no = crop_array(c, "OffsetsTensor", "Offsets", "offsets", off, &ko);
  if (ns < 0 || no < 0) return -1;
  if (ns != xs->rank) {
    const char *from = ctx_in(c, "ShapeTensor", 0) ? "input ShapeTensor"
                       : ctx_in(c, "Shape", 0)     ? "input Shape"
                                                   : "attribute shape";
    return ctx_fail(c, "the shape (%s) has %d values for X %s", from, ns, shape_str(xs));
  }
  if (no != xs->rank && (no || ctx_in(c, "OffsetsTensor", 0) || ctx_in(c, "Offsets", 0))) {
    const char *from = ctx_in(c, "OffsetsTensor", 0) ? "input OffsetsTensor"
                       : ctx_in(c, "Offsets", 0)     ? "input Offsets"
                                                     : "attribute offsets";
    return ctx_fail(c, "the offsets (%s) have %d values for X %s", from, no, shape_str(xs));
  }
  Shape o = {xs->rank, {0}};
  unsigned runtime = 0;
  for (int i = 0; i < xs->rank; i++) {
    int64_t oi = i < no ? off[i] : -1;
    if (c->g->specializing && (!ks || (shape[i] == -1 && !ko)) && xs->d[i] >= 0) {
      o.d[i] = xs->d[i]; /* the run's size: at most X's dim */
      runtime |= 1u << i;
      continue;
    }
    o.d[i] = shape[i] > 0 ? shape[i] : shape[i] == -1 && oi != -1 && xs->d[i] != -1 ? xs->d[i] - oi : DIM_UNKNOWN;
  }
  ctx_set(c, "Out", 0, &o, x->dtype);
  if (runtime) ctx_set_runtime_extents(c, "Out", 0, runtime, "Shape/Offsets tensors");
  return 0;
}

/* Entry i of the IntArray from tensors `list_slot` or `slot`, else
 * attribute `attr`, as an int64 C expression (a known value, or the
 * tensor's element read at run time); NULL when there is none. */
static const char *crop_entry(EmitCtx *e, const char *list_slot, const char *slot, const char *attr, int i) {
  OpCtx c = {e->g, (Op *)e->op};
  int64_t v[RT_MAX_RANK];
  Var *t = ctx_in(&c, list_slot, 0) ? ctx_in(&c, list_slot, i) : NULL;
  if (ctx_in(&c, list_slot, 0)) {
    if (!t) return NULL;
    return ctx_int_values(&c, t, v, 1) == 1 ? pool_printf("%lld", (long long)v[0])
                                            : pool_printf("(int64_t)%s[0]", em_ptr(e, t, 1));
  }
  if ((t = ctx_in(&c, slot, 0)))
    return ctx_int_values(&c, t, v, RT_MAX_RANK) > i ? pool_printf("%lld", (long long)v[i])
                                                     : pool_printf("(int64_t)%s[%d]", em_ptr(e, t, 1), i);
  int64_t *a;
  return i < attr_ints(e->op, attr, &a) ? pool_printf("%lld", (long long)a[i]) : NULL;
}

/* crop_tensor whose shape or offsets only the run knows: each size and
 * offset found and checked at run time as Paddle's kernel does, a size
 * that is Out's run-time extent written, the others checked. */
static int emit_runtime_crop(EmitCtx *e, const Var *x, const Var *out) {
  const int r = tu_rank(e, x);
  SliceCall call = {.kind = SLICE_CROP_BOUNDS, .rank = r};
  const char *xs[RT_MAX_RANK], *dims[RT_MAX_RANK], *start = "0";
  const VarSpec *os = em_spec(e, out);
  tu_strides(e, x, xs);
  for (int i = 0; i < r; i++) {
    call.bstart[i] = crop_entry(e, "OffsetsTensor", "Offsets", "offsets", i);
    call.bend[i] = crop_entry(e, "ShapeTensor", "Shape", "shape", i);
    if (!call.bstart[i] || !call.bend[i]) return em_fail(e, "shape and offsets need %d values", r);
    call.bdim[i] = em_dim(e, x, i);
    if (os->runtime_mask >> i & 1)
      call.bextent[i] = em_dim(e, out, i);
    else
      call.bwant[i] = em_dim(e, out, i);
    dims[i] = pool_printf("size%d", i);
    start = tu_add(start, tu_mul(pool_printf("off%d", i), xs[i]));
  }
  em_fault(e, "crop_tensor: a shape or offset from tensors outside X, or a size that is 0 or below -1 (Paddle "
              "stops too)");
  slice_print_c(e->p, &call);
  return tu_strided_copy(e, x, start, out, r, dims, xs);
}

static int emit_crop_tensor(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (x->dtype != out->dtype) return em_fail(e, "X and Out differ in dtype");
  if (x == out) return em_fail(e, "Out is X itself, which is not supported");
  OpCtx c = {e->g, (Op *)e->op};
  int64_t shape[RT_MAX_RANK], off[RT_MAX_RANK];
  int ks, ko, ns = crop_array(&c, "ShapeTensor", "Shape", "shape", shape, &ks);
  int no = crop_array(&c, "OffsetsTensor", "Offsets", "offsets", off, &ko);
  if (ns < 0 || no < 0) return -1;
  if (!ks || !ko) return emit_runtime_crop(e, x, out);
  int r = tu_rank(e, x);
  if (ns != r || no != r) return em_fail(e, "shape and offsets need %d values", r);
  const char *xs[RT_MAX_RANK], *dims[RT_MAX_RANK], *start = "0";
  tu_strides(e, x, xs);
  for (int i = 0; i < r; i++) {
    int64_t xd = em_const_dim(e, x, i), od = em_const_dim(e, out, i);
    if (off[i] < 0) return em_fail(e, "offset %lld of dim %d is negative", (long long)off[i], i);
    if (shape[i] <= 0 && shape[i] != -1) return em_fail(e, "shape value %lld of dim %d", (long long)shape[i], i);
    if (xd < 0) { /* the batch: kept whole */
      if (od >= 0 || shape[i] != -1 || off[i] != 0)
        return em_fail(e, "dim %d, which depends on the batch, must be kept whole (shape -1, offset 0)", i);
    } else {
      int64_t want = shape[i] == -1 ? xd - off[i] : shape[i];
      if (want != od || off[i] + want > xd)
        return em_fail(e, "dim %d: a crop of %lld at %lld from %lld does not give the declared %lld", i,
                       (long long)want, (long long)off[i], (long long)xd, (long long)od);
    }
    dims[i] = em_dim(e, out, i);
    start = tu_add(start, tu_mul(pool_printf("%lld", (long long)off[i]), xs[i]));
  }
  return tu_strided_copy(e, x, start, out, r, dims, xs);
}

const OpDef op_crop_tensor = {.type = "crop_tensor", .infer = infer_crop_tensor, .emit_c = emit_crop_tensor};

/* crop_tensor_grad (X, Offsets?, OffsetsTensor?*, Out@GRAD -> X@GRAD;
 * offsets, shape; phi CropTensorGradKernel, a pad of Out@GRAD): X@GRAD is
 * zeros with Out@GRAD written at the offsets (from OffsetsTensor, Offsets
 * or the attribute, which must be known at compile time).  X gives only
 * the shape. */
static int emit_crop_tensor_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !dout || !dx) return -1;
  if (dout->dtype != dx->dtype || (dx->dtype != RT_DT_FP32 && dx->dtype != RT_DT_FP64))
    return em_fail(e, "X@GRAD must be float32 or float64 with Out@GRAD's dtype");
  OpCtx c = {e->g, (Op *)e->op};
  int64_t off[RT_MAX_RANK];
  int ko, no = crop_array(&c, "OffsetsTensor", "Offsets", "offsets", off, &ko);
  if (no < 0) return -1;
  if (!ko) return em_fail(e, "offsets held in tensors unknown at compile time are not supported");
  int r = tu_rank(e, x);
  if (no != r || tu_rank(e, dout) != r) return em_fail(e, "offsets and Out@GRAD need %d values / dims", r);
  SliceCall call = {.kind = SLICE_CROP_GRAD, .type = em_ctype(dx->dtype), .rank = r};
  tu_strides(e, x, call.strides);
  for (int i = 0; i < r; i++) {
    int64_t xd = em_const_dim(e, x, i), od = em_const_dim(e, dout, i);
    if (off[i] < 0) return em_fail(e, "offset %lld of dim %d is negative", (long long)off[i], i);
    if (xd < 0 ? od >= 0 || off[i] != 0 : od < 0 || off[i] + od > xd)
      return em_fail(e, "dim %d: Out@GRAD (%s) at offset %lld does not fit X (%s)", i, em_dim(e, dout, i),
                     (long long)off[i], em_dim(e, x, i));
    call.offsets[i] = pool_printf("%lld", (long long)off[i]);
    call.dims[i] = em_dim(e, dout, i);
  }
  call.dout = em_ptr(e, dout, 1);
  call.dx = em_ptr(e, dx, 0);
  call.numel = em_numel(e, dx);
  slice_print_c(e->p, &call);
  return 0;
}

/* crop_tensor_grad: Out@GRAD's dims are the crop's shape */
static const char *const crop_tensor_grad_attr_ignores[] = {"shape", NULL};
const OpDef op_crop_tensor_grad = {.type = "crop_tensor_grad", .infer = grad_infer, .emit_c = emit_crop_tensor_grad,
                                   .attr_ignores = crop_tensor_grad_attr_ignores};

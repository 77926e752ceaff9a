/* transpose, transpose2.
 *   inputs:  X
 *   outputs: Out; transpose2 also XShape = [0] ++ X.dims
 *   attrs:   axis:INTS (the permutation; negative entries += rank); extra
 *            use_mkldnn, data_format="AnyLayout", mkldnn_data_type
 * Out.dims[i] = X.dims[axis[i]].  `axis` may be shorter than X's rank (a
 * fused squeeze2 + transpose2): the dims past it are kept.
 * A run-time extent of X (a dim only the run knows) moves with its dim.
 * Emission: a strided copy (rt_copy_strided) whose stride along Out's dim i
 * is X's stride along axis[i]; the runtime picks row copies when the last
 * dim stays in place and cache tiles when the last two are swapped. */
#include "ops.h"
#include "tensor_util.h"

static int infer_transpose(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *in = &x->shape;
  int64_t *axis;
  int n = attr_ints(c->op, "axis", &axis);
  if (n > in->rank) return ctx_fail(c, "axis has %d entries for X %s", n, shape_str(in));
  int seen[RT_MAX_RANK] = {0};
  Shape out = *in;
  int to[RT_MAX_RANK]; /* where X's dims (their run-time extents) go */
  for (int d = 0; d < RT_MAX_RANK; d++) to[d] = d;
  for (int i = 0; i < n; i++) {
    int a = axis_norm(axis[i], in->rank);
    if (a < 0 || seen[a]++)
      return ctx_fail(c, "axis[%d] = %lld is out of range or repeated", i, (long long)axis[i]);
    out.d[i] = in->d[a];
    to[a] = i;
  }
  ctx_set(c, "Out", 0, &out, x->dtype);
  ctx_pass_runtime_extents_to(c, x, "Out", 0, to);
  return ctx_set_xshape(c, x);
}

static int emit_transpose(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (x->dtype != out->dtype) return em_fail(e, "X and Out differ in dtype");
  int r = tu_rank(e, x);
  int64_t *axis;
  int n = attr_ints(e->op, "axis", &axis), seen[RT_MAX_RANK] = {0};
  if (n > r) return em_fail(e, "axis has %d entries for rank %d", n, r);
  const char *xs[RT_MAX_RANK], *dims[RT_MAX_RANK], *st[RT_MAX_RANK];
  tu_strides(e, x, xs);
  for (int i = 0; i < r; i++) {
    int a = i < n ? axis_norm(axis[i], r) : i;
    if (a < 0 || seen[a]++) return em_fail(e, "axis is not a permutation");
    dims[i] = em_dim(e, x, a);
    st[i] = xs[a];
  }
  return tu_strided_copy(e, x, "0", out, r, dims, st);
}

const OpDef op_transpose = {.type = "transpose", .infer = infer_transpose, .emit_c = emit_transpose,
                            .runtime_extents = 2};
const OpDef op_transpose2 = {.type = "transpose2", .infer = infer_transpose, .emit_c = emit_transpose,
                             .runtime_extents = 2};

/* transpose2_grad (XShape, Out@GRAD -> X@GRAD): the inverse permutation,
 * a strided copy whose stride along X@GRAD's dim axis[i] is Out@GRAD's
 * stride along dim i. */
static int emit_transpose_grad(EmitCtx *e) {
  Var *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!dout || !dx) return -1;
  if (dout->dtype != dx->dtype) return em_fail(e, "Out@GRAD and X@GRAD differ in dtype");
  int r = tu_rank(e, dx);
  int64_t *axis;
  int n = attr_ints(e->op, "axis", &axis), seen[RT_MAX_RANK] = {0};
  if (n > r || tu_rank(e, dout) != r) return em_fail(e, "axis has %d entries for rank %d", n, r);
  const char *os[RT_MAX_RANK], *dims[RT_MAX_RANK], *st[RT_MAX_RANK];
  tu_strides(e, dout, os);
  for (int i = 0; i < r; i++) {
    int a = i < n ? axis_norm(axis[i], r) : i;
    if (a < 0 || seen[a]++) return em_fail(e, "axis is not a permutation");
    dims[a] = em_dim(e, dout, i);
    st[a] = os[i];
  }
  return tu_strided_copy(e, dout, "0", dx, r, dims, st);
}

const OpDef op_transpose2_grad = {.type = "transpose2_grad", .infer = infer_grad_xshape, .emit_c = emit_transpose_grad,
                                  .runtime_extents = 2};

/* transpose_grad (fluid transpose; X, Out, Out@GRAD as Paddle's default
 * grad maker passes them): as transpose2_grad, X giving X@GRAD's shape;
 * Out is not read (its shape is Out@GRAD's). */
static const char *const transpose_grad_ignores[] = {"Out", NULL};
const OpDef op_transpose_grad = {.type = "transpose_grad", .infer = grad_infer, .emit_c = emit_transpose_grad,
                                 .ignores = transpose_grad_ignores};

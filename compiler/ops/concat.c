/* concat: X*, AxisTensor† -> Out; axis:INT=0 (negative += rank; a VAR
 * attribute or AxisTensor gives it at run time); extra use_mkldnn,
 * use_quantizer, mkldnn_data_type.
 * Shape rule (phi ConcatInferMeta / ComputeAndCheckShape at compile time):
 * Out starts as X[0]'s dims; along `axis` the dims add up, -1 when any is
 * -1; along the other axes a -1 is replaced by a known dim of a later input.
 * With the axis from a tensor every dim is -1.  Out has X[0]'s dtype.
 * Emission: per row of the dims before `axis`, one memcpy per input.
 * Inputs with a dim known only at run time (the rows of a box head's
 * branches, the sequences after sequence_pool) must all have the same
 * extent, on a dim other than `axis`: Out has it, the rows are the run's. */
#include "../consteval.h"
#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_concat(OpCtx *c) {
  int n = ctx_nin(c, "X");
  Var *x0 = ctx_need(c, "X", 0);
  if (!x0) return -1;
  Shape out = x0->shape;
  if (ctx_in(c, "AxisTensor", 0) || attr_is_var(c->op, "axis")) {
    for (int i = 0; i < out.rank; i++) out.d[i] = DIM_UNKNOWN;
    ctx_set(c, "Out", 0, &out, x0->dtype);
    return 0;
  }
  int64_t a = attr_int(c->op, "axis", 0);
  int axis = axis_norm(a, out.rank);
  if (axis < 0 || out.rank == 0)
    return ctx_fail(c, "axis %lld is out of range for X %s", (long long)a, shape_str(&out));
  for (int i = 1; i < n; i++) {
    Var *xi = ctx_need(c, "X", i);
    if (!xi) return -1;
    const Shape *s = &xi->shape;
    if (s->rank != out.rank)
      return ctx_fail(c, "X[%d] %s and X[0] %s differ in rank", i, shape_str(s),
                      shape_str(&x0->shape));
    for (int j = 0; j < out.rank; j++) {
      if (j == axis) {
        out.d[j] = (s->d[j] < 0 || out.d[j] < 0) ? DIM_UNKNOWN : out.d[j] + s->d[j];
        continue;
      }
      if (x0->shape.d[j] > 0 && s->d[j] > 0 && x0->shape.d[j] != s->d[j])
        return ctx_fail(c, "X[%d] %s and X[0] %s differ in dim %d", i, shape_str(s),
                        shape_str(&x0->shape), j);
      if (out.d[j] == DIM_UNKNOWN && s->d[j] > 0) out.d[j] = s->d[j];
    }
  }
  ctx_set(c, "Out", 0, &out, x0->dtype);
  /* run-time extents: every input has the same one (same_runtime_extent)
   * on the same dim, not the concat axis; Out has it */
  for (int i = 0; i < n; i++) {
    const Var *xi = ctx_in(c, "X", i);
    if (var_runtime_axis(xi) == axis)
      return ctx_fail(c, "dim %d of X[%d] ('%s') is only known at run time: concat along it is not supported", axis,
                      i, xi->name);
    if ((var_runtime_axis(xi) >= 0 || var_runtime_axis(x0) >= 0) &&
        (!same_runtime_extent(xi, x0) || xi->runtime_axis != x0->runtime_axis))
      return ctx_fail(c, "X[%d] ('%s') and X[0] ('%s') do not have one run-time extent on the same dim: concat "
                      "takes a run-time extent only when every input has the same one",
                      i, xi->name, x0->name);
  }
  ctx_pass_runtime_extent(c, x0, "Out", 0);
  return 0;
}

static int emit_concat(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  if (ctx_in(&c, "AxisTensor", 0) || attr_is_var(e->op, "axis"))
    return em_fail(e, "the axis comes from a tensor (input AxisTensor), which is not supported");
  Var *out = tu_out(e, "Out", 0);
  int n = ctx_nin(&c, "X");
  if (!out || n < 1) return -1;
  int r = tu_rank(e, out), axis = axis_norm(attr_int(e->op, "axis", 0), r);
  if (axis < 0 || r == 0) return em_fail(e, "axis is out of range");
  Var **xs = pool_alloc(sizeof *xs * (size_t)n);
  const char **inner = pool_alloc(sizeof *inner * (size_t)n);
  for (int i = 0; i < n; i++) {
    if (!(xs[i] = tu_in(e, "X", i))) return -1;
    if (tu_rank(e, xs[i]) != r) return em_fail(e, "X[%d] has rank %d, Out %d", i, tu_rank(e, xs[i]), r);
    inner[i] = em_prod(e, xs[i], axis, r);
  }
  tu_pass_extent(e, xs[0], out); /* the rows before the axis are then the run's */
  return tu_pieces(e, out, n, xs, em_prod(e, out, 0, axis), inner, 1);
}

/* 1-D integer pieces along axis 0 (a shape assembled from parts). */
static void fold_concat(OpCtx *c) { consteval_join(c, "Out"); }

const OpDef op_concat = {.type = "concat", .infer = infer_concat, .emit_c = emit_concat, .fold = fold_concat,
                         .runtime_extents = 1};

/* concat_grad (X, Out@GRAD -> X@GRAD): Out@GRAD split along axis into
 * pieces of X's shapes; an X@GRAD nobody asked for is skipped. */
static int emit_concat_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  if (ctx_in(&c, "AxisTensor", 0) || attr_is_var(e->op, "axis"))
    return em_fail(e, "the axis comes from a tensor (input AxisTensor), which is not supported");
  Var *dout = tu_in(e, "Out@GRAD", 0);
  int n = ctx_nin(&c, "X");
  if (!dout || n < 1) return -1;
  int r = tu_rank(e, dout), axis = axis_norm(attr_int(e->op, "axis", 0), r);
  if (axis < 0 || r == 0) return em_fail(e, "axis is out of range");
  Var **dxs = pool_alloc(sizeof *dxs * (size_t)n);
  const char **inner = pool_alloc(sizeof *inner * (size_t)n);
  for (int i = 0; i < n; i++) {
    Var *x = tu_in(e, "X", i);
    if (!x) return -1;
    if (tu_rank(e, x) != r) return em_fail(e, "X[%d] has rank %d, Out@GRAD %d", i, tu_rank(e, x), r);
    inner[i] = em_prod(e, x, axis, r);
    dxs[i] = i < ctx_nout(&c, "X@GRAD") ? ctx_out(&c, "X@GRAD", i) : NULL;
    if (dxs[i] && !tu_out(e, "X@GRAD", i)) return -1;
  }
  return tu_pieces(e, dout, n, dxs, em_prod(e, dout, 0, axis), inner, 0);
}

const OpDef op_concat_grad = {.type = "concat_grad", .infer = grad_infer, .emit_c = emit_concat_grad};

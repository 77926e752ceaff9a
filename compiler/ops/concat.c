/* concat: X*, AxisTensor† -> Out; axis:INT=0 (negative += rank; a VAR
 * attribute or AxisTensor gives it at run time); extra use_mkldnn,
 * use_quantizer, mkldnn_data_type.
 * Shape rule (phi ConcatInferMeta / ComputeAndCheckShape at compile time):
 * Out starts as X[0]'s dims; along `axis` the dims add up, -1 when any is
 * -1; along the other axes a -1 is replaced by a known dim of a later input.
 * With the axis from a tensor every dim is -1, unless the compiler knows
 * the tensor's value; while specializing with the inputs' dims fixed, an
 * AxisTensor only the run knows gives Out the bound of the axes along
 * which the inputs fit (each dim the largest of them: ctx_proven_shape).
 * Out has X[0]'s dtype.
 * Emission: per row of the dims before `axis`, one memcpy per input; with
 * the run's axis, the rows and widths of each axis the inputs fit along
 * are printed as the cases of a switch on it, and an axis out of range or
 * along which they do not fit stops the run (Paddle's kernel raises an
 * error).
 * Inputs with a dim known only at run time (the rows of a box head's
 * branches, the sequences after sequence_pool, an image's height and
 * width) must all have it, on a dim other than `axis`: Out has X[0]'s
 * extents, the rows are the run's; extents not known to be one (a U-Net's
 * upsampled map beside its skip connection) are checked by the run, as
 * Paddle's kernel checks its inputs' dims. */
#include "../consteval.h"
#include "../util.h"
#include "move_call.h"
#include "ops.h"
#include "run_hw.h"
#include "tensor_util.h"

/* The axis: the attribute's, or AxisTensor's value when the compiler
 * knows it; 0 when only the run knows it (AxisTensor, or a VAR axis). */
static int concat_axis(const OpCtx *c, int64_t *axis) {
  Var *at = ctx_in(c, "AxisTensor", 0);
  if (at) return ctx_int_values(c, at, axis, 1) == 1;
  *axis = attr_int(c->op, "axis", 0);
  return !attr_is_var(c->op, "axis");
}

/* Whether the inputs' dims (all known) fit a concat along axis k, and
 * then Out's dims into out. */
static int fits_along(const OpCtx *c, int k, Shape *out) {
  const Var *x0 = ctx_in(c, "X", 0);
  *out = x0->shape;
  out->d[k] = 0;
  for (int i = 0; i < ctx_nin(c, "X"); i++) {
    const Shape *s = &ctx_in(c, "X", i)->shape;
    if (s->rank != x0->shape.rank) return 0;
    for (int d = 0; d < s->rank; d++)
      if (d != k && s->d[d] != x0->shape.d[d]) return 0;
    out->d[k] += s->d[k];
  }
  return 1;
}

/* Out's bound for an axis only the run knows: the inputs' dims fixed and
 * known, each dim the largest of the axes the inputs fit along.  1 when
 * set; 0 when the dims are not all known; -1 after ctx_fail. */
static int run_axis_bound(OpCtx *c, const Var *x0) {
  if (!ctx_in(c, "AxisTensor", 0) || !ctx_feeds_fixed(c)) return 0;
  for (int i = 0; i < ctx_nin(c, "X"); i++) {
    const Var *xi = ctx_in(c, "X", i);
    if (!xi || var_runtime_axis(xi) >= 0 || shape_numel(&xi->shape) < 0) return 0;
  }
  Shape bound = {x0->shape.rank, {0}}, o;
  int fits = 0;
  for (int k = 0; k < bound.rank; k++)
    if (fits_along(c, k, &o) && ++fits)
      for (int d = 0; d < bound.rank; d++) bound.d[d] = o.d[d] > bound.d[d] ? o.d[d] : bound.d[d];
  if (!fits) return ctx_fail(c, "the inputs' dims fit a concat along no axis");
  return ctx_proven_shape(c, "Out", 0, &bound, x0->dtype, "AxisTensor's value");
}

/* concat along an axis whose extent the run gives for some inputs (the
 * boxes of several feature maps of run-time sizes): no input has other
 * run-time dims; Out's extent along the axis is the sum of the inputs'
 * (a new one, rooted by rule: the same inputs give the same sum). */
static int concat_along_run(OpCtx *c, int axis, int n) {
  const char *rule = pool_printf("concat %d:", axis);
  for (int i = 0; i < n; i++) {
    const Var *xi = ctx_in(c, "X", i);
    if (var_runtime_mask(xi) & ~(1u << axis))
      return ctx_fail(c, "X[%d] ('%s') has dims other than the concat axis only the run knows, beside inputs whose "
                      "extent along it the run gives; not supported", i, xi->name);
    rule = var_runtime_mask(xi) ? pool_printf("%s %d", rule, xi->runtime_root)
                                : pool_printf("%s =%lld", rule, (long long)xi->shape.d[axis]);
  }
  ctx_set_runtime_extent(c, "Out", 0, axis, "inputs' extents along the concat axis");
  Var *out = ctx_out(c, "Out", 0);
  if (out) run_hw_share_root(c->g, out, rule);
  return 0;
}

static int infer_concat(OpCtx *c) {
  int n = ctx_nin(c, "X");
  Var *x0 = ctx_need(c, "X", 0);
  if (!x0) return -1;
  Shape out = x0->shape;
  int64_t a;
  if (!concat_axis(c, &a)) {
    int b = run_axis_bound(c, x0);
    if (b) return b < 0 ? -1 : 0;
    for (int i = 0; i < out.rank; i++) out.d[i] = DIM_UNKNOWN;
    ctx_set(c, "Out", 0, &out, x0->dtype);
    return 0;
  }
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
  /* run-time extents: every input has them on the same dims, not the
   * concat axis (one root, or checked by the run: a U-Net's upsampled map
   * beside its skip connection); Out has X[0]'s */
  int along = 0; /* some input's extent along the axis is the run's: Out's is their sum */
  for (int i = 0; i < n; i++) along |= var_runtime_mask(ctx_in(c, "X", i)) >> axis & 1;
  if (along) return concat_along_run(c, axis, n);
  for (int i = 0; i < n; i++) {
    const Var *xi = ctx_in(c, "X", i);
    if (var_runtime_mask(xi) != var_runtime_mask(x0))
      return ctx_fail(c, "X[%d] ('%s') and X[0] ('%s') do not have run-time extents on the same dims: concat takes "
                      "run-time extents only when every input has them on the same dims",
                      i, xi->name, x0->name);
  }
  ctx_pass_runtime_extent(c, x0, "Out", 0);
  return 0;
}

/* concat along the axis AxisTensor gives when the kernel runs (Out within
 * the bound run_axis_bound proved): one case per axis the inputs fit
 * along, with its rows, widths and Out's dims. */
static int emit_run_axis(EmitCtx *e, Var *out, int n, Var **xs) {
  OpCtx c = {e->g, (Op *)e->op};
  const int r = tu_rank(e, out);
  const char *v = tu_run_axis(e, "AxisTensor");
  if (!v) return -1;
  for (int i = 0; i < n; i++) /* the cases below are the inputs' dims as numbers */
    for (int d = 0; d < r; d++)
      if (em_spec(e, xs[i])->d[d].a)
        return em_fail(e, "the axis comes from AxisTensor, whose value only the run knows, and the dims of X ('%s') "
                          "follow the batch: supported with the batch fixed (--shape)", xs[i]->name);
  pr_line(e->p, "/* the axis Paddle's kernel takes when it runs, from AxisTensor */");
  pr_line(e->p, "const int64_t axis = %s < 0 ? %s + %d : %s;", v, v, r, v);
  const char **inner = pool_alloc(sizeof *inner * (size_t)n), *dims[RT_MAX_RANK];
  pr_line(e->p, "int64_t outer = 0;");
  for (int i = 0; i < n; i++) pr_line(e->p, "int64_t inner%d = 0;", i), inner[i] = pool_printf("inner%d", i);
  for (int d = 0; d < r; d++) pr_line(e->p, "int64_t dim%d = 0;", d), dims[d] = pool_printf("dim%d", d);
  pr_line(e->p, "switch (axis) {");
  for (int k = 0; k < r; k++) {
    Shape o;
    if (!fits_along(&c, k, &o)) continue;
    const char *set = pool_printf("outer = %lld", (long long)dims_prod(&xs[0]->shape, 0, k));
    for (int i = 0; i < n; i++)
      set = pool_printf("%s, inner%d = %lld", set, i, (long long)dims_prod(&xs[i]->shape, k, r));
    for (int d = 0; d < r; d++) set = pool_printf("%s, dim%d = %lld", set, d, (long long)o.d[d]);
    pr_line(e->p, "case %d: %s; break;", k, set);
  }
  pr_line(e->p, "default: return 1; /* out of range, or the inputs do not fit along it */");
  pr_line(e->p, "}");
  tu_set_extents(e, out, dims, r, "an axis from AxisTensor out of range, or along which the inputs' dims do not "
                                  "fit (Paddle raises an error)");
  return tu_pieces(e, out, n, xs, "outer", inner, 1);
}

/* 1 when the inputs' run-time extents are X[0]'s (or they have none). */
static int one_extent(EmitCtx *e, Var **xs, int n) {
  const VarSpec *s0 = em_spec(e, xs[0]);
  for (int i = 1; i < n; i++)
    for (int d = 0; d < s0->rank; d++)
      if (s0->runtime_mask >> d & 1 &&
          !bcast_extents_one(xs[0], d, var_runtime_mask(xs[0]), xs[i], d, var_runtime_mask(xs[i])))
        return 0;
  return 1;
}

static int emit_concat(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  int64_t a;
  const int known = concat_axis(&c, &a);
  if (!known && !(ctx_in(&c, "AxisTensor", 0) && tu_max_shaped(e, tu_out(e, "Out", 0))))
    return em_fail(e, "the axis comes from a tensor (%s) whose value only the run knows, which is supported only "
                      "with the inputs' dims fixed (--shape)",
                   ctx_in(&c, "AxisTensor", 0) ? "input AxisTensor" : "attribute axis");
  Var *out = tu_out(e, "Out", 0);
  int n = ctx_nin(&c, "X");
  if (!out || n < 1) return -1;
  Var **xs0 = pool_alloc(sizeof *xs0 * (size_t)n);
  for (int i = 0; i < n && !known; i++)
    if (!(xs0[i] = tu_in(e, "X", i))) return -1;
  if (!known) return emit_run_axis(e, out, n, xs0);
  int r = tu_rank(e, out), axis = axis_norm(a, r);
  if (axis < 0 || r == 0) return em_fail(e, "axis is out of range");
  Var **xs = pool_alloc(sizeof *xs * (size_t)n);
  const char **inner = pool_alloc(sizeof *inner * (size_t)n);
  for (int i = 0; i < n; i++) {
    if (!(xs[i] = tu_in(e, "X", i))) return -1;
    if (tu_rank(e, xs[i]) != r) return em_fail(e, "X[%d] has rank %d, Out %d", i, tu_rank(e, xs[i]), r);
    inner[i] = em_prod(e, xs[i], axis, r);
  }
  const VarSpec *os = em_spec(e, out);
  if (os->runtime_mask >> axis & 1) { /* the sum of the inputs' extents along the axis (concat_along_run) */
    const char *sum = em_dim(e, xs[0], axis);
    for (int i = 1; i < n; i++) sum = pool_printf("%s + %s", sum, em_dim(e, xs[i], axis));
    move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = em_dim(e, out, axis), .src = sum});
  } else if (!one_extent(e, xs, n)) { /* X[0]'s, the others' checked against them (one: the shape rule's) */
    int64_t *axes = pool_alloc(sizeof *axes * (size_t)n);
    for (int i = 0; i < n; i++) axes[i] = -1;
    tu_bcast_extents(e, out, n, (const Var *const *)xs, axes);
  }
  return tu_pieces(e, out, n, xs, em_prod(e, out, 0, axis), inner, 1);
}

/* 1-D integer pieces along axis 0 (a shape assembled from parts). */
static void fold_concat(OpCtx *c) { consteval_join(c, "Out"); }

const OpDef op_concat = {.type = "concat", .infer = infer_concat, .emit_c = emit_concat, .fold = fold_concat,
                         .runtime_extents = 2, .lod_slot = "X", .lod_first = 1};

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

const OpDef op_concat_grad = {.type = "concat_grad", .infer = grad_infer, .emit_c = emit_concat_grad,
                              .runtime_extents = 2};

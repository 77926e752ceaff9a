/* repeat_interleave (paddle.repeat_interleave): X, RepeatsTensor† -> Out;
 * Repeats:INT=0, dim:INT=0.  paddle.repeat_interleave with axis=None
 * flattens X first and passes dim 0.
 * Shape rule: dim in [-rank, rank); Out is X with dim `dim` scaled:
 *   Repeats (phi RepeatInterleaveInferMeta): X.dims[dim] * Repeats, which
 *     must be > 0;
 *   RepeatsTensor (RepeatInterleaveWithTensorIndexInferMeta): [n] or
 *     [n, 1] with n != 0; Paddle's compile-time dim is -1; while
 *     specializing, when the repeats are known (a constant tensor, see
 *     consteval.h), their sum.
 * Emission: each output slice along dim copies the input slice it repeats
 * (phi's index_select with the index [0]*r0 ++ [1]*r1 ++ ...).  Repeats
 * from a tensor known at compile time are baked into the code; ones only
 * the run knows (a TTS length regulator's durations) are read when the
 * kernel runs, Out within its --max-shape bound (the output size depends
 * on them; without a bound paddlec refuses the model), X's dim along `dim`
 * the run's too.
 * Paddle requires len(RepeatsTensor) == X.dims[dim] and repeats >= 0.  A
 * negative dim counts from the end here; Paddle 2.6's CPU kernel hangs or
 * aborts on one (tests/oracle/e2e_index.py therefore has none).
 * Sizes the run gives (an image's height and width) pass to Out; along
 * `dim` Out's is the run's times Repeats, or RepeatsTensor's sum read by
 * the run (a --max-shape bound on Out). */
#include "../util.h"
#include "axis_call.h"
#include "move_call.h"
#include "ops.h"
#include "run_hw.h"
#include "tensor_util.h"

/* The repeats of RepeatsTensor when known: count (*vals), or -1. */
static int tensor_repeats(OpCtx *c, const int64_t **vals) {
  Var *r = ctx_in(c, "RepeatsTensor", 0);
  return r ? ctx_values(c, r, vals) : -1;
}

/* X's sizes the run gives pass to Out; one along dim a (repeated) makes
 * Out's there its own extent. */
static int run_extents(OpCtx *c, const Var *x, int a, int from_tensor) {
  const unsigned run = var_runtime_mask(x);
  if (!(run >> a & 1)) {
    ctx_pass_runtime_extent(c, x, "Out", 0);
    return 0;
  }
  if (from_tensor) {
    const Var *out = ctx_out(c, "Out", 0);
    return ctx_fail(c, "dim %d of X ('%s') is only known at run time, and RepeatsTensor's sum along it is the run's: "
                    "bound Out ('%s') with --max-shape to compile it", a, x->name, out ? out->name : "");
  }
  ctx_set_runtime_extents(c, "Out", 0, run, x->runtime_from);
  Var *out = ctx_out(c, "Out", 0);
  if (out)
    run_hw_share_root(c->g, out, pool_printf("%d:%u:repeat_interleave %d %lld", x->runtime_root, run, a,
                                             (long long)attr_int(c->op, "Repeats", 0)));
  return 0;
}

static int infer_repeat_interleave(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  Shape o = x->shape;
  int64_t dim = attr_int(c->op, "dim", 0);
  int a = axis_norm(dim, o.rank);
  if (a < 0) return ctx_fail(c, "dim %lld is out of range for X %s", (long long)dim, shape_str(&o));
  Var *rt = ctx_in(c, "RepeatsTensor", 0);
  if (rt) {
    const Shape *rs = &rt->shape;
    if (!(rs->rank == 1 || (rs->rank == 2 && rs->d[1] == 1)) || rs->d[0] == 0)
      return ctx_fail(c, "RepeatsTensor %s must be a non-empty [n] or [n, 1]", shape_str(rs));
    if (rt->dtype != RT_DT_INT32 && rt->dtype != RT_DT_INT64)
      return ctx_fail(c, "RepeatsTensor is %s; int32 or int64 expected", rt_dtype_name(rt->dtype));
    const int64_t *v;
    int n = tensor_repeats(c, &v);
    if (n < 0 && ctx_feeds_fixed(c)) { /* the run's repeats, within a --max-shape bound? */
      int b = ctx_max_shape(c, "Out", 0, o.rank, x->dtype, "RepeatsTensor's values");
      if (b) return b < 0 ? -1 : 0;
    }
    o.d[a] = DIM_UNKNOWN;
    if (n >= 0) {
      if (x->shape.d[a] >= 0 && n != x->shape.d[a])
        return ctx_fail(c, "RepeatsTensor has %d values for dim %d of X %s", n, a, shape_str(&x->shape));
      o.d[a] = 0;
      for (int i = 0; i < n; i++) {
        if (v[i] < 0) return ctx_fail(c, "RepeatsTensor holds %lld; repeats must be >= 0", (long long)v[i]);
        o.d[a] += v[i];
      }
    }
  } else {
    int64_t rep = attr_int(c->op, "Repeats", 0);
    if (rep <= 0) return ctx_fail(c, "Repeats is %lld; it must be > 0", (long long)rep);
    if (o.d[a] >= 0) o.d[a] *= rep;
  }
  ctx_set(c, "Out", 0, &o, x->dtype);
  return run_extents(c, x, a, rt != NULL);
}

/* Repeats read from RepeatsTensor when the kernel runs, Out within its
 * --max-shape bound: their count must be X's dim a and each at least 0,
 * as Paddle checks; Out's dims X's, with the repeats' sum along a. */
static int run_repeats(EmitCtx *e, const Var *x, const Var *out, int a, AxisCall *call) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *rt = ctx_in(&c, "RepeatsTensor", 0);
  if (!rt) return em_fail(e, "Out is bounded by --max-shape but no RepeatsTensor gives its size");
  const char *reps = em_ptr(e, rt, 1), *dims[RT_MAX_RANK];
  pr_line(e->p, "/* the repeats the run gives, from RepeatsTensor ('%s') */", rt->name);
  pr_line(e->p, "if ((%s) != (%s)) return 1;", em_numel(e, rt), em_dim(e, x, a));
  pr_line(e->p, "int64_t total = 0;");
  pr_line(e->p, "for (int64_t i = 0; i < (%s); i++) {", em_dim(e, x, a));
  pr_line(e->p, "if (%s[i] < 0) return 1;", reps);
  pr_line(e->p, "total += (int64_t)%s[i];", reps);
  pr_line(e->p, "}");
  for (int d = 0; d < tu_rank(e, x); d++) dims[d] = d == a ? "total" : em_dim(e, x, d);
  tu_set_extents(e, out, dims, tu_rank(e, x),
                 pool_printf("RepeatsTensor ('%s') of another length than dim %d of X, a negative repeat, or Out "
                             "past --max-shape %s", rt->name, a, shape_str(&out->shape)));
  call->index = reps, call->index_type = em_ctype(rt->dtype);
  call->n_out = em_dim(e, out, a);
  axis_print_c(e->p, call);
  return 0;
}

static int emit_repeat_interleave(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (out->dtype != x->dtype) return em_fail(e, "X and Out differ in dtype");
  if (x == out) return em_fail(e, "Out is X (an in-place repeat_interleave), which is not supported");
  int r = tu_rank(e, x), a = axis_norm(attr_int(e->op, "dim", 0), r);
  if (a < 0) return em_fail(e, "dim is out of range");
  int64_t n_in = em_const_dim(e, x, a), n_out = em_const_dim(e, out, a);
  int to[RT_MAX_RANK];
  for (int d = 0; d < RT_MAX_RANK; d++) to[d] = d == a ? -1 : d;
  tu_pass_extents_to(e, x, out, to); /* run_extents; along dim, the run's repeated: */
  if (em_spec(e, out)->runtime_mask >> a & 1) {
    const char *rep = pool_printf("%lld", (long long)attr_int(e->op, "Repeats", 0));
    move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = em_dim(e, out, a), .src = tu_mul(em_dim(e, x, a), rep)});
  }
  AxisCall call = {.kind = AXIS_REPEAT, .type = em_ctype(x->dtype), .outer = em_prod(e, x, 0, a), .n = em_dim(e, x, a),
                   .inner = em_prod(e, x, a + 1, r), .n_out = em_dim(e, out, a), .x = em_ptr(e, x, 1),
                   .out = em_ptr(e, out, 0)};
  if (tu_max_shaped(e, out)) return run_repeats(e, x, out, a, &call);
  if (ctx_in(&c, "RepeatsTensor", 0)) {
    const int64_t *v;
    int n = tensor_repeats(&c, &v);
    if (n < 0)
      return em_fail(e, "the values of RepeatsTensor are not known at compile time (the output size depends on them)");
    if (n_in < 0) return em_fail(e, "dim %d of X depends on the batch, which repeats from a tensor cannot follow", a);
    if (n != n_in) return em_fail(e, "RepeatsTensor has %d values for %lld slices of X", n, (long long)n_in);
    int64_t total = 0;
    for (int i = 0; i < n; i++) total += v[i];
    if (total != n_out)
      return em_fail(e, "the repeats add up to %lld, Out has %lld", (long long)total, (long long)n_out);
    call.repeats = v, call.nrepeats = n;
  } else {
    call.rep = attr_int(e->op, "Repeats", 0);
    if (call.rep <= 0) return em_fail(e, "Repeats is %lld; it must be > 0", (long long)call.rep);
  }
  axis_print_c(e->p, &call);
  return 0;
}

const OpDef op_repeat_interleave = {.type = "repeat_interleave", .infer = infer_repeat_interleave,
                                    .emit_c = emit_repeat_interleave, .runtime_extents = 2, .max_shape = 1};

/* repeat_interleave_grad (X, RepeatsTensor†, Out@GRAD -> X@GRAD; phi
 * RepeatInterleave[WithTensorIndex]GradKernel, IndexSelectGradInner with
 * the forward's index [0]*r0 ++ [1]*r1 ++ ...): X@GRAD starts at zeros and
 * each Out@GRAD slice along dim is added to the X slice it copied, in
 * order.  Repeats from a tensor are read at run time here (Out@GRAD's
 * size is known): Out@GRAD slices past the repeats' sum, or repeats past
 * Out@GRAD's, add nothing (Paddle requires them to match).  X gives only
 * the shape. */
static int emit_repeat_interleave_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X", 0), *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !dout || !dx) return -1;
  if (dout->dtype != dx->dtype || (dx->dtype != RT_DT_FP32 && dx->dtype != RT_DT_FP64))
    return em_fail(e, "X@GRAD must be float32 or float64 with Out@GRAD's dtype");
  int r = tu_rank(e, x), a = axis_norm(attr_int(e->op, "dim", 0), r);
  if (a < 0) return em_fail(e, "dim is out of range");
  if (tu_rank(e, dout) != r) return em_fail(e, "X and Out@GRAD differ in rank");
  AxisCall call = {.kind = AXIS_REPEAT_GRAD, .type = em_ctype(dx->dtype), .outer = em_prod(e, x, 0, a),
                   .n = em_dim(e, x, a), .inner = em_prod(e, x, a + 1, r), .n_out = em_dim(e, dout, a),
                   .dout = em_ptr(e, dout, 1), .dx = em_ptr(e, dx, 0)};
  Var *rt = ctx_in(&c, "RepeatsTensor", 0);
  if (rt) {
    if (!tu_in(e, "RepeatsTensor", 0)) return -1;
    if (rt->dtype != RT_DT_INT32 && rt->dtype != RT_DT_INT64)
      return em_fail(e, "RepeatsTensor is %s; int32 or int64 expected", rt_dtype_name(rt->dtype));
    SymDim rn = spec_numel(em_spec(e, rt)), xn = em_spec(e, x)->d[a];
    if (rn.a != xn.a || rn.c != xn.c) return em_fail(e, "RepeatsTensor does not have X.dims[dim] values");
    call.index = em_ptr(e, rt, 1), call.index_type = em_ctype(rt->dtype);
  } else {
    call.rep = attr_int(e->op, "Repeats", 0);
    if (call.rep <= 0) return em_fail(e, "Repeats is %lld; it must be > 0", (long long)call.rep);
  }
  axis_print_c(e->p, &call);
  return 0;
}

const OpDef op_repeat_interleave_grad = {.type = "repeat_interleave_grad", .infer = grad_infer,
                                         .emit_c = emit_repeat_interleave_grad, .runtime_extents = 2};

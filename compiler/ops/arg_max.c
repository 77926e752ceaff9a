/* arg_max, arg_min: X -> Out; axis:LONG (a VAR/SCALAR in new files),
 * keepdims:BOOLEAN=false, flatten:BOOLEAN=false, dtype:INT=3 (older files
 * default -1 = int64; 2 = int32, 3 = int64).
 * Out = X without `axis` (a 1 there with keepdims); flatten reduces every
 * element: rank(X) ones with keepdims, else shape_scalar().  With the axis
 * from a tensor the remaining dims are -1 (phi ArgMinMaxInferMeta);
 * while specializing with X's dims known they are the run's within a bound
 * (X's dims with keepdims, else dim i at most X's dims i and i + 1 summed).
 * Emission: a loop over X viewed as [outer, n, inner] keeping the first
 * position of the largest (smallest) value, as Eigen's argmax does; a NaN
 * is never taken over a number.  An axis from a tensor is read when the
 * kernel runs (run_axis): the view and Out's dims worked out then.
 * Dims the run gives (an image's height and width): those off the axis
 * pass to Out, one along it (a keepdims 1 in Out) or under flatten is
 * searched at the run's length. */
#include <string.h>

#include "../util.h"
#include "ops.h"
#include "sort_call.h"
#include "tensor_util.h"

/* Where X's dims go in Out (the axis: -1, dropped or kept as a fixed 1;
 * every dim under flatten). */
static void arg_out_dims(int axis, int keep, int flat, int *to) {
  for (int d = 0; d < RT_MAX_RANK; d++) to[d] = flat || d == axis ? -1 : keep || d < axis ? d : d - 1;
}

static int infer_arg_minmax(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *in = &x->shape;
  int keep = attr_bool(c->op, "keepdims", 0), flat = attr_bool(c->op, "flatten", 0);
  int64_t dt = attr_int(c->op, "dtype", 3);
  if (dt >= 0 && dt != RT_DT_INT32 && dt != RT_DT_INT64)
    return ctx_fail(c, "dtype %lld must be int32 (2) or int64 (3)", (long long)dt);
  int dtype = dt == RT_DT_INT32 ? RT_DT_INT32 : RT_DT_INT64;
  Shape s = {0, {0}};
  int64_t axis;
  if (ctx_attr_int(c, "axis", -1, &axis)) { /* the run's axis: Out's dims unknown, or bounded */
    if (var_runtime_mask(x))
      return ctx_fail(c, "X ('%s') has dims only the run gives (from its %s), and the axis comes from a tensor too",
                      x->name, x->runtime_from ? x->runtime_from : "inputs");
    s.rank = keep ? in->rank : (flat ? 0 : in->rank - 1);
    for (int i = 0; i < s.rank; i++) s.d[i] = flat ? 1 : DIM_UNKNOWN;
    if (flat && s.rank == 0) s = shape_scalar(c);
    if (flat || !ctx_feeds_fixed(c) || shape_numel(in) < 0) {
      ctx_set(c, "Out", 0, &s, dtype);
      return 0;
    }
    /* while specializing, X's dims known: Out's dims are the run's within
     * X's (keepdims) or, dim i being X's dim i or i + 1, their sum (linear
     * in the batch as their largest is not) */
    for (int i = 0; i < s.rank; i++) s.d[i] = in->d[i] + (keep ? 0 : in->d[i + 1]);
    if (!ctx_proven_shape(c, "Out", 0, &s, dtype, "attribute axis's value")) ctx_set(c, "Out", 0, &s, dtype);
    return 0;
  }
  if (in->rank ? (axis < -in->rank || axis >= in->rank) : (axis != 0 && axis != -1))
    return ctx_fail(c, "axis %lld is out of range for X %s", (long long)axis, shape_str(in));
  if (axis < 0) axis += in->rank;
  if (flat) {
    for (int i = 0; keep && i < in->rank; i++) s.d[s.rank++] = 1;
  } else {
    for (int i = 0; i < in->rank; i++) {
      if (i != axis) s.d[s.rank++] = in->d[i];
      else if (keep) s.d[s.rank++] = 1;
    }
  }
  if (s.rank == 0 && (flat || in->rank > 0)) s = shape_scalar(c);
  ctx_set(c, "Out", 0, &s, dtype);
  /* run-time extents off the axis pass on (an image's height and width
   * beside the class axis) */
  if (!var_runtime_mask(x)) return 0;
  int to[RT_MAX_RANK];
  arg_out_dims((int)axis, keep, flat, to);
  ctx_pass_runtime_extents_to(c, x, "Out", 0, to);
  return 0;
}

/* For an axis the run gives (attribute axis a tensor): prints its reading
 * and, but with flatten, the geometry along it (tu_print_run_axis) and
 * Out's dims within its proven bound: X's without the axis (a 1 there with
 * keepdims).  An axis outside [-r, r) stops the run, as Paddle's
 * ArgMinMaxInferMeta raises (with flatten too).  0, or -1 after em_fail. */
static int run_axis(EmitCtx *e, const Var *x, const Var *out, int r, int flat) {
  OpCtx c = {e->g, (Op *)e->op};
  const Var *t = ctx_attr_tensor(&c, "axis");
  if (!t || (t->dtype != RT_DT_INT32 && t->dtype != RT_DT_INT64) || shape_numel(&t->shape) != 1)
    return em_fail(e, "attribute axis takes its value from tensor '%s', which is not one int32 or int64",
                   t ? t->name : "?");
  const char *value = pool_printf("(int64_t)%s[0]", em_ptr(e, t, 1));
  const char *why = pool_printf("the axis from tensor '%s' is outside [-%d, %d) (Paddle raises an error)", t->name,
                                r, r);
  pr_line(e->p, "/* the axis, tensor '%s''s value when the kernel runs (negative counts from the end) */", t->name);
  if (flat) {
    pr_line(e->p, "if (%s < -%d || %s >= %d) return 1;", value, r, value, r);
    em_fault(e, why);
    return 0;
  }
  tu_print_run_axis(e, value, x, r, NULL);
  if (!tu_max_shaped(e, out)) {
    em_fault(e, why);
    return 0;
  }
  const int keep = attr_bool(e->op, "keepdims", 0), ro = tu_rank(e, out);
  const char *od[RT_MAX_RANK];
  for (int d = 0; d < ro; d++)
    od[d] = keep ? pool_printf("%d == axis ? 1 : axis_dims[%d]", d, d) : pool_printf("axis_dims[%d < axis ? %d : %d]",
                                                                                      d, d, d + 1);
  tu_set_extents(e, out, od, ro, why);
  return 0;
}

static int emit_arg_minmax(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  int64_t a;
  if (x->dtype == RT_DT_BOOL) return em_fail(e, "bool X is not supported");
  const int run = ctx_attr_int(&c, "axis", -1, &a) != 0, flat = attr_bool(e->op, "flatten", 0);
  int r = tu_rank(e, x), axis = run ? 0 : axis_norm(a, r);
  if (axis < 0) return em_fail(e, "axis is out of range");
  const char *outer = "1", *n = em_numel(e, x), *inner = "1";
  if (run && r > 0 && run_axis(e, x, out, r, flat)) return -1;
  if (run && r > 0 && !flat) {
    outer = "axis_outer";
    n = "axis_n";
    inner = "axis_inner";
  } else if (!flat && r > 0) {
    outer = em_prod(e, x, 0, axis);
    n = em_dim(e, x, axis);
    inner = em_prod(e, x, axis + 1, r);
  }
  SortCall call = {.kind = SORT_ARGMAX, .dtype = x->dtype, .idx_dtype = out->dtype, .outer = outer, .n = n,
                   .inner = inner, .largest = !strcmp(e->op->type, "arg_max")};
  call.x = em_ptr(e, x, 1);
  call.indices = em_ptr(e, out, 0);
  sort_print_c(e->p, &call);
  return 0;
}

const OpDef op_arg_max = {.type = "arg_max", .infer = infer_arg_minmax, .emit_c = emit_arg_minmax,
                          .runtime_extents = 2};
const OpDef op_arg_min = {.type = "arg_min", .infer = infer_arg_minmax, .emit_c = emit_arg_minmax,
                          .runtime_extents = 2};

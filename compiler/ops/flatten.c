/* flatten, flatten2, flatten_contiguous_range.
 *   flatten / flatten2: X -> Out (+ XShape for flatten2); axis:INT=1;
 *     Out = [prod(X.dims[:axis]), prod(X.dims[axis:])], and [1] for a 0-D X
 *     (axis 0; phi::funcs::GetOutputShape, which flatten2 uses in Paddle 2.6;
 *     flatten v1 is no longer registered there and gets the same rule)
 *   flatten_contiguous_range: X -> Out, XShape; start_axis:INT=1,
 *     stop_axis:INT=1 (negative += rank); dims start..stop merge into one
 *     (phi FlattenWithXShapeInferMeta); a 0-D X gives [1]
 * A merged dim is -1 when any of its parts is.  XShape = [0] ++ X.dims.
 * Emission: a copy of X's elements (memcpy; nothing when Out is X).
 * A dim known only at run time that no merge touches (dim 0 of
 * roi_align's [R, C, 7, 7] flattened from 1) stays Out's, the copy counts
 * the run's elements; merged with other dims (an image's H and W into
 * tokens) it makes the merged dim the run's product (merge_extents). */
#include <string.h>

#include "../consteval.h"
#include "../util.h"
#include "move_call.h"
#include "ops.h"
#include "run_hw.h"
#include "tensor_util.h"

/* Out of X with dims [a, b] merged into one (Out's dim a): X's run-time
 * extents outside the range keep their dims (shifted past it); one inside
 * makes Out's dim a the run's product of the range, a new extent whose root
 * follows from X's and the range (run_hw_share_root: two such flattens of
 * one size are one size).  A range holding the batch beside a run-time
 * extent is refused (the product would grow with both).  0, or -1 after
 * ctx_fail. */
/* Dims a..b as a mask. */
static unsigned range_mask(int a, int b) { return ((2u << b) - 1) & ~((1u << a) - 1); }

static int merge_extents(OpCtx *c, const Var *x, int a, int b) {
  const unsigned run = var_runtime_mask(x), range = range_mask(a, b);
  if (!run) return 0;
  int to[RT_MAX_RANK];
  for (int d = 0; d < RT_MAX_RANK; d++) to[d] = d < a ? d : d > b ? d - (b - a) : -1;
  if (!(run & range) || a == b) {
    for (int d = a; d <= b; d++) to[d] = a;
    ctx_pass_runtime_extents_to(c, x, "Out", 0, to);
    return 0;
  }
  for (int d = a; d <= b; d++)
    if (x->shape.d[d] < 0 || (c->g->specializing && d == 0 && !(run & 1)))
      return ctx_fail(c, "dims %d to %d of X ('%s') merge the batch with a dim only the run knows, which is not "
                      "supported", a, b, x->name);
  unsigned mask = 1u << a;
  for (int d = 0; d < RT_MAX_RANK; d++)
    if (run >> d & 1 && to[d] >= 0) mask |= 1u << to[d];
  ctx_set_runtime_extents(c, "Out", 0, mask, x->runtime_from);
  Var *out = ctx_out(c, "Out", 0);
  if (out) run_hw_share_root(c->g, out, pool_printf("%d:%u:flatten %d %d", x->runtime_root, run, a, b));
  return 0;
}

static int infer_flatten(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t axis = attr_int(c->op, "axis", 1);
  int rank = x->shape.rank;
  if (axis < 0 || axis > rank)
    return ctx_fail(c, "axis %lld is out of range for rank %d", (long long)axis, rank);
  Shape out = {2, {dims_prod(&x->shape, 0, (int)axis), dims_prod(&x->shape, (int)axis, rank)}};
  if (rank == 0) out = (Shape){1, {1}};
  ctx_set(c, "Out", 0, &out, x->dtype);
  /* axis 1 only: [R, ...] with R known at run time keeps the rows; an
   * image's height and width merge into dim 1 */
  const unsigned run = var_runtime_mask(x);
  if (run && (axis != 1 || ((run & 1) && run != 1))) return ctx_refuse_runtime_extents(c);
  if (run && merge_extents(c, x, 1, rank - 1)) return -1;
  return ctx_set_xshape(c, x);
}

static int infer_flatten_range(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *in = &x->shape;
  int64_t start = attr_int(c->op, "start_axis", 1), stop = attr_int(c->op, "stop_axis", 1);
  Shape out = {1, {1}};
  if (in->rank == 0) {
    if ((start != 0 && start != -1) || (stop != 0 && stop != -1))
      return ctx_fail(c, "start_axis and stop_axis must be 0 or -1 for a 0-D X");
  } else {
    int a = axis_norm(start, in->rank), b = axis_norm(stop, in->rank);
    if (a < 0 || b < 0 || b < a)
      return ctx_fail(c, "start_axis %lld / stop_axis %lld do not fit rank %d", (long long)start,
                      (long long)stop, in->rank);
    out.rank = 0;
    for (int i = 0; i < a; i++) out.d[out.rank++] = in->d[i];
    out.d[out.rank++] = dims_prod(in, a, b + 1);
    for (int i = b + 1; i < in->rank; i++) out.d[out.rank++] = in->d[i];
    /* dims known at run time outside the merged range (the RoIs of
     * roi_align's [R, C, 7, 7] -> [R, C*49]) stay dims of Out; inside it
     * (an image's [B, C, H, W] -> [B, C, H*W]) Out's merged dim is the
     * run's product */
    ctx_set(c, "Out", 0, &out, x->dtype);
    if (merge_extents(c, x, a, b)) return -1;
    return ctx_set_xshape(c, x);
  }
  if (var_runtime_axis(x) >= 0) return ctx_refuse_runtime_extents(c);
  ctx_set(c, "Out", 0, &out, x->dtype);
  return ctx_set_xshape(c, x);
}

/* Out holds X's elements in X's order: a copy (a later pass may alias the
 * two instead). */
static int emit_flatten(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  int a = 0, b = tu_rank(e, x) - 1; /* the merged range (merge_extents) */
  if (!strcmp(e->op->type, "flatten_contiguous_range")) {
    a = axis_norm(attr_int(e->op, "start_axis", 1), tu_rank(e, x));
    b = axis_norm(attr_int(e->op, "stop_axis", 1), tu_rank(e, x));
  } else {
    a = (int)attr_int(e->op, "axis", 1);
  }
  if (tu_rank(e, x) && a >= 0 && b >= a) {
    const VarSpec *xs = em_spec(e, x), *os = em_spec(e, out);
    if (xs->runtime_mask & range_mask(a, b) && os->runtime_mask >> a & 1) /* the merged dim: the run's product */
      move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = em_dim(e, out, a), .src = em_prod(e, x, a, b + 1)});
  } /* the others the shape rule passed on (tu_pass_recorded_extents) */
  return tu_copy(e, x, out);
}

const OpDef op_flatten = {.type = "flatten", .infer = infer_flatten, .emit_c = emit_flatten, .inplace = "X:Out",
                          .runtime_extents = 2};
const OpDef op_flatten2 = {.type = "flatten2", .infer = infer_flatten, .emit_c = emit_flatten, .inplace = "X:Out",
                           .runtime_extents = 2};
const OpDef op_flatten_contiguous_range = {.type = "flatten_contiguous_range", .infer = infer_flatten_range,
                                           .emit_c = emit_flatten, .fold = consteval_fold_copy, .inplace = "X:Out",
                                           .runtime_extents = 2};

/* flatten2_grad, flatten_contiguous_range_grad: X@GRAD = Out@GRAD (XShape
 * gives its shape); the axes were the forward's. */
static const char *const flatten_grad_attr_ignores[] = {"axis", "start_axis", "stop_axis", NULL};
const OpDef op_flatten2_grad = {.type = "flatten2_grad", .infer = infer_grad_xshape, .emit_c = tu_grad_copy,
                                .inplace = "Out@GRAD:X@GRAD", .attr_ignores = flatten_grad_attr_ignores,
                                .runtime_extents = 2};
const OpDef op_flatten_contiguous_range_grad = {.type = "flatten_contiguous_range_grad", .infer = infer_grad_xshape,
                                                .emit_c = tu_grad_copy, .inplace = "Out@GRAD:X@GRAD",
                                                .attr_ignores = flatten_grad_attr_ignores, .runtime_extents = 2};

/* flatten_grad (fluid 1.x flatten; X, Out@GRAD): X@GRAD = Out@GRAD in X's
 * shape (X gives it). */
const OpDef op_flatten_grad = {.type = "flatten_grad", .infer = grad_infer, .emit_c = tu_grad_copy,
                               .inplace = "Out@GRAD:X@GRAD", .attr_ignores = flatten_grad_attr_ignores,
                               .runtime_extents = 2};

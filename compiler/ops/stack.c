/* stack, and its inverses unstack and unbind.
 *   stack: X* -> Y; axis:INT=0 (in [-(rank+1), rank]; negative += rank+1).
 *     Y = the common input shape with len(X) inserted at `axis`; a -1 in
 *     X[0] is replaced by a known dim of a later input (phi StackInferMeta
 *     reuses concat's compile-time check).
 *   unstack: X -> Y*; axis:INT=0, num:INT (must be the count of Y).
 *   unbind (phi UnbindInferMeta): X -> Out*; axis:INT=0.
 *     Each output is X without `axis` (in [-rank, rank)), one per entry of
 *     that dim.
 * Outputs have X[0]'s dtype.
 * Emission: per row of the dims before `axis`, one memcpy per input (stack)
 * or output (unstack, unbind, and stack_grad, which splits Y@GRAD so).
 * stack takes inputs whose sizes the run gives, on the same dims of each
 * (Y has them; where they come from different producers the run checks
 * they agree). */
#include "../consteval.h"
#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

/* Where each dim of a rank-r X goes in stack's Y: those from `axis` on
 * one further. */
static void stacked_dims_to(int r, int axis, int *to) {
  for (int j = 0; j < r; j++) to[j] = j < axis ? j : j + 1;
}

static int infer_stack(OpCtx *c) {
  int n = ctx_nin(c, "X");
  Var *x0 = ctx_need(c, "X", 0);
  if (!x0) return -1;
  Shape s = x0->shape;
  for (int i = 1; i < n; i++) {
    Var *xi = ctx_need(c, "X", i);
    if (!xi) return -1;
    if (xi->shape.rank != s.rank)
      return ctx_fail(c, "X[%d] %s and X[0] %s differ in rank", i, shape_str(&xi->shape),
                      shape_str(&x0->shape));
    for (int j = 0; j < s.rank; j++) {
      int64_t a = x0->shape.d[j], b = xi->shape.d[j];
      if (a > 0 && b > 0 && a != b)
        return ctx_fail(c, "X[%d] %s and X[0] %s differ in dim %d", i, shape_str(&xi->shape),
                        shape_str(&x0->shape), j);
      if (s.d[j] == DIM_UNKNOWN && b > 0) s.d[j] = b;
    }
  }
  int64_t axis = attr_int(c->op, "axis", 0);
  if (axis < -(s.rank + 1) || axis > s.rank || s.rank + 1 > RT_MAX_RANK)
    return ctx_fail(c, "axis %lld is out of range for rank %d", (long long)axis, s.rank);
  if (axis < 0) axis += s.rank + 1;
  for (int j = s.rank; j > axis; j--) s.d[j] = s.d[j - 1];
  s.d[axis] = n;
  s.rank++;
  ctx_set(c, "Y", 0, &s, x0->dtype);
  for (int i = 1; i < n; i++) /* sizes the run gives: on the same dims of every X (the run checks they agree) */
    if (var_runtime_mask(ctx_in(c, "X", i)) != var_runtime_mask(x0))
      return ctx_fail(c, "X[%d] ('%s') and X[0] ('%s') have dims only the run gives on different dims: stack takes "
                      "them on the same dims of every input", i, ctx_in(c, "X", i)->name, x0->name);
  int to[RT_MAX_RANK];
  stacked_dims_to(x0->shape.rank, (int)axis, to);
  ctx_pass_runtime_extents_to(c, x0, "Y", 0, to);
  return 0;
}

/* unstack's and unbind's rule: every output of slot `out` is X without
 * axis. */
static int infer_split_all(OpCtx *c, const char *out) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t a = attr_int(c->op, "axis", 0);
  int axis = axis_norm(a, x->shape.rank);
  if (axis < 0 || x->shape.rank == 0)
    return ctx_fail(c, "axis %lld is out of range for X %s", (long long)a, shape_str(&x->shape));
  Shape s = {0, {0}};
  for (int i = 0; i < x->shape.rank; i++)
    if (i != axis) s.d[s.rank++] = x->shape.d[i];
  ctx_set_all(c, out, &s, x->dtype);
  if (var_runtime_mask(x) >> axis & 1)
    return ctx_fail(c, "dim %d of X ('%s'), the one split into the outputs, is only known at run time (%s); %s needs "
                    "it fixed", axis, x->name, x->runtime_from ? x->runtime_from : "inputs", c->op->type);
  int red[RT_MAX_RANK] = {0}, to[RT_MAX_RANK];
  red[axis] = 1;
  reduce_kept_dims_to(x->shape.rank, red, 0, to); /* the other dims the run gives: each output's */
  for (int i = 0; i < ctx_nout(c, out); i++) ctx_pass_runtime_extents_to(c, x, out, i, to);
  return 0;
}

static int infer_unstack(OpCtx *c) {
  int64_t num = attr_int(c->op, "num", ctx_nout(c, "Y")); /* Paddle's rule checks it against Y's count */
  if (num != ctx_nout(c, "Y")) return ctx_fail(c, "num %lld but Y has %d outputs", (long long)num, ctx_nout(c, "Y"));
  return infer_split_all(c, "Y");
}

static int infer_unbind(OpCtx *c) { return infer_split_all(c, "Out"); }

static int emit_stack(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *y = tu_out(e, "Y", 0);
  int n = ctx_nin(&c, "X");
  if (!y || n < 1) return -1;
  int r = tu_rank(e, y); /* rank(X) + 1 */
  int64_t a = attr_int(e->op, "axis", 0);
  if (a < -r || a >= r) return em_fail(e, "axis is out of range");
  int axis = (int)(a < 0 ? a + r : a);
  Var **xs = pool_alloc(sizeof *xs * (size_t)n);
  const char **inner = pool_alloc(sizeof *inner * (size_t)n);
  for (int i = 0; i < n; i++) {
    if (!(xs[i] = tu_in(e, "X", i))) return -1;
    if (tu_rank(e, xs[i]) != r - 1) return em_fail(e, "X[%d] has rank %d, Y %d", i, tu_rank(e, xs[i]), r);
    inner[i] = em_prod(e, xs[i], axis, r - 1);
  }
  const unsigned run = em_spec(e, xs[0])->runtime_mask;
  const char *differ = NULL;
  for (int i = 1; i < n; i++)
    for (int d = 0; d < r - 1; d++)
      if (run >> d & 1 && !bcast_extents_one(xs[0], d, run, xs[i], d, em_spec(e, xs[i])->runtime_mask)) {
        pr_line(e->p, "if (%s != %s) return 1; /* '%s' and '%s' differ along dim %d */", em_dim(e, xs[0], d),
                em_dim(e, xs[i], d), xs[0]->name, xs[i]->name, d);
        differ = pool_printf("'%s' and '%s' have different sizes along dim %d in this run (Paddle raises an error)",
                             xs[0]->name, xs[i]->name, d);
      }
  if (differ) em_fault(e, differ);
  return tu_pieces(e, y, n, xs, em_prod(e, y, 0, axis), inner, 1);
}

/* `from` split along axis into the slices `to` (one per entry of that dim;
 * with `optional`, an output nobody asked for is skipped): unstack,
 * unbind, stack_grad. */
static int emit_split_all(EmitCtx *e, const char *from, const char *to, int optional) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, from, 0);
  int n = ctx_nout(&c, to);
  if (!x || n < 1) return -1;
  int r = tu_rank(e, x), axis = axis_norm(attr_int(e->op, "axis", 0), r);
  if (axis < 0 || r == 0) return em_fail(e, "axis is out of range");
  if (em_const_dim(e, x, axis) != n) return em_fail(e, "%d %s for dim %s", n, to, em_dim(e, x, axis));
  Var **ys = pool_alloc(sizeof *ys * (size_t)n);
  const char **inner = pool_alloc(sizeof *inner * (size_t)n);
  int red[RT_MAX_RANK] = {0}, kept[RT_MAX_RANK];
  red[axis] = 1;
  reduce_kept_dims_to(r, red, 0, kept);
  for (int i = 0; i < n; i++) {
    ys[i] = optional ? ctx_out(&c, to, i) : NULL;
    if ((!optional || ys[i]) && !(ys[i] = tu_out(e, to, i))) return -1;
    if (ys[i]) tu_pass_extents_to(e, x, ys[i], kept); /* X's sizes the run gives but the axis */
    inner[i] = em_prod(e, x, axis + 1, r);
  }
  return tu_pieces(e, x, n, ys, em_prod(e, x, 0, axis), inner, 0);
}

static int emit_unstack(EmitCtx *e) { return emit_split_all(e, "X", "Y", 0); }
static int emit_unbind(EmitCtx *e) { return emit_split_all(e, "X", "Out", 0); }

/* Scalars stacked into a 1-D shape. */
static void fold_stack(OpCtx *c) { consteval_join(c, "Y"); }

const OpDef op_stack = {.type = "stack", .infer = infer_stack, .emit_c = emit_stack, .fold = fold_stack,
                        .runtime_extents = 2};
const OpDef op_unstack = {.type = "unstack", .infer = infer_unstack, .emit_c = emit_unstack, .runtime_extents = 2};
const OpDef op_unbind = {.type = "unbind", .infer = infer_unbind, .emit_c = emit_unbind, .runtime_extents = 2};

/* stack_grad: X@GRAD[i] = X[i]; files whose grad op has no X input (Paddle
 * 1.x) take Y@GRAD without the stacked axis (StackGradOp). */
static int infer_stack_grad(OpCtx *c) {
  if (ctx_nin(c, "X")) return grad_infer(c);
  Var *dy = ctx_need(c, "Y@GRAD", 0);
  if (!dy) return -1;
  if (dy->shape.rank < 1) return ctx_fail(c, "Y@GRAD ('%s') has rank 0", dy->name);
  int axis = axis_norm(attr_int(c->op, "axis", 0), dy->shape.rank);
  if (axis < 0) return ctx_fail(c, "axis is out of range for Y@GRAD %s", shape_str(&dy->shape));
  Shape x = {dy->shape.rank - 1, {0}};
  for (int i = 0, j = 0; i < dy->shape.rank; i++)
    if (i != axis) x.d[j++] = dy->shape.d[i];
  ctx_set_all(c, "X@GRAD", &x, dy->dtype);
  int red[RT_MAX_RANK] = {0}, kept[RT_MAX_RANK];
  red[axis] = 1;
  reduce_kept_dims_to(dy->shape.rank, red, 0, kept); /* Y@GRAD's sizes the run gives but the axis */
  for (int i = 0; i < ctx_nout(c, "X@GRAD"); i++) ctx_pass_runtime_extents_to(c, dy, "X@GRAD", i, kept);
  return 0;
}

/* stack_grad (Y@GRAD -> X@GRAD): Y@GRAD split along axis into its slices,
 * as unstack; an X@GRAD nobody asked for is skipped.  X, when the grad op
 * has it (Paddle 2.x), gives only the shapes (its rule). */
static int emit_stack_grad(EmitCtx *e) { return emit_split_all(e, "Y@GRAD", "X@GRAD", 1); }

const OpDef op_stack_grad = {.type = "stack_grad", .infer = infer_stack_grad, .emit_c = emit_stack_grad,
                             .runtime_extents = 2};

/* unstack_grad (Y@GRAD* -> X@GRAD; phi UnStackGradKernel): the Y@GRAD
 * stacked along axis, as stack; every Y@GRAD must be there (Paddle's grad
 * maker fills a missing one with zeros). */
static int emit_unstack_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *dx = tu_out(e, "X@GRAD", 0);
  int n = ctx_nin(&c, "Y@GRAD");
  if (!dx || n < 1) return -1;
  int r = tu_rank(e, dx), axis = axis_norm(attr_int(e->op, "axis", 0), r);
  if (axis < 0) return em_fail(e, "axis is out of range");
  if (em_const_dim(e, dx, axis) != n) return em_fail(e, "%d Y@GRAD for dim %s", n, em_dim(e, dx, axis));
  Var **dys = pool_alloc(sizeof *dys * (size_t)n);
  const char **inner = pool_alloc(sizeof *inner * (size_t)n);
  for (int i = 0; i < n; i++) {
    if (!(dys[i] = tu_in(e, "Y@GRAD", i))) return -1;
    inner[i] = em_prod(e, dx, axis + 1, r);
  }
  return tu_pieces(e, dx, n, dys, em_prod(e, dx, 0, axis), inner, 1);
}

/* unstack_grad: X@GRAD = Y@GRAD[0] with the number of Y@GRAD inserted at
 * axis (UnStackGradOp / StackInferMeta). */
static int infer_unstack_grad(OpCtx *c) {
  Var *dy = ctx_need(c, "Y@GRAD", 0);
  if (!dy) return -1;
  int n = ctx_nin(c, "Y@GRAD"), rank = dy->shape.rank + 1;
  if (rank > RT_MAX_RANK) return ctx_fail(c, "Y@GRAD has too many dims");
  int axis = axis_norm(attr_int(c->op, "axis", 0), rank);
  if (axis < 0) return ctx_fail(c, "axis is out of range for rank %d", rank);
  Shape x = {rank, {0}};
  for (int i = 0, j = 0; i < rank; i++) x.d[i] = i == axis ? n : dy->shape.d[j++];
  ctx_set(c, "X@GRAD", 0, &x, dy->dtype);
  int to[RT_MAX_RANK];
  stacked_dims_to(rank - 1, axis, to);
  ctx_pass_runtime_extents_to(c, dy, "X@GRAD", 0, to);
  return 0;
}

/* num: the count of Y@GRAD, which gives it */
static const char *const unstack_grad_attr_ignores[] = {"num", NULL};
const OpDef op_unstack_grad = {.type = "unstack_grad", .infer = infer_unstack_grad, .emit_c = emit_unstack_grad,
                               .attr_ignores = unstack_grad_attr_ignores, .runtime_extents = 2};

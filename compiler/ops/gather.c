/* Gathers and scatters.
 *   gather: X, Index, Axis† -> Out; axis:INT=0 (a tensor gives it at run
 *     time; Paddle then assumes axis 0).  Index is 1-D ([N] or [N, 1]) or
 *     0-D; Out = X with dim `axis` replaced by N, or removed for a 0-D Index
 *     (phi GatherInferMeta).
 *   gather_nd: X, Index -> Out = Index.dims[:-1] ++ X.dims[Index.dims[-1]:]
 *   index_select: X, Index -> Out; dim:INT=0; Out = X with dim `dim`
 *     replaced by Index.dims[0].
 *   scatter: X, Ids, Updates -> Out (X's dims); overwrite:BOOLEAN=true.
 *     Ids is [N], [N, 1] or 0-D (one index); Updates has X's rank and N
 *     rows (phi ScatterInferMeta); for a 0-D Ids, Updates is the one slice.
 * Out has X's dtype.
 * gather_nd's Index may have rows counted at run time (paddle.nonzero's):
 * Out then has as many; X's sizes the run gives (an image's height and
 * width) are checked against the tuples that address them, the others
 * pass to Out.
 * Emission: rt_gather / rt_gather_nd copy whole slices by index (int32 or
 * int64).  Paddle 2.6 raises an error for an index outside [0, dim) (or
 * reads past X for gather's index >= dim): the compiled code stops the run
 * (em_fault).  An Axis tensor whose value only the run knows, with X's and
 * Index's dims fixed: Out's bound is each dim's largest over the axes
 * (ctx_proven_shape) and the kernel switches on the run's axis, stopping
 * on one outside [0, rank) (Paddle 2.6 reads a negative one past X's dims
 * and writes garbage).  scatter is phi ScatterAssign /
 * ScatterAssignAdd: Out = X, then with overwrite each row Ids[i] of Out is
 * replaced by row i of Updates (the last of repeated indices wins);
 * without it the rows Ids names are zeroed first and every Updates row is
 * added to its row.  A row outside [0, X.dims[0]), where Paddle raises an
 * error (or writes past X), stops the run. */
#include "../util.h"
#include "index_call.h"
#include "move_call.h"
#include "ops.h"
#include "tensor_util.h"

/* Out's dims when gather takes axis k. */
/* Where each dim of a rank-r X goes in gathered(): the axis k to -1 (the
 * index count takes its place, or a 0-D Index drops it). */
static void gathered_dims_to(int r, int k, int index_rank, int *to) {
  for (int i = 0; i < r; i++) to[i] = i < k ? i : i == k ? -1 : i - (index_rank == 0);
}

static Shape gathered(const Shape *in, const Shape *is, int k) {
  Shape s = {0, {0}};
  for (int i = 0; i < in->rank; i++) {
    if (i != k) s.d[s.rank++] = in->d[i];
    else if (is->rank > 0) s.d[s.rank++] = is->d[0];
  }
  return s;
}

/* Out's bound for an Axis only the run knows, X's and Index's dims fixed
 * and known: each dim the largest over the axes.  1 when set; 0 when the
 * dims are not all known. */
static int run_axis_bound(OpCtx *c, const Var *x, const Var *idx) {
  if (!ctx_feeds_fixed(c) || var_runtime_axis(x) >= 0 || var_runtime_axis(idx) >= 0 ||
      shape_numel(&x->shape) < 0 || shape_numel(&idx->shape) < 0 || x->shape.rank == 0)
    return 0;
  Shape bound = gathered(&x->shape, &idx->shape, 0);
  for (int k = 1; k < x->shape.rank; k++) {
    Shape o = gathered(&x->shape, &idx->shape, k);
    for (int d = 0; d < o.rank; d++) bound.d[d] = o.d[d] > bound.d[d] ? o.d[d] : bound.d[d];
  }
  return ctx_proven_shape(c, "Out", 0, &bound, x->dtype, "Axis's value");
}

/* The run-time extents of gather's (and index_select's) Out along axis a:
 * an Index counted by the run (paddle.nonzero's, the RoIs an FPN's levels
 * restore) gives Out its count there, X's sizes the run gives but along
 * the axis pass to Out (along it, each index is checked against the run's
 * size by the kernel).  Refused: both at once off the axis, and X's with an
 * axis from a tensor. */
static int run_gathered(OpCtx *c, const Var *x, const Var *idx, int a, int from_tensor) {
  const unsigned xr = var_runtime_mask(x), ir = var_runtime_mask(idx), off = xr & ~(1u << a);
  if (!xr && !ir) return 0;
  if ((xr && from_tensor) || (ir && off) || (ir & ~1u))
    return ctx_fail(c, "X ('%s') or Index ('%s') has dims only the run gives; %s takes those of X with the axis from "
                    "the attribute, off the axis beside an Index of fixed size", x->name, idx->name, c->op->type);
  int to[RT_MAX_RANK];
  if (ir) {
    for (int d = 0; d < RT_MAX_RANK; d++) to[d] = d == 0 && idx->shape.rank > 0 ? a : -1;
    ctx_pass_runtime_extents_to(c, idx, "Out", 0, to); /* as many as the run's indices */
    return 0;
  }
  gathered_dims_to(x->shape.rank, a, idx->shape.rank, to);
  ctx_pass_runtime_extents_to(c, x, "Out", 0, to); /* X's off the axis; along it the index count (fixed) */
  return 0;
}

static int infer_gather(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *idx = ctx_need(c, "Index", 0);
  if (!x || !idx) return -1;
  const Shape *in = &x->shape, *is = &idx->shape;
  if (is->rank > 2 || (is->rank == 2 && is->d[1] != 1))
    return ctx_fail(c, "Index %s must be 0-D, [N] or [N, 1]", shape_str(is));
  int from_tensor = ctx_in(c, "Axis", 0) || attr_is_var(c->op, "axis");
  int64_t a = from_tensor ? 0 : attr_int(c->op, "axis", 0);
  if (ctx_in(c, "Axis", 0) && ctx_int_values(c, ctx_in(c, "Axis", 0), &a, 1) != 1) {
    int b = run_axis_bound(c, x, idx);
    if (b) return b < 0 ? -1 : 0;
    a = 0;
  }
  if (a < 0) a += in->rank;
  if (a < 0 || a >= in->rank) return ctx_fail(c, "axis is out of range for X %s", shape_str(in));
  Shape s = gathered(in, is, (int)a);
  ctx_set(c, "Out", 0, &s, x->dtype);
  return run_gathered(c, x, idx, (int)a, from_tensor);
}

/* Where gather_nd's X dims go in Out (X rank r, Index's tuples of k,
 * Index rank ri): the k addressed ones nowhere, the rest after Index's
 * leading ri - 1. */
static void nd_dims_to(int r, int k, int ri, int *to) {
  for (int d = 0; d < RT_MAX_RANK; d++) to[d] = d < k || d >= r ? -1 : ri - 1 + d - k;
}

static int infer_gather_nd(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *idx = ctx_need(c, "Index", 0);
  if (!x || !idx) return -1;
  const Shape *is = &idx->shape;
  int64_t k = is->rank ? is->d[is->rank - 1] : 0;
  if (is->rank == 0 || k < 0 || k > x->shape.rank)
    return ctx_fail(c, "Index %s does not fit X %s", shape_str(is), shape_str(&x->shape));
  Shape s = {0, {0}};
  for (int i = 0; i < is->rank - 1; i++) s.d[s.rank++] = is->d[i];
  for (int i = (int)k; i < x->shape.rank; i++) {
    if (s.rank >= RT_MAX_RANK) return ctx_fail(c, "result has too many dims");
    s.d[s.rank++] = x->shape.d[i];
  }
  ctx_set(c, "Out", 0, &s, x->dtype);
  /* Index's rows counted at run time (paddle.nonzero's): Out has as many */
  if (var_runtime_mask(idx) >> (is->rank - 1) & 1)
    return ctx_fail(c, "the last dim of Index ('%s') is only known at run time", idx->name);
  if (!var_runtime_mask(x)) {
    ctx_pass_runtime_extent(c, idx, "Out", 0);
    return 0;
  }
  /* X's sizes the run gives (an image's height and width): those Index
   * addresses are checked at run time, the others are Out's after Index's */
  int to[RT_MAX_RANK];
  nd_dims_to(x->shape.rank, (int)k, is->rank, to);
  if (var_runtime_mask(idx) && (var_runtime_mask(x) >> k))
    return ctx_fail(c, "X ('%s') and Index ('%s') both have dims only the run knows; gather_nd takes those of one",
                    x->name, idx->name);
  if (var_runtime_mask(idx)) ctx_pass_runtime_extent(c, idx, "Out", 0);
  else ctx_pass_runtime_extents_to(c, x, "Out", 0, to);
  return 0;
}

static int infer_index_select(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *idx = ctx_need(c, "Index", 0);
  if (!x || !idx) return -1;
  int64_t d = attr_int(c->op, "dim", 0);
  int a = axis_norm(d, x->shape.rank);
  if (a < 0 || x->shape.rank == 0) return ctx_fail(c, "dim %lld is out of range", (long long)d);
  if (!(idx->shape.rank == 1 || (idx->shape.rank == 2 && idx->shape.d[1] == 1)))
    return ctx_fail(c, "Index %s must be [N] or [N, 1]", shape_str(&idx->shape));
  Shape s = x->shape;
  s.d[a] = idx->shape.d[0];
  ctx_set(c, "Out", 0, &s, x->dtype);
  return run_gathered(c, x, idx, a, 0);
}

static int infer_scatter(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *ids = ctx_need(c, "Ids", 0), *upd = ctx_need(c, "Updates", 0);
  if (!x || !ids || !upd) return -1;
  const Shape *is = &ids->shape, *us = &upd->shape;
  if (is->rank > 2 || (is->rank == 2 && is->d[1] != 1))
    return ctx_fail(c, "Ids %s must be 0-D, [N] or [N, 1]", shape_str(is));
  if (is->rank > 0) {
    if (us->rank != x->shape.rank)
      return ctx_fail(c, "Updates %s must have the rank of X %s", shape_str(us), shape_str(&x->shape));
    if (us->d[0] != is->d[0] && us->d[0] != DIM_UNKNOWN && is->d[0] != DIM_UNKNOWN)
      return ctx_fail(c, "Updates %s and Ids %s differ in dims[0]", shape_str(us), shape_str(is));
  }
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  return 0;
}

/* ---- emission ---- */

/* Bytes of one index element, or 0 after em_fail() when not int32/int64. */
static int index_bytes(EmitCtx *e, const Var *idx) {
  if (idx->dtype == RT_DT_INT32) return 4;
  if (idx->dtype == RT_DT_INT64) return 8;
  em_fail(e, "Index is %s; int32 or int64 expected", rt_dtype_name(idx->dtype));
  return 0;
}

/* Out = the slices of X along `axis` that Index names. */
static int emit_gather_axis(EmitCtx *e, int64_t axis) {
  Var *x = tu_in(e, "X", 0), *idx = tu_in(e, "Index", 0), *out = tu_out(e, "Out", 0);
  if (!x || !idx || !out) return -1;
  int r = tu_rank(e, x), ib = index_bytes(e, idx);
  int a = axis_norm(axis, r); /* in range: the shape rules of gather and index_select checked it */
  if (!ib) return -1;
  const char *row = tu_mul(em_prod(e, x, a + 1, r), pool_printf("(int64_t)sizeof(%s)", em_ctype(x->dtype)));
  const char *n = em_spec(e, x)->runtime_mask >> a & 1 ? pool_printf("X's dim %d in this run", a) : em_dim(e, x, a);
  em_fault(e, pool_printf("an Index value is outside [0, %s) (Paddle raises an error)", n));
  index_print_c(e->p, &(IndexCall){.kind = INDEX_GATHER, .src = em_ptr(e, x, 1), .outer = em_prod(e, x, 0, a),
                                   .n = em_dim(e, x, a), .row = row, .index = em_ptr(e, idx, 1), .index_bytes = ib,
                                   .count = em_numel(e, idx), .dst = em_ptr(e, out, 0)});
  return 0;
}

/* gather along the axis Axis gives when the kernel runs (Out within the
 * bound run_axis_bound proved): one case per axis, with the slices before
 * it, its dim, a slice's bytes and Out's dims. */
static int emit_run_axis(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *idx = tu_in(e, "Index", 0), *out = tu_out(e, "Out", 0);
  if (!x || !idx || !out) return -1;
  const int ib = index_bytes(e, idx);
  const char *axis = tu_run_axis(e, "Axis");
  if (!ib || !axis) return -1;
  const Shape *in = &x->shape;
  const int orank = tu_rank(e, out);
  const char *dims[RT_MAX_RANK];
  pr_line(e->p, "/* the axis Paddle's kernel takes when it runs, from Axis */");
  pr_line(e->p, "int64_t outer = 0, n = 0, row = 0;");
  for (int d = 0; d < orank; d++) pr_line(e->p, "int64_t dim%d = 0;", d), dims[d] = pool_printf("dim%d", d);
  pr_line(e->p, "switch (%s) {", axis);
  for (int k = 0; k < in->rank; k++) {
    Shape o = gathered(in, &idx->shape, k);
    const char *set = pool_printf("outer = %lld, n = %lld, row = %lld", (long long)dims_prod(in, 0, k),
                                  (long long)in->d[k],
                                  (long long)(dims_prod(in, k + 1, in->rank) * rt_dtype_size(x->dtype)));
    for (int d = 0; d < o.rank; d++) set = pool_printf("%s, dim%d = %lld", set, d, (long long)o.d[d]);
    pr_line(e->p, "case %d: %s; break;", k, set);
  }
  pr_line(e->p, "default: return 1; /* outside [0, rank) */");
  pr_line(e->p, "}");
  tu_set_extents(e, out, dims, orank, "an axis from Axis outside [0, rank) (Paddle 2.6 reads past X's dims), or an "
                                      "Index value outside [0, the axis' dim) (Paddle raises an error)");
  index_print_c(e->p, &(IndexCall){.kind = INDEX_GATHER, .src = em_ptr(e, x, 1), .outer = "outer", .n = "n",
                                   .row = "row", .index = em_ptr(e, idx, 1), .index_bytes = ib,
                                   .count = em_numel(e, idx), .dst = em_ptr(e, out, 0)});
  return 0;
}

static int emit_gather(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *at = ctx_in(&c, "Axis", 0);
  int64_t axis = attr_int(e->op, "axis", 0);
  if (at && ctx_int_values(&c, at, &axis, 1) != 1) {
    if (tu_max_shaped(e, tu_out(e, "Out", 0))) return emit_run_axis(e);
    return em_fail(e, "the axis comes from a tensor (input Axis) whose value only the run knows, which is "
                      "supported only with X's and Index's dims fixed (--shape)");
  }
  if (!at && attr_is_var(e->op, "axis"))
    return em_fail(e, "the axis comes from a tensor (attribute axis), which is not supported");
  return emit_gather_axis(e, axis);
}

static int emit_index_select(EmitCtx *e) { return emit_gather_axis(e, attr_int(e->op, "dim", 0)); }

static int emit_gather_nd(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *idx = tu_in(e, "Index", 0), *out = tu_out(e, "Out", 0);
  if (!x || !idx || !out) return -1;
  int r = tu_rank(e, x), ri = tu_rank(e, idx), ib = index_bytes(e, idx);
  if (!ib) return -1;
  int64_t k = ri ? em_const_dim(e, idx, ri - 1) : -1;
  if (k < 0 || k > r) return em_fail(e, "Index's last dim must be a constant <= rank(X)");
  const char *dims[RT_MAX_RANK];
  for (int i = 0; i < k; i++) dims[i] = em_dim(e, x, i);
  const char *slice = tu_mul(em_prod(e, x, (int)k, r), pool_printf("(int64_t)sizeof(%s)", em_ctype(x->dtype)));
  em_fault(e, "an Index row addresses a slice outside X (Paddle raises an error)");
  move_print_c(e->p, &(MoveCall){.kind = MOVE_GATHER_ND, .src = em_ptr(e, x, 1), .rank = (int)k, .dims = dims,
                                  .row_bytes = slice, .index = em_ptr(e, idx, 1), .index_bytes = ib,
                                  .count = em_prod(e, idx, 0, ri - 1), .dst = em_ptr(e, out, 0)});
  return 0;
}

static int emit_scatter(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *ids = tu_in(e, "Ids", 0), *upd = tu_in(e, "Updates", 0), *out = tu_out(e, "Out", 0);
  if (!x || !ids || !upd || !out) return -1;
  if (!index_bytes(e, ids)) return -1;
  if (upd->dtype != x->dtype) return em_fail(e, "X and Updates differ in dtype");
  if (upd == out || ids == out) return em_fail(e, "Out is Ids or Updates, which is not supported");
  int r = tu_rank(e, x), ri = tu_rank(e, ids);
  if (r == 0) return em_fail(e, "X is 0-D");
  /* a row of Out: X.dims[1:], which Updates' rows (or, for 0-D Ids, all of it) must match */
  SymDim row = em_sym_prod(e, x, 1, r);
  SymDim urow = ri ? em_sym_prod(e, upd, 1, tu_rank(e, upd)) : spec_numel(em_spec(e, upd));
  if (row.a != urow.a || row.c != urow.c) return em_fail(e, "a row of Updates does not match a row of X");
  if (tu_copy(e, x, out)) return -1;
  em_fault(e, "an Ids value is outside [0, X's dim 0) (Paddle raises an error, or writes past X)");
  index_print_c(e->p, &(IndexCall){.kind = INDEX_SCATTER, .type = em_ctype(x->dtype),
                                   .index_type = em_ctype(ids->dtype), .index = em_ptr(e, ids, 1),
                                   .src = em_ptr(e, upd, 1), .dst = em_ptr(e, out, 0),
                                   .overwrite = attr_bool(e->op, "overwrite", 1), .count = ri ? em_dim(e, ids, 0) : "1",
                                   .rows = em_dim(e, x, 0), .row = em_prod(e, x, 1, r)});
  return 0;
}

const OpDef op_gather = {.type = "gather", .infer = infer_gather, .emit_c = emit_gather, .runtime_extents = 2};
const OpDef op_gather_nd = {.type = "gather_nd", .infer = infer_gather_nd, .emit_c = emit_gather_nd,
                            .runtime_extents = 2};
const OpDef op_index_select = {.type = "index_select", .infer = infer_index_select, .emit_c = emit_index_select,
                               .runtime_extents = 2};
const OpDef op_scatter = {.type = "scatter", .infer = infer_scatter, .emit_c = emit_scatter};

/* gather_nd_grad (X, Index, Out@GRAD -> X@GRAD; phi GatherNdGradKernel's
 * ScatterNdAdd): X@GRAD starts at zeros and each slice of Out@GRAD is added
 * to the slice of X@GRAD its index tuple (the last dim of Index) names, in
 * index order.  A tuple outside X's dims, for which Paddle raises an error
 * (negative indices too), adds nothing, as the forward op reads zeros
 * there.  X gives only the shape. */
static int emit_gather_nd_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *idx = tu_in(e, "Index", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !idx || !dout || !dx) return -1;
  if (!index_bytes(e, idx)) return -1;
  if (dout->dtype != dx->dtype || (dx->dtype != RT_DT_FP32 && dx->dtype != RT_DT_FP64))
    return em_fail(e, "X@GRAD must be float32 or float64 with Out@GRAD's dtype");
  int r = tu_rank(e, dx), ri = tu_rank(e, idx);
  int64_t k = ri ? em_const_dim(e, idx, ri - 1) : -1;
  if (k < 0 || k > r) return em_fail(e, "Index's last dim must be a constant <= rank(X)");
  const char **dims = pool_alloc(sizeof *dims * (size_t)(k + 1));
  for (int j = 0; j < k; j++) dims[j] = em_dim(e, dx, j);
  index_print_c(e->p, &(IndexCall){.kind = INDEX_GATHER_ND_GRAD, .type = em_ctype(dx->dtype),
                                   .index_type = em_ctype(idx->dtype), .index = em_ptr(e, idx, 1),
                                   .src = em_ptr(e, dout, 1), .dst = em_ptr(e, dx, 0),
                                   .rows = em_prod(e, idx, 0, ri - 1), .slice = em_prod(e, dx, (int)k, r),
                                   .numel = em_numel(e, dx), .k = (int)k, .dims = dims});
  return 0;
}

const OpDef op_gather_nd_grad = {.type = "gather_nd_grad", .infer = grad_infer, .emit_c = emit_gather_nd_grad,
                                 .runtime_extents = 2};

/* gather_grad and index_select_grad (X, Index, Out@GRAD -> X@GRAD; phi
 * GatherGradKernel's ScatterAssignAdd / GatherV2GradFunction and
 * IndexSelectGradKernel): X@GRAD, viewed as [outer, n, inner] around the
 * axis, starts at zeros and row i of each Out@GRAD block is added to row
 * Index[i], in index order; an index outside [0, n), for which Paddle raises
 * an error, adds nothing.  X gives only the shape. */
static int emit_gather_grad_axis(EmitCtx *e, int64_t axis) {
  Var *x = tu_in(e, "X", 0), *idx = tu_in(e, "Index", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !idx || !dout || !dx) return -1;
  int r = tu_rank(e, x), a = axis_norm(axis, r);
  if (!index_bytes(e, idx)) return -1;
  if (a < 0 || r == 0) return em_fail(e, "axis %lld is out of range", (long long)axis);
  if (dout->dtype != dx->dtype || (dx->dtype != RT_DT_FP32 && dx->dtype != RT_DT_FP64))
    return em_fail(e, "X@GRAD must be float32 or float64 with Out@GRAD's dtype");
  index_print_c(e->p, &(IndexCall){.kind = INDEX_GATHER_GRAD, .type = em_ctype(dx->dtype),
                                   .index_type = em_ctype(idx->dtype), .index = em_ptr(e, idx, 1),
                                   .src = em_ptr(e, dout, 1), .dst = em_ptr(e, dx, 0), .outer = em_prod(e, x, 0, a),
                                   .n = em_dim(e, x, a), .inner = em_prod(e, x, a + 1, r), .count = em_numel(e, idx)});
  return 0;
}

/* Paddle 2.6's GatherV2GradFunction (axis != 0) reads Out@GRAD's first
 * block for every block of the dims before the axis (input_data[j * outer +
 * k], i unused): its gradient is right only where those dims hold one
 * block, and paddlec refuses the rest rather than compute another answer. */
static int emit_gather_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  if (ctx_in(&c, "Axis", 0) || attr_is_var(e->op, "axis"))
    return em_fail(e, "the axis comes from a tensor (input Axis), which is not supported");
  int64_t axis = attr_int(e->op, "axis", 0);
  Var *x = tu_in(e, "X", 0);
  if (!x) return -1;
  int a = axis_norm(axis, tu_rank(e, x));
  SymDim lead = a > 0 ? em_sym_prod(e, x, 0, a) : (SymDim){0, 1};
  if (lead.a != 0 || lead.c != 1)
    return em_fail(e, "axis %lld with dims before it of more than one element: Paddle 2.6's CPU gather_grad "
                   "reads only Out@GRAD's first block of them; refused", (long long)axis);
  return emit_gather_grad_axis(e, axis);
}

static int emit_index_select_grad(EmitCtx *e) { return emit_gather_grad_axis(e, attr_int(e->op, "dim", 0)); }

const OpDef op_gather_grad = {.type = "gather_grad", .infer = grad_infer, .emit_c = emit_gather_grad,
                              .runtime_extents = 2};
const OpDef op_index_select_grad = {.type = "index_select_grad", .infer = grad_infer,
                                    .emit_c = emit_index_select_grad, .runtime_extents = 2};

/* The shape rule of scatter_grad and scatter_nd_add_grad, which have no X:
 * X@GRAD takes Out@GRAD's shape, Updates@GRAD Updates'. */
static int infer_scatter_grad(OpCtx *c) {
  Var *dout = ctx_need(c, "Out@GRAD", 0), *upd = ctx_need(c, "Updates", 0);
  if (!dout || !upd) return -1;
  ctx_set(c, "X@GRAD", 0, &dout->shape, dout->dtype);
  ctx_set(c, "Updates@GRAD", 0, &upd->shape, upd->dtype);
  return 0;
}

/* scatter_grad (Ids, Updates, Out@GRAD -> X@GRAD, Updates@GRAD, either
 * may be absent; phi ScatterGradKernel, the same for both values of
 * overwrite): X@GRAD = Out@GRAD with the rows Ids names zeroed
 * (CPUScatterGradForX); row i of Updates@GRAD = row Ids[i] of Out@GRAD
 * (CPUGather; zeros for a row outside [0, X.dims[0]), where Paddle raises
 * an error).  Updates gives only the shape. */
static int emit_scatter_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *ids = tu_in(e, "Ids", 0), *upd = tu_in(e, "Updates", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *du = ctx_out(&c, "Updates@GRAD", 0);
  if (!ids || !upd || !dout) return -1;
  if ((dx && !tu_out(e, "X@GRAD", 0)) || (du && !tu_out(e, "Updates@GRAD", 0))) return -1;
  if (!index_bytes(e, ids)) return -1;
  if ((dout->dtype != RT_DT_FP32 && dout->dtype != RT_DT_FP64) || (dx && dx->dtype != dout->dtype) ||
      (du && du->dtype != dout->dtype))
    return em_fail(e, "the gradients must be float32 or float64 with Out@GRAD's dtype");
  (void)attr_bool(e->op, "overwrite", 1); /* both values have the same gradient */
  int r = tu_rank(e, dout), ri = tu_rank(e, ids);
  if (r == 0) return em_fail(e, "Out@GRAD is 0-D");
  SymDim row = em_sym_prod(e, dout, 1, r);
  SymDim urow = ri ? em_sym_prod(e, upd, 1, tu_rank(e, upd)) : spec_numel(em_spec(e, upd));
  if (row.a != urow.a || row.c != urow.c) return em_fail(e, "a row of Updates does not match a row of Out@GRAD");
  index_print_c(e->p, &(IndexCall){.kind = INDEX_SCATTER_GRAD, .type = em_ctype(dout->dtype),
                                   .index_type = em_ctype(ids->dtype), .index = em_ptr(e, ids, 1),
                                   .src = em_ptr(e, dout, 1), .dst = dx ? em_ptr(e, dx, 0) : NULL,
                                   .dupd = du ? em_ptr(e, du, 0) : NULL, .count = ri ? em_dim(e, ids, 0) : "1",
                                   .rows = em_dim(e, dout, 0), .row = em_prod(e, dout, 1, r)});
  return 0;
}

const OpDef op_scatter_grad = {.type = "scatter_grad", .infer = infer_scatter_grad, .emit_c = emit_scatter_grad};

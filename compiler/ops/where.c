/* where, where_index.
 *   where: Condition, X, Y -> Out; the three have one shape (Python
 *     broadcasts them beforehand); Out has X's dims and dtype.
 *   where_index (paddle.nonzero): Condition -> Out, int64 [-1,
 *     rank(Condition)] (rank >= 1, Paddle's check): the coordinates of the
 *     elements that convert to true (NaN does, -0.0 does not), in row-major
 *     order; their count is known at run time.  While specializing, Out is
 *     sized for every element and its dim 0 is a run-time extent (graph.h
 *     VAR_RUNTIME_EXTENT) the kernel writes.
 * Emission (where): one element-wise loop (where_call.h); Condition, X
 * and Y must have Out's shape (Python broadcasts them before the op).
 * Dims the run gives, on the same dims of all three, are Out's; where
 * they come from different producers the run checks they agree.
 * where_index: bool, int16, int32, int64, float32, float64 (Paddle's CPU
 * kernels but bfloat16; select_call.h). */
#include <string.h>

#include "ops.h"
#include "select_call.h"
#include "tensor_util.h"
#include "where_call.h"

static int infer_where(OpCtx *c) {
  Var *cond = ctx_need(c, "Condition", 0), *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!cond || !x || !y) return -1;
  if (cond->shape.rank != x->shape.rank || x->shape.rank != y->shape.rank)
    return ctx_fail(c, "Condition %s, X %s and Y %s differ in rank", shape_str(&cond->shape),
                    shape_str(&x->shape), shape_str(&y->shape));
  const unsigned run = var_runtime_mask(x);
  if (var_runtime_mask(cond) != run || var_runtime_mask(y) != run)
    return ctx_fail(c, "Condition ('%s'), X ('%s') and Y ('%s') have dims only the run gives on different dims: "
                    "where takes them on the same dims of all three", cond->name, x->name, y->name);
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_pass_runtime_extent(c, x, "Out", 0); /* the run checks Condition's and Y's against them (emit_where) */
  return 0;
}

static int infer_where_index(OpCtx *c) {
  Var *cond = ctx_need(c, "Condition", 0);
  if (!cond) return -1;
  if (cond->shape.rank < 1) return ctx_fail(c, "Condition must have rank >= 1 (Paddle's check), got 0-D");
  Shape s = {2, {DIM_UNKNOWN, cond->shape.rank}};
  if (c->g->specializing) s.d[0] = shape_numel(&cond->shape);
  ctx_set(c, "Out", 0, &s, RT_DT_INT64);
  if (c->g->specializing && s.d[0] >= 0)
    ctx_set_runtime_extent(c, "Out", 0, 0, "Condition (the elements that are not 0)");
  return 0;
}

static int emit_where_index(EmitCtx *e) {
  Var *cond = tu_in(e, "Condition", 0), *out = tu_out(e, "Out", 0);
  if (!cond || !out) return -1;
  const int dt = cond->dtype;
  if (dt != RT_DT_BOOL && dt != RT_DT_INT16 && dt != RT_DT_INT32 && dt != RT_DT_INT64 && dt != RT_DT_FP32 &&
      dt != RT_DT_FP64)
    return em_fail(e, "where_index of %s is not supported (bool, int16, int32, int64, float32, float64)",
                   rt_dtype_name(dt));
  SelectCall s = {.kind = SELECT_NONZERO, .ctype = em_ctype(dt), .rank = tu_rank(e, cond), .cond = em_ptr(e, cond, 1),
                  .out = em_ptr(e, out, 0), .rows = em_dim(e, out, 0)};
  for (int d = 0; d < s.rank; d++) s.dims[d] = em_dim(e, cond, d);
  select_print_c(e->p, &s);
  return 0;
}

static int emit_where(EmitCtx *e) {
  Var *cond = tu_in(e, "Condition", 0), *x = tu_in(e, "X", 0), *y = tu_in(e, "Y", 0), *out = tu_out(e, "Out", 0);
  if (!cond || !x || !y || !out) return -1;
  const VarSpec *os = em_spec(e, out); /* X's shape and dtype (the shape rule) */
  const Var *ins[2] = {cond, y};
  for (int i = 0; i < 2; i++) {
    const VarSpec *s = em_spec(e, ins[i]);
    if (s->rank != os->rank || memcmp(s->d, os->d, sizeof(SymDim) * (size_t)os->rank))
      return em_fail(e, "Condition, X and Y must have Out's shape (broadcasting is not supported)");
  }
  if (cond->dtype != RT_DT_BOOL || y->dtype != out->dtype)
    return em_fail(e, "Condition must be bool, X and Y of Out's dtype");
  tu_bcast_extents(e, out, 3, (const Var *const[]){x, cond, y}, (const int64_t[]){-1, -1, -1});
  where_print_c(e->p, &(WhereCall){.kind = WHERE_FORWARD, .type = em_ctype(out->dtype), .cond = em_ptr(e, cond, 1),
                                   .x = em_ptr(e, x, 1), .y = em_ptr(e, y, 1), .out = em_ptr(e, out, 0),
                                   .numel = em_numel(e, out)});
  return 0;
}

/* where_grad (Condition, X, Y, Out@GRAD -> X@GRAD, Y@GRAD; phi
 * WhereGradKernel): X@GRAD = Condition ? Out@GRAD : 0, Y@GRAD = Condition
 * ? 0 : Out@GRAD, each only when asked for; X and Y give only the shapes
 * (all one shape, as in the forward op). */
static int emit_where_grad(EmitCtx *e) {
  Var *cond = tu_in(e, "Condition", 0), *dout = tu_in(e, "Out@GRAD", 0);
  if (!cond || !dout) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  Var *dx = ctx_out(&c, "X@GRAD", 0), *dy = ctx_out(&c, "Y@GRAD", 0);
  if ((dx && !tu_out(e, "X@GRAD", 0)) || (dy && !tu_out(e, "Y@GRAD", 0))) return -1;
  if (cond->dtype != RT_DT_BOOL) return em_fail(e, "Condition must be bool");
  const VarSpec *os = em_spec(e, dout);
  const Var *vs[3] = {cond, dx, dy};
  for (int i = 0; i < 3; i++) {
    if (!vs[i]) continue;
    const VarSpec *s = em_spec(e, vs[i]);
    if (s->rank != os->rank || memcmp(s->d, os->d, sizeof(SymDim) * (size_t)os->rank) ||
        s->runtime_mask != os->runtime_mask)
      return em_fail(e, "Condition, X@GRAD and Y@GRAD must have Out@GRAD's shape (and its sizes the run gives)");
    if (i && vs[i]->dtype != dout->dtype) return em_fail(e, "X@GRAD and Y@GRAD must have Out@GRAD's dtype");
    if (i) tu_pass_extent(e, dout, vs[i]);
  }
  where_print_c(e->p, &(WhereCall){.kind = WHERE_GRAD, .type = em_ctype(dout->dtype), .cond = em_ptr(e, cond, 1),
                                   .dout = em_ptr(e, dout, 1), .dx = dx ? em_ptr(e, dx, 0) : NULL,
                                   .dy = dy ? em_ptr(e, dy, 0) : NULL, .numel = em_numel(e, dout)});
  return 0;
}

const OpDef op_where = {.type = "where", .infer = infer_where, .emit_c = emit_where, .runtime_extents = 2};
/* (Condition's dims the run gives: the kernel walks them, Out bounded by its elements) */
const OpDef op_where_index = {.type = "where_index", .infer = infer_where_index, .emit_c = emit_where_index,
                              .runtime_extents = 2};
/* X and Y give X@GRAD's and Y@GRAD's shapes only (grad_infer reads the one
 * whose gradient is wanted; phi WhereGradKernel reads neither's values). */
static const char *const where_grad_ignores[] = {"X", "Y", NULL};
const OpDef op_where_grad = {.type = "where_grad", .infer = grad_infer, .emit_c = emit_where_grad,
                             .ignores = where_grad_ignores, .runtime_extents = 2};

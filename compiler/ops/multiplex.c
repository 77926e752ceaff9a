/* multiplex (paddle.multiplex): X (candidates)*, Ids -> Out; no
 * attributes.  Row i of Out is row i of candidate Ids[i].
 * Shape rule (phi MultiplexInferMeta): the candidates have one shape, of
 * rank >= 2; Ids is [rows, 1] with the candidates' rows; Out is a
 * candidate's shape.
 * Emission (float32/64, int32/64, Paddle's CPU kernels): INDEX_MULTIPLEX,
 * an Ids value outside [0, candidates) stopping the run as Paddle raises.
 * Paddle's kernel reads Ids as int32: an int64 Ids (which the Python API
 * lets through) is refused, since Paddle reads its halves as indices.
 * multiplex_grad: Ids, Out@GRAD -> X@GRAD* (each optional): zeros, and
 * row i of Out@GRAD into candidate Ids[i]'s gradient. */
#include "../util.h"
#include "index_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_multiplex(OpCtx *c) {
  const int n = ctx_nin(c, "X");
  Var *ids = ctx_need(c, "Ids", 0), *x0 = n ? ctx_need(c, "X", 0) : NULL;
  if (!ids || !x0) return n ? -1 : ctx_fail(c, "X lists no candidates");
  const Shape *xs = &x0->shape;
  if (xs->rank < 2) return ctx_fail(c, "the candidates %s must have rank 2 or more", shape_str(xs));
  for (int k = 1; k < n; k++) {
    Var *x = ctx_need(c, "X", k);
    if (!x) return -1;
    if (!shape_equal(&x->shape, xs) || x->dtype != x0->dtype)
      return ctx_fail(c, "candidate %d '%s' %s %s differs from '%s' %s %s", k, x->name, rt_dtype_name(x->dtype),
                      shape_str(&x->shape), x0->name, rt_dtype_name(x0->dtype), shape_str(xs));
  }
  const Shape *is = &ids->shape;
  if (is->rank != 2 || (is->d[1] >= 0 && is->d[1] != 1) || (is->d[0] >= 0 && xs->d[0] >= 0 && is->d[0] != xs->d[0]))
    return ctx_fail(c, "Ids %s must be [rows, 1] of the candidates %s", shape_str(is), shape_str(xs));
  if (ids->dtype != RT_DT_INT32)
    return ctx_fail(c, "Ids ('%s') is %s: Paddle's kernel reads int32 (an int64 Ids is read as its halves)",
                    ids->name, rt_dtype_name(ids->dtype));
  ctx_set(c, "Out", 0, xs, x0->dtype);
  return 0;
}

static int mux_dtype(int dt) {
  return dt == RT_DT_FP32 || dt == RT_DT_FP64 || dt == RT_DT_INT32 || dt == RT_DT_INT64;
}

static int emit_multiplex(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  const int n = ctx_nin(&c, "X");
  Var *ids = tu_in(e, "Ids", 0), *out = tu_out(e, "Out", 0);
  if (!ids || !out) return -1;
  if (!mux_dtype(out->dtype)) return em_fail(e, "multiplex of %s tensors is not supported", rt_dtype_name(out->dtype));
  const char **list = pool_alloc(sizeof *list * (size_t)n);
  for (int k = 0; k < n; k++) {
    Var *x = tu_in(e, "X", k);
    if (!x) return -1;
    list[k] = em_ptr(e, x, 1);
  }
  index_print_c(e->p, &(IndexCall){.kind = INDEX_MULTIPLEX, .type = em_ctype(out->dtype), .index_type = "int32_t",
                                   .index = em_ptr(e, ids, 1), .dst = em_ptr(e, out, 0), .rows = em_dim(e, out, 0),
                                   .row = em_prod(e, out, 1, tu_rank(e, out)), .list = list, .nlist = n});
  em_fault(e, "an Ids value is outside [0, the candidates) (Paddle raises)");
  return 0;
}

const OpDef op_multiplex = {.type = "multiplex", .infer = infer_multiplex, .emit_c = emit_multiplex};

static int emit_multiplex_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  const int n = ctx_nout(&c, "X@GRAD");
  Var *ids = tu_in(e, "Ids", 0), *dout = tu_in(e, "Out@GRAD", 0);
  if (!ids || !dout) return -1;
  if (!mux_dtype(dout->dtype) || ids->dtype != RT_DT_INT32)
    return em_fail(e, "multiplex_grad of %s tensors (Ids %s) is not supported", rt_dtype_name(dout->dtype),
                   rt_dtype_name(ids->dtype));
  const char **list = pool_alloc(sizeof *list * (size_t)(n ? n : 1));
  for (int k = 0; k < n; k++) {
    Var *dx = ctx_out(&c, "X@GRAD", k);
    if (dx && (dx->dtype != dout->dtype || !shape_equal(&dx->shape, &dout->shape)))
      return em_fail(e, "X@GRAD %d '%s' is not Out@GRAD's dtype and shape", k, dx->name);
    list[k] = dx ? em_ptr(e, dx, 0) : NULL;
  }
  index_print_c(e->p, &(IndexCall){.kind = INDEX_MULTIPLEX_GRAD, .type = em_ctype(dout->dtype),
                                   .index_type = "int32_t", .index = em_ptr(e, ids, 1), .src = em_ptr(e, dout, 1),
                                   .rows = em_dim(e, dout, 0), .row = em_prod(e, dout, 1, tu_rank(e, dout)),
                                   .list = list, .nlist = n});
  return 0;
}

const OpDef op_multiplex_grad = {.type = "multiplex_grad", .infer = grad_infer, .emit_c = emit_multiplex_grad};

/* scatter_nd_add (paddle.scatter_nd_add): X, Index, Updates -> Out; no
 * attributes.
 * Shape rule (phi ScatterNdAddInferMeta): Index has rank >= 2 and its last
 * dim k <= rank(X); Updates = Index.dims[:-1] ++ X.dims[k:]; Out is X
 * (dims known only at run time are not checked).
 * Emission: phi ScatterNdAdd: Out = X, then for each of the
 * prod(Index.dims[:-1]) index tuples, the slice of X.dims[k:] it names
 * gets the matching slice of Updates added, tuples in order (repeated ones
 * add each time); k = 0 adds every slice to all of Out.  Paddle 2.6 raises
 * an error for a tuple outside X: the compiled code stops the run. */
#include "../util.h"
#include "index_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_scatter_nd_add(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *idx = ctx_need(c, "Index", 0), *u = ctx_need(c, "Updates", 0);
  if (!x || !idx || !u) return -1;
  const Shape *xs = &x->shape, *is = &idx->shape, *us = &u->shape;
  int64_t k = is->rank ? is->d[is->rank - 1] : -1;
  if (is->rank < 2 || k > xs->rank)
    return ctx_fail(c, "Index %s must have rank >= 2 and a last dim <= rank(X %s)", shape_str(is), shape_str(xs));
  if (k < 0) { /* Index's last dim is known only at run time: Out is still X's shape */
    ctx_set(c, "Out", 0, xs, x->dtype);
    return 0;
  }
  Shape want = {0, {0}};
  for (int i = 0; i < is->rank - 1; i++) want.d[want.rank++] = is->d[i];
  for (int i = (int)k; i < xs->rank; i++) {
    if (want.rank >= RT_MAX_RANK) return ctx_fail(c, "Updates would have too many dims");
    want.d[want.rank++] = xs->d[i];
  }
  if (!shape_agrees(&want, us))
    return ctx_fail(c, "Updates %s must be %s (Index.dims[:-1] ++ X.dims[%lld:])", shape_str(us), shape_str(&want),
                    (long long)k);
  ctx_set(c, "Out", 0, xs, x->dtype);
  return 0;
}

/* Prints scatter_nd_add's kernel or its grad's (kind) over Index's tuples
 * and the slices of `data` (X, or Out@GRAD of X's dims), the first k dims
 * of which a tuple indexes: src read, dst written. */
static void print_nd(EmitCtx *e, IndexKind kind, const Var *idx, const Var *data, const Var *src, const Var *dst,
                     int k) {
  int r = tu_rank(e, data), ri = tu_rank(e, idx);
  const char *dims[RT_MAX_RANK];
  for (int i = 0; i < k; i++) dims[i] = em_dim(e, data, i);
  IndexCall call = {.kind = kind, .type = em_ctype(data->dtype), .index_type = em_ctype(idx->dtype),
                    .index = em_ptr(e, idx, 1), .src = em_ptr(e, src, 1)};
  const char *written = em_ptr(e, dst, 0);
  if (kind == INDEX_SCATTER_ND_ADD) call.dst = written;
  else call.dupd = written;
  if (kind == INDEX_SCATTER_ND_ADD && k)
    em_fault(e, "an Index tuple names a slice outside X (Paddle raises an error)");
  call.count = em_prod(e, idx, 0, ri - 1), call.slice = em_prod(e, data, k, r), call.k = k, call.dims = dims;
  index_print_c(e->p, &call);
}

static int emit_scatter_nd_add(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *idx = tu_in(e, "Index", 0), *u = tu_in(e, "Updates", 0), *out = tu_out(e, "Out", 0);
  if (!x || !idx || !u || !out) return -1;
  if (u->dtype != x->dtype || out->dtype != x->dtype || x->dtype == RT_DT_BOOL)
    return em_fail(e, "scatter_nd_add of %s with %s into %s is not supported", rt_dtype_name(x->dtype),
                   rt_dtype_name(u->dtype), rt_dtype_name(out->dtype));
  if (idx->dtype != RT_DT_INT32 && idx->dtype != RT_DT_INT64)
    return em_fail(e, "Index is %s; int32 or int64 expected", rt_dtype_name(idx->dtype));
  if (u == out || idx == out) return em_fail(e, "Out is Index or Updates, which is not supported");
  int r = tu_rank(e, x), ri = tu_rank(e, idx);
  int64_t k = em_const_dim(e, idx, ri - 1);
  if (k < 0 || k > r) return em_fail(e, "Index's last dim must be a constant <= rank(X)");
  if (tu_copy(e, x, out)) return -1;
  print_nd(e, INDEX_SCATTER_ND_ADD, idx, x, u, out, (int)k);
  return 0;
}

const OpDef op_scatter_nd_add = {.type = "scatter_nd_add", .infer = infer_scatter_nd_add,
                                 .emit_c = emit_scatter_nd_add};

/* scatter_nd_add_grad's shape rule: the grad op has no X; X@GRAD takes
 * Out@GRAD's shape, Updates@GRAD Updates'. */
static int infer_scatter_nd_add_grad(OpCtx *c) {
  Var *dout = ctx_need(c, "Out@GRAD", 0), *upd = ctx_need(c, "Updates", 0);
  if (!dout || !upd) return -1;
  ctx_set(c, "X@GRAD", 0, &dout->shape, dout->dtype);
  ctx_set(c, "Updates@GRAD", 0, &upd->shape, upd->dtype);
  return 0;
}

/* scatter_nd_add_grad (Index, Updates, Out@GRAD -> X@GRAD, Updates@GRAD,
 * either may be absent; phi ScatterNdAddGradKernel): X@GRAD = Out@GRAD;
 * Updates@GRAD = gather_nd(Out@GRAD, Index) (CPUGatherNd): each slice takes
 * the slice of Out@GRAD its index tuple names, zeros for a tuple outside
 * X (where Paddle raises an error).  Updates gives only the shape. */
static int emit_scatter_nd_add_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *idx = tu_in(e, "Index", 0), *u = tu_in(e, "Updates", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *du = ctx_out(&c, "Updates@GRAD", 0);
  if (!idx || !u || !dout) return -1;
  if ((dx && !tu_out(e, "X@GRAD", 0)) || (du && !tu_out(e, "Updates@GRAD", 0))) return -1;
  if (idx->dtype != RT_DT_INT32 && idx->dtype != RT_DT_INT64)
    return em_fail(e, "Index is %s; int32 or int64 expected", rt_dtype_name(idx->dtype));
  if ((dout->dtype != RT_DT_FP32 && dout->dtype != RT_DT_FP64) || (dx && dx->dtype != dout->dtype) ||
      (du && du->dtype != dout->dtype))
    return em_fail(e, "the gradients must be float32 or float64 with Out@GRAD's dtype");
  if (dx && tu_copy(e, dout, dx)) return -1;
  if (!du) return 0;
  int r = tu_rank(e, dout), ri = tu_rank(e, idx);
  int64_t k = ri ? em_const_dim(e, idx, ri - 1) : -1;
  if (k < 0 || k > r) return em_fail(e, "Index's last dim must be a constant <= rank(X)");
  SymDim un = spec_numel(em_spec(e, u)), want = em_sym_prod(e, idx, 0, ri - 1), sl = em_sym_prod(e, dout, (int)k, r);
  if (want.a * sl.a != 0 || un.a != want.a * sl.c + want.c * sl.a || un.c != want.c * sl.c)
    return em_fail(e, "Updates does not have Index.dims[:-1] ++ X.dims[k:] elements");
  print_nd(e, INDEX_SCATTER_ND_ADD_GRAD, idx, dout, dout, du, (int)k);
  return 0;
}

const OpDef op_scatter_nd_add_grad = {.type = "scatter_nd_add_grad", .infer = infer_scatter_nd_add_grad,
                                      .emit_c = emit_scatter_nd_add_grad};

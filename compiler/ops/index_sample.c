/* index_sample: X [N, M], Index [N, K] (int32 or int64) -> Out [N, K];
 * no attributes.  Out[i][j] = X[i][Index[i][j]].
 * Shape rule (phi IndexSampleInferMeta): X and Index are 2-D with the same
 * first dim; Out has Index's dims and X's dtype.
 * Emission: a gather per row; an index outside [0, M), where Paddle raises
 * an error, stops the run. */
#include "ops.h"
#include "plane_call.h"
#include "tensor_util.h"

static int infer_index_sample(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *idx = ctx_need(c, "Index", 0);
  if (!x || !idx) return -1;
  if (x->shape.rank != 2 || idx->shape.rank != 2)
    return ctx_fail(c, "X %s and Index %s must be 2-D", shape_str(&x->shape), shape_str(&idx->shape));
  if (x->shape.d[0] >= 0 && idx->shape.d[0] >= 0 && x->shape.d[0] != idx->shape.d[0])
    return ctx_fail(c, "X %s and Index %s differ in rows", shape_str(&x->shape), shape_str(&idx->shape));
  ctx_set(c, "Out", 0, &idx->shape, x->dtype);
  return 0;
}

static int emit_index_sample(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *idx = tu_in(e, "Index", 0), *out = tu_out(e, "Out", 0);
  if (!x || !idx || !out) return -1;
  if (idx->dtype != RT_DT_INT32 && idx->dtype != RT_DT_INT64)
    return em_fail(e, "Index is %s; int32 or int64 expected", rt_dtype_name(idx->dtype));
  if (x->dtype != out->dtype) return em_fail(e, "X and Out differ in dtype");
  if (x == out) return em_fail(e, "Out is X itself (an in-place %s), which is not supported", e->op->type);
  if (tu_rank(e, x) != 2 || tu_rank(e, idx) != 2) return em_fail(e, "X and Index must be 2-D");
  em_fault(e, "an Index value is outside [0, X's dim 1) (Paddle raises an error)");
  plane_print_c(e->p, &(PlaneCall){.kind = PLANE_SAMPLE, .type = em_ctype(x->dtype), .index_type = em_ctype(idx->dtype),
                                   .rows = em_dim(e, idx, 0), .len = em_dim(e, idx, 1), .span = em_dim(e, x, 1),
                                   .index = em_ptr(e, idx, 1), .src = em_ptr(e, x, 1), .dst = em_ptr(e, out, 0)});
  return 0;
}

const OpDef op_index_sample = {.type = "index_sample", .infer = infer_index_sample, .emit_c = emit_index_sample};

/* index_sample_grad (X, Index, Out@GRAD -> X@GRAD; phi
 * IndexSampleGradKernel): X@GRAD starts at zeros and Out@GRAD[i][j] is
 * added to X@GRAD[i][Index[i][j]], in row-major order of Index (repeated
 * ids add each time).  An index outside [0, M), where Paddle raises an
 * error, adds nothing.  X gives only the shape. */
static int emit_index_sample_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *idx = tu_in(e, "Index", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !idx || !dout || !dx) return -1;
  if (idx->dtype != RT_DT_INT32 && idx->dtype != RT_DT_INT64)
    return em_fail(e, "Index is %s; int32 or int64 expected", rt_dtype_name(idx->dtype));
  if (dout->dtype != dx->dtype || (dx->dtype != RT_DT_FP32 && dx->dtype != RT_DT_FP64))
    return em_fail(e, "X@GRAD must be float32 or float64 with Out@GRAD's dtype");
  if (tu_rank(e, x) != 2 || tu_rank(e, idx) != 2) return em_fail(e, "X and Index must be 2-D");
  plane_print_c(e->p, &(PlaneCall){.kind = PLANE_SAMPLE_GRAD, .type = em_ctype(dx->dtype),
                                   .index_type = em_ctype(idx->dtype), .rows = em_dim(e, idx, 0),
                                   .len = em_dim(e, idx, 1), .span = em_dim(e, x, 1), .numel = em_numel(e, dx),
                                   .index = em_ptr(e, idx, 1), .src = em_ptr(e, dout, 1), .dst = em_ptr(e, dx, 0)});
  return 0;
}

const OpDef op_index_sample_grad = {.type = "index_sample_grad", .infer = grad_infer,
                                    .emit_c = emit_index_sample_grad};

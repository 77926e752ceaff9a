/* c_embedding and c_embedding_grad: the embedding of tensor parallelism,
 * where each process holds rows start_index .. start_index + V - 1 of the
 * vocabulary (phi CEmbeddingKernel / CEmbeddingGradKernel, CPU).
 *   c_embedding: W [V, D] (float32, float64), Ids [...] (int32, int64) ->
 *     Out Ids.dims + [D], dtype of W: row id - start_index of W where it
 *     is in [0, V), else zeros (the rows other processes hold).
 *     vocab_size (the whole vocabulary) plays no part in the CPU kernel.
 *   c_embedding_grad: W, Ids, Out@GRAD -> W@GRAD [V, D]: zeros, then each
 *     id's row of Out@GRAD added to row id - start_index where it is in
 *     [0, V), in id order.  (Paddle clears numel * 4 bytes, the size of its
 *     dtype enum: for float64 half the buffer starts uncleared; here all of
 *     it is zeros.) */
#include "../util.h"
#include "embed_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_c_embedding(OpCtx *c) {
  Var *w = ctx_need(c, "W", 0), *ids = ctx_need(c, "Ids", 0);
  if (!w || !ids) return -1;
  if (w->shape.rank != 2) return ctx_fail(c, "W has shape %s, expected rank 2", shape_str(&w->shape));
  if (ids->shape.rank + 1 > RT_MAX_RANK) return ctx_fail(c, "Ids %s has too many dims", shape_str(&ids->shape));
  Shape o = ids->shape;
  o.d[o.rank++] = w->shape.d[1];
  ctx_set(c, "Out", 0, &o, w->dtype);
  return 0;
}

/* The checks both emitters make; 0 or -1 after em_fail(). */
static int check_types(EmitCtx *e, const Var *w, const Var *ids) {
  if (ids->dtype != RT_DT_INT64 && ids->dtype != RT_DT_INT32)
    return em_fail(e, "Ids is %s; int32 or int64 expected", rt_dtype_name(ids->dtype));
  if (w->dtype != RT_DT_FP32 && w->dtype != RT_DT_FP64)
    return em_fail(e, "W is %s; float32 or float64 expected", rt_dtype_name(w->dtype));
  return 0;
}

/* start_index as a C literal. */
static const char *start_literal(EmitCtx *e) {
  return pool_printf("INT64_C(%lld)", (long long)attr_int(e->op, "start_index", 0));
}

static int emit_c_embedding(EmitCtx *e) {
  Var *w = tu_in(e, "W", 0), *ids = tu_in(e, "Ids", 0), *out = tu_out(e, "Out", 0);
  if (!w || !ids || !out || check_types(e, w, ids)) return -1;
  embed_print_c(e->p, &(EmbedCall){.kind = EMBED_C, .type = em_ctype(w->dtype), .ids_type = em_ctype(ids->dtype),
                                   .w = em_ptr(e, w, 1), .out = em_ptr(e, out, 0), .ids = em_ptr(e, ids, 1),
                                   .rows = em_dim(e, w, 0), .row = em_dim(e, w, 1),
                                   .count = em_numel(e, ids), .start = start_literal(e)});
  return 0;
}

static int emit_c_embedding_grad(EmitCtx *e) {
  Var *w = tu_in(e, "W", 0), *ids = tu_in(e, "Ids", 0), *dout = tu_in(e, "Out@GRAD", 0), *dw = tu_out(e, "W@GRAD", 0);
  if (!w || !ids || !dout || !dw || check_types(e, w, ids)) return -1;
  if (tu_rank(e, w) != 2) return em_fail(e, "W must be 2-D"); /* the forward's rule checked it; grad_infer does not */
  if (dout->dtype != w->dtype || dw->dtype != w->dtype) return em_fail(e, "Out@GRAD and W@GRAD must have W's dtype");
  embed_print_c(e->p, &(EmbedCall){.kind = EMBED_C_GRAD, .type = em_ctype(w->dtype), .dout = em_ptr(e, dout, 1),
                                   .dw = em_ptr(e, dw, 0), .dw_numel = em_numel(e, dw),
                                   .ids_type = em_ctype(ids->dtype), .ids = em_ptr(e, ids, 1), .rows = em_dim(e, w, 0), .row = em_dim(e, w, 1),
                                   .count = em_numel(e, ids), .start = start_literal(e)});
  return 0;
}

/* The whole vocabulary's size: the CPU kernels never read it. */
static const char *const c_embedding_attr_ignores[] = {"vocab_size", NULL};
const OpDef op_c_embedding = {.type = "c_embedding", .infer = infer_c_embedding, .emit_c = emit_c_embedding,
                              .attr_ignores = c_embedding_attr_ignores};
const OpDef op_c_embedding_grad = {.type = "c_embedding_grad", .infer = grad_infer, .emit_c = emit_c_embedding_grad,
                                   .attr_ignores = c_embedding_attr_ignores};

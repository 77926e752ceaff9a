/* The ops of sync_batch_norm on places (passes/sync_batch_norm.c), all
 * paddlec's own (Paddle has sync_batch_norm for GPUs only, as one op):
 *
 * X (and the grad sums' Y@GRAD, SavedMean, SavedVariance) float32 or
 * float64; the sums float64 in both (rt_batch_norm_sums[_f64]).
 *
 *   batch_norm_sums(X) -> Out: float64 [2C + 1], each channel's sum of x
 *     and of x^2 over this place's batch and its element count
 *     (rt_batch_norm_sums); attribute data_layout as batch_norm's.
 *   batch_norm_grad_sums(X, Y@GRAD, SavedMean, SavedVariance) -> Out:
 *     float64 [2C], each channel's sum(dy) and sum(dy * xhat) over this
 *     place (rt_batch_norm_grad_sums).
 *   place_sum(X) -> Out (the same var): X summed over every place of every
 *     process, in place order.  On one place it is X; on places the trainer
 *     stops every place at this kernel and sums (templates/places.c.in), so
 *     the kernel itself does nothing.
 *
 * batch_norm and batch_norm_grad then read the summed statistics through a
 * `Sums` slot (and the grad the forward's through `Count`): norm.c. */
#include <string.h>
#include <strings.h>

#include "../util.h"
#include "norm_call.h"
#include "ops.h"
#include "rt_kernels.h"

/* X's channel dim by data_layout (NCHW, or NHWC: the last). */
static int channel_dim(const Op *op, int rank) {
  return strcasecmp(attr_str(op, "data_layout", "NCHW"), "NHWC") ? 1 : rank - 1;
}

static int infer_sums(OpCtx *c, int grad) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  if (x->shape.rank < 2) return ctx_fail(c, "X must have rank 2 or more, not %s", shape_str(&x->shape));
  const int64_t ch = x->shape.d[channel_dim(c->op, x->shape.rank)];
  if (ch < 0) return ctx_fail(c, "the channel dim must be known");
  Shape s = {1, {grad ? 2 * ch : 2 * ch + 1}};
  ctx_set(c, "Out", 0, &s, RT_DT_FP64);
  return 0;
}

static int infer_bn_sums(OpCtx *c) { return infer_sums(c, 0); }
static int infer_bn_grad_sums(OpCtx *c) { return infer_sums(c, 1); }

/* x viewed as [outer, ch, inner] and the float64 sums var: 0, or -1 after
 * em_fail. */
static int sums_view(EmitCtx *e, const Var *x, const Var *out, int grad, const char **outer, int64_t *ch,
                     const char **inner) {
  if (!x || !out || (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || out->dtype != RT_DT_FP64)
    return em_fail(e, "needs a float32 or float64 X and a float64 Out");
  const int rank = em_spec(e, x)->rank, ci = channel_dim(e->op, rank);
  *ch = em_const_dim(e, x, ci);
  if (*ch < 0 || em_const_dim(e, out, 0) != 2 * *ch + (grad ? 0 : 1))
    return em_fail(e, "Out must hold %s per channel", grad ? "2 sums" : "2 sums and the count");
  *outer = em_prod(e, x, 0, ci);
  *inner = em_prod(e, x, ci + 1, rank);
  return 0;
}

static int emit_bn_sums(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  const Var *x = ctx_in(&c, "X", 0), *out = ctx_out(&c, "Out", 0);
  const char *outer, *inner;
  int64_t ch;
  if (sums_view(e, x, out, 0, &outer, &ch, &inner)) return -1;
  norm_print_c(e->p, &(NormCall){.kind = NORM_BATCH_SUMS, .f64 = x->dtype == RT_DT_FP64, .outer = outer, .c = ch,
                                  .inner = inner, .x = em_ptr(e, x, 1), .sums = em_ptr(e, out, 0)});
  return 0;
}

static int emit_bn_grad_sums(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  const Var *x = ctx_in(&c, "X", 0), *dy = ctx_in(&c, "Y@GRAD", 0), *out = ctx_out(&c, "Out", 0);
  const Var *mean = ctx_in(&c, "SavedMean", 0), *inv = ctx_in(&c, "SavedVariance", 0);
  const char *outer, *inner;
  int64_t ch;
  if (sums_view(e, x, out, 1, &outer, &ch, &inner)) return -1;
  if (!dy || !mean || !inv || dy->dtype != x->dtype || mean->dtype != x->dtype || inv->dtype != x->dtype)
    return em_fail(e, "needs Y@GRAD, SavedMean and SavedVariance of X's dtype (%s)", rt_dtype_name(x->dtype));
  norm_print_c(e->p, &(NormCall){.kind = NORM_BATCH_GRAD_SUMS, .f64 = x->dtype == RT_DT_FP64, .outer = outer,
                                  .c = ch, .inner = inner, .x = em_ptr(e, x, 1), .dy = em_ptr(e, dy, 1),
                                  .mean = em_ptr(e, mean, 1), .inv_std = em_ptr(e, inv, 1),
                                  .gsums = em_ptr(e, out, 0)});
  return 0;
}

static int infer_place_sum(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  return 0;
}

static int emit_place_sum(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  const Var *x = ctx_in(&c, "X", 0), *out = ctx_out(&c, "Out", 0);
  if (!x || x != out) return em_fail(e, "X and Out must be the same var");
  if (x->dtype != RT_DT_FP64 && x->dtype != RT_DT_FP32) return em_fail(e, "X must be float32 or float64");
  norm_print_c(e->p, &(NormCall){.kind = NORM_PLACE_SUM});
  em_wrote(e, out);
  return 0;
}

/* X's sizes the run gives: the sums run over the run's rows and pixels (outer, inner), Out has none */
const OpDef op_batch_norm_sums = {.type = "batch_norm_sums", .infer = infer_bn_sums, .emit_c = emit_bn_sums,
                                  .runtime_extents = 2};
const OpDef op_batch_norm_grad_sums = {.type = "batch_norm_grad_sums", .infer = infer_bn_grad_sums,
                                       .emit_c = emit_bn_grad_sums, .runtime_extents = 2};
const OpDef op_place_sum = {.type = "place_sum", .infer = infer_place_sum, .emit_c = emit_place_sum};

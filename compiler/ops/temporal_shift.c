/* temporal_shift (paddle.nn.functional.temporal_shift): X [N*T, C, H, W]
 * (NHWC: [N*T, H, W, C]) -> Out, X's dims and dtype; seg_num:INT (T, no
 * default), shift_ratio:FLOAT=0.25, data_format="NCHW".
 * Shape rule (phi TemporalShiftInferMeta): X has rank 4, seg_num > 0 and
 * 0 < shift_ratio < 0.5; Out shares X's meta.
 * Emission: Paddle's TemporalShiftFwNCHW / NHWC, element for element: with
 * c1 = (int)(C * shift_ratio) and c2 = (int)(C * 2 * shift_ratio) (float
 * products), channels [0, c1) take the previous segment's frame, [c1, c2)
 * the next one's, the rest their own; a frame outside the clip gives 0.
 * Paddle checks at run time that the batch is a multiple of seg_num; the
 * generated kernel cannot stop, so the frames of a trailing partial clip
 * read 0 where Paddle would have failed. */
#include <string.h>

#include "../util.h"
#include "ops.h"
#include "shift_call.h"
#include "tensor_util.h"

static int infer_temporal_shift(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  if (x->shape.rank != 4) return ctx_fail(c, "X %s must have rank 4", shape_str(&x->shape));
  if (attr_int(c->op, "seg_num", 0) <= 0) return ctx_fail(c, "seg_num must be positive");
  double r = attr_float(c->op, "shift_ratio", 0.25);
  if (!(r > 0 && r < 0.5)) return ctx_fail(c, "shift_ratio %g is not in (0, 0.5)", r);
  const int last = !strcmp(attr_str(c->op, "data_format", "NCHW"), "NHWC");
  if (var_runtime_mask(x) & (1u | 1u << (last ? 3 : 1)))
    return ctx_fail(c, "X ('%s') has its frames or channels only the run knows; %s takes the run's height and "
                    "width only", x->name, c->op->type);
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_pass_runtime_extent(c, x, "Out", 0);
  return 0;
}

/* The layout, sizes and channel bounds of v (X, Out@GRAD) into *call;
 * -1 after em_fail. */
static int shift_geometry(EmitCtx *e, const Var *v, ShiftCall *call) {
  const int last = !strcmp(attr_str(e->op, "data_format", "NCHW"), "NHWC");
  int64_t C = em_const_dim(e, v, last ? 3 : 1);
  if (C < 0 || em_bound_dim(e, v, 2) < 0 || em_bound_dim(e, v, last ? 1 : 3) < 0)
    return em_fail(e, "dims after the batch must not depend on it");
  const float ratio = (float)attr_float(e->op, "shift_ratio", 0.25);
  call->last = last, call->t = attr_int(e->op, "seg_num", 0), call->C = C;
  call->hw = em_prod(e, v, last ? 1 : 2, last ? 3 : 4); /* the run's height and width where it gives them */
  call->chw = tu_mul(pool_printf("%lld", (long long)C), call->hw);
  call->c1 = (int)((float)C * ratio), call->c2 = (int)((float)(C * 2) * ratio);
  return 0;
}

static int emit_temporal_shift(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (out->dtype != x->dtype) return em_fail(e, "X and Out differ in dtype");
  if (x == out) return em_fail(e, "Out is X itself, which is not supported");
  ShiftCall call = {.kind = SHIFT_FORWARD, .type = em_ctype(x->dtype)};
  if (shift_geometry(e, x, &call)) return -1;
  call.numel = em_numel(e, x), call.src = em_ptr(e, x, 1), call.dst = em_ptr(e, out, 0);
  shift_print_c(e->p, &call);
  return 0;
}

const OpDef op_temporal_shift = {.type = "temporal_shift", .infer = infer_temporal_shift,
                                 .emit_c = emit_temporal_shift, .runtime_extents = 2};

/* temporal_shift_grad (Out@GRAD -> X@GRAD, the forward's attributes; phi
 * TemporalShiftGradKernel, TemporalShiftBwNCHW / NHWC): X@GRAD starts at
 * zeros and each Out@GRAD element goes back to the X element the forward
 * read (channels [0, c1) from the previous frame, [c1, c2) from the next);
 * the shifts are one-to-one, so each X@GRAD element is written at most
 * once.  X@GRAD has Out@GRAD's dims. */
static int infer_temporal_shift_grad(OpCtx *c) {
  Var *dout = ctx_need(c, "Out@GRAD", 0);
  if (!dout) return -1;
  if (dout->shape.rank != 4) return ctx_fail(c, "Out@GRAD %s must have rank 4", shape_str(&dout->shape));
  ctx_set(c, "X@GRAD", 0, &dout->shape, dout->dtype);
  ctx_pass_runtime_extent(c, dout, "X@GRAD", 0); /* the run's height and width, the forward's */
  return 0;
}

static int emit_temporal_shift_grad(EmitCtx *e) {
  Var *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!dout || !dx) return -1;
  if (dout->dtype != dx->dtype || (dx->dtype != RT_DT_FP32 && dx->dtype != RT_DT_FP64))
    return em_fail(e, "X@GRAD must be float32 or float64 with Out@GRAD's dtype");
  if (dout == dx) return em_fail(e, "X@GRAD is Out@GRAD itself, which is not supported");
  ShiftCall call = {.kind = SHIFT_GRAD, .type = em_ctype(dx->dtype)};
  if (shift_geometry(e, dout, &call)) return -1;
  if (call.t <= 0) return em_fail(e, "seg_num must be positive");
  call.numel = em_numel(e, dx), call.src = em_ptr(e, dout, 1), call.dst = em_ptr(e, dx, 0);
  shift_print_c(e->p, &call);
  return 0;
}

const OpDef op_temporal_shift_grad = {.type = "temporal_shift_grad", .infer = infer_temporal_shift_grad,
                                      .emit_c = emit_temporal_shift_grad, .runtime_extents = 2};

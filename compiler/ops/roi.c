/* roi_align, roi_pool, psroi_pool: X [N, C, H, W], ROIs [R, 4] (xmin,
 * ymin, xmax, ymax), RoisNum? [N] (int32) ->
 *   roi_align: Out [R, C, pooled_height, pooled_width]; attrs
 *     pooled_height=1, pooled_width=1, spatial_scale=1, sampling_ratio=-1,
 *     aligned=false.
 *   roi_pool: Out and Argmax (int64) [R, C, pooled_height, pooled_width];
 *     attrs pooled_height=1, pooled_width=1, spatial_scale=1.
 *   psroi_pool: Out [R, output_channels, pooled_height, pooled_width], C =
 *     output_channels * pooled_height * pooled_width; attrs
 *     output_channels=1, pooled_height=1, pooled_width=1, spatial_scale=1.
 * Shape rules: phi RoiAlignInferMeta, RoiPoolInferMeta, PsroiPoolInferMeta.
 *
 * Emission (roi_call.h, runtime/rt_roi.h; phi roi_align_kernel.cc,
 * roi_pool_kernel.cc, psroi_pool_kernel.cc step for step): float32 and
 * float64 (roi_pool int32 too), X's channels fixed, its height and width
 * fixed or the run's (a feature map of an image of any size), R a batch
 * expression, a constant or a run-time extent (the RoIs
 * generate_proposals_v2 gives: Out's, and Argmax's, dim 0 is then the same
 * extent).  Each RoI's image comes from RoisNum;
 * counts that do not add up to R (Paddle then reads or writes past its
 * buffers) stop the run with an error.  Refused: ROIs without RoisNum (the
 * images are then the LoD of ROIs), roi_align of int32 (Paddle computes
 * its sample positions in size_t there), a RoisNum whose element count is
 * not X's batch (Paddle's kernels raise), an int64 RoisNum (Paddle 2.6.2's
 * roi_align raises for it too, though its kernel has a branch for it). */
#include <string.h>

#include "../util.h"
#include "ops.h"
#include "roi_call.h"
#include "tensor_util.h"

static int is_psroi(const Op *op) { return !strcmp(op->type, "psroi_pool"); }

static int infer_roi(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *rois = ctx_need(c, "ROIs", 0), *num = ctx_in(c, "RoisNum", 0);
  if (!x || !rois) return -1;
  const Shape *xs = &x->shape, *rs = &rois->shape;
  if (xs->rank != 4) return ctx_fail(c, "X %s must be [N, C, H, W]", shape_str(xs));
  if (rs->rank != 2 || (rs->d[1] >= 0 && rs->d[1] != 4))
    return ctx_fail(c, "ROIs %s must be [R, 4]", shape_str(rs));
  if (num && num->shape.rank != 1) return ctx_fail(c, "RoisNum %s must have rank 1", shape_str(&num->shape));
  const int64_t ph = attr_int(c->op, "pooled_height", 1), pw = attr_int(c->op, "pooled_width", 1);
  const double scale = attr_float(c->op, "spatial_scale", 1);
  if (ph <= 0 || pw <= 0 || !(scale > 0))
    return ctx_fail(c, "pooled_height %lld, pooled_width %lld and spatial_scale %g must be positive", (long long)ph,
                    (long long)pw, scale);
  int64_t channels = xs->d[1];
  if (is_psroi(c->op)) {
    channels = attr_int(c->op, "output_channels", 1);
    if (channels <= 1) /* PsroiPoolInferMeta's rule */
      return ctx_fail(c, "output_channels %lld must be greater than 1", (long long)channels);
    if (xs->d[1] >= 0 && xs->d[1] != channels * ph * pw)
      return ctx_fail(c, "X has %lld channels, not output_channels x pooled_height x pooled_width = %lld",
                      (long long)xs->d[1], (long long)(channels * ph * pw));
  }
  /* X's height and width may be the run's (a feature map of an image of any size) */
  if ((var_runtime_mask(x) & ~0xcu) || var_runtime_axis(num) >= 0) return ctx_refuse_runtime_extents(c);
  Shape o = {4, {rs->d[0], channels, ph, pw}};
  ctx_set(c, "Out", 0, &o, x->dtype);
  ctx_pass_runtime_extent(c, rois, "Out", 0); /* as many RoIs as the run gives */
  if (!strcmp(c->op->type, "roi_pool")) {
    ctx_set(c, "Argmax", 0, &o, RT_DT_INT64);
    ctx_pass_runtime_extent(c, rois, "Argmax", 0);
  }
  return 0;
}

static int emit_roi(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X", 0), *rois = tu_in(e, "ROIs", 0), *out = tu_out(e, "Out", 0);
  Var *num = ctx_in(&c, "RoisNum", 0);
  if (!x || !rois || !out) return -1;
  const int pool = !strcmp(e->op->type, "roi_pool"), ps = is_psroi(e->op), dt = x->dtype;
  const char *suffix = dt == RT_DT_FP32 ? "f32" : dt == RT_DT_FP64 ? "f64" : dt == RT_DT_INT32 && pool ? "i32" : NULL;
  if (!suffix || rois->dtype != dt)
    return em_fail(e, "%s of X %s and ROIs %s is not supported (both float32 or float64%s)", e->op->type,
                   rt_dtype_name(dt), rt_dtype_name(rois->dtype), pool ? ", or int32" : "");
  if (!num)
    return em_fail(e, "ROIs without RoisNum are not supported (the RoIs' images are then the LoD of ROIs '%s')",
                   rois->name);
  if (num->dtype != RT_DT_INT32) /* 2.6.2's roi_align too, though its kernel has an int64 branch (measured) */
    return em_fail(e, "RoisNum '%s' is %s: Paddle reads it as int32", num->name, rt_dtype_name(num->dtype));
  const SymDim images = em_spec(e, x)->d[0], counts = spec_numel(em_spec(e, num));
  if (images.a != counts.a || images.c != counts.c)
    return em_fail(e, "RoisNum '%s' has %s elements for %s images of X (Paddle's kernel requires one count per image)",
                   num->name, em_sym(counts), em_sym(images));
  const int64_t ch = em_const_dim(e, x, 1);
  if (ch < 0 || em_bound_dim(e, x, 2) < 0 || em_bound_dim(e, x, 3) < 0)
    return em_fail(e, "X's channels, height and width must not depend on the batch");
  const SymDim r = em_spec(e, rois)->d[0];
  RoiCall call = {.kind = pool ? ROI_POOL : ps ? ROI_PSROI : ROI_ALIGN, .suffix = suffix, .n = em_dim(e, x, 0),
                  .rois = em_dim(e, rois, 0), .channels = ch, .height = em_dim(e, x, 2), .width = em_dim(e, x, 3),
                  .pooled_height = attr_int(e->op, "pooled_height", 1),
                  .pooled_width = attr_int(e->op, "pooled_width", 1),
                  .spatial_scale = em_float(attr_float(e->op, "spatial_scale", 1))};
  if (!pool && !ps) {
    call.sampling_ratio = attr_int(e->op, "sampling_ratio", -1);
    call.aligned = attr_bool(e->op, "aligned", 0);
  }
  if (ps) call.output_channels = attr_int(e->op, "output_channels", 1);
  call.x = em_ptr(e, x, 1);
  call.boxes = em_ptr(e, rois, 1);
  call.num = em_ptr(e, num, 1);
  call.ids = em_scratch_named(e, "int32_t", "ids", (SymDim){r.a * 4, r.c * 4});
  call.out = em_ptr(e, out, 0);
  if (pool) {
    Var *argmax = ctx_out(&c, "Argmax", 0);
    if (argmax && argmax->dtype != RT_DT_INT64) return em_fail(e, "Argmax must be int64");
    const SymDim n = spec_numel(em_spec(e, out));
    call.argmax = argmax ? em_ptr(e, argmax, 0) : em_scratch_named(e, "int64_t", "argmax", (SymDim){n.a * 8, n.c * 8});
  }
  const int64_t size = rt_dtype_size(dt);
  if (!pool && !ps) call.acc = em_scratch_named(e, em_ctype(dt), "acc", (SymDim){0, ch * size});
  const char *why = pool_printf("RoisNum ('%s') does not add up to the rows of ROIs ('%s')", num->name, rois->name);
  em_fault(e, pool || ps ? why : pool_printf("%s, or a RoI has a negative size (aligned)", why));
  roi_print_c(e->p, &call);
  return 0;
}

const OpDef op_roi_align = {.type = "roi_align", .infer = infer_roi, .emit_c = emit_roi,
                            .runtime_extents = 2};
const OpDef op_roi_pool = {.type = "roi_pool", .infer = infer_roi, .emit_c = emit_roi,
                           .runtime_extents = 2};
const OpDef op_psroi_pool = {.type = "psroi_pool", .infer = infer_roi, .emit_c = emit_roi,
                             .runtime_extents = 2};

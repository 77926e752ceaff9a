/* generate_proposals_v2: Scores [N, A, H, W], BboxDeltas [N, 4A, H, W],
 *   ImShape [N, 2] (each image's height and width), Anchors and Variances
 *   [H, W, A, 4] (any shape of H*W*A*4 elements: Paddle views them as rows
 *   of 4) -> RpnRois [-1, 4], RpnRoiProbs [-1, 1] (the dtype of Scores),
 *   RpnRoisNum? [N] (int32).  attrs: pre_nms_topN, post_nms_topN,
 *   nms_thresh, min_size, eta, pixel_offset.  How many proposals each
 *   image gives is known only at run time.
 *
 * Compiled (float32, float64; phi generate_proposals_kernel.cc,
 * runtime/rt_proposals.h): while specializing, RpnRois and RpnRoiProbs are
 * sized for the most rows the attributes allow (per image: the candidates,
 * at most post_nms_topN when NMS runs, at least the one zero box Paddle
 * writes when no candidate is left) and their dim 0 is a run-time extent
 * (graph.h VAR_RUNTIME_EXTENT) the kernel writes.  Refused: ImShape,
 * Anchors or Variances of another dtype than Scores (Paddle's kernel reads
 * them as Scores' type: 2.6.2 raises), a feature map without anchors.
 *
 * distribute_fpn_proposals: FpnRois [R, 4], RoisNum? [N] (int32)
 *   -> MultiFpnRois[L] [-1, 4] (FpnRois' dtype), RestoreIndex [R, 1]
 *   (int32), MultiLevelRoIsNum?[L] [N] (int32), L = max_level - min_level +
 *   1.  attrs: min_level, max_level, refer_level, refer_scale, pixel_offset.
 * Compiled (float32, float64; phi distribute_fpn_proposals_kernel.cc): each
 * level sized for all R RoIs, its dim 0 a run-time extent; R may itself be
 * one (the RoIs generate_proposals_v2 keeps).  Counts in RoisNum that do not
 * add up to R stop the run with an error (Paddle then reads past FpnRois, or
 * distributes only the first RoIs).  Refused: FpnRois without RoisNum (the
 * images are then its LoD), an int64 RoisNum (2.6.2 raises: it reads it as
 * int32), more than RT_FPN_MAX_LEVELS levels, a refer_scale that is not
 * positive. */
#include "../util.h"
#include "detection_call.h"
#include "ops.h"
#include "rt_proposals.h"
#include "tensor_util.h"

/* The anchors per cell, feature map and the most rows an image gives, from
 * Scores [N, A, H, W]; -1 while any of them is unknown. */
static int64_t rows_per_image(const Op *op, const Shape *s) {
  for (int k = 1; k < 4; k++)
    if (s->d[k] < 0) return -1;
  return rt_proposals_per_image(s->d[1] * s->d[2] * s->d[3], (int)attr_int(op, "pre_nms_topN", 6000),
                                (int)attr_int(op, "post_nms_topN", 1000), (float)attr_float(op, "nms_thresh", 0.5));
}

static int infer_generate_proposals(OpCtx *c) {
  Var *scores = ctx_need(c, "Scores", 0), *deltas = ctx_need(c, "BboxDeltas", 0);
  Var *im = ctx_need(c, "ImShape", 0), *anchors = ctx_need(c, "Anchors", 0), *vars = ctx_need(c, "Variances", 0);
  if (!scores || !deltas || !im || !anchors || !vars) return -1;
  const Shape *s = &scores->shape, *d = &deltas->shape;
  if (s->rank != 4 || d->rank != 4 || im->shape.rank != 2)
    return ctx_fail(c, "Scores %s, BboxDeltas %s and ImShape %s must be [N, A, H, W], [N, 4A, H, W] and [N, 2]",
                    shape_str(s), shape_str(d), shape_str(&im->shape));
  for (int k = 1; k < 4; k++)
    if (s->d[k] >= 0 && d->d[k] >= 0 && d->d[k] != (k == 1 ? 4 * s->d[1] : s->d[k]))
      return ctx_fail(c, "BboxDeltas %s does not fit Scores %s (BboxDeltas [N, 4A, H, W])", shape_str(d),
                      shape_str(s));
  const int64_t m4 = s->d[1] >= 0 && s->d[2] >= 0 && s->d[3] >= 0 ? s->d[1] * s->d[2] * s->d[3] * 4 : -1;
  const int64_t an = shape_numel(&anchors->shape), vn = shape_numel(&vars->shape);
  if (m4 >= 0 && ((an >= 0 && an != m4) || (vn >= 0 && vn != m4)))
    return ctx_fail(c, "Anchors %s and Variances %s must hold 4 numbers per anchor of Scores %s (%lld)",
                    shape_str(&anchors->shape), shape_str(&vars->shape), shape_str(s), (long long)m4);
  const int64_t per = c->g->specializing && s->d[0] >= 0 ? rows_per_image(c->op, s) : -1;
  const int64_t rows = per >= 0 ? s->d[0] * per : DIM_UNKNOWN;
  Shape r = {2, {rows, 4}}, p = {2, {rows, 1}}, n = {1, {s->d[0]}};
  ctx_set(c, "RpnRois", 0, &r, scores->dtype);
  ctx_set(c, "RpnRoiProbs", 0, &p, scores->dtype);
  if (ctx_out(c, "RpnRoisNum", 0)) ctx_set(c, "RpnRoisNum", 0, &n, RT_DT_INT32);
  if (rows >= 0) {
    ctx_set_runtime_extent(c, "RpnRois", 0, 0, "scores (how many proposals each image gives)");
    ctx_set_runtime_extent(c, "RpnRoiProbs", 0, 0, "scores (how many proposals each image gives)");
  }
  return 0;
}

static int emit_generate_proposals(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *scores = tu_in(e, "Scores", 0), *deltas = tu_in(e, "BboxDeltas", 0), *im = tu_in(e, "ImShape", 0);
  Var *anchors = tu_in(e, "Anchors", 0), *vars = tu_in(e, "Variances", 0);
  Var *rois = tu_out(e, "RpnRois", 0), *probs = tu_out(e, "RpnRoiProbs", 0), *num = ctx_out(&c, "RpnRoisNum", 0);
  if (!scores || !deltas || !im || !anchors || !vars || !rois || !probs) return -1;
  const int dt = tu_float_dtype(e, (Var *const[]){scores, deltas, im, anchors, vars, rois, probs}, 7);
  if (dt < 0) return -1;
  if (num && num->dtype != RT_DT_INT32) return em_fail(e, "RpnRoisNum must be int32");
  const int64_t a = em_const_dim(e, scores, 1), h = em_const_dim(e, scores, 2), w = em_const_dim(e, scores, 3);
  if (a < 0 || h < 0 || w < 0) return em_fail(e, "the anchors and feature map must not depend on the batch");
  if (a * h * w == 0) return em_fail(e, "a feature map without anchors (Scores %s) is not supported",
                                     shape_str(&scores->shape));
  if (a * h * w > INT32_MAX) return em_fail(e, "anchors x feature map does not fit Paddle's int indexing");
  DetectionCall call = {.kind = DETECTION_GENERATE_PROPOSALS, .f64 = dt == RT_DT_FP64};
  call.n = em_dim(e, scores, 0);
  call.work = em_scratch_named(e, "unsigned char", "work",
                               (SymDim){0, RT_PROPOSALS_WORK_BYTES(a * h * w, dt == RT_DT_FP64 ? 8 : 4)});
  call.scores = em_ptr(e, scores, 1);
  call.deltas = em_ptr(e, deltas, 1);
  call.img_size = em_ptr(e, im, 1);
  call.anchors = em_ptr(e, anchors, 1);
  call.vars = em_ptr(e, vars, 1);
  call.out = em_ptr(e, rois, 0);
  call.probs = em_ptr(e, probs, 0);
  call.rois_num = num ? em_ptr(e, num, 0) : "NULL";
  call.rows = pool_printf("%s = %s", em_dim(e, rois, 0), em_dim(e, probs, 0));
  call.proposals = (DetectionProposals){.a = a, .h = h, .w = w,
                                        .pre_nms_top_n = attr_int(e->op, "pre_nms_topN", 6000),
                                        .post_nms_top_n = attr_int(e->op, "post_nms_topN", 1000),
                                        .nms_thresh = (float)attr_float(e->op, "nms_thresh", 0.5),
                                        .min_size = (float)attr_float(e->op, "min_size", 0.1),
                                        .eta = (float)attr_float(e->op, "eta", 1),
                                        .pixel_offset = attr_bool(e->op, "pixel_offset", 1)};
  detection_print_c(e->p, &call);
  return 0;
}

const OpDef op_generate_proposals_v2 = {.type = "generate_proposals_v2", .infer = infer_generate_proposals,
                                        .emit_c = emit_generate_proposals};

static int infer_distribute_fpn(OpCtx *c) {
  Var *rois = ctx_need(c, "FpnRois", 0), *num = ctx_in(c, "RoisNum", 0);
  if (!rois) return -1;
  const Shape *rs = &rois->shape;
  if (rs->rank != 2 || (rs->d[1] >= 0 && rs->d[1] != 4)) return ctx_fail(c, "FpnRois %s must be [R, 4]", shape_str(rs));
  if (num && num->shape.rank != 1) return ctx_fail(c, "RoisNum %s must have rank 1", shape_str(&num->shape));
  if (var_runtime_axis(num) >= 0) return ctx_refuse_runtime_extents(c);
  const int64_t lo = attr_int(c->op, "min_level", 0), hi = attr_int(c->op, "max_level", 0);
  const int64_t levels = hi - lo + 1, scale = attr_int(c->op, "refer_scale", 0);
  if (levels < 1 || levels > RT_FPN_MAX_LEVELS)
    return ctx_fail(c, "min_level %lld and max_level %lld give %lld levels (1 to %d are supported)", (long long)lo,
                    (long long)hi, (long long)levels, RT_FPN_MAX_LEVELS);
  if (scale <= 0) return ctx_fail(c, "refer_scale %lld must be positive", (long long)scale);
  if (ctx_nout(c, "MultiFpnRois") != levels)
    return ctx_fail(c, "%d MultiFpnRois for %lld levels (one per level from min_level to max_level)",
                    ctx_nout(c, "MultiFpnRois"), (long long)levels);
  const int counts = ctx_nout(c, "MultiLevelRoIsNum");
  if (counts && counts != levels)
    return ctx_fail(c, "%d MultiLevelRoIsNum for %lld levels", counts, (long long)levels);
  const int bounded = c->g->specializing && rs->d[0] >= 0;
  for (int l = 0; l < levels; l++) {
    Shape o = {2, {bounded ? rs->d[0] : DIM_UNKNOWN, 4}}, n = {1, {num ? num->shape.d[0] : DIM_UNKNOWN}};
    ctx_set(c, "MultiFpnRois", l, &o, rois->dtype);
    if (bounded) ctx_set_runtime_extent(c, "MultiFpnRois", l, 0, "FpnRois (how many RoIs each level gets)");
    if (counts) ctx_set(c, "MultiLevelRoIsNum", l, &n, RT_DT_INT32);
  }
  Shape r = {2, {rs->d[0], 1}};
  ctx_set(c, "RestoreIndex", 0, &r, RT_DT_INT32);
  ctx_pass_runtime_extent(c, rois, "RestoreIndex", 0);
  return 0;
}

static int emit_distribute_fpn(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *rois = tu_in(e, "FpnRois", 0), *num = ctx_in(&c, "RoisNum", 0), *restore = tu_out(e, "RestoreIndex", 0);
  if (!rois || !restore) return -1;
  const int dt = rois->dtype;
  if (dt != RT_DT_FP32 && dt != RT_DT_FP64)
    return em_fail(e, "FpnRois '%s' is %s: float32 or float64 is supported", rois->name, rt_dtype_name(dt));
  if (!num)
    return em_fail(e, "FpnRois without RoisNum is not supported (the RoIs' images are then the LoD of '%s')",
                   rois->name);
  if (num->dtype != RT_DT_INT32) /* measured: 2.6.2 raises for int64, though the kernel has a branch for it */
    return em_fail(e, "RoisNum '%s' is %s: Paddle reads it as int32", num->name, rt_dtype_name(num->dtype));
  if (restore->dtype != RT_DT_INT32) return em_fail(e, "RestoreIndex must be int32");
  const int levels = ctx_nout(&c, "MultiFpnRois"), counts = ctx_nout(&c, "MultiLevelRoIsNum");
  const char **outs = pool_alloc(sizeof(char *) * (size_t)levels), **rows = pool_alloc(sizeof(char *) * (size_t)levels);
  const char **nums = counts ? pool_alloc(sizeof(char *) * (size_t)levels) : NULL;
  DetectionCall call = {.kind = DETECTION_DISTRIBUTE_FPN, .f64 = dt == RT_DT_FP64};
  call.n = em_numel(e, num);
  call.nrows = em_dim(e, rois, 0);
  const SymDim r = em_spec(e, rois)->d[0];
  call.work = em_scratch_named(e, "int32_t", "level", (SymDim){r.a * 4, r.c * 4});
  call.boxes = em_ptr(e, rois, 1);
  call.fpn = (DetectionFpn){.min_level = (int)attr_int(e->op, "min_level", 0),
                            .max_level = (int)attr_int(e->op, "max_level", 0),
                            .refer_level = (int)attr_int(e->op, "refer_level", 0),
                            .refer_scale = (int)attr_int(e->op, "refer_scale", 0),
                            .pixel_offset = attr_bool(e->op, "pixel_offset", 1),
                            .num = em_ptr(e, num, 1)};
  for (int l = 0; l < levels; l++) {
    Var *o = ctx_out(&c, "MultiFpnRois", l);
    if (!o || o->dtype != dt) return em_fail(e, "MultiFpnRois must be %s like FpnRois", rt_dtype_name(dt));
    outs[l] = em_ptr(e, o, 0);
    rows[l] = em_dim(e, o, 0);
    if (nums) {
      Var *k = ctx_out(&c, "MultiLevelRoIsNum", l);
      if (!k || k->dtype != RT_DT_INT32) return em_fail(e, "MultiLevelRoIsNum must be int32");
      nums[l] = em_ptr(e, k, 0);
    }
  }
  call.fpn.rois = outs, call.fpn.nums = nums, call.fpn.rows = rows;
  call.fpn.restore = em_ptr(e, restore, 0);
  em_fault(e, pool_printf("RoisNum ('%s') does not add up to the rows of FpnRois ('%s')", num->name, rois->name));
  detection_print_c(e->p, &call);
  tu_pass_extent(e, rois, restore);
  return 0;
}

const OpDef op_distribute_fpn_proposals = {.type = "distribute_fpn_proposals", .infer = infer_distribute_fpn,
                                           .emit_c = emit_distribute_fpn, .runtime_extents = 1};

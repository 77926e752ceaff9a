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
 * (graph.h VAR_RUNTIME_EXTENT) the kernel writes.  The feature map's
 * height and width may be the run's (an image of any size): the rows are
 * then sized at their bounds, and the run checks that BboxDeltas has
 * Scores' map and Anchors and Variances 4 numbers per anchor.  Refused: ImShape,
 * Anchors or Variances of another dtype than Scores (Paddle's kernel reads
 * them as Scores' type: 2.6.2 raises), a feature map without anchors. */
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
  if ((var_runtime_mask(scores) | var_runtime_mask(deltas)) & ~0xcu || var_runtime_mask(im))
    return ctx_refuse_runtime_extents(c); /* the run's map, not anchors per cell or images */
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
  /* the map's bounds (the run's sizes are at most these) */
  const int64_t a = em_const_dim(e, scores, 1), h = em_bound_dim(e, scores, 2), w = em_bound_dim(e, scores, 3);
  if (a < 0 || h < 0 || w < 0) return em_fail(e, "the anchors and feature map must not depend on the batch");
  if (a * h * w == 0) return em_fail(e, "a feature map without anchors (Scores %s) is not supported",
                                     shape_str(&scores->shape));
  if (a * h * w > INT32_MAX) return em_fail(e, "anchors x feature map does not fit Paddle's int indexing");
  if (em_spec(e, scores)->runtime_mask || em_spec(e, deltas)->runtime_mask) {
    /* the run's map: BboxDeltas' the same, 4 numbers per anchor in Anchors and Variances */
    const char *hw = tu_mul(em_dim(e, scores, 2), em_dim(e, scores, 3));
    pr_line(e->p, "if (%s != %s || %s != %s) return 1;", em_dim(e, deltas, 2), em_dim(e, scores, 2),
            em_dim(e, deltas, 3), em_dim(e, scores, 3));
    pr_line(e->p, "if (%s != %lld * %s || %s != %lld * %s) return 1;", em_numel(e, anchors), (long long)(4 * a), hw,
            em_numel(e, vars), (long long)(4 * a), hw);
  }
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
  call.proposals = (DetectionProposals){.a = a, .h = em_dim(e, scores, 2), .w = em_dim(e, scores, 3),
                                        .pre_nms_top_n = attr_int(e->op, "pre_nms_topN", 6000),
                                        .post_nms_top_n = attr_int(e->op, "post_nms_topN", 1000),
                                        .nms_thresh = (float)attr_float(e->op, "nms_thresh", 0.5),
                                        .min_size = (float)attr_float(e->op, "min_size", 0.1),
                                        .eta = (float)attr_float(e->op, "eta", 1),
                                        .pixel_offset = attr_bool(e->op, "pixel_offset", 1)};
  detection_print_c(e->p, &call);
  if (em_spec(e, scores)->runtime_mask || em_spec(e, deltas)->runtime_mask)
    em_fault(e, pool_printf("BboxDeltas ('%s') has another feature map than Scores ('%s'), or Anchors ('%s') or "
                            "Variances ('%s') do not hold 4 numbers per anchor of it (Paddle raises an error)",
                            deltas->name, scores->name, anchors->name, vars->name));
  return 0;
}

const OpDef op_generate_proposals_v2 = {.type = "generate_proposals_v2", .infer = infer_generate_proposals,
                                        .emit_c = emit_generate_proposals, .runtime_extents = 2};

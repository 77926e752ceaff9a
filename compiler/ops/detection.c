/* Detection ops.
 * prior_box (PriorBoxInferMeta): Input [N,C,H,W], Image [N,C,IH,IW] ->
 *   Boxes, Variances [H, W, num_priors, 4] (dtype of Input).
 *   attrs: min_sizes (FLOATS), max_sizes=[], aspect_ratios=[], variances=[],
 *   flip=true, clip=true, step_w=0, step_h=0, offset=0.5,
 *   min_max_aspect_ratios_order=false.
 *   num_priors = |expanded aspect ratios| * |min_sizes| + |max_sizes|, where the
 *   expansion starts from 1.0, adds each new ratio (|a-b| < 1e-6 is "seen")
 *   and, with flip, its reciprocal.
 * density_prior_box: Input, Image -> Boxes, Variances [H, W, num_priors, 4], or
 *   [-1, 4] with flatten_to_2d (compile time); num_priors =
 *   sum(|fixed_ratios| * densities[i]^2).  attrs: variances, clip=true,
 *   flatten_to_2d=false, step_w=0, step_h=0, offset=0.5, fixed_sizes,
 *   fixed_ratios, densities.
 * box_coder (BoxCoderInferMeta): PriorBox [M,4], PriorBoxVar?, TargetBox ->
 *   OutputBox: encode_center_size [T.dims[0], M, 4]; decode_center_size
 *   TargetBox's shape; dtype of TargetBox.  attrs: code_type=
 *   "encode_center_size", box_normalized=true, axis=0, variance=[].
 * multiclass_nms, multiclass_nms2, multiclass_nms3: BBoxes [N,M,4+], Scores
 *   [N,C,M] (or LoD [M,C,4] / [M,C]), RoisNum? (nms3) -> Out [-1, box_dim+2]
 *   (LoD; dtype of BBoxes), Index [-1, 1] (int32; nms2, nms3), NmsRoisNum?
 *   [-1] (int32; nms3).  Before Paddle 2.3 (PR 40059) the first dim of Out
 *   and Index was M (BBoxes.dims[1]) when Scores has rank 3.
 *   nms attrs: background_label=0, score_threshold, nms_top_k, nms_threshold=0.3,
 *   nms_eta=1, keep_top_k, normalized=true.
 * yolo_box (YoloBoxInferMeta): X [N, A*(5+cls) (6+cls with iou_aware), H, W],
 *   ImgSize [N, 2] -> Boxes [N, H*W*A, 4], Scores [N, H*W*A, class_num] (box
 *   count -1 when H or W is unknown); dtype of X.  attrs: anchors (INTS, A
 *   pairs), class_num=1, conf_thresh=0.01, downsample_ratio=32,
 *   clip_bbox=true, scale_x_y=1, iou_aware=false, iou_aware_factor=0.5. */
#include <math.h>
#include <string.h>

#include "ops.h"

static int infer_prior_box(OpCtx *c) {
  Var *in = ctx_need(c, "Input", 0);
  if (!in) return -1;
  if (in->shape.rank != 4) return ctx_fail(c, "Input %s must have rank 4", shape_str(&in->shape));
  double *ar, *mins, *maxs;
  int nar = attr_floats(c->op, "aspect_ratios", &ar);
  int nmin = attr_floats(c->op, "min_sizes", &mins);
  int nmax = attr_floats(c->op, "max_sizes", &maxs);
  int flip = attr_bool(c->op, "flip", 1);
  float seen[64] = {1.0f};
  int nseen = 1;
  for (int i = 0; i < nar && nseen < 63; i++) { /* Paddle's ExpandAspectRatios */
    float a = (float)ar[i];
    int dup = 0;
    for (int j = 0; j < nseen; j++) dup |= fabsf(a - seen[j]) < 1e-6f;
    if (dup) continue;
    seen[nseen++] = a;
    if (flip) seen[nseen++] = 1.0f / a;
  }
  Shape o = {4, {in->shape.d[2], in->shape.d[3], (int64_t)nseen * nmin + nmax, 4}};
  ctx_set(c, "Boxes", 0, &o, in->dtype);
  ctx_set(c, "Variances", 0, &o, in->dtype);
  return 0;
}

static int infer_density_prior_box(OpCtx *c) {
  Var *in = ctx_need(c, "Input", 0);
  if (!in) return -1;
  if (in->shape.rank != 4) return ctx_fail(c, "Input %s must have rank 4", shape_str(&in->shape));
  double *ratios;
  int64_t *dens;
  int nratio = attr_floats(c->op, "fixed_ratios", &ratios);
  int nden = attr_ints(c->op, "densities", &dens);
  int64_t num = 0;
  for (int i = 0; i < nden; i++) num += nratio * dens[i] * dens[i];
  Shape o = {4, {in->shape.d[2], in->shape.d[3], num, 4}};
  if (attr_bool(c->op, "flatten_to_2d", 0)) o = (Shape){2, {DIM_UNKNOWN, 4}};
  ctx_set(c, "Boxes", 0, &o, in->dtype);
  ctx_set(c, "Variances", 0, &o, in->dtype);
  return 0;
}

static int infer_box_coder(OpCtx *c) {
  Var *prior = ctx_need(c, "PriorBox", 0);
  Var *target = ctx_need(c, "TargetBox", 0);
  if (!prior || !target) return -1;
  const char *type = attr_str(c->op, "code_type", "encode_center_size");
  if (strcmp(type, "encode_center_size") == 0) {
    if (target->shape.rank != 2)
      return ctx_fail(c, "TargetBox %s must have rank 2", shape_str(&target->shape));
    Shape o = {3, {target->shape.d[0], prior->shape.d[0], 4}};
    ctx_set(c, "OutputBox", 0, &o, target->dtype);
  } else if (strcmp(type, "decode_center_size") == 0) {
    if (target->shape.rank != 3)
      return ctx_fail(c, "TargetBox %s must have rank 3", shape_str(&target->shape));
    ctx_set(c, "OutputBox", 0, &target->shape, target->dtype);
  } else {
    return ctx_fail(c, "unknown code_type '%s'", type);
  }
  return 0;
}

/* 1 for programs written before Paddle 2.3: a version in [1, 2003000), or no
 * version and no sign of 2.5's 0-D tensors. */
static int nms_before_2_3(const OpCtx *c) {
  int64_t v = c->g->version;
  return v > 0 ? v < 2003000 : !c->g->zero_d;
}

static int infer_nms(OpCtx *c) {
  Var *boxes = ctx_need(c, "BBoxes", 0);
  Var *scores = ctx_need(c, "Scores", 0);
  if (!boxes || !scores) return -1;
  if (boxes->shape.rank != 3)
    return ctx_fail(c, "BBoxes %s must have rank 3", shape_str(&boxes->shape));
  int64_t rows = DIM_UNKNOWN;
  if (scores->shape.rank == 3 && nms_before_2_3(c)) rows = boxes->shape.d[1];
  Shape o = {2, {rows, boxes->shape.d[2] + 2}};
  Shape idx = {2, {rows, 1}};
  Shape num = {1, {DIM_UNKNOWN}};
  ctx_set(c, "Out", 0, &o, boxes->dtype);
  ctx_set(c, "Index", 0, &idx, RT_DT_INT32);
  ctx_set(c, "NmsRoisNum", 0, &num, RT_DT_INT32);
  return 0;
}

static int infer_yolo_box(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  if (xs->rank != 4) return ctx_fail(c, "X %s must have rank 4", shape_str(xs));
  int64_t *anchors;
  int na = attr_ints(c->op, "anchors", &anchors) / 2;
  int64_t cls = attr_int(c->op, "class_num", 1);
  int64_t per = attr_bool(c->op, "iou_aware", 0) ? 6 : 5;
  if (na <= 0 || cls <= 0) return ctx_fail(c, "anchors and class_num must be non-empty / positive");
  if (xs->d[1] >= 0 && xs->d[1] != na * (per + cls))
    return ctx_fail(c, "X %s: dim 1 must be %lld (anchors * (%lld + class_num))", shape_str(xs),
                    (long long)(na * (per + cls)), (long long)per);
  int64_t nbox = (xs->d[2] > 0 && xs->d[3] > 0) ? xs->d[2] * xs->d[3] * na : DIM_UNKNOWN;
  Shape b = {3, {xs->d[0], nbox, 4}};
  Shape s = {3, {xs->d[0], nbox, cls}};
  ctx_set(c, "Boxes", 0, &b, x->dtype);
  ctx_set(c, "Scores", 0, &s, x->dtype);
  return 0;
}

const OpDef op_prior_box = {.type = "prior_box", .infer = infer_prior_box};
const OpDef op_density_prior_box = {.type = "density_prior_box", .infer = infer_density_prior_box};
const OpDef op_box_coder = {.type = "box_coder", .infer = infer_box_coder};
const OpDef op_multiclass_nms = {.type = "multiclass_nms", .infer = infer_nms};
const OpDef op_multiclass_nms2 = {.type = "multiclass_nms2", .infer = infer_nms};
const OpDef op_multiclass_nms3 = {.type = "multiclass_nms3", .infer = infer_nms};
const OpDef op_yolo_box = {.type = "yolo_box", .infer = infer_yolo_box};

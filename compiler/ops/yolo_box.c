/* yolo_box (paddle.vision.ops.yolo_box): X [N, A*(5+cls) (6+cls with
 * iou_aware), H, W], ImgSize [N, 2] (int32: height, width) -> Boxes
 * [N, H*W*A, 4], Scores [N, H*W*A, class_num] (box count -1 when H or W is
 * unknown); dtype of X.  anchors:INTS (A pairs), class_num:INT=1,
 * conf_thresh:FLOAT=0.01, downsample_ratio:INT=32, clip_bbox:BOOLEAN=true,
 * scale_x_y:FLOAT=1, iou_aware:BOOLEAN=false, iou_aware_factor:FLOAT=0.5
 * (in [0, 1]).
 * Shape rule: phi YoloBoxInferMeta.
 * Emission: rt_yolo_box, or rt_yolo_box_f64 for float64 X
 * (runtime/rt_detection.c), phi yolo_box_kernel.cc: per anchor and cell the confidence sigmoid(obj)
 * (times the IoU branch: conf^(1-f) * sigmoid(iou)^f with iou_aware);
 * boxes and scores stay 0 below conf_thresh, else the decoded box (center
 * from the sigmoids scaled by scale_x_y, size from the anchor over the
 * input size H*downsample_ratio, in ImgSize's pixels, clipped to the image
 * with clip_bbox) and conf * sigmoid(class logits).  A grid the run gives
 * (an image of any size): the boxes are the run's H * W * A, the geometry
 * a local.  ImgSize's rows or X's batch counted by the run (nonzero's
 * rows): the run stops where they differ (Paddle raises). */
#include "../util.h"
#include "detection_call.h"
#include "move_call.h"
#include "ops.h"
#include "run_hw.h"
#include "rt_detection.h"
#include "tensor_util.h"

static int infer_yolo_box(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  if (xs->rank != 4) return ctx_fail(c, "X %s must have rank 4", shape_str(xs));
  int64_t *anchors;
  int na = attr_ints(c->op, "anchors", &anchors) / 2;
  int64_t cls = attr_int(c->op, "class_num", 1);
  int iou_aware = attr_bool(c->op, "iou_aware", 0);
  int64_t per = iou_aware ? 6 : 5;
  double f = attr_float(c->op, "iou_aware_factor", 0.5);
  if (na <= 0 || cls <= 0) return ctx_fail(c, "anchors and class_num must be non-empty / positive");
  if (iou_aware && !(f >= 0 && f <= 1)) return ctx_fail(c, "iou_aware_factor %g is not in [0, 1]", f);
  if (xs->d[1] >= 0 && xs->d[1] != na * (per + cls))
    return ctx_fail(c, "X %s: dim 1 must be %lld (anchors * (%lld + class_num))", shape_str(xs),
                    (long long)(na * (per + cls)), (long long)per);
  int64_t nbox = (xs->d[2] > 0 && xs->d[3] > 0) ? xs->d[2] * xs->d[3] * na : DIM_UNKNOWN;
  Shape b = {3, {xs->d[0], nbox, 4}};
  Shape s = {3, {xs->d[0], nbox, cls}};
  ctx_set(c, "Boxes", 0, &b, x->dtype);
  ctx_set(c, "Scores", 0, &s, x->dtype);
  const unsigned run = var_runtime_mask(x); /* the grid the run gives: H * W * A boxes, the run's */
  if (!run) return 0;
  if (run & ~(3u << 2))
    return ctx_fail(c, "X ('%s') has dims only the run knows besides its height and width; yolo_box takes them "
                    "there only", x->name);
  const char *rule = pool_printf("%d:%u:yolo_box %d", x->runtime_root, run, na);
  ctx_set_runtime_extent(c, "Boxes", 0, 1, x->runtime_from);
  ctx_set_runtime_extent(c, "Scores", 0, 1, x->runtime_from);
  if (ctx_out(c, "Boxes", 0)) run_hw_share_root(c->g, ctx_out(c, "Boxes", 0), rule);
  if (ctx_out(c, "Scores", 0)) run_hw_share_root(c->g, ctx_out(c, "Scores", 0), rule);
  return 0;
}

static int emit_yolo_box(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *img = tu_in(e, "ImgSize", 0);
  Var *boxes = tu_out(e, "Boxes", 0), *scores = tu_out(e, "Scores", 0);
  if (!x || !img || !boxes || !scores) return -1;
  const int dt = tu_float_dtype(e, (Var *const[]){x, boxes, scores}, 3), f64 = dt == RT_DT_FP64;
  if (dt < 0) return -1;
  if (img->dtype != RT_DT_INT32) return em_fail(e, "ImgSize is %s; int32 expected", rt_dtype_name(img->dtype));
  int64_t *anchors;
  int na = attr_ints(e->op, "anchors", &anchors) / 2;
  const unsigned run = em_spec(e, x)->runtime_mask; /* infer_yolo_box: the run's grid */
  int64_t cls = attr_int(e->op, "class_num", 1), h = em_bound_dim(e, x, 2), w = em_bound_dim(e, x, 3);
  int iou_aware = attr_bool(e->op, "iou_aware", 0);
  if (h < 0 || w < 0 || (!run && (em_const_dim(e, x, 2) < 0 || em_const_dim(e, x, 3) < 0)))
    return em_fail(e, "the grid H, W must not depend on the batch");
  if (em_const_dim(e, x, 1) != na * ((iou_aware ? 6 : 5) + cls))
    return em_fail(e, "X's channels do not fit anchors and class_num");
  if (tu_rank(e, img) != 2 || em_const_dim(e, img, 1) != 2) return em_fail(e, "ImgSize must be [N, 2]");
  SymDim n = em_spec(e, x)->d[0], ni = em_spec(e, img)->d[0];
  if (n.a != ni.a || n.c != ni.c) return em_fail(e, "X and ImgSize differ in batch");
  if (h * w * na > INT32_MAX / (cls + 6)) return em_fail(e, "the grid is too large for Paddle's int indexing");
  if ((em_spec(e, img)->runtime_mask | em_spec(e, x)->runtime_mask) & 1) /* a count the run gives */
    tu_run_equal(e, img, x, em_dim(e, img, 0), em_dim(e, x, 0), "ImgSize's rows are not X's batch (Paddle raises)");
  const char *nn = em_dim(e, x, 0), *xp = em_ptr(e, x, 1), *imgp = em_ptr(e, img, 1);
  const char *boxesp = em_ptr(e, boxes, 0);
  if (run) { /* the boxes: the run's grid times the anchors */
    const char *count = tu_mul(tu_mul(em_dim(e, x, 2), em_dim(e, x, 3)), pool_printf("%d", na));
    move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = em_dim(e, boxes, 1), .src = count});
    move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = em_dim(e, scores, 1), .src = em_dim(e, boxes, 1)});
  }
  detection_print_c(
      e->p, &(DetectionCall){.kind = DETECTION_YOLO_BOX, .f64 = f64, .n = nn, .x = xp, .img_size = imgp,
                             .boxes = boxesp, .scores = em_ptr(e, scores, 0),
                             .yolo = {.h = h, .w = w, .run_h = run ? em_dim(e, x, 2) : NULL,
                                      .run_w = run ? em_dim(e, x, 3) : NULL, .an_num = na, .anchors = anchors,
                                      .class_num = cls,
                                      .conf_thresh = (float)attr_float(e->op, "conf_thresh", 0.01),
                                      .downsample_ratio = attr_int(e->op, "downsample_ratio", 32),
                                      .clip_bbox = attr_bool(e->op, "clip_bbox", 1),
                                      .scale_x_y = (float)attr_float(e->op, "scale_x_y", 1), .iou_aware = iou_aware,
                                      .iou_aware_factor = (float)attr_float(e->op, "iou_aware_factor", 0.5)}});
  return 0;
}

const OpDef op_yolo_box = {.type = "yolo_box", .infer = infer_yolo_box, .emit_c = emit_yolo_box,
                           .runtime_extents = 2};

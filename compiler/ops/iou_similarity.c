/* iou_similarity (fluid detection op): X [N, 4], Y [M, 4] -> Out [N, M]
 * (X's dtype); box_normalized:BOOLEAN=true.  Boxes are (xmin, ymin, xmax,
 * ymax); without box_normalized widths and heights count both end pixels.
 * Shape rule (IOUSimilarityOp::InferShape): X and Y have rank 2 and 4
 * columns.
 * Emission: rt_iou_similarity, or rt_iou_similarity_f64 for float64 boxes
 * (runtime/rt_detection.c), the fluid kernel's IOUSimilarity with its
 * T(1e-10) on the union.  X's LoD, which Paddle passes on to Out, does
 * not change the values. */
#include "detection_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_iou_similarity(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  const Shape *xs = &x->shape, *ys = &y->shape;
  if (xs->rank != 2 || ys->rank != 2 || (xs->d[1] >= 0 && xs->d[1] != 4) || (ys->d[1] >= 0 && ys->d[1] != 4))
    return ctx_fail(c, "X %s and Y %s must be [N, 4] and [M, 4]", shape_str(xs), shape_str(ys));
  Shape o = {2, {xs->d[0], ys->d[0]}};
  ctx_set(c, "Out", 0, &o, x->dtype);
  return 0;
}

static int emit_iou_similarity(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *y = tu_in(e, "Y", 0), *out = tu_out(e, "Out", 0);
  if (!x || !y || !out) return -1;
  const int dt = tu_float_dtype(e, (Var *const[]){x, y, out}, 3), f64 = dt == RT_DT_FP64;
  if (dt < 0) return -1;
  if (em_const_dim(e, x, 1) != 4 || em_const_dim(e, y, 1) != 4) return em_fail(e, "X and Y must have 4 columns");
  detection_print_c(e->p, &(DetectionCall){.kind = DETECTION_IOU_SIMILARITY, .f64 = f64, .x = em_ptr(e, x, 1),
                                           .nx = em_dim(e, x, 0), .y = em_ptr(e, y, 1), .ny = em_dim(e, y, 0),
                                           .normalized = attr_bool(e->op, "box_normalized", 1),
                                           .out = em_ptr(e, out, 0)});
  return 0;
}

const OpDef op_iou_similarity = {.type = "iou_similarity", .infer = infer_iou_similarity,
                                 .emit_c = emit_iou_similarity};

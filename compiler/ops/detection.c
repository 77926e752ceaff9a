/* Detection ops paddlec has shape rules for but cannot compile: their
 * results depend on data or on LoD.  (The detection ops with outputs of
 * static size live in prior_box.c, box_coder.c, yolo_box.c,
 * iou_similarity.c and bipartite_match.c; NMS in multiclass_nms.c.)
 * box_clip: Input [..., 4], ImInfo [N, 3] -> Output (Input's dims and
 *   dtype; BoxClipOp::InferShape).  Each image's boxes are the rows of
 *   Input its LoD assigns to it; without LoD Paddle 2.6's kernel reads an
 *   empty LoD and crashes, so there is nothing static to compile. */
#include "ops.h"

static int infer_box_clip(OpCtx *c) {
  Var *in = ctx_need(c, "Input", 0), *info = ctx_need(c, "ImInfo", 0);
  if (!in || !info) return -1;
  ctx_set(c, "Output", 0, &in->shape, in->dtype);
  return 0;
}

const OpDef op_box_clip = {.type = "box_clip", .infer = infer_box_clip};

/* Detection ops paddlec has shape rules for but cannot compile: their
 * results depend on data or on LoD.  (The detection ops with outputs of
 * static size live in prior_box.c, box_coder.c, yolo_box.c,
 * iou_similarity.c and bipartite_match.c.)
 * multiclass_nms, multiclass_nms2, multiclass_nms3: BBoxes [N,M,4+], Scores
 *   [N,C,M] (or LoD [M,C,4] / [M,C]), RoisNum? (nms3) -> Out [-1, box_dim+2]
 *   (LoD; dtype of BBoxes), Index [-1, 1] (int32; nms2, nms3), NmsRoisNum?
 *   [-1] (int32; nms3).  Before Paddle 2.3 (PR 40059) the first dim of Out
 *   and Index was M (BBoxes.dims[1]) when Scores has rank 3.
 *   nms attrs: background_label=0, score_threshold, nms_top_k, nms_threshold=0.3,
 *   nms_eta=1, keep_top_k, normalized=true.  How many boxes survive is
 *   known only at run time.
 * box_clip: Input [..., 4], ImInfo [N, 3] -> Output (Input's dims and
 *   dtype; BoxClipOp::InferShape).  Each image's boxes are the rows of
 *   Input its LoD assigns to it; without LoD Paddle 2.6's kernel reads an
 *   empty LoD and crashes, so there is nothing static to compile. */
#include "ops.h"

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

static int infer_box_clip(OpCtx *c) {
  Var *in = ctx_need(c, "Input", 0), *info = ctx_need(c, "ImInfo", 0);
  if (!in || !info) return -1;
  ctx_set(c, "Output", 0, &in->shape, in->dtype);
  return 0;
}

const OpDef op_box_clip = {.type = "box_clip", .infer = infer_box_clip};
const OpDef op_multiclass_nms = {.type = "multiclass_nms", .infer = infer_nms};
const OpDef op_multiclass_nms2 = {.type = "multiclass_nms2", .infer = infer_nms};
const OpDef op_multiclass_nms3 = {.type = "multiclass_nms3", .infer = infer_nms};

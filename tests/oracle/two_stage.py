#!/usr/bin/env python3
"""A two-stage detector as PaddleDetection exports Faster R-CNN with an FPN
(issue 19 items 1 and 3: image [None, 3, None, None], im_shape [None, 2]):
two backbone levels (strides 4 and 8), an RPN head on each whose anchors
come from PaddleDetection's AnchorGenerator written in paddle ops (aranges
of offset * stride to w * stride by stride over the level's run sizes,
meshgrid, stack and the cell anchors added), generate_proposals_v2 over
each level, collect_fpn_proposals and distribute_fpn_proposals, roi_align
of each level's RoIs on its map, their concat gathered back into the
RoIs' order (the restore index), a box head (softmax scores, a box per
class decoded from the RoIs) and multiclass_nms3 over the RoIs with
RoisNum (Scores [R, C], BBoxes [R, C, 4]: the two-stage form).  Random
weights, saved with paddle.jit.save; references from Paddle's Executor on
the saved files.

    python two_stage.py OUTDIR

OUTDIR gets model.pdmodel/.pdiparams and, for size k, input_k_<feed>.npy
and ref_k_<j>.npy, and sizes.json."""
import json
import os
import sys

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.base.layer_helper import LayerHelper

# sizes crossing size classes, wide and tall, a batch of 2
SIZES = [[1, 64, 64], [1, 40, 70], [2, 90, 33], [1, 150, 40]]
CLASSES = 5  # the background (0) and 4 others


def multiclass_nms3(boxes, scores, rois_num, **attrs):
    """PaddleDetection's ops.multiclass_nms in a static graph."""
    helper = LayerHelper("multiclass_nms3")
    out = helper.create_variable_for_type_inference("float32")
    index = helper.create_variable_for_type_inference("int32")
    num = helper.create_variable_for_type_inference("int32")
    helper.append_op(type="multiclass_nms3", inputs={"BBoxes": boxes, "Scores": scores, "RoisNum": rois_num},
                     outputs={"Out": out, "Index": index, "NmsRoisNum": num}, attrs=attrs)
    return out, index, num


def collect_fpn_proposals(rois, scores, nums, post_nms_top_n):
    """PaddleDetection's ops.collect_fpn_proposals in a static graph."""
    helper = LayerHelper("collect_fpn_proposals")
    out = helper.create_variable_for_type_inference("float32")
    num = helper.create_variable_for_type_inference("int32")
    helper.append_op(type="collect_fpn_proposals",
                     inputs={"MultiLevelRois": rois, "MultiLevelScores": scores, "MultiLevelRoIsNum": nums},
                     outputs={"FpnRois": out, "RoisNum": num}, attrs={"post_nms_topN": post_nms_top_n})
    return out, num


class TwoStage(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 8, 3, stride=4, padding=1)
        self.down = nn.Conv2D(8, 8, 3, stride=2, padding=1)
        self.score = nn.Conv2D(8, 3, 1)
        self.delta = nn.Conv2D(8, 12, 1)
        self.cls = nn.Linear(8 * 4 * 4, CLASSES)
        self.reg = nn.Linear(8 * 4 * 4, CLASSES * 4)
        self.cell = paddle.to_tensor(np.array([[-8, -8, 8, 8], [-16, -8, 16, 8], [-8, -16, 8, 16]], "float32"))

    def anchors(self, f, stride, offset):
        gh, gw = paddle.shape(f)[2], paddle.shape(f)[3]
        sx = paddle.arange(offset * stride, gw * stride, step=stride, dtype="float32")
        sy = paddle.arange(offset * stride, gh * stride, step=stride, dtype="float32")
        yy, xx = paddle.meshgrid(sy, sx)
        xx, yy = xx.reshape([-1]), yy.reshape([-1])
        shifts = paddle.stack([xx, yy, xx, yy], axis=1)
        return (shifts.reshape([-1, 1, 4]) + self.cell.reshape([1, -1, 4])).reshape([-1, 4])

    def forward(self, x, im_shape):
        f1 = F.relu(self.conv(x))
        levels = ((f1, 4, 0.5), (F.relu(self.down(f1)), 8, 0.0))
        rois, probs, nums = [], [], []
        for f, stride, offset in levels:
            anchors = self.anchors(f, stride, offset)
            r, p, n = paddle.vision.ops.generate_proposals(
                self.score(f), self.delta(f), im_shape, anchors, paddle.ones_like(anchors), pre_nms_top_n=60,
                post_nms_top_n=10, nms_thresh=0.7, min_size=1.0, eta=1.0, pixel_offset=False, return_rois_num=True)
            rois.append(r), probs.append(p), nums.append(n.reshape([-1]))
        rois, num = collect_fpn_proposals(rois, probs, nums, 14)
        level_rois, restore, level_nums = paddle.vision.ops.distribute_fpn_proposals(rois, 2, 3, 2, 40, rois_num=num)
        h = paddle.concat([paddle.vision.ops.roi_align(f, r, n, 4, spatial_scale=1.0 / stride, sampling_ratio=2,
                                                       aligned=True)
                           for (f, stride, _), r, n in zip(levels, level_rois, level_nums)])
        h = paddle.gather(h, restore).flatten(1)
        scores = F.softmax(self.cls(h), -1)
        boxes = rois.unsqueeze(1) + self.reg(h).reshape([-1, CLASSES, 4]) * 4.0
        out, index, kept = multiclass_nms3(boxes, scores, num, background_label=0, score_threshold=0.2,
                                           nms_top_k=10, keep_top_k=16, nms_threshold=0.4, normalized=False,
                                           nms_eta=1.0)
        return rois, num, out, index, kept


def main(out):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(29)
    paddle.seed(1)
    layer = TwoStage()
    for p in layer.parameters():
        p.set_value((rng.standard_normal(p.shape) * 0.3).astype("float32"))
    layer.eval()
    spec = [paddle.static.InputSpec([None, 3, None, None], "float32", "x"),
            paddle.static.InputSpec([None, 2], "float32", "im_shape")]
    paddle.jit.save(paddle.jit.to_static(layer, input_spec=spec), os.path.join(out, "model"))
    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    prog, feeds, fetches = paddle.static.load_inference_model(os.path.join(out, "model"), exe)
    for k, (n, h, w) in enumerate(SIZES):
        fed = {"x": rng.standard_normal((n, 3, h, w)).astype("float32"),
               "im_shape": np.tile(np.array([[h, w]], "float32"), (n, 1))}
        for f in feeds:
            np.save(os.path.join(out, f"input_{k}_{f}.npy"), fed[f])
        for j, o in enumerate(exe.run(prog, feed=fed, fetch_list=fetches, return_numpy=False)):
            np.save(os.path.join(out, f"ref_{k}_{j}.npy"), np.array(o))  # (the collected RoIs carry a LoD)
    with open(os.path.join(out, "sizes.json"), "w") as f:
        json.dump({"sizes": SIZES, "feeds": feeds, "fetches": [v.name for v in fetches]}, f)


if __name__ == "__main__":
    main(sys.argv[1])

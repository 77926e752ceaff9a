#!/usr/bin/env python3
"""Op-level end-to-end cases for the detection ops with outputs of static
size: prior_box, density_prior_box, anchor_generator, box_coder (both
code types, both axes, variances from a tensor, a list or none), yolo_box
(clip_bbox, scale_x_y, iou_aware, conf_thresh), iou_similarity and
bipartite_match (no LoD: one matching of the whole matrix; the greedy loop
below 130 rows and the sorted walk from 130 on).  Each case is built twice
(`both`): NAME in float32 and NAME_f64 in float64, Paddle's double kernels
(box_coder_f64 leaves out the decodes with a variance list, which paddlec
refuses in float64: Paddle's double kernel reads that float list as
doubles, past its end).

    python e2e_detection.py OUTDIR [CASE ...]

Each case is a small static program: paddle.vision.ops where it emits the
op, LayerHelper.append_op for the ops Paddle 2.6 has no Python API for and
for attributes the API hides.  Float inputs are standard normal; feeds
named `boxes*` hold valid (xmin, ymin, xmax, ymax) boxes in pixels,
`nboxes*` the same in [0, 1], `dist*` distances in [0, 1), `ties*`
distances in quarters (many equal, some 0); integer inputs are uniform in
the range data() gives.  Batch 2, the batch dim None in the first feed.
`scores*` feeds hold scores in [0, 1), `qscores*` scores in eighths (many
equal: the stable orderings of NMS).  tests/oracle/oracle_case.py saves
each case with Paddle's reference outputs.  multiclass_nms3 and matrix_nms keep a
number of boxes only known at run time: its Out and Index are compared with
Paddle's shape as well as values, as generate_proposals_v2's RpnRois and
RpnRoiProbs are (`anchors` and `imshape` feeds: pixel boxes on the 4 x 5
map and the images' (height, width), smaller than the anchors reach).  The
multiclass_nms3 cases' references also record each fetch's LoD
(lod_reference): Paddle 2.6's kernel gives none, and a LoD paddlec wrote
would not match.  (multiclass_nms and multiclass_nms2,
whose outputs carry LoDs, are in e2e_nms_lod.py; box_clip, which needs its
Input's LoD, in e2e_lod_made.py.)"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, build_static_case, case_registry, lod_reference  # noqa: E402

import paddle  # noqa: E402
from paddle.vision import ops as V  # noqa: E402

BATCH = 2
CASES, _ = case_registry()
LOD_CASES = set()  # cases whose references record the fetches' LoDs (lod_reference)
INT_RANGE = {}  # feed name -> (low, high) for integer feeds


def data(name, shape, dtype="float32", low=-5, high=5):
    INT_RANGE[name] = (low, high)
    return paddle.static.data(name, shape, dtype)


def both(build):
    """Registers build(dt) as the cases NAME (dt float32) and NAME_f64."""
    CASES[build.__name__] = lambda: build("float32")
    CASES[build.__name__ + "_f64"] = lambda: build("float64")
    return build


VAR = [0.1, 0.1, 0.2, 0.2]


# ---------------------------------------------------------------- prior boxes
@both
def prior_box(dt):
    x = data("x", [None, 8, 6, 5], dt)
    img = data("img", [None, 3, 48, 40])  # float32 in both: only its dims are read
    outs = list(V.prior_box(x, img, [8.0], [20.0], [2.0], VAR, flip=True, clip=True))
    outs += list(V.prior_box(x, img, [4.0, 12.0], [9.0, 30.0], [2.0, 3.0, 0.5], [0.1, 0.2, 0.3, 0.4], flip=False,
                             clip=False, steps=[7.0, 9.0], offset=0.25, min_max_aspect_ratios_order=True))
    outs += list(V.prior_box(x, img, [6.0, 10.0], aspect_ratios=[1.0, 2.0, 1.0000001, 0.5], flip=True,
                             min_max_aspect_ratios_order=True))  # repeated ratios are dropped
    outs += op("prior_box", {"Input": [x], "Image": [img]}, {"Boxes": [dt], "Variances": [dt]},
               {"min_sizes": [16.0], "aspect_ratios": [3.0], "variances": VAR})  # flip and clip by default
    return [x, img], outs


@both
def density_prior_box(dt):
    x = data("x", [None, 8, 6, 5], dt)
    img = data("img", [None, 3, 48, 40], dt)
    outs = []
    for attrs in ({"fixed_sizes": [8.0, 16.0], "fixed_ratios": [1.0, 2.0], "densities": [2, 1]},
                  {"fixed_sizes": [12.0], "fixed_ratios": [0.5, 1.0, 3.0], "densities": [3], "clip": False,
                   "step_w": 10.0, "step_h": 6.0, "offset": 0.3},
                  {"fixed_sizes": [8.0, 24.0, 32.0], "fixed_ratios": [1.0], "densities": [4, 2, 1],
                   "flatten_to_2d": True}):
        attrs = dict(attrs, variances=[0.1, 0.1, 0.2, 0.2])
        outs += op("density_prior_box", {"Input": [x], "Image": [img]},
                   {"Boxes": [dt], "Variances": [dt]}, attrs)
    return [x, img], outs


@both
def anchor_generator(dt):
    x = data("x", [None, 8, 6, 5], dt)
    outs = []
    for attrs in ({"anchor_sizes": [32.0, 64.0, 128.0], "aspect_ratios": [0.5, 1.0, 2.0], "stride": [16.0, 16.0]},
                  {"anchor_sizes": [20.0], "aspect_ratios": [1.5, 0.7], "stride": [8.0, 12.0], "offset": 0.0},
                  {"anchor_sizes": [48.0, 30.0], "aspect_ratios": [1.0], "stride": [32.0, 16.0], "offset": 1.0}):
        attrs = dict(attrs, variances=[0.1, 0.1, 0.2, 0.2])
        outs += op("anchor_generator", {"Input": [x]}, {"Anchors": [dt], "Variances": [dt]}, attrs)
    return [x], outs


# ---------------------------------------------------------------- box coding
@both
def box_coder(dt):
    t = data("boxes_t", [None, 4], dt)
    prior = data("boxes_p", [6, 4], dt)
    pvar = data("dist_var", [6, 4], dt)
    n = data("nboxes_t", [None, 4], dt)
    nprior = data("nboxes_p", [6, 4], dt)
    code = data("code", [None, 6, 4], dt)
    rows = data("boxes_r", [None, 4], dt)   # one prior per target row (axis 1)
    rvar = data("dist_rvar", [None, 4], dt)
    def raw(p, t, attrs):  # no variance at all: the API always passes one
        return op("box_coder", {"PriorBox": [p], "TargetBox": [t]}, {"OutputBox": [dt]}, attrs)[0]

    outs = [V.box_coder(prior, VAR, t, "encode_center_size", box_normalized=False),
            V.box_coder(prior, pvar + 0.5, t, "encode_center_size", box_normalized=False),
            raw(nprior, n, {}), V.box_coder(nprior, [0.2, 0.3, 0.1, 0.4], n, "encode_center_size"),
            V.box_coder(nprior, pvar + 0.5, code, "decode_center_size"),
            raw(nprior, code, {"code_type": "decode_center_size"}),
            V.box_coder(rows, rvar + 0.5, code, "decode_center_size", box_normalized=False, axis=1),
            raw(rows, code, {"code_type": "decode_center_size", "axis": 1, "box_normalized": False})]
    if dt == "float32":  # a decode with a variance list: refused in float64 (see above)
        outs += [V.box_coder(prior, VAR, code, "decode_center_size", box_normalized=False),
                 V.box_coder(rows, VAR, code, "decode_center_size", box_normalized=False, axis=1)]
    return [t, prior, pvar, n, nprior, code, rows, rvar], outs


@both
def yolo_box(dt):
    x = data("x", [None, 14, 6, 5], dt)              # 2 anchors * (5 + 2 classes)
    size = data("size", [None, 2], "int32", 150, 400)
    a = data("a", [None, 16, 4, 3], dt)              # iou_aware: 2 anchors * (6 + 2 classes)
    b = data("b", [None, 24, 3, 4], dt)              # 3 anchors * (5 + 3 classes)
    anchors = [10, 13, 16, 30]
    outs = list(V.yolo_box(x, size, anchors, 2, 0.01, 32))
    outs += list(V.yolo_box(x, size, anchors, 2, 0.5, 16, clip_bbox=False, scale_x_y=1.05))
    outs += list(V.yolo_box(a, size, anchors, 2, 0.2, 32, iou_aware=True, iou_aware_factor=0.4))
    outs += list(V.yolo_box(b, size, [5, 6, 7, 8, 30, 40], 3, 0.005, 8, scale_x_y=1.2))
    return [x, size, a, b], outs


# ---------------------------------------------------------------- matching
@both
def iou_match(dt):
    x = data("boxes_x", [None, 4], dt)
    y = data("boxes_y", [5, 4], dt)
    nx = data("nboxes_x", [None, 4], dt)
    ny = data("nboxes_y", [5, 4], dt)
    outs = op("iou_similarity", {"X": [x], "Y": [y]}, {"Out": [dt]}, {"box_normalized": False})
    outs += op("iou_similarity", {"X": [nx], "Y": [ny]}, {"Out": [dt]}, {})
    outs += op("iou_similarity", {"X": [y], "Y": [y]}, {"Out": [dt]}, {"box_normalized": False})
    gt = data("nboxes_gt", [7, 4], dt)
    iou = op("iou_similarity", {"X": [gt], "Y": [ny]}, {"Out": [dt]}, {})[0]
    match = {"ColToRowMatchIndices": ["int32"], "ColToRowMatchDist": [dt]}
    outs += op("bipartite_match", {"DistMat": [iou]}, match, {})
    outs += op("bipartite_match", {"DistMat": [iou]}, match, {"match_type": "per_prediction", "dist_threshold": 0.1})
    d = data("dist", [None, 5], dt)
    outs += op("bipartite_match", {"DistMat": [d]}, match, {"match_type": "per_prediction"})
    t = data("ties", [9, 6], dt)             # equal and zero distances
    outs += op("bipartite_match", {"DistMat": [t]}, match, {"match_type": "per_prediction", "dist_threshold": 0.3})
    big = data("ties_big", [140, 6], dt)     # 130 rows or more: Paddle sorts all pairs
    outs += op("bipartite_match", {"DistMat": [big]}, match, {})
    outs += op("bipartite_match", {"DistMat": [big]}, match, {"match_type": "per_prediction", "dist_threshold": 0.6})
    wide = data("dist_wide", [150, 4], dt)
    outs += op("bipartite_match", {"DistMat": [wide]}, match, {})
    return [x, y, nx, ny, gt, d, t, big, wide], outs


# ---------------------------------------------------------------- NMS
def nms3(boxes, scores, dt, **attrs):
    """One multiclass_nms3 with Out, Index and NmsRoisNum."""
    base = dict(score_threshold=0.3, nms_top_k=-1, keep_top_k=-1, nms_threshold=0.3, normalized=True, nms_eta=1.0,
                background_label=0)
    base.update(attrs)
    return op("multiclass_nms3", {"BBoxes": [boxes], "Scores": [scores]},
              {"Out": [dt], "Index": ["int32"], "NmsRoisNum": ["int32"]}, base)


def records_lod(build):
    """Marks the cases NAME and NAME_f64 of `both` as recording LoDs."""
    LOD_CASES.update({build.__name__, build.__name__ + "_f64"})
    return build


@records_lod
@both
def multiclass_nms3(dt):
    b = data("boxes", [None, 24, 4], dt)    # pixel boxes, many overlapping
    s = data("scores", [None, 3, 24], dt)
    nb = data("nboxes", [None, 24, 4], dt)  # the same in [0, 1]
    q = data("qscores", [None, 4, 24], dt)  # eighths: equal scores
    outs = nms3(b, s, dt, normalized=False, nms_threshold=0.5, nms_top_k=20, keep_top_k=10)
    outs += nms3(nb, s, dt, background_label=-1, nms_threshold=0.2, nms_eta=0.7)        # adaptive threshold
    outs += nms3(nb, s, dt, background_label=2, nms_top_k=5, score_threshold=0.1)
    outs += nms3(b, q, dt, normalized=False, score_threshold=0.2, keep_top_k=7)          # ties across classes
    outs += nms3(nb, q, dt, background_label=-1, nms_threshold=0.6, nms_top_k=9, keep_top_k=30)
    return [b, s, nb, q], outs


@records_lod
@both
def multiclass_nms3_none_kept(dt):
    """Nothing passes the threshold: Out [0, 6], Index [0, 1], counts 0."""
    b = data("boxes", [None, 6, 4], dt)
    s = data("scores", [None, 2, 6], dt)
    return [b, s], nms3(b, s, dt, score_threshold=1.5)


def matrix_nms(boxes, scores, dt, **attrs):
    """One matrix_nms with Out, Index and RoisNum."""
    base = dict(score_threshold=0.3, post_threshold=0.0, nms_top_k=-1, keep_top_k=-1, use_gaussian=False,
                gaussian_sigma=2.0, background_label=0, normalized=True)
    base.update(attrs)
    return op("matrix_nms", {"BBoxes": [boxes], "Scores": [scores]},
              {"Out": [dt], "Index": ["int32"], "RoisNum": ["int32"]}, base)


@both
def matrix_nms_decay(dt):
    """Linear and gaussian decay, nms_top_k, keep_top_k, post_threshold,
    background -1 and 2, pixel boxes; qscores' equal scores order by
    libstdc++'s partial_sort (a heap), not stably."""
    b = data("boxes", [None, 24, 4], dt)
    s = data("scores", [None, 3, 24], dt)
    nb = data("nboxes", [None, 24, 4], dt)
    q = data("qscores", [None, 4, 24], dt)
    outs = matrix_nms(b, s, dt, normalized=False, nms_top_k=20, keep_top_k=10, post_threshold=0.2)
    outs += matrix_nms(nb, s, dt, background_label=-1, use_gaussian=True, gaussian_sigma=3.0, post_threshold=0.1)
    outs += matrix_nms(nb, s, dt, background_label=2, nms_top_k=5, score_threshold=0.1)
    outs += matrix_nms(b, q, dt, normalized=False, score_threshold=0.2, keep_top_k=7, use_gaussian=True)
    outs += matrix_nms(nb, q, dt, background_label=-1, nms_top_k=9, keep_top_k=30, post_threshold=0.05)
    outs += matrix_nms(nb, q, dt, score_threshold=0.0, nms_top_k=17)
    return [b, s, nb, q], outs


@both
def matrix_nms_none_kept(dt):
    """Nothing passes the threshold: Out [0, 6], Index [0, 1], counts 0."""
    b = data("boxes", [None, 6, 4], dt)
    s = data("scores", [None, 2, 6], dt)
    return [b, s], matrix_nms(b, s, dt, score_threshold=1.5)


# ---------------------------------------------------------------- RoI pooling
ROIS = 5  # RoIs per case, split among the BATCH images by the roisnum* feeds
FPN_ROIS = 40  # distribute_fpn_proposals' RoIs, 15 and 25 (fpnnum)


def roi(type, x, rois, num, dt, **attrs):
    """One roi_align / roi_pool / psroi_pool with RoisNum."""
    outs = {"Out": [dt], "Argmax": ["int64"]} if type == "roi_pool" else {"Out": [dt]}
    return op(type, {"X": [x], "ROIs": [rois], "RoisNum": [num]}, outs, attrs)


def roi_feeds(dt, channels):
    """X [None, channels, 12, 10], ROIs [5, 4] in image coordinates of a
    48 x 40 image (spatial_scale 0.25 maps them), and the counts [2, 3] and
    [0, 5] (an image without RoIs).  (An int64 RoisNum makes 2.6.2 raise.)"""
    return (data("x", [None, channels, 12, 10], dt), data("rois", [ROIS, 4], dt),
            data("roisnum", [None], "int32"), data("roisnum0", [None], "int32"))


@both
def roi_align(dt):
    """Fixed and adaptive sampling, aligned or not, spatial scales that put
    samples off the map; RoIs inverted, tiny and on half pixels."""
    x, r, n, n0 = roi_feeds(dt, 6)
    outs = roi("roi_align", x, r, n, dt, pooled_height=3, pooled_width=2, spatial_scale=0.25, sampling_ratio=2,
               aligned=False)
    outs += roi("roi_align", x, r, n, dt, pooled_height=2, pooled_width=2, spatial_scale=0.25, sampling_ratio=-1,
                aligned=True)
    outs += roi("roi_align", x, r, n0, dt, pooled_height=4, pooled_width=3, spatial_scale=0.5, sampling_ratio=-1,
                aligned=False)
    outs += roi("roi_align", x, r, n, dt, pooled_height=1, pooled_width=1, spatial_scale=1.0, sampling_ratio=3,
                aligned=True)
    return [x, r, n, n0], outs


@both
def roi_pool(dt):
    """Max over rounded bins (Argmax too), empty bins, an image without RoIs."""
    x, r, n, n0 = roi_feeds(dt, 4)
    outs = roi("roi_pool", x, r, n, dt, pooled_height=3, pooled_width=2, spatial_scale=0.25)
    outs += roi("roi_pool", x, r, n0, dt, pooled_height=2, pooled_width=4, spatial_scale=0.5)
    return [x, r, n, n0], outs


CASES["roi_pool_int32"] = lambda: roi_pool("int32")


@both
def psroi_pool(dt):
    """Position-sensitive mean pooling: X's channels are output_channels x
    pooled_height x pooled_width."""
    x, r, n, n0 = roi_feeds(dt, 12)
    outs = roi("psroi_pool", x, r, n, dt, output_channels=2, pooled_height=3, pooled_width=2, spatial_scale=0.25)
    outs += roi("psroi_pool", x, r, n0, dt, output_channels=2, pooled_height=3, pooled_width=2, spatial_scale=0.5)
    return [x, r, n, n0], outs


# ---------------------------------------------------------------- RPN proposals
def proposals(scores, deltas, im, anchors, variances, dt, num=True, **attrs):
    """One generate_proposals_v2 with RpnRois, RpnRoiProbs (and RpnRoisNum)."""
    base = dict(pre_nms_topN=20, post_nms_topN=10, nms_thresh=0.5, min_size=0.1, eta=1.0, pixel_offset=True)
    base.update(attrs)
    outs = {"RpnRois": [dt], "RpnRoiProbs": [dt]}
    if num:  # [-1]: the op's compile-time rule leaves RpnRoisNum without dims, which roi_align's refuses
        block = paddle.static.default_main_program().current_block()
        outs["RpnRoisNum"] = [block.create_var(name=paddle.utils.unique_name.generate("rois_num"), shape=[-1],
                                               dtype="int32")]
    return op("generate_proposals_v2", {"Scores": [scores], "BboxDeltas": [deltas], "ImShape": [im],
                                        "Anchors": [anchors], "Variances": [variances]}, outs, attrs=base)


def proposal_feeds(dt, scores="scores"):
    """Scores [None, 3, 4, 5] (3 anchors on a 4 x 5 map), deltas, the
    images' (height, width), anchors and variances [4, 5, 3, 4]."""
    return (data(scores, [None, 3, 4, 5], dt), data("deltas", [None, 12, 4, 5], dt), data("imshape", [None, 2], dt),
            data("anchors", [4, 5, 3, 4], dt), data("variances", [4, 5, 3, 4], dt))


@both
def generate_proposals(dt):
    """The best pre_nms_topN by std::nth_element or all by std::sort,
    pixel and normalized boxes, adaptive NMS (eta), no NMS (nms_thresh 0:
    post_nms_topN unused), min_size; boxes clipped to images smaller than
    the anchors reach."""
    s, d, im, a, v = proposal_feeds(dt)
    outs = proposals(s, d, im, a, v, dt)
    outs += proposals(s, d, im, a, v, dt, pre_nms_topN=0, post_nms_topN=0, nms_thresh=0.7, eta=0.6, min_size=2.0,
                      pixel_offset=False)
    outs += proposals(s, d, im, a, v, dt, num=False, pre_nms_topN=15, post_nms_topN=5, nms_thresh=0.0)
    outs += proposals(s, d, im, a, v, dt, pre_nms_topN=60, post_nms_topN=100, nms_thresh=0.3, min_size=4.0)
    return [s, d, im, a, v], outs


@both
def generate_proposals_ties(dt):
    """Scores in eighths: equal scores order as std::nth_element and
    std::sort leave them, then NMS takes the later candidate first."""
    s, d, im, a, v = proposal_feeds(dt, "qscores")
    outs = proposals(s, d, im, a, v, dt, pre_nms_topN=25, post_nms_topN=8, nms_thresh=0.3)
    outs += proposals(s, d, im, a, v, dt, pre_nms_topN=-1, post_nms_topN=-1, nms_thresh=0.6, pixel_offset=False)
    return [s, d, im, a, v], outs


@both
def generate_proposals_none_kept(dt):
    """No box is min_size wide: each image gives one zero box of score 0."""
    s, d, im, a, v = proposal_feeds(dt)
    return [s, d, im, a, v], proposals(s, d, im, a, v, dt, min_size=500.0)


@both
def rpn_roi_heads(dt):
    """A two-stage detector's middle: the proposals generate_proposals_v2
    keeps (a count known only at run time) pooled by roi_align, roi_pool and
    psroi_pool with its RpnRoisNum, then an activation over them."""
    s, d, im, a, v = proposal_feeds(dt)
    x = data("x", [None, 8, 12, 10], dt)
    rois, probs, num = proposals(s, d, im, a, v, dt, pre_nms_topN=30, post_nms_topN=20, nms_thresh=0.2)
    aligned = roi("roi_align", x, rois, num, dt, pooled_height=2, pooled_width=2, spatial_scale=0.25,
                  sampling_ratio=2, aligned=True)[0]
    pooled = roi("roi_pool", x, rois, num, dt, pooled_height=3, pooled_width=2, spatial_scale=0.25)
    ps = roi("psroi_pool", x, rois, num, dt, output_channels=2, pooled_height=2, pooled_width=2, spatial_scale=0.25)
    return [s, d, im, a, v, x], [rois, probs, num, paddle.nn.functional.relu(aligned)] + pooled + ps


def fpn_levels(rois, num, dt, levels, **attrs):
    """One distribute_fpn_proposals over `levels` levels: MultiFpnRois,
    RestoreIndex and MultiLevelRoIsNum ([-1] vars: the op's compile-time
    rule leaves them without dims)."""
    block = paddle.static.default_main_program().current_block()
    counts = [block.create_var(name=paddle.utils.unique_name.generate("level_num"), shape=[-1], dtype="int32")
              for _ in range(levels)]
    multi = [block.create_var(name=paddle.utils.unique_name.generate("level_rois"), shape=[-1, 4], dtype=dt)
             for _ in range(levels)]
    restore = block.create_var(name=paddle.utils.unique_name.generate("restore"), shape=[-1, 1], dtype="int32")
    block.append_op(type="distribute_fpn_proposals", inputs={"FpnRois": [rois], "RoisNum": [num]},
                    outputs={"MultiFpnRois": multi, "RestoreIndex": [restore], "MultiLevelRoIsNum": counts},
                    attrs=attrs)
    return multi, restore, counts


@both
def distribute_fpn_proposals(dt):
    """RoIs of 2 to 128 pixels (fpnrois) spread over levels 2-5 around
    refer_level 3 at 16 pixels and 0-2 around 1 at 8 pixels, pixel or plain
    areas; then the proposals generate_proposals_v2 keeps.  Each level's RoIs are
    compared through roi_align with that level's counts (Paddle's fetch of
    a level itself holds LoD, which its Executor cannot return as an array)."""
    s, d, im, a, v = proposal_feeds(dt)
    x = data("x", [None, 4, 12, 10], dt)
    r = data("fpnrois", [FPN_ROIS, 4], dt)
    n = data("fpnnum", [None], "int32")
    outs = []

    def pooled(multi, restore, counts):
        outs.extend([restore] + counts)
        for level, num in zip(multi, counts):
            outs.extend(roi("roi_align", x, level, num, dt, pooled_height=2, pooled_width=2, spatial_scale=0.25,
                            sampling_ratio=2, aligned=False))

    pooled(*fpn_levels(r, n, dt, 4, min_level=2, max_level=5, refer_level=3, refer_scale=16, pixel_offset=True))
    pooled(*fpn_levels(r, n, dt, 3, min_level=0, max_level=2, refer_level=1, refer_scale=8, pixel_offset=False))
    rois, _, num = proposals(s, d, im, a, v, dt, pre_nms_topN=30, post_nms_topN=20, nms_thresh=0.2)
    pooled(*fpn_levels(rois, num, dt, 3, min_level=2, max_level=4, refer_level=3, refer_scale=16, pixel_offset=True))
    return [s, d, im, a, v, x, r, n], outs


@both
def collect_fpn_proposals(dt):
    """An FPN's RPN: the RoIs of two levels (generate_proposals_v2 on two
    anchor settings, and 40 fed RoIs with scores in eighths, many equal:
    Paddle's >= comparator leaves them where libstdc++'s stable_sort does)
    merged by score, the best post_nms_topN kept image by image, then spread
    over levels again by distribute_fpn_proposals.  FpnRois is compared
    through roi_align (Paddle's fetch of it holds LoD)."""
    s, d, im, a, v = proposal_feeds(dt)
    x = data("x", [None, 4, 12, 10], dt)
    r = data("fpnrois", [FPN_ROIS, 4], dt)
    q = data("qscores_fpn", [FPN_ROIS, 1], dt)
    n = data("fpnnum", [None], "int32")
    r1, p1, n1 = proposals(s, d, im, a, v, dt, pre_nms_topN=30, post_nms_topN=12, nms_thresh=0.4)
    r2, p2, n2 = proposals(s, d, im, a, v, dt, pre_nms_topN=0, post_nms_topN=8, nms_thresh=0.7, pixel_offset=False)
    outs = []
    for post, levels in ((25, ([r, q, n], [r1, p1, n1])), (100, ([r1, p1, n1], [r, q, n], [r2, p2, n2])),
                         (7, ([r, q, n],))):
        block = paddle.static.default_main_program().current_block()
        fpn = block.create_var(name=paddle.utils.unique_name.generate("fpn_rois"), shape=[-1, 4], dtype=dt)
        num = block.create_var(name=paddle.utils.unique_name.generate("fpn_num"), shape=[-1], dtype="int32")
        block.append_op(type="collect_fpn_proposals",
                        inputs={"MultiLevelRois": [l[0] for l in levels], "MultiLevelScores": [l[1] for l in levels],
                                "MultiLevelRoIsNum": [l[2] for l in levels]},
                        outputs={"FpnRois": [fpn], "RoisNum": [num]}, attrs={"post_nms_topN": post})
        outs += [num] + roi("roi_align", x, fpn, num, dt, pooled_height=2, pooled_width=2, spatial_scale=0.25,
                            sampling_ratio=2, aligned=False)
        if post == 25:
            multi, restore, counts = fpn_levels(fpn, num, dt, 3, min_level=2, max_level=4, refer_level=3,
                                                refer_scale=16, pixel_offset=True)
            outs += [restore] + counts
    return [s, d, im, a, v, x, r, q, n], outs


# ---------------------------------------------------------------- driver
def make_input(v, rng):
    shape = [BATCH if d in (None, -1) else d for d in v.shape]
    dt = str(v.dtype)
    if v.name == "fpnnum":
        return np.array([15, FPN_ROIS - 15], "int32")
    if v.name == "fpnrois":  # square roots of areas log-uniform in [2, 128], some boxes inverted (area 0)
        side = np.exp(rng.uniform(np.log(2), np.log(128), [shape[0], 1]))
        wh = side * np.exp(rng.uniform(-0.5, 0.5, [shape[0], 2])) * rng.choice([1, 1, 1, -1], [shape[0], 1])
        lo = rng.uniform(0, 50, [shape[0], 2])
        return np.concatenate([lo, lo + wh], axis=-1).astype("float64" if "float64" in dt else "float32")
    if v.name.startswith("roisnum"):
        counts = [0, ROIS] if v.name == "roisnum0" else [2, ROIS - 2]
        return np.array(counts, "int64" if "int64" in dt else "int32")
    if v.name == "rois":  # half pixels (round's ties), some inverted or tiny, some off the map
        lo = rng.uniform(-8, 44, shape[:-1] + [2])
        b = np.concatenate([lo, lo + rng.uniform(-3, 24, shape[:-1] + [2])], axis=-1)
        if "int" in dt:
            return np.round(b).astype("int32")
        return (np.round(b * 2) / 2).astype("float64" if "float64" in dt else "float32")
    if v.name == "imshape":  # (height, width): smaller than the anchors reach, so boxes are clipped
        return np.array([[48, 40], [30, 56]][:shape[0]], "float64" if "float64" in dt else "float32")
    if v.name == "anchors":  # pixel boxes on a 4 x 5 map, some reaching past the images
        lo = rng.uniform(-4, 44, shape[:-1] + [2])
        return np.concatenate([lo, lo + rng.uniform(2, 24, shape[:-1] + [2])], axis=-1).astype(
            "float64" if "float64" in dt else "float32")
    if v.name == "variances":
        return rng.uniform(0.1, 1.0, shape).astype("float64" if "float64" in dt else "float32")
    if v.name == "x" and "int32" in dt:
        return rng.integers(-50, 50, size=shape).astype("int32")
    if "int" in dt:
        low, high = INT_RANGE[v.name]
        return rng.integers(low, high, size=shape).astype("int64" if "int64" in dt else "int32")
    ft = "float64" if "float64" in dt else "float32"
    if v.name.startswith("boxes") or v.name.startswith("nboxes"):
        lo = rng.uniform(0, 20, shape[:-1] + [2])
        wh = rng.uniform(1, 12, shape[:-1] + [2])
        b = np.concatenate([lo, lo + wh], axis=-1)
        return (b / 32.0 if v.name.startswith("nboxes") else b).astype(ft)
    if v.name.startswith("scores"):
        return rng.uniform(0, 1, shape).astype(ft)
    if v.name.startswith("qscores"):
        return (rng.integers(0, 8, shape) / 8.0).astype(ft)
    if v.name.startswith("dist"):
        return rng.uniform(0, 1, shape).astype(ft)
    if v.name.startswith("ties"):
        return (rng.integers(0, 5, shape) / 4.0).astype(ft)
    return rng.standard_normal(shape).astype(ft)


def main(argv):
    paddle.enable_static()
    paddle.seed(1)
    for name in argv[2:] or list(CASES):
        out_dir, inputs = build_static_case(argv[1], name, CASES[name], make_input, run_reference=name not in LOD_CASES)
        if name in LOD_CASES:
            lod_reference(out_dir, inputs, {})


if __name__ == "__main__":
    main(sys.argv)

#!/usr/bin/env python3
"""Op-level end-to-end cases for the ops after a tensor whose dim 0 is only
known at run time: a Faster R-CNN-style box head over the proposals
generate_proposals_v2 keeps (tests/oracle/e2e_detection.py's feeds and
generate_proposals_v2), pooled by roi_align, flattened
(flatten_contiguous_range, reshape2 [-1, C*h*w] and [0, -1]), then
paddle.static.nn.fc layers (mul, with two inputs sum, elementwise_add of
the bias, relu), matmul_v2 against a parameter, and the heads: class
scores by softmax / log_softmax, box deltas; element-wise ops between the
rows and a bias [C], a [1, C] parameter, a scalar, and between two tensors
with the same rows (each side of X and Y); scale.  Every parameter is
random (oracle_case.randomize_params: uniform [-1, 1)).  The outputs'
dim 0 is the run's number of RoIs: compared with Paddle's shape as well
as values.

    python e2e_rcnn_head.py OUTDIR [CASE ...]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, run_static_cases, case_registry  # noqa: E402
from e2e_detection import data, make_input, proposal_feeds, proposals, roi  # noqa: E402

import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

CASES, case = case_registry()


def rois_pooled(dt, channels=8, pooled=3, **attrs):
    """generate_proposals_v2's RoIs (at most 20) pooled by roi_align:
    [R, channels, pooled, pooled], R only known at run time."""
    s, d, im, a, v = proposal_feeds(dt)
    x = data("x", [None, channels, 12, 10], dt)
    base = dict(pre_nms_topN=30, post_nms_topN=20, nms_thresh=0.3)
    base.update(attrs)
    rois, probs, num = proposals(s, d, im, a, v, dt, **base)
    pooled_rois = roi("roi_align", x, rois, num, dt, pooled_height=pooled, pooled_width=pooled, spatial_scale=0.25,
                      sampling_ratio=2, aligned=True)[0]
    return [s, d, im, a, v, x], rois, num, pooled_rois


@case
def box_head():
    """roi_align -> flatten -> fc(relu) -> fc(relu) -> fc -> softmax (4
    classes) and fc -> box deltas (4 x 4), as Faster R-CNN's head."""
    feeds, rois, num, pooled = rois_pooled("float32")
    flat = paddle.flatten(pooled, start_axis=1, stop_axis=-1)
    h = paddle.static.nn.fc(flat, 32, activation="relu")
    h = paddle.static.nn.fc(h, 16, activation="relu")
    scores = F.softmax(paddle.static.nn.fc(h, 4))
    deltas = paddle.static.nn.fc(h, 16)
    return feeds, [rois, num, scores, deltas]


@case
def box_head_ops():
    """The head's other spellings: reshape2 [-1, C*9] and [0, -1],
    matmul_v2 against a parameter plus a bias [N] (rows as X, and as Y
    against a lower-rank X), fc over two inputs (sum of two muls),
    elementwise ops with a [1, N] parameter, a scalar and between tensors
    of the same rows, scale, log_softmax, concat along dim 1; the RoIs and
    the pooled features flattened whole (dim 0 the run's R * 4, R * 36),
    reshaped to [-1] and to [0, -1, 2], concatenated along the rows
    (2R)."""
    feeds, rois, num, pooled = rois_pooled("float32", channels=4)
    a = paddle.reshape(pooled, [-1, 36])
    b = paddle.reshape(pooled, [0, -1])
    w = paddle.static.create_parameter([36, 12], "float32")
    bias = paddle.static.create_parameter([12], "float32")
    row = paddle.static.create_parameter([1, 12], "float32")
    m = paddle.matmul(a, w) + bias               # matmul_v2, elementwise_add [R, 12] + [12]
    m2 = paddle.add(bias, paddle.matmul(b, w))   # elementwise_add with X [12] and Y [R, 12]
    flat = paddle.flatten(pooled, start_axis=1, stop_axis=-1)
    both = paddle.static.nn.fc([a, flat], 12)    # mul, mul, sum, elementwise_add
    t = m * row - m2                             # [1, 12] broadcast; the same rows on both sides
    t = paddle.maximum(t, paddle.full([1], 0.25, "float32")) / (F.relu(both) + 1.5)
    t = paddle.scale(t, 2.0, bias=-0.5)
    s = paddle.add_n([t, m, both])               # sum of three with the same rows
    cat = paddle.concat([m, m2, both], axis=1)  # concat of three with the same rows, beside them
    return feeds, [rois, t, s, F.log_softmax(s), F.softmax(m2, axis=-1), paddle.pow(F.relu(m), 2.0) % 3.0, cat,
                   paddle.flatten(rois), paddle.flatten(pooled) * 2.0, paddle.reshape(rois, [-1]) + 1.0,
                   paddle.reshape(pooled, [0, -1, 2]) - 1.0, paddle.concat([rois, rois * 2.0], axis=0)]


@case
def box_head_none_kept():
    """No proposal is min_size wide: each image keeps one zero box, so two
    rows go through the head (the smallest run of the case's binary)."""
    feeds, rois, num, pooled = rois_pooled("float32", min_size=500.0)
    flat = paddle.flatten(pooled, start_axis=1, stop_axis=-1)
    h = paddle.static.nn.fc(flat, 16, activation="relu")
    return feeds, [num, F.softmax(paddle.static.nn.fc(h, 4)), paddle.static.nn.fc(h, 8)]


@case
def box_head_f64():
    """The head in float64: Paddle's double GEMM, softmax and element-wise
    kernels over the run's rows."""
    feeds, rois, num, pooled = rois_pooled("float64")
    flat = paddle.flatten(pooled, start_axis=1, stop_axis=-1)
    w = paddle.static.create_parameter([72, 16], "float64")
    bias = paddle.static.create_parameter([16], "float64")
    h = F.relu(paddle.matmul(flat, w) + bias)
    return feeds, [rois, F.softmax(h), h * 0.5 + h]


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

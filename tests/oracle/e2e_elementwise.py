#!/usr/bin/env python3
"""Op-level end-to-end cases for element-wise ops beyond e2e_math.py's float32
set: lerp (scalar, tensor and broadcast weights), polygamma, the binary ops
on float64, linspace with tensor bounds, equal_all, and an add whose X
broadcasts to a larger Out under enable_inplace.

    python e2e_elementwise.py OUTDIR [CASE ...]

Cases, feeds (drawn from their names) and references: see oracle_case.py's
named_feeds and run_static_cases."""
from oracle_case import append_op as op, case_registry, named_feeds, run_static_cases

import paddle

CASES, case = case_registry()
data, make_input = named_feeds()


@case
def lerp():
    x = data("x", [None, 3, 4])
    y = data("y", [None, 3, 4])
    w = data("w", [4])
    c = data("col", [None, 3, 1])
    d = data("d", [None, 3, 4], "float64")
    e = data("e", [None, 3, 4], "float64")
    outs = [paddle.lerp(x, y, 0.3), paddle.lerp(x, y, w), paddle.lerp(x, y, c), paddle.lerp(x, w, c),
            paddle.lerp(w, c, x), paddle.lerp(d, e, 1.5), paddle.lerp(x, y, paddle.full([1], -0.25, "float32"))]
    return [x, y, w, c, d, e], outs


@case
def polygamma():
    x = data("x", [None, 3, 4])
    y = data("y", [None, 3, 4])
    pos = paddle.abs(x) + 0.5   # away from the poles at 0, -1, -2, ...
    neg = paddle.scale(paddle.abs(y), -1.0) - 0.25
    outs = []
    for n in (1, 2, 3, 5):
        outs += [paddle.polygamma(pos, n), paddle.polygamma(neg, n)]
    p = data("pos", [None, 6], "float64")
    outs += [paddle.polygamma(p, 1), paddle.polygamma(p, 4)]
    return [x, y, p], outs


@case
def elementwise_float64():
    """The binary element-wise ops on float64 tensors, with broadcasting
    (right-aligned and Paddle's axis)."""
    x = data("x", [None, 3, 4], "float64")
    y = data("y", [None, 3, 4], "float64")
    r = data("r", [4], "float64")
    c = data("c", [3], "float64")
    outs = [x + y, x - r, x * y, x / y, paddle.maximum(x, r), paddle.minimum(x, y), paddle.pow(paddle.abs(x), y),
            paddle.floor_divide(x, y), paddle.remainder(x, y), paddle.fmax(x, y), paddle.fmin(x, r),
            op("elementwise_add", {"X": [x], "Y": [c]}, {"Out": ["float64"]}, {"axis": 1})[0]]
    return [x, y, r, c], outs


@case
def linspace_equal_all():
    """linspace with bounds from tensors (float32, converted to int32 and
    float64 outputs), a decreasing range, num=1; equal_all on equal tensors,
    unequal ones, NaN (never equal), different shapes and integers."""
    x = data("x", [None, 3])
    n = data("n", [None, 3], "int64", 0, 3)
    lo, hi = paddle.mean(x), paddle.max(x) + 2.0
    outs = [paddle.linspace(lo, hi, 7), paddle.linspace(hi, lo, 6, "float64"), paddle.linspace(-3.7, 4.2, 8, "int32"),
            paddle.linspace(lo, hi, 1), paddle.linspace(0, 1, 5) * paddle.sum(x)]
    s = data("special", [None, 3])
    outs += [paddle.equal_all(x, x), paddle.equal_all(x, x + 1e-9), paddle.equal_all(x, x * 1.5),
             paddle.equal_all(s, s), paddle.equal_all(x, x[:, :2]), paddle.equal_all(n, n),
             paddle.equal_all(n, n * 0)]
    return [x, n, s], outs


@case
def inplace_broadcast():
    """An element-wise add whose X broadcasts to a larger Out ([B, 1] ->
    [B, 6], [B, 1, 1] -> [B, 2, 3]) must not take X's buffer under
    enable_inplace (rows of Out would overwrite X before it is read: wrong
    at batch >= 2); followed by an op no fusion takes it into and that a
    per-row shift changes (cumsum, not softmax)."""
    x = data("x", [None, 6])
    y = data("y", [None, 4, 5])
    s = paddle.mean(x, axis=-1, keepdim=True) * 0.1 + paddle.arange(6, dtype="float32") * 0.3
    a = paddle.cumsum(s, -1)
    b = paddle.cumsum(paddle.mean(y, axis=[1, 2], keepdim=True) + paddle.reshape(paddle.arange(6, dtype="float32"),
                                                                                [2, 3]), -1)
    # s fetched too: Paddle 2.6's executor otherwise gives cumsum's Out s's
    # buffer, and its exclusive scan (the exclusive variant of
    # tests/test_op_attrs.py, which takes this case as cumsum's first) run in
    # place writes zeros (each element is overwritten before it is read)
    return [x, y], [a, b, s]

if __name__ == "__main__":
    run_static_cases(CASES, make_input)

#!/usr/bin/env python3
"""Op-level end-to-end cases for element-wise ops beyond e2e_math.py's float32
set: lerp (scalar, tensor and broadcast weights), polygamma, the binary ops
on float64, linspace with tensor bounds, equal_all, an add whose X
broadcasts to a larger Out under enable_inplace, rrelu at inference (with
its Noise output), isnan/isinf/isfinite (v2), atan2, NaN and infinities
through the clamping activations (alone and as conv epilogues),
i0/i0e/i1/i1e, float64 paths of the less common ops, and isclose /
allclose.

    python e2e_elementwise.py OUTDIR [CASE ...]

Cases, feeds (drawn from their names) and references: see oracle_case.py's
named_feeds and run_static_cases."""
from oracle_case import append_op as op, case_registry, named_feeds, run_static_cases, unclipped

import paddle
import paddle.nn as nn
import paddle.nn.functional as F

CASES, case = case_registry()
data, make_input = named_feeds()

unclipped_case = unclipped(case)


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


@unclipped_case
def extra_outputs():
    """rrelu at inference with its Noise output (the slope of each element;
    NaN, infinities and zeros of `special`: a NaN keeps slope 1).  Saved
    without clipping extras: Paddle 2.6's default save drops Noise, and
    the reloaded program then fails in Paddle's own kernel."""
    x = data("x", [None, 3, 4])
    s = data("special", [None, 8])
    outs = list(op("rrelu", {"X": [x]}, {"Out": ["float32"], "Noise": ["float32"]},
                   {"lower": 0.05, "upper": 0.4, "is_test": True}))
    outs.append(F.rrelu(x, training=False))
    outs += op("rrelu", {"X": [s]}, {"Out": ["float32"], "Noise": ["float32"]},
               {"lower": 0.1, "upper": 0.2, "is_test": True})
    return [x, s], outs


@unclipped_case
def extra_outputs_float64():
    """The same in float64 (Paddle's double kernel): Out and Noise."""
    x = data("x", [None, 3, 4], "float64")
    outs = list(op("rrelu", {"X": [x]}, {"Out": ["float64"], "Noise": ["float64"]},
                   {"lower": 0.05, "upper": 0.3, "is_test": True}))
    outs.append(F.rrelu(x, lower=0.1, upper=0.7, training=False))
    return [x], outs


@case
def checks_atan2():
    x = data("x", [None, 3, 4])
    s = data("special", [None, 6])
    i = data("i", [None, 6], "int64")
    outs = [paddle.isnan(s), paddle.isinf(s), paddle.isfinite(s), paddle.isnan(i), paddle.isinf(i),
            paddle.isfinite(i)]
    y = data("y", [None, 3, 4])
    j = data("j", [None, 6], "int64")
    outs += [paddle.atan2(x, y), paddle.atan2(i, j)]  # int64 -> float64
    return [x, s, i, y, j], outs


@case
def activation_specials():
    """NaN and infinities through the clamping activations, alone and fused into a
    convolution's epilogue: Paddle's relu gives 0 for -inf and NaN, its relu6, clip,
    hardtanh, hardsigmoid and celu keep a NaN (Eigen's cwiseMax/cwiseMin)."""
    s = data("special", [None, 8])
    outs = [F.relu(s), F.relu6(s), paddle.clip(s, -0.5, 0.75), F.hardtanh(s), F.hardsigmoid(s),
            F.hardswish(s), F.celu(s, 0.5), F.leaky_relu(s, 0.1)]
    img = data("special_img", [None, 1, 4, 6])  # one channel: a 1x1 conv scales it, infinities survive
    conv = nn.Conv2D(1, 3, 1)
    outs += [F.relu(conv(img)), F.relu6(nn.Conv2D(1, 3, 1)(img)), F.hardswish(nn.Conv2D(1, 3, 1)(img))]
    return [s, img], outs


@case
def bessel():
    x = data("x", [None, 4, 8])
    s = data("special", [None, 8])
    wide = paddle.scale(x, 30.0)  # both Chebyshev ranges (|x| <= 8 and above), overflow past 88.7
    outs = []
    for f in (paddle.i0, paddle.i0e, paddle.i1, paddle.i1e):
        outs += [f(x), f(wide), f(s)]
    return [x, s], outs


@case
def bessel_float64():
    """i0, i0e, i1, i1e on float64 tensors (Paddle's double kernels): each
    range its own output, measured at its own scale: tiny |x| (~1e-15),
    standard normal, both Chebyshev ranges (x * 6), |x| in the hundreds
    where the unscaled ones overflow past 709.78 (x * 300), |x| ~ 1e6 for
    the scaled ones, NaN and infinities."""
    x = data("x", [None, 4, 8], "float64")
    s = data("special", [None, 8], "float64")
    outs = []
    for f in (paddle.i0, paddle.i0e, paddle.i1, paddle.i1e):
        outs += [f(paddle.scale(x, k)) for k in (1e-15, 1.0, 6.0, 300.0)] + [f(s)]
    outs += [f(paddle.scale(x, 1e6)) for f in (paddle.i0e, paddle.i1e)]
    return [x, s], outs


@case
def float64_paths():
    x = data("x", [None, 3, 4], "float64")
    y = data("y", [None, 3, 4], "float64")
    idx = data("idx", [None, 2, 4], "int32", 0, 3)
    outs = [paddle.logsumexp(x, axis=1), paddle.linalg.norm(x, 2.5, axis=-1), paddle.linalg.norm(x, 0, axis=1),
            paddle.linalg.norm(x, float("inf"), axis=0, keepdim=True), paddle.atan2(x, y),
            F.label_smooth(x, epsilon=0.1), paddle.argsort(x, axis=1, descending=True), paddle.cumprod(y, 2),
            paddle.put_along_axis(x, idx, paddle.cast(idx, "float64"), 1, reduce="mul"),
            paddle.take_along_axis(y, idx, 1)]
    outs += op("norm", {"X": [x]}, {"Out": ["float64"], "Norm": ["float64"]}, {"axis": 2})[:1]
    return [x, y, idx], outs


@case
def logspace():
    """logspace: constant bounds (base 2 and 10, decreasing, num 1),
    float64 and integer outputs, bounds and base from tensors."""
    x = data("x", [None, 3])
    lo, hi = paddle.mean(x), paddle.max(x) + 1.5
    outs = [paddle.logspace(0, 3, 7, base=2.0), paddle.logspace(2.5, -1.0, 6), paddle.logspace(1.0, 4.0, 1),
            paddle.logspace(-1, 2, 9, base=3.0, dtype="float64"), paddle.logspace(0, 10, 11, base=2, dtype="int32"),
            paddle.logspace(1, 3, 5, base=5, dtype="int64"), paddle.logspace(lo, hi, 8, base=paddle.max(x) + 1.0),
            paddle.logspace(hi, lo, 5) * paddle.sum(x)]
    return [x], outs


@case
def isclose_allclose():
    """isclose and allclose: tolerances that pass some elements and fail
    others (x against x plus noise), the defaults, equal_nan either way on
    NaN and infinities, float64, and Rtol/Atol as float64 tensors (op
    inputs, which Paddle's kernel reads instead of the attributes)."""
    x, noise = data("x", [None, 3, 4]), data("noise", [None, 3, 4])
    s, t = data("special", [None, 3, 4]), data("special2", [None, 3, 4])
    d, e = data("d", [None, 5], "float64"), data("e", [None, 5], "float64")
    y = x + noise * 0.02
    rt, at = paddle.full([1], 0.05, "float64"), paddle.full([1], 0.01, "float64")
    outs = [paddle.isclose(x, y, rtol=0.02, atol=0.01), paddle.isclose(x, y), paddle.isclose(x, x * 1.0000001),
            paddle.isclose(s, t), paddle.isclose(s, t, equal_nan=True), paddle.isclose(d, d + e * 1e-3, 1e-3, 1e-4),
            paddle.allclose(x, y, rtol=0.5, atol=0.5), paddle.allclose(x, y), paddle.allclose(s, s),
            paddle.allclose(s, s, equal_nan=True), paddle.allclose(d, d * 1.0000001)]
    outs += op("isclose", {"Input": [x], "Other": [y], "Rtol": [rt], "Atol": [at]}, {"Out": ["bool"]},
               {"equal_nan": False})
    outs += op("allclose", {"Input": [x], "Other": [y], "Rtol": [rt * 100.0], "Atol": [at]}, {"Out": ["bool"]},
               {"equal_nan": False})
    return [x, noise, s, t, d, e], outs


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

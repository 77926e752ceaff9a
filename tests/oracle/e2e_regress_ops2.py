#!/usr/bin/env python3
"""Op-level regression cases found by running Paddle's per-op unit-test cases
as one-op programs: convolutions with a 1x1 filter, one input channel per
group and several outputs per group (depthwise with a channel multiplier,
stride 1, no padding), where the runtime took its depthwise loop with no
workspace (rt_conv2d_ws_floats asked the pointwise rule first) and crashed;
and their neighbours (1x1 and 3x3, grouped and depthwise, strided, with bias
and fused activations).

    python e2e_regress_ops2.py OUTDIR [CASE ...]

Parameters (filters, conv biases) are re-drawn uniform in [-1, 1) by
oracle_case.randomize_params; inputs are uniform in [-0.5, 1.5).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, run_static_cases  # noqa: E402

import paddle  # noqa: E402
import paddle.nn as nn  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

BATCH = 2
CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def data(name, shape, dtype="float32"):
    return paddle.static.data(name, shape, dtype)


def param(shape):
    return paddle.static.create_parameter(shape, "float32")


# ---------------------------------------------------------------- grouped convolutions
def conv(type, x, w, groups, stride=1, pad=0):
    return op(type, {"Input": [x], "Filter": [w]}, {"Output": ["float32"]},
              {"groups": groups, "strides": [stride, stride], "paddings": [pad, pad], "dilations": [1, 1],
               "data_format": "NCHW"})[0]


@case
def conv_1x1_multiplier():
    """Paddle's test_conv2d_op case: Input [N, 3, 5, 5], Filter [120, 1, 1, 1],
    groups 3 (40 outputs per input channel), as conv2d and as
    depthwise_conv2d; a channel multiplier of 1; with bias, with a fused
    activation (conv_elementwise_add_act), after a relu that only depthwise
    convolutions without bias read (fuse_relu_depthwise_conv: a bias would
    make them fused_conv2d first)."""
    x = data("x", [None, 3, 5, 5])
    a = conv("conv2d", x, param([120, 1, 1, 1]), 3)
    b = conv("depthwise_conv2d", x, param([6, 1, 1, 1]), 3)
    c = nn.Conv2D(3, 3, 1, groups=3)(x)
    d = F.relu(nn.Conv2D(3, 12, 1, groups=3)(x))
    e = F.relu6(nn.Conv2D(3, 9, 1, groups=3, bias_attr=False)(x))
    r = F.relu(x)
    f = nn.Conv2D(3, 6, 1, groups=3, bias_attr=False)(r)
    g = nn.Conv2D(3, 3, 1, groups=3, bias_attr=False)(r)
    return [x], [a, b, c, d, e, f, g]


@case
def conv_1x1_multiplier_strided():
    """1x1 depthwise with a multiplier but not pointwise: strided, padded."""
    x = data("x", [None, 4, 9, 8])
    a = conv("conv2d", x, param([12, 1, 1, 1]), 4, stride=2)
    b = conv("depthwise_conv2d", x, param([8, 1, 1, 1]), 4, pad=1)
    c = F.relu(nn.Conv2D(4, 8, 1, stride=2, padding=1, groups=4)(x))
    return [x], [a, b, c]


@case
def conv_grouped_several_outputs():
    """Groups of several input and output channels, 1x1 (one product per
    group) and 3x3 (im2col per group), strides, bias and activation; 3x3
    depthwise with a multiplier, strided, with bias and relu."""
    x = data("x", [None, 6, 7, 9])
    a = conv("conv2d", x, param([12, 2, 1, 1]), 3)
    b = nn.Conv2D(6, 9, 1, stride=2, groups=3)(x)
    c = F.relu(nn.Conv2D(6, 12, 3, padding=1, groups=3)(x))
    d = nn.Conv2D(6, 4, 3, stride=2, groups=2, bias_attr=False)(x)
    e = F.relu(nn.Conv2D(6, 18, 3, padding=1, stride=2, groups=6)(x))
    f = conv("depthwise_conv2d", x, param([12, 1, 3, 3]), 6, pad=1)
    g = nn.Conv2D(6, 12, (3, 1), padding=(1, 0), groups=6, bias_attr=False)(F.relu(x))
    return [x], [a, b, c, d, e, f, g]


# ---------------------------------------------------------------- driver
def make_input(v, rng):
    return rng.uniform(-0.5, 1.5, [BATCH if d in (None, -1) else d for d in v.shape]).astype("float32")


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

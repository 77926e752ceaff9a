#!/usr/bin/env python3
"""Op-level end-to-end cases for the cnn family: conv2d, depthwise_conv2d,
conv2d_transpose, depthwise_conv2d_transpose, pool2d, max_pool2d_with_index,
batch_norm, layer_norm, instance_norm, group_norm, nearest/bilinear interp
(v1 and v2), pad, pad2d, pad3d, prelu, affine_channel, pixel_shuffle.

    python e2e_cnn.py OUTDIR [CASE ...]

Each case is a small static program (public API where one emits the op,
LayerHelper.append_op for legacy op types) covering the op's attributes;
its parameters are re-drawn from a fixed seed (batch_norm variances kept
positive) so that no initializer's symmetry hides a layout bug.  The inputs
have batch 2.  tests/oracle/oracle_case.py saves each case with Paddle's
reference outputs.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, run_static_cases, case_registry  # noqa: E402

import paddle  # noqa: E402
import paddle.nn as nn  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

BATCH = 2
CASES, case = case_registry()


def data(name, shape, dtype="float32"):
    """A feed; a name already taken in the program gets a numeric suffix."""
    block, base, i = paddle.static.default_main_program().global_block(), name, 1
    while block.has_var(name):
        name, i = f"{base}{i}", i + 1
    return paddle.static.data(name, shape, dtype)


def merged(*parts):
    """One case made of several parts (each returning feeds, fetches), so that
    the test builds fewer binaries."""
    def fn():
        feeds, fetches = [], []
        for part in parts:
            f, o = part()
            feeds += f
            fetches += o
        return feeds, fetches
    return fn


def param(shape):
    return paddle.static.create_parameter(shape, "float32")


# ---------------------------------------------------------------- conv
def conv_basic():
    x = data("x", [None, 3, 17, 15])
    a = nn.Conv2D(3, 8, 3, stride=2, padding=1)(x)
    b = nn.Conv2D(8, 4, (3, 5), stride=(1, 2), padding=(2, 1), dilation=(2, 1))(a)
    c = nn.Conv2D(3, 5, 7, stride=2, padding=3, bias_attr=False)(x)
    return [x], [a, b, c]


def conv_padding_algorithms():
    x = data("x", [None, 3, 16, 13])
    a = nn.Conv2D(3, 4, 3, stride=2, padding="SAME", dilation=2)(x)  # SAME forces dilation 1
    b = nn.Conv2D(3, 4, (4, 2), stride=3, padding="same")(x)
    c = nn.Conv2D(3, 4, 5, stride=2, padding="VALID")(x)
    d = nn.Conv2D(3, 4, 3, padding=[1, 2, 0, 3])(x)
    e = nn.Conv2D(3, 4, 3, stride=2, padding=[[0, 0], [0, 0], [2, 1], [1, 0]])(x)
    return [x], [a, b, c, d, e]


def conv_wide():
    """Products over many pixels with short sums take runtime/rt_wide.c with the epilogue
    (bias, residual, activation) fused, on every target (sums of at most 24 terms): a 3x3
    im2col in two passes of rows (90x90 outputs, 18 terms), a strided 1x1, and a 1x1 with a
    residual; 8100 pixels leave a tail narrower than a vector."""
    x = data("xw", [None, 2, 180, 180])
    r = nn.Conv2D(2, 12, 1, stride=2)(x)
    a = F.relu(nn.Conv2D(2, 12, 3, stride=2, padding=1)(x) + r)
    b = F.relu6(nn.Conv2D(12, 12, 1)(a) + a)
    return [x], [r, a, b]


def conv_pointwise_groups():
    x = data("x", [None, 8, 9, 10])
    a = nn.Conv2D(8, 6, 1)(x)  # direct product
    b = nn.Conv2D(8, 6, 1, stride=2)(x)  # strided 1x1: im2col
    c = nn.Conv2D(8, 12, 3, padding=1, groups=2)(x)
    d = nn.Conv2D(8, 4, 1, groups=4)(x)
    e = nn.Conv2D(8, 8, 3, stride=2, groups=4, dilation=2, padding=2)(x)
    return [x], [a, b, c, d, e]


@case
def conv_winograd():
    """3x3 stride-1 convolutions with >= 16 channels and >= 12x12 outputs take
    the Winograd path: odd sizes, asymmetric and no padding, bias."""
    x = data("x", [None, 16, 15, 13])
    a = nn.Conv2D(16, 24, 3, padding=1)(x)
    b = nn.Conv2D(16, 20, 3, padding=[0, 2, 1, 0], bias_attr=False)(x)
    c = nn.Conv2D(24, 16, 3, padding="SAME")(a)
    y = data("y", [None, 17, 14, 16])
    d = nn.Conv2D(17, 16, 3)(y)
    # >= 24x24 outputs: F(4x4, 3x3)
    z = data("z", [None, 16, 26, 29])
    e = nn.Conv2D(16, 24, 3, padding=1)(z)
    f = nn.Conv2D(16, 18, 3, padding=[2, 0, 1, 1], bias_attr=False)(z)
    g = F.relu(nn.Conv2D(24, 16, 3, padding=1)(F.relu(e)))
    return [x, y, z], [a, b, c, d, e, f, g]


@case
def conv_nhwc():
    """data_format NHWC: plain, strided with dilation, grouped, depthwise,
    1x1 and Winograd-sized convolutions, one followed by NHWC batch_norm and
    relu (not folded: the passes take NCHW only); transposed convolutions;
    group_norm."""
    x = data("x", [None, 15, 13, 16])
    a = nn.Conv2D(16, 8, 3, padding=1, data_format="NHWC")(x)
    b = nn.Conv2D(16, 6, (3, 2), stride=2, dilation=(2, 1), padding="SAME", data_format="NHWC")(x)
    c = nn.Conv2D(16, 8, 3, padding=1, groups=4, bias_attr=False, data_format="NHWC")(x)
    d = nn.Conv2D(16, 16, 3, padding=1, groups=16, data_format="NHWC")(x)
    e = nn.Conv2D(16, 4, 1, data_format="NHWC")(x)
    f = F.relu(nn.BatchNorm2D(24, data_format="NHWC")(nn.Conv2D(16, 24, 3, padding=1, data_format="NHWC")(x)))
    g = nn.Conv2DTranspose(16, 4, 3, stride=2, padding=1, data_format="NHWC")(x)
    h = nn.Conv2DTranspose(16, 8, (2, 3), stride=(2, 1), groups=2, data_format="NHWC")(x)
    i = nn.GroupNorm(4, 16, data_format="NHWC")(x)
    return [x], [a, b, c, d, e, f, g, h, i]


def conv_depthwise():
    x = data("x", [None, 8, 12, 11])
    a = nn.Conv2D(8, 8, 3, padding=1, groups=8)(x)
    b = nn.Conv2D(8, 16, 5, stride=2, padding=2, groups=8)(x)  # channel multiplier 2
    b3 = nn.Conv2D(8, 16, 3, padding=1, groups=8)(x)  # 3x3, multiplier 2: the planar loop's nine taps
    c = nn.Conv2D(8, 8, 3, padding="SAME", groups=8, stride=2)(x)
    d = nn.Conv2D(8, 8, (3, 2), padding=[2, 0, 1, 3], groups=8, dilation=(2, 3))(x)
    e = nn.Conv2D(8, 8, 3, stride=(2, 3), groups=8, bias_attr=False)(x)
    # 3x3 with small outputs take channel blocks of 8 (runtime/rt_dwblock.c): 12 channels (one
    # block and a part), rows of 7 (< 8) and 13 pixels, dilation, strides, a residual add after
    y = data("y", [None, 12, 9, 7])
    f = nn.Conv2D(12, 12, 3, padding=2, dilation=2, groups=12)(y)
    g = nn.Conv2D(12, 12, 3, stride=2, padding=1, groups=12)(y) + 1.5
    h = nn.functional.relu6(nn.Conv2D(12, 12, 3, padding=1, groups=12)(y) + y)
    # wide images go by bands of output rows (64 KiB of interleaved input: 10 rows of 202 pixels)
    z = data("z", [None, 10, 61, 200])
    i = nn.functional.relu(nn.Conv2D(10, 10, 3, padding=1, groups=10)(z) + z)
    j = nn.Conv2D(10, 10, 3, stride=2, padding=1, groups=10)(z)
    k = nn.Conv2D(10, 10, 3, padding=2, dilation=2, groups=10, bias_attr=False)(z)
    return [x, y, z], [a, b, b3, c, d, e, f, g, h, i, j, k]


def conv_transpose():
    x = data("x", [None, 4, 7, 6])
    a = nn.Conv2DTranspose(4, 6, 3, stride=2, padding=1)(x)
    b = nn.Conv2DTranspose(4, 6, 4, stride=2, padding=[1, 0, 2, 1], dilation=2, groups=2)(x)
    c = nn.Conv2DTranspose(4, 2, 3, stride=2, padding=1, output_padding=1)(x)
    d = nn.Conv2DTranspose(4, 6, 3, stride=2, padding=1)(x, output_size=[14, 12])
    e = nn.Conv2DTranspose(4, 5, (2, 3), stride=(3, 1), padding="SAME")(x)
    f = nn.Conv2DTranspose(4, 3, 3, stride=2, padding="VALID", bias_attr=False)(x)
    return [x], [a, b, c, d, e, f]


def conv_transpose_depthwise():
    x = data("x", [None, 8, 6, 7])
    a = nn.Conv2DTranspose(8, 8, 3, stride=2, padding=1, groups=8)(x)
    b = nn.Conv2DTranspose(8, 8, 3, stride=2, padding=1, groups=8)(x, output_size=[12, 14])
    c = nn.Conv2DTranspose(8, 8, 3, stride=2, padding="SAME", dilation=2, groups=8)(x)
    return [x], [a, b, c]


@case
def conv_fused():
    """fused_conv2d (Paddle 2.5+'s oneDNN fusion, which Paddle's CPU executor
    runs through oneDNN): Bias, ResidualData + fuse_residual_connection and
    each fuse_activation with its fuse_alpha / fuse_beta.  Those two are
    extra attributes, which save_inference_model drops unless told not to
    (keep_extra_attrs below).  The input is scaled so that the sums stay
    within the activations' interesting ranges (no all-zero or saturated
    output)."""
    x = data("x", [None, 16, 14, 13])
    r = data("r", [None, 16, 14, 13])
    xs = paddle.scale(x, 0.08)
    outs = []
    specs = [  # (groups, activation, alpha, beta, bias, residual)
        (1, "relu", 0.0, 0.0, True, True),
        (1, "relu6", 0.0, 0.7, True, False),
        (16, "hard_swish", 0.3, 0.4, True, True),
        (1, "leaky_relu", 0.15, 0.0, False, True),
        (16, "swish", 1.7, 0.0, True, False),
        (1, "sigmoid", 0.0, 0.0, True, True),
        (16, "clip", -0.6, 0.4, True, True),
        (1, "hard_sigmoid", 0.3, 0.45, True, False),
        (1, "tanh", 0.0, 0.0, False, False),
        (16, "", 0.0, 0.0, True, True),
    ]
    # the 1x1 product and im2col paths (the 3x3 ones above take Winograd or the depthwise loop)
    specs += [(1, "relu", 0.0, 0.0, True, True, 1, 1), (1, "relu6", 0.0, 0.5, True, False, 3, 2)]
    for groups, act, alpha, beta, bias, residual, *geo in specs:
        k, stride = geo or (3, 1)
        inputs = {"Input": [xs], "Filter": [param([16, 16 // groups, k, k])]}
        if bias:
            inputs["Bias"] = [param([16])]
        if residual:
            inputs["ResidualData"] = [r]
        outs += op("fused_conv2d", inputs, {"Output": ["float32"]},
                   {"strides": [stride, stride], "paddings": [k // 2, k // 2], "dilations": [1, 1], "groups": groups,
                    "data_format": "NCHW", "fuse_activation": act, "fuse_alpha": alpha, "fuse_beta": beta,
                    "fuse_residual_connection": residual})
    return [x, r], outs


conv_fused.keep_extra_attrs = True


# ---------------------------------------------------------------- pool
def pool_windows():
    x = data("x", [None, 5, 13, 12])
    a = nn.MaxPool2D(3, 2, 1)(x)
    b = nn.AvgPool2D(3, 2, 1)(x)  # exclusive
    c = nn.AvgPool2D(3, 2, 1, exclusive=False)(x)
    d = nn.AvgPool2D(3, 2, padding=[1, 0, 2, 1], ceil_mode=True)(x)
    e = nn.AvgPool2D(3, 2, padding=[1, 0, 2, 1], ceil_mode=True, exclusive=False)(x)
    f = F.max_pool2d(x, 3, 2, padding="SAME")
    g = F.avg_pool2d(x, (3, 2), (2, 1), padding="VALID")
    h = nn.MaxPool2D(2, 3, ceil_mode=True)(x)
    # rows wider than the max-pool fast path's run of 256 outputs, stride 1
    # and 2, edges on both sides
    y = data("y", [None, 2, 3, 530])
    i = F.max_pool2d(y, (2, 3), 1, padding=[0, 2])
    j = F.max_pool2d(y, 3, 2, padding=1, ceil_mode=True)
    return [x, y], [a, b, c, d, e, f, g, h, i, j]


@case
def pool_global_adaptive_nhwc():
    x = data("x", [None, 6, 10, 9])
    a = nn.AdaptiveAvgPool2D(1)(x)
    b = nn.AdaptiveAvgPool2D((3, 4))(x)
    c = F.adaptive_avg_pool2d(x, (4, 2))
    d = op("pool2d", {"X": [x]}, {"Out": ["float32"]},
           {"pooling_type": "max", "ksize": [1, 1], "global_pooling": True, "strides": [1, 1], "paddings": [0, 0]})[0]
    e = op("pool2d", {"X": [x]}, {"Out": ["float32"]},
           {"pooling_type": "avg", "ksize": [3, 3], "global_pooling": True, "strides": [1, 1], "paddings": [1, 1]})[0]
    # pool2d max with adaptive: Paddle's kernel ignores `adaptive` for max
    f = op("pool2d", {"X": [x]}, {"Out": ["float32"]},
           {"pooling_type": "max", "ksize": [3, 2], "adaptive": True, "strides": [2, 3], "paddings": [0, 0]})[0]
    n = data("n", [None, 7, 8, 5])
    g = F.max_pool2d(n, 3, 2, padding=1, data_format="NHWC")
    h = F.avg_pool2d(n, 3, 1, padding=1, data_format="NHWC", ceil_mode=True)
    return [x, n], [a, b, c, d, e, f, g, h]


def pool_with_index():
    x = data("x", [None, 4, 13, 12])
    a, am = F.max_pool2d(x, 3, 2, 1, return_mask=True)
    b, bm = F.adaptive_max_pool2d(x, (3, 5), return_mask=True)
    c, cm = op("max_pool2d_with_index", {"X": [x]}, {"Out": ["float32"], "Mask": ["int32"]},
               {"ksize": [1, 1], "global_pooling": True, "strides": [1, 1], "paddings": [0, 0]})
    return [x], [a, am, b, bm, c, cm]


# ---------------------------------------------------------------- norm
def batch_norm_inference():
    x = data("x", [None, 8, 6, 5])
    a = nn.BatchNorm2D(8)(x)
    b = nn.BatchNorm2D(8, epsilon=1e-3, use_global_stats=True)(x)
    n = data("n", [None, 6, 5, 8])
    c = nn.BatchNorm2D(8, data_format="NHWC")(n)
    s = data("s", [None, 8])
    d = nn.BatchNorm1D(8)(s)
    t = data("t", [None, 8, 7])
    e = nn.BatchNorm1D(8)(t)
    f = F.batch_norm(x, param([8]), paddle.abs(param([8])) + 0.5, training=False)  # no Scale / Bias
    return [x, n, s, t], [a, b, c, d, e, f]


def layer_instance_group_norm():
    x = data("x", [None, 8, 6, 5])
    a = nn.LayerNorm([6, 5])(x)
    b = nn.LayerNorm(5, epsilon=1e-3)(x)
    c = nn.LayerNorm([8, 6, 5], weight_attr=False, bias_attr=False)(x)
    d = nn.InstanceNorm2D(8)(x)
    e = nn.InstanceNorm2D(8, weight_attr=False, bias_attr=False)(x)
    f = nn.GroupNorm(4, 8)(x)
    g = nn.GroupNorm(2, 8, epsilon=1e-3)(x)
    return [x], [a, b, c, d, e, f, g]


# ---------------------------------------------------------------- interp
def interp_v2():
    x = data("x", [None, 3, 7, 9])
    a = F.interpolate(x, scale_factor=2, mode="nearest")
    b = F.interpolate(x, size=[5, 11], mode="nearest", align_corners=False)
    c = F.interpolate(x, size=[5, 11], mode="bilinear", align_corners=True)
    d = F.interpolate(x, size=[12, 4], mode="bilinear", align_corners=False, align_mode=0)
    e = F.interpolate(x, size=[12, 4], mode="bilinear", align_corners=False, align_mode=1)
    f = F.interpolate(x, scale_factor=1.5, mode="bilinear")
    g = F.interpolate(x, scale_factor=[0.7, 1.3], mode="bilinear", align_mode=1)
    h = F.interpolate(x, scale_factor=1 / 3, mode="nearest")
    i = F.interpolate(x, size=[7, 9], mode="bilinear")  # same size: a copy
    j = F.interpolate(x, size=[1, 6], mode="bilinear", align_corners=True)
    return [x], [a, b, c, d, e, f, g, h, i, j]


def interp_cubic_linear():
    x = data("x", [None, 3, 7, 9])
    a = F.interpolate(x, size=[12, 5], mode="bicubic", align_corners=False)
    b = F.interpolate(x, size=[12, 5], mode="bicubic", align_corners=True)
    c = F.interpolate(x, scale_factor=[1.5, 0.8], mode="bicubic")
    y = data("y", [None, 4, 10])
    d = F.interpolate(y, size=[17], mode="linear", data_format="NCW")
    e = F.interpolate(y, size=[6], mode="linear", align_corners=True, data_format="NCW")
    f = F.interpolate(y, scale_factor=1.7, mode="linear", align_mode=1, data_format="NCW")
    g = F.interpolate(y, scale_factor=0.6, mode="linear", align_mode=0, data_format="NCW")
    outs = [a, b, c, d, e, f, g]
    for t, v, attrs in [("bicubic_interp", x, {"out_h": 14, "out_w": 4, "interp_method": "bicubic"}),
                        ("bicubic_interp", x, {"out_h": 14, "out_w": 4, "interp_method": "bicubic",
                                               "align_corners": False}),
                        ("bicubic_interp", x, {"scale": 1.5, "interp_method": "bicubic", "align_corners": False}),
                        ("linear_interp", y, {"out_w": 21, "interp_method": "linear"}),
                        ("linear_interp", y, {"out_w": 7, "interp_method": "linear", "align_corners": False,
                                              "align_mode": 0})]:
        outs += op(t, {"X": [v]}, {"Out": ["float32"]}, attrs)
    return [x, y], outs


def interp_v1():
    x = data("x", [None, 4, 7, 9])
    outs = []
    for t, attrs in [("nearest_interp", {"scale": 2.0, "interp_method": "nearest"}),
                     ("nearest_interp", {"out_h": 5, "out_w": 4, "interp_method": "nearest", "align_corners": False}),
                     ("bilinear_interp", {"out_h": 5, "out_w": 6, "interp_method": "bilinear"}),
                     ("bilinear_interp", {"scale": 1.5, "interp_method": "bilinear", "align_corners": False,
                                          "align_mode": 0}),
                     ("bilinear_interp", {"out_h": 10, "out_w": 13, "interp_method": "bilinear",
                                          "align_corners": False, "align_mode": 1})]:
        outs += op(t, {"X": [x]}, {"Out": ["float32"]}, attrs)
    return [x], outs


# ---------------------------------------------------------------- pad
@case
def pad_modes():
    x = data("x", [None, 3, 6, 5])
    a = F.pad(x, [1, 2, 3, 0], mode="constant", value=0.5)
    b = F.pad(x, [2, 1, 0, 3], mode="reflect")
    c = F.pad(x, [2, 1, 0, 3], mode="replicate")
    d = F.pad(x, [2, 1, 3, 0], mode="circular")
    e = F.pad(x, [1, 0, 2, 1], mode="reflect", data_format="NHWC")
    v = data("v", [None, 2, 4, 5, 3])
    f = F.pad(v, [1, 0, 2, 1, 0, 2], mode="replicate", data_format="NCDHW")
    g = F.pad(v, [1, 2, 0, 1, 1, 0], mode="constant", value=-1.0, data_format="NDHWC")
    outs = [a, b, c, d, e, f, g]
    # pad2d (Paddle 1.x) has no kernel in Paddle 2.6: its emitter shares rt_pad3d with pad3d
    outs += op("pad", {"X": [v]}, {"Out": ["float32"]}, {"paddings": [0, 1, 1, 0, 0, 2, 3, 1, 1, 1], "pad_value": 2.0})
    return [x, v], outs


@case
def pad_negative():
    """pad3d with negative paddings, which crop (Paddle reads X at the
    output position less the padding before it, in every mode): each mode
    over v [B, 2, 4, 5, 3] (NCDHW and NDHWC), and a 4-D x through pad3d."""
    x = data("x", [None, 3, 6, 5])
    v = data("v", [None, 2, 4, 5, 3])
    outs = [F.pad(x, [-1, 2, 1, -2], mode="reflect")]
    for m in ("constant", "reflect", "replicate", "circular"):
        outs.append(F.pad(v, [-1, 2, 1, -1, 0, -2], mode=m, value=0.5, data_format="NCDHW"))
        outs.append(F.pad(v, [2, -1, -2, 1, -1, 1], mode=m, value=-1.5, data_format="NDHWC"))
    return [x, v], outs


# ---------------------------------------------------------------- small ops
@case
def prelu_affine_shuffle():
    x = data("x", [None, 8, 4, 6])
    a = nn.PReLU()(x)
    b = nn.PReLU(num_parameters=8)(x)
    c = op("prelu", {"X": [x], "Alpha": [param([1, 8, 4, 6])]}, {"Out": ["float32"]}, {"mode": "element"})[0]
    n = data("n", [None, 4, 6, 8])
    d = nn.PReLU(num_parameters=8, data_format="NHWC")(n)
    e = op("affine_channel", {"X": [x], "Scale": [param([8])], "Bias": [param([8])]}, {"Out": ["float32"]},
           {"data_layout": "NCHW"})[0]
    f = op("affine_channel", {"X": [n], "Scale": [param([8])], "Bias": [param([8])]}, {"Out": ["float32"]},
           {"data_layout": "NHWC"})[0]
    g = nn.PixelShuffle(2)(x)
    h = nn.PixelShuffle(2, data_format="NHWC")(n)
    return [x, n], [a, b, c, d, e, f, g, h]


@case
def mini_cnn():
    """conv-bn-relu-pool blocks and a classifier head, as the image models use them."""
    x = data("x", [None, 3, 32, 32])
    y = F.relu(nn.BatchNorm2D(16)(nn.Conv2D(3, 16, 7, stride=2, padding=3, bias_attr=False)(x)))
    y = nn.MaxPool2D(3, 2, 1)(y)
    z = F.relu6(nn.BatchNorm2D(16)(nn.Conv2D(16, 16, 3, padding=1, groups=16, bias_attr=False)(y)))
    z = nn.BatchNorm2D(32)(nn.Conv2D(16, 32, 1, bias_attr=False)(z))
    z = nn.AdaptiveAvgPool2D(1)(z)
    return [x], [z]


# ---------------------------------------------------------------- merged cases
@case
def conv3d():
    """conv3d: strides, 3- and 6-value paddings, dilations, groups, SAME,
    channel last (NDHWC)."""
    x = data("x", [None, 4, 5, 9, 8])
    a = nn.Conv3D(4, 6, 3, stride=(1, 2, 2), padding=1)(x)
    b = nn.Conv3D(4, 4, (2, 3, 3), padding=(0, 0, 1, 2, 2, 1), dilation=(1, 2, 1), groups=2, bias_attr=False)(x)
    c = nn.Conv3D(4, 3, 3, stride=2, padding="SAME")(x)
    d = nn.Conv3D(4, 6, (2, 3, 3), stride=(1, 2, 1), padding=1, groups=2, data_format="NDHWC")(
        x.transpose([0, 2, 3, 4, 1]))
    return [x], [a, b, c, d]


CASES["conv_plain"] = merged(conv_basic, conv_padding_algorithms, conv_wide)
CASES["conv_groups"] = merged(conv_pointwise_groups, conv_depthwise)
CASES["conv_transposed"] = merged(conv_transpose, conv_transpose_depthwise)
CASES["pool"] = merged(pool_windows, pool_with_index)
CASES["norm"] = merged(batch_norm_inference, layer_instance_group_norm)
CASES["interp"] = merged(interp_v2, interp_v1, interp_cubic_linear)


# ---------------------------------------------------------------- driver
def make_input(v, rng):
    return rng.standard_normal([BATCH if d in (None, -1) else d for d in v.shape]).astype("float32")


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

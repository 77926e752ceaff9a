#!/usr/bin/env python3
"""Op zoo for the nn family: conv, conv_transpose, pool, norm, interp,
softmax, dropout, lookup_table, detection, fake_quant, pad, prelu,
affine_channel, pixel_shuffle, im2sequence.

    python zoo_nn.py OUTDIR [CASE ...]

builds one small Paddle program per case and saves it as
OUTDIR/<case>/model.pdmodel + model.pdiparams.  Most cases are static
programs built with the public API (paddle.static / paddle.nn); a few are
dygraph layers exported with paddle.jit.save and InputSpec([None, ...]);
legacy op types that no 2.x API emits any more (pad2d, lookup_table,
the v1 interps, fake quantization, multiclass_nms, ...) are appended with
LayerHelper.append_op, which runs Paddle's own InferShape just the same.
The test harness runs `paddlec inspect --json` on every case and requires
that every op has a shape rule and every inferred shape and dtype equals the
VarDesc Paddle wrote.
"""
import os
import sys

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.base.layer_helper import LayerHelper
from paddle.static import InputSpec

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def data(name, shape, dtype="float32"):
    return paddle.static.data(name, shape, dtype)


def param(shape, dtype="float32"):
    init = None if dtype.startswith("float") else nn.initializer.Constant(0)
    return paddle.static.create_parameter(shape, dtype, default_initializer=init)


def op(type, inputs, outputs, attrs):
    """Appends a raw op; `outputs` maps slot -> list of dtypes (a new var each)
    or existing vars (in-place outputs).  Returns {slot: [var, ...]}."""
    helper = LayerHelper(type)
    outs = {s: [dt if isinstance(dt, paddle.static.Variable) else helper.create_variable_for_type_inference(dt)
                for dt in dts]
            for s, dts in outputs.items()}
    helper.append_op(type=type, inputs=inputs, outputs=outs, attrs=attrs)
    return outs


def first(outs):
    return [v[0] for v in outs.values()]


# ---------------------------------------------------------------- conv
@case
def conv2d_basic():
    x = data("x", [None, 3, 32, 30])
    y = nn.Conv2D(3, 8, 3, stride=2, padding=1)(x)
    z = nn.Conv2D(8, 4, (3, 5), stride=(1, 2), padding=(2, 1), dilation=(2, 1))(y)
    return [x], [y, z]


@case
def conv2d_same_valid():
    x = data("x", [None, 3, 31, 29])
    a = nn.Conv2D(3, 4, 3, stride=2, padding="SAME", dilation=2)(x)
    b = nn.Conv2D(3, 4, (4, 2), stride=3, padding="same")(x)
    c = nn.Conv2D(3, 4, 5, stride=2, padding="VALID")(x)
    return [x], [a, b, c]


@case
def conv2d_asym_pad():
    x = data("x", [None, 3, 17, 16])
    a = nn.Conv2D(3, 4, 3, padding=[1, 2, 0, 3])(x)
    b = nn.Conv2D(3, 4, 3, stride=2, padding=[[0, 0], [0, 0], [2, 1], [1, 0]])(x)
    return [x], [a, b]


@case
def conv2d_nhwc_groups():
    x = data("x", [None, 15, 14, 6])
    a = nn.Conv2D(6, 4, 3, stride=2, padding=1, groups=2, data_format="NHWC")(x)
    b = nn.Conv2D(6, 6, 3, padding="SAME", groups=3, data_format="NHWC")(x)
    return [x], [a, b]


@case
def conv2d_unknown_hw():
    x = data("x", [None, 3, None, 20])
    a = nn.Conv2D(3, 4, 3, stride=2, padding=1)(x)
    b = nn.Conv2D(3, 4, 3, padding="SAME")(x)
    return [x], [a, b]


@case
def conv2d_dtypes():
    x = data("x", [2, 3, 8, 8], "float64")
    a = F.conv2d(x, param([4, 3, 3, 3], "float64"))
    h = data("h", [None, 3, 8, 8], "float16")
    b = F.conv2d(h, param([4, 3, 1, 1], "float16"), stride=2)
    return [x, h], [a, b]


@case
def depthwise_conv2d():
    x = data("x", [None, 8, 20, 20])
    a = nn.Conv2D(8, 8, 3, padding=1, groups=8)(x)
    b = nn.Conv2D(8, 16, 5, stride=2, padding=2, groups=8)(x)
    c = nn.Conv2D(8, 8, 3, padding="SAME", groups=8, dilation=2)(x)
    return [x], [a, b, c]


@case
def conv2d_legacy_anylayout():
    x = data("x", [None, 3, 12, 12])
    w = param([4, 3, 3, 3])
    outs = op("conv2d", {"Input": [x], "Filter": [w]}, {"Output": ["float32"]},
              {"strides": [1, 1], "paddings": [1, 1], "dilations": [1, 1], "groups": 1,
               "data_format": "AnyLayout"})
    return [x], first(outs)


@case
def conv3d_variants():
    x = data("x", [None, 3, 8, 16, 15])
    a = nn.Conv3D(3, 4, 3, stride=2, padding=1)(x)
    b = nn.Conv3D(3, 4, (1, 3, 3), padding="SAME")(x)
    c = nn.Conv3D(3, 4, 3, padding=[1, 0, 2, 1, 0, 1], dilation=(1, 2, 1))(x)
    d = data("d", [None, 8, None, 12, 3])
    e = nn.Conv3D(3, 6, 3, stride=(1, 2, 2), padding="VALID", groups=3, data_format="NDHWC")(d)
    return [x, d], [a, b, c, e]


# ---------------------------------------------------------------- conv_transpose
@case
def conv2d_transpose_basic():
    x = data("x", [None, 4, 9, 8])
    a = nn.Conv2DTranspose(4, 6, 3, stride=2, padding=1)(x)
    b = nn.Conv2DTranspose(4, 6, 4, stride=2, padding=[1, 0, 2, 1], dilation=2, groups=2)(x)
    c = nn.Conv2DTranspose(4, 2, 3, stride=2, padding=1, output_padding=1)(x)
    return [x], [a, b, c]


@case
def conv2d_transpose_output_size():
    x = data("x", [None, 4, 8, 8])
    a = nn.Conv2DTranspose(4, 6, 3, stride=2, padding=1)(x, output_size=[16, 16])
    b = F.conv2d_transpose(x, param([4, 2, 3, 3]), stride=2, output_size=[17, 15])
    t = data("t", [1], "int32")
    c = F.conv2d_transpose(x, param([4, 2, 3, 3]), stride=2, output_size=[t, 15])
    return [x, t], [a, b, c]


@case
def conv2d_transpose_same_nhwc():
    x = data("x", [None, 7, 9, 4])
    a = nn.Conv2DTranspose(4, 6, 3, stride=2, padding="SAME", data_format="NHWC")(x)
    b = nn.Conv2DTranspose(4, 6, 3, stride=3, padding="VALID", data_format="NHWC")(x)
    return [x], [a, b]


@case
def conv2d_transpose_unknown_hw():
    x = data("x", [None, 4, None, 8])
    a = nn.Conv2DTranspose(4, 6, 3, stride=2, padding=1)(x)
    b = nn.Conv2DTranspose(4, 6, 3, stride=2, padding=1, output_padding=1)(x)
    return [x], [a, b]


@case
def depthwise_conv2d_transpose():
    x = data("x", [None, 8, 10, 10])
    a = nn.Conv2DTranspose(8, 8, 3, stride=2, padding=1, groups=8)(x)
    b = nn.Conv2DTranspose(8, 8, 3, stride=2, padding=1, groups=8)(x, output_size=[20, 20])
    c = nn.Conv2DTranspose(8, 8, 3, stride=2, padding="SAME", dilation=2, groups=8)(x)
    return [x], [a, b, c]


@case
def conv3d_transpose_variants():
    x = data("x", [None, 4, 5, 6, 7])
    a = nn.Conv3DTranspose(4, 2, 3, stride=2, padding=1)(x)
    b = nn.Conv3DTranspose(4, 2, 3, stride=2, padding=1)(x, output_size=[10, 12, 14])
    d = data("d", [None, 5, 6, 7, 4])
    c = nn.Conv3DTranspose(4, 6, 2, stride=2, groups=2, data_format="NDHWC")(d)
    return [x, d], [a, b, c]


# ---------------------------------------------------------------- pool
@case
def pool2d_max_avg():
    x = data("x", [None, 4, 17, 16])
    a = nn.MaxPool2D(3, 2, 1)(x)
    b = nn.MaxPool2D(3, 2, 0, ceil_mode=True)(x)
    c = nn.AvgPool2D(2, 2, exclusive=False)(x)
    d = nn.AvgPool2D(3, 2, padding=[1, 0, 2, 1], ceil_mode=True)(x)
    e = F.max_pool2d(x, 3, 2, padding="SAME")
    f = F.avg_pool2d(x, (3, 2), (2, 1), padding="VALID")
    return [x], [a, b, c, d, e, f]


@case
def pool2d_nhwc_unknown():
    x = data("x", [None, 15, None, 3])
    a = F.max_pool2d(x, 2, 2, data_format="NHWC")
    b = F.avg_pool2d(x, 3, 1, padding=1, data_format="NHWC", ceil_mode=True)
    c = F.adaptive_avg_pool2d(x, [2, 3], data_format="NHWC")
    return [x], [a, b, c]


@case
def pool2d_adaptive():
    x = data("x", [None, 8, None, None])
    a = nn.AdaptiveAvgPool2D(1)(x)
    b = nn.AdaptiveAvgPool2D((3, 5))(x)
    c = nn.AdaptiveMaxPool2D(4)(x)
    return [x], [a, b, c]


@case
def pool2d_global_legacy():
    x = data("x", [None, 8, 7, None])
    outs = []
    for glob, adaptive in ((True, False), (True, True)):
        outs += first(op("pool2d", {"X": [x]}, {"Out": ["float32"]},
                         {"pooling_type": "avg", "ksize": [2, 2], "global_pooling": glob,
                          "adaptive": adaptive, "strides": [1, 1], "paddings": [0, 0]}))
    return [x], outs


@case
def pool2d_ksize_var():
    x = data("x", [None, 8, 12, 12])
    k = paddle.full([2], 3, "int32")
    outs = first(op("pool2d", {"X": [x]}, {"Out": ["float32"]},
                    {"pooling_type": "max", "ksize": k, "strides": [1, 1], "paddings": [0, 0]}))
    return [x], outs


@case
def max_pool_with_index():
    x = data("x", [None, 4, 13, 12])
    a, am = F.max_pool2d(x, 3, 2, 1, return_mask=True)
    b, bm = F.adaptive_max_pool2d(x, (3, 2), return_mask=True)
    v = data("v", [None, 2, 7, 8, 9])
    c, cm = F.max_pool3d(v, 2, 2, return_mask=True)
    d, dm = F.adaptive_max_pool3d(v, 2, return_mask=True)
    u = data("u", [None, 4, None, 12])
    f, fm = F.max_pool2d(u, 2, 1, 1, return_mask=True)
    e = first(op("max_pool2d_with_index", {"X": [x]}, {"Out": ["float32"], "Mask": ["int32"]},
                 {"ksize": [1, 1], "global_pooling": True, "strides": [1, 1], "paddings": [0, 0]}))
    return [x, v, u], [a, am, b, bm, c, cm, d, dm, f, fm] + e


@case
def pool3d_variants():
    x = data("x", [None, 3, 8, 9, 10])
    a = nn.MaxPool3D(3, 2, 1)(x)
    b = nn.AvgPool3D(2, 2, ceil_mode=True, exclusive=False)(x)
    c = nn.AdaptiveAvgPool3D((1, 2, 3))(x)
    d = F.avg_pool3d(x, 3, 2, padding="SAME")
    n = data("n", [None, 8, 9, None, 3])
    e = F.max_pool3d(n, 2, 2, data_format="NDHWC")
    return [x, n], [a, b, c, d, e]


# ---------------------------------------------------------------- norm
@case
def batch_norm_train():
    x = data("x", [None, 8, 6, 5])
    a = nn.BatchNorm2D(8)(x)
    n = data("n", [None, 7, 5, 8])
    b = nn.BatchNorm2D(8, data_format="NHWC")(n)
    s = data("s", [None, 8])
    c = nn.BatchNorm1D(8)(s)
    v = data("v", [None, 4, 3, 3, 3])
    d = nn.BatchNorm3D(4)(v)
    h = data("h", [None, 8, None, 5], "float16")
    e = nn.BatchNorm2D(8)(h)
    return [x, n, s, v, h], [a, b, c, d, e]


@case
def batch_norm_test_mode():
    x = data("x", [None, 8, 6, 5])
    a = paddle.static.nn.batch_norm(x, is_test=True)
    n = data("n", [None, 6, 5, 8])
    b = paddle.static.nn.batch_norm(n, is_test=True, data_layout="NHWC")
    c = F.batch_norm(x, paddle.zeros([8]), paddle.ones([8]), training=False)
    d = nn.BatchNorm2D(8, use_global_stats=True)(x)
    return [x, n], [a, b, c, d]


@case
def layer_norm_axes():
    x = data("x", [None, 8, 6, 5])
    a = nn.LayerNorm([6, 5])(x)
    b = nn.LayerNorm(5)(x)
    c = nn.LayerNorm([8, 6, 5])(x)
    s = data("s", [None, None, 16], "float16")
    d = nn.LayerNorm(16)(s)
    e = F.layer_norm(x, [5], epsilon=1e-6)
    return [x, s], [a, b, c, d, e]


@case
def instance_group_norm():
    x = data("x", [None, 8, 6, 5])
    a = nn.InstanceNorm2D(8)(x)
    s = data("s", [3, 4, 10])
    b = nn.InstanceNorm1D(4)(s)
    c = nn.GroupNorm(4, 8)(x)
    n = data("n", [None, 6, 5, 8])
    d = nn.GroupNorm(2, 8, data_format="NHWC")(n)
    return [x, s, n], [a, b, c, d]


@case
def norm_unknown_dims():
    x = data("x", [None, None, 4, 4])
    b = nn.LayerNorm(4)(x)
    m = data("m", [None, 12])
    c = nn.LayerNorm(12)(m)
    d = F.instance_norm(x)
    return [x, m], [b, c, d]


@case
def batch_norm_anylayout_legacy():
    x = data("x", [None, 4, 5, 6])
    p = [param([6]) for _ in range(4)]
    outs = op("batch_norm", {"X": [x], "Scale": [p[0]], "Bias": [p[1]], "Mean": [p[2]],
                             "Variance": [p[3]]},
              {"Y": ["float32"], "MeanOut": [p[2]], "VarianceOut": [p[3]],
               "SavedMean": ["float32"], "SavedVariance": ["float32"]},
              {"data_layout": "AnyLayout", "is_test": False})
    return [x], [outs["Y"][0]]


# ---------------------------------------------------------------- interp (v2)
@case
def interp_v2_scale_size():
    x = data("x", [None, 4, 7, 9])
    a = F.interpolate(x, scale_factor=2, mode="nearest")
    b = F.interpolate(x, size=[5, 11], mode="bilinear", align_corners=True)
    c = F.interpolate(x, scale_factor=1.5, mode="bilinear")
    d = F.interpolate(x, scale_factor=[0.5, 3], mode="bicubic")
    e = nn.Upsample(scale_factor=2, mode="nearest", data_format="NHWC")(x)
    f = nn.Upsample(size=[3, 4], mode="bilinear", align_mode=1, align_corners=False)(x)
    return [x], [a, b, c, d, e, f]


@case
def interp_v2_fractional():
    x = data("x", [None, 4, 9, 10])
    a = F.interpolate(x, scale_factor=1 / 3, mode="nearest")
    b = F.interpolate(x, scale_factor=[0.7, 1.1], mode="bilinear")
    c = F.interpolate(x, scale_factor=2.5, mode="bicubic", align_corners=True)
    return [x], [a, b, c]


@case
def interp_v2_ranks():
    x = data("x", [None, 4, 10])
    a = F.interpolate(x, scale_factor=2, mode="linear", data_format="NCW")
    b = F.interpolate(x, size=[7], mode="linear", data_format="NWC")
    v = data("v", [None, 3, 4, 5, 6])
    c = F.interpolate(v, scale_factor=[2, 1, 0.5], mode="trilinear", data_format="NCDHW")
    d = F.interpolate(v, size=[3, 3, 3], mode="nearest", data_format="NDHWC")
    return [x, v], [a, b, c, d]


@case
def interp_v2_tensor_sizes():
    x = data("x", [None, 4, None, 9])
    t = data("t", [1], "int32")
    sz = data("sz", [2], "int32")
    sf = data("sf", [1], "float32")
    a = F.interpolate(x, size=sz, mode="nearest")
    b = F.interpolate(x, size=[t, 7], mode="bilinear")
    c = F.interpolate(x, scale_factor=sf, mode="nearest")
    d = F.interpolate(x, scale_factor=2, mode="nearest")
    return [x, t, sz, sf], [a, b, c, d]


# ---------------------------------------------------------------- interp (v1, legacy)
def _v1(type, x, attrs, extra=None):
    inputs = {"X": [x]}
    inputs.update(extra or {})
    return first(op(type, inputs, {"Out": [x.dtype]}, attrs))


@case
def interp_v1_legacy():
    x = data("x", [None, 4, 7, 9])
    outs = []
    outs += _v1("nearest_interp", x, {"scale": 2.0, "interp_method": "nearest"})
    outs += _v1("bilinear_interp", x, {"out_h": 5, "out_w": 6, "interp_method": "bilinear"})
    outs += _v1("bilinear_interp", x, {"scale": 1.5, "interp_method": "bilinear",
                                       "data_layout": "NHWC"})
    outs += _v1("bicubic_interp", x, {"out_h": 14, "out_w": 18, "interp_method": "bicubic"})
    l3 = data("l3", [None, 4, 10])
    outs += _v1("linear_interp", l3, {"out_w": 21, "interp_method": "linear"})
    v = data("v", [None, 3, 4, 5, 6])
    outs += _v1("trilinear_interp", v, {"scale": 2.0, "interp_method": "trilinear"})
    outs += _v1("trilinear_interp", v, {"out_d": 2, "out_h": 3, "out_w": 4,
                                        "interp_method": "trilinear"})
    return [x, l3, v], outs


@case
def interp_v1_tensor_inputs():
    x = data("x", [None, 4, 7, 9])
    sz = data("sz", [2], "int32")
    sc = data("sc", [1], "float32")
    t = data("t", [1], "int32")
    outs = []
    outs += _v1("nearest_interp", x, {"out_h": 3, "out_w": 4, "interp_method": "nearest"},
                {"OutSize": [sz]})
    outs += _v1("bilinear_interp", x, {"scale": 2.0, "interp_method": "bilinear"},
                {"Scale": [sc]})
    outs += _v1("nearest_interp", x, {"out_h": -1, "out_w": 5, "interp_method": "nearest"},
                {"SizeTensor": [t, t]})
    u = data("u", [None, 4, None, 9])
    outs += _v1("nearest_interp", u, {"scale": 2.0, "interp_method": "nearest"})
    return [x, sz, sc, t, u], outs


# ---------------------------------------------------------------- softmax / dropout / embedding
@case
def softmax_axes():
    x = data("x", [None, 5, 6])
    a = F.softmax(x)
    b = F.softmax(x, axis=1)
    c = F.softmax(x, axis=-3)
    d = F.log_softmax(x, axis=0)
    e = F.softmax(data("e", [4, 3], "float64"))
    z = data("z", [], "float32")
    f = F.softmax(z)
    g = F.log_softmax(z, axis=0)
    return [x, z], [a, b, c, d, e, f, g]


@case
def dropout_modes():
    x = data("x", [None, 5, 6])
    a = F.dropout(x, 0.3)
    b = F.dropout(x, 0.3, mode="downscale_in_infer")
    c = F.dropout(x, 0.2, training=False)
    d = nn.Dropout(0.5)(x)
    p = paddle.full([1], 0.25, "float32")
    e = F.dropout(x, p)
    z = data("z", [], "float32")
    f = F.dropout(z, 0.5)
    return [x, z], [a, b, c, d, e, f]


@case
def embedding_v2():
    ids = data("ids", [None, 5], "int64")
    a = nn.Embedding(100, 16, padding_idx=0)(ids)
    i3 = data("i3", [None, 4, 3], "int32")
    b = nn.Embedding(50, 8, sparse=True, padding_idx=-1)(i3)
    i0 = data("i0", [], "int64")
    c = F.embedding(i0, param([10, 4]))
    d = F.embedding(ids, param([10, 4], "float16"))
    return [ids, i3, i0], [a, b, c, d]


@case
def lookup_table_v1():
    ids = data("ids", [None, 1], "int64")
    w = param([100, 16])
    a = first(op("lookup_table", {"W": [w], "Ids": [ids]}, {"Out": ["float32"]},
                 {"padding_idx": -1}))
    i3 = data("i3", [None, 7, 1], "int64")
    b = first(op("lookup_table", {"W": [w], "Ids": [i3]}, {"Out": ["float32"]},
                 {"padding_idx": 3, "is_sparse": True}))
    return [ids, i3], a + b


# ---------------------------------------------------------------- detection
@case
def prior_box_variants():
    img = data("img", [None, 3, 64, 64])
    feat = data("feat", [None, 8, 8, 8])
    b1, v1 = paddle.vision.ops.prior_box(feat, img, min_sizes=[16.0], max_sizes=[32.0],
                                         aspect_ratios=[2.0, 3.0], flip=True, clip=True)
    b2, v2 = paddle.vision.ops.prior_box(feat, img, min_sizes=[8.0, 16.0],
                                         aspect_ratios=[1.0, 2.0, 2.0000001], flip=False,
                                         steps=[8.0, 8.0], min_max_aspect_ratios_order=True)
    u = data("u", [None, 8, None, None])
    b3, v3 = paddle.vision.ops.prior_box(u, img, min_sizes=[16.0, 24.0], aspect_ratios=[1.0])
    return [img, feat, u], [b1, v1, b2, v2, b3, v3]


@case
def density_prior_box_legacy():
    img = data("img", [None, 3, 64, 64])
    feat = data("feat", [None, 8, 6, 7])
    outs = []
    for flatten in (False, True):
        outs += first(op("density_prior_box", {"Input": [feat], "Image": [img]},
                         {"Boxes": ["float32"], "Variances": ["float32"]},
                         {"variances": [0.1, 0.1, 0.2, 0.2], "clip": True,
                          "flatten_to_2d": flatten, "fixed_sizes": [32.0, 64.0],
                          "fixed_ratios": [1.0, 2.0], "densities": [2, 1]}))
    return [img, feat], outs


@case
def box_coder_variants():
    prior = data("prior", [12, 4])
    pvar = data("pvar", [12, 4])
    tgt = data("tgt", [None, 4])
    a = paddle.vision.ops.box_coder(prior, pvar, tgt, code_type="encode_center_size")
    d = data("d", [None, 12, 4])
    b = paddle.vision.ops.box_coder(prior, [0.1, 0.1, 0.2, 0.2], d,
                                    code_type="decode_center_size", box_normalized=False)
    d1 = data("d1", [12, None, 4])
    c = paddle.vision.ops.box_coder(prior, pvar, d1, code_type="decode_center_size", axis=1)
    return [prior, pvar, tgt, d, d1], [a, b, c]


@case
def multiclass_nms_legacy():
    boxes = data("boxes", [None, 20, 4])
    scores = data("scores", [None, 3, 20])
    attrs = {"background_label": 0, "score_threshold": 0.05, "nms_top_k": 10,
             "nms_threshold": 0.5, "nms_eta": 1.0, "keep_top_k": 5, "normalized": True}
    a = first(op("multiclass_nms", {"BBoxes": [boxes], "Scores": [scores]},
                 {"Out": ["float32"]}, attrs))
    b = first(op("multiclass_nms2", {"BBoxes": [boxes], "Scores": [scores]},
                 {"Out": ["float32"], "Index": ["int32"]}, attrs))
    lb = data("lb", [None, 3, 4])
    ls = data("ls", [None, 3])
    c = first(op("multiclass_nms2", {"BBoxes": [lb], "Scores": [ls]},
                 {"Out": ["float32"], "Index": ["int32"]}, attrs))
    d = first(op("multiclass_nms3", {"BBoxes": [boxes], "Scores": [scores]},
                 {"Out": ["float32"], "Index": ["int32"], "NmsRoisNum": ["int32"]}, attrs))
    return [boxes, scores, lb, ls], a + b + c + d


@case
def yolo_box_variants():
    x = data("x", [None, 3 * (5 + 4), 6, 7])
    sz = data("sz", [None, 2], "int32")
    a, b = paddle.vision.ops.yolo_box(x, sz, anchors=[10, 13, 16, 30, 33, 23], class_num=4,
                                      conf_thresh=0.01, downsample_ratio=32)
    u = data("u", [None, 2 * (6 + 3), None, 7])
    c, d = paddle.vision.ops.yolo_box(u, sz, anchors=[10, 13, 16, 30], class_num=3,
                                      conf_thresh=0.01, downsample_ratio=16, iou_aware=True,
                                      iou_aware_factor=0.4, scale_x_y=1.05)
    return [x, sz, u], [a, b, c, d]


# ---------------------------------------------------------------- fake quantization
@case
def fake_quant_legacy():
    x = data("x", [None, 4, 6, 6])
    one = lambda: param([1])
    outs = []
    for t in ("fake_quantize_abs_max", "fake_quantize_dequantize_abs_max"):
        outs += first(op(t, {"X": [x]}, {"Out": ["float32"], "OutScale": ["float32"]},
                         {"bit_length": 8}))
    for t in ("fake_quantize_moving_average_abs_max",
              "fake_quantize_dequantize_moving_average_abs_max"):
        outs += first(op(t, {"X": [x], "InScale": [one()], "InAccum": [one()],
                             "InState": [one()]},
                         {"Out": ["float32"], "OutScale": ["float32"], "OutState": ["float32"],
                          "OutAccum": ["float32"]},
                         {"moving_rate": 0.9, "bit_length": 8, "is_test": False}))
    outs += first(op("fake_quantize_range_abs_max",
                     {"X": [x], "InScale": [one()], "Iter": [param([1], "int64")]},
                     {"Out": ["float32"], "OutScale": ["float32"], "OutScales": ["float32"]},
                     {"window_size": 100, "bit_length": 8, "is_test": False}))
    return [x], outs


@case
def fake_channel_quant_legacy():
    w = param([8, 4, 3, 3])
    x = data("x", [None, 8, 5, 5])
    outs = []
    for t, axis in (("fake_channel_wise_quantize_abs_max", 0),
                    ("fake_channel_wise_quantize_dequantize_abs_max", 1)):
        outs += first(op(t, {"X": [w]}, {"Out": ["float32"], "OutScale": ["float32"]},
                         {"quant_axis": axis, "bit_length": 8}))
    outs += first(op("fake_dequantize_max_abs", {"X": [x], "Scale": [param([1])]},
                     {"Out": ["float32"]}, {"max_range": 127.0}))
    outs += first(op("fake_channel_wise_dequantize_max_abs",
                     {"X": [x], "Scales": [param([8]), param([1])]}, {"Out": ["float32"]},
                     {"quant_bits": [8, 8], "quant_axis": 1, "x_num_col_dims": 1}))
    return [x], outs


@case
def quantize_linear_ops():
    x = data("x", [None, 8, 5, 5])
    w = param([8, 4, 3, 3])
    outs = []
    outs += first(op("quantize_linear",
                     {"X": [x], "Scale": [param([1])], "ZeroPoint": [param([1])],
                      "InAccum": [param([1])], "InState": [param([1])]},
                     {"Y": ["float32"], "OutScale": ["float32"], "OutState": ["float32"],
                      "OutAccum": ["float32"]},
                     {"quant_axis": -1, "bit_length": 8, "is_test": False}))
    outs += first(op("dequantize_linear",
                     {"X": [w], "Scale": [param([8])], "ZeroPoint": [param([8])]},
                     {"Y": ["float32"]}, {"quant_axis": 0, "bit_length": 8}))
    outs += first(op("quantize_linear",
                     {"X": [w], "Scale": [param([4])], "ZeroPoint": [param([4])]},
                     {"Y": ["float32"], "OutScale": ["float32"]},
                     {"quant_axis": 1, "bit_length": 8, "is_test": True}))
    return [x], outs


# ---------------------------------------------------------------- pad / prelu / misc
@case
def pad_ops():
    x = data("x", [None, 3, 7, 8])
    a = F.pad(x, [1, 2, 3, 4, 0, 0, 1, 1], mode="constant", value=1.0)
    b = nn.Pad2D([1, 0, 2, 3], mode="reflect")(x)
    c = F.pad(x, [2, 2, 1, 1], mode="replicate", data_format="NHWC")
    v = data("v", [None, 3, 4, 5, 6])
    d = nn.Pad3D([1, 1, 2, 0, 0, 3], mode="circular")(v)
    e = F.pad(v, [1, 2, 0, 1, 2, 0], data_format="NDHWC")
    p = data("p", [4], "int32")
    f = F.pad(x, p)
    return [x, v, p], [a, b, c, d, e, f]


@case
def pad2d_legacy():
    x = data("x", [None, 3, 7, None])
    p = data("p", [4], "int32")
    outs = []
    for fmt in ("NCHW", "NHWC"):
        outs += first(op("pad2d", {"X": [x]}, {"Out": ["float32"]},
                         {"paddings": [1, 2, 3, 4], "mode": "constant", "pad_value": 0.5,
                          "data_format": fmt}))
        outs += first(op("pad2d", {"X": [x], "Paddings": [p]}, {"Out": ["float32"]},
                         {"paddings": [0, 0, 0, 0], "mode": "edge", "data_format": fmt}))
    return [x, p], outs


@case
def prelu_modes():
    x = data("x", [None, 4, 5, 6])
    a = nn.PReLU()(x)
    b = nn.PReLU(num_parameters=4)(x)
    n = data("n", [None, 5, 6, 4])
    c = nn.PReLU(num_parameters=4, data_format="NHWC")(n)
    d = paddle.static.nn.prelu(x, mode="element")
    return [x, n], [a, b, c, d]


@case
def affine_channel_legacy():
    x = data("x", [None, 4, 5, 6])
    outs = first(op("affine_channel", {"X": [x], "Scale": [param([4])], "Bias": [param([4])]},
                    {"Out": ["float32"]}, {"data_layout": "NCHW"}))
    n = data("n", [None, 5, 6, 4])
    outs += first(op("affine_channel", {"X": [n], "Scale": [param([4])], "Bias": [param([4])]},
                     {"Out": ["float32"]}, {"data_layout": "NHWC"}))
    return [x, n], outs


@case
def pixel_shuffle_variants():
    x = data("x", [None, 8, 5, 6])
    a = nn.PixelShuffle(2)(x)
    n = data("n", [None, 5, None, 18])
    b = F.pixel_shuffle(n, 3, data_format="NHWC")
    return [x, n], [a, b]


@case
def im2sequence_legacy():
    x = data("x", [None, 3, 8, 10])
    outs = first(op("im2sequence", {"X": [x]}, {"Out": ["float32"]},
                    {"kernels": [2, 3], "strides": [1, 2], "paddings": [0, 1, 0, 1],
                     "out_stride": [1, 1]}))
    return [x], outs


# ---------------------------------------------------------------- jit.save (dygraph layers)
class CnnNet(nn.Layer):
    """Conv 'same', BN, ceil-mode max pool, PReLU, Pad2D, pixel shuffle,
    upsampling, transposed conv with output_size, adaptive pooling."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 8, 3, stride=2, padding="same")
        self.bn = nn.BatchNorm2D(8)
        self.pool = nn.MaxPool2D(3, 2, ceil_mode=True)
        self.act = nn.PReLU(8)
        self.pad = nn.Pad2D([1, 1, 0, 2])
        self.dw = nn.Conv2D(8, 8, 3, padding=1, groups=8)
        self.shuffle = nn.PixelShuffle(2)
        self.up = nn.Upsample(scale_factor=2, mode="bilinear")
        self.deconv = nn.Conv2DTranspose(2, 4, 3, stride=2, padding=1)
        self.gap = nn.AdaptiveAvgPool2D(1)

    def forward(self, x):
        y = self.act(self.pool(self.bn(self.conv(x))))
        y = self.shuffle(self.dw(self.pad(y)))
        y = self.up(y)
        z = self.deconv(y, output_size=[y.shape[2] * 2, y.shape[3] * 2])
        return self.gap(z), F.interpolate(z, size=[5, 7], mode="nearest")


class SeqNet(nn.Layer):
    """Embedding with padding_idx, LayerNorm, dropout, softmax."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(64, 16, padding_idx=0)
        self.ln = nn.LayerNorm(16)
        self.drop = nn.Dropout(0.1)

    def forward(self, ids):
        h = self.drop(self.ln(self.emb(ids)))
        return F.softmax(paddle.matmul(h, h, transpose_y=True), axis=-1)


JIT_CASES = {
    "jit_cnn": (CnnNet, [InputSpec([None, 3, 32, 32], "float32", "x")]),
    "jit_cnn_dyn_hw": (CnnNet, [InputSpec([None, 3, None, None], "float32", "x")]),
    "jit_seq": (SeqNet, [InputSpec([None, None], "int64", "ids")]),
}


# ---------------------------------------------------------------- driver
def save_static(outdir, name, build):
    main, startup = paddle.static.Program(), paddle.static.Program()
    main.random_seed = startup.random_seed = 7
    with paddle.static.program_guard(main, startup):
        feeds, fetches = build()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    paddle.static.save_inference_model(os.path.join(outdir, name, "model"), feeds, fetches, exe,
                                       program=main)


def save_jit(outdir, name, layer_cls, spec):
    paddle.disable_static()
    try:
        paddle.seed(7)
        layer = layer_cls()
        layer.eval()
        paddle.jit.save(paddle.jit.to_static(layer, input_spec=spec, full_graph=True),
                        os.path.join(outdir, name, "model"))
    finally:
        paddle.enable_static()


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    outdir, wanted = argv[1], set(argv[2:])
    paddle.enable_static()
    np.random.seed(7)
    for name, build in CASES.items():
        if not wanted or name in wanted:
            save_static(outdir, name, build)
    for name, (cls, spec) in JIT_CASES.items():
        if not wanted or name in wanted:
            save_jit(outdir, name, cls, spec)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

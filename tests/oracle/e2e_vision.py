#!/usr/bin/env python3
"""Op-level end-to-end cases for the vision ops of paddle.vision / paddle.nn
beyond e2e_cnn.py (3-D pooling, resizing and convolution, and the rarer 2-D
ones): pool3d (max/avg, global, adaptive, ceil_mode, exclusive, SAME/VALID,
NDHWC), max_pool2d/3d_with_index, unpool/unpool3d,
trilinear/nearest 3-D and channel-last resizes, conv3d_transpose, lrn,
maxout, pixel_unshuffle, channel_shuffle, shuffle_channel, temporal_shift,
affine_grid, grid_sampler, unfold, fold, bilinear_tensor_product and
spectral_norm.

    python e2e_vision.py OUTDIR [CASE ...]

Each case is a small static program (public API or paddle.nn layers where
one emits the op, LayerHelper.append_op for legacy ops and attributes the
API hides) covering the op's attributes; parameters are re-drawn from a
fixed seed.  Float inputs are standard normal, batch 2 (the batch dim is
None in every feed); feeds named `grid*` are uniform in [-1.2, 1.2) (sample
positions slightly beyond the image).  tests/oracle/oracle_case.py saves
each case with Paddle's reference outputs."""
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
    return paddle.static.data(name, shape, dtype)


# ---------------------------------------------------------------- pooling
@case
def pool3d_windows():
    x = data("x", [None, 3, 7, 9, 8])
    outs = [nn.MaxPool3D(3, 2, 1)(x), nn.AvgPool3D(3, 2, 1)(x), nn.AvgPool3D(3, 2, 1, exclusive=False)(x),
            nn.AvgPool3D((2, 3, 3), (1, 2, 2), padding=[1, 0, 0, 1, 2, 1], ceil_mode=True)(x),
            nn.AvgPool3D(3, 2, padding=[0, 1, 1, 0, 1, 1], ceil_mode=True, exclusive=False)(x),
            nn.MaxPool3D(2, 3, ceil_mode=True)(x), F.max_pool3d(x, 3, 2, padding="SAME"),
            F.avg_pool3d(x, (3, 2, 2), (2, 1, 2), padding="VALID"), F.avg_pool3d(x, 3, 2, padding="SAME"),
            nn.AdaptiveAvgPool3D(1)(x), nn.AdaptiveAvgPool3D((2, 3, 5))(x), nn.AdaptiveMaxPool3D((3, 2, 4))(x)]
    outs += op("pool3d", {"X": [x]}, {"Out": ["float32"]},
               {"pooling_type": "max", "ksize": [1, 1, 1], "global_pooling": True, "strides": [1, 1, 1],
                "paddings": [0, 0, 0]})
    outs += op("pool3d", {"X": [x]}, {"Out": ["float32"]},
               {"pooling_type": "avg", "ksize": [2, 2, 2], "global_pooling": True, "strides": [1, 1, 1],
                "paddings": [1, 1, 1]})
    # pool3d max with adaptive: Paddle's kernel ignores `adaptive` for max
    outs += op("pool3d", {"X": [x]}, {"Out": ["float32"]},
               {"pooling_type": "max", "ksize": [3, 2, 2], "adaptive": True, "strides": [2, 3, 2],
                "paddings": [0, 0, 0]})
    n = data("n", [None, 5, 6, 7, 4])
    outs += [F.max_pool3d(n, 3, 2, padding=1, data_format="NDHWC"),
             F.avg_pool3d(n, 3, 1, padding=1, data_format="NDHWC", ceil_mode=True),
             F.adaptive_avg_pool3d(n, (2, 4, 3), data_format="NDHWC")]
    return [x, n], outs


@case
def pool_with_index():
    x = data("x", [None, 3, 7, 9, 8])
    outs = list(F.max_pool3d(x, 3, 2, 1, return_mask=True))
    outs += list(F.max_pool3d(x, (2, 3, 2), (1, 2, 3), return_mask=True))
    outs += list(F.adaptive_max_pool3d(x, (3, 4, 5), return_mask=True))
    outs.append(F.adaptive_max_pool3d(x, (2, 2, 3)))
    outs += list(op("max_pool3d_with_index", {"X": [x]}, {"Out": ["float32"], "Mask": ["int32"]},
                    {"ksize": [1, 1, 1], "global_pooling": True, "strides": [1, 1, 1], "paddings": [0, 0, 0]}))
    y = data("y", [None, 4, 11, 10])
    outs += list(nn.MaxPool2D(3, 2, 1, return_mask=True)(y))
    outs += list(nn.AdaptiveMaxPool2D((4, 3), return_mask=True)(y))
    outs += [nn.AdaptiveMaxPool2D(5)(y), F.adaptive_max_pool2d(y, (3, 7))]
    return [x, y], outs


@case
def unpool():
    x = data("x", [None, 3, 9, 8])
    p, m = F.max_pool2d(x, 2, 2, return_mask=True)
    outs = [nn.MaxUnPool2D(2, 2)(p, m), F.max_unpool2d(p, m, 2, 2, output_size=[9, 9])]
    q, n = F.max_pool2d(x, 3, 2, 1, return_mask=True)
    outs.append(F.max_unpool2d(q, n, 3, 2, 1, output_size=[9, 8]))
    outs.append(F.max_unpool2d(q, n, 3, 2, 1, output_size=[2, 3, 10, 8]))
    v = data("v", [None, 2, 4, 6, 6])
    r, k = F.max_pool3d(v, 2, 2, return_mask=True)
    outs += [nn.MaxUnPool3D(2, 2)(r, k), F.max_unpool3d(r, k, 2, 2, output_size=[5, 7, 7])]
    s = data("s", [None, 4, 10])
    a, i = F.max_pool1d(s, 2, 2, return_mask=True)
    outs.append(nn.MaxUnPool1D(2, 2)(a, i))
    return [x, v, s], outs


# ---------------------------------------------------------------- resizing
@case
def interp_3d():
    x = data("x", [None, 3, 4, 5, 6])
    outs = [F.interpolate(x, size=[6, 7, 4], mode="trilinear", data_format="NCDHW"),
            F.interpolate(x, size=[6, 7, 4], mode="trilinear", align_corners=False, align_mode=0, data_format="NCDHW"),
            F.interpolate(x, size=[3, 9, 11], mode="trilinear", align_corners=False, align_mode=1, data_format="NCDHW"),
            F.interpolate(x, scale_factor=[1.5, 0.8, 2.0], mode="trilinear", align_corners=False, data_format="NCDHW"),
            F.interpolate(x, scale_factor=2, mode="nearest", data_format="NCDHW"),
            F.interpolate(x, size=[7, 3, 9], mode="nearest", align_corners=False, data_format="NCDHW"),
            F.interpolate(x, size=[1, 1, 1], mode="trilinear", data_format="NCDHW"),
            F.interpolate(x, size=[4, 5, 6], mode="trilinear", data_format="NCDHW")]  # same size: a copy
    outs += op("trilinear_interp", {"X": [x]}, {"Out": ["float32"]},
               {"out_d": 5, "out_h": 3, "out_w": 8, "interp_method": "trilinear"})
    outs += op("nearest_interp_v2", {"X": [x]}, {"Out": ["float32"]},
               {"out_d": 7, "out_h": 3, "out_w": 9, "interp_method": "nearest", "align_corners": True})
    outs += op("trilinear_interp", {"X": [x]}, {"Out": ["float32"]},
               {"scale": 1.5, "interp_method": "trilinear", "align_corners": False, "align_mode": 0})
    n = data("n", [None, 4, 5, 6, 3])
    outs += [F.interpolate(n, size=[6, 7, 4], mode="trilinear", data_format="NDHWC"),
             F.interpolate(n, size=[3, 8, 9], mode="trilinear", align_corners=False, data_format="NDHWC"),
             F.interpolate(n, scale_factor=1.5, mode="nearest", data_format="NDHWC")]
    return [x, n], outs


@case
def interp_channel_last():
    x = data("x", [None, 7, 9, 3])
    outs = [F.interpolate(x, size=[5, 11], mode="bilinear", data_format="NHWC"),
            F.interpolate(x, size=[12, 4], mode="bilinear", align_corners=False, align_mode=0, data_format="NHWC"),
            F.interpolate(x, scale_factor=[1.5, 0.7], mode="bilinear", align_corners=False, data_format="NHWC"),
            F.interpolate(x, scale_factor=2, mode="nearest", data_format="NHWC"),
            F.interpolate(x, size=[12, 5], mode="bicubic", align_corners=False, data_format="NHWC"),
            F.interpolate(x, size=[12, 5], mode="bicubic", align_corners=True, data_format="NHWC")]
    outs += op("bilinear_interp", {"X": [x]}, {"Out": ["float32"]},
               {"out_h": 10, "out_w": 13, "interp_method": "bilinear", "align_corners": False, "data_layout": "NHWC"})
    outs += op("nearest_interp_v2", {"X": [x]}, {"Out": ["float32"]},
               {"out_h": 5, "out_w": 11, "interp_method": "nearest", "align_corners": True, "data_layout": "NHWC"})
    y = data("y", [None, 10, 4])
    outs += [F.interpolate(y, size=[17], mode="linear", data_format="NWC"),
             F.interpolate(y, scale_factor=0.6, mode="linear", align_corners=False, align_mode=0, data_format="NWC")]
    return [x, y], outs


# ---------------------------------------------------------------- conv3d_transpose
@case
def conv3d_transpose():
    x = data("x", [None, 4, 3, 5, 4])
    outs = [nn.Conv3DTranspose(4, 6, 3)(x),
            nn.Conv3DTranspose(4, 6, (2, 3, 3), stride=(1, 2, 2), padding=1, output_padding=(0, 1, 1))(x),
            nn.Conv3DTranspose(4, 4, 3, stride=2, padding=(0, 1, 1, 0, 2, 1), dilation=(1, 2, 1), groups=2,
                               bias_attr=False)(x),
            nn.Conv3DTranspose(4, 3, 3, stride=2, padding="SAME")(x),
            nn.Conv3DTranspose(4, 3, 2, stride=2, padding="VALID")(x),
            F.conv3d_transpose(x, paddle.static.create_parameter([4, 2, 3, 3, 3], "float32"), stride=2, padding=1,
                               output_size=[6, 10, 8])]
    n = data("n", [None, 3, 5, 4, 4])
    outs += [nn.Conv3DTranspose(4, 6, 3, stride=(2, 1, 2), padding=1, data_format="NDHWC")(n),
             nn.Conv3DTranspose(4, 4, 1, groups=4, data_format="NDHWC")(n)]
    return [x, n], outs


# ---------------------------------------------------------------- channel ops
@case
def lrn_maxout():
    x = data("x", [None, 7, 5, 4])
    outs = list(op("lrn", {"X": [x]}, {"Out": ["float32"], "MidOut": ["float32"]}, {}))
    outs += op("lrn", {"X": [x]}, {"Out": ["float32"], "MidOut": ["float32"]},
               {"n": 3, "k": 1.0, "alpha": 0.5, "beta": 0.6, "data_format": "NCHW"})[:1]
    outs += op("lrn", {"X": [x]}, {"Out": ["float32"], "MidOut": ["float32"]},
               {"n": 9, "k": 1.5, "alpha": 0.1, "beta": 1.25})[:1]
    n = data("n", [None, 5, 4, 7])
    outs += op("lrn", {"X": [n]}, {"Out": ["float32"], "MidOut": ["float32"]},
               {"n": 5, "alpha": 0.2, "data_format": "NHWC"})[:1]
    outs += [nn.LocalResponseNorm(3)(x), nn.LocalResponseNorm(4, alpha=0.01, beta=0.5, k=2.0)(x),
             nn.LocalResponseNorm(5, data_format="NHWC")(n)]
    m = data("m", [None, 6, 3, 4])
    outs += [nn.Maxout(2)(m), nn.Maxout(3, axis=1)(m), F.maxout(n, 7, axis=-1), F.maxout(n, 7, axis=3)]
    return [x, n, m], outs


@case
def shuffles():
    x = data("x", [None, 6, 4, 6])
    outs = [nn.PixelUnshuffle(2)(x), F.pixel_unshuffle(x, 1), nn.ChannelShuffle(3)(x), nn.ChannelShuffle(2)(x),
            F.channel_shuffle(x, 6)]
    n = data("n", [None, 4, 6, 6])
    outs += [nn.PixelUnshuffle(2, data_format="NHWC")(n), F.channel_shuffle(n, 3, data_format="NHWC"),
             F.channel_shuffle(n, 2, data_format="NHWC")]
    outs += op("shuffle_channel", {"X": [x]}, {"Out": ["float32"]}, {"group": 3})
    outs += op("shuffle_channel", {"X": [x]}, {"Out": ["float32"]}, {"group": 2})
    d = data("d", [None, 8, 2, 4], "float64")
    outs += [F.pixel_unshuffle(d, 2), F.channel_shuffle(d, 4)]
    return [x, n, d], outs


@case
def temporal_shift():
    x = data("x", [None, 8, 3, 4])  # batch 2 = 1 clip of 2 frames or 2 clips of 1
    outs = [F.temporal_shift(x, 2), F.temporal_shift(x, 1, 0.4), F.temporal_shift(x, 2, shift_ratio=0.125)]
    n = data("n", [None, 3, 4, 10])
    outs += [F.temporal_shift(n, 2, data_format="NHWC"), F.temporal_shift(n, 2, 0.3, data_format="NHWC")]
    return [x, n], outs


# ---------------------------------------------------------------- sampling
@case
def affine_grid_sample():
    t = data("theta", [None, 2, 3])
    t3 = data("theta3", [None, 3, 4])
    outs = [F.affine_grid(t, [2, 3, 5, 4]), F.affine_grid(t, [2, 3, 4, 7], align_corners=False),
            F.affine_grid(t3, [2, 3, 2, 4, 3]), F.affine_grid(t3, [2, 3, 3, 2, 5], align_corners=False),
            F.affine_grid(t, [2, 1, 3, 1], align_corners=False), F.affine_grid(t, [2, 1, 1, 3])]  # NaN: 2/0 steps
    outs.append(F.affine_grid(t, paddle.full([4], 4, "int32")))  # an OutputShape tensor known at compile time
    x = data("x", [None, 3, 5, 6])
    g = data("grid", [None, 4, 7, 2])
    for mode in ("bilinear", "nearest"):
        for pad in ("zeros", "border", "reflection"):
            for align in (True, False):
                outs.append(F.grid_sample(x, g, mode, pad, align))
    v = data("v", [None, 2, 3, 4, 5])
    g3 = data("grid3", [None, 2, 3, 4, 3])
    for mode in ("bilinear", "nearest"):
        for pad in ("zeros", "border", "reflection"):
            for align in (True, False):
                outs.append(F.grid_sample(v, g3, mode, pad, align))
    outs.append(F.grid_sample(x, F.affine_grid(t, [2, 3, 4, 5], align_corners=False), align_corners=False))
    return [t, t3, x, g, v, g3], outs


# ---------------------------------------------------------------- im2col, col2im, bilinear, spectral_norm
@case
def fold_unfold_bilinear():
    x = data("x", [None, 3, 7, 8])
    outs = [nn.Unfold([2, 3])(x), nn.Unfold(3, dilations=[1, 2], paddings=1, strides=2)(x),
            F.unfold(x, [3, 2], strides=[2, 1], paddings=[1, 0, 2, 1], dilations=1)]
    c = data("c", [None, 12, 20])  # 3 channels of 2x2 blocks on a 4x5 grid
    outs += [nn.Fold([5, 6], 2)(c), F.fold(c, [7, 9], 2, strides=2, paddings=1),
             F.fold(c, [4, 4], [2, 2], dilations=[2, 3], paddings=[1, 2])]
    a = data("a", [None, 5])
    b = data("b", [None, 3])
    outs += [nn.Bilinear(5, 3, 4)(a, b), nn.Bilinear(5, 3, 2, bias_attr=False)(a, b)]
    # spectral_norm of a parameter and of a computed weight, dim 0 and 1
    w = paddle.static.create_parameter([4, 3, 2, 2], "float32")
    outs += [nn.SpectralNorm([4, 3, 2, 2])(w), nn.SpectralNorm([4, 3, 2, 2], dim=1, power_iters=3)(w),
             nn.SpectralNorm([3, 5], power_iters=0, eps=1e-4)(paddle.static.create_parameter([3, 5], "float32") * 2)]
    return [x, c, a, b], outs


# ---------------------------------------------------------------- driver
def make_input(v, rng):
    shape = [BATCH if d in (None, -1) else d for d in v.shape]
    if v.name.startswith("grid"):
        return rng.uniform(-1.2, 1.2, shape).astype("float32")
    return rng.standard_normal(shape).astype(str(v.dtype).replace("paddle.", ""))


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

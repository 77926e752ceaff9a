#!/usr/bin/env python3
"""Op-level end-to-end cases for deformable convolution:
paddle.vision.ops.deform_conv2d with a mask (deformable_conv) and without
(deformable_conv_v1), float32 and float64; groups, deformable_groups,
strides, paddings, dilations, a kernel that is not square, a bias (the
elementwise_add with axis 1 that deform_conv2d writes), and im2col_step
values other than the default (raw ops).

    python e2e_deform.py OUTDIR [CASE ...]

Feeds are drawn from their names (oracle_case.py's named_feeds), except the
offsets: `off*` are standard normal times 3 (on 7x7 images most taps move
by pixels, many outside the image, where the corners count 0), `offq*`
the same rounded to halves (points exactly on pixels and on the -1 and H
bounds the kernel tests)."""
import numpy as np

from oracle_case import append_op as op, case_registry, named_feeds, run_static_cases

import paddle
from paddle.vision.ops import deform_conv2d

CASES, case = case_registry()
data, named_input = named_feeds()


def make_input(v, rng):
    x = named_input(v, rng)
    if v.name.startswith("offq"):
        return (np.round(x * 6.0) / 2.0).astype(x.dtype)
    if v.name.startswith("off"):
        return (x * 3.0).astype(x.dtype)
    return x


def weight(shape, dtype="float32"):
    return paddle.static.create_parameter(shape, dtype)


def deform(c, m, k, hw, stride, padding, dilation, groups, dg, masked, dtype="float32", bias=False, offq=False):
    """x [N, c, 7, 7] through deform_conv2d with m filters of size k; hw the
    output's spatial dims (the offset's and the mask's)."""
    x = data("x", [None, c, 7, 7], dtype)
    off = data("offq" if offq else "off", [None, 2 * dg * k[0] * k[1]] + hw, dtype)
    feeds = [x, off]
    mask = None
    if masked:
        mask = data("mask", [None, dg * k[0] * k[1]] + hw, dtype)
        feeds.append(mask)
    w = weight([m, c // groups] + k, dtype)
    b = weight([m], dtype) if bias else None
    out = deform_conv2d(x, off, w, b, stride, padding, dilation, dg, groups, mask)
    return feeds, [out]


@case
def deform_v2_bias():
    # 3x3, padding 1: Ho = Wo = 7; bias through elementwise_add (axis 1)
    return deform(4, 6, [3, 3], [7, 7], 1, 1, 1, 1, 1, True, bias=True)


@case
def deform_v2_groups():
    # groups 2, deformable_groups 2, stride 2, dilation 2, padding 2, a 3x2
    # kernel: Ho = (7 + 4 - 5) / 2 + 1 = 4, Wo = (7 + 4 - 3) / 2 + 1 = 5
    return deform(4, 6, [3, 2], [4, 5], 2, 2, 2, 2, 2, True)


@case
def deform_v2_halves():
    # offsets on half pixels: taps exactly on pixels and on the bounds
    return deform(2, 4, [3, 3], [5, 5], 1, 0, 1, 1, 2, True, offq=True)


@case
def deform_v1_groups():
    # no mask: deformable_conv_v1; strides, paddings and dilations per dim
    return deform(4, 4, [2, 3], [4, 3], [2, 1], [1, 0], [1, 2], 2, 2, False, bias=True)


@case
def deform_v1_halves():
    return deform(3, 2, [3, 3], [7, 7], 1, 1, 1, 1, 1, False, offq=True)


@case
def deform_v2_f64():
    return deform(4, 6, [3, 2], [4, 5], 2, 2, 2, 2, 2, True, dtype="float64", bias=True)


@case
def deform_v1_f64():
    return deform(4, 4, [3, 3], [4, 4], 2, 1, 1, 2, 1, False, dtype="float64", offq=True)


ATTRS = {"strides": [1, 1], "paddings": [1, 1], "dilations": [1, 1], "groups": 1, "deformable_groups": 1}


@case
def deform_im2col_step():
    # im2col_step 2 (the batch, 2, left open: the run checks it) and 1, raw ops
    x = data("x", [None, 2, 7, 7])
    off = data("off", [None, 18, 7, 7])
    mask = data("mask", [None, 9, 7, 7])
    w = weight([3, 2, 3, 3])
    outs = [op("deformable_conv", {"Input": [x], "Offset": [off], "Filter": [w], "Mask": [mask]},
               {"Output": ["float32"]}, dict(ATTRS, im2col_step=2))[0],
            op("deformable_conv_v1", {"Input": [x], "Offset": [off], "Filter": [w]},
               {"Output": ["float32"]}, dict(ATTRS, im2col_step=1))[0]]
    return [x, off, mask], outs


@case
def deform_im2col_step_fixed():
    # im2col_step 3 and 5 on a fixed batch of 3 (a multiple of it; not above it)
    x = data("x", [3, 2, 7, 7])
    off = data("off", [3, 18, 7, 7])
    w = weight([3, 2, 3, 3])
    outs = [op("deformable_conv_v1", {"Input": [x], "Offset": [off], "Filter": [w]},
               {"Output": ["float32"]}, dict(ATTRS, im2col_step=s))[0] for s in (3, 5)]
    return [x, off], outs


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

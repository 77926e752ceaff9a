#!/usr/bin/env python3
"""Op-level end-to-end cases for resizing integer tensors, as Paddle 2.6's
CPU kernels run them: nearest_interp_v2 on uint8, int32 and int64;
nearest_interp (v1) on uint8; the linear family (linear,
bilinear, trilinear; v1 and v2) on uint8, where the weighted sum is taken
in float and converted toward zero.  Channel first and last, align_corners
and align_mode, sizes and scales, 1-D to 3-D.  The uint8 inputs are int32
feeds cast in the program.  (Both nearest ops list int8 kernels, but only
oneDNN's: Paddle's CPU Executor finds none; test_bad_input refuses it.)

    python e2e_int_resize.py OUTDIR [CASE ...]

Cases, feeds (drawn from their names) and references: see oracle_case.py's
named_feeds and run_static_cases."""
from oracle_case import append_op as op, case_registry, named_feeds, run_static_cases

import paddle

CASES, case = case_registry()
data, make_input = named_feeds()


def _resize(type_, x, **attrs):
    return op(type_, {"X": [x]}, {"Out": [x.dtype]}, attrs)[0]


@case
def nearest_int():
    """nearest_interp_v2 on int32, uint8 and int64, nearest_interp on uint8:
    2-D up and down, align_corners, channel last, 3-D."""
    a = data("a", [None, 3, 5, 4], "int32", -1000, 1000)
    b = data("b", [None, 2, 3, 4, 5], "int64", -2**40, 2**40)
    c = data("c", [None, 3, 5, 4], "int32", 0, 256)
    feeds, outs = [a, b, c], []
    u8 = paddle.cast(c, "uint8")
    for x in (a, u8):
        outs += [_resize("nearest_interp_v2", x, out_h=7, out_w=9, interp_method="nearest", align_corners=False),
                 _resize("nearest_interp_v2", x, out_h=3, out_w=2, interp_method="nearest", align_corners=True),
                 _resize("nearest_interp_v2", x, out_h=8, out_w=6, interp_method="nearest", align_corners=False,
                         data_layout="NHWC")]
    for x in (u8,):
        outs += [_resize("nearest_interp", x, out_h=7, out_w=9, interp_method="nearest", align_corners=False),
                 _resize("nearest_interp", x, out_h=4, out_w=3, interp_method="nearest", align_corners=True)]
    outs += [_resize("nearest_interp_v2", b, out_d=5, out_h=2, out_w=8, interp_method="nearest",
                     align_corners=False)]
    return feeds, outs


@case
def linear_family_uint8():
    """linear, bilinear and trilinear resizes of uint8 images (v1 and v2):
    every align_corners / align_mode, scales, channel last."""
    c = data("c", [None, 3, 5, 6], "int32", 0, 256)
    l = data("l", [None, 4, 7], "int32", 0, 256)
    t = data("t", [None, 2, 3, 4, 5], "int32", 0, 256)
    x, x1, x3 = paddle.cast(c, "uint8"), paddle.cast(l, "uint8"), paddle.cast(t, "uint8")
    outs = []
    for v in ("bilinear_interp_v2", "bilinear_interp"):
        outs += [_resize(v, x, out_h=9, out_w=11, interp_method="bilinear", align_corners=True),
                 _resize(v, x, out_h=9, out_w=11, interp_method="bilinear", align_corners=False, align_mode=0),
                 _resize(v, x, out_h=4, out_w=13, interp_method="bilinear", align_corners=False, align_mode=1),
                 _resize(v, x, out_h=7, out_w=3, interp_method="bilinear", align_corners=False, align_mode=0,
                         data_layout="NHWC")]
    outs += [_resize("bilinear_interp_v2", x, scale=[1.7, 2.3], interp_method="bilinear", align_corners=False),
             _resize("bilinear_interp", x, scale=1.5, interp_method="bilinear", align_corners=False, align_mode=0)]
    for v in ("linear_interp_v2", "linear_interp"):
        outs += [_resize(v, x1, out_w=12, interp_method="linear", align_corners=False, align_mode=0),
                 _resize(v, x1, out_w=5, interp_method="linear", align_corners=True)]
    for v in ("trilinear_interp_v2", "trilinear_interp"):
        outs += [_resize(v, x3, out_d=4, out_h=6, out_w=7, interp_method="trilinear", align_corners=False,
                         align_mode=0),
                 _resize(v, x3, out_d=3, out_h=2, out_w=9, interp_method="trilinear", align_corners=True)]
    return [c, l, t], outs


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

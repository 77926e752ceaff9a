"""Gradient cases of the resize ops: nearest_interp_grad and
bilinear_interp_grad (the fluid 1.x ops, as ppocr1_db_det_train has them),
and nearest, bilinear, linear, bicubic and trilinear _v2 grads: align_corners
and align_mode, sizes from out_* and from scale factors (integer and not),
up- and downsampling, a same-size resize (a copy), channel-last layouts,
a batch that is only known at run time, checked against Paddle's own grad
ops (oracle_case.build_grad_case).

    python e2e_grad_interp.py OUTDIR [CASE ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, case_registry, grad_input as data, run_grad_cases  # noqa: E402

import paddle.nn.functional as F  # noqa: E402

CASES, case = case_registry()


def v1(type, x, **attrs):
    """A fluid 1.x interp op (nearest_interp, bilinear_interp), which Paddle
    2.6 still runs and differentiates."""
    a = {"data_layout": "NCHW", "out_d": -1, "out_h": -1, "out_w": -1, "scale": 0.0, "align_corners": True,
         "align_mode": 1, "interp_method": type.split("_")[0]}
    a.update(attrs)
    return op(type, {"X": x}, {"Out": ["float32"]}, a)[0]


def v2(type, x, **attrs):
    """A raw _v2 op, for attribute values F.interpolate does not write
    (nearest with align_corners)."""
    a = {"data_layout": "NCHW", "out_d": -1, "out_h": -1, "out_w": -1, "scale": [], "align_corners": False,
         "align_mode": 1, "interp_method": type.split("_")[0]}
    a.update(attrs)
    return op(type, {"X": x}, {"Out": ["float32"]}, a)[0]


def one(y, x):
    return ["x"], [y], [x]


# ---- fluid 1.x ops ----

@case
def nearest_v1_scale2_align():
    """ppocr1_db_det_train's: scale 2, align_corners, batch known at run time."""
    x = data("x", [-1, 3, 5, 4])
    return one(v1("nearest_interp", x, scale=2.0), x)


@case
def nearest_v1_scale8():
    x = data("x", [2, 2, 3, 3])
    return one(v1("nearest_interp", x, scale=8.0), x)


@case
def nearest_v1_size_down():
    x = data("x", [2, 3, 9, 7])
    return one(v1("nearest_interp", x, out_h=4, out_w=5, align_corners=False), x)


@case
def nearest_v1_nhwc():
    x = data("x", [2, 5, 4, 3])
    return one(v1("nearest_interp", x, out_h=9, out_w=7, data_layout="NHWC"), x)


@case
def bilinear_v1_align():
    x = data("x", [2, 3, 4, 5])
    return one(v1("bilinear_interp", x, out_h=7, out_w=9), x)


@case
def bilinear_v1_mode0():
    x = data("x", [2, 3, 4, 5])
    return one(v1("bilinear_interp", x, out_h=7, out_w=3, align_corners=False, align_mode=0), x)


@case
def bilinear_v1_scale_nhwc():
    x = data("x", [2, 4, 5, 3])
    return one(v1("bilinear_interp", x, scale=1.5, align_corners=False, data_layout="NHWC"), x)


# ---- nearest ----

@case
def nearest_up2():
    x = data("x", [2, 3, 4, 5])
    return one(F.interpolate(x, scale_factor=2, mode="nearest"), x)


@case
def nearest_scale_frac():
    x = data("x", [2, 3, 5, 6])
    return one(F.interpolate(x, scale_factor=[1.7, 0.6], mode="nearest"), x)


@case
def nearest_size_down_nhwc():
    x = data("x", [2, 9, 8, 3])
    return one(F.interpolate(x, size=[4, 5], mode="nearest", data_format="NHWC"), x)


@case
def nearest_align_corners():
    x = data("x", [2, 3, 4, 5])
    return one(v2("nearest_interp_v2", x, out_h=7, out_w=9, align_corners=True), x)


@case
def nearest_same_size():
    x = data("x", [2, 3, 4, 5])
    return one(F.interpolate(x, size=[4, 5], mode="nearest"), x)


@case
def nearest_3d():
    x = data("x", [2, 2, 3, 4, 5])
    return one(F.interpolate(x, size=[5, 3, 7], mode="nearest", data_format="NCDHW"), x)


@case
def nearest_3d_ndhwc():
    x = data("x", [2, 3, 4, 5, 2])
    return one(F.interpolate(x, scale_factor=[2, 0.5, 1.5], mode="nearest", data_format="NDHWC"), x)


# ---- bilinear ----

@case
def bilinear_align_corners():
    x = data("x", [2, 3, 4, 5])
    return one(F.interpolate(x, size=[7, 9], mode="bilinear", align_corners=True), x)


@case
def bilinear_half_pixel():
    x = data("x", [2, 3, 4, 5])
    return one(F.interpolate(x, size=[7, 9], mode="bilinear", align_corners=False, align_mode=0), x)


@case
def bilinear_mode1_down():
    x = data("x", [2, 3, 9, 8])
    return one(F.interpolate(x, size=[4, 3], mode="bilinear", align_corners=False, align_mode=1), x)


@case
def bilinear_scale_frac():
    x = data("x", [-1, 3, 5, 6])
    return one(F.interpolate(x, scale_factor=[1.7, 2.5], mode="bilinear", align_corners=False), x)


@case
def bilinear_scale_down_align():
    x = data("x", [2, 3, 9, 7])
    return one(F.interpolate(x, scale_factor=0.5, mode="bilinear", align_corners=True), x)


@case
def bilinear_nhwc():
    x = data("x", [2, 4, 5, 3])
    return one(F.interpolate(x, size=[6, 11], mode="bilinear", align_corners=False, data_format="NHWC"), x)


@case
def bilinear_to_one():
    """A size-1 output dim (ratio 0)."""
    x = data("x", [2, 3, 4, 5])
    return one(F.interpolate(x, size=[1, 8], mode="bilinear", align_corners=True), x)


# ---- linear, bicubic, trilinear ----

@case
def linear_half_pixel():
    x = data("x", [2, 3, 6])
    return one(F.interpolate(x, size=[11], mode="linear", align_corners=False, align_mode=0, data_format="NCW"), x)


@case
def linear_align_nwc():
    x = data("x", [2, 7, 3])
    return one(F.interpolate(x, scale_factor=0.6, mode="linear", align_corners=True, data_format="NWC"), x)


@case
def linear_mode1_scale():
    x = data("x", [2, 3, 5])
    return one(F.interpolate(x, scale_factor=2.3, mode="linear", align_corners=False, data_format="NCW"), x)


@case
def bicubic_align_corners():
    x = data("x", [2, 3, 4, 5])
    return one(F.interpolate(x, size=[7, 9], mode="bicubic", align_corners=True), x)


@case
def bicubic_half_pixel_down():
    x = data("x", [2, 3, 9, 8])
    return one(F.interpolate(x, size=[5, 3], mode="bicubic", align_corners=False), x)


@case
def bicubic_scale_nhwc():
    x = data("x", [2, 4, 5, 3])
    return one(F.interpolate(x, scale_factor=[1.5, 2], mode="bicubic", align_corners=False, data_format="NHWC"), x)


@case
def trilinear_align_corners():
    x = data("x", [2, 2, 3, 4, 5])
    return one(F.interpolate(x, size=[5, 3, 7], mode="trilinear", align_corners=True, data_format="NCDHW"), x)


@case
def trilinear_half_pixel():
    x = data("x", [2, 2, 3, 4, 5])
    return one(F.interpolate(x, size=[4, 7, 2], mode="trilinear", align_corners=False, align_mode=0,
                             data_format="NCDHW"), x)


@case
def trilinear_scale_ndhwc():
    x = data("x", [2, 3, 4, 5, 2])
    return one(F.interpolate(x, scale_factor=[1.5, 0.5, 2], mode="trilinear", align_corners=False,
                             data_format="NDHWC"), x)


@case
def upsample_chain():
    """Two resizes in a row (the gradient flows through both) and a sum."""
    x = data("x", [2, 3, 4, 4])
    y = F.interpolate(x, scale_factor=2, mode="nearest")
    z = F.interpolate(y, size=[5, 6], mode="bilinear", align_corners=False)
    return one(z + F.interpolate(x, size=[5, 6], mode="bicubic", align_corners=True), x)


def make_input(v, rng):
    shape = [3 if d < 0 else d for d in v.shape]
    return rng.standard_normal(shape).astype("float32")


if __name__ == "__main__":
    run_grad_cases(CASES, make_input)

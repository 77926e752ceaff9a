"""float64 cases of the linear-family and bicubic resizes and their
gradients, as Paddle's CPU double kernels compute them (coordinates and
weights rounded otherwise than by its float kernels: the table in
runtime/rt_resize.c): bilinear_interp_v2 (align_corners, align_mode 0 and
1, sizes from out_h/out_w and from scale factors, up- and downsampling,
NCHW and NHWC, a size-1 output dim, a same-size copy), linear_interp_v2
(NCW, NWC), trilinear_interp_v2 (NCDHW, NDHWC), bicubic_interp_v2, and the
fluid 1.x bilinear_interp, linear_interp, trilinear_interp and
bicubic_interp (whose ratio ignores a scale and whose coordinates are
double), with their grads.  Several resizes share one case (one binary
each); every case fetches the forward outputs as well as X@GRAD.
(float64 nearest: e2e_grad_pool64.py.)

    python e2e_grad_interp64.py OUTDIR [CASE ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, case_registry, grad_input, run_grad_cases  # noqa: E402

import paddle.nn.functional as F  # noqa: E402

CASES, registered = case_registry()


def case(fn):
    """A case that fetches its forward outputs, then the gradients."""
    fn.fetch_outs = True
    return registered(fn)


def data(name, shape):
    return grad_input(name, shape, "float64")


def v1(type, x, **attrs):
    """A fluid 1.x interp op (bilinear_interp, linear_interp,
    trilinear_interp, bicubic_interp), which Paddle 2.6 still runs and
    differentiates in float64."""
    a = {"data_layout": "NCHW", "out_d": -1, "out_h": -1, "out_w": -1, "scale": 0.0, "align_corners": True,
         "align_mode": 1, "interp_method": type.split("_")[0]}
    a.update(attrs)
    return op(type, {"X": x}, {"Out": ["float64"]}, a)[0]


# ---- bilinear_interp_v2 ----

@case
def bilinear_f64():
    """NCHW: align_corners up; half-pixel (align_mode 0) up and down;
    align_mode 1 down; scale factors (ratio 1/scale) mixed up and down;
    a scale with align_corners down; a batch known only at run time."""
    x = data("x", [-1, 3, 5, 7])
    a = F.interpolate(x, size=[9, 11], mode="bilinear", align_corners=True)
    b = F.interpolate(x, size=[8, 13], mode="bilinear", align_corners=False, align_mode=0)
    c = F.interpolate(x, size=[3, 5], mode="bilinear", align_corners=False, align_mode=0)
    d = F.interpolate(x, size=[3, 4], mode="bilinear", align_corners=False, align_mode=1)
    e = F.interpolate(x, scale_factor=[1.7, 0.6], mode="bilinear", align_corners=False, align_mode=0)
    f = F.interpolate(x, scale_factor=[2.3, 1.45], mode="bilinear", align_corners=False, align_mode=1)
    g = F.interpolate(x, scale_factor=0.5, mode="bilinear", align_corners=True)
    return ["x"], [a, b, c, d, e, f, g], [x]


@case
def bilinear_f64_nhwc():
    """NHWC half-pixel up, align_mode 1 with a scale, align_corners down;
    a size-1 output dim (ratio 0) and a same-size resize (a copy)."""
    x = data("x", [2, 6, 5, 3])
    a = F.interpolate(x, size=[11, 4], mode="bilinear", align_corners=False, align_mode=0, data_format="NHWC")
    b = F.interpolate(x, scale_factor=1.5, mode="bilinear", align_corners=False, align_mode=1, data_format="NHWC")
    c = F.interpolate(x, size=[4, 3], mode="bilinear", align_corners=True, data_format="NHWC")
    y = data("y", [2, 3, 4, 5])
    d = F.interpolate(y, size=[1, 9], mode="bilinear", align_corners=False, align_mode=0)
    e = F.interpolate(y, size=[4, 5], mode="bilinear", align_corners=False)
    return ["x", "y"], [a, b, c, d, e], [x, y]


# ---- linear_interp_v2, trilinear_interp_v2 ----

@case
def linear_f64():
    """NCW half-pixel up and down, align_mode 1 with a scale, align_corners;
    NWC with a scale and align_corners, and half-pixel."""
    x = data("x", [2, 3, 7])
    a = F.interpolate(x, size=[13], mode="linear", align_corners=False, align_mode=0, data_format="NCW")
    b = F.interpolate(x, size=[4], mode="linear", align_corners=False, align_mode=0, data_format="NCW")
    c = F.interpolate(x, scale_factor=2.3, mode="linear", align_corners=False, align_mode=1, data_format="NCW")
    d = F.interpolate(x, size=[10], mode="linear", align_corners=True, data_format="NCW")
    y = data("y", [2, 9, 3])
    e = F.interpolate(y, scale_factor=0.6, mode="linear", align_corners=True, data_format="NWC")
    f = F.interpolate(y, size=[17], mode="linear", align_corners=False, align_mode=0, data_format="NWC")
    return ["x", "y"], [a, b, c, d, e, f], [x, y]


@case
def trilinear_f64():
    """NCDHW align_corners, half-pixel; NDHWC with scale factors,
    align_mode 1 and 0."""
    x = data("x", [2, 2, 3, 4, 5])
    a = F.interpolate(x, size=[5, 3, 7], mode="trilinear", align_corners=True, data_format="NCDHW")
    b = F.interpolate(x, size=[4, 7, 2], mode="trilinear", align_corners=False, align_mode=0, data_format="NCDHW")
    y = data("y", [2, 3, 4, 5, 2])
    c = F.interpolate(y, scale_factor=[1.5, 0.5, 2.1], mode="trilinear", align_corners=False, align_mode=1,
                      data_format="NDHWC")
    d = F.interpolate(y, size=[5, 6, 3], mode="trilinear", align_corners=False, align_mode=0, data_format="NDHWC")
    return ["x", "y"], [a, b, c, d], [x, y]


# ---- bicubic_interp_v2 ----

@case
def bicubic_f64():
    """NCHW align_corners up, half-pixel up and down, scale factors; NHWC
    half-pixel with scale factors."""
    x = data("x", [2, 3, 5, 6])
    a = F.interpolate(x, size=[9, 11], mode="bicubic", align_corners=True)
    b = F.interpolate(x, size=[8, 13], mode="bicubic", align_corners=False)
    c = F.interpolate(x, size=[3, 4], mode="bicubic", align_corners=False)
    d = F.interpolate(x, scale_factor=[1.7, 0.6], mode="bicubic", align_corners=False)
    y = data("y", [2, 4, 5, 3])
    e = F.interpolate(y, scale_factor=[1.5, 2.3], mode="bicubic", align_corners=False, data_format="NHWC")
    return ["x", "y"], [a, b, c, d, e], [x, y]


# ---- fluid 1.x ops ----

@case
def bilinear_v1_f64():
    """bilinear_interp: align_corners, half-pixel, a scale (the ratio is
    in/out, not 1/scale) NHWC with align_mode 0 and NCHW with 1."""
    x = data("x", [2, 3, 5, 7])
    a = v1("bilinear_interp", x, out_h=9, out_w=11)
    b = v1("bilinear_interp", x, out_h=8, out_w=4, align_corners=False, align_mode=0)
    c = v1("bilinear_interp", x, scale=1.7, align_corners=False, align_mode=1)
    y = data("y", [2, 5, 7, 3])
    d = v1("bilinear_interp", y, scale=1.45, align_corners=False, align_mode=0, data_layout="NHWC")
    return ["x", "y"], [a, b, c, d], [x, y]


@case
def linear_trilinear_v1_f64():
    """linear_interp (half-pixel, a scale with align_mode 1, NHWC read as
    channel last) and trilinear_interp (half-pixel, align_corners, a scale
    NHWC)."""
    x = data("x", [2, 3, 7])
    a = v1("linear_interp", x, out_w=13, align_corners=False, align_mode=0)
    b = v1("linear_interp", x, scale=2.3, align_corners=False, align_mode=1)
    w = data("w", [2, 9, 3])
    c = v1("linear_interp", w, out_w=4, align_corners=False, align_mode=0, data_layout="NHWC")
    y = data("y", [2, 2, 3, 4, 5])
    d = v1("trilinear_interp", y, out_d=4, out_h=7, out_w=3, align_corners=False, align_mode=0)
    e = v1("trilinear_interp", y, out_d=5, out_h=3, out_w=7)
    z = data("z", [2, 3, 4, 5, 2])
    f = v1("trilinear_interp", z, scale=1.5, align_corners=False, align_mode=0, data_layout="NHWC")
    return ["x", "w", "y", "z"], [a, b, c, d, e, f], [x, w, y, z]


@case
def bicubic_v1_f64():
    """bicubic_interp: align_corners, half-pixel up and down, a scale
    NHWC."""
    x = data("x", [2, 3, 5, 6])
    a = v1("bicubic_interp", x, out_h=9, out_w=11)
    b = v1("bicubic_interp", x, out_h=8, out_w=13, align_corners=False)
    c = v1("bicubic_interp", x, out_h=3, out_w=4, align_corners=False)
    y = data("y", [2, 4, 5, 3])
    d = v1("bicubic_interp", y, scale=1.7, align_corners=False, data_layout="NHWC")
    return ["x", "y"], [a, b, c, d], [x, y]


def make_input(v, rng):
    return rng.standard_normal([3 if d < 0 else d for d in v.shape]).astype("float64")


if __name__ == "__main__":
    run_grad_cases(CASES, make_input)

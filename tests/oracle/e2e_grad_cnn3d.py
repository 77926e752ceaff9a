"""Gradient cases of 3-D CNN ops.  conv3d_grad: groups, strides,
dilations, explicit / asymmetric / SAME padding, Input's and Filter's
gradients alone and together; conv3d_transpose_grad the same and
output_padding.  pool3d_grad: max and avg (exclusive or not),
padding (explicit, asymmetric, SAME), strides, ceil_mode, global and
adaptive pooling, NDHWC, and windows with equal maxima (the first one
takes the gradient), checked against Paddle's own grad ops
(oracle_case.build_grad_case).

    python e2e_grad_cnn3d.py OUTDIR [CASE ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import case_registry, grad_input as data, run_grad_cases  # noqa: E402

import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

CASES, case = case_registry()


def one(y, x):
    return [x.name], [y], [x]


@case
def max3d_pad_stride():
    x = data("x", [-1, 2, 5, 6, 7])
    return one(F.max_pool3d(x, 3, stride=2, padding=1), x)


@case
def max3d_ties():
    x = data("tie_x", [2, 2, 4, 4, 4])
    return one(F.max_pool3d(x, 2, stride=1), x)


@case
def max3d_ndhwc_ceil():
    x = data("x", [2, 5, 6, 7, 3])
    return one(F.max_pool3d(x, [2, 3, 2], stride=2, ceil_mode=True, data_format="NDHWC"), x)


@case
def avg3d_exclusive_pad():
    x = data("x", [2, 2, 5, 6, 7])
    return one(F.avg_pool3d(x, 3, stride=2, padding=1), x)


@case
def avg3d_inclusive_pad():
    x = data("x", [2, 2, 5, 6, 7])
    return one(F.avg_pool3d(x, 3, stride=2, padding=[1, 0, 1, 2, 0, 1], exclusive=False), x)


@case
def avg3d_same_ndhwc():
    x = data("x", [2, 5, 6, 7, 3])
    return one(F.avg_pool3d(x, [3, 2, 3], stride=[2, 1, 2], padding="SAME", data_format="NDHWC"), x)


@case
def avg3d_adaptive():
    x = data("x", [2, 2, 5, 7, 6])
    return one(F.adaptive_avg_pool3d(x, [2, 3, 4]), x)


@case
def avg3d_global():
    x = data("x", [2, 3, 3, 4, 5])
    return one(F.adaptive_avg_pool3d(x, 1), x)


# ---- conv3d ----

def conv3d(x, c_out, k, **kw):
    return paddle.static.nn.conv3d(x, c_out, k, bias_attr=False, **kw)


@case
def conv3d_basic():
    x = data("x", [-1, 3, 4, 5, 6])
    return one(conv3d(x, 4, 3, padding=1), x)


@case
def conv3d_stride_dil_groups():
    x = data("x", [2, 4, 7, 6, 8])
    return one(conv3d(x, 6, [2, 3, 2], stride=[2, 1, 2], dilation=[1, 2, 1], padding=[1, 0, 2], groups=2), x)


@case
def conv3d_asym_pad():
    x = data("x", [2, 2, 5, 5, 5])
    return one(conv3d(x, 3, 3, padding=[1, 0, 0, 2, 1, 1], stride=2), x)


@case
def conv3d_same():
    x = data("x", [2, 2, 5, 6, 4])
    return one(conv3d(x, 2, [3, 2, 3], stride=2, padding="SAME"), x)


@case
def conv3d_ndhwc():
    x = data("x", [2, 5, 4, 6, 4])
    return one(conv3d(x, 6, [2, 3, 2], stride=[1, 2, 1], padding=1, groups=2, data_format="NDHWC"), x)


@case
def conv3d_ndhwc_filter_grad_only():
    x = paddle.static.data("x", [2, 4, 5, 4, 3], "float32")
    return ["x"], [conv3d(x, 2, 2, data_format="NDHWC")], []


@case
def conv3d_ndhwc_input_grad_only():
    x = data("x", [2, 4, 5, 4, 2])
    w = paddle.static.data("w_filter", [4, 1, 2, 3, 2], "float32")
    return ["x", "w_filter"], [F.conv3d(x, w, padding=1, groups=2, data_format="NDHWC")], [x]


@case
def conv3d_filter_grad_only():
    x = paddle.static.data("x", [2, 3, 4, 4, 4], "float32")
    return ["x"], [conv3d(x, 2, 2)], []


@case
def conv3d_input_grad_only():
    x = data("x", [2, 2, 4, 5, 4])
    w = paddle.static.data("w_filter", [4, 1, 2, 3, 2], "float32")
    y = F.conv3d(x, w, stride=1, padding=1, groups=2)
    return ["x", "w_filter"], [y], [x]


# ---- conv3d_transpose ----

def conv3d_t(x, c_out, k, **kw):
    return paddle.static.nn.conv3d_transpose(x, c_out, filter_size=k, bias_attr=False, **kw)


@case
def conv3d_t_basic():
    x = data("x", [-1, 3, 3, 4, 3])
    return one(conv3d_t(x, 2, 3, padding=1), x)


@case
def conv3d_t_stride_groups_dil():
    x = data("x", [2, 4, 3, 3, 4])
    return one(conv3d_t(x, 6, [2, 3, 2], stride=[2, 1, 2], dilation=[1, 2, 1], padding=[1, 0, 1], groups=2), x)


@case
def conv3d_t_output_padding():
    x = data("x", [2, 2, 3, 3, 3])
    w = paddle.static.create_parameter([2, 3, 3, 3, 3], "float32")
    return one(F.conv3d_transpose(x, w, stride=2, padding=1, output_padding=1), x)


@case
def conv3d_t_input_grad_only():
    x = data("x", [2, 2, 3, 4, 3])
    w = paddle.static.data("w_filter", [2, 3, 2, 2, 2], "float32")
    return ["x", "w_filter"], [F.conv3d_transpose(x, w, stride=2)], [x]


def make_input(v, rng):
    shape = [3 if d < 0 else d for d in v.shape]
    if v.name.startswith("tie_"):  # few distinct values: windows with equal maxima
        return rng.integers(-2, 3, shape).astype("float32")
    return rng.standard_normal(shape).astype("float32")


if __name__ == "__main__":
    run_grad_cases(CASES, make_input)

"""Gradient cases of prelu: prelu_grad in modes all, channel (NCHW and
NHWC, rank 2 to 5) and element, X's and Alpha's gradients alone and
together, inputs with exact zeros (X > 0 is false there); float64 in each
mode (forward outputs fetched too, held to TOL64), checked against Paddle's
own grad ops (oracle_case.build_grad_case).

    python e2e_grad_prelu.py OUTDIR [CASE ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, case_registry, grad_input as data, run_grad_cases  # noqa: E402

import paddle  # noqa: E402

CASES, case = case_registry()


def prelu(x, mode, fmt="NCHW"):
    return paddle.static.nn.prelu(x, mode, data_format=fmt)


@case
def prelu_all():
    x = data("x", [-1, 3, 4, 5])
    return ["x"], [prelu(x, "all")], [x]


@case
def prelu_channel_nchw():
    x = data("x", [2, 3, 4, 5])
    return ["x"], [prelu(x, "channel")], [x]


@case
def prelu_channel_nhwc():
    x = data("x", [2, 4, 5, 3])
    return ["x"], [prelu(x, "channel", "NHWC")], [x]


@case
def prelu_channel_rank2():
    x = data("x", [6, 4])
    return ["x"], [prelu(x, "channel")], [x]


@case
def prelu_channel_rank5_nhwc():
    x = data("x", [2, 2, 3, 2, 4])
    return ["x"], [prelu(x, "channel", "NHWC")], [x]


@case
def prelu_element():
    x = data("x", [-1, 3, 4])
    return ["x"], [prelu(x, "element")], [x]


@case
def prelu_element_nhwc():
    """data_format does not matter in mode element."""
    x = data("x", [2, 3, 2, 2])
    return ["x"], [prelu(x, "element", "NHWC")], [x]


@case
def prelu_alpha_grad_only():
    x = paddle.static.data("x", [2, 3, 4, 5], "float32")  # stop_gradient: no X@GRAD
    return ["x"], [prelu(x, "channel")], []


@case
def prelu_x_grad_only():
    """Alpha fed as data (no parameter): only X@GRAD is asked for."""
    x = data("x", [2, 3, 4])
    a = paddle.static.data("a_alpha", [3], "float32")
    y = op("prelu", {"X": x, "Alpha": a}, {"Out": ["float32"]}, {"mode": "channel", "data_format": "NCHW"})[0]
    return ["x", "a_alpha"], [y], [x]


def prelu_f64(name, shape, mode, fmt="NCHW"):
    def f():
        x = data("x", shape, "float64")
        return ["x"], [prelu(x, mode, fmt)], [x]
    f.__name__ = name
    f.fetch_outs = True
    case(f)


prelu_f64("prelu_all_f64", [2, 3, 4], "all")
prelu_f64("prelu_channel_nhwc_f64", [2, 4, 5, 3], "channel", "NHWC")
prelu_f64("prelu_element_f64", [3, 2, 4], "element")


def make_input(v, rng):
    shape = [3 if d < 0 else d for d in v.shape]
    dt = "float64" if v.dtype == paddle.float64 else "float32"
    if v.name.startswith("dout") or v.name.startswith("a_"):
        return rng.standard_normal(shape).astype(dt)
    x = rng.standard_normal(shape).astype(dt)
    return x * (rng.random(shape) < 0.85).astype(dt)  # some exact zeros


if __name__ == "__main__":
    run_grad_cases(CASES, make_input)

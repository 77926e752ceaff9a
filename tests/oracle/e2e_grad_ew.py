"""Gradient cases of the element-wise binary ops (elementwise_add, _sub,
_mul, _div, _max, _min, _pow, _fmax, _fmin, _heaviside) and of the mean
op, checked against Paddle's own grad ops (oracle_case.build_grad_case):
same shapes, a bias [C] against [N, C] (axis -1), [C] against [N, C, H, W]
at axis 1, Y larger than X, a [1] operand, both operands broadcast, only
one gradient wanted, ties (and NaNs for fmax/fmin), gradient accumulation
(sum) and scale in backward.

Feed names pick the inputs' distribution (make_input): `pos*` positive
(pow's base), `int*` small integers (ties), `nan*` small integers and NaNs
(fmax, fmin), others standard normal.

    python e2e_grad_ew.py OUTDIR [CASE ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op, case_registry, run_grad_cases  # noqa: E402

import numpy as np  # noqa: E402
import paddle  # noqa: E402

CASES, case = case_registry()


def data(name, shape, grad=True, dtype="float32"):
    v = paddle.static.data(name, shape, dtype)
    v.stop_gradient = not grad
    return v


def ew(op, x, y, axis=-1):
    """One elementwise_<op> with its axis attribute (paddle.add and friends
    always write -1)."""
    return append_op(f"elementwise_{op}", {"X": [x], "Y": [y]}, {"Out": [dtype_of(x)]}, {"axis": axis})[0]


def dtype_of(v):
    return "float64" if v.dtype == paddle.float64 else "float32"


def binary(op, xs, ys, axis=-1, xname="x", yname="y", xgrad=True, ygrad=True, dtype="float32"):
    def fn():
        x, y = data(xname, xs, xgrad, dtype), data(yname, ys, ygrad, dtype)
        return [xname, yname], [ew(op, x, y, axis)], [v for v, g in ((x, xgrad), (y, ygrad)) if g]
    fn.__name__ = op
    return fn


def add_cases(op, xname="x", yname="y"):
    """The broadcast patterns, each a case named <op>_<pattern>; max, min
    and pow's grad kernels take no axis (-1 only: Paddle fails on the
    others)."""
    pats = {
        "same": ([3, 4], [3, 4], -1),
        "bias": ([-1, 5], [5], -1),
        "axis1": ([2, 3, 4, 5], [3], 1),
        "axis1_2d": ([2, 3, 4, 5], [3, 4], 1),
        "y_larger": ([5], [3, 5], -1),
        "y_larger_axis0": ([3], [3, 4], 0),
        "one": ([3, 4], [1], -1),
        "both": ([3, 1], [1, 4], -1),
        "middle": ([2, 3, 4], [2, 1, 4], -1),
    }
    for pat, (xs, ys, axis) in pats.items():
        if op in ("max", "min", "pow") and axis >= 0:
            continue
        CASES[f"{op}_{pat}"] = binary(op, xs, ys, axis, xname, yname)
        # float64 (Paddle's grad kernels take it, its OpTest checks grads
        # there): the broadcast patterns that sum, held to TOL64
        if pat in ("bias", "axis1", "both", "middle", "y_larger"):
            CASES[f"{op}_{pat}_f64"] = binary(op, xs, ys, axis, xname, yname, dtype="float64")


for _op in ["add", "sub", "mul", "div", "max", "min"]:
    add_cases(_op)
add_cases("pow", xname="posx")
for _op in ["fmax", "fmin"]:
    CASES[f"{_op}_bias"] = binary(_op, [4, 5], [5], -1, "nanx", "nany")
    CASES[f"{_op}_same"] = binary(_op, [4, 5], [4, 5], -1, "nanx", "nany")
CASES["heaviside_bias"] = binary("heaviside", [4, 5], [5], -1, "intx", "y")
CASES["heaviside_same"] = binary("heaviside", [4, 5], [4, 5], -1, "intx", "y")
CASES["fmax_bias_f64"] = binary("fmax", [4, 5], [5], -1, "nanx", "nany", dtype="float64")
CASES["fmin_same_f64"] = binary("fmin", [4, 5], [4, 5], -1, "nanx", "nany", dtype="float64")
CASES["heaviside_bias_f64"] = binary("heaviside", [4, 5], [5], -1, "intx", "y", dtype="float64")
CASES["max_ties_f64"] = binary("max", [4, 5], [5], -1, "intx", "inty", dtype="float64")
CASES["max_ties"] = binary("max", [4, 5], [5], -1, "intx", "inty")
CASES["min_ties"] = binary("min", [4, 5], [4, 5], -1, "intx", "inty")
CASES["add_bias_only_dy"] = binary("add", [-1, 5], [5], -1, xgrad=False)
CASES["add_bias_only_dx"] = binary("add", [-1, 5], [5], -1, ygrad=False)
CASES["add_same_only_dx"] = binary("add", [3, 4], [3, 4], -1, ygrad=False)
CASES["mul_axis1_only_dy"] = binary("mul", [2, 3, 4, 5], [3], 1, xgrad=False)
CASES["sub_y_larger_only_dx"] = binary("sub", [5], [3, 5], -1, ygrad=False)


def mean(x):
    """The `mean` op (paddle.mean writes reduce_mean)."""
    return append_op("mean", {"X": [x]}, {"Out": [dtype_of(x)]}, {})[0]


@case
def mean_loss():
    x = data("x", [-1, 4, 5])
    return ["x"], [mean(x)], [x]


@case
def fit_a_line():
    """fc + square_error_cost + mean, as the fit_a_line book model (the
    fc's mul grad aside: the bias, elementwise_sub and square grads)."""
    x, y, b = data("x", [-1, 3]), data("label", [-1, 3], grad=False), data("b", [3])
    pred = ew("add", x, b)
    loss = mean(paddle.square(ew("sub", pred, y)))
    return ["x", "label", "b"], [loss], [x, b]


@case
def grad_accumulate():
    """x feeds three ops: backward sums its gradients with a `sum` op."""
    x, y = data("x", [3, 4]), data("y", [4])
    out = ew("add", ew("mul", x, x), ew("sub", x, y))
    return ["x", "y"], [out], [x, y]


@case
def fit_a_line_f64():
    x, y, b = data("x", [-1, 3], dtype="float64"), data("label", [-1, 3], False, "float64"), data("b", [3], dtype="float64")
    loss = mean(paddle.square(ew("sub", ew("add", x, b), y)))
    return ["x", "label", "b"], [loss], [x, b]


@case
def scale_grad_f64():
    x = data("x", [3, 4], dtype="float64")
    out = ew("mul", paddle.scale(x, scale=0.3, bias=1.5), x)
    return ["x"], [out], [x]


@case
def scale_grad():
    """scale's gradient is a scale op (bias dropped)."""
    x = data("x", [3, 4])
    out = ew("mul", paddle.scale(x, scale=2.5, bias=1.5), x)
    return ["x"], [out], [x]


def _make_input(v, rng):
    shape = [3 if d < 0 else d for d in v.shape]
    if v.name.startswith("pos"):
        return rng.random(shape) * 2 + 0.25
    if v.name.startswith("int"):
        return rng.integers(-2, 3, shape).astype("float32")
    if v.name.startswith("nan"):  # ties and NaNs
        a = rng.integers(-2, 3, shape).astype("float32")
        a[rng.random(shape) < 0.2] = np.nan
        return a
    return rng.standard_normal(shape)


def make_input(v, rng):
    return _make_input(v, rng).astype(dtype_of(v))


if __name__ == "__main__":
    run_grad_cases(CASES, make_input)

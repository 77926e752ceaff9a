"""Gradient cases of the unary activations (activation.c's table), each
checked against Paddle's own grad op (oracle_case.build_grad_case), with
attributes set to values other than their defaults where the op has any
(and the variants a kernel branches on: gelu's approximate, elu's sign of
alpha, celu's).

Feed names pick the inputs' distribution (make_input): `pos*` in
[0.25, 2.25) (log, sqrt, ...), `unit*` in (-0.9, 0.9) (asin, atanh, ...),
`big*` in [1.25, 3.25) (acosh), `pos01*` in [0.05, 0.95) (logit), `int*` half-integers and integers around 0
(the points where relu-like grads switch), others standard normal times 3.

    python e2e_grad_act.py OUTDIR [CASE ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op, case_registry, run_grad_cases  # noqa: E402

import paddle  # noqa: E402

CASES, case = case_registry()


def unary(op, attrs=None, feed="x", shape=(3, 4, 5), dtype="float32"):
    """d(op(x))/dx through the raw op `op` with `attrs`."""
    def fn():
        x = paddle.static.data(feed, list(shape), dtype)
        x.stop_gradient = False
        out = append_op(op, {"X": [x]}, {"Out": [dtype]}, dict(attrs or {}))[0]
        return [feed], [out], [x]
    return fn


def add(name, op, attrs=None, feed="x", shape=(3, 4, 5)):
    CASES[name] = unary(op, attrs, feed, shape)
    # Paddle's CPU grad kernels take float64 too (its OpTest checks grads
    # there): the same case in double, held to test_e2e's TOL64, where a
    # float constant or a float attribute printed to 9 digits fails; the
    # forward output is checked too (a grad reading X would not show it)
    CASES[name + "_f64"] = unary(op, attrs, feed, shape, "float64")
    CASES[name + "_f64"].fetch_outs = True


# ops without attributes, by input domain
for op in ["relu", "sigmoid", "tanh", "exp", "square", "abs", "sin", "cos", "tan", "sinh", "cosh", "asinh",
           "atan", "silu", "softsign", "tanh_shrink", "logsigmoid", "expm1", "reciprocal"]:
    add(op, op)
for op in ["log", "sqrt", "rsqrt", "log1p", "log2", "log10"]:
    add(op, op, feed="posx")
for op in ["asin", "acos", "atanh"]:
    add(op, op, feed="unitx")
add("acosh", "acosh", feed="bigx")
add("relu_kinks", "relu", feed="intx")
add("abs_zero", "abs", feed="intx")
# Paddle 2.6's kernels fix these attributes (relu6's threshold 6, swish's
# beta 1, hard_swish's 6/6/3): the grads are checked at the defaults
add("relu6", "relu6", feed="intx")
add("swish", "swish")
add("hard_swish", "hard_swish", feed="intx")
# attributes
add("leaky_relu", "leaky_relu", {"alpha": 0.3}, feed="intx")
add("leaky_relu_neg", "leaky_relu", {"alpha": -0.2})
add("elu", "elu", {"alpha": 0.7})
add("elu_neg_alpha", "elu", {"alpha": -0.4})
add("celu", "celu", {"alpha": 1.7})
add("selu", "selu", {"scale": 1.2, "alpha": 1.5})
add("gelu", "gelu", {"approximate": False})
add("gelu_tanh", "gelu", {"approximate": True})
add("hard_sigmoid", "hard_sigmoid", {"slope": 0.3, "offset": 0.4})
add("softplus", "softplus", {"beta": 1.5, "threshold": 3.0})
add("mish", "mish", {"threshold": 2.5})
add("brelu", "brelu", {"t_min": -1.5, "t_max": 2.0}, feed="intx")
add("thresholded_relu", "thresholded_relu", {"threshold": 0.5}, feed="intx")
add("hard_shrink", "hard_shrink", {"threshold": 1.0}, feed="intx")
add("softshrink", "softshrink", {"lambda": 1.0}, feed="intx")
add("stanh", "stanh", {"scale_a": 0.8, "scale_b": 1.3})
add("pow", "pow", {"factor": 2.5}, feed="posx")
add("erf", "erf")
add("logit", "logit", {"eps": 0.1}, feed="unitx")
add("logit_eps0", "logit", {"eps": 0.0}, feed="pos01x")
add("clip", "clip", {"min": -1.0, "max": 1.5}, feed="intx")
for op in ["floor", "ceil", "round"]:
    add(op, op)


@case
def clip_tensors():
    """clip with Min and Max tensors (they override the attributes)."""
    x = paddle.static.data("intx", [3, 4], "float32")
    x.stop_gradient = False
    lo = paddle.full([1], -0.5, "float32")
    hi = paddle.full([1], 2.0, "float32")
    out = append_op("clip", {"X": [x], "Min": [lo], "Max": [hi]}, {"Out": ["float32"]}, {"min": -9.0, "max": 9.0})[0]
    return ["intx"], [out], [x]


@case
def pow_factor_tensor():
    """pow with a FactorTensor (it overrides factor)."""
    x = paddle.static.data("posx", [3, 4], "float32")
    x.stop_gradient = False
    f = paddle.full([1], 1.5, "float32")
    out = append_op("pow", {"X": [x], "FactorTensor": [f]}, {"Out": ["float32"]}, {"factor": 3.0})[0]
    return ["posx"], [out], [x]


@case
def mlp_tanh_sigmoid():
    """A chain as an MLP's hidden layers use it: x -> tanh -> sigmoid -> relu."""
    x = paddle.static.data("x", [-1, 6], "float32")
    x.stop_gradient = False
    h = paddle.nn.functional.relu(paddle.nn.functional.sigmoid(paddle.tanh(x)))
    return ["x"], [h], [x]


def make_input(v, rng):
    return _make_input(v, rng).astype("float64" if v.dtype == paddle.float64 else "float32")


def _make_input(v, rng):
    shape = [3 if d < 0 else d for d in v.shape]
    if v.name.startswith("pos"):
        return (rng.random(shape) * 2 + 0.25)
    if v.name.startswith("pos01"):
        return (rng.random(shape) * 0.9 + 0.05)
    if v.name.startswith("unit"):
        return (rng.random(shape) * 1.8 - 0.9)
    if v.name.startswith("big"):
        return (rng.random(shape) * 2 + 1.25)
    if v.name.startswith("int"):
        return (rng.integers(-8, 9, shape) * 0.5)
    return (rng.standard_normal(shape) * 3)


if __name__ == "__main__":
    run_grad_cases(CASES, make_input)

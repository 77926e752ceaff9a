"""Op-level end-to-end cases for the math family: every unary activation
with non-default attributes, the binary element-wise ops with Paddle's `axis`
broadcasting (float32 and int64), the matrix products (mul, matmul with
alpha, matmul_v2 with transposes, batches, broadcasting and vectors), scale
(both bias orders, ScaleTensor), softmax and log_softmax on every axis;
activations and scale with negative attributes (float32 and float64: the
attributes' C literals).

    python e2e_math.py OUTDIR [CASE ...]

Each case is a small static program; raw ops are appended where the Python
API hides an attribute.  Float inputs are standard normal; ops defined only
for positive inputs read |x| + 0.5, built in the graph.  Batch 2.
tests/oracle/oracle_case.py saves each case with Paddle's outputs."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import run_static_cases, case_registry  # noqa: E402

import paddle  # noqa: E402
from paddle.base.layer_helper import LayerHelper  # noqa: E402

CASES, case = case_registry()


def op(type, x, attrs=None, extra=None):
    """Appends op `type` with input X (plus `extra` slots); returns Out."""
    helper = LayerHelper(type)
    out = helper.create_variable_for_type_inference(x.dtype)
    inputs = {"X": [x]}
    inputs.update(extra or {})
    helper.append_op(type=type, inputs=inputs, outputs={"Out": [out]}, attrs=attrs or {})
    return out


def binary(type, x, y, axis):
    helper = LayerHelper(type)
    out = helper.create_variable_for_type_inference(x.dtype)
    helper.append_op(type=type, inputs={"X": [x], "Y": [y]}, outputs={"Out": [out]}, attrs={"axis": axis})
    return out


UNARY = [  # (op type, attributes): each applied to x, or to |x| + 0.5 when marked positive
    ("relu", {}), ("sigmoid", {}), ("logsigmoid", {}), ("tanh", {}), ("tanh_shrink", {}), ("exp", {}),
    ("abs", {}), ("cos", {}), ("sin", {}), ("floor", {}), ("ceil", {}), ("round", {}), ("sign", {}),
    ("square", {}), ("erf", {}), ("silu", {}), ("softsign", {}), ("relu6", {"threshold": 1.5}),
    ("leaky_relu", {"alpha": 0.15}), ("elu", {"alpha": 0.7}), ("celu", {"alpha": 1.3}),
    ("selu", {"scale": 1.2, "alpha": 1.4}), ("gelu", {"approximate": False}), ("gelu", {"approximate": True}),
    ("swish", {"beta": 1.7}), ("hard_swish", {"threshold": 5.0, "scale": 7.0, "offset": 2.5}),
    ("hard_sigmoid", {"slope": 0.1666667, "offset": 0.45}), ("softplus", {"beta": 2.0, "threshold": 3.0}),
    ("mish", {"threshold": 1.0}), ("brelu", {"t_min": -0.5, "t_max": 0.8}),
    ("thresholded_relu", {"threshold": 0.3}), ("hard_shrink", {"threshold": 0.4}),
    ("softshrink", {"lambda": 0.3}), ("stanh", {"scale_a": 0.5, "scale_b": 2.0}),
    ("clip", {"min": -0.4, "max": 0.9}), ("scale", {"scale": 1.5, "bias": -0.25, "bias_after_scale": False}),
    ("scale", {"scale": -2.0, "bias": 0.5, "bias_after_scale": True}),
    ("tan", {}), ("atan", {}), ("sinh", {}), ("cosh", {}), ("asinh", {}), ("expm1", {}), ("trunc", {}),
    ("asin", {}), ("acos", {}), ("atanh", {}), ("erfinv", {}), ("lgamma", {}), ("logit", {"eps": 0.05}),
    ("logit", {"eps": 0.0}), ("soft_relu", {"threshold": 1.5}),
]
POSITIVE = [("sqrt", {}), ("rsqrt", {}), ("log", {}), ("reciprocal", {}), ("pow", {"factor": 1.7}),
            ("log1p", {}), ("log2", {}), ("log10", {}), ("acosh", {}), ("digamma", {})]


@case
def unary_all():
    x = paddle.static.data("x", [None, 3, 5], "float32")
    pos = paddle.scale(paddle.abs(x), 1.0, 0.5)
    outs = [op(t, x, a) for t, a in UNARY] + [op(t, pos, a) for t, a in POSITIVE]
    return [x], outs


@case
def unary_tensor_attrs():
    """clip's Min/Max, pow's FactorTensor and scale's ScaleTensor as tensors."""
    x = paddle.static.data("x", [None, 4], "float32")
    lo = paddle.full([1], -0.3, "float32")
    hi = paddle.full([1], 0.6, "float32")
    f = paddle.full([1], 2.0, "float32")
    s = paddle.full([1], 3.0, "float32")
    pos = paddle.scale(paddle.abs(x), 1.0, 0.5)
    return [x], [op("clip", x, {"min": -5.0, "max": 5.0}, {"Min": [lo], "Max": [hi]}),
                 op("pow", pos, {"factor": 1.0}, {"FactorTensor": [f]}),
                 op("scale", x, {"scale": 1.0, "bias": 1.0}, {"ScaleTensor": [s]})]


BINARY = ["elementwise_add", "elementwise_sub", "elementwise_mul", "elementwise_div", "elementwise_max",
          "elementwise_min", "elementwise_fmax", "elementwise_fmin", "elementwise_pow", "elementwise_floordiv",
          "elementwise_mod", "elementwise_heaviside"]


@case
def binary_broadcast():
    """Every binary op on shapes that broadcast four ways (axis -1 and 1)."""
    x = paddle.static.data("x", [None, 3, 4, 5], "float32")
    y5 = paddle.static.data("y5", [5], "float32")
    y34 = paddle.static.data("y34", [3, 4], "float32")
    y315 = paddle.static.data("y315", [3, 1, 5], "float32")
    same = paddle.static.data("same", [None, 3, 4, 5], "float32")
    outs = []
    for t in BINARY:
        ypos = paddle.scale(paddle.abs(y5), 1.0, 0.5)  # divisors away from 0
        outs += [binary(t, x, ypos if t in ("elementwise_div", "elementwise_floordiv", "elementwise_mod") else y5, -1),
                 binary(t, x, y315, -1), binary(t, x, same, -1)]
        if t not in ("elementwise_fmax", "elementwise_fmin", "elementwise_heaviside"):  # these ignore axis
            outs.append(binary(t, x, y34, 1))
    return [x, y5, y34, y315, same], outs


@case
def binary_int64():
    x = paddle.static.data("x", [None, 6], "int64")
    y = paddle.static.data("y", [6], "int64")
    yp = paddle.abs(y) + 1
    return [x, y], [binary(t, x, yp, -1) for t in ("elementwise_add", "elementwise_sub", "elementwise_mul",
                                                      "elementwise_floordiv", "elementwise_mod",
                                                      "elementwise_max", "elementwise_min")]


def mm(type, x, y, attrs):
    helper = LayerHelper(type)
    out = helper.create_variable_for_type_inference(x.dtype)
    helper.append_op(type=type, inputs={"X": [x], "Y": [y]}, outputs={"Out": [out]}, attrs=attrs)
    return out


@case
def matmul_v2_forms():
    x = paddle.static.data("x", [None, 3, 4], "float32")
    w = paddle.static.data("w", [4, 5], "float32")
    wt = paddle.static.data("wt", [5, 4], "float32")
    xb = paddle.static.data("xb", [None, 2, 3, 4], "float32")
    yb = paddle.static.data("yb", [2, 4, 6], "float32")
    v = paddle.static.data("v", [4], "float32")
    xt = paddle.static.data("xt", [None, 4, 3], "float32")
    return [x, w, wt, xb, yb, v, xt], [
        mm("matmul_v2", x, w, {}),                                    # folds the batch into M
        mm("matmul_v2", x, wt, {"trans_y": True}),
        mm("matmul_v2", xt, w, {"trans_x": True}),
        mm("matmul_v2", xt, wt, {"trans_x": True, "trans_y": True}),
        mm("matmul_v2", xb, yb, {}),                                  # broadcast batch dims
        mm("matmul_v2", x, v, {}),                                    # matrix @ vector
        mm("matmul_v2", v, w, {}),                                    # vector @ matrix
        mm("matmul_v2", x, paddle.transpose(x, [0, 2, 1]), {}),      # batched both sides
    ]


@case
def matmul_v1_and_mul():
    x = paddle.static.data("x", [None, 3, 4], "float32")
    y = paddle.static.data("y", [None, 4, 2], "float32")
    w = paddle.static.data("w", [12, 7], "float32")
    w2 = paddle.static.data("w2", [4, 7], "float32")
    return [x, y, w, w2], [
        mm("matmul", x, y, {"alpha": 0.5}),
        mm("matmul", x, paddle.transpose(y, [0, 2, 1]), {"transpose_Y": True, "alpha": 2.0}),
        mm("mul", x, w, {"x_num_col_dims": 1, "y_num_col_dims": 1}),
        mm("mul", x, w2, {"x_num_col_dims": 2, "y_num_col_dims": 1}),
    ]


@case
def softmax_axes():
    x = paddle.static.data("x", [None, 3, 4], "float32")
    outs = []
    for axis in (0, 1, -1, 2):
        outs.append(op("softmax", x, {"axis": axis}))
        outs.append(op("log_softmax", x, {"axis": axis}))
    return [x], outs


# ---------------------------------------------------------------- activations with negative attributes (the C literals)
NEGATIVE_ATTRS = [
    ("hard_shrink", {"threshold": -0.1}), ("softshrink", {"lambda": -0.2}),
    ("leaky_relu", {"alpha": -0.3}), ("swish", {"beta": -1.5}), ("soft_relu", {"threshold": -0.5}),
    ("thresholded_relu", {"threshold": -0.5}), ("elu", {"alpha": -0.5}), ("celu", {"alpha": -0.5}),
    ("hard_sigmoid", {"slope": -0.2, "offset": -0.5}), ("relu6", {"threshold": -1.0}),
    ("brelu", {"t_min": -2.0, "t_max": -0.5}), ("mish", {"threshold": -1.0}),
    ("softplus", {"beta": -1.0, "threshold": -2.0}), ("stanh", {"scale_a": -0.5, "scale_b": -2.0}),
    ("selu", {"scale": -1.5, "alpha": -0.5}), ("clip", {"min": -0.5, "max": -0.25}),
    ("scale", {"scale": -2.0, "bias": -0.5}), ("scale", {"scale": -2.0, "bias": -0.5, "bias_after_scale": False}),
]


@case
def activations_negative_attrs():
    x = paddle.static.data("x", [4, 6], "float32")
    outs = [op(t, x, dict(a)) for t, a in NEGATIVE_ATTRS]
    d = paddle.static.data("d", [4, 6], "float64")
    outs += [op(t, d, dict(a))
             for t, a in NEGATIVE_ATTRS if t in ("hard_shrink", "softshrink", "leaky_relu", "scale")]
    return [x, d], outs


def make_input(v, rng):
    shape = [2 if d < 0 else d for d in v.shape]
    if "int" in str(v.dtype):
        return rng.integers(-20, 20, size=shape).astype("int64")
    return rng.standard_normal(shape).astype("float64" if "float64" in str(v.dtype) else "float32")


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

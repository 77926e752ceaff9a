#!/usr/bin/env python3
"""Op-level end-to-end cases for legacy (fluid-era) op types that paddlec
compiles but no other case held: increment, fill_zeros_like2,
broadcast_tensors, fake_dequantize_max_abs and fc, each a one-op (or few-op)
static program built with append_op, its attributes set to values other
than Paddle's defaults.

    python e2e_legacy.py OUTDIR [CASE ...]

Left out because Paddle 2.6's CPU build does not register the op type at
all (no OpProto, so neither append_op nor the Executor takes it, and there
is no reference to compare with): expand_as, flatten, one_hot, squeeze,
unsqueeze (their _v2 / 2 successors have cases elsewhere) and
sync_batch_norm (GPU-only); and pad2d, registered but with no kernel
("There are no kernels which are registered in the pad2d operator": pad3d
took its place).

Float inputs are uniform in [-1, 1) (fake_dequantize's X holds whole
numbers, as a quantized tensor does; feeds named `pos*` are positive);
integer inputs are uniform in the range data() gives.  Batch 2, the batch
dim None in the first feed.  tests/oracle/oracle_case.py saves each case
with Paddle's reference outputs."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, run_static_cases, case_registry  # noqa: E402

import paddle  # noqa: E402
from paddle.base.layer_helper import LayerHelper  # noqa: E402

BATCH = 2
CASES, case = case_registry()
INT_RANGE = {}  # feed name -> (low, high) for integer feeds


def data(name, shape, dtype="float32", low=-5, high=5):
    INT_RANGE[name] = (low, high)
    return paddle.static.data(name, shape, dtype)


# ---------------------------------------------------------------- increment
@case
def increment():
    """step 2.5 (and -1.25) on a one-element float32 tensor, step 3 on
    int64 and int32 counters; chained, as a loop counter is."""
    x = data("x", [1])
    i = data("i", [1], "int64", -10, 10)
    j = data("j", [1], "int32", -10, 10)
    a = op("increment", {"X": [x]}, {"Out": ["float32"]}, {"step": 2.5})[0]
    b = op("increment", {"X": [a]}, {"Out": ["float32"]}, {"step": -1.25})[0]
    c = op("increment", {"X": [i]}, {"Out": ["int64"]}, {"step": 3.0})[0]
    d = op("increment", {"X": [j]}, {"Out": ["int32"]}, {"step": -7.0})[0]
    return [x, i, j], [a, b, c, d]


# ---------------------------------------------------------------- fill_zeros_like2
@case
def fill_zeros_like2():
    """dtype other than X's: float64 and int64 zeros shaped like a float32
    X; int32 zeros like an int64 X; plus an add so that a kernel writing
    garbage cannot hide behind a zero arena."""
    x = data("x", [None, 3, 4])
    i = data("i", [None, 5], "int64")
    a = op("fill_zeros_like2", {"X": [x]}, {"Out": ["float64"]}, {"dtype": 6})[0]
    b = op("fill_zeros_like2", {"X": [x]}, {"Out": ["int64"]}, {"dtype": 3})[0]
    c = op("fill_zeros_like2", {"X": [i]}, {"Out": ["int32"]}, {"dtype": 2})[0]
    d = op("fill_zeros_like2", {"X": [i]}, {"Out": ["float32"]}, {"dtype": 5})[0]
    return [x, i], [a, b, c, d, paddle.add(d, paddle.cast(i, "float32"))]


# ---------------------------------------------------------------- broadcast_tensors
def broadcast(*xs):
    """One broadcast_tensors op; returns all of its outputs (append_op
    returns the first of each slot)."""
    helper = LayerHelper("broadcast_tensors")
    outs = [helper.create_variable_for_type_inference(x.dtype) for x in xs]
    helper.append_op(type="broadcast_tensors", inputs={"X": list(xs)}, outputs={"Out": outs}, attrs={})
    return outs


@case
def broadcast_tensors():
    """Three and two inputs of different ranks, size-1 dims on either side,
    an input already of the result's shape; int64 inputs."""
    x = data("x", [None, 1, 4])
    y = data("y", [3, 1])
    z = data("z", [4])
    u = data("u", [None, 3, 4])
    i = data("i", [None, 1], "int64")
    k = data("k", [1, 6], "int64")
    outs = broadcast(x, y, z) + broadcast(u, y) + broadcast(i, k)
    return [x, y, z, u, i, k], outs


# ---------------------------------------------------------------- fake_dequantize_max_abs
@case
def fake_dequantize_max_abs():
    """Out = X * Scale / max_range: 8-bit (127), 4-bit (7) and a max_range
    that is not 2^(bits-1) - 1."""
    x = data("q", [None, 3, 5])
    s = data("pos_scale", [1])
    outs = [op("fake_dequantize_max_abs", {"X": [x], "Scale": [s]}, {"Out": ["float32"]}, {"max_range": r})[0]
            for r in (127.0, 7.0, 100.5)]
    return [x, s], outs


# ---------------------------------------------------------------- fused_elemwise_activation
@case
def fused_elemwise_activation():
    """Both functor orders: binary(X, unary(Y)) and unary(binary(X, Y));
    add and mul; relu and scale (with its scale attribute) as the
    unary; Y broadcast along axis 1."""
    x = data("x", [None, 3, 4])
    y = data("y", [None, 3, 4])
    z = data("z", [3])

    def fused(a, b, functors, **attrs):
        return op("fused_elemwise_activation", {"X": [a], "Y": [b]},
                  {"Out": ["float32"], "IntermediateOut": ["float32"]},
                  dict(functor_list=functors, save_intermediate_out=False, **attrs))[0]

    outs = [fused(x, y, ["elementwise_add", "relu"]),
            fused(x, y, ["relu", "elementwise_add"]),
            fused(x, y, ["elementwise_mul", "scale"], scale=1.5),
            fused(x, z, ["scale", "elementwise_add"], axis=1, scale=0.5),
            fused(x, z, ["elementwise_add", "scale"], axis=1, scale=-0.75)]
    return [x, y, z], outs


# ---------------------------------------------------------------- driver
def make_input(v, rng):
    shape = [BATCH if d in (None, -1) else d for d in v.shape]
    dt = str(v.dtype)
    if "int" in dt:
        low, high = INT_RANGE[v.name]
        return rng.integers(low, high, size=shape).astype("int64" if "int64" in dt else "int32")
    if v.name == "q":
        return rng.integers(-127, 128, size=shape).astype("float32")
    x = rng.uniform(-1.0, 1.0, shape).astype("float64" if "float64" in dt else "float32")
    if v.name.startswith("pos"):
        x = abs(x) * 4.0 + 0.1
    return x


# ---------------------------------------------------------------- fc
@case
def fc():
    """fc, the op Paddle Inference's fc_fuse_pass writes: in_num_col_dims 1
    of a [B, 4, 3] input (K 12) with a [N] bias, 2 of [B, 3, 5] with a
    [1, N] bias and relu, no bias, float64."""
    x, w, b = data("x", [None, 4, 3]), data("w", [12, 6]), data("b", [6])
    y, v, c = data("y", [None, 3, 5]), data("v", [5, 4]), data("c", [1, 4])
    d, dw, db = data("d", [None, 7], "float64"), data("dw", [7, 3], "float64"), data("db", [3], "float64")
    outs = op("fc", {"Input": [x], "W": [w], "Bias": [b]}, {"Out": ["float32"]}, {"in_num_col_dims": 1})
    outs += op("fc", {"Input": [y], "W": [v], "Bias": [c]}, {"Out": ["float32"]},
               {"in_num_col_dims": 2, "activation_type": "relu"})
    outs += op("fc", {"Input": [y], "W": [v]}, {"Out": ["float32"]}, {"in_num_col_dims": 2})
    outs += op("fc", {"Input": [d], "W": [dw], "Bias": [db]}, {"Out": ["float64"]},
               {"in_num_col_dims": 1, "activation_type": "relu"})
    return [x, w, b, y, v, c, d, dw, db], outs


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

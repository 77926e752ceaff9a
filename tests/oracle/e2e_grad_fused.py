"""fused_elemwise_activation (a Paddle 1.x fluid.contrib op) and its grad,
fused_elemwise_activation_grad, as Paddle's own grad maker writes it:
the nine functor pairs Paddle's kernel computes, float32 and float64,
with and without save_intermediate_out (IntermediateOut fetched), each
pair with another broadcast (equal shapes, Y's dims a trailing run, Y at
`axis`, Y with a trailing 1, X the smaller operand, a batch dim), inputs
wide enough to reach the clips of Paddle's tanh and sigmoid functors
(|2x| > 13, |x| > 13).  The gradients are checked against Paddle's
(oracle_case.build_grad_case); so are the forward outputs (fetch_outs).

`mul_tanh_bcast_y`: Y broadcast and nothing saved, where Paddle's kernel
takes tanh's derivative of Y itself (its UseX) — paddlec gives Paddle's
numbers.

    python e2e_grad_fused.py OUTDIR [CASE ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op, case_registry, grad_input, run_grad_cases  # noqa: E402

CASES, case = case_registry()

# pair, X shape, Y shape, axis
PAIRS = [
    (["elementwise_add", "scale"], [2, 3, 4], [2, 3, 4], -1),
    (["scale", "elementwise_add"], [2, 3, 4], [3, 4], -1),
    (["elementwise_add", "relu"], [2, 3, 4], [3], 1),
    (["relu", "elementwise_add"], [3, 4], [2, 3, 4], -1),
    (["elementwise_mul", "scale"], [2, 3, 4], [2, 3, 1], -1),
    (["tanh", "elementwise_add"], [None, 3, 4], [None, 3, 4], -1),
    (["elementwise_mul", "tanh"], [4], [2, 3, 4], -1),
    (["elementwise_mul", "sigmoid"], [None, 3, 4], [3], 1),
    (["gelu", "elementwise_add"], [2, 3, 4], [2, 3, 4], -1),
]


def fused(x, y, functors, save, dtype, axis=-1, scale=0.0):
    outs = append_op("fused_elemwise_activation", {"X": [x], "Y": [y]}, {"Out": [dtype], "IntermediateOut": [dtype]},
                     {"functor_list": functors, "save_intermediate_out": save, "axis": axis, "scale": scale})
    return outs if save else outs[:1]


def all_pairs(name, dtype, save):
    def f():
        feeds, outs, wrt = [], [], []
        for i, (functors, xs, ys, axis) in enumerate(PAIRS):
            x, y = grad_input(f"wide_x{i}", xs, dtype), grad_input(f"y{i}", ys, dtype)
            feeds += [x.name, y.name]
            wrt += [x, y]
            outs += fused(x, y, functors, save, dtype, axis, scale=-1.25 if i % 2 else 0.7)
        return feeds, outs, wrt
    f.__name__ = name
    f.fetch_outs = True
    case(f)


all_pairs("pairs_f32", "float32", False)
all_pairs("pairs_f32_saved", "float32", True)
all_pairs("pairs_f64", "float64", False)
all_pairs("pairs_f64_saved", "float64", True)


@case
def mul_tanh_bcast_y():
    """Y broadcast along the batch dim, nothing saved: Paddle's UseX."""
    x, y = grad_input("x", [None, 3, 4], "float64"), grad_input("y", [3, 4], "float64")
    return ["x", "y"], fused(x, y, ["elementwise_mul", "tanh"], False, "float64"), [x, y]


mul_tanh_bcast_y.fetch_outs = True


@case
def mul_sigmoid_bcast_y_f32():
    x, y = grad_input("x", [2, 3, 4]), grad_input("y", [3, 1])
    return ["x", "y"], fused(x, y, ["elementwise_mul", "sigmoid"], False, "float32", axis=1), [x, y]


def make_input(v, rng):
    shape = [2 if d < 0 else d for d in v.shape]
    dt = "float64" if "float64" in str(v.dtype) else "float32"
    if v.name.startswith("wide"):
        return rng.uniform(-9, 9, shape).astype(dt)
    return rng.uniform(-2, 2, shape).astype(dt)


if __name__ == "__main__":
    run_grad_cases(CASES, make_input)

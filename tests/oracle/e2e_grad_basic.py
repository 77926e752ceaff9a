"""Gradient cases of the first training programs (fit_a_line, MLPs): the
grad ops Paddle's backward writes for fc (mul, elementwise_add), relu,
square_error_cost and mean, checked against Paddle's own gradients
(oracle_case.build_grad_case: random upstream gradients, every parameter's
gradient fetched).

    python e2e_grad_basic.py OUTDIR [CASE ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import case_registry, grad_input as data, run_grad_cases  # noqa: E402

import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

CASES, case = case_registry()


@case
def fc_relu():
    x = data("x", [-1, 4])
    out = F.relu(paddle.static.nn.fc(x, 3))
    return ["x"], [out], [x]


def make_input(v, rng):
    shape = [3 if d < 0 else d for d in v.shape]
    return rng.standard_normal(shape).astype("float32")


if __name__ == "__main__":
    run_grad_cases(CASES, make_input)

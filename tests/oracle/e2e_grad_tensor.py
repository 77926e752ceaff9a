"""Gradient cases of the reductions and the data-movement ops: reduce_sum,
reduce_mean, reduce_max and reduce_min (dim, keep_dim, reduce_all),
reshape2, transpose2, flatten_contiguous_range, squeeze2, unsqueeze2,
concat and split, checked against Paddle's own grad ops
(oracle_case.build_grad_case).

Feeds named tie* hold small integers (as floats), so that a max or min is
reached by several elements.

    python e2e_grad_tensor.py OUTDIR [CASE ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import case_registry, run_grad_cases  # noqa: E402

import paddle  # noqa: E402

CASES, case = case_registry()


def data(name, shape, dtype="float32"):
    v = paddle.static.data(name, shape, dtype)
    v.stop_gradient = False
    return v


def unary(name, shape, fn, feed="x"):
    def f():
        x = data(feed, shape)
        return [feed], [fn(x)], [x]
    f.__name__ = name
    case(f)


unary("sum_dim1", [-1, 4, 3], lambda x: paddle.sum(x, axis=1))
unary("sum_neg_keep", [2, 3, 4], lambda x: paddle.sum(x, axis=[-1, 0], keepdim=True))
unary("sum_all", [-1, 5], lambda x: paddle.sum(x))
unary("mean_dim02_keep", [2, 3, 4], lambda x: paddle.mean(x, axis=[0, 2], keepdim=True))
unary("mean_dim1", [-1, 6], lambda x: paddle.mean(x, axis=1))
unary("mean_all_keep", [2, 3], lambda x: paddle.mean(x, axis=[0, 1], keepdim=True))
unary("max_dim1_ties", [4, 5, 2], lambda x: paddle.max(x, axis=1), "tie")
unary("max_all_ties", [3, 4], lambda x: paddle.max(x), "tie")
unary("min_dim0_keep", [4, 3], lambda x: paddle.min(x, axis=0, keepdim=True), "tie")
unary("reshape2", [-1, 4, 3], lambda x: paddle.reshape(x, [-1, 2, 6]))
unary("transpose2", [2, 3, 4], lambda x: paddle.transpose(x, [2, 0, 1]))
unary("transpose2_batch", [-1, 3, 4, 2], lambda x: paddle.transpose(x, [0, 3, 1, 2]))
unary("flatten", [2, 3, 4, 2], lambda x: paddle.flatten(x, 1, 2))
unary("squeeze2", [3, 1, 4, 1], lambda x: paddle.squeeze(x, [1, 3]))
unary("unsqueeze2", [3, 4], lambda x: paddle.unsqueeze(x, [0, 2]))


@case
def concat_axis1():
    a, b, c = data("a", [-1, 2, 3]), data("b", [-1, 4, 3]), data("c", [-1, 1, 3])
    return ["a", "b", "c"], [paddle.concat([a, b, c], axis=1)], [a, b, c]


@case
def concat_partial():
    """b stops the gradient: concat_grad has an empty X@GRAD in the middle."""
    a, c = data("a", [2, 3]), data("c", [2, 2])
    b = paddle.static.data("b", [2, 4], "float32")
    return ["a", "b", "c"], [paddle.concat([a, b, c], axis=-1)], [a, c]


@case
def split_axis0():
    x = data("x", [6, 4])
    outs = paddle.split(x, [1, 2, 3], axis=0)
    return ["x"], list(outs), [x]


def make_input(v, rng):
    shape = [3 if d < 0 else d for d in v.shape]
    if v.name.startswith("tie"):
        return rng.integers(-2, 3, shape).astype("float32")
    return rng.standard_normal(shape).astype("float32")


if __name__ == "__main__":
    run_grad_cases(CASES, make_input)

#!/usr/bin/env python3
"""Op-level end-to-end cases for control flow compiled as C loops and
branches: `while` (paddle.static.nn.while_loop: a counted loop whose
loop var starts as a feed, a loop whose trip count is a feed, a loop that
runs until the data says stop, a loop that runs zero times), and
`conditional_block` + `select_input` (paddle.static.nn.cond on a
predicate computed from the data, branches taken and not taken, a branch
inside a loop, a loop inside a branch, switch_case and case), and
select_output (X into the output the mask picks).

    python e2e_control.py OUTDIR [CASE ...]

Feeds: float32 standard normal; `n*` int64 trip counts (3; n_zero 0) or
the branch switch_case takes (n_branch 1).  Batch 2.
tests/oracle/oracle_case.py saves each case with Paddle's reference
outputs (the weights random)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import run_static_cases, case_registry  # noqa: E402

import paddle  # noqa: E402

CASES, case = case_registry()
BATCH = 2


def weight(shape):
    return paddle.create_parameter(shape, "float32")


def step(h, w):
    return paddle.tanh(paddle.matmul(h, w)) + h


@case
def while_counted():
    x = paddle.static.data("x", [None, 4], "float32")
    w = weight([4, 4])
    i = paddle.full([1], 0, "int64")
    n = paddle.full([1], 3, "int64")
    i2, h = paddle.static.nn.while_loop(lambda i, h: i < n, lambda i, h: [i + 1, step(h, w)], [i, x])
    return [x], [h, i2, x * 1.0]


@case
def while_trip_feed():
    x = paddle.static.data("x", [None, 3], "float32")
    n = paddle.static.data("n", [1], "int64")
    w = weight([3, 3])
    i = paddle.full([1], 0, "int64")
    acc = paddle.zeros([1], "float32")

    def body(i, h, acc):
        h = step(h, w)
        return [i + 1, h, acc + paddle.mean(h)]

    i2, h, acc2 = paddle.static.nn.while_loop(lambda i, h, a: i < n, body, [i, x, acc])
    return [x, n], [h, i2, acc2]


@case
def while_until_data():
    x = paddle.static.data("x", [None, 5], "float32")
    w = weight([5, 5])
    h0 = paddle.abs(x) + 0.5
    k = paddle.zeros([1], "int32")

    def body(h, k):
        return [h * 1.5 + paddle.matmul(paddle.tanh(h), w) * 0.1, k + 1]

    h, k2 = paddle.static.nn.while_loop(lambda h, k: paddle.sum(h) < 200.0, body, [h0, k])
    return [x], [h, k2]


@case
def cond_branches():
    x = paddle.static.data("x", [None, 4], "float32")
    w = weight([4, 4])
    s = paddle.mean(x)
    a = paddle.static.nn.cond(s > 0, lambda: paddle.matmul(x, w), lambda: x * 2.0 - 1.0)
    b = paddle.static.nn.cond(s > 1000, lambda: paddle.matmul(x, w), lambda: paddle.exp(x))
    c = paddle.static.nn.cond(s < 1000, lambda: paddle.nn.functional.sigmoid(x), lambda: x)
    return [x], [a, b, c]


@case
def cond_in_loop():
    x = paddle.static.data("x", [None, 4], "float32")
    w = weight([4, 4])
    i = paddle.full([1], 0, "int64")
    n = paddle.full([1], 5, "int64")

    def body(i, h):
        odd = paddle.remainder(i, paddle.full([1], 2, "int64")) == 1
        h = paddle.static.nn.cond(odd, lambda: step(h, w), lambda: h * 0.5)
        return [i + 1, h]

    i2, h = paddle.static.nn.while_loop(lambda i, h: i < n, body, [i, x])
    return [x], [h, i2]


@case
def loop_in_cond():
    x = paddle.static.data("x", [None, 4], "float32")
    w = weight([4, 4])

    def loop():
        i = paddle.full([1], 0, "int64")
        n = paddle.full([1], 2, "int64")
        _, h = paddle.static.nn.while_loop(lambda i, h: i < n, lambda i, h: [i + 1, step(h, w)], [i, x])
        return h

    y = paddle.static.nn.cond(paddle.max(x) > -100.0, loop, lambda: x)
    return [x], [y]


@case
def while_zero_trips():
    x = paddle.static.data("x", [None, 3], "float32")
    n = paddle.static.data("n_zero", [1], "int64")
    w = weight([3, 3])
    i = paddle.full([1], 0, "int64")
    i2, h = paddle.static.nn.while_loop(lambda i, h: i < n, lambda i, h: [i + 1, step(h, w)], [i, x])
    return [x, n], [h + 0.0, i2]


@case
def switch_case():
    x = paddle.static.data("x", [None, 4], "float32")
    k = paddle.static.data("n_branch", [1], "int64")
    w = weight([4, 4])
    y = paddle.static.nn.switch_case(k, {0: lambda: x * 3.0, 1: lambda: paddle.matmul(x, w), 3: lambda: paddle.abs(x)},
                                     default=lambda: x - 1.0)
    z = paddle.static.nn.case([(paddle.mean(x) > 5.0, lambda: x * 0.0), (paddle.mean(x) > -5.0, lambda: x + 7.0)],
                              default=lambda: x)
    return [x, k], [y, z]


@case
def select_output():
    from paddle.static.nn.control_flow import select_output as sel_out
    x = paddle.static.data("x", [None, 4], "float32")
    k = paddle.static.data("n_branch", [1], "int32")
    block = paddle.static.default_main_program().current_block()
    outs = [block.create_var(name=f"branch_{i}", dtype="float32", shape=[-1, 4]) for i in range(3)]
    for o in outs:  # what the branch not picked keeps
        paddle.assign(x * 0.0 - 2.0, o)
    sel_out(paddle.exp(x), outs, k)
    return [x, k], [o + 0.0 for o in outs]


def make_input(v, rng):
    shape = [BATCH if d in (None, -1) else d for d in v.shape]
    if v.name.startswith("n"):
        trips = {"n_zero": 0, "n_branch": 1}.get(v.name, 3)
        return np.array([trips], dtype="int32" if v.dtype == paddle.int32 else "int64").reshape(shape)
    return rng.standard_normal(shape).astype("float32")


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

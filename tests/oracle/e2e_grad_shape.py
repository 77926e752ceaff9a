"""Gradient cases of the broadcasting, padding, indexing and ordering ops
whose grads were shape rules only: expand (v1 and v2), expand_as_v2, tile,
where, gather_nd, pad, pad2d, pad3d, ... checked against Paddle's own grad
ops (oracle_case.build_grad_case).

Feeds named cond* hold booleans; idx_v<A>_<B>... hold int indices whose
last axis indexes dims of sizes A, B, ... (gather_nd).

    python e2e_grad_shape.py OUTDIR [CASE ...]
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, case_registry, grad_input as data, run_grad_cases  # noqa: E402

import numpy as np  # noqa: E402
import paddle  # noqa: E402

CASES, case = case_registry()


def unary(name, shape, fn, feed="x"):
    def f():
        x = data(feed, shape)
        return [feed], [fn(x)], [x]
    f.__name__ = name
    case(f)


# expand_v2: broadcast dims, new leading dims, -1 (keep), the batch dim kept
unary("expand_v2_bcast", [3, 1], lambda x: paddle.expand(x, [2, 3, 4]))
unary("expand_v2_keep", [1, 4, 1], lambda x: paddle.expand(x, [5, -1, 3]))
unary("expand_v2_batch", [-1, 1, 3], lambda x: paddle.expand(x, [-1, 4, 3]))
unary("expand_v2_same", [2, 3], lambda x: paddle.expand(x, [2, 3]))
unary("expand_v2_scalar", [1], lambda x: paddle.expand(x, [3, 2]))


@case
def expand_as_v2():
    x = data("x", [4, 1])
    y = paddle.static.data("y", [2, 4, 5], "float32")
    return ["x", "y"], [paddle.expand_as(x, y)], [x]


@case
def expand_v1():
    """fluid's expand: repeat counts per dim (a tile)."""
    x = data("x", [2, 3, 1])
    return ["x"], [op("expand", {"X": x}, {"Out": ["float32"]}, {"expand_times": [2, 1, 4]})[0]], [x]


unary("tile_longer", [3, 2], lambda x: paddle.tile(x, [2, 1, 3]))
unary("tile_shorter", [2, 3, 2], lambda x: paddle.tile(x, [3, 1]))
unary("tile_ones", [2, 3], lambda x: paddle.tile(x, [1, 1]))
# the batch dim repeated once (a fed Out@GRAD of [-1, ...] has the batch's rows)
unary("tile_batch", [-1, 3], lambda x: paddle.tile(x, [1, 2]))


def make_input(v, rng):
    shape = [3 if d < 0 else d for d in v.shape]
    if v.dtype == paddle.bool:
        return rng.integers(0, 2, shape).astype(bool)
    m = re.fullmatch(r"idx_v([\d_]+)", v.name)
    if m:
        dims = [int(s) for s in m.group(1).split("_")]
        idx = np.stack([rng.integers(-d, d, shape[:-1]) for d in dims], -1) if dims else np.zeros(shape)
        return idx.astype(str(v.dtype).replace("paddle.", ""))
    return rng.standard_normal(shape).astype("float32")


if __name__ == "__main__":
    run_grad_cases(CASES, make_input)

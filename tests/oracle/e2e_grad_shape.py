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
from oracle_case import append_op as op, case_registry, grad_input as data, run_grad_cases, unary_grad_case  # noqa: E402,E501

import numpy as np  # noqa: E402
import paddle  # noqa: E402

CASES, case = case_registry()


def unary(name, shape, fn, feed="x"):
    unary_grad_case(case, name, shape, fn, feed)


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



@case
def where():
    c = paddle.static.data("cond", [-1, 4], "bool")
    x, y = data("x", [-1, 4]), data("y", [-1, 4])
    return ["cond", "x", "y"], [paddle.where(c, x, y)], [x, y]


@case
def where_x_only():
    """Y stops the gradient: where_grad has no Y@GRAD."""
    c = paddle.static.data("cond", [2, 3, 2], "bool")
    x, y = data("x", [2, 3, 2]), paddle.static.data("y", [2, 3, 2], "float32")
    return ["cond", "x", "y"], [paddle.where(c, x, y)], [x]


def gather_nd(name, xs, idx_shape, dtype="int64"):
    def f():
        x = data("x", xs)
        k = idx_shape[-1]
        iname = "idx_v" + "_".join(str(d) for d in xs[:k])
        idx = paddle.static.data(iname, idx_shape, dtype)
        return ["x", iname], [paddle.gather_nd(x, idx)], [x]
    f.__name__ = name
    case(f)


# repeated index tuples add up (4 x 3 = 12 positions, 20 tuples)
gather_nd("gather_nd_k1", [4, 3, 2], [20, 1])
gather_nd("gather_nd_k2_int32", [4, 3, 2], [5, 4, 2], dtype="int32")
gather_nd("gather_nd_full", [3, 2, 2], [6, 3])
gather_nd("gather_nd_k0", [3, 2], [4, 0])


def pad3d(name, shape, pads, mode, fmt):
    unary(name, shape, lambda x: paddle.nn.functional.pad(x, pads, mode=mode, data_format=fmt))


for mode in ["constant", "reflect", "replicate", "circular"]:
    pad3d(f"pad3d_{mode}", [2, 3, 3, 4, 5], [1, 2, 0, 2, 2, 1], mode, "NCDHW")
    pad3d(f"pad3d_{mode}_ndhwc", [2, 3, 4, 5, 3], [2, 1, 1, 0, 1, 2], mode, "NDHWC")
    # negative paddings crop: the grad leaves the cropped elements of X 0
    pad3d(f"pad3d_{mode}_negative", [2, 3, 3, 4, 5], [-1, 2, 1, -2, 0, -1], mode, "NCDHW")
# a 4-D input pads through pad3d (F.pad unsqueezes it)
pad3d("pad3d_via_4d_reflect", [-1, 2, 4, 5], [1, 3, 2, 1], "reflect", "NCHW")


# and in float64 (Paddle's double kernels), forward fetched too: every mode
# in both layouts, constant mode's value not a float of its own (0.3 is
# converted from the float attribute), a 4-D input with the batch fed
def pad3d64(name, shape, pads, mode, fmt, value=0.0):
    def f():
        x = data("x", shape, "float64")
        return ["x"], [paddle.nn.functional.pad(x, pads, mode=mode, value=value, data_format=fmt)], [x]
    f.__name__ = name
    f.fetch_outs = True
    case(f)


for mode in ["constant", "reflect", "replicate", "circular"]:
    pad3d64(f"pad3d_{mode}_f64", [2, 3, 3, 4, 5], [1, 2, 0, 2, 2, 1], mode, "NCDHW", 0.3)
    pad3d64(f"pad3d_{mode}_ndhwc_f64", [2, 3, 4, 5, 3], [2, 1, 1, 0, 1, 2], mode, "NDHWC", -1.7)
pad3d64("pad3d_via_4d_constant_f64", [-1, 2, 4, 5], [1, 3, 2, 1], "constant", "NCHW", 0.1)
pad3d64("pad3d_via_4d_reflect_f64", [-1, 2, 4, 5], [1, 3, 2, 1], "reflect", "NCHW")


# pad2d_grad: Paddle 2.6 has no pad2d kernel to take a reference from (the
# emitter is pad3d_grad's with D = 1).


def pad(name, shape, pads):
    unary(name, shape, lambda x: op("pad", {"X": x}, {"Out": ["float32"]}, {"paddings": pads, "pad_value": 2.0})[0])


pad("pad_2d", [3, 4], [1, 0, 2, 3])
pad("pad_3d", [2, 3, 4], [0, 1, 2, 0, 1, 1])
pad("pad_1d", [5], [2, 3])


unary("cumsum_axis1", [-1, 4, 3], lambda x: paddle.cumsum(x, 1))
unary("cumsum_reverse", [3, 5], lambda x: op("cumsum", {"X": x}, {"Out": ["float32"]},
                                             {"axis": -1, "reverse": True})[0])
unary("cumsum_exclusive", [4, 3], lambda x: op("cumsum", {"X": x}, {"Out": ["float32"]},
                                               {"axis": 0, "exclusive": True})[0])
unary("cumsum_excl_rev", [2, 5, 2], lambda x: op("cumsum", {"X": x}, {"Out": ["float32"]},
                                                 {"axis": 1, "exclusive": True, "reverse": True})[0])
unary("cumsum_flatten", [2, 3, 4], lambda x: paddle.cumsum(x))
unary("cumsum_flatten_rev", [3, 4], lambda x: op("cumsum", {"X": x}, {"Out": ["float32"]},
                                                 {"flatten": True, "reverse": True, "exclusive": True})[0])

unary("roll_axis1", [-1, 5, 2], lambda x: paddle.roll(x, 2, 1))
unary("roll_axes", [3, 4, 5], lambda x: paddle.roll(x, [-1, 7, 2], [0, 2, 0]))
unary("roll_flat", [3, 4], lambda x: paddle.roll(x, 5))
unary("roll_neg_axis", [2, 3, 4], lambda x: paddle.roll(x, [-5], [-1]))


def topk(name, shape, k, **kw):
    def f():
        x = data("x", shape)
        vals, _ = paddle.topk(x, k, **kw)
        return ["x"], [vals], [x]
    f.__name__ = name
    case(f)


topk("topk_last", [-1, 6], 3)
topk("topk_axis0_smallest", [5, 3, 2], 2, axis=0, largest=False)
topk("topk_axis1_unsorted", [2, 7, 3], 4, axis=1, sorted=False)
topk("topk_all", [3, 4], 4, axis=-1, largest=False, sorted=True)


@case
def top_k_v1():
    x = data("x", [3, 6])
    out = op("top_k", {"X": x}, {"Out": ["float32"], "Indices": ["int64"]}, {"k": 2})[0]
    return ["x"], [out], [x]


unary("squared_l2_norm", [-1, 3, 2], lambda x: op("squared_l2_norm", {"X": x}, {"Out": ["float32"]}, {})[0])



def unstack(name, shape, axis):
    def f():
        x = data("x", shape)
        return ["x"], list(paddle.unstack(x, axis)), [x]
    f.__name__ = name
    case(f)


unstack("unstack_axis0", [3, 2, 4], 0)
unstack("unstack_axis1_batch", [-1, 3, 2], 1)
unstack("unstack_last", [2, 3, 4], -1)

# the fluid ops whose grads Paddle's default grad maker builds (X, Out, Out@GRAD)
unary("reshape_v1", [-1, 4, 3], lambda x: op("reshape", {"X": x}, {"Out": ["float32"]}, {"shape": [0, 2, 6]})[0])
unary("transpose_v1", [2, 3, 4], lambda x: op("transpose", {"X": x}, {"Out": ["float32"]}, {"axis": [1, 2, 0]})[0])


unary("prod_dim1", [-1, 4, 3], lambda x: paddle.prod(x, 1))
unary("prod_keep_neg", [2, 3, 4], lambda x: paddle.prod(x, [-1, 0], keepdim=True))
unary("prod_all", [3, 4], lambda x: paddle.prod(x))
unary("fro_dims", [2, 3, 4], lambda x: paddle.linalg.norm(x, "fro", [0, 2]))
unary("fro_keep", [-1, 4, 3], lambda x: paddle.linalg.norm(x, "fro", [1, 2], keepdim=True))
unary("fro_all", [3, 4], lambda x: op("frobenius_norm", {"X": x}, {"Out": ["float32"]}, {"reduce_all": True})[0])
unary("pnorm2_axis1", [-1, 5, 3], lambda x: paddle.linalg.norm(x, 2, 1))
unary("pnorm3_keep", [4, 6], lambda x: paddle.linalg.norm(x, 3, -1, keepdim=True))
unary("pnorm1_axis0", [5, 4], lambda x: paddle.linalg.norm(x, 1, 0))
unary("pnorm_half", [3, 7], lambda x: paddle.linalg.norm(x, 0.5, 1))
unary("pnorm_inf", [-1, 6], lambda x: paddle.linalg.norm(x, float("inf"), 1))
unary("pnorm_ninf", [4, 6], lambda x: paddle.linalg.norm(x, float("-inf"), 0))
unary("pnorm0", [4, 6], lambda x: paddle.linalg.norm(x, 0, 1))
unary("pnorm2_vector", [3, 4, 2], lambda x: op("p_norm", {"X": x}, {"Out": ["float32"]},
                                                 {"porder": 2.0, "asvector": True, "epsilon": 1e-12})[0])


@case
def meshgrid3():
    a, b, c = data("a", [3]), data("b", [4]), data("c", [2])
    return ["a", "b", "c"], list(paddle.meshgrid(a, b, c)), [a, b, c]


# meshgrid with an input that stops the gradient: Paddle 2.6's meshgrid_grad
# crashes (SIGSEGV) on the missing X@GRAD, so no reference.

def make_input(v, rng):
    shape = [3 if d < 0 else d for d in v.shape]
    if v.dtype == paddle.bool:
        return rng.integers(0, 2, shape).astype(bool)
    m = re.fullmatch(r"idx_v([\d_]*)", v.name)
    if m:
        dims = [int(s) for s in m.group(1).split("_") if s]
        idx = np.stack([rng.integers(0, d, shape[:-1]) for d in dims], -1) if dims else np.zeros(shape)
        return idx.astype(str(v.dtype).replace("paddle.", ""))
    return rng.standard_normal(shape).astype("float64" if v.dtype == paddle.float64 else "float32")


if __name__ == "__main__":
    run_grad_cases(CASES, make_input)

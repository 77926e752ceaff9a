#!/usr/bin/env python3
"""Op-level end-to-end cases for the ops that select or place elements by
position: diagonal, trace, diag_embed, crop_tensor, scatter, scatter_nd_add,
index_add, repeat_interleave and sequence_mask, in float32 and, where Paddle
has them, float64 and int32/int64.

    python e2e_index.py OUTDIR [CASE ...]

Cases, feeds (drawn from their names) and references: see oracle_case.py's
named_feeds and run_static_cases."""
import numpy as np

from oracle_case import case_registry, named_feeds, run_static_cases

import paddle
import paddle.nn.functional as F

CASES, case = case_registry()
data, make_input = named_feeds()


@case
def diagonals():
    x = data("x", [None, 4, 5, 3])
    m = data("m", [3, 5])
    i = data("i", [None, 3, 3], "int64")
    # (a diagonal along the batch dim has a length that is not linear in the batch: not compiled)
    outs = [paddle.diagonal(x, 0, 1, 2), paddle.diagonal(x, 1, 1, 2), paddle.diagonal(x, -2, 2, 1),
            paddle.diagonal(x, 2, -1, 1), paddle.diagonal(x, -1, 1, 3), paddle.diagonal(m), paddle.diagonal(m, 3),
            paddle.diagonal(m, -1), paddle.diagonal(m, 7), paddle.diagonal(i, 0, 1, 2),
            paddle.trace(x, 0, 1, 2), paddle.trace(x, 1, 3, 1), paddle.trace(x, -3, -1, -2), paddle.trace(m),
            paddle.trace(m, 2), paddle.trace(m, -1), paddle.trace(m, 9), paddle.trace(i, 0, 1, 2)]
    v = data("v", [None, 4])
    outs += [paddle.nn.functional.diag_embed(v), paddle.nn.functional.diag_embed(v, 1),
             paddle.nn.functional.diag_embed(v, -2, 0, 2), paddle.nn.functional.diag_embed(x, 0, 1, 3),
             paddle.nn.functional.diag_embed(x, 1, -1, 1), paddle.nn.functional.diag_embed(i, -1, 2, 0)]
    return [x, m, i, v], outs


@case
def crops():
    x = data("x", [None, 4, 5, 6])
    i = data("i", [None, 7], "int64")
    outs = [paddle.crop(x, shape=[-1, 2, 3, 4], offsets=[0, 1, 1, 2]), paddle.crop(x, shape=[-1, -1, 3, -1],
                                                                                     offsets=[0, 2, 2, 1]),
            paddle.crop(x, shape=[-1, 4, 5, 6]), paddle.crop(i, shape=[-1, 3], offsets=[0, 4])]
    shape = paddle.assign(np.array([-1, 3, 3, 3], "int32"))  # a Shape tensor, constant at compile time
    offs = paddle.full([4], 1, "int32") * paddle.to_tensor(np.array([0, 1, 1, 1], "int32"))
    outs += [paddle.crop(x, shape=[-1, 3, 3, 3], offsets=offs), paddle.crop(x, shape=shape)]
    return [x, i], outs


@case
def scatters():
    it = data("it", [None, 4], "int64", -4, 4)  # first: carries the batch
    t = data("table", [6, 4])
    upd = data("upd", [5, 4])
    ids = data("ids", [5], "int64", 0, 6)
    dup = paddle.full([4], 2, "int64") - paddle.to_tensor(np.array([0, 1, 0, 2], "int64"))  # repeats 2 and 0
    ids32 = data("ids32", [5, 1], "int32", 0, 6)
    iu = data("iu", [2, 4], "int64", -9, 9)
    outs = [paddle.scatter(t, ids, upd), paddle.scatter(t, ids, upd, overwrite=False),
            paddle.scatter(t, dup, upd[:4]), paddle.scatter(t, dup, upd[:4], overwrite=False),
            paddle.scatter(t, ids32, upd, overwrite=False), paddle.scatter(t, ids32, upd),
            paddle.scatter(it, paddle.full([2], 1, "int64"), iu, overwrite=False),
            paddle.scatter(t, paddle.full([], 3, "int64"), upd[0])]     # a 0-D index: one row
    idx = data("idx", [None, 3, 2], "int64", 0, 4)  # repeated tuples add twice
    u = data("u", [None, 3, 5])
    u2 = data("u2", [None, 3, 4, 5])
    x3 = data("x3", [4, 4, 5])
    outs += [paddle.scatter_nd_add(x3, idx, u), paddle.scatter_nd_add(x3, idx[:, :, :1], u2),
             paddle.scatter_nd_add(x3, paddle.cast(idx[:, :1, :1], "int32"), u2[:, :1])]
    full = paddle.concat([idx, idx[:, :, :1] + 1], axis=2)  # [B, 3, 3]: whole elements
    outs.append(paddle.scatter_nd_add(x3, full, paddle.sum(u, axis=2)))
    xi = data("xi", [4, 4], "int64")
    outs.append(paddle.scatter_nd_add(xi, idx[:, :, :1], paddle.cast(paddle.scale(u[:, :, :4], 3.0), "int64")))
    return [it, t, upd, ids, ids32, iu, idx, u, u2, x3, xi], outs


@case
def index_add():
    x = data("x", [None, 6, 4])
    i = data("i", [5], "int64", 0, 6)   # repeated indices add twice
    v = data("v", [None, 5, 4])
    j = data("j", [3], "int32", 0, 4)
    w = data("w", [None, 6, 3])
    k = data("k", [4], "int64", 0, 2)
    z = data("z", [4, 6, 4])
    n = data("n", [None, 6], "int64")
    m = data("m", [None, 3], "int64")
    d = data("d", [None, 6, 4], "float64")
    e = data("e", [None, 5, 4], "float64")
    outs = [paddle.index_add(x, i, 1, v), paddle.index_add(x, j, -1, w), paddle.index_add(x, k, 0, z),
            paddle.index_add(n, j, 1, m), paddle.index_add(d, i, 1, e)]
    return [x, i, v, j, w, k, z, n, m, d, e], outs


@case
def repeat_interleave():
    x = data("x", [None, 3, 4])
    i = data("i", [None, 5], "int64")
    # (a negative axis hangs or aborts Paddle 2.6's CPU kernel: not a case here)
    outs = [paddle.repeat_interleave(x, 2, 1), paddle.repeat_interleave(x, 3, 2), paddle.repeat_interleave(x, 2, 0),
            paddle.repeat_interleave(x, 2),  # axis None: flattened first
            paddle.repeat_interleave(x, paddle.to_tensor(np.array([1, 0, 3], "int64")), 1),
            paddle.repeat_interleave(x, paddle.full([4], 2, "int32"), 2),
            paddle.repeat_interleave(i, paddle.to_tensor(np.array([2, 1, 1, 0, 3], "int32")), 1),
            paddle.repeat_interleave(i, 1, 1)]
    return [x, i], outs


@case
def sequence_mask():
    x = data("x", [None, 3], "int64", 0, 7)
    y = data("y", [None], "int32", -1, 5)
    f = data("f", [None, 2])
    outs = [F.sequence_mask(x, 6), F.sequence_mask(x, 4, "float32"), F.sequence_mask(y, 5, "bool"),
            F.sequence_mask(y, 3, "int32"), F.sequence_mask(paddle.scale(f, 2.0), 3, "float64")]
    return [x, y, f], outs

if __name__ == "__main__":
    run_static_cases(CASES, make_input)

#!/usr/bin/env python3
"""Op-level end-to-end cases for the ops that select or place elements by
position: diagonal, trace, diag_embed, crop_tensor, scatter, scatter_nd_add,
index_add, repeat_interleave, sequence_mask, flip/reverse, tril_triu, roll,
meshgrid, unbind, take_along_axis, put_along_axis (every reduce mode, with
and without include_self), set_value (paddle.static.setitem), index_sample,
eye, diag_v2 and label_smooth, in float32 and, where Paddle has them,
float64 and int32/int64.

    python e2e_index.py OUTDIR [CASE ...]

Cases, feeds (drawn from their names) and references: see oracle_case.py's
named_feeds and run_static_cases."""
import numpy as np

from oracle_case import append_op as op, case_registry, named_feeds, run_static_cases

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


@case
def flip_tril():
    x = data("x", [None, 3, 4])
    i = data("i", [None, 5], "int64")
    outs = [paddle.flip(x, [0, -1]), paddle.flip(x, 1), paddle.flip(i, [1]),
            op("reverse", {"X": [x]}, {"Out": ["float32"]}, {"axis": [2]})[0],
            op("flip", {"X": [x]}, {"Out": ["float32"]}, {"axis": [1, 2, 1]})[0],  # flips dim 1 once
            paddle.tril(x), paddle.tril(x, 1), paddle.triu(x), paddle.triu(x, -1), paddle.triu(x, 2),
            paddle.tril(paddle.reshape(i, [-1, 1, 5]) + paddle.zeros([1, 4, 1], "int64"), -2)]
    return [x, i], outs


@case
def roll_shifts():
    x = data("x", [None, 3, 4])
    i = data("i", [None, 5], "int64")
    outs = [paddle.roll(x, 2), paddle.roll(x, -7), paddle.roll(x, [1, -2], [1, 2]), paddle.roll(x, [1, 3], [2, 2]),
            paddle.roll(x, 1, 0), paddle.roll(i, [4], [-1]), paddle.roll(x, [5], [-2])]
    return [x, i], outs


@case
def meshgrid_unbind():
    x = data("x", [None, 3, 4])  # first: the standalone driver reads the batch from the first feed
    a = data("a", [3])
    b = data("b", [4])
    c = data("c", [2])
    outs = list(paddle.meshgrid(a, b, c))
    k = data("k", [5], "int64")
    outs += list(paddle.meshgrid(k, k))
    z = data("z", [2, 3], "int64")
    outs += list(paddle.unbind(x, 1)) + list(paddle.unbind(x, -1)) + list(paddle.unbind(z, 0))
    return [x, a, b, c, k, z], outs


@case
def take_put_along_axis():
    x = data("x", [None, 5, 4])
    idx = data("idx", [None, 3, 4], "int64", 0, 5)
    idx1 = data("idx1", [None, 5, 1], "int64", 0, 4)
    i32 = data("i32", [None, 2, 4], "int32", 0, 5)
    v = data("v", [None, 3, 4])
    outs = [paddle.take_along_axis(x, idx, 1), paddle.take_along_axis(x, idx1, -1),
            paddle.take_along_axis(x, i32, 1)]
    for reduce in ("assign", "add", "mul", "multiply", "mean", "amin", "amax"):
        for include_self in (True, False):
            outs.append(paddle.put_along_axis(x, idx, v, 1, reduce=reduce, include_self=include_self))
    outs.append(paddle.put_along_axis(x, idx1, paddle.cast(idx1, "float32") * 0.5, -1, reduce="add"))
    n = data("n", [None, 6], "int64", -9, 9)
    ni = data("ni", [None, 4], "int64", 0, 6)
    nv = data("nv", [None, 4], "int64", -9, 9)
    for reduce in ("add", "mean", "amax"):
        outs.append(paddle.put_along_axis(n, ni, nv, 1, reduce=reduce, include_self=reduce != "add"))
    return [x, idx, idx1, i32, v, n, ni, nv], outs


@case
def set_value_items():
    x = data("x", [None, 3, 4])
    y = data("y", [None, 4])
    w = data("w", [4])
    setitem = paddle.static.setitem
    outs = [setitem(x, (slice(None), 0), 1.5),                       # decrease axis, scalar value
            setitem(x, (slice(None), 1), y),                         # a tensor value
            setitem(x, (Ellipsis, slice(1, 3)), -2.0),
            setitem(x, (slice(None), slice(None, None, 2), slice(-3, None)), w[1:]),  # broadcast value
            setitem(x, (slice(None), slice(None, None, -2)), 7.0),   # negative step
            setitem(x, (slice(None), slice(2, 0, -1), slice(3, -10, -2)), w[:2]),
            setitem(x, (slice(None), 1, None), paddle.unsqueeze(y, 1)),  # none axis
            setitem(x, (slice(None), slice(1, 100)), 0.0),           # end past the dim
            setitem(x, (slice(None), slice(2, 2)), 9.0)]             # empty slice
    one = paddle.full([1], 1, "int64")  # a start from a tensor (StartsTensorList), constant at compile time
    outs.append(setitem(x, (slice(None), slice(one, 3), slice(None, None, 3)), -1.0))
    i = data("i", [None, 5], "int64")
    outs += [setitem(i, (slice(None), slice(1, 4)), 7), setitem(i, (slice(None), -1), i[:, 0])]
    outs += op("set_value", {"Input": [x]}, {"Out": ["float32"]},
               {"axes": [2], "starts": [1], "ends": [3], "steps": [1], "values": [2.0, -4.0], "shape": [2],
                "dtype": 5})
    return [x, y, w, i], outs


@case
def index_sample_select():
    x = data("x", [None, 6])
    i64 = data("i64", [None, 3], "int64", 0, 6)
    i32 = data("i32", [None, 8], "int32", 0, 6)
    n = data("n", [None, 6], "int64")
    return [x, i64, i32, n], [paddle.index_sample(x, i64), paddle.index_sample(x, i32), paddle.index_sample(n, i64)]


@case
def eye_diag_label_smooth():
    x = data("x", [None, 4])
    v = data("v", [5])
    m = data("m", [4, 6])
    k = data("k", [3], "int64")
    outs = [paddle.eye(3, 4), paddle.eye(5, dtype="int64"), paddle.eye(2, 2, dtype="float64"),
            paddle.diag(v), paddle.diag(v, offset=1, padding_value=2.5), paddle.diag(v, offset=-2),
            paddle.diag(m), paddle.diag(m, 2), paddle.diag(m, -1), paddle.diag(k, 1, padding_value=-3),
            paddle.diagflat(m, -1)]
    outs += [F.label_smooth(x, epsilon=0.2), F.label_smooth(x)]
    prior = paddle.full([1, 4], 0.25, "float32") + paddle.arange(4, dtype="float32") * 0.01
    outs.append(F.label_smooth(x, prior_dist=prior, epsilon=0.3))
    return [x, v, m, k], outs


@case
def multiplex_ints():
    """multiplex of int32 and int64 candidates."""
    a, b = data("a", [None, 3], "int32", -50, 50), data("b", [None, 3], "int32", -50, 50)
    c, d = data("c", [4, 2], "int64", -9, 9), data("d", [4, 2], "int64", -9, 9)
    i, j = data("i", [None, 1], "int32", 0, 2), data("j", [4, 1], "int32", 0, 2)
    return [a, b, c, d, i, j], [paddle.multiplex([a, b], i), paddle.multiplex([c, d], j)]


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

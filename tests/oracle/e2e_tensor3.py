#!/usr/bin/env python3
"""Op-level end-to-end cases for einsum, kthvalue, lerp, searchsorted,
index_add, repeat_interleave, cross, dist, addmm, scatter, scatter_nd_add,
polygamma, sequence_mask, linspace, equal_all, the float64 element-wise
ops and float64 matrix products, in float32 and, where Paddle has them,
float64 and int32/int64.

    python e2e_tensor3.py OUTDIR [CASE ...]

Each case is a small static program built with the public API (LayerHelper
for attributes the API hides) covering the op's attributes.  Float inputs
are standard normal; feeds named `ties*` hold small integers (many equal
values), `special*` NaN and infinities, `sorted*` are sorted along their
last dim (with repeated values), `pos*` positive; integer inputs are uniform in the range
data() gives.  Batch 2, the batch dim None in the first feed.
tests/oracle/oracle_case.py saves each case with Paddle's reference
outputs."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, run_static_cases, case_registry  # noqa: E402

import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

BATCH = 2
CASES, case = case_registry()
INT_RANGE = {}  # feed name -> (low, high) for integer feeds


def data(name, shape, dtype="float32", low=-5, high=5):
    INT_RANGE[name] = (low, high)
    return paddle.static.data(name, shape, dtype)


# ---------------------------------------------------------------- einsum
@case
def einsum():
    x = data("x", [None, 3, 4])
    y = data("y", [None, 4, 5])
    w = data("w", [4, 5])
    v = data("v", [None, 3])
    q = data("q", [None, 3, 3])
    z = data("z", [None, 1, 3, 4])  # a size-1 dim in the ellipsis broadcasts
    u = data("u", [2, 4, 5])
    outs = [paddle.einsum("bij,bjk->bik", x, y), paddle.einsum("...ij,jk->...ik", x, w),
            paddle.einsum("bij,jk", x, w),               # implicit output: "bik"
            paddle.einsum("bij->jb", x), paddle.einsum("bij->", x), paddle.einsum("bij", x),
            paddle.einsum("bij,bj->bi", x, paddle.einsum("bjk->bj", y)),
            paddle.einsum("bi,bj->bij", v, v),           # outer product per batch row
            paddle.einsum("bii->bi", q), paddle.einsum("bii->b", q),   # diagonal, trace
            paddle.einsum("bii,bi->bi", q, v), paddle.einsum("bi->bii", v),  # undiagonal
            paddle.einsum("...ij,...jk->...ik", z, u),   # ellipsis [B, 1] against [2]
            paddle.einsum("bij,kj->bki", x, paddle.transpose(w, [1, 0])),
            paddle.einsum("ij,jk,kl->il", v, q[0], x[0]),  # three operands: two ops
            paddle.einsum("BIJ,BJK->BKI", x, y)]         # upper case is lowered by the API
    d = data("d", [None, 3, 4], "float64")
    outs += [paddle.einsum("bij,bkj->bik", d, d), paddle.einsum("...j->...", d)]
    return [x, y, w, v, q, z, u, d], outs


# ---------------------------------------------------------------- order statistics
@case
def kthvalue():
    t = data("ties", [None, 40, 6])   # 40 > 3: nth_element's partitions decide among equal values
    w = data("wide", [None, 130])     # k * 64 < 130: partial_sort
    x = data("x", [None, 5, 7])
    s = data("special", [None, 9])
    i = data("i", [None, 30], "int64", -3, 3)
    j = data("j", [None, 8], "int32", -9, 9)
    d = data("d", [None, 6], "float64")
    outs = []
    for k, axis in ((1, 1), (7, 1), (40, 1), (3, -1), (6, 2), (20, 1)):
        outs += list(paddle.kthvalue(t, k, axis))
    wt = paddle.floor(paddle.scale(w, 2.0))  # ties in a long line
    outs += list(paddle.kthvalue(wt, 2)) + list(paddle.kthvalue(wt, 1)) + list(paddle.kthvalue(wt, 3))
    outs += list(paddle.kthvalue(w, 2)) + list(paddle.kthvalue(w, 65))
    outs += list(paddle.kthvalue(x, 3, 2)) + list(paddle.kthvalue(x, 5, 1)) + list(paddle.kthvalue(s, 4))
    outs += list(paddle.kthvalue(s, 9)) + list(paddle.kthvalue(i, 10)) + list(paddle.kthvalue(j, 1, 1))
    outs += list(paddle.kthvalue(d, 2))
    outs += op("kthvalue", {"X": [x]}, {"Out": ["float32"], "Indices": ["int64"]}, {"k": 2, "axis": 1, "keepdim": True})
    outs += op("kthvalue", {"X": [paddle.sum(x)]}, {"Out": ["float32"], "Indices": ["int64"]}, {"k": 1})  # 0-D
    return [t, w, x, s, i, j, d], outs


@case
def searchsorted():
    v = data("x", [None, 7])
    seq = data("sorted", [9])  # repeated values: lower and upper bound differ
    rows = data("sorted_rows", [None, 3, 6])
    vals = data("vals", [None, 3, 4])
    s = data("special", [None, 8])
    iseq = data("iseq", [None, 10], "int64", 0, 3)  # made a sorted integer sequence below
    ival = data("ival", [None, 5], "int64", -3, 12)
    t = data("ties", [None, 6])
    iseq_sorted = paddle.cumsum(iseq, axis=1)
    outs = [paddle.searchsorted(seq, v), paddle.searchsorted(seq, v, right=True),
            paddle.searchsorted(seq, v, out_int32=True), paddle.searchsorted(rows, vals),
            paddle.searchsorted(rows, vals, right=True, out_int32=True), paddle.searchsorted(seq, s),
            paddle.searchsorted(iseq_sorted, ival), paddle.searchsorted(iseq_sorted, ival, right=True),
            paddle.searchsorted(seq, ival), paddle.searchsorted(paddle.floor(seq), t, right=True),
            paddle.searchsorted(paddle.floor(seq), t)]
    return [v, seq, rows, vals, s, iseq, ival, t], outs


# ---------------------------------------------------------------- element-wise
@case
def lerp_dist():
    x = data("x", [None, 3, 4])
    y = data("y", [None, 3, 4])
    w = data("w", [4])
    c = data("col", [None, 3, 1])
    d = data("d", [None, 3, 4], "float64")
    e = data("e", [None, 3, 4], "float64")
    outs = [paddle.lerp(x, y, 0.3), paddle.lerp(x, y, w), paddle.lerp(x, y, c), paddle.lerp(x, w, c),
            paddle.lerp(w, c, x), paddle.lerp(d, e, 1.5), paddle.lerp(x, y, paddle.full([1], -0.25, "float32"))]
    for p in (2.0, 0.0, float("inf"), float("-inf"), 1.0, 3.5, 0.5):
        outs.append(paddle.dist(x, y, p))
    outs += [paddle.dist(x, w), paddle.dist(c, x, 1.5), paddle.dist(d, e), paddle.dist(d, e, float("inf"))]
    return [x, y, w, c, d, e], outs


@case
def cross_polygamma():
    x = data("x", [None, 3, 4])
    y = data("y", [None, 3, 4])
    a = data("a", [None, 4, 3])
    b = data("b", [None, 4, 3])
    i = data("i", [None, 3], "int64")
    j = data("j", [None, 3], "int64")
    d = data("d", [None, 2, 3], "float64")
    outs = [paddle.cross(x, y, axis=1), paddle.cross(x, y), paddle.cross(a, b), paddle.cross(a, b, axis=-1),
            paddle.cross(i, j), paddle.cross(d, d * 2.0 - 1.0)]
    pos = paddle.abs(x) + 0.5   # away from the poles at 0, -1, -2, ...
    neg = paddle.scale(paddle.abs(y), -1.0) - 0.25
    for n in (1, 2, 3, 5):
        outs += [paddle.polygamma(pos, n), paddle.polygamma(neg, n)]
    p = data("pos", [None, 6], "float64")
    outs += [paddle.polygamma(p, 1), paddle.polygamma(p, 4)]
    return [x, y, a, b, i, j, d, p], outs


# ---------------------------------------------------------------- matrix
@case
def addmm():
    x = data("x", [None, 5])
    m = data("m", [5, 6])
    full = data("full", [None, 6])
    row = data("row", [6])
    col = data("col", [None, 1])
    one = data("one", [1, 1])
    d = data("d", [None, 5], "float64")
    dm = data("dm", [5, 6], "float64")
    dr = data("dr", [1, 6], "float64")
    outs = [paddle.addmm(full, x, m), paddle.addmm(row, x, m, beta=0.5, alpha=2.0),
            paddle.addmm(col, x, m, beta=-1.0, alpha=0.25), paddle.addmm(one, x, m, beta=0.0, alpha=1.5),
            paddle.addmm(dr, d, dm, beta=2.0, alpha=-0.5)]
    return [x, m, full, row, col, one, d, dm, dr], outs


# ---------------------------------------------------------------- scatters
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
def linspace_equal_all():
    """linspace with bounds from tensors (float32, converted to int32 and
    float64 outputs), a decreasing range, num=1; equal_all on equal tensors,
    unequal ones, NaN (never equal), different shapes and integers."""
    x = data("x", [None, 3])
    n = data("n", [None, 3], "int64", 0, 3)
    lo, hi = paddle.mean(x), paddle.max(x) + 2.0
    outs = [paddle.linspace(lo, hi, 7), paddle.linspace(hi, lo, 6, "float64"), paddle.linspace(-3.7, 4.2, 8, "int32"),
            paddle.linspace(lo, hi, 1), paddle.linspace(0, 1, 5) * paddle.sum(x)]
    s = data("special", [None, 3])
    outs += [paddle.equal_all(x, x), paddle.equal_all(x, x + 1e-9), paddle.equal_all(x, x * 1.5),
             paddle.equal_all(s, s), paddle.equal_all(x, x[:, :2]), paddle.equal_all(n, n),
             paddle.equal_all(n, n * 0)]
    return [x, n, s], outs


@case
def elementwise_float64():
    """The binary element-wise ops on float64 tensors, with broadcasting
    (right-aligned and Paddle's axis)."""
    x = data("x", [None, 3, 4], "float64")
    y = data("y", [None, 3, 4], "float64")
    r = data("r", [4], "float64")
    c = data("c", [3], "float64")
    outs = [x + y, x - r, x * y, x / y, paddle.maximum(x, r), paddle.minimum(x, y), paddle.pow(paddle.abs(x), y),
            paddle.floor_divide(x, y), paddle.remainder(x, y), paddle.fmax(x, y), paddle.fmin(x, r),
            op("elementwise_add", {"X": [x], "Y": [c]}, {"Out": ["float64"]}, {"axis": 1})[0]]
    return [x, y, r, c], outs


@case
def matmul_float64():
    """float64 matrix products: a linear layer (matmul_v2 + bias add, which
    the GEMM-epilogue fusion must leave alone), transposes, batch
    broadcasting, bmm, and a vector operand."""
    x = data("x", [None, 3, 4], "float64")
    w = data("w", [4, 5], "float64")
    b = data("b", [5], "float64")
    z = data("z", [None, 5, 3], "float64")
    u = data("u", [None, 5, 4], "float64")
    v = data("v", [4], "float64")
    outs = [F.linear(x, w, b), paddle.matmul(x, z, transpose_x=True, transpose_y=True),
            paddle.matmul(x, w), paddle.bmm(x, paddle.transpose(u, [0, 2, 1])), paddle.matmul(x, v),
            F.relu(paddle.matmul(x, w) + b)]
    return [x, w, b, z, u, v], outs


@case
def inplace_broadcast():
    """An element-wise add whose X broadcasts to a larger Out ([B, 1] ->
    [B, 6], [B, 1, 1] -> [B, 2, 3]) must not take X's buffer under
    enable_inplace (rows of Out would overwrite X before it is read: wrong
    at batch >= 2); followed by an op no fusion takes it into and that a
    per-row shift changes (cumsum, not softmax)."""
    x = data("x", [None, 6])
    y = data("y", [None, 4, 5])
    a = paddle.cumsum(paddle.mean(x, axis=-1, keepdim=True) * 0.1 + paddle.arange(6, dtype="float32") * 0.3, -1)
    b = paddle.cumsum(paddle.mean(y, axis=[1, 2], keepdim=True) + paddle.reshape(paddle.arange(6, dtype="float32"),
                                                                                [2, 3]), -1)
    return [x, y], [a, b]


# ---------------------------------------------------------------- driver
def make_input(v, rng):
    shape = [BATCH if d in (None, -1) else d for d in v.shape]
    dt = str(v.dtype)
    if "int" in dt:
        low, high = INT_RANGE[v.name]
        return rng.integers(low, high, size=shape).astype("int64" if "int64" in dt else "int32")
    if v.name.startswith("ties"):
        return rng.integers(0, 4, size=shape).astype("float32")
    x = rng.standard_normal(shape).astype("float64" if "float64" in dt else "float32")
    if v.name.startswith("pos"):
        x = np.abs(x) * 5.0 + 0.05
    if v.name.startswith("sorted"):
        x = np.sort(np.round(x * 2.0) / 2.0, axis=-1).astype(x.dtype)  # halves: repeated values
    if v.name.startswith("special"):
        flat = x.reshape(-1)
        flat[::5] = np.nan
        flat[1::7] = np.inf
        flat[3::11] = -np.inf
    return x


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

#!/usr/bin/env python3
"""Op-level end-to-end cases for products and vector algebra beyond
e2e_math.py's float32 matmul: einsum (implicit and explicit outputs,
ellipses, diagonals, several operands), addmm (beta, alpha, broadcast
input), float64 matrix products, cross, dist (every p), logsumexp, p_norm
(every porder kind, asvector, keepdim, normalize) and norm
(l2_normalize).

    python e2e_linalg.py OUTDIR [CASE ...]

Cases, feeds (drawn from their names) and references: see oracle_case.py's
named_feeds and run_static_cases."""
from oracle_case import append_op as op, case_registry, named_feeds, run_static_cases

import paddle
import paddle.nn.functional as F

CASES, case = case_registry()
data, make_input = named_feeds()


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
def cross():
    x = data("x", [None, 3, 4])
    y = data("y", [None, 3, 4])
    a = data("a", [None, 4, 3])
    b = data("b", [None, 4, 3])
    i = data("i", [None, 3], "int64")
    j = data("j", [None, 3], "int64")
    d = data("d", [None, 2, 3], "float64")
    outs = [paddle.cross(x, y, axis=1), paddle.cross(x, y), paddle.cross(a, b), paddle.cross(a, b, axis=-1),
            paddle.cross(i, j), paddle.cross(d, d * 2.0 - 1.0)]
    return [x, y, a, b, i, j, d], outs


@case
def dist():
    x = data("x", [None, 3, 4])
    y = data("y", [None, 3, 4])
    w = data("w", [4])
    c = data("col", [None, 3, 1])
    d = data("d", [None, 3, 4], "float64")
    e = data("e", [None, 3, 4], "float64")
    outs = [paddle.dist(x, y, p) for p in (2.0, 0.0, float("inf"), float("-inf"), 1.0, 3.5, 0.5)]
    outs += [paddle.dist(x, w), paddle.dist(c, x, 1.5), paddle.dist(d, e), paddle.dist(d, e, float("inf"))]
    return [x, y, w, c, d, e], outs


@case
def logsumexp_norms():
    x = data("x", [None, 3, 4])
    outs = [paddle.logsumexp(x, axis=1), paddle.logsumexp(x, axis=[0, 2], keepdim=True), paddle.logsumexp(x),
            paddle.logsumexp(x, axis=-1, keepdim=True), paddle.logsumexp(x, axis=[0, 1, 2])]
    for p in (0, float("inf"), float("-inf"), 1, 2, 3.5, -1.5):
        outs.append(paddle.linalg.norm(x, p, axis=1))
    outs += [paddle.linalg.norm(x, float("inf")), paddle.linalg.norm(x, 3.0, axis=-1, keepdim=True)]
    outs += op("p_norm", {"X": [x]}, {"Out": ["float32"]},
               {"porder": 2.5, "axis": 0, "epsilon": 1e-6, "keepdim": True, "asvector": True})
    outs += op("p_norm", {"X": [x]}, {"Out": ["float32"]}, {"porder": 0.5, "axis": 0})
    outs += [F.normalize(x, axis=1), F.normalize(x, p=1, axis=-1)]
    # norm (l2_normalize): saving sets is_test, so Norm is never written -- only Out is fetched
    for attrs in ({"axis": 1, "epsilon": 1e-6}, {"axis": -1}, {"axis": 0, "is_test": True}):
        outs += op("norm", {"X": [x]}, {"Out": ["float32"], "Norm": ["float32"]}, attrs)[:1]
    return [x], outs


@case
def dot_mv():
    """paddle.dot of vectors (a 0-D Out) and of rows ([B, N] -> [B]) in
    float32, float64, int32 and int64; paddle.mv (a matrix of the run's
    batch of rows times a vector), float32 and float64."""
    v, w = data("v", [7]), data("w", [7])
    x, y = data("x", [None, 5]), data("y", [None, 5])
    d, e = data("d", [3, 4], "float64"), data("e", [3, 4], "float64")
    i, j = data("i", [None, 6], "int32"), data("j", [None, 6], "int32")
    k, m = data("k", [5], "int64", -100, 100), data("m", [5], "int64", -100, 100)
    mat, vec = data("mat", [None, 5]), data("vec", [5])
    dmat, dvec = data("dmat", [4, 3], "float64"), data("dvec", [3], "float64")
    outs = [paddle.dot(v, w), paddle.dot(x, y), paddle.dot(d, e), paddle.dot(i, j), paddle.dot(k, m),
            paddle.mv(mat, vec), paddle.mv(dmat, dvec)]
    return [v, w, x, y, d, e, i, j, k, m, mat, vec, dmat, dvec], outs


@case
def inverse_det():
    """paddle.linalg.inv and det: batches of 3 x 3 and 5 x 5 float32
    matrices, one 4 x 4 float64 matrix, a batch of [2, 3] float64 ones;
    a det of a matrix with two equal rows (0)."""
    x, y = data("x", [None, 3, 3]), data("y", [2, 5, 5])
    d, e = data("d", [4, 4], "float64"), data("e", [2, 3, 2, 2], "float64")
    twin = paddle.concat([x[:, :2], x[:, :1]], axis=1)
    outs = [paddle.linalg.inv(x), paddle.linalg.inv(y), paddle.linalg.inv(d), paddle.linalg.inv(e),
            paddle.linalg.det(x), paddle.linalg.det(y), paddle.linalg.det(d), paddle.linalg.det(e),
            paddle.linalg.det(twin)]
    return [x, y, d, e], outs


@case
def cholesky():
    """paddle.linalg.cholesky of positive definite matrices made in the
    program (x x^T + 3 I), lower and upper, float32 batches and one float64;
    a matrix whose upper triangle differs from its lower one (each factor
    reads only its own triangle)."""
    x, d = data("x", [None, 3, 3]), data("d", [4, 4], "float64")
    a = paddle.matmul(x, x, transpose_y=True) + paddle.eye(3) * 3.0
    b = a + paddle.triu(x, 1) * 0.25
    p = paddle.matmul(d, d, transpose_y=True) + paddle.eye(4, dtype="float64") * 4.0
    outs = [paddle.linalg.cholesky(a), paddle.linalg.cholesky(a, upper=True), paddle.linalg.cholesky(b),
            paddle.linalg.cholesky(b, upper=True), paddle.linalg.cholesky(p), paddle.linalg.cholesky(p, upper=True)]
    return [x, d], outs


@case
def triangular_solve():
    """paddle.linalg.triangular_solve: upper and lower, transposed, unit
    diagonal, X's other triangle holding values it must not read, one X for
    a batch of Y and one Y for a batch of X, float64."""
    x, y = data("x", [None, 3, 3]), data("y", [None, 3, 2])
    w, v = data("w", [3, 3]), data("v", [3, 4])
    d, e = data("d", [2, 4, 4], "float64"), data("e", [2, 4, 3], "float64")
    a = x + paddle.eye(3) * 4.0
    b = w + paddle.eye(3) * 4.0
    f = d + paddle.eye(4, dtype="float64") * 4.0
    ts = paddle.linalg.triangular_solve
    outs = [ts(a, y), ts(a, y, upper=False), ts(a, y, transpose=True), ts(a, y, upper=False, transpose=True),
            ts(a, y, unitriangular=True), ts(a, y, upper=False, transpose=True, unitriangular=True),
            ts(b, y), ts(a, v, upper=False), ts(f, e), ts(f, e, upper=False, transpose=True)]
    return [x, y, w, v, d, e], outs


@case
def matrix_power():
    """paddle.linalg.matrix_power: every branch of Paddle's kernel (0, 1,
    2, 3, 4, by squaring 5 and 11, negative powers through the inverse),
    float32 batches and float64."""
    x, d = data("x", [None, 3, 3]), data("d", [2, 4, 4], "float64")
    a = x * 0.5
    mp = paddle.linalg.matrix_power
    outs = [mp(a, k) for k in (0, 1, 2, 3, 4, 5, 11, -1, -2, -5)] + [mp(d * 0.5, 6), mp(d, -3)]
    return [x, d], outs


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

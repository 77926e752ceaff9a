"""Gradient cases of the matrix products: mul (x/y_num_col_dims),
matmul_v2 (every transpose combination, batched, broadcast batch dims,
1-D operands), matmul v1 (transpose_X/Y, alpha), bmm and einsum (two
operands, one, batch labels, a "..." broadcast against a size-1 dim, a
label only one operand has, diagonals read and written, a full sum, only
one operand's gradient, float64), checked against Paddle's own grad ops
(oracle_case.build_grad_case).

    python e2e_grad_mm.py OUTDIR [CASE ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, case_registry, grad_input as data, run_grad_cases  # noqa: E402

import paddle  # noqa: E402

CASES, case = case_registry()


def mul(x, y, xn, yn):
    dt = "float64" if x.dtype == paddle.float64 else "float32"
    return op("mul", {"X": x, "Y": y}, {"Out": [dt]}, {"x_num_col_dims": xn, "y_num_col_dims": yn})[0]


@case
def mul_ncd2_f64():
    """float64 (rt_dgemm), held to TOL64."""
    x, y = data("x", [-1, 3, 4], "float64"), data("y", [4, 5], "float64")
    return ["x", "y"], [mul(x, y, 2, 1)], [x, y]


@case
def mul_ncd1():
    x, y = data("x", [-1, 4]), data("y", [4, 5])
    return ["x", "y"], [mul(x, y, 1, 1)], [x, y]


@case
def mul_ncd2():
    x, y = data("x", [-1, 3, 4]), data("y", [4, 5])
    return ["x", "y"], [mul(x, y, 2, 1)], [x, y]


@case
def mul_y_ncd2():
    x, y = data("x", [3, 2, 6]), data("y", [3, 4, 2, 5])
    return ["x", "y"], [mul(x, y, 1, 2)], [x, y]


@case
def mul_y_only():
    """Only Y's gradient (X stops the gradient): X@GRAD is absent."""
    x, y = paddle.static.data("x", [-1, 4], "float32"), data("y", [4, 5])
    return ["x", "y"], [mul(x, y, 1, 1)], [y]


@case
def matmul_v2_y_only():
    """matmul_v2 with only Y's gradient (X is a plain feed, as a network's
    input is): X@GRAD is absent, the kernel reads X alone."""
    x, y = paddle.static.data("x", [-1, 3, 4], "float32"), data("y", [4, 5])
    return ["x", "y"], [paddle.matmul(x, y)], [y]


@case
def matmul_v2_x_only():
    """Only X's gradient (Y stops the gradient): the kernel reads Y alone."""
    x, y = data("x", [-1, 3, 4]), paddle.static.data("y", [4, 5], "float32")
    return ["x", "y"], [paddle.matmul(x, y)], [x]


def mm_case(name, xs, ys, tx=False, ty=False, dtype="float32"):
    def fn():
        x, y = data("x", xs, dtype), data("y", ys, dtype)
        return ["x", "y"], [paddle.matmul(x, y, transpose_x=tx, transpose_y=ty)], [x, y]
    fn.__name__ = name
    case(fn)


mm_case("mm_nn", [3, 4], [4, 5])
mm_case("mm_tn", [4, 3], [4, 5], tx=True)
mm_case("mm_nt", [3, 4], [5, 4], ty=True)
mm_case("mm_tt", [4, 3], [5, 4], tx=True, ty=True)
mm_case("mm_batch_x", [-1, 3, 4], [4, 5])
mm_case("mm_batch_x_nt", [2, 3, 3, 4], [5, 4], ty=True)
mm_case("mm_batch_x_tn", [2, 4, 3], [4, 5], tx=True)
mm_case("mm_batch_y", [3, 4], [2, 4, 5])
mm_case("mm_batch_y_tt", [4, 3], [2, 5, 4], tx=True, ty=True)
mm_case("mm_batched", [2, 3, 4], [2, 4, 5])
mm_case("mm_batched_tn", [2, 4, 3], [2, 4, 5], tx=True)
mm_case("mm_batched_nt", [2, 2, 3, 4], [2, 2, 5, 4], ty=True)
mm_case("mm_bcast", [2, 1, 3, 4], [1, 3, 4, 5])
mm_case("mm_bcast_tt", [1, 4, 3], [2, 5, 4], tx=True, ty=True)
mm_case("mm_bcast_tn", [2, 4, 3], [1, 4, 5], tx=True)
mm_case("mm_bcast_nt", [2, 1, 3, 4], [1, 3, 5, 4], ty=True)
mm_case("mm_bcast_ones", [2, 3, 4], [1, 4, 5])
mm_case("mm_vec_x", [4], [4, 5])
mm_case("mm_vec_x_batch_y", [4], [2, 4, 5])
mm_case("mm_vec_y", [3, 4], [4])
mm_case("mm_vec_y_batch_x", [2, 3, 4], [4])
mm_case("mm_vec_y_t", [4, 3], [4], tx=True)
mm_case("mm_dot", [4], [4])
# float64 (rt_dgemm): a folded batch, broadcast batches summed, a vector
mm_case("mm_batch_x_nt_f64", [2, 3, 3, 4], [5, 4], ty=True, dtype="float64")
mm_case("mm_bcast_tn_f64", [2, 4, 3], [1, 4, 5], tx=True, dtype="float64")
mm_case("mm_vec_y_batch_x_f64", [2, 3, 4], [4], dtype="float64")


def matmul_v1(name, xs, ys, tx=False, ty=False, alpha=1.0, dtype="float32"):
    def fn():
        x, y = data("x", xs, dtype), data("y", ys, dtype)
        out = op("matmul", {"X": x, "Y": y}, {"Out": [dtype]},
                 {"transpose_X": tx, "transpose_Y": ty, "alpha": alpha})[0]
        return ["x", "y"], [out], [x, y]
    fn.__name__ = name
    case(fn)


matmul_v1("matmul_nn", [3, 4], [4, 5])
matmul_v1("matmul_tt_alpha", [4, 3], [5, 4], tx=True, ty=True, alpha=0.5)
matmul_v1("matmul_batch_x_alpha", [-1, 3, 4], [4, 5], alpha=2.0)
matmul_v1("matmul_batched_tn", [2, 4, 3], [2, 4, 5], tx=True, alpha=-1.5)
matmul_v1("matmul_batch_y_nt", [3, 4], [2, 5, 4], ty=True)
matmul_v1("matmul_batched_tn_f64", [2, 4, 3], [2, 4, 5], tx=True, alpha=0.3, dtype="float64")


@case
def bmm():
    x, y = data("x", [2, 3, 4]), data("y", [2, 4, 5])
    return ["x", "y"], [paddle.bmm(x, y)], [x, y]


def einsum(name, eq, *shapes, dtype="float32", wrt=None):
    """paddle.einsum(eq) of operands of `shapes`; `wrt` the indices of the
    operands whose gradients are fetched (all when None)."""
    def f():
        names = [f"x{i}" for i in range(len(shapes))]
        xs = [data(n, s, dtype) for n, s in zip(names, shapes)]
        keep = range(len(xs)) if wrt is None else wrt
        for i, x in enumerate(xs):
            x.stop_gradient = i not in keep
        return names, [paddle.einsum(eq, *xs)], [xs[i] for i in keep]
    f.__name__ = name
    case(f)


einsum("einsum_mm", "ij,jk->ik", [3, 4], [4, 5])
einsum("einsum_batch", "bij,bjk->bik", [2, 3, 4], [2, 4, 5])
einsum("einsum_ellipsis_bcast", "...ij,...jk->...ik", [2, 1, 3, 4], [3, 4, 2])
einsum("einsum_label_x_only", "ij,jk->k", [3, 4], [4, 5])
einsum("einsum_outer", "bi,bj->bij", [2, 3], [2, 4])
einsum("einsum_dot_sum", "ij,ij->", [3, 4], [3, 4])
einsum("einsum_diag_times", "bii,bi->bi", [2, 3, 3], [2, 3])
einsum("einsum_trace", "bii->b", [2, 3, 3])
einsum("einsum_undiag", "bi->bii", [2, 3])
einsum("einsum_transpose", "bij->jb", [2, 3, 4])
einsum("einsum_implicit", "bij,jk", [2, 3, 4], [4, 5])
einsum("einsum_y_only", "bij,bjk->bik", [2, 3, 4], [2, 4, 5], wrt=[1])
einsum("einsum_f64", "bij,bjk->bik", [2, 3, 4], [2, 4, 5], dtype="float64")


@case
def dot_rows():
    """dot of rows ([B, N] -> [B]): both gradients."""
    x, y = data("x", [-1, 5]), data("y", [-1, 5])
    return ["x", "y"], [paddle.dot(x, y)], [x, y]


@case
def dot_vec_f64():
    """dot of two float64 vectors (a 0-D Out), Y's gradient only."""
    x, y = paddle.static.data("x", [6], "float64"), data("y", [6], "float64")
    return ["x", "y"], [paddle.dot(x, y)], [y]


@case
def mv_both():
    """mv: X@GRAD (dOut times Vec) and Vec@GRAD (X^T dOut)."""
    x, v = data("x", [-1, 4]), data("v", [4])
    return ["x", "v"], [paddle.mv(x, v)], [x, v]


@case
def mv_vec_only_f64():
    x, v = paddle.static.data("x", [3, 5], "float64"), data("v", [5], "float64")
    return ["x", "v"], [paddle.mv(x, v)], [v]


@case
def inverse_batch():
    x = data("x", [-1, 3, 3])
    return ["x"], [paddle.linalg.inv(x)], [x]


@case
def inverse_f64():
    x = data("x", [4, 4], "float64")
    return ["x"], [paddle.linalg.inv(x)], [x]


@case
def det_batch():
    """det's gradient through a sum of squares (Paddle 2.6 declares det's
    Out with X's dims, so an Out@GRAD fed in its place would not fit)."""
    x = data("x", [-1, 3, 3])
    det = paddle.linalg.det(x)
    return ["x"], [paddle.sum(det * det)], [x]


@case
def det_f64():
    x = data("x", [2, 2, 4, 4], "float64")
    return ["x"], [paddle.sum(paddle.linalg.det(x) * 0.5)], [x]


def make_input(v, rng):
    shape = [3 if d < 0 else d for d in v.shape]
    return rng.standard_normal(shape).astype("float64" if v.dtype == paddle.float64 else "float32")


if __name__ == "__main__":
    run_grad_cases(CASES, make_input)

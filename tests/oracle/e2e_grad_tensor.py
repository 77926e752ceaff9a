"""Gradient cases of the reductions and the data-movement ops: reduce_sum,
reduce_mean, reduce_max and reduce_min (dim, keep_dim, reduce_all),
reshape2, transpose2, flatten_contiguous_range, squeeze2, unsqueeze2,
slice, strided_slice, concat, split, stack, gather and index_select (repeated indices), the embedding lookups (lookup_table_v2 with and
without padding_idx, lookup_table, c_embedding), checked against Paddle's own grad ops
(oracle_case.build_grad_case).

Feeds named tie* hold small integers (as floats), so that a max or min is
reached by several elements; ids_v<N> hold ids in [0, N).

    python e2e_grad_tensor.py OUTDIR [CASE ...]
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, case_registry, grad_input as data, run_grad_cases, unary_grad_case  # noqa: E402,E501

import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

CASES, case = case_registry()


def unary(name, shape, fn, feed="x"):
    unary_grad_case(case, name, shape, fn, feed)


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
unary("slice", [-1, 5, 4], lambda x: x[:, 1:4, -3:])
unary("slice_decrease", [4, 5], lambda x: x[2, 1:])
unary("strided_slice", [6, 5], lambda x: paddle.strided_slice(x, [0, 1], [5, 4], [0, 0], [-2, -3]))
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


@case
def stack_axis1():
    a, b, c = data("a", [-1, 3]), data("b", [-1, 3]), paddle.static.data("c", [-1, 3], "float32")
    return ["a", "b", "c"], [paddle.stack([a, b, c], axis=1)], [a, b]


def gather(name, xs, idx_shape, axis, fn=paddle.gather, dtype="int64"):
    def f():
        x = data("x", xs)
        n = xs[axis]
        idx = paddle.static.data(f"ids_v{n}", idx_shape, dtype)
        return ["x", f"ids_v{n}"], [fn(x, idx, axis)], [x]
    f.__name__ = name
    case(f)


gather("gather_axis0", [5, 3], [7], 0)
# axis 1 after a dim of 1: Paddle 2.6's axis != 0 grad reads only the first
# block of the dims before the axis (paddlec refuses more blocks)
gather("gather_axis1_int32", [1, 4, 3], [6], 1, dtype="int32")
gather("index_select_axis2", [2, 3, 4], [5], 2, fn=paddle.index_select)


def embedding(name, ids_shape, padding_idx, v1=False, dtype="int64"):
    def f():
        ids = paddle.static.data("ids_v7", ids_shape, dtype)
        w = paddle.static.create_parameter([7, 4], "float32", name="emb_w")
        if v1:
            out = op("lookup_table", {"W": w, "Ids": ids}, {"Out": ["float32"]},
                     {"padding_idx": -1 if padding_idx is None else padding_idx})[0]
        else:
            out = F.embedding(ids, w, padding_idx=padding_idx)
        return ["ids_v7"], [out], []
    f.__name__ = name
    case(f)


embedding("embedding", [-1, 5], None)
embedding("embedding_pad", [4, 6], 2)
embedding("embedding_pad_neg_int32", [10], -1, dtype="int32")
embedding("lookup_table_v1_pad", [6, 1], 2, v1=True)


def c_embedding(name, ids_shape, start, dtype="int64"):
    """c_embedding (tensor parallelism's embedding) holding rows start ..
    start + 3 of a vocabulary of 7: the ids outside read zeros, and their
    Out@GRAD rows go nowhere.  float32 W: Paddle's c_embedding_grad clears
    only numel * 4 bytes of W@GRAD, half of a float64 one."""
    def f():
        ids = paddle.static.data("ids_v7", ids_shape, dtype)
        w = paddle.static.create_parameter([4, 3], "float32", name="emb_w")
        out = op("c_embedding", {"W": w, "Ids": ids}, {"Out": ["float32"]}, {"start_index": start, "vocab_size": 7})[0]
        return ["ids_v7"], [out], []
    f.__name__ = name
    case(f)


c_embedding("c_embedding_start2", [-1, 5], 2)
c_embedding("c_embedding_start3_int32", [9], 3, dtype="int32")


@case
def movement_f64():
    """float64 through the copies (reshape2, transpose2, flatten, unsqueeze2,
    squeeze2), concat, split, stack, slice and the sum/mean reductions."""
    x, y = data("x", [2, 3, 4], "float64"), data("y", [2, 3, 4], "float64")
    b = paddle.transpose(paddle.reshape(x, [6, 4]), [1, 0])
    d = paddle.squeeze(paddle.unsqueeze(paddle.flatten(paddle.unsqueeze(b, [0]), 0, 1), [2]), [2])
    p, q = paddle.split(paddle.concat([d, paddle.reshape(y, [4, 6])], axis=0), 2, axis=1)
    s = paddle.stack([p, q], axis=1)
    outs = [paddle.slice(s, axes=[0, 2], starts=[1, 0], ends=[7, 2]), paddle.sum(p, axis=0),
            paddle.mean(q, axis=1, keepdim=True)]
    return ["x", "y"], outs, [x, y]


def make_input(v, rng):
    shape = [3 if d < 0 else d for d in v.shape]
    m = re.fullmatch(r"ids_v(\d+)", v.name)
    if m:
        return rng.integers(0, int(m.group(1)), shape).astype(str(v.dtype).replace("paddle.", ""))
    if v.name.startswith("tie"):
        return rng.integers(-2, 3, shape).astype("float32")
    return rng.standard_normal(shape).astype("float64" if v.dtype == paddle.float64 else "float32")


if __name__ == "__main__":
    run_grad_cases(CASES, make_input)

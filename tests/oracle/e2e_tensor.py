#!/usr/bin/env python3
"""Op-level end-to-end cases for the tensor family: reshape/flatten/squeeze
(v2, and v1 where Paddle 2.6 still has a kernel), share_data, transpose, concat, split, stack, unstack, slice,
strided_slice, cast, shape, fill_constant (+ batch_size_like, any_like,
zeros_like), assign, assign_value, range, expand (v1, v2, as_v2), tile,
gather, gather_nd, index_select, arg_max/arg_min, lookup_table (v1, v2),
dropout, comparisons, logical and bitwise ops, reductions, sum, top_k (v1,
v2), cumsum (and logcumsumexp of one element), where, one_hot_v2, increment;
reshape2 / reshape with Shape and ShapeTensor known at compile time (they win
over the `shape` attribute), flatten2 / flatten_contiguous_range of a 0-D
tensor, slice / strided_slice with infer_flags shorter than axes,
tril_indices / triu_indices.

    python e2e_tensor.py OUTDIR [CASE ...]

Each case is a small static program (public API where one emits the op,
LayerHelper.append_op for legacy op types and attributes the API hides)
covering the op's attributes.  Float inputs are standard normal, integer
inputs uniform in the range data() gives (indices stay in range), bool
inputs fair coins; batch 2.  tests/oracle/oracle_case.py saves each case
with Paddle's reference outputs.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, run_static_cases, case_registry  # noqa: E402

import paddle  # noqa: E402
import paddle.nn as nn  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

BATCH = 2
CASES, case = case_registry()
INT_RANGE = {}  # feed name -> (low, high) for integer feeds


def data(name, shape, dtype="float32", low=-5, high=5):
    INT_RANGE[name] = (low, high)
    return paddle.static.data(name, shape, dtype)


# ---------------------------------------------------------------- copies
@case
def reshape_family():
    x = data("x", [None, 3, 4, 5])
    a = paddle.reshape(x, [0, -1, 5])
    b = paddle.reshape(x, [-1, 60])
    c = paddle.flatten(x, 1, 2)
    d = paddle.flatten(x)
    e = paddle.unsqueeze(x, [0, -1])
    s = data("s", [None, 1, 4, 1])
    f = paddle.squeeze(s, [1])
    g = paddle.squeeze(s, [1, -1])
    h = op("reshape", {"X": [x]}, {"Out": ["float32"]}, {"shape": [0, 12, 5]})[0]
    j = op("flatten2", {"X": [x]}, {"Out": ["float32"], "XShape": ["float32"]}, {"axis": 2})[0]
    n = paddle.assign(x)
    o = op("share_data", {"X": [x]}, {"Out": ["float32"]}, {})[0]
    return [x, s], [a, b, c, d, e, f, g, h, j, n, o]


@case
def transpose_perms():
    x = data("x", [None, 5, 7])
    a = paddle.transpose(x, [0, 2, 1])  # swap the inner dims
    b = paddle.transpose(x, [2, 1, 0])
    c = paddle.transpose(x, [1, 0, 2])  # last dim in place
    m = data("m", [37, 45])
    d = paddle.transpose(m, [1, 0])  # 2-D, tiles with ragged edges
    y = data("y", [None, 6, 4, 8])
    e = paddle.transpose(y, [0, 2, 1, 3])  # BERT heads
    f = paddle.transpose(y, [3, 1, 0, 2])
    z = data("z", [None, 2, 3, 2, 3, 2])
    g = paddle.transpose(z, [5, 3, 1, 0, 2, 4])
    i = data("i", [None, 3, 5], "int64", -100, 100)
    h = op("transpose", {"X": [i]}, {"Out": ["int64"]}, {"axis": [1, 2, 0]})[0]
    return [x, m, y, z, i], [a, b, c, d, e, f, g, h]


@case
def concat_split_stack():
    x = data("x", [None, 3, 4])
    y = data("y", [None, 2, 4])
    a = paddle.concat([x, y, x], axis=1)
    b = paddle.concat([x, x], axis=-1)
    c = paddle.concat([x, x, x], axis=0)
    s1, s2, s3 = paddle.split(a, 2, axis=-1)[0], *paddle.split(x, [1, -1], axis=1)
    d, e = paddle.split(x, [3, 1], axis=2)
    f = paddle.stack([x, x, x], axis=0)
    g = paddle.stack([x, x], axis=-1)
    h = paddle.stack([x, x], axis=2)
    u0, u1, u2 = paddle.unstack(x, axis=1)
    v = paddle.unstack(x, axis=-1)
    return [x, y], [a, b, c, s1, s2, s3, d, e, f, g, h, u0, u1, u2, v[3]]


@case
def slices():
    x = data("x", [None, 6, 7])
    a = paddle.slice(x, axes=[1, 2], starts=[1, -5], ends=[100, -1])
    b = paddle.slice(x, axes=[2], starts=[-100], ends=[3])
    c = x[:, 2]  # decrease_axis
    d = x[1:]  # on the batch axis: B - 1 rows
    e = x[-1, 3]  # everything but the last dim dropped
    f = x[:, ::2, 1:6:3]  # strided_slice
    g = x[:, ::-1]  # reversed
    h = x[:, 5:0:-2, -1:-8:-3]
    i = paddle.strided_slice(x, axes=[1, 2], starts=[-2, 0], ends=[-7, 100], strides=[-1, 4])
    j = x[:, 4:1:-1, ::-1]
    k = op("slice", {"Input": [x]}, {"Out": ["float32"]},
           {"axes": [1], "starts": [2], "ends": [3], "decrease_axis": [1], "infer_flags": [1]})[0]
    m = op("strided_slice", {"Input": [x]}, {"Out": ["float32"]},
           {"axes": [2], "starts": [-1], "ends": [0], "strides": [1], "infer_flags": [-1], "decrease_axis": [2]})[0]
    return [x], [a, b, c, d, e, f, g, h, i, j, k, m]


# ---------------------------------------------------------------- shapes from constant tensors, 0-D, short infer_flags
def const_int(values, dtype="int32"):
    """A tensor whose values are known at compile time (assign_value)."""
    return paddle.assign(np.array(values, dtype))


@case
def reshape_shape_tensor():
    """Shape (and ShapeTensor) win over the `shape` attribute (Paddle's
    OpTest: X [6, 20], Shape [2, 3, 20], shape [0, -1, 20])."""
    x = data("x", [6, 20])
    outs = []
    for t in ("reshape2", "reshape"):
        o = {"Out": ["float32"]}
        if t == "reshape2":
            o["XShape"] = ["float32"]
        outs += [op(t, {"X": [x], "Shape": [const_int([2, 3, 20])]}, o, {"shape": [0, -1, 20]})[0]]
    # ShapeTensor over Shape over shape
    st = [const_int([4], "int64"), const_int([-1], "int64"), const_int([5])]
    outs += [op("reshape2", {"X": [x], "Shape": [const_int([3, 40])], "ShapeTensor": st},
                {"Out": ["float32"], "XShape": ["float32"]}, {"shape": [0, -1, 20]})[0]]
    # Shape alone, with the attribute empty
    outs += [op("reshape2", {"X": [x], "Shape": [const_int([10, -1], "int64")]},
                {"Out": ["float32"], "XShape": ["float32"]}, {})[0]]
    return [x], outs


@case
def flatten_zero_d():
    x = data("x", [])
    a = op("flatten2", {"X": [x]}, {"Out": ["float32"], "XShape": ["float32"]}, {"axis": 0})[0]
    b = op("flatten_contiguous_range", {"X": [x]}, {"Out": ["float32"], "XShape": ["float32"]},
           {"start_axis": 0, "stop_axis": -1})[0]
    return [x], [a, b]


@case
def slice_short_infer_flags():
    x = data("x", [3, 4, 5, 6])
    outs = [op("slice", {"Input": [x]}, {"Out": ["float32"]},
               {"axes": [0, 1, 2], "starts": [1, 0, 2], "ends": [3, 3, 4], "infer_flags": [1],
                "decrease_axis": []})[0],
            op("slice", {"Input": [x]}, {"Out": ["float32"]},
               {"axes": [1, 3], "starts": [-3, 1], "ends": [2, 2], "infer_flags": [1],
                "decrease_axis": [3]})[0],
            op("strided_slice", {"Input": [x]}, {"Out": ["float32"]},
               {"axes": [0, 1, 2], "starts": [1, 0, 2], "ends": [3, 3, 4], "strides": [1, 1, 2],
                "infer_flags": [1], "decrease_axis": []})[0],
            op("strided_slice", {"Input": [x]}, {"Out": ["float32"]},
               {"axes": [3, 1], "starts": [-1, 3], "ends": [-7, 0], "strides": [-2, -1],
                "infer_flags": [1], "decrease_axis": []})[0]]
    return [x], outs


# ---------------------------------------------------------------- dtypes
DTYPES = {"bool": 0, "int8": 21, "uint8": 20, "int32": 2, "int64": 3, "float32": 5, "float64": 6}


def cast(x, t):
    """A raw cast op (the Python API refuses int8 inputs)."""
    return op("cast", {"X": [x]}, {"Out": [t]}, {"in_dtype": x.dtype, "out_dtype": DTYPES[t]})[0]


@case
def cast_all_pairs():
    x = data("x", [None, 9])
    y = paddle.scale(x, 3.0)  # values in about [-9, 9], fractional and negative
    outs = []
    for t1 in DTYPES:
        c1 = cast(y, t1)
        outs.append(c1)
        outs += [cast(c1, t2) for t2 in DTYPES if t2 != t1]
    i = data("i", [None, 4], "int64", -300, 300)
    outs += [cast(i, t) for t in DTYPES]
    return [x, i], [fetchable(o) for o in outs]


def fetchable(v):
    """v, or v cast to a type whose fetch paddlec compiles (save_inference_model
    puts a scale op after each fetch, which the scale emitter runs on float32,
    int32, int64 and bool only): exact for int8/uint8, and float64 values made
    from float32 round-trip."""
    if v.dtype in (paddle.int8, paddle.uint8):
        return cast(v, "int32")
    if v.dtype == paddle.float64:
        return cast(v, "float32")
    return v


@case
def shape_fill_range():
    x = data("x", [None, 3, 5])
    a = paddle.shape(x)
    b = paddle.full([2, 3], 1.5)
    c = paddle.full([4], 7, "int64")
    d = paddle.exp(paddle.full([3], float("-inf")))  # str_value "-inf" (exp: the comparison needs finite values)
    e = paddle.full([2, 2], True, "bool")
    f = fetchable(paddle.full([3], 2.5, "float64"))
    g = paddle.full_like(x, -2.0)
    h = paddle.zeros_like(x, "int32")
    v = data("v", [1])
    i = paddle.full([2, 3], v)  # ValueTensor
    j = op("fill_constant_batch_size_like", {"Input": [x]}, {"Out": ["float32"]},
           {"shape": [-1, 4], "value": 3.25, "dtype": 5, "input_dim_idx": 0, "output_dim_idx": 0})[0]
    k = op("fill_constant_batch_size_like", {"Input": [x]}, {"Out": ["int64"]},
           {"shape": [2, -1], "value": 0.0, "str_value": "9", "dtype": 3, "input_dim_idx": 2, "output_dim_idx": 1})[0]
    m = op("fill_zeros_like", {"X": [x]}, {"Out": ["float32"]}, {})[0]
    n = paddle.assign(np.array([[1.5, -2.0, 3.25], [0.0, 7.0, -1e-3]], "float32"))
    o = paddle.assign(np.array([1, -2, 3, 1 << 40], "int64"))
    p = paddle.assign(np.array([7, -8], "int32"))
    q = paddle.assign(np.array([True, False, True]))
    r = paddle.arange(0, 10, 3, "int64")
    s = paddle.arange(-1.0, 2.0, 0.25, "float32")
    t = paddle.arange(5, 0, -1, "int32")
    u = fetchable(paddle.arange(0.1, 1.0, 0.1, "float64"))
    w = data("w", [1])
    z = paddle.increment(w, 2.5)
    return [x, v, w], [a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u, z]


# ---------------------------------------------------------------- broadcasting copies
@case
def expand_tile():
    x = data("x", [None, 1, 3])
    a = paddle.expand(x, [-1, 4, 3])
    m = data("m", [1, 3])
    b = paddle.expand(m, [2, 5, 3])  # new leading dims
    y = data("y", [None, 4, 3])
    c = paddle.expand_as(x, y)
    d = paddle.broadcast_to(x, [-1, 6, 3])
    e = paddle.tile(x, [2, 3, 1])
    f = paddle.tile(x, [2])  # fewer repeats than dims
    g = paddle.tile(x, [2, 1, 3, 2])  # more repeats than dims
    h = op("expand", {"X": [y]}, {"Out": ["float32"]}, {"expand_times": [1, 2, 3]})[0]
    i = data("i", [None, 2], "int32", -9, 9)
    j = paddle.tile(i, [3, 2])
    return [x, m, y, i], [a, b, c, d, e, f, g, h, j]


@case
def shapes_from_tensors():
    """Shapes computed by ops from shape(x): values known once the batch is."""
    x = data("x", [None, 4, 3])
    b = paddle.shape(x)[0]
    a = paddle.reshape(x, [b, -1])  # ShapeTensor list
    y = data("y", [None, 12])
    c = paddle.reshape(y, paddle.shape(x))  # Shape
    d = paddle.zeros([b, 5], "int64")  # ShapeTensorList
    e = paddle.full(paddle.shape(x), 0.5)  # ShapeTensor
    m = data("m", [1, 3])
    f = paddle.expand(m, [b, 2, 3])  # expand_shapes_tensor
    g = paddle.tile(m, [b, 2])  # repeat_times_tensor
    h = paddle.expand(m, paddle.concat([paddle.shape(x)[:1], paddle.full([1], 3, "int32")]))  # Shape
    return [x, y, m], [a, c, d, e, f, g, h]


# ---------------------------------------------------------------- gathers
@case
def gathers():
    x = data("x", [None, 6, 5])
    i64 = data("i64", [4], "int64", 0, 6)
    i32 = data("i32", [3], "int32", 0, 5)
    a = paddle.gather(x, i64, axis=1)
    b = paddle.gather(x, i32, axis=2)
    m = data("m", [7, 5])
    i0 = data("i0", [5], "int64", 0, 7)
    c = paddle.gather(m, i0)
    d = paddle.index_select(x, i64, axis=1)
    e = paddle.index_select(m, i32, axis=-1)
    nd = data("nd", [4, 2], "int64", 0, 5)
    f = paddle.gather_nd(m, nd)
    nd1 = data("nd1", [3, 1], "int32", 0, 7)
    g = paddle.gather_nd(m, nd1)
    t = data("t", [2, 6, 5])
    nd3 = data("nd3", [2, 2, 3], "int64", 0, 2)
    h = paddle.gather_nd(t, nd3)
    return [x, i64, i32, m, i0, nd, nd1, t, nd3], [a, b, c, d, e, f, g, h]


@case
def embeddings():
    ids = data("ids", [None, 7], "int64", 0, 10)
    a = nn.Embedding(10, 6)(ids)
    b = nn.Embedding(10, 4, padding_idx=3)(ids)
    c = nn.Embedding(10, 4, padding_idx=-1)(ids)  # the last row
    ids1 = data("ids1", [None, 5, 1], "int64", 0, 10)
    w = paddle.static.create_parameter([10, 3], "float32")
    d = op("lookup_table", {"W": [w], "Ids": [ids1]}, {"Out": ["float32"]}, {"padding_idx": 2})[0]
    ids32 = data("ids32", [None, 3], "int32", 0, 10)
    e = op("lookup_table_v2", {"W": [w], "Ids": [ids32]}, {"Out": ["float32"]}, {"padding_idx": -1})[0]
    return [ids, ids1, ids32], [a, b, c, d, e]


@case
def c_embeddings():
    """c_embedding, tensor parallelism's embedding: rows 3 .. 3 + V - 1 of a
    vocabulary of 10 here, the other ids reading zeros; float32 and float64
    W (cast from a feed), int64 and int32 ids."""
    ids = data("ids", [None, 7], "int64", 0, 10)
    w = paddle.static.create_parameter([4, 3], "float32")
    a = op("c_embedding", {"W": [w], "Ids": [ids]}, {"Out": ["float32"]}, {"start_index": 3, "vocab_size": 10})[0]
    ids32 = data("ids32", [None, 2, 3], "int32", 0, 10)
    w64 = data("w64", [6, 2])  # fed, then cast: the saved parameters are float32
    b = op("c_embedding", {"W": [paddle.cast(w64, "float64")], "Ids": [ids32]}, {"Out": ["float64"]},
           {"start_index": 0})[0]
    return [ids, ids32, w64], [a, b]


@case
def arg_top_k():
    x = data("x", [None, 5, 70])
    a = paddle.argmax(x, axis=-1)
    b = paddle.argmin(x, axis=1, keepdim=True)
    c = paddle.argmax(x)  # flatten
    d = paddle.argmax(x, axis=0, dtype="int32")
    e = paddle.argmin(x, axis=2, keepdim=True, dtype="int32")
    v1, i1 = paddle.topk(x, 3)
    v2, i2 = paddle.topk(x, 2, axis=1, largest=False)
    v3, i3 = paddle.topk(x, 1, axis=-1, sorted=False)
    v4, i4 = paddle.topk(x, 40, axis=2)
    v5, i5 = op("top_k", {"X": [x]}, {"Out": ["float32"], "Indices": ["int64"]}, {"k": 4})
    n = data("n", [None, 8], "int64", -1000, 1000)
    v6, i6 = paddle.topk(n, 3, largest=False)
    return [x, n], [a, b, c, d, e, v1, i1, v2, i2, v3, i3, v4, i4, v5, i5, v6, i6]


# ---------------------------------------------------------------- element-wise
@case
def dropout_modes():
    x = data("x", [None, 3, 4])
    a = F.dropout(x, 0.3, training=False)  # upscale_in_train: identity
    b = F.dropout(x, 0.3, training=False, mode="downscale_in_infer")
    c = op("dropout", {"X": [x]}, {"Out": ["float32"], "Mask": ["uint8"]},
           {"dropout_prob": 0.25, "is_test": False, "dropout_implementation": "downgrade_in_infer"})[0]
    return [x], [a, b, c]


@case
def compare_logical():
    x = data("x", [None, 3, 4])
    y = data("y", [4])
    outs = [paddle.less_than(x, y), paddle.less_equal(x, y), paddle.greater_than(y, x),
            paddle.greater_equal(x, y), paddle.equal(x, x), paddle.not_equal(x, y)]
    i = data("i", [None, 5], "int64", 0, 3)
    j = data("j", [None, 5], "int64", 0, 3)
    eq = paddle.equal(i, j)
    ne = paddle.not_equal(i, paddle.full([], 1, "int64"))
    outs += [eq, ne, paddle.less_than(i, j)]
    outs += [paddle.logical_and(eq, ne), paddle.logical_or(eq, ne), paddle.logical_xor(eq, ne),
             paddle.logical_not(eq), paddle.logical_and(outs[0], outs[3])]
    k = data("k", [None, 5], "int32", -50, 50)
    m = data("m", [5], "int32", -50, 50)
    outs += [paddle.bitwise_and(k, m), paddle.bitwise_or(k, m), paddle.bitwise_xor(k, m), paddle.bitwise_not(k),
             paddle.bitwise_not(eq), paddle.logical_and(i, j)]
    c = data("c", [None, 3, 4], "bool")
    outs += [paddle.where(c, x, x * 2.0)]
    return [x, y, i, j, k, m, c], outs


@case
def reductions():
    x = data("x", [None, 3, 4, 5])
    outs = [paddle.sum(x, axis=1), paddle.sum(x, axis=[1, 3], keepdim=True), paddle.sum(x),
            paddle.mean(x, axis=-1), paddle.mean(x, axis=[0, 2]), paddle.mean(x),
            paddle.max(x, axis=2), paddle.min(x, axis=[1, 2], keepdim=True), paddle.prod(x, axis=3),
            paddle.amax(x, axis=1), paddle.amin(x, axis=-2), paddle.max(x),
            paddle.linalg.norm(x, "fro", axis=[2, 3])]
    outs += op("mean", {"X": [x]}, {"Out": ["float32"]}, {})
    outs += op("reduce_sum", {"X": [x]}, {"Out": ["float32"]}, {"dim": [0, 1, 2, 3], "keep_dim": True})
    b = data("b", [None, 3, 4], "bool")
    outs += [paddle.all(b, axis=1), paddle.any(b, axis=[0, 2]), paddle.all(b), paddle.any(b, axis=-1, keepdim=True)]
    i = data("i", [None, 3, 4], "int32", -9, 9)
    outs += [paddle.sum(i, axis=1), paddle.sum(i, axis=2, dtype="int32"), paddle.max(i, axis=0),
             paddle.sum(b, axis=1), paddle.prod(i, axis=1)]
    y = data("y", [None, 3, 4])
    outs += [paddle.add_n([y, y * 2.0, paddle.exp(y)]), paddle.add_n([i, i])]
    return [x, b, i, y], outs


@case
def cumsum_one_hot():
    x = data("x", [None, 4, 5])
    outs = [paddle.cumsum(x, axis=1), paddle.cumsum(x), paddle.cumsum(x, axis=-1)]
    for ex, rev in [(True, False), (False, True), (True, True)]:
        outs += op("cumsum", {"X": [x]}, {"Out": ["float32"]}, {"axis": 1, "exclusive": ex, "reverse": rev})
    outs += op("cumsum", {"X": [x]}, {"Out": ["float32"]}, {"flatten": True, "reverse": True})
    i = data("i", [None, 6], "int64", 0, 5)
    outs += [paddle.cumsum(i, axis=1), F.one_hot(i, 5)]
    outs += [fetchable(op("one_hot_v2", {"X": [i]}, {"Out": ["float64"]}, {"depth": 7, "dtype": 6})[0])]
    return [x, i], outs


@case
def scans_of_one_element():
    """Paddle's ScanKernel copies a one-element X whatever exclusive says
    (cumsum and logcumsumexp alike), on a 0-D X and on a [1, 1] one."""
    z, o = data("z", []), data("o", [1, 1])
    outs = [paddle.cumsum(z), paddle.logcumsumexp(z), paddle.cumsum(o, axis=0), paddle.logcumsumexp(o, axis=1)]
    for t in (z, o):
        for kind in ("cumsum", "logcumsumexp"):
            outs += op(kind, {"X": [t]}, {"Out": ["float32"]}, {"exclusive": True})
            outs += op(kind, {"X": [t]}, {"Out": ["float32"]}, {"exclusive": True, "flatten": True, "reverse": True})
    return [z, o], outs


# ---------------------------------------------------------------- driver
@case
def tri_indices():
    """tril_indices and triu_indices: square and not, offsets of either
    sign, past the matrix (an empty triangle), int32 and int64; plus a feed
    so the program takes an input."""
    x = data("x", [None, 3])
    outs = [paddle.tril_indices(4, 3, -1), paddle.tril_indices(5, 5), paddle.tril_indices(3, 6, 2, "int32"),
            paddle.tril_indices(2, 4, 9), paddle.tril_indices(3, 3, -5), paddle.triu_indices(3, 5, 2, "int32"),
            paddle.triu_indices(4, 4), paddle.triu_indices(6, 3, -2), paddle.triu_indices(3, 3, 7),
            paddle.triu_indices(1, 5, -3), paddle.sum(x)]
    return [x], outs


def make_input(v, rng):
    shape = [BATCH if d in (None, -1) else d for d in v.shape]
    dt = str(v.dtype)
    if "bool" in dt:
        return rng.random(shape) > 0.5
    if "int" in dt:
        low, high = INT_RANGE[v.name]
        return rng.integers(low, high, size=shape).astype("int64" if "int64" in dt else "int32")
    return rng.standard_normal(shape).astype("float32")


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

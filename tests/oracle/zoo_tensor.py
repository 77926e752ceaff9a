#!/usr/bin/env python3
"""Op zoo for the tensor family: one small Paddle program per case.

    python zoo_tensor.py OUTDIR [CASE ...]

writes OUTDIR/<case>/model.pdmodel (+ .pdiparams) for every case (or the named
ones).  Paddle's own compile-time InferShape fills the VarDescs, so
`paddlec inspect` on each case checks paddlec's shape rules for the
element-wise, comparison, logical, reduction, matmul, reshape/transpose/
flatten/squeeze, concat/split/slice/stack, shape/cast/fill/assign,
expand/tile, gather, arg_max, top_k, range, cumsum, where, one_hot, sum,
random and increment ops against Paddle.

Most cases append ops directly (`raw`) so that every attribute, legacy op
type and optional tensor input can be set; a few go through the Python API
and paddle.jit.save with InputSpec([None, ...]) batch dims, as real models
do.
"""
import os
import sys

import numpy as np
import paddle
from paddle.static import InputSpec

paddle.enable_static()
paddle.seed(2024)
np.random.seed(2024)

CASES = {}
_feeds = []


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def data(name, shape, dtype="float32"):
    v = paddle.static.data(name, shape, dtype)
    _feeds.append(v)
    return v


def raw(type, inputs, outputs, attrs=None, dtype="float32"):
    """Appends op `type`; `outputs` maps a slot to a count of new vars.
    Returns the first output var of each slot (a list for counts > 1)."""
    block = paddle.static.default_main_program().current_block()
    outs, ret = {}, {}
    for slot, n in outputs.items():
        vs = [block.create_var(name=paddle.utils.unique_name.generate(type + "_" + slot),
                               dtype=dtype) for _ in range(n)]
        outs[slot] = vs
        ret[slot] = vs[0] if n == 1 else vs
    ins = {k: (v if isinstance(v, list) else [v]) for k, v in inputs.items()}
    block.append_op(type=type, inputs=ins, outputs=outs, attrs=attrs or {})
    return ret


def out(type, inputs, attrs=None, slot="Out", dtype="float32", extra=()):
    """raw() with one output slot (plus `extra` slots) -> that output."""
    outputs = {slot: 1}
    outputs.update({s: 1 for s in extra})
    return raw(type, inputs, outputs, attrs, dtype)[slot]


def const(value, dtype="int32", shape=(1,)):
    return paddle.full(list(shape), value, dtype)


# ---------------------------------------------------------------- element-wise
EW = ["add", "sub", "mul", "div", "max", "min", "pow", "mod", "floordiv", "fmax", "fmin"]


@case
def ew_all_types():
    x, y = data("x", [None, 3, 4]), data("y", [4])
    return [out("elementwise_" + t, {"X": x, "Y": y}) for t in EW]


@case
def ew_axis():
    x, y, z = data("x", [None, 3, 4]), data("y", [3]), data("z", [3, 4])
    w = data("w", [None, 3])
    return [out("elementwise_add", {"X": x, "Y": y}, {"axis": 1}),
            out("elementwise_mul", {"X": x, "Y": z}, {"axis": 1}),
            out("elementwise_sub", {"X": x, "Y": y}, {"axis": -2}),
            out("elementwise_div", {"X": x, "Y": w}, {"axis": 0}),
            out("elementwise_add", {"X": y, "Y": x}, {"axis": 1})]


@case
def ew_broadcast():
    a, b = data("a", [None, 1, 4]), data("b", [5, 1])
    c, d = data("c", [1, 3]), data("d", [None, 1])
    e, f = data("e", [None, 3]), data("f", [1, 3])
    s, t = data("s", []), data("t", [2, 3])
    return [paddle.add(a, b), paddle.multiply(c, d), paddle.subtract(e, f),
            paddle.maximum(s, t), paddle.divide(t, s), paddle.pow(a, a),
            out("elementwise_add", {"X": d, "Y": c}), paddle.floor_divide(e, f),
            paddle.remainder(d, c)]


# --------------------------------------------------------- compare and logical
@case
def compare_ops():
    x, y = data("x", [None, 1, 4]), data("y", [3, 1])
    z = data("z", [None, 3])
    res = [out(t, {"X": x, "Y": y}, dtype="bool") for t in
           ["less_than", "less_equal", "greater_than", "greater_equal", "equal", "not_equal"]]
    res.append(out("equal", {"X": z, "Y": y}, {"axis": 0}, dtype="bool"))
    res.append(paddle.less_than(z, paddle.full([3], 1.0)))
    return res


@case
def logical_ops():
    a, b = data("a", [None, 1, 4], "bool"), data("b", [3, 1], "bool")
    i, j = data("i", [None, 4], "int32"), data("j", [4], "int32")
    return [paddle.logical_and(a, b), paddle.logical_or(a, b), paddle.logical_xor(b, a),
            paddle.logical_not(a), paddle.bitwise_and(i, j), paddle.bitwise_or(j, i),
            paddle.bitwise_xor(i, j), paddle.bitwise_not(i)]


# ------------------------------------------------------------------ reductions
@case
def reduce_ops():
    x = data("x", [None, 3, 4, 5])
    res = []
    for t in ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
              "reduce_amax", "reduce_amin", "frobenius_norm"]:
        res.append(out(t, {"X": x}, {"dim": [1, -1], "keep_dim": False}))
        res.append(out(t, {"X": x}, {"dim": [2], "keep_dim": True}))
    res.append(out("reduce_sum", {"X": x}, {"dim": [0], "reduce_all": True}))
    res.append(out("reduce_mean", {"X": x}, {"dim": [0], "reduce_all": True, "keep_dim": True}))
    res.append(out("reduce_max", {"X": x}, {"dim": [0, 1, 2, 3]}))
    res.append(out("reduce_min", {"X": x}, {"dim": []}))
    res.append(out("reduce_sum", {"X": x}, {"dim": [0]}))
    res.append(out("reduce_sum", {"X": x}, {"dim": [1], "out_dtype": 6, "in_dtype": 5}))
    return res


@case
def reduce_api():
    x = data("x", [None, 3, 4])
    i = data("i", [None, 3], "int32")
    b = data("b", [None, 3], "bool")
    return [paddle.sum(x), paddle.sum(x, axis=[0, 2], keepdim=True), paddle.mean(x, axis=-1),
            paddle.max(x, axis=1), paddle.min(x, axis=[1, 2]), paddle.prod(x, axis=0),
            paddle.sum(i, axis=1), paddle.sum(b), paddle.sum(x, axis=1, dtype="float64"),
            paddle.all(b, axis=1), paddle.any(b), paddle.amax(x, axis=2),
            paddle.linalg.norm(x, p="fro", axis=[1, 2])]


@case
def reduce_bool_and_tensor_axis():
    b = data("b", [None, 3, 4], "bool")
    x = data("x", [2, 3, 4])
    ax = const(1, "int64", (1,))
    return [out("reduce_all", {"X": b}, {"dim": [1]}, dtype="bool"),
            out("reduce_any", {"X": b}, {"dim": [0], "reduce_all": True}, dtype="bool"),
            paddle.sum(x, axis=ax), paddle.sum(x, axis=ax, keepdim=True),
            paddle.mean(x, axis=[ax, const(2, "int64")])]


@case
def mean_and_norms():
    x = data("x", [None, 3, 4])
    return [out("mean", {"X": x}),
            out("p_norm", {"X": x}, {"axis": 1, "porder": 2.0}),
            out("p_norm", {"X": x}, {"axis": -1, "keepdim": True}),
            out("p_norm", {"X": x}, {"asvector": True}),
            out("p_norm", {"X": x}, {"asvector": True, "keepdim": True}),
            paddle.linalg.norm(x, p=1, axis=2)]


# --------------------------------------------------------------------- matmul
@case
def mul_op():
    x, y = data("x", [None, 3, 4]), data("y", [12, 5])
    z, w = data("z", [None, 2, 6]), data("w", [6, 2, 5])
    return [out("mul", {"X": x, "Y": y}, {"x_num_col_dims": 1}),
            out("mul", {"X": z, "Y": w}, {"x_num_col_dims": 2, "y_num_col_dims": 1}),
            out("mul", {"X": x, "Y": data("v", [4, 2, 3])}, {"x_num_col_dims": 2,
                                                             "y_num_col_dims": 1})]


@case
def matmul_v1():
    a, b = data("a", [None, 2, 3, 4]), data("b", [4, 5])
    c, d = data("c", [3, 4]), data("d", [None, 4, 5])
    v, u = data("v", [4]), data("u", [5, 4])
    m = data("m", [None, 3])
    res = [out("matmul", {"X": a, "Y": b}, {"alpha": 0.5}),
           out("matmul", {"X": c, "Y": d}),
           out("matmul", {"X": d, "Y": c}, {"transpose_X": True, "transpose_Y": True}),
           out("matmul", {"X": v, "Y": u}, {"transpose_Y": True}),
           out("matmul", {"X": u, "Y": v}),
           out("matmul", {"X": v, "Y": v}),
           out("matmul", {"X": m, "Y": m}, {"transpose_Y": True}),
           out("matmul", {"X": a, "Y": d}),
           out("matmul", {"X": c, "Y": v}, {"transpose_X": True, "transpose_Y": False})]
    return res


@case
def matmul_v2():
    a, b = data("a", [None, 1, 3, 4]), data("b", [5, 4, 6])
    c, d = data("c", [2, 1, 3, 4]), data("d", [1, 5, 4, 6])
    v, m = data("v", [4]), data("m", [None, 4])
    e, f = data("e", [3, 4]), data("f", [None, 3, 4])
    return [paddle.matmul(a, b), paddle.matmul(c, d), paddle.matmul(v, b),
            paddle.matmul(m, v), paddle.matmul(v, v), paddle.matmul(e, f, transpose_x=True),
            paddle.matmul(f, e, transpose_y=True), paddle.matmul(v, f, transpose_y=True),
            paddle.bmm(f, paddle.transpose(f, [0, 2, 1]))]


# ------------------------------------------------- reshape, transpose, flatten
@case
def reshape_ops():
    x = data("x", [None, 3, 4])
    y = data("y", [2, 3, 4])
    n = const(6)
    st = paddle.full([3], 2, "int32")
    return [paddle.reshape(x, [0, -1]), paddle.reshape(x, [-1, 6, 2]),
            paddle.reshape(y, [-1, 6]), paddle.reshape(y, [0, 0, 2, 2]),
            paddle.reshape(x, [n, -1]), paddle.reshape(x, [0, n, 2]),
            paddle.reshape(y, st), out("reshape", {"X": y}, {"shape": [4, -1]}),
            out("reshape", {"X": x, "Shape": st}, {"shape": [2, 3, 4]}),
            out("reshape2", {"X": y, "Shape": st}, extra=["XShape"])]


@case
def transpose_flatten():
    x = data("x", [None, 3, 4, 5])
    s = data("s", [])
    return [paddle.transpose(x, [0, 3, 1, 2]), paddle.transpose(x, [-1, 0, -2, 1]),
            out("transpose", {"X": x}, {"axis": [1, 0, 2, 3]}),
            paddle.flatten(x), paddle.flatten(x, 1, 2), paddle.flatten(x, -2, -1),
            paddle.flatten(x, 0, -1), paddle.flatten(s),
            out("flatten2", {"X": x}, {"axis": 0}, extra=["XShape"]),
            out("flatten2", {"X": x}, {}, extra=["XShape"]),
            out("flatten_contiguous_range", {"X": x}, {}, extra=["XShape"])]


@case
def squeeze_ops():
    x = data("x", [None, 1, 3, 1])
    y = data("y", [1, 3])
    ax = const(0, "int64")
    return [paddle.squeeze(x), paddle.squeeze(x, [1, -1]), paddle.squeeze(x, [0]),
            paddle.squeeze(y, 1),
            out("squeeze2", {"X": x}, {"axes": []}, extra=["XShape"]),
            paddle.unsqueeze(x, [0, 2]), paddle.unsqueeze(y, -1), paddle.unsqueeze(y, [0, -1]),
            paddle.unsqueeze(y, [2, 0, 1]),
            paddle.unsqueeze(y, ax), paddle.unsqueeze(y, [ax, 1]),
            out("unsqueeze2", {"X": y, "AxesTensor": paddle.full([2], 0, "int32")},
                extra=["XShape"]),
            out("unsqueeze2", {"X": y, "AxesTensorList": [const(0), const(1)]},
                extra=["XShape"])]


# ------------------------------------------------ concat, split, slice, stack
@case
def concat_ops():
    a, b = data("a", [None, 3]), data("b", [2, 3])
    c, d = data("c", [4, None]), data("d", [None, 5])
    return [paddle.concat([a, b]), paddle.concat([a, b], axis=-1), paddle.concat([c, d], 1),
            paddle.concat([c, d], 0), paddle.concat([b, b, b], axis=1),
            paddle.concat([a, b], axis=const(1, "int64")),
            out("concat", {"X": [b, a]}, {"axis": 0})]


@case
def split_ops():
    x = data("x", [None, 6, 5])
    y = data("y", [4, 6])
    r = []
    r += paddle.split(x, 2, axis=1)
    r += paddle.split(x, [2, -1], axis=1)
    r += paddle.split(x, [1, 5], axis=-2)
    r += paddle.split(x, [3, 2], axis=2)
    r += paddle.split(x, 2, axis=0)
    r += paddle.split(y, [const(1), 3], axis=0)
    r += paddle.split(y, 3, axis=const(1))
    r += raw("split", {"X": x}, {"Out": 2}, {"axis": 1, "sections": [-1, 4]})["Out"]
    return r


@case
def slice_ops():
    x = data("x", [None, 6, 5])
    v = data("v", [8], "int32")
    s, e = const(1), const(4)
    return [x[:, 1:3], x[..., -1], x[:, -2:], x[1:], x[:, 2], v[3], v[-1:], v[2:100],
            x[:, s:e], paddle.slice(x, [1], s, [4]), paddle.slice(x, [1, 2], [s, 0], [e, 3]),
            paddle.slice(x, axes=[-1], starts=[-3], ends=[-1]),
            out("slice", {"Input": x}, {"axes": [1], "starts": [0], "ends": [1],
                                        "decrease_axis": [1], "infer_flags": [1]}),
            out("slice", {"Input": x}, {"axes": [2], "starts": [7], "ends": [9]}),
            out("slice", {"Input": x, "StartsTensor": paddle.full([1], 1, "int64")},
                {"axes": [2], "starts": [-1], "ends": [3], "infer_flags": [-1]})]


@case
def strided_slice_ops():
    x = data("x", [None, 8, 6])
    s = const(1)
    return [x[:, ::2], x[:, 1:7:3, ::-1], x[:, ::-2], x[:, 6:1:-2], x[:, 1::2, 3],
            paddle.strided_slice(x, [1, 2], [1, 0], [7, 6], [2, 2]),
            paddle.strided_slice(x, [1], [-1], [-9], [-1]),
            paddle.strided_slice(x, [1], [s], [7], [2]),
            paddle.strided_slice(x, [2], [1], [100], [3])]


@case
def stack_ops():
    a, b = data("a", [None, 3]), data("b", [2, 3])
    r = [paddle.stack([a, b]), paddle.stack([a, b], axis=-1), paddle.stack([b, a], axis=1)]
    r += paddle.unstack(b, axis=1)
    r += paddle.unstack(a, axis=-1)
    return r


# ---------------------------------------------------- shape, cast, fill, assign
@case
def shape_cast_fill():
    x = data("x", [None, 3, 4])
    n = data("n", [1], "int32")
    return [paddle.shape(x), paddle.cast(x, "int64"), paddle.cast(x, "bool"),
            paddle.full([2, 3], 1.5), paddle.full([2, 3], 7, "int64"),
            paddle.full([n, 3], 0.0), paddle.full(paddle.shape(x), 1.0),
            paddle.full([], 2.0), paddle.full_like(x, 3, "int32"), paddle.zeros_like(x),
            paddle.ones_like(x, "float64"), out("fill_zeros_like", {"X": x}),
            out("fill_zeros_like2", {"X": x}, {"dtype": 3}, dtype="int64"),
            out("fill_any_like", {"X": x}, {"value": 1.0}),
            out("fill_constant_batch_size_like", {"Input": x},
                {"shape": [7, 2], "output_dim_idx": 1, "input_dim_idx": 0, "dtype": 5,
                 "value": 1.0}),
            out("fill_constant", {"ShapeTensor": paddle.full([3], 2, "int32")},
                {"shape": [], "dtype": 6, "value": 0.0})]


@case
def assign_ops():
    x = data("x", [None, 3])
    return [paddle.assign(x), paddle.assign(np.ones([2, 3], "float32")),
            paddle.assign(np.arange(5, dtype="int64")), paddle.assign(np.array([True, False])),
            out("share_data", {"X": x})]


# ------------------------------------------------------------ expand and tile
@case
def expand_tile():
    x, y = data("x", [None, 1]), data("y", [3])
    z = data("z", [1, 3])
    n = const(4)
    return [paddle.expand(x, [-1, 5]), paddle.expand(y, [2, 3]), paddle.expand(z, [2, n, 3]),
            paddle.expand(x, [4, -1, 5]), paddle.expand(z, paddle.full([2], 3, "int32")),
            paddle.expand_as(z, data("t", [None, 2, 3])),
            out("expand", {"X": z}, {"expand_times": [2, 3]}),
            out("expand", {"X": x}, {"expand_times": [2, 3]}),
            out("expand_as_v2", {"X": z, "Y": data("u", [4, 3])}, {"target_shape": [4, 3]}),
            paddle.tile(y, [2, 2]), paddle.tile(x, [2, 1, 1]), paddle.tile(z, [n, 1]),
            paddle.tile(z, [2]), paddle.tile(z, paddle.full([2], 2, "int32")),
            *paddle.broadcast_tensors([x, z]),
            *paddle.broadcast_tensors([data("p", [5, 1]), data("q", [None, 1, 3])])]


# --------------------------------------------------------- gather and friends
@case
def gather_ops():
    x = data("x", [None, 5, 6])
    i = data("i", [3], "int64")
    j = data("j", [None, 2], "int64")
    k = data("k", [], "int64")
    return [paddle.gather(x, i), paddle.gather(x, i, axis=1), paddle.gather(x, i, axis=-1),
            paddle.gather(x, k, axis=1), paddle.gather(x, i, axis=const(2, "int64")),
            paddle.gather_nd(x, j), paddle.gather_nd(x, data("m", [4, 3], "int64")),
            paddle.index_select(x, i, axis=2), paddle.index_select(x, i),
            paddle.scatter(data("s", [None, 4]), i, data("u", [3, 4]))]


@case
def arg_topk():
    x = data("x", [None, 5, 6])
    return [paddle.argmax(x, axis=1), paddle.argmin(x, axis=-1, keepdim=True),
            paddle.argmax(x), paddle.argmax(x, axis=2, dtype="int32"),
            out("arg_max", {"X": x}, {"axis": 0, "flatten": True, "keepdims": True}, dtype="int64"),
            out("arg_min", {"X": x}, {"axis": 1, "dtype": -1}, dtype="int64"),
            *paddle.topk(x, 3), *paddle.topk(x, 2, axis=1), *paddle.topk(x, const(2), axis=0),
            *raw("top_k", {"X": x}, {"Out": 1, "Indices": 1}, {"k": 4}).values(),
            *raw("top_k", {"X": x, "K": const(2)}, {"Out": 1, "Indices": 1}, {"k": 1}).values()]


@case
def range_cumsum_where():
    x = data("x", [None, 3, 4])
    n = data("n", [1], "int64")
    c = data("c", [None, 3, 4], "bool")
    return [paddle.arange(0, 10, 3), paddle.arange(5.0), paddle.arange(0, n, 1),
            paddle.arange(2, 11, 2, "float32"), paddle.linspace(0, 1, 7),
            paddle.linspace(0.0, 1.0, paddle.full([1], 4, "int32")),
            paddle.cumsum(x), paddle.cumsum(x, axis=1), paddle.cumsum(x, -1, "float64"),
            paddle.where(c, x, x * 2), paddle.nonzero(c)]


@case
def one_hot_sum_random():
    lbl = data("lbl", [None, 1], "int64")
    ids = data("ids", [None, 4], "int64")
    a, b = data("a", [None, 3]), data("b", [None, 3])
    s = data("s", [])
    n = const(5)
    return [out("one_hot_v2", {"X": lbl}, {"depth": 10}),
            out("one_hot_v2", {"X": lbl, "depth_tensor": n}, {"depth": 1}),
            paddle.nn.functional.one_hot(ids, 7), paddle.nn.functional.one_hot(ids, n),
            paddle.add_n([a, b, a]), paddle.add_n([s, s]),
            paddle.uniform([2, 3]), paddle.uniform([n, 3]), paddle.randn([n, 3]),
            paddle.normal(shape=[4]), paddle.randint(0, 10, [n, 3]),
            paddle.randint(0, 10, [2, 2], "int32"),
            out("truncated_gaussian_random", {}, {"shape": [3, 2], "std": 0.5}),
            out("uniform_random", {"ShapeTensor": paddle.full([2], 3, "int64")},
                {"shape": [], "dtype": 6}),
            paddle.increment(paddle.full([1], 0, "int64"))]


@case
def getitem_api():
    """Python indexing as real models write it."""
    x = data("x", [None, 6, 5])
    i = data("i", [2], "int64")
    return [x[:, None], x[..., None, 1:], x[:, [0, 2]], x[:, i], x[x > 0], x[0, :, -1],
            x[:, 1:-1:2, ::-1], paddle.chunk(x, 3, axis=1)[2], x.reshape([-1] + list(x.shape[1:])),
            paddle.shape(x)[1:], x[-1]]


@case
def edge_cases():
    """0-D and zero-size tensors, tensor-valued squeeze axes, unknown dims."""
    x = data("x", [None, 1, 3, 1])
    s = data("s", [])
    z, o = data("z", [0, 3]), data("o", [1, 3])
    ax = const(1, "int64")
    return [paddle.squeeze(x, ax), paddle.squeeze(x, [ax, 3]), paddle.add(z, o), paddle.add(z, z),
            paddle.add(data("zz", [2, 0, 3]), data("z1", [1, 1, 3])), paddle.argmax(s),
            paddle.argmax(x, keepdim=True), paddle.topk(s, 1)[0], paddle.reshape(z, [-1, 3]),
            paddle.sum(s), paddle.mean(s, axis=0), paddle.sum(s, keepdim=True),
            paddle.concat([data("c1", [None, None]), data("c2", [None, 4])], 0),
            paddle.stack([s, s]), paddle.add_n([z, o]), paddle.cumsum(s),
            paddle.gather(data("g", [5]), data("gi", [], "int64")), paddle.unsqueeze(s, [0, 0]),
            paddle.flatten(s), paddle.matmul(data("m1", [None, None, 3]), data("m2", [3, None])),
            paddle.cumsum(data("u", [None, None, 3]))]


# ------------------------------------------------------- jit.save with batch
class _Block(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(12, 8)

    def forward(self, x):
        n = paddle.shape(x)[0]
        h = paddle.reshape(x, [n, 3, 4]).transpose([0, 2, 1])
        h = paddle.flatten(h, 1).unsqueeze(1).squeeze(1)
        h = self.fc(h)
        a, b = paddle.split(h, 2, axis=-1)
        h = paddle.concat([b, a], -1)[:, 1:7]
        m = (h > 0).astype("float32")
        idx = paddle.argmax(h, -1)
        s = paddle.stack([h.sum(-1), h.mean(-1)], axis=1)
        v, i = paddle.topk(h, 2)
        return h * m, idx, s, v, i, paddle.cumsum(h, 1), paddle.tile(s, [1, 2])


def _jit_save(make_layer, specs, path):
    paddle.disable_static()
    try:
        fn = paddle.jit.to_static(make_layer(), input_spec=specs)
        paddle.jit.save(fn, path)
    finally:
        paddle.enable_static()


def jit_block(path):
    _jit_save(_Block, [InputSpec([None, 12], "float32", "x")], path)


def jit_matmul(path):
    class M(paddle.nn.Layer):
        def forward(self, x, y):
            z = paddle.matmul(x, y, transpose_y=True)
            w = paddle.expand(z[:, :1], [-1, 3, 4])
            return z.max(axis=-1, keepdim=True), w, paddle.where(w > 0, w, -w), z[..., -1]

    _jit_save(M, [InputSpec([None, 5, 3], "float32", "x"),
                    InputSpec([4, 3], "float32", "y")], path)


JIT = {"jit_block": jit_block, "jit_matmul": jit_matmul}


def save_case(name, outdir):
    path = os.path.join(outdir, name, "model")
    if name in JIT:
        JIT[name](path)
        return
    del _feeds[:]
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        fetches = CASES[name]()
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        paddle.static.save_inference_model(path, list(_feeds), fetches, exe, program=main)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    outdir = sys.argv[1]
    names = sys.argv[2:] or list(CASES) + list(JIT)
    for name in names:
        save_case(name, outdir)


if __name__ == "__main__":
    main()

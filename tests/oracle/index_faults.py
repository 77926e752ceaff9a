#!/usr/bin/env python3
"""Gathers with fed indices (tests/test_index_faults.py): gather (axis 0 and
1), index_select, paddle.nn.functional.embedding (lookup_table_v2, with a
padding_idx), gather_nd, one_hot, index_sample, take_along_axis,
put_along_axis, scatter, index_add and scatter_nd_add, saved with Paddle's outputs on indices inside the tensors; the
test then feeds indices outside them, which stop Paddle (or make it read or
write outside the tensor) and must stop the compiled program; and hard
labels of the cross-entropy ops outside the classes.

    python index_faults.py OUTDIR [CASE ...]

Feeds: `x` float32 [batch 2, 5] standard normal; `idx` int64 [3] in [0, 2)
(rows of x; columns too); `ids` int64 [batch, 4] in [0, 6) (rows of a
[6, 3] table; 0 is the padding row); `nd` int64 [3, 2] in [0, 2); `oh`
int64 [batch, 3] in [0, 4) (one_hot depth 4); `cols` int64 [batch, 2] in
[0, 5) (index_sample on x's columns), `ta` the same for take_along_axis;
`rows` int64 [2] (scatter into the rows of a [2, 5] parameter: 1, 0);
`ia` int64 [3] in [0, 5) (index_add into its columns); `snd` int64 [2, 1]
in [0, 2) (scatter_nd_add into its rows); `pa` int64 [2, 1] in [0, 5)
(put_along_axis into its columns);
`logits` float32 [batch, 4], `lab` int64 [batch, 1] in [0, 4)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import run_static_cases, case_registry  # noqa: E402

import paddle  # noqa: E402

CASES, case = case_registry()


@case
def gathers():
    x = paddle.static.data("x", [None, 5], "float32")
    idx = paddle.static.data("idx", [3], "int64")
    ids = paddle.static.data("ids", [None, 4], "int64")
    nd = paddle.static.data("nd", [3, 2], "int64")
    table = paddle.create_parameter([6, 3], "float32")
    grid = paddle.create_parameter([2, 5], "float32")
    oh = paddle.static.data("oh", [None, 3], "int64")
    cols = paddle.static.data("cols", [None, 2], "int64")
    rows = paddle.static.data("rows", [2], "int64")
    ta = paddle.static.data("ta", [None, 2], "int64")
    ia = paddle.static.data("ia", [3], "int64")
    snd = paddle.static.data("snd", [2, 1], "int64")
    pa = paddle.static.data("pa", [2, 1], "int64")
    outs = [paddle.gather(x, idx, axis=0), paddle.gather(x, idx, axis=1), paddle.index_select(x, idx, axis=1),
            paddle.nn.functional.embedding(ids, table, padding_idx=0), paddle.gather_nd(x, nd),
            paddle.nn.functional.one_hot(oh, 4), paddle.index_sample(x, cols), paddle.take_along_axis(x, ta, 1),
            paddle.scatter(grid, rows, grid * 2.0 + 1.0),
            paddle.index_add(grid, ia, 1, paddle.ones([2, 3], "float32")),
            paddle.scatter_nd_add(grid, snd, paddle.ones([2, 5], "float32")),
            paddle.put_along_axis(grid, pa, paddle.full([2, 1], 7.0, "float32"), 1)]
    return [x, idx, ids, nd, oh, cols, rows, ta, ia, snd, pa], [o + 0.0 for o in outs]


@case
def labels():
    """Hard labels: softmax_with_cross_entropy (paddle.nn.functional.
    cross_entropy, ignore_index -100) and fluid's cross_entropy2 on its
    softmax."""
    logits = paddle.static.data("logits", [None, 4], "float32")
    lab = paddle.static.data("lab", [None, 1], "int64")
    ce = paddle.nn.functional.cross_entropy(logits, lab, reduction="none")
    block = paddle.static.default_main_program().current_block()
    y, mx = (block.create_var(name=n, dtype="float32", shape=[-1, 1]) for n in ("ce2_y", "ce2_match_x"))
    xshape = block.create_var(name="ce2_xshape", dtype="float32", shape=[0, -1, 4])
    block.append_op(type="cross_entropy2", inputs={"X": [paddle.nn.functional.softmax(logits)], "Label": [lab]},
                    outputs={"Y": [y], "MatchX": [mx], "XShape": [xshape]}, attrs={"ignore_index": -100})
    return [logits, lab], [ce + 0.0, y + 0.0]


def make_input(v, rng):
    shape = [2 if d in (None, -1) else d for d in v.shape]
    if v.name == "ids":
        return rng.integers(0, 6, shape).astype("int64")
    if v.name in ("idx", "nd", "snd"):
        return rng.integers(0, 2, shape).astype("int64")
    if v.name in ("oh", "cols", "ta", "ia", "pa"):
        return rng.integers(0, 4 if v.name == "oh" else 5, shape).astype("int64")
    if v.name == "lab":
        return rng.integers(0, 4, shape).astype("int64")
    if v.name == "rows":
        return np.array([1, 0], "int64")
    return rng.standard_normal(shape).astype("float32")


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

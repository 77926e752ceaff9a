#!/usr/bin/env python3
"""Tensor-array programs paddlec refuses, or stops at run time
(tests/test_arrays.py): an array written in a loop whose trip count only
the data knows, an array written inside a branch, an array read at an
index that is fed, and select_output / select_input with a fed mask.  Saved with Paddle's outputs like the e2e families.

    python arrays_refused.py OUTDIR [CASE ...]"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import run_static_cases, case_registry  # noqa: E402

import paddle  # noqa: E402
from paddle.tensor.manipulation import tensor_array_to_tensor  # noqa: E402

CASES, case = case_registry()


@case
def loop_until_data():
    x = paddle.static.data("x", [None, 3], "float32")
    i = paddle.full([1], 0, "int64")
    arr = paddle.tensor.create_array("float32")

    def body(i, h):
        paddle.tensor.array_write(h, i, arr)
        return [i + 1, h * 2.0]

    paddle.static.nn.while_loop(lambda i, h: paddle.sum(paddle.abs(h)) < 100.0, body, [i, paddle.abs(x) + 1.0])
    return [x], [tensor_array_to_tensor(arr, axis=0)[0]]


@case
def write_in_branch():
    x = paddle.static.data("x", [None, 3], "float32")
    i = paddle.full([1], 0, "int64")
    arr = paddle.tensor.create_array("float32")
    paddle.tensor.array_write(x, i, arr)

    def more():
        paddle.tensor.array_write(x * 2.0, i + 1, arr)
        return x

    paddle.static.nn.cond(paddle.mean(x) > 0.0, more, lambda: x)
    return [x], [tensor_array_to_tensor(arr, axis=0)[0]]


@case
def read_fed_index():
    x = paddle.static.data("x", [None, 3], "float32")
    k = paddle.static.data("k", [1], "int64")
    i = paddle.full([1], 0, "int64")
    arr = paddle.tensor.create_array("float32")
    paddle.tensor.array_write(x, i, arr)
    paddle.tensor.array_write(x * 2.0 + 1.0, i + 1, arr)
    # x[k] as paddle.nn.RNN's loop writes it: a slice whose bounds are tensors, its axis dropped
    block = paddle.static.default_main_program().current_block()
    row = block.create_var(name="row_k", dtype="float32", shape=[3])
    block.append_op(type="slice", inputs={"Input": [x], "StartsTensorList": [k], "EndsTensorList": [k + 1]},
                    outputs={"Out": [row]},
                    attrs={"axes": [0], "starts": [-1], "ends": [-1], "infer_flags": [-1], "decrease_axis": [0]})
    return [x, k], [paddle.tensor.array_read(arr, k) + 0.0, row + 0.0]


@case
def select_output_fed_mask():
    """select_output (X into the output Mask picks) with the mask fed."""
    from paddle.static.nn.control_flow import select_output as sel_out
    x = paddle.static.data("x", [None, 3], "float32")
    mask = paddle.static.data("mask", [1], "int32")
    block = paddle.static.default_main_program().current_block()
    outs = [block.create_var(name=f"branch_{i}", dtype="float32", shape=[-1, 3]) for i in range(2)]
    for o in outs:
        paddle.assign(x * 0.0 + 5.0, o)
    sel_out(x * 2.0, outs, mask)
    return [x, mask], [o + 0.0 for o in outs]


@case
def select_input_fed_mask():
    """select_input (the branch result Mask picks) with the mask fed."""
    from paddle.static.nn.control_flow import select_input as sel_in
    x = paddle.static.data("x", [None, 3], "float32")
    mask = paddle.static.data("mask", [1], "int32")
    return [x, mask], [sel_in([x * 2.0, x - 1.0], mask) + 0.0]


@case
def gather_tree_fed():
    """gather_tree with Ids and Parents fed ([steps 4, batch 2, beam 3])."""
    ids = paddle.static.data("ids", [4, 2, 3], "int64")
    parents = paddle.static.data("parents", [4, 2, 3], "int64")
    return [ids, parents], [paddle.nn.functional.gather_tree(ids, parents) + 0]


def make_input(v, rng):
    if v.name == "k":
        return np.array([1], dtype="int64")
    if v.name == "mask":
        return np.array([1], dtype="int32")
    if v.name in ("ids", "parents"):  # token ids; parents: beams in [0, 3)
        return rng.integers(0, 10 if v.name == "ids" else 3, v.shape).astype("int64")
    return rng.standard_normal([2 if d in (None, -1) else d for d in v.shape]).astype("float32")


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

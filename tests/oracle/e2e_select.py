#!/usr/bin/env python3
"""Op-level end-to-end cases for the selections whose output size depends
on the data: where_index (paddle.nonzero) of every dtype Paddle's CPU
kernel takes but bfloat16 (NaN counts as non-zero, -0.0 does not),
masked_select with Mask and X broadcast either way (Paddle 2.6 repeats both)
and of each dtype, and unique (every output, int32 and int64 indices, no
axis and each axis, equal slices, -0.0 beside 0.0; fluid's unsorted
unique with NaN), and unique_consecutive (no axis and along one).  The count each keeps is a run-time extent: outputs are
compared with Paddle's shape as well as values, none selected included.

    python e2e_select.py OUTDIR [CASE ...]

Feeds named `dup*` hold small integers (as floats: with -0.0 among the
zeros), `sparse*` mostly zeros, with NaN, -0.0 and infinities
among them; `mask*` are bool with about half true, `none*` all false;
integer inputs are in [-2, 3) (zeros among them).  Batch 2, the batch dim
None in the first feed.  tests/oracle/oracle_case.py saves each case with
Paddle's reference outputs."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, run_static_cases, case_registry  # noqa: E402

import paddle  # noqa: E402

BATCH = 2
CASES, case = case_registry()


def data(name, shape, dtype="float32"):
    return paddle.static.data(name, shape, dtype)


@case
def nonzero():
    b = data("mask_b", [None, 3, 4], "bool")
    f = data("sparse_f", [None, 7])
    d = data("sparse_d", [5], "float64")
    i16 = data("i16", [None, 2, 3], "int16")
    i32 = data("i32", [6], "int32")
    i64 = data("i64", [None, 3], "int64")
    outs = [paddle.nonzero(v) for v in (b, f, d, i16, i32, i64)]
    return [b, f, d, i16, i32, i64], outs


@case
def nonzero_none():
    z = data("none_z", [None, 4], "bool")
    return [z], [paddle.nonzero(z)]


@case
def masked_select():
    x = data("x", [None, 3, 4])
    m = data("mask_m", [None, 3, 4], "bool")
    mr = data("mask_row", [3, 1], "bool")     # broadcast along the last dim
    ml = data("mask_last", [4], "bool")       # broadcast over the leading dims
    y = data("y", [3, 1], "float64")          # X broadcast to the mask's [3, 5]
    my = data("mask_y", [3, 5], "bool")
    z = data("z", [3, 4])
    big = data("mask_big", [2, 3, 4], "bool")  # the mask has more dims than X
    outs = [paddle.masked_select(x, m), paddle.masked_select(x, mr), paddle.masked_select(x, ml),
            paddle.masked_select(y, my), paddle.masked_select(z, big)]
    return [x, m, mr, ml, y, my, z, big], outs


@case
def masked_select_int():
    i = data("i32", [None, 5], "int32")
    j = data("i64", [None, 5], "int64")
    m = data("mask_m", [None, 5], "bool")
    z = data("none_z", [None, 5], "bool")
    return [i, j, m, z], [paddle.masked_select(i, m), paddle.masked_select(j, m), paddle.masked_select(i, z)]


@case
def selected_then_elementwise():
    """Element-wise ops after a count known at run time take it on: relu,
    exp, a scale that is not the identity, a chain of tanh and sigmoid, an
    integer scale of nonzero's indices, the exp of int32 (float32 Out),
    none selected, and casts (nonzero's int64 to float32, float32 to
    int32)."""
    x = data("x", [None, 3, 4])
    m = data("mask_m", [None, 3, 4], "bool")
    z = data("none_z", [None, 3, 4], "bool")
    i = data("i32", [None, 3, 4], "int32")
    y = paddle.masked_select(x, m)
    outs = [paddle.nn.functional.relu(y), paddle.exp(y), y * 2.5 - 1.0,
            paddle.nn.functional.sigmoid(paddle.tanh(y)), paddle.nonzero(m) * 3,
            paddle.exp(paddle.masked_select(i, m)), paddle.abs(paddle.masked_select(x, z)),
            paddle.nonzero(m).astype("float32"), (y * 3).astype("int32")]
    return [x, m, z, i], outs


@case
def nonzero_then_gather_nd():
    """The rows nonzero finds, gathered: gather_nd's Out has as many rows as
    Index (whole elements, and rows of X by leading indices), then a relu
    and a cast of them; none found."""
    x = data("x", [None, 3, 4])
    m = data("mask_m", [None, 3, 4], "bool")
    mr = data("mask_row", [None, 3], "bool")
    z = data("none_z", [None, 3, 4], "bool")
    g = paddle.gather_nd(x, paddle.nonzero(m))
    rows = paddle.gather_nd(x, paddle.nonzero(mr))
    outs = [g, rows, paddle.nn.functional.relu(rows).astype("float64"), paddle.gather_nd(x, paddle.nonzero(z))]
    return [x, m, mr, z], outs


@case
def unique():
    f = data("dup_f", [None, 9])
    i = data("i32", [None, 7], "int32")
    d = data("dup_d", [11], "float64")
    outs = list(paddle.unique(f, return_index=True, return_inverse=True, return_counts=True))
    outs += list(paddle.unique(i, return_index=True, return_inverse=True, return_counts=True, dtype="int32"))
    outs += [paddle.unique(d)]
    outs += list(paddle.unique(d, return_counts=True))
    return [f, i, d], outs


@case
def unique_axis():
    r = data("dup_rows", [None, 6, 3])          # slices along 1 repeat
    j = data("i64", [5, 2], "int64")
    w = data("dup_wide", [3, 20])               # 20 slices along -1: no Indices
    outs = list(paddle.unique(r, return_index=True, return_inverse=True, return_counts=True, axis=1))
    outs += list(paddle.unique(r, return_inverse=True, return_counts=True, axis=0))  # batch slices: no Indices
    outs += list(paddle.unique(j, return_index=True, return_inverse=True, return_counts=True, axis=0, dtype="int32"))
    outs += list(paddle.unique(w, return_inverse=True, return_counts=True, axis=-1))
    outs += list(paddle.unique(r, return_index=True, return_inverse=True, axis=2))
    return [r, j, w], outs


@case
def unique_consecutive():
    f = data("dup_f", [None, 9])
    r = data("dup_rows", [None, 6, 3])
    x = data("sparse_x", [12])                  # NaN equals nothing
    outs = list(paddle.unique_consecutive(f, return_inverse=True, return_counts=True))
    outs += list(paddle.unique_consecutive(r, return_inverse=True, return_counts=True, axis=1, dtype="int32"))
    outs += list(paddle.unique_consecutive(r, return_counts=True, axis=2))
    outs += [paddle.unique_consecutive(x)]
    return [f, r, x], outs


@case
def unique_unsorted():
    """fluid's unique (is_sorted false): the order first seen, NaN each its own."""
    x = data("sparse_x", [12])
    n = data("i64", [8], "int64")
    return [x, n], (op("unique", {"X": [x]}, {"Out": ["float32"], "Index": ["int32"]}, {"dtype": 2})
                    + op("unique", {"X": [n]}, {"Out": ["int64"], "Index": ["int64"]}, {"dtype": 3}))


def make_input(v, rng):
    shape = [BATCH if d in (None, -1) else d for d in v.shape]
    dt = str(v.dtype).replace("paddle.", "")
    if v.name.startswith("none"):
        return np.zeros(shape, bool)
    if v.name.startswith("mask"):
        return rng.random(shape) < 0.5
    if "int" in dt:
        return rng.integers(-2, 3, size=shape).astype(dt)
    if v.name.startswith("dup"):
        x = rng.integers(-1, 3, size=shape).astype(dt)
        x.reshape(-1)[:2] = [-0.0, 0.0]
        if v.name == "dup_rows":  # slices along dim 1 that repeat
            x[:, 3:] = x[:, :3]
        return x
    if v.name.startswith("sparse"):
        x = np.where(rng.random(shape) < 0.6, 0.0, rng.standard_normal(shape))
        flat = x.reshape(-1)
        flat[:4] = [np.nan, -0.0, np.inf, 0.0]
        return x.astype(dt)
    return rng.standard_normal(shape).astype(dt)


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

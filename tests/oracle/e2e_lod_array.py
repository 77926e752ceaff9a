#!/usr/bin/env python3
"""Op-level end-to-end cases for tensor arrays of LoD tensors read back
with read_from_array in block 0: each element keeps its rows and its LoD
(Paddle's read_from_array copies the element and sets Out's LoD to the
element's), whatever the other elements hold.

    python e2e_lod_array.py OUTDIR [CASE ...]

The case's dir holds lod.json and output_<i>.lod.json as
tests/test_e2e.py's run_binary reads them."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op, case_registry, run_lod_cases  # noqa: E402

import paddle  # noqa: E402

CASES, case = case_registry()
DATA, LODS = {}, {}


def full(t):
    return paddle.full([1], t, "int64")


# ---------------------------------------------------------------- cases
rng = np.random.default_rng(0)
DATA["read_back"] = {"x": rng.uniform(-1, 1, (5, 3)).astype("float32"),
                     "y": rng.uniform(-1, 1, (5, 3)).astype("float32")}
LODS["read_back"] = {"x": [0, 2, 5], "y": [0, 1, 2, 2, 5]}


@case
def read_back():
    """x (2 sequences) at 0, y (4 sequences, one empty) at 1: element 1
    read back is pooled by y's LoD, element 0 read back fetched with x's
    LoD, and a second write (2 x) over element 1 read again, pooled by x's
    LoD.  (The feeds share the batch: elements of different rows are the
    decoder cases'.)"""
    x = paddle.static.data("x", [None, 3], "float32", lod_level=1)
    y = paddle.static.data("y", [None, 3], "float32", lod_level=1)
    arr = paddle.tensor.create_array("float32")
    paddle.tensor.array_write(x, full(0), arr)
    paddle.tensor.array_write(y, full(1), arr)
    r1 = paddle.tensor.array_read(arr, full(1))
    r0 = paddle.tensor.array_read(arr, full(0))
    pooled = paddle.static.nn.sequence_pool(r1, "sum")
    paddle.tensor.array_write(paddle.scale(x, 2.0), full(1), arr)
    again = paddle.static.nn.sequence_pool(paddle.tensor.array_read(arr, full(1)), "max")
    return [x, y], [pooled, r0, again]


END = 0


def mul(x, y):
    """The 1.x mul op, which carries x's LoD (ShareLoD)."""
    return append_op("mul", {"X": [x], "Y": [y]}, {"Out": ["float32"]}, {"x_num_col_dims": 1, "y_num_col_dims": 1})[0]


def decoder_data(name, sources, steps, width, seed, ends=None):
    r = np.random.default_rng(seed)
    u = r.uniform(-1.0, 1.0, (steps, width)).astype("float32")
    for t, gain in (ends or {}).items():
        u[t, 0] += gain
    DATA[name] = {"init_ids": r.integers(1, width, (sources, 1)).astype("int64"),
                  "init_scores": r.uniform(-1.0, 0.0, (sources, 1)).astype("float32"),
                  "w": r.uniform(1.0, 2.0, (steps, width)).astype("float32"), "u": u}
    lod = [list(range(sources + 1)), list(range(sources + 1))]
    LODS[name] = {"init_ids": lod, "init_scores": lod}


def decoder(steps, width, beam_size):
    """The 1.x decoder unrolled in block 0, each step reading its prefixes
    back from the arrays (as the while loop's body does): pre_ids and
    pre_scores = array_read(ids / scores, t), each carrying the LoD of two
    levels beam_search made (or the feeds' at t = 0)."""
    init_ids = paddle.static.data("init_ids", [None, 1], "int64", lod_level=2)
    init_scores = paddle.static.data("init_scores", [None, 1], "float32", lod_level=2)
    w = paddle.static.data("w", [steps, width], "float32")
    u = paddle.static.data("u", [steps, width], "float32")
    ids_arr = paddle.tensor.create_array("int64")
    scores_arr = paddle.tensor.create_array("float32")
    paddle.tensor.array_write(init_ids, full(0), ids_arr)
    paddle.tensor.array_write(init_scores, full(0), scores_arr)
    for t in range(steps):
        pre_ids = paddle.tensor.array_read(ids_arr, full(t))
        pre_scores = paddle.tensor.array_read(scores_arr, full(t))
        wt = paddle.slice(w, [0], [t], [t + 1])
        ut = paddle.slice(u, [0], [t], [t + 1])
        scores = paddle.add(mul(pre_scores, wt), mul(paddle.cast(pre_ids, "float32"), ut))
        sel_ids, sel_scores, _ = append_op(
            "beam_search", {"pre_ids": [pre_ids], "pre_scores": [pre_scores], "scores": [scores]},
            {"selected_ids": ["int64"], "selected_scores": ["float32"], "parent_idx": ["int32"]},
            {"level": 0, "beam_size": beam_size, "end_id": END, "is_accumulated": True})
        paddle.tensor.array_write(sel_ids, full(t + 1), ids_arr)
        paddle.tensor.array_write(sel_scores, full(t + 1), scores_arr)
    last = paddle.tensor.array_read(ids_arr, full(steps))
    sent_ids, sent_scores = append_op("beam_search_decode", {"Ids": [ids_arr], "Scores": [scores_arr]},
                                      {"SentenceIds": ["int64"], "SentenceScores": ["float32"]},
                                      {"beam_size": beam_size, "end_id": END})
    return [init_ids, init_scores, w, u], [sent_ids, sent_scores, last]


decoder_data("decoder_reads", 2, 3, 4, seed=0)


@case
def decoder_reads():
    """Two sources, beam 2, three steps; the last step's selected_ids read
    back and fetched with their LoD of two levels."""
    return decoder(3, 4, 2)


decoder_data("decoder_ends", 3, 4, 5, seed=1, ends={1: 3.0})


@case
def decoder_ends():
    """Three sources, beam 3, four steps, END gaining at step 1: prefixes
    end and sources are pruned, so the elements read back differ in rows
    and LoD from step to step."""
    return decoder(4, 5, 3)


if __name__ == "__main__":
    run_lod_cases(sys.argv, CASES, DATA, lambda name: LODS[name])

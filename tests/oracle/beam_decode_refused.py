#!/usr/bin/env python3
"""Programs over tensor arrays of LoD tensors that paddlec refuses
(tests/test_beam_decode.py): beam_search_decode over ids whose LoD has
one level or over int64 scores, tensor_array_to_tensor of an array of
LoD tensors, an array that mixes LoD tensors with plain ones or LoDs of
one level and two, one whose elements' rows grow apart with the batch,
a loop's var whose LoD depends on the trip, and sequence_expand by level
0 of two.  Saved
without a run (Paddle's kernels stop on some of them too).

    python beam_decode_refused.py OUTDIR [CASE ...]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op, build_static_case, case_registry  # noqa: E402

import paddle  # noqa: E402
from paddle.tensor.manipulation import tensor_array_to_tensor  # noqa: E402

CASES, case = case_registry()


def write(x, t, arr):
    paddle.tensor.array_write(x, paddle.full([1], t, "int64"), arr)


def decode(ids_arr, scores_arr, score_dtype="float32"):
    return append_op("beam_search_decode", {"Ids": [ids_arr], "Scores": [scores_arr]},
                     {"SentenceIds": ["int64"], "SentenceScores": [score_dtype]}, {"beam_size": 2, "end_id": 0})


@case
def ids_one_level():
    """Ids' element carries a LoD of one level (Paddle's kernel checks for
    two)."""
    ids = paddle.static.data("ids", [None, 1], "int64", lod_level=1)
    scores = paddle.static.data("scores", [None, 1], "float32", lod_level=1)
    ids_arr, scores_arr = paddle.tensor.create_array("int64"), paddle.tensor.create_array("float32")
    write(ids, 0, ids_arr)
    write(scores, 0, scores_arr)
    return [ids, scores], decode(ids_arr, scores_arr)


@case
def int_scores():
    """Scores holds int64 tensors."""
    ids = paddle.static.data("ids", [None, 1], "int64", lod_level=2)
    scores = paddle.static.data("scores", [None, 1], "int64", lod_level=2)
    ids_arr, scores_arr = paddle.tensor.create_array("int64"), paddle.tensor.create_array("int64")
    write(ids, 0, ids_arr)
    write(scores, 0, scores_arr)
    return [ids, scores], decode(ids_arr, scores_arr, "int64")


@case
def join_lod_array():
    """tensor_array_to_tensor of an array of LoD tensors."""
    x = paddle.static.data("x", [None, 3], "float32", lod_level=1)
    arr = paddle.tensor.create_array("float32")
    write(x, 0, arr)
    return [x], [tensor_array_to_tensor(arr, axis=0)[0]]


@case
def levels_apart():
    """A LoD tensor of one level, then one of two, written into one array
    and read back."""
    x = paddle.static.data("x", [None, 3], "float32", lod_level=1)
    y = paddle.static.data("y", [None, 3], "float32", lod_level=2)
    arr = paddle.tensor.create_array("float32")
    write(x, 0, arr)
    write(y, 1, arr)
    return [x, y], [paddle.tensor.array_read(arr, paddle.full([1], 1, "int64")) * 2.0]


@case
def loop_var_lod():
    """A while loop's var that carries a LoD: x's before the loop, y's
    after a trip (y + 0 r: element-wise ops give Out X's LoD), so which
    one a reader sees depends on the trip (none: x's)."""
    x = paddle.static.data("x", [None, 3], "float32", lod_level=1)
    y = paddle.static.data("y", [None, 3], "float32", lod_level=1)
    n = paddle.full([1], 1, "int64")

    def body(i, r):
        return [i + 1, paddle.add(y, r * 0.0)]

    _, r = paddle.static.nn.while_loop(lambda i, r: i < n, body, [paddle.full([1], 0, "int64"), x * 1.0])
    return [x, y], [paddle.static.nn.sequence_pool(r, "sum")]


@case
def mixed():
    """A plain tensor, then a LoD tensor written into one array."""
    x = paddle.static.data("x", [None, 3], "float32", lod_level=1)
    y = paddle.static.data("y", [None, 3], "float32")
    arr = paddle.tensor.create_array("float32")
    write(y, 0, arr)
    write(x, 1, arr)
    return [x, y], [tensor_array_to_tensor(arr, axis=0)[0]]


@case
def rows_apart():
    """A LoD tensor of the batch's rows and one of 8 fixed rows written into
    one array: the most rows is 8 at the batches the compiler probes (1 to
    8), not past them."""
    x = paddle.static.data("x", [None, 1], "int64", lod_level=2)
    y = paddle.static.data("y", [8, 1], "int64", lod_level=2)
    s = paddle.static.data("s", [None, 1], "float32", lod_level=2)
    ids_arr, scores_arr = paddle.tensor.create_array("int64"), paddle.tensor.create_array("float32")
    write(x, 0, ids_arr)
    write(y, 1, ids_arr)
    write(s, 0, scores_arr)
    write(s, 1, scores_arr)
    return [x, y, s], decode(ids_arr, scores_arr)


@case
def expand_ref_level_0():
    """sequence_expand of a plain state by level 0 of a two-level LoD (the
    decoder's expands by the last level): Out would have a row per
    sequence of level 0, which paddlec does not take."""
    state = paddle.static.data("state", [None, 3], "float32")
    scores = paddle.static.data("scores", [None, 1], "float32", lod_level=2)
    return [state, scores], [paddle.static.nn.sequence_expand(state, scores, ref_level=0)]


def main(argv):
    paddle.enable_static()
    for name in argv[2:] or list(CASES):
        build_static_case(argv[1], name, CASES[name], lambda v, rng: None, run_reference=False)


if __name__ == "__main__":
    main(sys.argv)

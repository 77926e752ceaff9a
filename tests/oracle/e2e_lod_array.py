#!/usr/bin/env python3
"""Op-level end-to-end cases for tensor arrays of LoD tensors read back
with read_from_array, in block 0 and in a while loop's body: each element
keeps its rows and its LoD (Paddle's read_from_array copies the element
and sets Out's LoD to the element's), whatever the other elements hold.
The 1.x decoder, unrolled (decoder_*) and as the while loop 1.x programs
write (loop_*), reads its prefixes back from the arrays each step.

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


DATA["read_back_sequence_ops"] = {"x": rng.uniform(-1, 1, (7, 1)).astype("float32"),
                                  "ids": rng.integers(0, 9, (7, 1)).astype("int64")}
LODS["read_back_sequence_ops"] = {"x": [0, 3, 3, 7], "ids": [0, 2, 7]}


@case
def read_back_sequence_ops():
    """The sequence ops over an element read back (rows and a LoD the run
    gives): sequence_softmax, sequence_reverse and sequence_conv of x's
    double, sequence_enumerate of ids, each with the LoD of its element."""
    x = paddle.static.data("x", [None, 1], "float32", lod_level=1)
    ids = paddle.static.data("ids", [None, 1], "int64", lod_level=1)
    arr, id_arr = paddle.tensor.create_array("float32"), paddle.tensor.create_array("int64")
    paddle.tensor.array_write(x, full(0), arr)
    paddle.tensor.array_write(paddle.scale(x, 2.0), full(1), arr)
    paddle.tensor.array_write(ids, full(0), id_arr)
    r = paddle.tensor.array_read(arr, full(1))
    r_ids = paddle.tensor.array_read(id_arr, full(0))
    return [x, ids], [paddle.static.nn.sequence_lod.sequence_softmax(r),
                      paddle.static.nn.sequence_lod.sequence_reverse(r),
                      paddle.static.nn.sequence_lod.sequence_conv(r, 2, filter_size=3, bias_attr=False),
                      paddle.static.nn.sequence_lod.sequence_enumerate(r_ids, 2, pad_value=-1)]


DATA["loop_doubles"] = {"x": rng.uniform(-1, 1, (6, 3)).astype("float32")}
LODS["loop_doubles"] = {"x": [0, 1, 4, 4, 6]}


@case
def loop_doubles():
    """A while loop (paddle.static.nn.while_loop) whose body reads element
    i back, with its LoD, and writes twice it at i + 1; after three trips
    element 3 (8 x) is pooled by x's LoD and element 2 fetched with it."""
    x = paddle.static.data("x", [None, 3], "float32", lod_level=1)
    arr = paddle.tensor.create_array("float32")
    paddle.tensor.array_write(x, full(0), arr)
    n = paddle.full([1], 3, "int64")

    def body(i):
        r = paddle.tensor.array_read(arr, i)
        paddle.tensor.array_write(r * 2.0, i + 1, arr)
        return [i + 1]

    paddle.static.nn.while_loop(lambda i: i < n, body, [full(0)])
    return [x], [paddle.static.nn.sequence_pool(paddle.tensor.array_read(arr, n), "sum"),
                 paddle.tensor.array_read(arr, full(2))]


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


def decoder_start(steps, width):
    """The decoder's feeds (init_ids, init_scores with a LoD of two levels;
    w, u: each step's multipliers) and its two arrays, element 0 the fed
    prefixes written at index `at`."""
    init_ids = paddle.static.data("init_ids", [None, 1], "int64", lod_level=2)
    init_scores = paddle.static.data("init_scores", [None, 1], "float32", lod_level=2)
    w = paddle.static.data("w", [steps, width], "float32")
    u = paddle.static.data("u", [steps, width], "float32")
    arrays = paddle.tensor.create_array("int64"), paddle.tensor.create_array("float32")
    return [init_ids, init_scores, w, u], arrays


def decoder_step(arrays, t, wt, ut, beam_size, write_at, add_n=False):
    """One step: the prefixes read back from the arrays at t, scored with
    wt and ut (the two terms added by elementwise_add, or by sum with
    add_n: rows of two reads, one at run time), beam_search's kept
    candidates written at write_at (a function giving the index, called
    after the step); selected_ids."""
    pre_ids = paddle.tensor.array_read(arrays[0], t)
    pre_scores = paddle.tensor.array_read(arrays[1], t)
    terms = [mul(pre_scores, wt), mul(paddle.cast(pre_ids, "float32"), ut)]
    scores = paddle.add_n(terms) if add_n else paddle.add(*terms)
    sel_ids, sel_scores, _ = append_op(
        "beam_search", {"pre_ids": [pre_ids], "pre_scores": [pre_scores], "scores": [scores]},
        {"selected_ids": ["int64"], "selected_scores": ["float32"], "parent_idx": ["int32"]},
        {"level": 0, "beam_size": beam_size, "end_id": END, "is_accumulated": True})
    i = write_at()
    paddle.tensor.array_write(sel_ids, i, arrays[0])
    paddle.tensor.array_write(sel_scores, i, arrays[1])
    return sel_ids


def decode(arrays, beam_size):
    return append_op("beam_search_decode", {"Ids": [arrays[0]], "Scores": [arrays[1]]},
                     {"SentenceIds": ["int64"], "SentenceScores": ["float32"]},
                     {"beam_size": beam_size, "end_id": END})


def decoder(steps, width, beam_size):
    """The 1.x decoder unrolled in block 0, each step reading its prefixes
    back from the arrays (as the while loop's body does): pre_ids and
    pre_scores = array_read(ids / scores, t), each carrying the LoD of two
    levels beam_search made (or the feeds' at t = 0)."""
    feeds, arrays = decoder_start(steps, width)
    paddle.tensor.array_write(feeds[0], full(0), arrays[0])
    paddle.tensor.array_write(feeds[1], full(0), arrays[1])
    for t in range(steps):
        wt = paddle.slice(feeds[2], [0], [t], [t + 1])
        ut = paddle.slice(feeds[3], [0], [t], [t + 1])
        decoder_step(arrays, full(t), wt, ut, beam_size, lambda t=t: full(t + 1))
    last = paddle.tensor.array_read(arrays[0], full(steps))
    return feeds, decode(arrays, beam_size) + [last]


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


def decoder_loop(steps, width, beam_size, until_empty=False, add_n=False):
    """The 1.x decoder as Paddle 1.x programs write it: a while loop
    (counter < steps) whose body reads its prefixes back from the arrays,
    scores them with step row `counter` of w and u, keeps beam_size
    candidates a source and writes them at counter + 1; with until_empty
    the loop also ends once a step keeps no candidates (`and not
    is_empty(selected_ids)`, as the 1.x programs write it)."""
    feeds, arrays = decoder_start(steps, width)
    counter = full(0)
    n = full(steps)
    paddle.tensor.array_write(feeds[0], counter, arrays[0])
    paddle.tensor.array_write(feeds[1], counter, arrays[1])
    cond = paddle.less_than(counter, n)
    loop = paddle.static.nn.control_flow.While(cond)
    with loop.block():
        wt = paddle.gather(feeds[2], counter)
        ut = paddle.gather(feeds[3], counter)
        sel_ids = decoder_step(arrays, counter, wt, ut, beam_size, lambda: paddle.increment(counter, 1), add_n)
        more = paddle.less_than(counter, n)
        if until_empty:
            more = paddle.logical_and(more, paddle.logical_not(paddle.is_empty(sel_ids)))
        paddle.assign(more, cond)
    return feeds, decode(arrays, beam_size) + ([counter * 1] if until_empty else [])


decoder_data("loop_two_sources", 2, 3, 4, seed=0)


@case
def loop_two_sources():
    """The decoder loop: two sources, beam 2, three trips."""
    return decoder_loop(3, 4, 2)


decoder_data("loop_ends", 3, 4, 5, seed=1, ends={1: 3.0})


@case
def loop_ends():
    """The decoder loop: three sources, beam 3, four trips, END gaining at
    step 1 (prefixes end, sources are pruned: the elements written on each
    trip differ in rows and LoD)."""
    return decoder_loop(4, 5, 3)


decoder_data("loop_until_empty", 3, 6, 3, seed=5, ends={0: 3.0, 1: 0.3})


@case
def loop_until_empty():
    """The decoder loop ending when a step keeps no candidates (every
    source pruned at step 3 of at most 6): beam 2; the counter fetched
    (the trips run)."""
    return decoder_loop(6, 3, 2, until_empty=True)


decoder_data("loop_add_n", 3, 3, 4, seed=6)


@case
def loop_add_n():
    """The decoder loop scoring with add_n (Paddle's sum op) of the two
    terms: three sources, beam 2, three trips."""
    return decoder_loop(3, 4, 2, add_n=True)


def state_data(name, sources, hidden, vocab, seed):
    r = np.random.default_rng(seed)
    DATA[name] = {"init_state": r.uniform(-1.0, 1.0, (sources, hidden)).astype("float32"),
                  "init_ids": r.integers(1, vocab, (sources, 1)).astype("int64"),
                  "init_scores": r.uniform(-1.0, 0.0, (sources, 1)).astype("float32")}
    lod = [list(range(sources + 1)), list(range(sources + 1))]
    LODS[name] = {"init_ids": lod, "init_scores": lod}


def state_loop(steps, hidden, vocab, beam_size):
    """The whole 1.x decoder (the machine-translation book's
    decoder_decode): a state array beside the ids and scores, its element 0
    the fed init_state (a plain tensor, one row a source), the later ones
    the step's states (rows only the run knows, no LoD); each trip
    sequence_expand(pre_state, pre_score) gives every prefix its source's
    state, an fc of it and the embedded ids (a sum of two products) is the
    new state, lod_reset gives it pre_score's LoD of two levels, a softmax
    fc and topk score the words, and elementwise_add (axis 0) adds the
    prefixes' scores to the log of the topk's; the loop also ends once a
    step keeps no candidates."""
    init_state = paddle.static.data("init_state", [None, hidden], "float32")
    init_ids = paddle.static.data("init_ids", [None, 1], "int64", lod_level=2)
    init_scores = paddle.static.data("init_scores", [None, 1], "float32", lod_level=2)
    counter, n = full(0), full(steps)
    arrays = [paddle.tensor.create_array(t) for t in ("float32", "int64", "float32")]
    for x, a in zip([init_state, init_ids, init_scores], arrays):
        paddle.tensor.array_write(x, counter, a)
    cond = paddle.less_than(counter, n)
    loop = paddle.static.nn.control_flow.While(cond)
    with loop.block():
        pre_state, pre_ids, pre_score = [paddle.tensor.array_read(a, counter) for a in arrays]
        expanded = paddle.static.nn.sequence_expand(pre_state, pre_score)
        emb = paddle.reshape(paddle.static.nn.embedding(pre_ids, [vocab, hidden]), [-1, hidden])
        state = paddle.static.nn.fc([expanded, emb], hidden, activation="tanh")
        with_lod = append_op("lod_reset", {"X": [state], "Y": [pre_score]}, {"Out": ["float32"]},
                             {"append": False})[0]
        probs = paddle.static.nn.fc(with_lod, vocab, activation="softmax")
        top_scores, top_ids = paddle.topk(probs, k=beam_size)
        accu = append_op("elementwise_add", {"X": [paddle.log(top_scores)], "Y": [paddle.reshape(pre_score, [-1])]},
                         {"Out": ["float32"]}, {"axis": 0})[0]
        sel_ids, sel_scores, _ = append_op(
            "beam_search", {"pre_ids": [pre_ids], "pre_scores": [pre_score], "ids": [top_ids], "scores": [accu]},
            {"selected_ids": ["int64"], "selected_scores": ["float32"], "parent_idx": ["int32"]},
            {"level": 0, "beam_size": beam_size, "end_id": END, "is_accumulated": True})
        paddle.increment(counter, 1)
        for x, a in zip([state, sel_ids, sel_scores], arrays):
            paddle.tensor.array_write(x, counter, a)
        more = paddle.logical_and(paddle.less_than(counter, n), paddle.logical_not(paddle.is_empty(sel_ids)))
        paddle.assign(more, cond)
    return [init_state, init_ids, init_scores], decode(arrays[1:], beam_size) + [counter * 1]


state_data("state_two_sources", 2, 4, 6, seed=7)


@case
def state_two_sources():
    """The whole decoder: two sources, beam 2, three trips."""
    return state_loop(3, 4, 6, 2)


state_data("state_three_sources", 3, 5, 5, seed=8)


@case
def state_three_sources():
    """The whole decoder: three sources, beam 3, five trips over a
    vocabulary of 5 (END among the candidates kept: prefixes end)."""
    return state_loop(5, 5, 5, 3)


if __name__ == "__main__":
    run_lod_cases(sys.argv, CASES, DATA, lambda name: LODS[name])

#!/usr/bin/env python3
"""Op-level end-to-end cases for the 1.x `beam_search_decode`: the decoder
loop of Paddle 1.x NLP programs written out step by step in block 0.  Each
step's beam_search keeps candidates over the scores of the step before
(scores = mul(selected_scores, w_t) + mul(cast(selected_ids), u_t), which
carries selected_scores' LoD of two levels; no ids: the column is the id,
END = 0 ends a prefix); each step's selected_ids and selected_scores are
written into two tensor arrays (element 0 the fed init_ids / init_scores,
one row per source), and beam_search_decode walks them back into one
sentence per beam for each source, sorted by score.

    python e2e_beam_decode.py OUTDIR [CASE ...]

Feeds: init_ids, init_scores ([S, 1], a LoD of two levels: S sources of
one prefix each), w and u ([T, W]: step t's multipliers).  The case's dir
holds lod.json and output_<i>.lod.json as tests/test_e2e.py's run_binary
reads them."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op, case_registry, run_lod_cases  # noqa: E402

import paddle  # noqa: E402

END = 0  # end_id of every case
CASES, case = case_registry()
DATA = {}


def data(name, sources, steps, width, seed=0, ends=None):
    """Feeds for a case: `sources` sources of one prefix each, their init
    scores in (-1, 0); w in (1, 2) and u in (-1, 1), [steps, width]; at each
    step of `ends` ({step: gain}) column 0 (END) gains that much in u, so
    that prefixes end there."""
    rng = np.random.default_rng(seed)
    lod = [list(range(sources + 1)), list(range(sources + 1))]
    u = rng.uniform(-1.0, 1.0, (steps, width)).astype("float32")
    for t, gain in (ends or {}).items():
        u[t, 0] += gain
    DATA[name] = {"lod": lod, "init_ids": rng.integers(1, width, (sources, 1)).astype("int64"),
                  "init_scores": rng.uniform(-1.0, 0.0, (sources, 1)).astype("float32"),
                  "w": rng.uniform(1.0, 2.0, (steps, width)).astype("float32"), "u": u}


def mul(x, y):
    """The 1.x mul op, which carries x's LoD (ShareLoD)."""
    return append_op("mul", {"X": [x], "Y": [y]}, {"Out": ["float32"]}, {"x_num_col_dims": 1, "y_num_col_dims": 1})[0]


def decoder(steps, width, beam_size, score_dtype="float32", fetch_steps=False):
    """The unrolled decoder: feeds, [sentence ids, sentence scores] (and
    each step's selected ids with fetch_steps)."""
    init_ids = paddle.static.data("init_ids", [None, 1], "int64", lod_level=2)
    init_scores = paddle.static.data("init_scores", [None, 1], "float32", lod_level=2)
    w = paddle.static.data("w", [max(steps, 1), width], "float32")
    u = paddle.static.data("u", [max(steps, 1), width], "float32")
    ids_arr = paddle.tensor.create_array("int64")
    scores_arr = paddle.tensor.create_array(score_dtype)
    pre_ids, pre_scores = init_ids, init_scores
    kept = []
    for t in range(steps + 1):
        i = paddle.full([1], t, "int64")
        paddle.tensor.array_write(pre_ids, i, ids_arr)
        paddle.tensor.array_write(pre_scores if score_dtype == "float32" else paddle.cast(pre_scores, score_dtype),
                                  i, scores_arr)
        if t == steps:
            break
        wt = paddle.slice(w, [0], [t], [t + 1])
        ut = paddle.slice(u, [0], [t], [t + 1])
        scores = paddle.add(mul(pre_scores, wt), mul(paddle.cast(pre_ids, "float32"), ut))
        pre_ids, pre_scores, _ = append_op(
            "beam_search", {"pre_ids": [pre_ids], "pre_scores": [pre_scores], "scores": [scores]},
            {"selected_ids": ["int64"], "selected_scores": ["float32"], "parent_idx": ["int32"]},
            {"level": 0, "beam_size": beam_size, "end_id": END, "is_accumulated": True})
        kept.append(pre_ids)
    sent_ids, sent_scores = append_op("beam_search_decode", {"Ids": [ids_arr], "Scores": [scores_arr]},
                                      {"SentenceIds": ["int64"], "SentenceScores": [score_dtype]},
                                      {"beam_size": beam_size, "end_id": END})
    return [init_ids, init_scores] + ([w, u] if steps else []), [sent_ids, sent_scores] + (kept if fetch_steps else [])


# ---------------------------------------------------------------- cases
data("two_sources", 2, 3, 4)


@case
def two_sources():
    """Two sources, beam 2, three steps of four candidates."""
    return decoder(3, 4, 2)


data("ends", 3, 4, 5, seed=1, ends={1: 3.0})


@case
def ends():
    """Three sources, beam 3, four steps; END gains at step 1: prefixes end
    there (an ended prefix offers only END after it, the backtrace skips
    the repeated END) and sources whose every kept candidate is END after
    an END prefix are pruned (the backtrace starts them at an earlier
    step).  Each step's selected_ids fetched too."""
    return decoder(4, 5, 3, fetch_steps=True)


data("pruned", 3, 4, 3, seed=5, ends={0: 3.0, 1: 0.3})


@case
def pruned():
    """beam 2, END gains at steps 0 and 1: source 2, whose prefixes have
    all ended, keeps only END after END at step 2 and is pruned (no
    prefixes at step 3), sources 0 and 1 at step 3 (the last step keeps no
    rows); the backtrace starts each source's sentences at the last step
    where it still had candidates.  Each step's selected_ids fetched too."""
    return decoder(4, 3, 2, fetch_steps=True)


data("beam_1", 3, 3, 4, seed=2)


@case
def beam_1():
    """beam 1: one sentence a source (no sort)."""
    return decoder(3, 4, 1)


data("float64", 2, 2, 3, seed=3, ends={0: 3.0})


@case
def float64():
    """Scores written as float64 (cast before the write): SentenceScores is
    float64; beam 2, END gains at the first step."""
    return decoder(2, 3, 2, score_dtype="float64")


data("one_step", 2, 0, 3, seed=4)
del DATA["one_step"]["w"], DATA["one_step"]["u"]


@case
def one_step():
    """No beam_search step: the arrays hold the fed init_ids and
    init_scores only; beam 1 (each source's one row a sentence of one
    token)."""
    return decoder(0, 3, 1)


if __name__ == "__main__":
    run_lod_cases(sys.argv, CASES, DATA, lambda name: {"init_ids": DATA[name]["lod"], "init_scores": DATA[name]["lod"]})

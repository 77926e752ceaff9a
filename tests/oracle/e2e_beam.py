#!/usr/bin/env python3
"""Op-level end-to-end cases for the 1.x `beam_search` step over a scores
feed with a LoD of two levels (level 0: the source sentences, in
prefixes; level 1: the prefixes, in rows) or one: ids given or not
(the column is the id), is_accumulated true and false (pre_score +
log(score)), level 0 and 1, prefixes that ended (end_id) and a source
whose every branch ended (pruned), ties among the scores (Paddle's order:
the higher row first), a prefix of several rows, parent_idx, and the LoD
carried on through scale to a fetch; every source pruned (no rows at
all) and is_empty of what beam_search kept.

    python e2e_beam.py OUTDIR [CASE ...]

Each case's data is DATA[case]: the arrays fed, and scores' LoD (a list
per level, Paddle's offsets); its dir holds lod.json ({feed: [[level 0],
[level 1]]}) and output_<i>.lod.json for each fetch Paddle returns with a
LoD, as tests/test_e2e.py's run_binary reads them."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op, case_registry, run_lod_cases  # noqa: E402

import paddle  # noqa: E402

END = 0  # end_id of every case
CASES, case = case_registry()
DATA = {}


def rows(lod):
    return lod[-1][-1]


def data(name, lod, width, ended=(), probs=False, ties=False, seed=0):
    """Feeds for a case: scores [R, width] over `lod` (accumulated log-probs,
    or probabilities with probs; values from a small set with ties),
    pre_ids in [1, 9) but END at the rows `ended`, pre_scores, ids in
    [0, 9) (END among them)."""
    rng = np.random.default_rng(seed)
    r = rows(lod)
    if ties:
        scores = rng.choice([-1.0, -0.5, -0.25], (r, width)).astype("float32")
    elif probs:
        scores = rng.uniform(0.05, 1.0, (r, width)).astype("float32")
    else:
        scores = rng.uniform(-4.0, 0.0, (r, width)).astype("float32")
    pre_ids = rng.integers(1, 9, (r, 1)).astype("int64")
    pre_ids[list(ended), 0] = END
    DATA[name] = {"lod": lod, "scores": scores, "pre_ids": pre_ids,
                  "pre_scores": rng.uniform(-3.0, 0.0, (r, 1)).astype("float32"),
                  "ids": rng.integers(0, 9, (r, width)).astype("int64")}


def feeds(width, ids=True, levels=2):
    pre_ids = paddle.static.data("pre_ids", [None, 1], "int64")
    pre_scores = paddle.static.data("pre_scores", [None, 1], "float32")
    scores = paddle.static.data("scores", [None, width], "float32", lod_level=levels)
    fed = [pre_ids, pre_scores] + ([paddle.static.data("ids", [None, width], "int64")] if ids else []) + [scores]
    return fed, pre_ids, pre_scores, fed[2] if ids else None, scores


def beam_search(pre_ids, pre_scores, ids, scores, beam_size, level=0, accumulated=True):
    inputs = {"pre_ids": [pre_ids], "pre_scores": [pre_scores], "scores": [scores]}
    if ids is not None:
        inputs["ids"] = [ids]
    return append_op("beam_search", inputs,
                     {"selected_ids": ["int64"], "selected_scores": ["float32"], "parent_idx": ["int32"]},
                     {"level": level, "beam_size": beam_size, "end_id": END, "is_accumulated": accumulated})


# ---------------------------------------------------------------- cases
# two sources: prefixes 0-1 (rows 0-2, prefix 1 of 2 rows) and 2-4 (rows 3-6)
LOD2 = [[0, 2, 5], [0, 1, 3, 4, 5, 7]]
data("two_levels", LOD2, 4, ended=[1])


@case
def two_levels():
    """beam 3 over two sources, ids given, a prefix that ended (row 1 offers
    only END at its pre_score); all three outputs fetched."""
    fed, *ops = feeds(4)
    return fed, beam_search(*ops, 3)


data("no_ids_not_accumulated", LOD2, 5, probs=True, seed=1)


@case
def no_ids_not_accumulated():
    """No ids (the column is the id), is_accumulated false: pre_score +
    log(score); beam 2."""
    fed, *ops = feeds(5, ids=False)
    return fed, beam_search(*ops, 2, accumulated=False)[:2]


data("level_1", [[0, 1, 3], [0, 2, 3, 5]], 3, seed=2)


@case
def level_1():
    """level 1 of a 2-level LoD: each prefix (of 2, 1 and 2 rows) is its own
    source; beam 2."""
    fed, *ops = feeds(3)
    return fed, beam_search(*ops, 2, level=1)


data("one_level", [[0, 3, 3, 6]], 4, ended=[4], seed=3)


@case
def one_level():
    """A LoD of one level (three sources, the middle one empty), beam 4."""
    fed, *ops = feeds(4, levels=1)
    return fed, beam_search(*ops, 4)


data("pruned", [[0, 2, 4], [0, 1, 2, 3, 4]], 3, ended=[2, 3], seed=4)


@case
def pruned():
    """Source 1's prefixes both ended: its kept candidates are all END after
    an END prefix, so Paddle prunes the source (no rows for it); beam 2."""
    fed, *ops = feeds(3)
    return fed, beam_search(*ops, 2)


data("ties", [[0, 3, 6], [0, 1, 2, 3, 4, 5, 6]], 4, ties=True, seed=5)


@case
def ties():
    """Scores from three values: equal scores kept in Paddle's order (the
    higher row first, the later candidate of a row after); beam 5."""
    fed, *ops = feeds(4)
    return fed, beam_search(*ops, 5)


@case
def scaled():
    """selected_scores through scale: the fetch carries the LoD beam_search
    made (ShareLoD)."""
    fed, *ops = feeds(4)
    ids, sc, _ = beam_search(*ops, 3)
    return fed, [ids, paddle.scale(sc, 2.0)]


DATA["scaled"] = DATA["two_levels"]
data("all_ended", [[0, 2, 4], [0, 1, 2, 3, 4]], 3, ended=[0, 1, 2, 3], seed=6)


@case
def all_ended():
    """Every prefix ended: both sources pruned, selected_ids has no rows
    (its LoD all zeros) and is_empty says so, as the 1.x decoder loop asks;
    is_empty of the pre_ids feed is false."""
    fed, *ops = feeds(3)
    ids, sc, _ = beam_search(*ops, 2)
    return fed, [ids, sc, paddle.is_empty(ids), paddle.is_empty(ops[0])]


@case
def not_empty():
    """is_empty of selected_ids that has rows: false."""
    fed, *ops = feeds(4)
    return fed, [paddle.is_empty(beam_search(*ops, 3)[0])]


DATA["not_empty"] = DATA["two_levels"]


@case
def fixed_prefixes():
    """pre_ids and pre_scores declared with their 7 rows, scores with the
    batch: at batch 7 as two_levels (the driver takes the batch from ids,
    the first input whose dim 0 follows it; a run with more rows of scores
    stops, tests/test_runtime_extent.py)."""
    pre_ids = paddle.static.data("pre_ids", [7, 1], "int64")
    pre_scores = paddle.static.data("pre_scores", [7, 1], "float32")
    ids = paddle.static.data("ids", [None, 4], "int64")
    scores = paddle.static.data("scores", [None, 4], "float32", lod_level=2)
    return [pre_ids, pre_scores, ids, scores], beam_search(pre_ids, pre_scores, ids, scores, 3)[:2]


DATA["fixed_prefixes"] = DATA["two_levels"]


if __name__ == "__main__":
    run_lod_cases(sys.argv, CASES, DATA, lambda name: {"scores": DATA[name]["lod"]})

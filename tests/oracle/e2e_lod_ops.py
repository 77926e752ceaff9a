#!/usr/bin/env python3
"""Op-level end-to-end cases for two 1.x ops over LoD feeds (lod_level 1)
and their padded forms: `edit_distance` (Hyps and Refs each over its own
LoD, with empty and one-element strings; normalized; a Refs LoD with more
sequences than Hyps'; the padded form with HypsLength / RefsLength) and
`linear_chain_crf` (Alpha, EmissionExps, TransitionExps, LogLikelihood over
Label's LoD, with an empty and a one-row sequence; an Emission without a
LoD; float64; the padded form with Length and a Label [N, S] or [N, S, 1]).

    python e2e_lod_ops.py OUTDIR [CASE ...]

Each case's feeds have the LoDs in LODS[case] ({feed: offsets}, their rows
the last offset); its dir holds lod.json and output_<i>.lod.json as
tests/oracle/e2e_lod.py's do (tests/test_e2e.py's run_binary passes the one
as --lod and compares the others)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op, build_static_case, case_registry, lod_reference  # noqa: E402

import paddle  # noqa: E402

# Hyps: strings of 3, 1, 0, 4, 1 and 5; Refs: 2, 0, 3, 1, 5, 1 (an empty
# reference against a one-element hypothesis, an empty hypothesis against 3)
LOD_H = [0, 3, 4, 4, 8, 9, 14]
LOD_R = [0, 2, 2, 5, 6, 11, 12]
LOD_R_FULL = [0, 2, 3, 5, 6, 11, 14]  # no empty reference (normalized), 14 rows as Hyps
LOD_R_MORE = [0, 2, 2, 5, 6, 11, 12, 14, 15]  # 8 references for 6 hypotheses
SYMBOLS = 4  # small alphabet: many matches
TAGS = 4
PADDED = 5  # padded forms' S (crf) and Lh (edit_distance)
PADDED_R = 4  # edit_distance's padded Lr
N = 6  # padded forms' rows
LENGTHS = {"hlen": [3, 0, 5, 1, 2, 5], "rlen": [4, 2, 0, 1, 3, 4], "rlen_full": [4, 2, 1, 1, 3, 4],
           "length": [3, 0, 5, 1, 2, 5]}
CASES, case = case_registry()
LODS = {}
CURRENT = {}  # the LoDs of the case being built


def lod_case(lods):
    """@lod_case({feed: offsets}) registers a case whose feeds have those LoDs."""
    def wrap(fn):
        LODS[fn.__name__] = lods
        return case(fn)
    return wrap


def make_input(var, rng):
    rows = var.shape[0] if var.shape[0] > 0 else N  # padded forms: N
    if var.name in CURRENT:
        rows = CURRENT[var.name][-1]
    elif CURRENT and var.shape[0] < 0:  # a plain feed beside the LoD ones: the batch's rows
        rows = LOD_H[-1]
    shape = [rows] + list(var.shape[1:])
    if var.name in LENGTHS:
        return np.array(LENGTHS[var.name], "int64")
    if var.dtype == paddle.int64:
        return rng.integers(0, TAGS if var.name.startswith("label") else SYMBOLS, shape).astype("int64")
    return rng.uniform(-2, 2, shape).astype("float64" if var.dtype == paddle.float64 else "float32")


def edit_distance(hyps, refs, hyps_length=None, refs_length=None, normalized=False):
    inputs = {"Hyps": [hyps], "Refs": [refs]}
    if hyps_length is not None:
        inputs["HypsLength"], inputs["RefsLength"] = [hyps_length], [refs_length]
    return append_op("edit_distance", inputs, {"Out": ["float32"], "SequenceNum": ["int64"]},
                     {"normalized": normalized})


def linear_chain_crf(emission, label, dtype="float32", length=None):
    inputs = {"Emission": [emission], "Transition": [paddle.static.create_parameter([TAGS + 2, TAGS], dtype)],
              "Label": [label]}
    if length is not None:
        inputs["Length"] = [length]
    return append_op("linear_chain_crf", inputs, {"Alpha": [dtype], "EmissionExps": [dtype],
                                                  "TransitionExps": [dtype], "LogLikelihood": [dtype]}, {})


def seq(name, rows=None, width=1, dtype="int64"):
    return paddle.static.data(name, [rows, width], dtype, lod_level=1)


# ---------------------------------------------------------------- edit_distance
@lod_case({"h": LOD_H, "r": LOD_R})
def ed_lod():
    """Hyps (14 rows, the batch) and Refs (12 rows, fixed) over their own
    LoDs; and Hyps against itself (all 0)."""
    h, r = seq("h"), seq("r", 12)
    out, num = edit_distance(h, r)
    same, _ = edit_distance(h, h)
    return [h, r], [out, num, same]


@lod_case({"h": LOD_H, "r": LOD_R_FULL})
def ed_lod_normalized():
    """normalized: each distance over its reference's length (none empty);
    Hyps and Refs both of the batch's 14 rows, in other sequences."""
    h, r = seq("h"), seq("r")
    out, num = edit_distance(h, r, normalized=True)
    return [h, r], [out, num]


@lod_case({"h": LOD_H, "r": LOD_R_MORE})
def ed_more_refs():
    """8 references for 6 hypotheses: Paddle pairs the first 6."""
    h, r = seq("h"), seq("r", 15)
    out, num = edit_distance(h, r)
    return [h, r], [out, num]


@lod_case({})
def ed_padded():
    """The padded form: Hyps [6, 5], Refs [6, 4] with lengths 0 to the
    width (an empty hypothesis, an empty reference)."""
    h = paddle.static.data("h", [None, PADDED], "int64")
    r = paddle.static.data("r", [None, PADDED_R], "int64")
    hl = paddle.static.data("hlen", [None], "int64")
    rl = paddle.static.data("rlen", [None], "int64")
    out, num = edit_distance(h, r, hl, rl)
    return [h, r, hl, rl], [out, num]


@lod_case({})
def ed_padded_normalized():
    h = paddle.static.data("h", [None, PADDED], "int64")
    r = paddle.static.data("r", [None, PADDED_R], "int64")
    hl = paddle.static.data("hlen", [None], "int64")
    rl = paddle.static.data("rlen_full", [None], "int64")
    out, num = edit_distance(h, r, hl, rl, normalized=True)
    return [h, r, hl, rl], [out, num]


# ---------------------------------------------------------------- linear_chain_crf
@lod_case({"label": LOD_H})
def crf_lod():
    """Emission [14, 4] over Label's LoD (sequences of 3, 1, 0, 4, 1 and 5
    rows): every output.  (Emission is a plain feed: the kernel does not
    read its LoD, and paddlec's driver takes a LoD only where a kernel
    reads it.)"""
    e, label = paddle.static.data("e", [None, TAGS], "float32"), seq("label")
    return [e, label], linear_chain_crf(e, label)


@lod_case({"label": LOD_H})
def crf_emission_without_lod():
    """Emission from an fc over a plain feed (no LoD): the sequences are
    Label's."""
    x = paddle.static.data("x", [None, 6], "float32")
    label = seq("label")
    return [x, label], linear_chain_crf(paddle.static.nn.fc(x, TAGS), label)


@lod_case({"label": LOD_H})
def crf_float64():
    e, label = paddle.static.data("e", [None, TAGS], "float64"), seq("label")
    return [e, label], linear_chain_crf(e, label, "float64")


@lod_case({})
def crf_padded():
    """Emission [6, 5, 4] with Length (0 to 5), Label [6, 5] and [6, 5, 1]."""
    e = paddle.static.data("e", [None, PADDED, TAGS], "float32")
    label = paddle.static.data("label", [None, PADDED], "int64")
    label3 = paddle.static.data("label3", [None, PADDED, 1], "int64")
    n = paddle.static.data("length", [None], "int64")
    return [e, label, label3, n], linear_chain_crf(e, label, length=n) + linear_chain_crf(e, label3, length=n)[3:]


@lod_case({})
def crf_padded_float64():
    e = paddle.static.data("e", [None, PADDED, TAGS], "float64")
    label = paddle.static.data("label", [None, PADDED], "int64")
    n = paddle.static.data("length", [None], "int64")
    return [e, label, n], linear_chain_crf(e, label, "float64", length=n)


def main(argv):
    paddle.enable_static()
    paddle.seed(1)
    for name in [n for n in argv[2:] if n in CASES] or (list(CASES) if len(argv) == 2 else []):
        CURRENT.clear()
        CURRENT.update(LODS[name])
        out_dir, inputs = build_static_case(argv[1], name, CASES[name], make_input, clip_extra=False,
                                            run_reference=False)
        lod_reference(out_dir, inputs, LODS[name])


if __name__ == "__main__":
    main(sys.argv)

#!/usr/bin/env python3
"""Op-level end-to-end cases for the 1.x recurrences over a LoD feed
(lod_level 1): `gru` (the op of fluid.layers.dynamic_gru: forward and
reversed, origin_mode, H0 given or not, every activation, float64, no
Bias), `lstm` (fluid.layers.dynamic_lstm's: forward and reversed, with and
without peepholes, H0 and C0 or C0 alone, other activations, float64, a
BiLSTM as PaddleOCR's CRNN has one), `crf_decoding` (Viterbi per sequence, with and without Label,
float32 and float64; the padded form with Length), a small BiGRU-CRF tagger, and the real
lac_seg_bigru_crf model (Baidu LAC's segmenter, Paddle 1.6) on its own
weights.

    python e2e_lod_rnn.py OUTDIR [CASE ...]

Every case has LoD feeds of 14 rows with the level-1 offsets LOD (sequences
of 3, 1, 4, 1 and 5 rows); its dir holds lod.json and output_<i>.lod.json
as tests/oracle/e2e_lod.py's do (tests/test_e2e.py's run_binary passes the
one as --lod and compares the others)."""
import os
import sys
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op, build_static_case, case_registry, lod_reference  # noqa: E402

import paddle  # noqa: E402

LOD = [0, 3, 4, 8, 9, 14]
ROWS = LOD[-1]
NSEQ = len(LOD) - 1
TAGS = 4
PADDED = 5  # crf_padded's S
VOCAB = 30
CASES, case = case_registry()


def feed(name, width, dtype="float32", lod_level=1, rows=None):
    return paddle.static.data(name, [rows, width], dtype, lod_level=lod_level)


def make_input(var, rng):
    shape = [ROWS if var.shape[0] < 0 else var.shape[0]] + list(var.shape[1:])
    if var.dtype == paddle.int64:
        high = {"label": TAGS, "length": PADDED + 1}.get(var.name, VOCAB)
        return rng.integers(0, high, shape).astype("int64")
    return rng.uniform(-2, 2, shape).astype("float64" if var.dtype == paddle.float64 else "float32")


def reference(out_dir, inputs, lod=LOD):
    """Paddle's Executor on the saved model, each LoD input a LoDTensor with `lod`."""
    lod_reference(out_dir, inputs, lod)


def gru(x, d, h0=None, bias=True, dtype="float32", **attrs):
    """The raw `gru` op (dynamic_gru's) over x [T, 3d]: Hidden [T, d]."""
    inputs = {"Input": [x], "Weight": [paddle.static.create_parameter([d, 3 * d], dtype)]}
    if bias:
        inputs["Bias"] = [paddle.static.create_parameter([1, 3 * d], dtype)]
    if h0 is not None:
        inputs["H0"] = [h0]
    out = append_op("gru", inputs, {"Hidden": [dtype], "BatchGate": [dtype], "BatchResetHiddenPrev": [dtype],
                                    "BatchHidden": [dtype]}, attrs)
    return out[0]


def lstm(x, d, h0=None, c0=None, dtype="float32", **attrs):
    """The raw `lstm` op (dynamic_lstm's) over x [T, 4d]: (Hidden, Cell),
    each [T, d]; Bias [1, 7d] with use_peepholes (the default), else [1, 4d]."""
    peep = attrs.get("use_peepholes", True)
    inputs = {"Input": [x], "Weight": [paddle.static.create_parameter([d, 4 * d], dtype)],
              "Bias": [paddle.static.create_parameter([1, (7 if peep else 4) * d], dtype)]}
    if h0 is not None:
        inputs["H0"] = [h0]
    if c0 is not None:
        inputs["C0"] = [c0]
    out = append_op("lstm", inputs, {"Hidden": [dtype], "Cell": [dtype], "BatchGate": [dtype],
                                     "BatchCellPreAct": [dtype]}, attrs)
    return out[0], out[1]


def crf_decoding(emission, label=None, dtype="float32", length=None):
    inputs = {"Emission": [emission], "Transition": [paddle.static.create_parameter([TAGS + 2, TAGS], dtype)]}
    if label is not None:
        inputs["Label"] = [label]
    if length is not None:
        inputs["Length"] = [length]
    return append_op("crf_decoding", inputs, {"ViterbiPath": ["int64"]}, {})[0]


# ---------------------------------------------------------------- cases
@case
def gru_forward():
    """D 5, sigmoid gates, tanh candidate, no H0: each sequence from 0."""
    x = feed("x", 15)
    return [x], [gru(x, 5)]


@case
def gru_reverse_origin():
    """is_reverse (each sequence from its last row back) with and without
    origin_mode, and a forward origin_mode."""
    x = feed("x", 12)
    return [x], [gru(x, 4, is_reverse=True), gru(x, 4, is_reverse=True, origin_mode=True),
                 gru(x, 4, origin_mode=True)]


@case
def gru_h0():
    """H0 [5, 4] (one row per sequence), forward and reversed."""
    x = feed("x", 12)
    h0 = feed("h0", 4, lod_level=0, rows=NSEQ)
    return [x, h0], [gru(x, 4, h0), gru(x, 4, h0, is_reverse=True, origin_mode=True)]


@case
def gru_activations():
    """relu / identity candidates, tanh / identity / relu gates."""
    x = feed("x", 9)
    return [x], [gru(x, 3, activation="relu", gate_activation="tanh"),
                 gru(x, 3, activation="identity", gate_activation="identity"),
                 gru(x, 3, activation="sigmoid", gate_activation="relu", is_reverse=True)]


@case
def gru_float64_no_bias():
    """float64 (Paddle's double kernel), one without Bias, one with H0."""
    x = feed("x", 18, "float64")
    h0 = feed("h0", 6, "float64", lod_level=0, rows=NSEQ)
    return [x, h0], [gru(x, 6, bias=False, dtype="float64"), gru(x, 6, h0, dtype="float64", is_reverse=True)]


@case
def lstm_forward():
    """D 5 with peepholes (the default): Hidden and Cell, each sequence from 0."""
    x = feed("x", 20)
    return [x], list(lstm(x, 5))


@case
def lstm_reverse_no_peepholes():
    """is_reverse (each sequence from its last row back) with and without
    peepholes, and a forward one without (Bias [1, 4D])."""
    x = feed("x", 16)
    return [x], [*lstm(x, 4, is_reverse=True), *lstm(x, 4, is_reverse=True, use_peepholes=False),
                 *lstm(x, 4, use_peepholes=False)]


@case
def lstm_h0_c0():
    """H0 and C0 [5, 4], one row per sequence in the LoD's order (Paddle
    sorts its sequences of 3, 1, 4, 1 and 5 rows by length and reorders
    H0 and C0 with them), forward and reversed, peepholes on and off; and
    C0 alone (LSTMOp asks for C0 with H0, not H0 with C0)."""
    x = feed("x", 16)
    h0 = feed("h0", 4, lod_level=0, rows=NSEQ)
    c0 = feed("c0", 4, lod_level=0, rows=NSEQ)
    return [x, h0, c0], [*lstm(x, 4, h0, c0), *lstm(x, 4, h0, c0, is_reverse=True, use_peepholes=False),
                         *lstm(x, 4, c0=c0, is_reverse=True)]


@case
def lstm_activations():
    """Other gate, cell and candidate activations (Paddle's four each)."""
    x = feed("x", 12)
    return [x], [*lstm(x, 3, gate_activation="tanh", cell_activation="relu", candidate_activation="sigmoid"),
                 *lstm(x, 3, gate_activation="identity", cell_activation="identity",
                       candidate_activation="relu", is_reverse=True),
                 lstm(x, 3, gate_activation="relu", cell_activation="sigmoid", candidate_activation="identity")[0]]


@case
def lstm_float64():
    """float64 (Paddle's double kernel): peepholes with H0 and C0, reversed
    without."""
    x = feed("x", 24, "float64")
    h0 = feed("h0", 6, "float64", lod_level=0, rows=NSEQ)
    c0 = feed("c0", 6, "float64", lod_level=0, rows=NSEQ)
    return [x, h0, c0], [*lstm(x, 6, h0, c0, dtype="float64"),
                         lstm(x, 6, dtype="float64", is_reverse=True, use_peepholes=False)[0]]


@case
def bilstm():
    """PaddleOCR CRNN's BiLSTM: fc -> lstm forward and fc -> lstm reversed
    (no peepholes, no H0 / C0; D 8, which Paddle's float kernel runs in
    AVX), concat -> fc; the hidden states fetched too."""
    x = feed("x", 6)
    fw = lstm(paddle.static.nn.fc(x, 32), 8, use_peepholes=False)[0]
    bw = lstm(paddle.static.nn.fc(x, 32), 8, use_peepholes=False, is_reverse=True)[0]
    both = paddle.concat([fw, bw], axis=1)
    return [x], [paddle.static.nn.fc(both, 5), fw, bw]


@case
def crf_paths():
    """Viterbi paths over 4 tags; with Label: 1 where the path agrees."""
    e = feed("e", TAGS)
    label = feed("label", 1, "int64")
    return [e, label], [crf_decoding(e), crf_decoding(e, label), crf_decoding(e) * 3 + 1]


@case
def crf_float64():
    e = feed("e", TAGS, "float64")
    return [e], [crf_decoding(e, dtype="float64")]


@case
def crf_padded():
    """The padded form: Emission [14, 5, 4] with Length [14] (0 to 5), with
    and without Label [14, 5] (0 past each length)."""
    e = paddle.static.data("e", [None, PADDED, TAGS], "float32")
    label = paddle.static.data("label", [None, PADDED], "int64")
    n = paddle.static.data("length", [None], "int64")
    return [e, label, n], [crf_decoding(e, length=n), crf_decoding(e, label, length=n)]


@case
def bigru_crf():
    """A small LAC: word ids -> lookup_table -> fc -> forward and reversed
    gru -> concat -> fc -> crf_decoding; the hidden states fetched too."""
    w = feed("words", 1, "int64")
    table = paddle.static.create_parameter([VOCAB, 6], "float32")
    emb = append_op("lookup_table", {"Ids": [w], "W": [table]}, {"Out": ["float32"]}, {})[0]
    fw = gru(paddle.static.nn.fc(emb, 12), 4)
    bw = gru(paddle.static.nn.fc(emb, 12), 4, is_reverse=True)
    both = paddle.concat([fw, bw], axis=1)
    return [w], [crf_decoding(paddle.static.nn.fc(both, TAGS)), fw, bw]


REAL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "models",
                    "lac_seg_bigru_crf")


def lac_seg_bigru_crf(out_root):
    """The real 1.6 model (../shared/models/lac_seg_bigru_crf) re-saved as it
    is, on 40 word ids in sentences of 9, 1, 17, 2 and 11 words.  (Its
    program is written over the saved one: save_inference_model drops the
    gru ops' Batch* outputs, without which Paddle's gru does not run.)"""
    if not os.path.isdir(REAL):
        return
    exe = paddle.static.Executor(paddle.CPUPlace())
    out_dir = os.path.join(out_root, "lac_seg_bigru_crf")
    with paddle.static.scope_guard(paddle.static.Scope()):
        prog, feeds, fetches = paddle.static.load_inference_model(REAL, exe, model_filename="__model__")
        block = prog.global_block()
        os.makedirs(out_dir, exist_ok=True)
        paddle.static.save_inference_model(os.path.join(out_dir, "model"), [block.var(feeds[0])], fetches, exe,
                                           program=prog)
        with open(os.path.join(out_dir, "model.pdmodel"), "wb") as f:
            f.write(prog.desc.serialize_to_string())
    ids = np.random.default_rng(zlib.crc32(b"lac")).integers(0, 8224, (40, 1)).astype("int64")
    reference(out_dir, [ids], [0, 9, 10, 27, 29, 40])


def main(argv):
    paddle.enable_static()
    paddle.seed(1)
    if len(argv) == 2 or "lac_seg_bigru_crf" in argv[2:]:
        lac_seg_bigru_crf(argv[1])
    for name in [n for n in argv[2:] if n in CASES] or (list(CASES) if len(argv) == 2 else []):
        out_dir, inputs = build_static_case(argv[1], name, CASES[name], make_input, clip_extra=False, run_reference=False)
        reference(out_dir, inputs)


if __name__ == "__main__":
    main(sys.argv)

#!/usr/bin/env python3
"""Op-level end-to-end cases for the ops that make a LoD as the program
runs: `im2sequence` (one sequence of patches per image: kernels, strides,
paddings) and `ctc_align` (what each sequence keeps: blank, merge_repeated,
int32 and int64, nothing kept at all; the padded form with InputLength),
and the ops after them that read the LoD they made (sequence_pool, a
ctc_align after im2sequence as CRNN's greedy decoder writes it) or carry
it to a fetch (fc, softmax: the fetch's LoD is compared); and `box_clip`,
each image's boxes a sequence of a LoD feed.

    python e2e_lod_made.py OUTDIR [CASE ...]

Image feeds have no LoD (2 images of 3 x 5 x 7); token feeds have the
level-1 offsets LOD (sequences of 4, 0 (empty), 1, 6 and 3 tokens).  Each
case dir holds lod.json and output_<i>.lod.json as tests/oracle/e2e_lod.py's
do."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op, build_static_case, case_registry, lod_reference  # noqa: E402

import paddle  # noqa: E402
from paddle.static.nn import sequence_lod  # noqa: E402

LOD = [0, 4, 4, 5, 11, 14]
ROWS = LOD[-1]
BOX_LOD = [0, 4, 5, 6, 11, 14]  # box_clip: Paddle's kernel refuses an image without boxes
TOKENS = 4  # token ids 0..3: blanks and repeats are common
PADDED = (3, 6)  # the padded form's [N, T]
CASES, case = case_registry()


def image(name="x"):
    return paddle.static.data(name, [None, 3, 5, 7], "float32")


def tokens(name="t", dtype="int64"):
    return paddle.static.data(name, [None, 1], dtype, lod_level=1)


def make_input(var, rng):
    dt = str(var.dtype).split(".")[-1]
    if var.name == "x":
        return rng.uniform(-2, 2, (2, 3, 5, 7)).astype(dt)
    if var.name == "t":
        return rng.integers(0, TOKENS, (ROWS, 1)).astype(dt)
    if var.name == "padded":
        return rng.integers(0, TOKENS, PADDED).astype(dt)
    if var.name == "length":  # 0 and T among them
        return np.array([[PADDED[1]], [0], [4]], dtype=dt)
    if var.name == "real":  # each image's real height and width: a fraction truncates
        return np.array([[5, 6.5], [2.7, 3]], dtype=dt)
    if var.name == "boxes":  # many beyond the images; a NaN passes through
        b = rng.uniform(-20, 80, (ROWS, 4)).astype(dt)
        b[6, 2] = np.nan
        return b
    if var.name == "im_info":  # height, width, scale: sizes that round half away from 0
        return np.array([[50, 60, 1], [40, 30, 0.5], [64, 64, 2], [33.25, 47.5, 1.5], [10, 21, 2]], dtype=dt)
    raise ValueError(var.name)


def im2sequence(x, kernels, strides=(1, 1), paddings=(0, 0, 0, 0), y=None, out_stride=(1, 1)):
    inputs = {"X": [x]}
    if y is not None:
        inputs["Y"] = [y]
    return append_op("im2sequence", inputs, {"Out": ["float32"]},
                     {"kernels": list(kernels), "strides": list(strides), "paddings": list(paddings),
                      "out_stride": list(out_stride)})[0]


def ctc_align(x, blank, merge=True, length=None, padding_value=0):
    inputs = {"Input": [x]}
    outputs = {"Output": [x.dtype]}
    if length is not None:
        inputs["InputLength"] = [length]
        outputs["OutputLength"] = [length.dtype]
    out = append_op("ctc_align", inputs, outputs,
                    {"blank": blank, "merge_repeated": merge, "padding_value": padding_value})
    return out if length is not None else out[0]


# ---------------------------------------------------------------- cases
@case
def im2seq_patches():
    """kernels 2 x 3, stride 1 x 2, padding up 1 and right 1: patches over
    the padding hold zeros; the fetch carries the LoD (15 rows an image)."""
    x = image()
    return [x], [im2sequence(x, (2, 3), (1, 2), (1, 0, 0, 1))]


@case
def im2seq_1x1():
    """CRNN's im2sequence: 1 x 1 kernels, each place of the map a row."""
    x = image()
    return [x], [im2sequence(x, (1, 1))]


@case
def im2seq_real_sizes():
    """With Y (the images' real sizes) each image's patches are counted from
    its size divided by out_stride (rounded up): 2 x 3 kernels, stride 1 x 2,
    padding down 1 and right 1, out_stride 2 x 1: 9 and 1 patches; fetched
    as it is and through an fc."""
    x = image()
    y = paddle.static.data("real", [None, 2], "float32")
    seq = im2sequence(x, (2, 3), (1, 2), (0, 0, 1, 1), y=y, out_stride=(2, 1))
    return [x, y], [seq, paddle.static.nn.fc(seq, 4)]


@case
def im2seq_pool_and_fc():
    """The LoD im2sequence made, read by sequence_pool (one row an image) and
    carried through an fc and softmax to a fetch."""
    x = image()
    seq = im2sequence(x, (3, 3), (2, 2), (1, 1, 1, 1))
    pooled = sequence_lod.sequence_pool(seq, "average")
    probs = paddle.nn.functional.softmax(paddle.static.nn.fc(seq, 6))
    return [x], [pooled, probs]


@case
def ctc_greedy_decoder():
    """CRNN's decoder: im2sequence -> fc -> top_k -> ctc_align (blank 5, the
    last class): ctc_align reads the LoD im2sequence made and makes its
    own; Output and the softmax are fetched with their LoDs."""
    x = image()
    seq = im2sequence(x, (1, 1))
    logits = paddle.static.nn.fc(seq, 6)
    _, ids = paddle.topk(logits, 1)
    return [x], [ctc_align(ids, 5), paddle.nn.functional.softmax(logits)]


@case
def ctc_align_lod():
    """int64 tokens, blank 0, repeats merged: an empty sequence stays empty."""
    t = tokens()
    return [t], [ctc_align(t, 0)]


@case
def ctc_align_keep_repeats_int32():
    """int32 tokens, blank 2, merge_repeated false."""
    t = tokens(dtype="int32")
    return [t], [ctc_align(t, 2, merge=False)]


@case
def ctc_align_nothing_kept():
    """Every token the blank (the tokens scaled by 0): Paddle's Output is
    [1, 1] = -1 and its LoD all zeros."""
    t = tokens()
    return [t], [ctc_align(paddle.scale(t, 0.0), 0)]


@case
def ctc_align_padded():
    """The padded form: rows of T = 6 tokens with InputLength 6, 0 and 4;
    padding_value 9; Output and OutputLength of Input's dtype."""
    x = paddle.static.data("padded", [None, PADDED[1]], "int32")
    n = paddle.static.data("length", [None, 1], "int32")
    out, olen = ctc_align(x, 1, length=n, padding_value=9)
    return [x, n], [out, olen]


@case
def box_clip():
    """Each image's boxes (a sequence of the boxes' LoD BOX_LOD) clipped
    to round(height / scale) and round(width / scale)."""
    b = paddle.static.data("boxes", [None, 4], "float32", lod_level=1)
    info = paddle.static.data("im_info", [5, 3], "float32")
    return [b, info], [append_op("box_clip", {"Input": [b], "ImInfo": [info]}, {"Output": ["float32"]}, {})[0]]


@case
def box_clip_float64():
    b = paddle.static.data("boxes", [None, 4], "float64", lod_level=1)
    info = paddle.static.data("im_info", [5, 3], "float64")
    return [b, info], [append_op("box_clip", {"Input": [b], "ImInfo": [info]}, {"Output": ["float64"]}, {})[0]]


def main(argv):
    paddle.enable_static()
    paddle.seed(1)
    for name in [n for n in argv[2:] if n in CASES] or (list(CASES) if len(argv) == 2 else []):
        out_dir, inputs = build_static_case(argv[1], name, CASES[name], make_input, run_reference=False)
        lod_reference(out_dir, inputs, BOX_LOD if name.startswith("box_clip") else LOD)


if __name__ == "__main__":
    main(sys.argv)

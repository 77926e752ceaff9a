#!/usr/bin/env python3
"""Op-level end-to-end cases for the 1.x LoD ops whose kernels give Out a
LoD of their own (compiler/ops/sequence_lod.c): `sequence_reshape`
(float32, float64, int32, int64; growing and shrinking rows, the same
width), `sequence_concat` (two and three inputs of different LoDs, an
empty sequence, rank 3) and `lod_reset` (target_lod, Y's LoD, Y's int32
data, append over an X without LoD), each Out fetched with its LoD and
read by a sequence_pool after it.

    python e2e_lod_seq.py OUTDIR [CASE ...]

The LoD feeds: x [14, W] with offsets LOD_X (sequences of 4, 0 (empty),
2, 6 and 2 rows: even, so that any new_dim dividing 2 * W fits), y [7, W]
with LOD_Y (1, 2, 0, 0, 4: as many sequences as x), z [5, W] with LOD_Z.
Each case dir holds lod.json and output_<i>.lod.json as e2e_lod.py's
do."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op, build_static_case, case_registry, lod_reference  # noqa: E402

import paddle  # noqa: E402
from paddle.static.nn import sequence_lod  # noqa: E402

LOD_X = [0, 4, 4, 6, 12, 14]
LOD_Y = [0, 1, 3, 3, 3, 7]
LOD_Z = [0, 0, 2, 3, 3, 5]
LODS = {"x": LOD_X, "y": LOD_Y, "z": LOD_Z}
OFFSETS = [0, 3, 3, 6]  # lod_reset's int32 Y: offsets over 6 rows, an empty sequence
LENGTHS = {"len3": [5, 0, 2], "len4": [1, 6, 0, 3]}  # sequence_unpad's Length feeds
SLICE = {"soff": [[1], [0], [0], [2], [1]], "slen": [[2], [0], [2], [3], [0]]}  # sequence_slice's over LOD_X
CASES, case = case_registry()


def seq(name, width, dtype="float32"):
    rows = LODS[name][-1]
    shape = [rows] + (list(width) if isinstance(width, (list, tuple)) else [width])
    return paddle.static.data(name, shape, dtype, lod_level=1)


def make_input(var, rng):
    dt = str(var.dtype).split(".")[-1]
    shape = list(var.shape)
    if var.name == "offsets":
        return np.array(OFFSETS, dtype=dt)
    if var.name in LENGTHS:
        return np.array(LENGTHS[var.name], dtype=dt)
    if var.name in SLICE:
        return np.array(SLICE[var.name], dtype=dt)
    if "int" in dt:
        return rng.integers(-50, 50, shape).astype(dt)
    return rng.uniform(-2, 2, shape).astype(dt)


def reshape(x, new_dim):
    return append_op("sequence_reshape", {"X": [x]}, {"Out": [x.dtype]}, {"new_dim": new_dim})[0]


def concat(xs):
    return append_op("sequence_concat", {"X": list(xs)}, {"Out": [xs[0].dtype]}, {})[0]


def lod_reset(x, y=None, target_lod=None, append=False):
    inputs = {"X": [x]}
    if y is not None:
        inputs["Y"] = [y]
    attrs = {"append": append}
    if target_lod is not None:
        attrs["target_lod"] = list(target_lod)
    return append_op("lod_reset", inputs, {"Out": [x.dtype]}, attrs)[0]


def pad(x, pad_value, padded_length):
    return append_op("sequence_pad", {"X": [x], "PadValue": [pad_value]}, {"Out": [x.dtype], "Length": ["int64"]},
                     {"padded_length": padded_length})


def unpad(x, length):
    return append_op("sequence_unpad", {"X": [x], "Length": [length]}, {"Out": [x.dtype]}, {})[0]


def pool(x):
    return sequence_lod.sequence_pool(x, "sum")


# ---------------------------------------------------------------- sequence_reshape
@case
def reshape_wider():
    """x [14, 4] -> rows of 8 (each sequence's rows halve); pooled after."""
    x = seq("x", 4)
    out = reshape(x, 8)
    return [x], [out, pool(out)]


@case
def reshape_narrower_float64():
    """float64 x [14, 6] -> rows of 4 (each sequence's 2k rows become 3k)."""
    x = seq("x", 6, "float64")
    out = reshape(x, 4)
    return [x], [out, pool(out)]


@case
def reshape_int32():
    """int32 x [14, 3] -> rows of 2."""
    x = seq("x", 3, "int32")
    return [x], [reshape(x, 2)]


@case
def reshape_int64_same_width():
    """int64 x [14, 5] -> rows of 5: Out's LoD is x's."""
    x = seq("x", 5, "int64")
    return [x], [reshape(x, 5)]


# ---------------------------------------------------------------- sequence_concat
@case
def concat_two():
    """x [14, 3] and y [7, 3]: sequence i of Out is x's then y's; pooled."""
    x, y = seq("x", 3), seq("y", 3)
    out = concat([x, y])
    return [x, y], [out, pool(out)]


@case
def concat_three_float64():
    """float64 x, y, z of 2 columns: empty sequences in each."""
    x, y, z = seq("x", 2, "float64"), seq("y", 2, "float64"), seq("z", 2, "float64")
    return [x, y, z], [concat([z, x, y])]


@case
def concat_int64_rank3():
    """int64 x and y of [*, 2, 3]."""
    x, y = seq("x", [2, 3], "int64"), seq("y", [2, 3], "int64")
    return [x, y], [concat([y, x])]


# ---------------------------------------------------------------- lod_reset
@case
def reset_target_lod():
    """An x [6, 3] without LoD given target_lod [0, 1, 1, 4, 6]; pooled."""
    x = paddle.static.data("plain", [6, 3], "float32")
    out = lod_reset(x, target_lod=[0, 1, 1, 4, 6])
    return [x], [out, pool(out)]


@case
def reset_target_lod_over_lod():
    """x's LoD replaced by target_lod [0, 10, 14] (int64 x [14, 2])."""
    x = seq("x", 2, "int64")
    return [x], [lod_reset(x, target_lod=[0, 10, 14])]


@case
def reset_append_without_lod():
    """append over an x without LoD: the same as setting target_lod."""
    x = paddle.static.data("plain", [6, 2], "float64")
    return [x], [lod_reset(x, target_lod=[0, 2, 6], append=True)]


@case
def reset_to_y_lod():
    """Out takes y's LoD (y [7, 1] with LOD_Y) for a plain x [7, 4]."""
    x = paddle.static.data("plain", [7, 4], "float32")
    y = seq("y", 1)
    out = lod_reset(x, y)
    return [x, y], [out, pool(out)]


@case
def reset_to_y_data():
    """Y's int32 data [0, 3, 3, 6] as Out's offsets (x [6, 2] int32)."""
    x = paddle.static.data("plain", [6, 2], "int32")
    y = paddle.static.data("offsets", [len(OFFSETS)], "int32")
    return [x, y], [lod_reset(x, y)]


# ---------------------------------------------------------------- sequence_pad / sequence_unpad
@case
def pad_scalar():
    """x [14, 3] padded to 7 steps with a fed scalar PadValue: Out [5, 7, 3]
    (5 the sequences, known at run time), Length [5]."""
    x = seq("x", 3)
    pv = paddle.static.data("pv", [1], "float32")
    out, length = pad(x, pv, 7)
    return [x, pv], [out, length]


@case
def pad_step_int64():
    """int64 x [14, 2, 2] padded to 6 (the longest sequence) with one time
    step [2, 2] as PadValue."""
    x = seq("x", [2, 2], "int64")
    pv = paddle.static.data("pv", [2, 2], "int64")
    out, length = pad(x, pv, 6)
    return [x, pv], [out, length]


@case
def pad_then_unpad_float64():
    """float64 y [7, 4] padded to 5 and unpadded by its Length: y again,
    with y's LoD."""
    y = seq("y", 4, "float64")
    pv = paddle.static.data("pv", [1], "float64")
    out, length = pad(y, pv, 5)
    return [y, pv], [out, unpad(out, length)]


@case
def unpad_rank3():
    """p [3, 5, 2] with Length [5, 0, 2]: Out [7, 2], LoD [0, 5, 5, 7]."""
    p = paddle.static.data("p", [3, 5, 2], "float32")
    n = paddle.static.data("len3", [3], "int64")
    return [p, n], [unpad(p, n)]


@case
def unpad_rank2_int32():
    """int32 p [4, 6] with Length [1, 6, 0, 3]: Out [10, 1]."""
    p = paddle.static.data("p", [4, 6], "int32")
    n = paddle.static.data("len4", [4], "int64")
    return [p, n], [unpad(p, n)]


# ---------------------------------------------------------------- sequence_slice
def sequence_slice(x):
    off = paddle.static.data("soff", [5, 1], "int64")
    n = paddle.static.data("slen", [5, 1], "int64")
    out = append_op("sequence_slice", {"X": [x], "Offset": [off], "Length": [n]}, {"Out": [x.dtype]}, {})[0]
    return [x, off, n], [out]


@case
def slice_float32():
    """x [14, 3]: rows 1-2, none, 0-1, 2-4 and none of its sequences."""
    return sequence_slice(seq("x", 3))


@case
def slice_int64_rank3():
    """int64 x [14, 2, 2], the same slices."""
    return sequence_slice(seq("x", [2, 2], "int64"))


def main(argv):
    paddle.enable_static()
    paddle.seed(1)
    for name in [n for n in argv[2:] if n in CASES] or (list(CASES) if len(argv) == 2 else []):
        out_dir, inputs = build_static_case(argv[1], name, CASES[name], make_input, run_reference=False)
        lod_reference(out_dir, inputs, LODS)


if __name__ == "__main__":
    main(sys.argv)

#!/usr/bin/env python3
"""Op-level end-to-end cases for `sequence_expand` of an X that carries a
level-1 LoD (compiler/ops/sequence.c): sequence i of X once a row of
sequence i of Y, Out's LoD made by the kernel (one sequence a copy), each
Out fetched with its LoD (a sequence_pool cannot read it yet: its rows are
a run-time extent).  The dtypes Paddle's CPU kernel takes (float32,
float64, int32, int64), rank 3, ref_level -1 and 0, X's and Y's LoDs a
feed's or one an op made (lod_reset, sequence_reshape), an X's LoD passed
on through relu, and two sequence_expands in a row (the second reading the
LoD the first made).

    python e2e_seq_expand.py OUTDIR [CASE ...]

The LoD feeds: x [9, W] with offsets LOD_X (sequences of 3, 0 (empty), 2,
4 rows), y [8, 2] with LOD_Y (2, 1, 0 (empty: sequence 2 of X is left
out), 5 rows), z [4, 2] with LOD_Z (one row each: Out is X again, LoD and
all) and w [6, 2] with LOD_W (0, 3, 1, 2).  Each case dir holds lod.json
and output_<i>.lod.json as e2e_lod.py's do."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op, build_static_case, case_registry, lod_reference  # noqa: E402

import paddle  # noqa: E402

LOD_X = [0, 3, 3, 5, 9]
LOD_Y = [0, 2, 3, 3, 8]
LOD_Z = [0, 1, 2, 3, 4]
LOD_W = [0, 0, 3, 4, 6]
LODS = {"x": LOD_X, "y": LOD_Y, "z": LOD_Z, "w": LOD_W}
CASES, case = case_registry()


def seq(name, width, dtype="float32"):
    rows = LODS[name][-1]
    shape = [rows] + (list(width) if isinstance(width, (list, tuple)) else [width])
    return paddle.static.data(name, shape, dtype, lod_level=1)


def make_input(var, rng):
    dt = str(var.dtype).split(".")[-1]
    shape = list(var.shape)
    if "int" in dt:
        return rng.integers(-50, 50, shape).astype(dt)
    return rng.uniform(-2, 2, shape).astype(dt)


def expand(x, y, ref_level=-1):
    return append_op("sequence_expand", {"X": [x], "Y": [y]}, {"Out": [x.dtype]}, {"ref_level": ref_level})[0]


@case
def expand_float32():
    """x [9, 3] by y's LoD: x's empty sequence repeated once, sequence 2
    left out (y's is empty)."""
    x, y = seq("x", 3), seq("y", 2)
    out = expand(x, y)
    return [x, y], [out]


@case
def expand_float64_ref_level_0():
    """float64 x [9, 4], ref_level 0 (y's one level)."""
    x, y = seq("x", 4, "float64"), seq("y", 2, "float64")
    out = expand(x, y, ref_level=0)
    return [x, y], [out]


@case
def expand_int32_once_each():
    """int32 x by z's LoD of one row a sequence: Out is x, its LoD x's."""
    x, z = seq("x", 2, "int32"), seq("z", 2, "int32")
    return [x, z], [expand(x, z)]


@case
def expand_int64_rank3():
    """int64 x [9, 2, 3] by w's LoD (an empty first sequence)."""
    x, w = seq("x", [2, 3], "int64"), seq("w", 2, "int64")
    return [x, w], [expand(x, w)]


@case
def expand_lod_through_relu():
    """X is relu(x): x's LoD passed on."""
    x, w = seq("x", 3), seq("w", 2)
    out = expand(paddle.nn.functional.relu(x), w)
    return [x, w], [out]


@case
def expand_made_lods():
    """X's LoD made by lod_reset (target_lod over a plain [6, 3]) and Y's by
    sequence_reshape (y [8, 2] in rows of 1: its offsets doubled)."""
    plain = paddle.static.data("plain", [6, 3], "float32")
    x = append_op("lod_reset", {"X": [plain]}, {"Out": ["float32"]}, {"target_lod": [0, 2, 2, 3, 6]})[0]
    y = seq("y", 2)
    y1 = append_op("sequence_reshape", {"X": [y]}, {"Out": ["float32"]}, {"new_dim": 1})[0]
    out = expand(x, y1)
    return [plain, y], [out]


@case
def expand_twice():
    """sequence_expand of x by w, then of that Out (its made LoD: 6
    sequences) by the rows of a plain [6, 2] given target_lod."""
    x, w = seq("x", 2), seq("w", 2)
    once = expand(x, w)
    plain = paddle.static.data("plain", [7, 2], "float32")
    ref = append_op("lod_reset", {"X": [plain]}, {"Out": ["float32"]}, {"target_lod": [0, 1, 1, 3, 4, 6, 7]})[0]
    out = expand(once, ref)
    return [x, w, plain], [once, out]


def main(argv):
    paddle.enable_static()
    paddle.seed(1)
    for name in [n for n in argv[2:] if n in CASES] or (list(CASES) if len(argv) == 2 else []):
        out_dir, inputs = build_static_case(argv[1], name, CASES[name], make_input, run_reference=False)
        lod_reference(out_dir, inputs, LODS)


if __name__ == "__main__":
    main(sys.argv)

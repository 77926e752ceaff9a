#!/usr/bin/env python3
"""Op-level end-to-end cases for small correctness fixes, each pinning what
Paddle computes where paddlec once computed something else, or where it
computes something unexpected: sequence_mask with an int32 MaxLenTensor
(the only dtype Paddle's kernel reads); set_value with an axis listed twice.

    python e2e_fixes.py OUTDIR [CASE ...]

Cases, feeds (drawn from their names) and references: see oracle_case.py's
named_feeds and run_static_cases."""
import numpy as np

from oracle_case import append_op as op, case_registry, named_feeds, run_static_cases

import paddle
import paddle.nn.functional as F

CASES, case = case_registry()
data, make_input = named_feeds()


@case
def sequence_mask_tensor():
    # MaxLenTensor int32, its value known when compiling (6, and 2: shorter
    # than some lengths); an int64 one Paddle refuses (tests/test_bad_input.py)
    x = data("x", [None, 3], "int64", 0, 8)
    y = data("y", [None], "int32", -1, 5)
    six = paddle.assign(np.array([6], "int32"))
    two = paddle.full([1], 2, "int32")
    outs = [F.sequence_mask(x, six), F.sequence_mask(y, two, "float32"), F.sequence_mask(x, two, "bool")]
    return [x, y], outs



@case
def set_value_axis_twice():
    # Paddle's SetValueImpl takes each axis's bounds from its last entry,
    # but leaves Out = Input when any entry is empty (start == end after
    # normalization), a later one too (measured on 2.6.2; its value must
    # still broadcast against the slice, so `s` is one element)
    x = data("x", [3, 4])
    v = data("v", [1, 2])
    u = data("u", [1, 4])
    w = data("w", [3, 2])
    s = data("s", [1])

    def sv(axes, starts, ends, value):
        return op("set_value", {"Input": [x], "ValueTensor": [value]}, {"Out": ["float32"]},
                  {"axes": axes, "starts": starts, "ends": ends, "steps": [1] * len(axes)})[0]
    outs = [sv([1, 1], [0, 2], [4, 4], w), sv([0, 1, 0], [0, 1, 1], [3, 3, 2], v), sv([1, 1], [1, 0], [3, 4], u),
            sv([1, 1], [2, 0], [2, 2], s), sv([1, 1], [0, 2], [2, 2], s)]
    return [x, v, u, w, s], outs

if __name__ == "__main__":
    run_static_cases(CASES, make_input)

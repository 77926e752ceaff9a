#!/usr/bin/env python3
"""Op-level end-to-end cases for small correctness fixes, each pinning what
Paddle computes where paddlec once computed something else: sequence_mask
with an int32 MaxLenTensor (the only dtype Paddle's kernel reads).

    python e2e_fixes.py OUTDIR [CASE ...]

Cases, feeds (drawn from their names) and references: see oracle_case.py's
named_feeds and run_static_cases."""
import numpy as np

from oracle_case import case_registry, named_feeds, run_static_cases

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


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

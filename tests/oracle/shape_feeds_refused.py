#!/usr/bin/env python3
"""Programs whose output shapes come from values only the run knows, which
paddlec refuses without a --max-shape bound (tests/test_runtime_extent.py;
bounded, e2e_shape_feeds.py's cases of the same ops match Paddle), saved
with Paddle's outputs like the e2e families: each once compiled and gave a
wrong answer, or refused with a misleading reason.

- `paddle.expand(x, s)` with s a fed int32 tensor: Out's dims are s's
  values (a -1 keeps x's dim), not x's dims.
- `F.affine_grid(theta, s)` with s fed: a 2-D grid whose size is the run's.

    python shape_feeds_refused.py OUTDIR [CASE ...]"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import run_static_cases, case_registry  # noqa: E402

import paddle  # noqa: E402

CASES, case = case_registry()
VALUES = {"s": [2, 5, 4], "g": [2, 1, 5, 6]}  # fed integer tensors


@case
def expand_fed_shape():
    x = paddle.static.data("x", [None, 1, 4], "float32")
    s = paddle.static.data("s", [3], "int32")
    return [x, s], [paddle.expand(x, s)]


@case
def affine_grid_fed_shape():
    theta = paddle.static.data("theta", [None, 2, 3], "float32")
    g = paddle.static.data("g", [4], "int32")
    return [theta, g], [paddle.nn.functional.affine_grid(theta, g, align_corners=False)]


def make_input(v, rng):
    if v.name in VALUES:
        return np.array(VALUES[v.name], "int64" if "int64" in str(v.dtype) else "int32")
    return rng.standard_normal([2 if d in (None, -1) else d for d in v.shape]).astype("float32")


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

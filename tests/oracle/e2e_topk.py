#!/usr/bin/env python3
"""Op-level end-to-end cases for top_k_v2 (paddle.topk) and top_k (v1) where
the order among equal values matters: Paddle 2.6's CPU kernel leaves it to
libstdc++'s std::partial_sort (k * 64 < n), std::nth_element plus std::sort
of the first k - 1 (otherwise; unsorted: nth_element alone) and, for v1,
std::partial_sort with "a > b" under which NaN is unordered.  Heavy ties,
sorted and unsorted, largest and smallest, NaN and infinities, k = 1 and
k = n, several axes (the batch axis too), float32/64 and int32/64.

    python e2e_topk.py OUTDIR [CASE ...]

Feeds named `ties*` hold small integers as floats (many equal values),
`special*` small integers with NaN and infinities, `fixed*` the rows given
in FIXED; integer inputs are uniform in the range data() gives.  Batch 2.
tests/oracle/oracle_case.py saves each case with Paddle's reference
outputs."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import run_static_cases, case_registry  # noqa: E402

import paddle  # noqa: E402
from paddle.base.layer_helper import LayerHelper  # noqa: E402

BATCH = 2
CASES, case = case_registry()
INT_RANGE = {}  # feed name -> (low, high) for integer feeds
K_VALUES = {}  # feed name -> the k it holds (a one-element int tensor)
FIXED = {  # feed name -> its rows (BATCH of them)
    "fixed_ties": [[1, 2, 0, 2, 2], [2, 2, 2, 1, 2]],
    "fixed_unsorted": [[0.13, -0.13, 0.64, 0.1, -0.54, 0.36, 1.3], [1.3, 0.36, -0.54, 0.1, 0.64, -0.13, 0.13]],
}


def data(name, shape, dtype="float32", low=-5, high=5):
    INT_RANGE[name] = (low, high)
    return paddle.static.data(name, shape, dtype)


def k_feed(name, k, dtype="int32"):
    """A feed holding k, as a run-time K."""
    K_VALUES[name] = k
    return paddle.static.data(name, [1], dtype)


def top_k_v1(x, k):
    """The legacy top_k op (float32/64 only in Paddle 2.6): Out, Indices; k
    a number or a tensor (input K, as fluid.layers.topk writes it)."""
    helper = LayerHelper("top_k")
    out = helper.create_variable_for_type_inference(x.dtype)
    idx = helper.create_variable_for_type_inference("int64")
    inputs, attrs = {"X": [x]}, {"k": k}
    if isinstance(k, paddle.static.Variable):
        inputs, attrs = {"X": [x], "K": [k]}, {"k": 1}
    helper.append_op(type="top_k", inputs=inputs, outputs={"Out": [out], "Indices": [idx]}, attrs=attrs)
    return [out, idx]


def topk_all(x, ks, axes):
    """paddle.topk of x for every k in ks along every axis in axes, largest
    and smallest, sorted and not."""
    outs = []
    for axis in axes:
        for k in ks:
            for largest in (True, False):
                for srt in (True, False):
                    outs += list(paddle.topk(x, k, axis=axis, largest=largest, sorted=srt))
    return outs


# ---------------------------------------------------------------- cases
@case
def topk_fixed():
    """The rows that showed the old tie order wrong: [1, 2, 0, 2, 2] k=2 gives
    positions [1, 4]; k=3 unsorted on the 7 values gives [2, 6, 5]."""
    t = data("fixed_ties", [None, 5])
    u = data("fixed_unsorted", [None, 7])
    outs = list(paddle.topk(t, 2)) + topk_all(t, [1, 3, 5], [-1]) + topk_all(u, [3, 7], [1])
    return [t, u], outs


@case
def topk_ties_nth():
    """k * 64 >= n: std::nth_element (introselect over 40 > 3 pairs) and the
    sort of the first k - 1 pairs (introsort past 16 of them)."""
    t = data("ties", [None, 40, 6])
    outs = topk_all(t, [1, 2, 20, 39, 40], [1])
    outs += topk_all(t, [1, 4, 6], [-1])
    outs += topk_all(t, [1, 2], [0])  # the batch axis: n is known only at run time
    return [t], outs


@case
def topk_ties_partial():
    """k * 64 < n: std::partial_sort (heap select, sort_heap); k = 4 and 5 on
    n = 300 take the nth_element path instead."""
    t = data("ties", [None, 300])
    w = data("ties_wide", [None, 3, 130])
    outs = topk_all(t, [1, 2, 4, 5], [1]) + topk_all(w, [1, 2, 3], [2])
    return [t, w], outs


@case
def topk_nan():
    """NaN and infinities among ties: NaN counts as the largest (v2)."""
    s = data("special", [None, 70])
    s2 = data("special_cols", [None, 9, 4])
    outs = topk_all(s, [1, 2, 7, 70], [1]) + topk_all(s2, [1, 3, 9], [1])
    return [s, s2], outs


@case
def topk_ints():
    """int64 and int32 with heavy ties."""
    i = data("i", [None, 130], "int64", -2, 2)
    j = data("j", [None, 5, 33], "int32", 0, 3)
    outs = topk_all(i, [1, 2, 3, 130], [-1]) + topk_all(j, [1, 5], [1]) + topk_all(j, [1, 16, 33], [2])
    return [i, j], outs


@case
def topk_float64():
    d = data("ties_f64", [None, 6, 90], "float64")
    return [d], topk_all(d, [1, 2, 50], [2]) + topk_all(d, [3], [1])


@case
def top_k_legacy():
    """top_k v1: always std::partial_sort with "a > b", NaN included."""
    t = data("ties", [None, 5, 40])
    s = data("special", [None, 200])
    d = data("ties_f64", [None, 70], "float64")
    outs = []
    for k in (1, 3, 40):
        outs += top_k_v1(t, k)
    for k in (1, 3, 4, 200):
        outs += top_k_v1(s, k)
    outs += top_k_v1(d, 2) + top_k_v1(d, 70)
    return [t, s, d], outs


@case
def top_k_tensor_k_ohem():
    """k from a tensor is a run-time extent that the reductions after it read
    (PaddleOCR's DB loss: online hard example mining sums the top k of the
    negative losses, k = min(negatives, 3 * positives) counted in the
    program): top_k v1 over the flattened batch, k counted from the data and
    k fed (1, 7, all), each summed and averaged.  (Paddle refuses to reduce
    none: a k of 0 is an error, tests/test_runtime_extent.py.)"""
    t = data("ties", [None, 5, 60])
    flat = paddle.reshape(t, [-1])
    pos = paddle.sum(paddle.cast(t > 2.5, "float32"))
    neg = paddle.sum(paddle.cast(t < 0.5, "float32"))
    counted = paddle.cast(paddle.minimum(neg, pos * 3), "int32")
    fed = [k_feed("k_one", 1), k_feed("k_seven", 7), k_feed("k_all", BATCH * 5 * 60)]
    outs = []
    for k in [counted] + fed:
        vals = top_k_v1(flat, k)[0]
        outs += [paddle.sum(vals), paddle.mean(vals)]
    return [t] + fed, outs + [counted]


@case
def topk_tensor_k_axes():
    """top_k_v2 with k from a tensor (int32 and int64) along the last and a
    middle axis, largest and smallest, sorted and not, reduced along that
    axis (sum, mean) or over every element."""
    x = data("x", [None, 6, 40])
    k5, k1, k40 = k_feed("k_five", 5), k_feed("k_one", 1), k_feed("k_forty", 40, "int64")
    k3 = k_feed("k_three", 3)
    outs = []
    for k in (k5, k1, k40):
        for largest, srt in ((True, True), (False, False)):
            vals = paddle.topk(x, k, axis=-1, largest=largest, sorted=srt)[0]
            outs += [paddle.sum(vals, axis=2), paddle.mean(vals, axis=-1), paddle.sum(vals)]
    vals = paddle.topk(x, k3, axis=1, largest=False)[0]
    outs += [paddle.sum(vals, axis=1, keepdim=True), paddle.mean(vals, axis=[0, 1])]
    return [x, k5, k1, k40, k3], outs


# ---------------------------------------------------------------- driver
def make_input(v, rng):
    shape = [BATCH if d in (None, -1) else d for d in v.shape]
    dt = str(v.dtype)
    ft = "float64" if "float64" in dt else "float32"
    if v.name in FIXED:
        return np.array(FIXED[v.name], ft)
    if v.name in K_VALUES:
        return np.array([K_VALUES[v.name]], "int64" if "int64" in dt else "int32")
    if "int" in dt:
        low, high = INT_RANGE[v.name]
        return rng.integers(low, high, size=shape).astype("int64" if "int64" in dt else "int32")
    if v.name.startswith("ties"):
        return rng.integers(0, 4, size=shape).astype(ft)
    if v.name.startswith("special"):
        x = rng.integers(-2, 3, size=shape).astype(ft)
        flat = x.reshape(-1)
        flat[::5] = np.nan
        flat[1::7] = np.inf
        flat[3::11] = -np.inf
        flat[2::13] = -0.0
        return x
    return rng.standard_normal(shape).astype(ft)


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

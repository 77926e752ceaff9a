#!/usr/bin/env python3
"""Op-level end-to-end cases for order statistics and searches, where
the order among equal values and NaN matters: kthvalue, mode, nanmedian,
histogram, searchsorted and argsort (ties, NaN), in float32 and, where
Paddle has them, float64 and int32/int64 (top_k's own cases are in
e2e_topk.py).

    python e2e_order.py OUTDIR [CASE ...]

Cases, feeds (drawn from their names) and references: see oracle_case.py's
named_feeds and run_static_cases."""
from oracle_case import append_op as op, case_registry, named_feeds, run_static_cases, unclipped

import paddle

CASES, case = case_registry()
data, make_input = named_feeds()

unclipped_case = unclipped(case)


@case
def kthvalue():
    t = data("ties", [None, 40, 6])   # 40 > 3: nth_element's partitions decide among equal values
    w = data("wide", [None, 130])     # k * 64 < 130: partial_sort
    x = data("x", [None, 5, 7])
    s = data("special", [None, 9])
    i = data("i", [None, 30], "int64", -3, 3)
    j = data("j", [None, 8], "int32", -9, 9)
    d = data("d", [None, 6], "float64")
    outs = []
    for k, axis in ((1, 1), (7, 1), (40, 1), (3, -1), (6, 2), (20, 1)):
        outs += list(paddle.kthvalue(t, k, axis))
    wt = paddle.floor(paddle.scale(w, 2.0))  # ties in a long line
    outs += list(paddle.kthvalue(wt, 2)) + list(paddle.kthvalue(wt, 1)) + list(paddle.kthvalue(wt, 3))
    outs += list(paddle.kthvalue(w, 2)) + list(paddle.kthvalue(w, 65))
    outs += list(paddle.kthvalue(x, 3, 2)) + list(paddle.kthvalue(x, 5, 1)) + list(paddle.kthvalue(s, 4))
    outs += list(paddle.kthvalue(s, 9)) + list(paddle.kthvalue(i, 10)) + list(paddle.kthvalue(j, 1, 1))
    outs += list(paddle.kthvalue(d, 2))
    outs += op("kthvalue", {"X": [x]}, {"Out": ["float32"], "Indices": ["int64"]}, {"k": 2, "axis": 1, "keepdim": True})
    outs += op("kthvalue", {"X": [paddle.sum(x)]}, {"Out": ["float32"], "Indices": ["int64"]}, {"k": 1})  # 0-D
    return [t, w, x, s, i, j, d], outs


@case
def mode_median():
    t = data("ties", [None, 40, 6])  # 40 > 16: std::sort's introsort decides the order of equal values
    x = data("x", [None, 5, 7])
    i = data("i", [None, 30], "int64", -3, 3)
    s = data("special", [None, 9])
    outs = []
    for axis, keep in ((1, False), (-1, True), (0, False), (2, False)):
        outs += list(paddle.mode(t, axis, keep))
    outs += list(paddle.mode(x, 1)) + list(paddle.mode(i)) + list(paddle.mode(s))
    return [t, x, i, s], outs


@unclipped_case
def nanmedian():
    """Saved without clipping extras: Paddle 2.6's default save drops the
    intermediate MedianIndex, and the reloaded program then crashes in
    Paddle's own NanmedianInferMeta."""
    x = data("x", [None, 5, 7])
    n = data("nan", [None, 4, 6])
    t = data("ties", [None, 3, 8])
    i = data("i", [None, 30], "int64", -3, 3)
    j = data("j", [None, 5], "int32", -9, 9)
    outs = [paddle.nanmedian(x), paddle.nanmedian(x, axis=1), paddle.nanmedian(x, axis=[0, 2], keepdim=True),
            paddle.nanmedian(x, axis=-1), paddle.nanmedian(n), paddle.nanmedian(n, axis=2),
            paddle.nanmedian(n, axis=[1, 2], keepdim=True), paddle.nanmedian(t, axis=1), paddle.nanmedian(i, axis=1),
            paddle.nanmedian(j, axis=1), paddle.nanmedian(x, keepdim=True)]
    return [x, n, t, i, j], outs


@case
def histogram():
    x = data("x", [None, 5, 7])
    i = data("i", [None, 30], "int64", -3, 3)
    j = data("j", [None, 8], "int32", -9, 9)
    d = data("d", [None, 6], "float64")
    s = data("special", [None, 9])
    c = paddle.full([3], 2.0, "float32")
    outs = [paddle.histogram(x), paddle.histogram(x, 7, -1, 2), paddle.histogram(x, 4, 0, 0), paddle.histogram(i, 5),
            paddle.histogram(i, 3, -2, 1), paddle.histogram(j, 6), paddle.histogram(d, 9, -1, 1),
            paddle.histogram(s, 5, -2, 2), paddle.histogram(c, 4)]  # all equal: the range widens by 1 each way
    return [x, i, j, d, s], outs


@case
def searchsorted():
    v = data("x", [None, 7])
    seq = data("sorted", [9])  # repeated values: lower and upper bound differ
    rows = data("sorted_rows", [None, 3, 6])
    vals = data("vals", [None, 3, 4])
    s = data("special", [None, 8])
    iseq = data("iseq", [None, 10], "int64", 0, 3)  # made a sorted integer sequence below
    ival = data("ival", [None, 5], "int64", -3, 12)
    t = data("ties", [None, 6])
    iseq_sorted = paddle.cumsum(iseq, axis=1)
    outs = [paddle.searchsorted(seq, v), paddle.searchsorted(seq, v, right=True),
            paddle.searchsorted(seq, v, out_int32=True), paddle.searchsorted(rows, vals),
            paddle.searchsorted(rows, vals, right=True, out_int32=True), paddle.searchsorted(seq, s),
            paddle.searchsorted(iseq_sorted, ival), paddle.searchsorted(iseq_sorted, ival, right=True),
            paddle.searchsorted(seq, ival), paddle.searchsorted(paddle.floor(seq), t, right=True),
            paddle.searchsorted(paddle.floor(seq), t)]
    return [v, seq, rows, vals, s, iseq, ival, t], outs


@case
def argsort_ties():
    t = data("ties", [None, 40, 6])  # 40 > 16: std::sort's introsort, not just its insertion sort
    n = data("special", [None, 6])
    i = data("i", [None, 30], "int64", -3, 3)
    s = data("x", [None, 5, 7])
    outs = []
    for axis, desc in [(1, False), (1, True), (-1, False), (2, True), (0, False)]:
        outs += list(op("argsort", {"X": [t]}, {"Out": ["float32"], "Indices": ["int64"]},
                        {"axis": axis, "descending": desc}))
    outs += [paddle.argsort(n), paddle.argsort(n, descending=True), paddle.sort(n)]
    outs += [paddle.argsort(i), paddle.argsort(i, descending=True), paddle.sort(i, descending=True)]
    outs += [paddle.argsort(s, axis=1), paddle.sort(s, axis=-1, descending=True)]
    return [t, n, i, s], outs


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

#!/usr/bin/env python3
"""Op-level end-to-end cases for the scans beyond cumsum (which e2e_tensor.py
holds): cummax and cummin (values and indices, every axis, ties, NaN and
infinities, integer and float64 inputs) and logcumsumexp (axis, flatten,
exclusive, reverse, large magnitudes), cumprod (with kron and size beside
it).

    python e2e_scan.py OUTDIR [CASE ...]

Cases, feeds (drawn from their names) and references: see oracle_case.py's
named_feeds and run_static_cases."""
from oracle_case import append_op as op, case_registry, named_feeds, run_static_cases

import paddle

CASES, case = case_registry()
data, make_input = named_feeds()


@case
def cum_maxmin():
    t = data("ties", [None, 7, 5])
    s = data("special", [None, 9])
    i = data("i", [None, 6], "int64", -3, 3)
    j = data("j", [None, 3, 4], "int32", -2, 2)
    d = data("d", [None, 4, 3], "float64")
    outs = []
    for f in (paddle.cummax, paddle.cummin):
        outs += list(f(t, axis=1)) + list(f(t, axis=-1)) + list(f(t, axis=0)) + list(f(t))
        outs += list(f(s, axis=1)) + list(f(i, axis=1, dtype="int32")) + list(f(j, axis=2)) + list(f(d, axis=1))
    return [t, s, i, j, d], outs


@case
def logcumsumexp():
    x = data("x", [None, 3, 4])
    s = data("special", [None, 7])
    d = data("d", [None, 5], "float64")
    outs = [paddle.logcumsumexp(x), paddle.logcumsumexp(x, axis=1), paddle.logcumsumexp(x, axis=0),
            paddle.logcumsumexp(s, axis=-1), paddle.logcumsumexp(d, axis=1)]
    for attrs in ({"axis": 1, "exclusive": True}, {"axis": 2, "reverse": True},
                  {"axis": 1, "exclusive": True, "reverse": True}, {"axis": -1, "flatten": True, "exclusive": True}):
        outs += op("logcumsumexp", {"X": [x]}, {"Out": ["float32"]}, attrs)
    w = paddle.scale(x, 100.0)  # large magnitudes: the max-shifted form must not overflow
    outs.append(paddle.logcumsumexp(w, axis=2))
    return [x, s, d], outs


@case
def cumprod_kron_size():
    x = data("x", [None, 3, 4])
    i = data("i", [None, 5], "int64", -3, 4)
    outs = [paddle.cumprod(x, 1), paddle.cumprod(x, -1), paddle.cumprod(x, 0), paddle.cumprod(i, 1)]
    a = data("a", [2, 3])
    b = data("b", [None, 2, 2])
    m = data("m", [3, 2], "int64")
    outs += [paddle.kron(a, b), paddle.kron(b, a), paddle.kron(m, m)]
    outs += [paddle.numel(x), paddle.numel(a)]
    return [x, i, a, b, m], outs


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

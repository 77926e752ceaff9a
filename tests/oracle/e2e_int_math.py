#!/usr/bin/env python3
"""Op-level end-to-end cases for the math ops whose Paddle 2.6 CPU kernels
take int32/int64 tensors: exp, expm1, log, log2, log10, log1p (computed in
float, Out float32), pow (Eigen's integer pow of the truncated factor),
sign (also int8/int16/uint8), clip (bounds converted to the integer type,
from attributes or Min/Max tensors), elementwise_pow (std::pow in double,
converted back), abs and square with wrap-around.

    python e2e_int_math.py OUTDIR [CASE ...]

Cases, feeds (drawn from their names) and references: see oracle_case.py's
named_feeds and run_static_cases."""
from oracle_case import append_op as op, case_registry, named_feeds, run_static_cases

import numpy as np
import paddle

CASES, case = case_registry()
data, make_input = named_feeds()

INTS = ("int32", "int64")


@case
def int_to_float():
    """exp and the logarithms of integers: float32 results; zeros and
    negatives (log's -inf and NaN), and values up to 99 (exp past float's
    range gives inf)."""
    feeds, outs = [], []
    for dt in INTS:
        x = data(f"x_{dt}", [None, 3, 5], dt, -3, 100)
        feeds.append(x)
        for t in ("exp", "expm1", "log", "log2", "log10", "log1p"):
            outs += op(t, {"X": [x]}, {"Out": ["float32"]}, {})
    return feeds, outs


@case
def pow_int():
    """pow of integers: the factor truncated to the integer type (2.5 is
    2), exponentiation by squaring; factors 0, 1, 2.5, 3, 7 (7 of |x| up to
    1000 wraps in int32, 13 wraps int64 too)."""
    feeds, outs = [], []
    for dt in INTS:
        x = data(f"x_{dt}", [None, 4, 5], dt, -1000, 1000)
        s = data(f"small_{dt}", [None, 6], dt, -4, 5)
        feeds += [x, s]
        for f in (0.0, 1.0, 2.5, 3.0, 7.0, 13.0):
            outs += op("pow", {"X": [x]}, {"Out": [dt]}, {"factor": f})
        outs += op("pow", {"X": [s]}, {"Out": [dt]}, {"factor": 5.9})
    return feeds, outs


@case
def sign_int():
    """sign of every integer type Paddle's CPU kernel takes."""
    x = data("x", [None, 3, 4], "int32", -3, 4)
    y = data("y", [None, 7], "int64", -2**40, 2**40)
    outs = [paddle.sign(x), paddle.sign(y)]
    for dt in ("int8", "int16", "uint8"):
        outs += op("sign", {"X": [paddle.cast(x, dt)]}, {"Out": [dt]}, {})
    return [x, y], outs


@case
def clip_int():
    """clip of integers: float bounds truncated (-2.7 is -2, 3.9 is 3),
    paddle.clip's defaults for integers (the type's range, max less a
    margin; int64's min is INT64_MIN itself), Min/Max tensors of the
    integer type and of float32."""
    x = data("x", [None, 3, 5], "int32", -10, 10)
    y = data("y", [None, 8], "int64", -2**40, 2**40)
    outs = [op("clip", {"X": [x]}, {"Out": ["int32"]}, {"min": -2.7, "max": 3.9})[0],
            op("clip", {"X": [y]}, {"Out": ["int64"]}, {"min": -1e12, "max": 5e11})[0],
            paddle.clip(x, max=4), paddle.clip(y, min=-7), paddle.clip(y, max=5),
            paddle.clip(x, paddle.full([1], -3, "int32"), paddle.full([1], 6, "int32")),
            op("clip", {"X": [x], "Min": [paddle.full([1], -4.6, "float32")], "Max": [paddle.full([1], 2.2, "float32")]},
               {"Out": ["int32"]}, {"min": 0.0, "max": 0.0})[0],
            op("clip", {"X": [y], "Max": [paddle.full([1], 123456789012, "int64")]}, {"Out": ["int64"]},
               {"min": -5.0, "max": 0.0})[0]]
    return [x, y], outs


@case
def elementwise_pow_int():
    """elementwise_pow of integers: std::pow in double, converted back
    toward zero; negative exponents (2^-1 is 0, 1^-3 is 1, 0^-1 is inf:
    the most negative integer), results past the type's range (the most
    negative integer too), broadcasting."""
    feeds, outs = [], []
    for dt in INTS:
        a = data(f"a_{dt}", [None, 3, 4], dt, -6, 7)
        b = data(f"b_{dt}", [None, 3, 4], dt, -3, 8)
        big = data(f"big_{dt}", [None, 3, 4], dt, 900, 1000)
        e = data(f"e_{dt}", [4], dt, 5, 15)
        feeds += [a, b, big, e]
        outs += [paddle.pow(a, b), paddle.pow(big, e), op("elementwise_pow", {"X": [a], "Y": [e]}, {"Out": [dt]},
                                                          {"axis": -1})[0]]
    return feeds, outs


@case
def abs_square_int():
    """abs and square of integers; squares past int32's range wrap."""
    x = data("x", [None, 3, 5], "int32", -100000, 100000)
    y = data("y", [None, 6], "int64", -2**40, 2**40)
    return [x, y], [paddle.abs(x), paddle.square(x), paddle.abs(y), paddle.square(y)]


if __name__ == "__main__":
    np.seterr(all="ignore")
    run_static_cases(CASES, make_input)

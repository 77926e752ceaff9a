#!/usr/bin/env python3
"""Op-level end-to-end cases for gru_unit (one GRU step, the 1.x
fluid.layers.gru_unit op) and accuracy (the top-k metric).

gru_unit: random Weight and Bias (the case's parameters), with and without
Bias, each pairing of activation and gate_activation ints (0 identity, 1
sigmoid, 2 tanh, 3 relu), origin_mode true and false, float32 and float64;
every output (Gate, ResetHiddenPrev, Hidden) fetched.  accuracy: paddle.topk
then paddle.static.accuracy with k 1 and 3, float32 and float64 scores,
Accuracy, Correct and Total fetched.

    python e2e_gru_unit.py OUTDIR [CASE ...]

Cases, feeds (drawn from their names) and references: see oracle_case.py's
named_feeds and run_static_cases."""
from oracle_case import append_op as op, case_registry, named_feeds, run_static_cases

import paddle

CASES, case = case_registry()
data, make_input = named_feeds(batch=5)

D = 4


def gru_unit(x, hp, dtype, act, gate_act, origin, bias=True):
    w = paddle.static.create_parameter([D, 3 * D], dtype)
    ins = {"Input": [x], "HiddenPrev": [hp], "Weight": [w]}
    if bias:
        ins["Bias"] = [paddle.static.create_parameter([1, 3 * D], dtype)]
    return op("gru_unit", ins, {"Gate": [dtype], "ResetHiddenPrev": [dtype], "Hidden": [dtype]},
              {"activation": act, "gate_activation": gate_act, "origin_mode": origin})


def gru_cases(dtype, pairs):
    x = data("x", [None, 3 * D], dtype)
    hp = data("hp", [None, D], dtype)
    outs = []
    for n, (act, gate_act) in enumerate(pairs):
        outs += gru_unit(x, hp, dtype, act, gate_act, n % 2 == 1, bias=n % 3 != 2)
    return [x, hp], outs


@case
def gru_unit_f32():
    # every activation with every gate activation; origin_mode and Bias alternate
    return gru_cases("float32", [(a, g) for a in range(4) for g in range(4)])


@case
def gru_unit_f64():
    return gru_cases("float64", [(2, 1), (2, 1), (3, 2), (0, 3), (1, 0), (2, 2)])


@case
def gru_unit_defaults():
    # fluid.layers.gru_unit's defaults: tanh, sigmoid, origin_mode false, with and without Bias
    x = data("x", [None, 3 * D])
    hp = data("hp", [None, D])
    return [x, hp], gru_unit(x, hp, "float32", 2, 1, False) + gru_unit(x, hp, "float32", 2, 1, True, bias=False)


def accuracy_cases(dtype):
    x = data("x", [None, 6], dtype)
    y = data("y", [None, 1], "int64", 0, 6)
    outs = []
    for k in (1, 3):
        v, i = paddle.topk(x, k)
        outs += op("accuracy", {"Out": [v], "Indices": [i], "Label": [y]},
                   {"Accuracy": ["float32"], "Correct": ["int32"], "Total": ["int32"]}, {})
    return [x, y], outs + [paddle.static.accuracy(x, y, k=3)]


@case
def accuracy_f32():
    return accuracy_cases("float32")


@case
def accuracy_f64():
    return accuracy_cases("float64")


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

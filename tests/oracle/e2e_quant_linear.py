#!/usr/bin/env python3
"""Op-level end-to-end cases for the per-channel and linear quantization ops
(compiler/ops/fake_channel_quant.c, compiler/ops/quant_linear.c):
fake_channel_wise_quantize_abs_max, fake_channel_wise_quantize_dequantize_abs_max,
fake_channel_wise_dequantize_max_abs, quantize_linear and dequantize_linear,
on each quant_axis, several bit_lengths, both round_types, at inference
(is_test) and in training, float64 where Paddle registers it.

    python e2e_quant_linear.py OUTDIR [CASE ...]

Inputs are drawn from a generator seeded by the case's name (see
tests/oracle/oracle_case.py): float inputs standard normal (int8 ones
uniform in [-127, 127]), except the feeds named with a POSITIVE prefix (scales and
moving-average states, uniform in [0.5, 2)) and the tie feeds: "xq" holds
halves in [-3, 3] with 3 in every channel along dims 0 and 1 (x[:, 0, ...]
and x[0, :, ...]) and "sq" is all 3s, so that with bit_length 3 (bc = 3)
the quantization multiplies by exactly 1 and the halves are exact ties
(0.5, 1.5, 2.5: round_type 0 takes the even neighbour, 1 the one away
from zero).  Every case is saved with its extra attributes, inputs and
outputs (round_type of the channel-wise ops, moving_rate, InAccum, ...).
The training cases (TRAINING) are saved with save_inference_model, which
sets is_test on every op; their file is then rewritten with is_test false
on the quantize ops and Paddle's Executor recomputes the outputs from it.
"""
import os
import sys
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle_case  # noqa: E402
from oracle_case import append_op as op, case_registry  # noqa: E402

import paddle  # noqa: E402

CASES, case = case_registry()
TRAINING = set()  # cases whose quantize ops run with is_test false
POSITIVE = ("scale", "s64", "state", "accum")  # name prefixes
TRAINED_OPS = {"quantize_linear", "fake_channel_wise_quantize_abs_max"}


def data(name, shape, dtype="float32"):
    return paddle.static.data(name, shape, dtype)


def training(fn):
    CASES[fn.__name__] = fn
    TRAINING.add(fn.__name__)
    return fn


F32 = ["float32"]
CHANNEL_QUANT = ("fake_channel_wise_quantize_abs_max", "fake_channel_wise_quantize_dequantize_abs_max")


# ---------------------------------------------------------------- channel-wise fake quantize
@training
def channel_quant():
    """Out and OutScale of both channel-wise quantize ops (the quantize op in
    its training form, the one that computes OutScale): quant_axis 0 and 1
    on a rank-4 and a rank-2 X, the defaults (8 bits, round_type 1), both
    round_types at 3 bits on exact ties, 16 bits."""
    x, xq, x2 = data("x", [4, 3, 2, 5]), data("xq", [4, 3, 2, 5]), data("x2", [6, 7])
    outs = []
    for t in CHANNEL_QUANT:
        for axis in (0, 1):
            outs += op(t, {"X": [x]}, {"Out": F32, "OutScale": F32}, {"quant_axis": axis})
            outs += op(t, {"X": [x2]}, {"Out": F32, "OutScale": F32}, {"quant_axis": axis, "bit_length": 16,
                                                                        "round_type": 0})
            for rt in (0, 1):
                outs += op(t, {"X": [xq]}, {"Out": F32, "OutScale": F32},
                           {"quant_axis": axis, "bit_length": 3, "round_type": rt})
    return [x, xq, x2], outs


@case
def channel_quant_dequant_inference():
    """fake_channel_wise_quantize_dequantize_abs_max has no is_test: the same
    at inference; 5 bits, round_type 0 and 1; an X with a batch dim (known
    at run time: along quant_axis 0 the scales are one per row)."""
    x, xb = data("x", [3, 4, 5]), data("xb", [-1, 4, 5])
    outs = []
    for axis in (0, 1):
        for rt in (0, 1):
            outs += op(CHANNEL_QUANT[1], {"X": [x]}, {"Out": F32, "OutScale": F32},
                       {"quant_axis": axis, "bit_length": 5, "round_type": rt})
        outs += op(CHANNEL_QUANT[1], {"X": [xb]}, {"Out": F32, "OutScale": F32}, {"quant_axis": axis})
    return [x, xb], outs


@case
def channel_dequant():
    """fake_channel_wise_dequantize_max_abs: one Scales tensor along
    quant_axis 0 and 1 (quant_bits [8] and [4]); two (a per-channel and a
    per-tensor scale) along x_num_col_dims 1 and 2, quant_bits [8, 8] and
    [4, 6]; float32 and float64."""
    outs, feeds = [], []
    for dt, p in (("float32", "f"), ("float64", "d")):
        x = data(p + "x", [4, 3, 2, 5], dt)
        s0, s1, s2 = data("scale_" + p + "0", [4], dt), data("scale_" + p + "1", [3], dt), data("scale_" + p + "2", [2], dt)
        one = data("scale_" + p, [1], dt)
        feeds += [x, s0, s1, s2, one]
        outs += op("fake_channel_wise_dequantize_max_abs", {"X": [x], "Scales": [s0]}, {"Out": [dt]}, {})
        outs += op("fake_channel_wise_dequantize_max_abs", {"X": [x], "Scales": [s1]}, {"Out": [dt]},
                   {"quant_axis": 1, "quant_bits": [4]})
        outs += op("fake_channel_wise_dequantize_max_abs", {"X": [x], "Scales": [s1, one]}, {"Out": [dt]},
                   {"quant_bits": [8, 8]})
        outs += op("fake_channel_wise_dequantize_max_abs", {"X": [x], "Scales": [s2, one]}, {"Out": [dt]},
                   {"quant_bits": [4, 6], "x_num_col_dims": 2})
    return feeds, outs


# ---------------------------------------------------------------- quantize_linear / dequantize_linear
def linear_inputs():
    x, xq = data("x", [4, 3, 2, 5]), data("xq", [4, 3, 2, 5])
    z = data("zero", [1])
    return x, xq, z


@case
def quantize_linear_is_test():
    """Inference: per tensor (quant_axis -1, Scale [1]) and per channel (0,
    1: Scale [C]); the default round_type 0 and 1 at 3 bits on exact ties,
    random scales below max |X| (clipping, clamping) at 8 and 4 bits;
    only_observer."""
    x, xq, z = linear_inputs()
    s, sq = data("scale", [1]), data("sq", [1])
    s0, s1, sq0, sq1 = data("scale1", [4]), data("scale2", [3]), data("sq0", [4]), data("sq1", [3])
    outs = []
    for axis, scale, tie in ((-1, s, sq), (0, s0, sq0), (1, s1, sq1)):
        for rt in (0, 1):
            outs += op("quantize_linear", {"X": [x], "Scale": [scale], "ZeroPoint": [z]}, {"Y": F32},
                       {"quant_axis": axis, "round_type": rt, "bit_length": 8 if rt else 4})
            outs += op("quantize_linear", {"X": [xq], "Scale": [tie], "ZeroPoint": [z]}, {"Y": F32},
                       {"quant_axis": axis, "round_type": rt, "bit_length": 3})
        outs += op("quantize_linear", {"X": [x], "Scale": [scale], "ZeroPoint": [z]}, {"Y": F32},
                   {"quant_axis": axis, "only_observer": True})
    return [x, xq, z, s, sq, s0, s1, sq0, sq1], outs


@training
def quantize_linear_training():
    """Training: quant_axis -1 moves the scale (InState, InAccum ->
    OutState, OutAccum, OutScale; moving_rate 0.9 and 0.5); quant_axis 0
    and 1 take this run's max |X| per channel (OutScale); round_type 0 and
    1 on exact ties; only_observer still moves the scale."""
    x, xq, z = linear_inputs()
    s, st, ac = data("scale", [1]), data("state", [1]), data("accum", [1])
    outs = []
    moving = {"Y": F32, "OutScale": F32, "OutState": F32, "OutAccum": F32}
    ins = {"X": [x], "Scale": [s], "ZeroPoint": [z], "InState": [st], "InAccum": [ac]}
    for attrs in ({"quant_axis": -1}, {"quant_axis": -1, "moving_rate": 0.5, "round_type": 1, "bit_length": 5},
                  {"quant_axis": -1, "only_observer": True}):
        outs += op("quantize_linear", ins, dict(moving), attrs)
    for axis in (0, 1):
        for rt in (0, 1):
            outs += op("quantize_linear", {"X": [xq], "Scale": [s], "ZeroPoint": [z]},
                       {"Y": F32, "OutScale": F32}, {"quant_axis": axis, "round_type": rt, "bit_length": 3})
        outs += op("quantize_linear", {"X": [x], "Scale": [s], "ZeroPoint": [z]},
                   {"Y": F32, "OutScale": F32}, {"quant_axis": axis, "only_observer": True})
    return [x, xq, z, s, st, ac], outs


@case
def dequantize_linear():
    """dequantize_linear of an int8, a float32 and a float64 X with a
    float32 and a float64 Scale (Y of the Scale's dtype), per tensor and
    per channel (quant_axis -1, 0, 1), 8 and 4 bits; only_observer."""
    xi, xf, xd = data("xi", [4, 3, 5], "int8"), data("xf", [4, 3, 5]), data("xd", [4, 3, 5], "float64")
    z = data("zero", [1])
    scales = {"float32": (data("scale", [1]), data("scale1", [4]), data("scale2", [3])),
              "float64": (data("s64", [1], "float64"), data("s64_0", [4], "float64"), data("s64_1", [3], "float64"))}
    outs = []
    for x in (xi, xf, xd):
        for dt, (s, s0, s1) in scales.items():
            for axis, scale in ((-1, s), (0, s0), (1, s1)):
                outs += op("dequantize_linear", {"X": [x], "Scale": [scale], "ZeroPoint": [z]}, {"Y": [dt]},
                           {"quant_axis": axis, "bit_length": 4 if axis == 1 else 8})
    for x, dt in ((xf, "float32"), (xd, "float64")):
        outs += op("dequantize_linear", {"X": [x], "Scale": [scales[dt][0]], "ZeroPoint": [z]}, {"Y": [dt]},
                   {"quant_axis": -1, "only_observer": True})
    return [xi, xf, xd, z] + [v for t in scales.values() for v in t], outs


# ---------------------------------------------------------------- driver
def make_input(v, rng):
    shape = [3 if d < 0 else d for d in v.shape]  # a batch dim: 3 rows
    name = v.name
    dt = str(v.dtype)
    if "int8" in dt:
        return rng.integers(-127, 128, size=shape).astype("int8")
    dt = "float64" if "64" in dt else "float32"
    if name.startswith(POSITIVE):
        return rng.uniform(0.5, 2.0, shape).astype(dt)
    if name.startswith("sq"):
        return np.full(shape, 3.0, dt)
    if name == "zero":
        return np.zeros(shape, dt)
    if name == "xq":
        x = rng.integers(-6, 7, size=shape).astype(dt) / 2
        rest = (0,) * (len(shape) - 2)
        x[(slice(None), 0) + rest] = 3.0
        x[(0, slice(None)) + rest] = -3.0
        return x
    return rng.standard_normal(shape).astype(dt)


def build_case(out_dir, name, fn):
    """oracle_case.build_static_case with the extra attributes, inputs and
    outputs kept; for a TRAINING case the file is rewritten with is_test
    false on the quantize ops before Paddle computes the outputs from it."""
    d, inputs = oracle_case.build_static_case(out_dir, name, fn, make_input, clip_extra=False,
                                              run_reference=name not in TRAINING)
    if name not in TRAINING:
        return
    path = os.path.join(d, "model.pdmodel")
    with open(path, "rb") as f:
        prog = paddle.static.Program.parse_from_string(f.read())
    for o in prog.global_block().ops:
        if o.type in TRAINED_OPS and o.has_attr("is_test"):
            o._set_attr("is_test", False)
    with open(path, "wb") as f:
        f.write(prog.desc.serialize_to_string())
    oracle_case.reference(d, inputs)


if __name__ == "__main__":
    paddle.enable_static()
    paddle.seed(1)
    for case_name in sys.argv[2:] or list(CASES):
        build_case(sys.argv[1], case_name, CASES[case_name])

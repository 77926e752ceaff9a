#!/usr/bin/env python3
"""Op-level end-to-end cases for the fake_quantize family (found wrong by
running Paddle's own per-op unit-test cases as one-op programs): the five
fake_quantize ops, at inference (is_test) and in training, with both
round_types and several bit_lengths.

    python e2e_quant.py OUTDIR [CASE ...]

Inputs are drawn from a generator seeded by the case's name (see
tests/oracle/oracle_case.py): float inputs standard normal, except the
feeds named in POSITIVE (scales and moving-average states, uniform in
[0.5, 2)) and "xq" (halves in [-4, 4], x[0, 0] = 4, so that quantization
hits exact ties).  The training cases (TRAINING) are saved with Paddle's
save_inference_model, which sets is_test on every op; their file is then
rewritten with is_test false on the fake_quantize ops and Paddle's
Executor recomputes the outputs from it.
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
TRAINING = set()  # cases whose fake_quantize ops run with is_test false
POSITIVE = {"scale", "state", "accum"}


def data(name, shape, dtype="float32"):
    return paddle.static.data(name, shape, dtype)


# ---------------------------------------------------------------- fake quantize
ABS_MAX = ("fake_quantize_abs_max", "fake_quantize_dequantize_abs_max")
MOVING = ("fake_quantize_moving_average_abs_max", "fake_quantize_dequantize_moving_average_abs_max")
OUTS = {"Out": ["float32"], "OutScale": ["float32"]}


@case
def fake_quant_abs_max():
    """Out and OutScale of the abs_max ops: defaults (round_type 1, 8
    bits), round_type 0 and 1 at 3 bits on exact ties, 1 and 16 bits."""
    x, xq = data("x", [4, 6]), data("xq", [4, 6])
    outs = []
    for t in ABS_MAX:
        outs += op(t, {"X": [x]}, dict(OUTS), {})
        for rt in (0, 1):
            outs += op(t, {"X": [xq]}, dict(OUTS), {"bit_length": 3, "round_type": rt})
        for bits in (1, 16):
            outs += op(t, {"X": [x]}, dict(OUTS), {"bit_length": bits, "round_type": 0})
    return [x, xq], outs


@case
def fake_quant_is_test():
    """Inference: the scale comes from InScale; Paddle writes only Out."""
    x, xq, s = data("x", [4, 6]), data("xq", [4, 6]), data("scale", [1])
    st, ac = data("state", [1]), data("accum", [1])
    outs = []
    for t in MOVING:
        for attrs in ({}, {"round_type": 0, "bit_length": 5}, {"round_type": 1, "bit_length": 3}):
            outs.append(op(t, {"X": [xq if attrs.get("bit_length") == 3 else x], "InScale": [s],
                               "InState": [st], "InAccum": [ac]},
                           {"Out": ["float32"], "OutScale": ["float32"], "OutState": ["float32"],
                            "OutAccum": ["float32"]}, dict(attrs, is_test=True))[0])
    for attrs in ({}, {"round_type": 0, "bit_length": 4}):
        outs.append(op("fake_quantize_range_abs_max", {"X": [x], "InScale": [s]}, dict(OUTS),
                       dict(attrs, is_test=True, window_size=16))[0])
    return [x, xq, s, st, ac], outs


def moving_training():
    """Training: the scale, state and accumulator move (all four outputs)."""
    x, s, st, ac = data("x", [4, 6]), data("scale", [1]), data("state", [1]), data("accum", [1])
    outs = []
    for t in MOVING:
        for attrs in ({}, {"round_type": 0, "bit_length": 4, "moving_rate": 0.5}):
            outs += op(t, {"X": [x], "InScale": [s], "InState": [st], "InAccum": [ac]},
                       {"Out": ["float32"], "OutScale": ["float32"], "OutState": ["float32"],
                        "OutAccum": ["float32"]}, dict(attrs, is_test=False))
    return [x, s, st, ac], outs


CASES["fake_quant_moving_training"] = moving_training
TRAINING.add("fake_quant_moving_training")


# ---------------------------------------------------------------- driver
def make_input(v, rng):
    shape = list(v.shape)
    if v.name in POSITIVE:
        return rng.uniform(0.5, 2.0, shape).astype("float32")
    if v.name == "xq":
        x = rng.integers(-8, 9, size=shape).astype("float32") / 2
        x.flat[0] = 4.0
        return x
    dt = "float64" if "64" in str(v.dtype) else "float32"
    return rng.standard_normal(shape).astype(dt)


def build_training_case(out_dir, name, fn):
    """oracle_case.build_static_case for a TRAINING case: the file that
    save_inference_model writes (is_test set everywhere) is rewritten with
    is_test false on the fake_quantize ops before Paddle computes the
    outputs from it (with is_test, Paddle leaves the scale outputs unset)."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        feeds, fetches = fn()
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    inputs = [make_input(f, rng) for f in feeds]
    d = os.path.join(out_dir, name)
    os.makedirs(d, exist_ok=True)
    exe = paddle.static.Executor(paddle.CPUPlace())
    with paddle.static.scope_guard(paddle.static.Scope()):
        exe.run(startup)
        paddle.static.save_inference_model(os.path.join(d, "model"), feeds, fetches, exe, program=main)
    path = os.path.join(d, "model.pdmodel")
    with open(path, "rb") as f:
        prog = paddle.static.Program.parse_from_string(f.read())
    for o in prog.global_block().ops:
        if o.type.startswith("fake_quantize") and o.has_attr("is_test"):
            o._set_attr("is_test", False)
    with open(path, "wb") as f:
        f.write(prog.desc.serialize_to_string())
    oracle_case.reference(d, inputs)


if __name__ == "__main__":
    paddle.enable_static()
    paddle.seed(1)
    for name in sys.argv[2:] or list(CASES):
        if name in TRAINING:
            build_training_case(sys.argv[1], name, CASES[name])
        else:
            oracle_case.build_static_case(sys.argv[1], name, CASES[name], make_input)

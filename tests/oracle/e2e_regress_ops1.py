#!/usr/bin/env python3
"""Op-level end-to-end regression cases for defects found by running
Paddle's own per-op unit-test cases as one-op programs:

  - reshape2 / reshape with a Shape tensor or a ShapeTensor list known at
    compile time (the tensors win over the `shape` attribute);
  - flatten2 / flatten_contiguous_range of a 0-D tensor ([1]);
  - slice / strided_slice with infer_flags shorter than axes;
  - activations and scale with negative attributes (the C literals);
  - the five fake_quantize ops, at inference (is_test) and in training,
    with both round_types and several bit_lengths.

    python e2e_regress_ops1.py OUTDIR [CASE ...]

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


def const_int(values, dtype="int32"):
    """A tensor whose values are known at compile time (assign_value)."""
    return paddle.assign(np.array(values, dtype))


# ---------------------------------------------------------------- reshape
@case
def reshape_shape_tensor():
    """Shape (and ShapeTensor) win over the `shape` attribute (Paddle's
    OpTest: X [6, 20], Shape [2, 3, 20], shape [0, -1, 20])."""
    x = data("x", [6, 20])
    outs = []
    for t in ("reshape2", "reshape"):
        o = {"Out": ["float32"]}
        if t == "reshape2":
            o["XShape"] = ["float32"]
        outs += [op(t, {"X": [x], "Shape": [const_int([2, 3, 20])]}, o, {"shape": [0, -1, 20]})[0]]
    # ShapeTensor over Shape over shape
    st = [const_int([4], "int64"), const_int([-1], "int64"), const_int([5])]
    outs += [op("reshape2", {"X": [x], "Shape": [const_int([3, 40])], "ShapeTensor": st},
                {"Out": ["float32"], "XShape": ["float32"]}, {"shape": [0, -1, 20]})[0]]
    # Shape alone, with the attribute empty
    outs += [op("reshape2", {"X": [x], "Shape": [const_int([10, -1], "int64")]},
                {"Out": ["float32"], "XShape": ["float32"]}, {})[0]]
    return [x], outs


# ---------------------------------------------------------------- flatten
@case
def flatten_zero_d():
    x = data("x", [])
    a = op("flatten2", {"X": [x]}, {"Out": ["float32"], "XShape": ["float32"]}, {"axis": 0})[0]
    b = op("flatten_contiguous_range", {"X": [x]}, {"Out": ["float32"], "XShape": ["float32"]},
           {"start_axis": 0, "stop_axis": -1})[0]
    return [x], [a, b]


# ---------------------------------------------------------------- slice
@case
def slice_short_infer_flags():
    x = data("x", [3, 4, 5, 6])
    outs = [op("slice", {"Input": [x]}, {"Out": ["float32"]},
               {"axes": [0, 1, 2], "starts": [1, 0, 2], "ends": [3, 3, 4], "infer_flags": [1],
                "decrease_axis": []})[0],
            op("slice", {"Input": [x]}, {"Out": ["float32"]},
               {"axes": [1, 3], "starts": [-3, 1], "ends": [2, 2], "infer_flags": [1],
                "decrease_axis": [3]})[0],
            op("strided_slice", {"Input": [x]}, {"Out": ["float32"]},
               {"axes": [0, 1, 2], "starts": [1, 0, 2], "ends": [3, 3, 4], "strides": [1, 1, 2],
                "infer_flags": [1], "decrease_axis": []})[0],
            op("strided_slice", {"Input": [x]}, {"Out": ["float32"]},
               {"axes": [3, 1], "starts": [-1, 3], "ends": [-7, 0], "strides": [-2, -1],
                "infer_flags": [1], "decrease_axis": []})[0]]
    return [x], outs


# ---------------------------------------------------------------- activations
NEGATIVE_ATTRS = [
    ("hard_shrink", {"threshold": -0.1}), ("softshrink", {"lambda": -0.2}),
    ("leaky_relu", {"alpha": -0.3}), ("swish", {"beta": -1.5}), ("soft_relu", {"threshold": -0.5}),
    ("thresholded_relu", {"threshold": -0.5}), ("elu", {"alpha": -0.5}), ("celu", {"alpha": -0.5}),
    ("hard_sigmoid", {"slope": -0.2, "offset": -0.5}), ("relu6", {"threshold": -1.0}),
    ("brelu", {"t_min": -2.0, "t_max": -0.5}), ("mish", {"threshold": -1.0}),
    ("softplus", {"beta": -1.0, "threshold": -2.0}), ("stanh", {"scale_a": -0.5, "scale_b": -2.0}),
    ("selu", {"scale": -1.5, "alpha": -0.5}), ("clip", {"min": -0.5, "max": -0.25}),
    ("scale", {"scale": -2.0, "bias": -0.5}), ("scale", {"scale": -2.0, "bias": -0.5, "bias_after_scale": False}),
]


@case
def activations_negative_attrs():
    x = data("x", [4, 6])
    outs = [op(t, {"X": [x]}, {"Out": ["float32"]}, dict(a))[0] for t, a in NEGATIVE_ATTRS]
    d = data("d", [4, 6], "float64")
    outs += [op(t, {"X": [d]}, {"Out": ["float64"]}, dict(a))[0]
             for t, a in NEGATIVE_ATTRS if t in ("hard_shrink", "softshrink", "leaky_relu", "scale")]
    return [x, d], outs


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

"""Gradient cases of the 1.x recurrent and sequence ops' grad kernels:
gru_unit_grad (GRUUnitGradKernel), im2sequence_grad (Col2Im, kOCF),
linear_chain_crf_grad (LinearChainCRFGradOpKernel), gru_grad
(GRUGradKernel) and lstm_grad (LSTMGradKernel).

gru_unit_grad: random Weight and Bias (the case's parameters), random
Input and HiddenPrev (both gradients fetched, or only some), each pairing
of activation and gate_activation ints (0 identity, 1 sigmoid, 2 tanh, 3
relu), origin_mode true and false, with and without Bias, float32 and
float64; several gru_units on one HiddenPrev (its gradients summed).
im2sequence_grad: strides, kernels and paddings (up, left, down, right)
that overlap, skip and pad, Out declared with its fixed rows so that the fed
upstream gradient (`dout_0`) has them.  Every gradient checked against Paddle's
(oracle_case.build_grad_case: random upstream gradients, every
parameter's gradient fetched).
linear_chain_crf_grad: over Label's LoD (a level-1 feed, one sequence
empty; the case's dir holds lod.json as tests/oracle/e2e_lod_rnn.py's do)
with a fed upstream gradient of one row per sequence, float32 and
float64; and the padded form (Length: 0, S and lengths between),
Transition a parameter (its gradient fetched) or a feed without one.
gru_grad: the raw gru op over a LoD feed of 14 rows in five sequences,
H0 given (its gradient fetched) or not, forward and reversed, origin_mode,
every activation among the two attributes, with and without Bias,
float32 and float64, Input's gradient asked for or not.  lstm_grad: the
raw lstm op over the same LoD, H0 and C0, C0 alone or neither (their
gradients fetched), peepholes or not, forward and reversed, other
activations, float64, and Cell fetched with an upstream gradient of its
own (which Paddle's kernel does not read).

    python e2e_grad_rnnlod.py OUTDIR [CASE ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import (append_op as op, case_registry, grad_input, lod_reference,  # noqa: E402
                         randomize_params, run_grad_cases, save_grad_program)

import zlib  # noqa: E402

import numpy as np  # noqa: E402
import paddle  # noqa: E402

CASES, case = case_registry()
BATCH, D = 5, 4


def data(name, shape, dtype="float32", grad=True):
    v = grad_input(name, shape, dtype)
    v.stop_gradient = not grad
    return v


def gru_unit(x, hp, dtype, act, gate_act, origin, bias=True):
    w = paddle.static.create_parameter([D, 3 * D], dtype)
    ins = {"Input": [x], "HiddenPrev": [hp], "Weight": [w]}
    if bias:
        ins["Bias"] = [paddle.static.create_parameter([1, 3 * D], dtype)]
    return op("gru_unit", ins, {"Gate": [dtype], "ResetHiddenPrev": [dtype], "Hidden": [dtype]},
              {"activation": act, "gate_activation": gate_act, "origin_mode": origin})[2]


def gru_cases(dtype, pairs, x_grad=True, hp_grad=True):
    x, hp = data("x", [-1, 3 * D], dtype, x_grad), data("hp", [-1, D], dtype, hp_grad)
    outs = [gru_unit(x, hp, dtype, act, gate_act, n % 2 == 1, bias=n % 3 != 2) for n, (act, gate_act) in
            enumerate(pairs)]
    return ["x", "hp"], outs, [v for v, g in ((x, x_grad), (hp, hp_grad)) if g]


@case
def gru_unit_f32_acts():
    """Every activation with every gate activation; origin_mode and Bias alternate."""
    return gru_cases("float32", [(a, g) for a in range(4) for g in range(4)])


@case
def gru_unit_f64():
    return gru_cases("float64", [(2, 1), (2, 1), (3, 2), (0, 3), (1, 0), (2, 2)])


@case
def gru_unit_defaults():
    """fluid.layers.gru_unit's defaults (tanh, sigmoid), one op."""
    return gru_cases("float32", [(2, 1)])


@case
def gru_unit_weights_only():
    """Neither Input's nor HiddenPrev's gradient asked for: only Weight@GRAD and Bias@GRAD."""
    return gru_cases("float32", [(2, 1), (2, 1)], x_grad=False, hp_grad=False)


@case
def gru_unit_hidden_prev_only():
    """HiddenPrev's gradient without Input's, origin_mode."""
    return gru_cases("float32", [(1, 2), (2, 1)], x_grad=False)


def im2sequence(shape, kernels, strides, paddings):
    x = data("x", shape)
    out = op("im2sequence", {"X": [x]}, {"Out": ["float32"]},
             {"kernels": kernels, "strides": strides, "paddings": paddings})[0]
    n, c, h, w = shape
    oh = (h + paddings[0] + paddings[2] - kernels[0]) // strides[0] + 1
    ow = (w + paddings[1] + paddings[3] - kernels[1]) // strides[1] + 1
    out.desc.set_shape([n * oh * ow, c * kernels[0] * kernels[1]])  # the kernel's rows, for the fed gradient
    return ["x"], [out], [x]


@case
def im2sequence_overlap():
    """3x3 patches at stride 1 (each pixel in up to nine), no padding."""
    return im2sequence([2, 2, 5, 6], [3, 3], [1, 1], [0, 0, 0, 0])


@case
def im2sequence_pad_stride():
    """2x3 patches, strides 2 and 1, paddings up 1, left 2, down 0, right 1."""
    return im2sequence([3, 1, 6, 5], [2, 3], [2, 1], [1, 2, 0, 1])


@case
def im2sequence_skip():
    """Strides past the kernel (pixels no patch reads: zero gradient)."""
    return im2sequence([2, 3, 7, 7], [2, 2], [3, 3], [0, 0, 1, 1])


TAGS, PADDED = 4, 5
LOD = [0, 3, 4, 4, 9, 14]  # five sequences of Label, the third empty


def lod_case(fn, lod=LOD):
    """A case over LoD feeds (lod_level 1, each with `lod`): saved and run
    by build_lod_grad_case."""
    fn.lod = lod
    return case(fn)


def crf(emission, label, transition, length=None):
    dtype = "float64" if emission.dtype == paddle.float64 else "float32"
    ins = {"Emission": [emission], "Transition": [transition], "Label": [label]}
    if length is not None:
        ins["Length"] = [length]
    return op("linear_chain_crf", ins, {"Alpha": [dtype], "EmissionExps": [dtype], "TransitionExps": [dtype],
                                        "LogLikelihood": [dtype]}, {})[3]


def crf_lod(dtype):
    e = paddle.static.data("emission", [-1, TAGS], dtype)  # Label carries the LoD the kernels read
    e.stop_gradient = False
    label = paddle.static.data("label", [-1, 1], "int64", lod_level=1)
    ll = crf(e, label, paddle.static.create_parameter([TAGS + 2, TAGS], dtype))
    ll.desc.set_shape([len(LOD) - 1, 1])  # one row per sequence: the fed upstream gradient's rows
    return ["emission", "label"], [ll], [e]


@lod_case
def crf_lod_f32():
    return crf_lod("float32")


@lod_case
def crf_lod_f64():
    return crf_lod("float64")


def crf_padded(dtype, param=True):
    e = data("emission", [-1, PADDED, TAGS], dtype)
    label = data("label", [-1, PADDED], "int64", False)
    length = data("length", [-1], "int64", False)
    t = (paddle.static.create_parameter([TAGS + 2, TAGS], dtype) if param else
         data("transition", [TAGS + 2, TAGS], dtype, False))
    return ["emission", "label", "length"] + ([] if param else ["transition"]), [crf(e, label, t, length)], [e]


@case
def crf_padded_f32():
    return crf_padded("float32")


@case
def crf_padded_f64_no_transition_grad():
    """Transition a feed without a gradient: Emission@GRAD alone."""
    return crf_padded("float64", param=False)


GRU_LOD = [0, 3, 4, 8, 9, 14]  # gru's sequences (none empty)


def gru(x, h0, dtype, bias=True, **attrs):
    """The raw `gru` op over x [T, 3D] (dynamic_gru's): Hidden [T, D]."""
    ins = {"Input": [x], "Weight": [paddle.static.create_parameter([D, 3 * D], dtype)]}
    if bias:
        ins["Bias"] = [paddle.static.create_parameter([1, 3 * D], dtype)]
    if h0 is not None:
        ins["H0"] = [h0]
    return op("gru", ins, {"Hidden": [dtype], "BatchGate": [dtype], "BatchResetHiddenPrev": [dtype],
                           "BatchHidden": [dtype]}, attrs)[0]


def gru_case(dtype="float32", h0=True, x_grad=True, **attrs):
    x = paddle.static.data("x", [-1, 3 * D], dtype, lod_level=1)
    x.stop_gradient = not x_grad
    h = data("h0", [len(GRU_LOD) - 1, D], dtype) if h0 else None
    out = gru(x, h, dtype, **attrs)
    return ["x"] + (["h0"] if h0 else []), [out], ([x] if x_grad else []) + ([h] if h0 else [])


def gru_grad_h0():
    """H0 given (its gradient fetched), sigmoid gates, tanh candidate."""
    return gru_case()


def gru_grad_reverse_origin():
    """is_reverse and origin_mode, no H0 (each sequence from 0)."""
    return gru_case(h0=False, is_reverse=True, origin_mode=True)


def gru_grad_acts_f64():
    """float64, no Bias, relu candidate and tanh gates, reversed, H0."""
    return gru_case("float64", bias=False, activation="relu", gate_activation="tanh", is_reverse=True)


def gru_grad_identity_weights_only():
    """identity candidate, relu gates, origin_mode; only the parameters' and
    H0's gradients (Input needs none)."""
    return gru_case(x_grad=False, activation="identity", gate_activation="relu", origin_mode=True)


for _fn in (gru_grad_h0, gru_grad_reverse_origin, gru_grad_acts_f64, gru_grad_identity_weights_only):
    lod_case(_fn, GRU_LOD)


def lstm_case(dtype="float32", h0=False, c0=False, cell_out=False, **attrs):
    """The raw `lstm` op (dynamic_lstm's) over x [T, 4D]; Bias [1, 7D] with
    use_peepholes (the default), else [1, 4D]."""
    x = paddle.static.data("x", [-1, 4 * D], dtype, lod_level=1)
    x.stop_gradient = False
    nseq = len(GRU_LOD) - 1
    h = data("h0", [nseq, D], dtype) if h0 else None
    c = data("c0", [nseq, D], dtype) if c0 else None
    peep = attrs.get("use_peepholes", True)
    ins = {"Input": [x], "Weight": [paddle.static.create_parameter([D, 4 * D], dtype)],
           "Bias": [paddle.static.create_parameter([1, (7 if peep else 4) * D], dtype)]}
    if h is not None:
        ins["H0"] = [h]
    if c is not None:
        ins["C0"] = [c]
    hidden, cell = op("lstm", ins, {"Hidden": [dtype], "Cell": [dtype], "BatchGate": [dtype],
                                    "BatchCellPreAct": [dtype]}, attrs)[:2]
    feeds = ["x"] + (["h0"] if h0 else []) + (["c0"] if c0 else [])
    return feeds, [hidden] + ([cell] if cell_out else []), [x] + [v for v in (h, c) if v is not None]


def lstm_grad_h0_c0():
    """H0 and C0 given (their gradients fetched), peepholes, the defaults."""
    return lstm_case(h0=True, c0=True)


def lstm_grad_reverse_no_peepholes():
    """is_reverse, use_peepholes false, zero initial states."""
    return lstm_case(is_reverse=True, use_peepholes=False)


def lstm_grad_c0_f64_acts():
    """float64, C0 alone, tanh gates, relu cell, identity candidate,
    reversed, peepholes."""
    return lstm_case("float64", c0=True, is_reverse=True, gate_activation="tanh", cell_activation="relu",
                     candidate_activation="identity")


def lstm_grad_cell_fetched():
    """Cell an output too, with its own upstream gradient: Paddle's kernel
    takes zeros for Cell@GRAD (a TODO there), and so does paddlec."""
    return lstm_case(h0=True, c0=True, cell_out=True)


for _fn in (lstm_grad_h0_c0, lstm_grad_reverse_no_peepholes, lstm_grad_c0_f64_acts, lstm_grad_cell_fetched):
    lod_case(_fn, GRU_LOD)


def build_lod_grad_case(out_dir, name, fn):
    """build_grad_case for LoD feeds: the same program, inputs and
    parameters, and Paddle's reference through oracle_case.lod_reference."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        feeds, outs, wrt = fn()
        douts = [paddle.static.data(f"dout_{i}", o.shape, o.dtype) for i, o in enumerate(outs)]
        params = [p for p in main.all_parameters() if not p.stop_gradient]
        grads = paddle.static.gradients(outs, list(wrt) + params, target_gradients=douts)
    feeds = list(feeds) + [d.name for d in douts]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    inputs = [make_input(main.global_block().var(f), rng, fn.lod[-1]) for f in feeds]
    exe, scope = paddle.static.Executor(paddle.CPUPlace()), paddle.static.Scope()
    case_dir = os.path.join(out_dir, name)
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        randomize_params(main, scope, rng)
        save_grad_program(case_dir, main, feeds, [g for g in grads if g is not None], exe)
    lod_reference(case_dir, inputs, fn.lod)


def make_input(v, rng, rows=BATCH):
    """A feed's value; `rows` for its -1 dim (a LoD case's: its rows)."""
    if v.name == "label":
        return rng.integers(0, TAGS, [rows] + list(v.shape[1:])).astype("int64")
    if v.name == "length":
        return np.array([PADDED, 0, 2, 1, 4][:BATCH], dtype="int64")
    shape = [rows if d < 0 else d for d in v.shape]
    dtype = "float64" if v.dtype == paddle.float64 else "float32"
    return rng.standard_normal(shape).astype(dtype)


if __name__ == "__main__":
    names = sys.argv[2:] or list(CASES)
    plain = [n for n in names if not getattr(CASES[n], "lod", False)]
    if plain:
        run_grad_cases(CASES, make_input, sys.argv[:2] + plain)
    for n in names:
        if getattr(CASES[n], "lod", False):
            build_lod_grad_case(sys.argv[1], n, CASES[n])

"""float64 cases of the fused `rnn` op and rnn_grad, held to TOL64: LSTM
(two bidirectional layers, h0 and c0 given, int64 sequence lengths), GRU
(two layers, int32 lengths), SimpleRNN tanh (bidirectional) and relu (three
layers, lengths), three LSTM layers with dropout between them (the op's
seed), in training mode (is_test=false), as Paddle's double CPU
kernels compute them (paddlec's rt_rnn_f64, rt_rnn_grad_f64).  Each case
fetches the outputs' gradients with respect to Input, the initial states
and every weight and bias.

The op is appended as paddle.nn.LSTM & co. append it in static mode, but
with WeightList fed as float64 inputs (stop_gradient False, their
gradients fetched like the input's): oracle_case.randomize_params draws
parameters as float32.

Cases marked `forward_only` run a program and fetch the given vars:
coalesce_tensor of float64 (paddle.nn.LSTM & co.'s startup program in
float64 gathers the weights with it).

    python e2e_grad_rnn64.py OUTDIR [CASE ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, case_registry, grad_input as data, run_grad_cases  # noqa: E402

import numpy as np  # noqa: E402
import paddle  # noqa: E402
from paddle.base.layer_helper import LayerHelper  # noqa: E402

CASES, case = case_registry()
STEPS, N = 4, 3
F64 = "float64"
GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def rnn(mode, width, hidden, layers=1, bidirect=False, lengths=None, dropout=0.0, seed=0):
    """The rnn op on a fed time-major x [STEPS, N, width] with fed initial
    states and WeightList (W_ih, W_hh per layer and direction, then the
    biases b_ih, b_hh in the same order), dropout between layers drawn
    from the op's seed; returns (feeds, outs, wrt)."""
    dirs = 2 if bidirect else 1
    gh = GATES[mode] * hidden
    x = data("x", [STEPS, N, width], F64)
    states = [data(n, [layers * dirs, N, hidden], F64) for n in (["h0", "c0"] if mode == "LSTM" else ["h0"])]
    mats, biases = [], []
    for k in range(layers * dirs):
        w_in = width if k < dirs else dirs * hidden
        mats += [data(f"w_ih{k}", [gh, w_in], F64), data(f"w_hh{k}", [gh, hidden], F64)]
        biases += [data(f"b_ih{k}", [gh], F64), data(f"b_hh{k}", [gh], F64)]
    weights = mats + biases
    helper = LayerHelper("rnn")
    out = helper.create_variable_for_type_inference(F64)
    finals = [helper.create_variable_for_type_inference(F64) for _ in states]
    reserve = helper.create_variable_for_type_inference(paddle.uint8, stop_gradient=True)
    dropout_state = helper.create_variable_for_type_inference(paddle.uint8, stop_gradient=True)
    inputs = {"Input": x, "WeightList": weights, "PreState": states}
    feeds = [x.name] + [s.name for s in states] + [w.name for w in weights]
    if lengths:
        inputs["SequenceLength"] = paddle.static.data("lens", [N], lengths)
        feeds.append("lens")
    helper.append_op(type="rnn", inputs=inputs,
                     outputs={"Out": out, "State": finals, "Reserve": reserve, "DropoutState": dropout_state},
                     attrs={"dropout_prob": dropout, "seed": seed, "is_bidirec": bidirect, "input_size": width,
                            "hidden_size": hidden, "num_layers": layers, "mode": mode, "is_test": False})
    return feeds, [out] + finals, [x] + states + weights


@case
def lstm64_2layer_bidirect_lengths():
    """Two bidirectional LSTM layers, h0 and c0 given, int64 lengths."""
    return rnn("LSTM", 3, 4, layers=2, bidirect=True, lengths="int64")


@case
def gru64_2layer_lengths():
    """Two GRU layers, h0 given, int32 lengths."""
    return rnn("GRU", 4, 5, layers=2, lengths="int32")


@case
def rnn_tanh64_bidirect():
    """SimpleRNN (tanh), bidirectional, h0 given."""
    return rnn("RNN_TANH", 3, 4, bidirect=True)


@case
def rnn_relu64_3layer_lengths():
    """SimpleRNN (relu), three layers, int64 lengths."""
    return rnn("RNN_RELU", 3, 4, layers=3, lengths="int64")


@case
def lstm64_dropout_3layer():
    """Three LSTM layers with dropout 0.4 between them, seed 11."""
    return rnn("LSTM", 3, 4, layers=3, dropout=0.4, seed=11)


def forward_only(fn):
    fn.forward_only = True
    return case(fn)


@forward_only
def coalesce64_copy():
    """coalesce_tensor of float64 (dtype 6) with copy_data, every output its
    input (flatten_parameters' form), on a = 2x [2, 3] and b = 3y [4]."""
    x, y = paddle.static.data("xc", [2, 3], F64), paddle.static.data("yc", [4], F64)
    a, b = paddle.scale(x, 2.0), paddle.scale(y, 3.0)
    fused = paddle.static.default_main_program().global_block().create_var(name="fused", shape=[10], dtype=F64)
    op("coalesce_tensor", {"Input": [a, b]}, {"Output": [a, b], "FusedOutput": [fused]},
       dict(dtype=6, use_align=False, copy_data=True))
    return ["xc", "yc"], [fused, a, b]


def make_input(v, rng):
    dtype = str(v.dtype).replace("paddle.", "")
    if v.name == "lens":
        return np.array([STEPS, 2, 1], dtype=dtype)
    scale = 0.5 if v.name.startswith(("w_", "b_")) else 1.0
    return (scale * rng.standard_normal([3 if d < 0 else d for d in v.shape])).astype(dtype)


if __name__ == "__main__":
    run_grad_cases(CASES, make_input)

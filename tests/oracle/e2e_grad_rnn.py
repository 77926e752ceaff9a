"""Gradient cases of the fused `rnn` op (paddle.nn.LSTM, GRU, SimpleRNN
with tanh and relu) in training mode (is_test=false: the forward also
writes Reserve and DropoutState) and of rnn_grad: one and several layers
(three, so that the layers' input gradients alternate between two
buffers), bidirectional, batch- and time-major input, initial states given
as inputs (their gradients fetched) or left to the layer (zeros), the final
states fetched or not (rnn_grad then reads zeros from fill_any_like), and
only the final state fetched.  Every weight's and bias's gradient is
fetched (oracle_case.build_grad_case).  Sequence lengths (int64 and int32,
the full length and shorter ones: the steps past the end give zeros and
keep the state), with one and two directions and layers.  Dropout
between layers with the op's own seed (a fresh generator each run, so the
reference is fixed; the global generator's draws are tested by the
lstm_dropout training fixture), and dropout 1 (no draws, zeros).

Cases marked `forward_only` run a program and fetch the given vars:
coalesce_tensor, which paddle.nn.LSTM & co. put in the startup program
(flatten_parameters) to gather their weights into one fused buffer
(copy_data into the same or other output vars, set_constant).

    python e2e_grad_rnn.py OUTDIR [CASE ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, case_registry, grad_input as data, run_grad_cases  # noqa: E402

import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.nn as nn  # noqa: E402

CASES, case = case_registry()
STEPS, N = 4, 3  # N: a fixed batch where a state (batch in dim 1) is fed or fetched


@case
def lstm_states():
    """One LSTM layer with h0, c0 given; output and both final states."""
    x, h0, c0 = data("x", [N, STEPS, 4]), data("h0", [1, N, 5]), data("c0", [1, N, 5])
    y, (h, c) = nn.LSTM(4, 5)(x, (h0, c0))
    return ["x", "h0", "c0"], [y, h, c], [x, h0, c0]


@case
def lstm_2layer_bidirect():
    """Two bidirectional LSTM layers, zero initial states, output only."""
    x = data("x", [-1, STEPS, 3])
    y, _ = nn.LSTM(3, 4, num_layers=2, direction="bidirect")(x)
    return ["x"], [y], [x]


@case
def lstm_time_major_final():
    """Time-major LSTM, two layers, only the final cell state fetched."""
    x = data("x", [STEPS, N, 3])
    h0, c0 = data("h0", [2, N, 4]), data("c0", [2, N, 4])
    _, (_, c) = nn.LSTM(3, 4, num_layers=2, time_major=True)(x, (h0, c0))
    return ["x", "h0", "c0"], [c], [x, h0, c0]


@case
def gru_state():
    """One GRU layer with h0 given; output and final state."""
    x, h0 = data("x", [N, STEPS, 4]), data("h0", [1, N, 5])
    y, h = nn.GRU(4, 5)(x, h0)
    return ["x", "h0"], [y, h], [x, h0]


@case
def gru_2layer_bidirect():
    """Two bidirectional GRU layers with h0 given."""
    x, h0 = data("x", [N, STEPS, 3]), data("h0", [4, N, 4])
    y, h = nn.GRU(3, 4, num_layers=2, direction="bidirect")(x, h0)
    return ["x", "h0"], [y, h], [x, h0]


@case
def rnn_tanh():
    """SimpleRNN (tanh), one layer, h0 given."""
    x, h0 = data("x", [N, STEPS, 4]), data("h0", [1, N, 5])
    y, h = nn.SimpleRNN(4, 5)(x, h0)
    return ["x", "h0"], [y, h], [x, h0]


@case
def rnn_tanh_bidirect():
    """SimpleRNN (tanh), bidirectional, zero initial state."""
    x = data("x", [N, STEPS, 3])
    y, h = nn.SimpleRNN(3, 4, direction="bidirectional")(x)
    return ["x"], [y, h], [x]


@case
def rnn_relu_3layer_bidirect():
    """SimpleRNN (relu), three bidirectional layers, h0 given."""
    x, h0 = data("x", [N, STEPS, 3]), data("h0", [6, N, 4])
    y, h = nn.SimpleRNN(3, 4, num_layers=3, direction="bidirect", activation="relu")(x, h0)
    return ["x", "h0"], [y, h], [x, h0]


@case
def lstm_3layer():
    """Three LSTM layers, one direction, output only."""
    x = data("x", [-1, STEPS, 3])
    y, _ = nn.LSTM(3, 4, num_layers=3)(x)
    return ["x"], [y], [x]


def lengths(dtype="int64"):
    """A SequenceLength feed; make_input gives [STEPS, 2, 1]."""
    return paddle.static.data("lens", [N], dtype)


@case
def lstm_lengths():
    """One LSTM layer with h0, c0 and int64 lengths; output and states."""
    x, h0, c0 = data("x", [N, STEPS, 4]), data("h0", [1, N, 5]), data("c0", [1, N, 5])
    y, (h, c) = nn.LSTM(4, 5)(x, (h0, c0), sequence_length=lengths())
    return ["x", "h0", "c0", "lens"], [y, h, c], [x, h0, c0]


@case
def gru_lengths_2layer_bidirect():
    """Two bidirectional GRU layers with h0 and int32 lengths."""
    x, h0 = data("x", [N, STEPS, 3]), data("h0", [4, N, 4])
    y, h = nn.GRU(3, 4, num_layers=2, direction="bidirect")(x, h0, sequence_length=lengths("int32"))
    return ["x", "h0", "lens"], [y, h], [x, h0]


@case
def lstm_lengths_bidirect():
    """A bidirectional LSTM with h0, c0 and lengths (the reverse direction
    starts at each sequence's last step from the initial state)."""
    x, h0, c0 = data("x", [N, STEPS, 3]), data("h0", [2, N, 4]), data("c0", [2, N, 4])
    y, (h, c) = nn.LSTM(3, 4, direction="bidirect")(x, (h0, c0), sequence_length=lengths())
    return ["x", "h0", "c0", "lens"], [y, h, c], [x, h0, c0]


@case
def rnn_relu_lengths_2layer():
    """SimpleRNN (relu), two layers, lengths, zero initial state."""
    x = data("x", [N, STEPS, 3])
    y, h = nn.SimpleRNN(3, 4, num_layers=2, activation="relu")(x, sequence_length=lengths())
    return ["x", "lens"], [y, h], [x]


@case
def rnn_tanh_lengths_bidirect():
    """SimpleRNN (tanh), bidirectional, h0 given, lengths."""
    x, h0 = data("x", [N, STEPS, 3]), data("h0", [2, N, 4])
    y, h = nn.SimpleRNN(3, 4, direction="bidirect")(x, h0, sequence_length=lengths())
    return ["x", "h0", "lens"], [y, h], [x, h0]


def seeded(seed):
    """Gives the program's rnn ops the seed attribute (paddle.nn.LSTM & co.
    leave it 0: the global generator)."""
    for o in paddle.static.default_main_program().global_block().ops:
        if o.type == "rnn":
            o._set_attr("seed", seed)


@case
def lstm_dropout_3layer_bidirect():
    """Three bidirectional LSTM layers with dropout 0.4 between them (one
    mask for both gaps), seed 11."""
    x = data("x", [N, STEPS, 3])
    y, _ = nn.LSTM(3, 4, num_layers=3, direction="bidirect", dropout=0.4)(x)
    seeded(11)
    return ["x"], [y], [x]


@case
def gru_dropout_lengths():
    """Two GRU layers with dropout 0.5 and int64 lengths, seed 5."""
    x = data("x", [N, STEPS, 3])
    y, h = nn.GRU(3, 4, num_layers=2, dropout=0.5)(x, sequence_length=lengths())
    seeded(5)
    return ["x", "lens"], [y, h], [x]


@case
def rnn_tanh_dropout_all():
    """Dropout 1 between two tanh layers: the upper layer sees zeros (no
    draws)."""
    x = data("x", [N, STEPS, 3])
    y, _ = nn.SimpleRNN(3, 4, num_layers=2, dropout=1.0)(x)
    seeded(3)
    return ["x"], [y], [x]


def forward_only(fn):
    fn.forward_only = True
    return case(fn)


def coalesce(outputs, **attrs):
    """coalesce_tensor on a = 2x [2, 3] and b = 3y [4]; `outputs` None
    writes a and b in place, else new vars.  Fetches the fused tensor and
    the outputs."""
    x, y = paddle.static.data("x", [2, 3], "float32"), paddle.static.data("y", [4], "float32")
    a, b = paddle.scale(x, 2.0), paddle.scale(y, 3.0)
    blk = paddle.static.default_main_program().global_block()
    fused = blk.create_var(name="fused", shape=[10], dtype="float32")
    outs = [a, b] if outputs is None else [blk.create_var(name=n, shape=v.shape, dtype="float32")
                                            for n, v in zip(outputs, (a, b))]
    op("coalesce_tensor", {"Input": [a, b]}, {"Output": outs, "FusedOutput": [fused]},
       dict(dtype=5, use_align=False, **attrs))
    return ["x", "y"], [fused] + outs


@forward_only
def coalesce_copy_in_place():
    """copy_data with every output its input (flatten_parameters' form)."""
    return coalesce(None, copy_data=True)


@forward_only
def coalesce_copy_new_outputs():
    """copy_data into other output vars."""
    return coalesce(["a_out", "b_out"], copy_data=True)


@forward_only
def coalesce_constant():
    """set_constant: the fused tensor and the outputs filled with 0.5."""
    return coalesce(None, set_constant=True, constant=0.5)


def make_input(v, rng):
    if v.name == "lens":
        return np.array([STEPS, 2, 1], dtype=str(v.dtype).replace("paddle.", ""))
    shape = [3 if d < 0 else d for d in v.shape]
    return rng.standard_normal(shape).astype("float32")


if __name__ == "__main__":
    run_grad_cases(CASES, make_input)

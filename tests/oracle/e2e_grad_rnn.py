"""Gradient cases of the fused `rnn` op (paddle.nn.LSTM, GRU, SimpleRNN
with tanh and relu) in training mode (is_test=false: the forward also
writes Reserve and DropoutState) and of rnn_grad: one and several layers
(three, so that the layers' input gradients alternate between two
buffers), bidirectional, batch- and time-major input, initial states given
as inputs (their gradients fetched) or left to the layer (zeros), the final
states fetched or not (rnn_grad then reads zeros from fill_any_like), and
only the final state fetched.  Every weight's and bias's gradient is
fetched (oracle_case.build_grad_case).  No sequence lengths and no dropout:
paddlec's rnn_grad refuses both.

    python e2e_grad_rnn.py OUTDIR [CASE ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import case_registry, grad_input as data, run_grad_cases  # noqa: E402

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


def make_input(v, rng):
    shape = [3 if d < 0 else d for d in v.shape]
    return rng.standard_normal(shape).astype("float32")


if __name__ == "__main__":
    run_grad_cases(CASES, make_input)

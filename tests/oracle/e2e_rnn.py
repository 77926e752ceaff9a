#!/usr/bin/env python3
"""Op-level end-to-end cases for the rnn family: the fused `rnn` op that
paddle.nn.LSTM, GRU and SimpleRNN (tanh and relu) export, with several
layers, both spellings of bidirectional, time-major input, initial states
given as inputs, int64 (and int32) sequence lengths shorter than the input,
and several fetches (outputs and final states).

    python e2e_rnn.py OUTDIR [CASE ...]

Each case is a paddle.nn layer saved with paddle.jit.to_static + jit.save
(tests/oracle/oracle_case.py save_layer_case), with the batch left open
(InputSpec None) and, for batch-major layers, the transposes the Python layer
inserts around the op.  Parameters are re-drawn uniform in [-1, 1) and inputs
standard normal, from a generator seeded by the case's name.  Batch 3 (4
with sequence lengths), 5 time steps, hidden sizes of 3 to 6: small, since
the build of each case dominates."""
import os
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import save_layer_case, case_registry  # noqa: E402

import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.nn as nn  # noqa: E402
from paddle.static import InputSpec  # noqa: E402

BATCH, STEPS = 3, 5
CASES, case = case_registry()


def spec(name, shape, dtype="float32"):
    return InputSpec(shape, dtype, name)


# Each case returns (layer, input specs, a function of the generator giving
# the inputs).  dy2static needs a plain forward signature: one class a case.

class LstmStates(nn.Layer):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(4, 6)

    def forward(self, x):
        y, (h, c) = self.rnn(x)
        return y, h, c


@case
def lstm_states():
    """One LSTM layer, batch-major: the output and both final states."""
    return LstmStates(), [spec("x", [None, STEPS, 4])], lambda rng: [rng.standard_normal((BATCH, STEPS, 4))]


class GruBidirect(nn.Layer):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(4, 5, num_layers=2, direction="bidirect")

    def forward(self, x):
        y, h = self.rnn(x)
        return y, h


@case
def gru_bidirect():
    """Two bidirectional GRU layers ("bidirect")."""
    return GruBidirect(), [spec("x", [None, STEPS, 4])], lambda rng: [rng.standard_normal((BATCH, STEPS, 4))]


class SimpleRnn(nn.Layer):
    def __init__(self):
        super().__init__()
        self.tanh = nn.SimpleRNN(4, 5)
        self.relu = nn.SimpleRNN(4, 3, num_layers=2, direction="bidirectional", activation="relu")

    def forward(self, x):
        y1, h1 = self.tanh(x)
        y2, h2 = self.relu(x)
        return y1, h1, y2, h2


@case
def simple_rnn():
    """SimpleRNN with tanh (one layer) and relu (two bidirectional layers,
    "bidirectional") on the same input."""
    return SimpleRnn(), [spec("x", [None, STEPS, 4])], lambda rng: [rng.standard_normal((BATCH, STEPS, 4))]


class TimeMajor(nn.Layer):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(3, 4, num_layers=2, direction="bidirectional", time_major=True)

    def forward(self, x):
        y, (h, c) = self.rnn(x)
        return y, h, c


@case
def time_major():
    """time_major=True: no transposes; the time dim is the feed's open dim 0
    (run at 5 steps), the batch fixed at 3.  Two bidirectional LSTM layers."""
    return TimeMajor(), [spec("x", [None, BATCH, 3])], lambda rng: [rng.standard_normal((STEPS, BATCH, 3))]


class InitialStates(nn.Layer):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 5, num_layers=2, direction="bidirect")
        self.gru = nn.GRU(4, 6)
        self.relu = nn.SimpleRNN(4, 3, activation="relu")

    def forward(self, x, h0, c0, g0, r0):
        states = (paddle.transpose(h0, [1, 0, 2]), paddle.transpose(c0, [1, 0, 2]))
        y1, (h1, c1) = self.lstm(x, states)
        y2, h2 = self.gru(x, paddle.transpose(g0, [1, 0, 2]))
        y3, h3 = self.relu(x, paddle.transpose(r0, [1, 0, 2]))
        return y1, h1, c1, y2, h2, y3, h3


@case
def initial_states():
    """Initial states as inputs (batch-major feeds [N, L*D, H], transposed to
    the op's [L*D, N, H] in the layer): a two-layer bidirectional LSTM with h0
    and c0, a GRU and a relu SimpleRNN with h0."""
    specs = [spec("x", [None, STEPS, 4]), spec("h0", [None, 4, 5]), spec("c0", [None, 4, 5]),
             spec("g0", [None, 1, 6]), spec("r0", [None, 1, 3])]
    shapes = [(BATCH, STEPS, 4), (BATCH, 4, 5), (BATCH, 4, 5), (BATCH, 1, 6), (BATCH, 1, 3)]
    return InitialStates(), specs, lambda rng: [rng.standard_normal(s) for s in shapes]


class SequenceLength(nn.Layer):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 5, num_layers=2, direction="bidirect")
        self.gru = nn.GRU(4, 4, direction="bidirect")
        self.tanh = nn.SimpleRNN(4, 3, num_layers=2)
        self.relu = nn.SimpleRNN(4, 3, direction="bidirect", activation="relu")

    def forward(self, x, lens, h0, lens32):
        y1, (h1, c1) = self.lstm(x, sequence_length=lens)
        y2, h2 = self.gru(x, paddle.transpose(h0, [1, 0, 2]), sequence_length=lens)
        y3, h3 = self.tanh(x, sequence_length=lens)
        y4, h4 = self.relu(x, sequence_length=lens32)
        return y1, h1, c1, y2, h2, y3, h3, y4, h4


@case
def sequence_length():
    """int64 sequence lengths (one full, the others shorter, one of a single
    step) for every mode, both directions and two layers, a GRU with an
    initial state, and int32 lengths (which Paddle also takes) for the relu
    RNN: outputs past a sequence's end are zero, final states those of its
    last valid step.  Batch 4."""
    specs = [spec("x", [None, STEPS, 4]), spec("lens", [None], "int64"), spec("h0", [None, 2, 4]),
             spec("lens32", [None], "int32")]
    return SequenceLength(), specs, lambda rng: [rng.standard_normal((4, STEPS, 4)),
                                                 np.array([STEPS, 2, 1, 4], "int64"),
                                                 rng.standard_normal((4, 2, 4)),
                                                 np.array([3, STEPS, 2, 1], "int32")]


def build(out_dir, name):
    paddle.disable_static()  # the previous case's reference run left static mode on
    layer, specs, make_inputs = CASES[name]()
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    for p in layer.parameters():
        p.set_value(rng.uniform(-1.0, 1.0, p.shape).astype("float32"))
    inputs = [a.astype("float32") if a.dtype == np.float64 else a for a in make_inputs(rng)]
    save_layer_case(os.path.join(out_dir, name), layer, specs, inputs)


if __name__ == "__main__":
    paddle.seed(1)
    for case_name in sys.argv[2:] or list(CASES):
        build(sys.argv[1], case_name)

#!/usr/bin/env python3
"""Op-level end-to-end cases for tensor arrays: write_to_array,
read_from_array, lod_array_length and tensor_array_to_tensor (concat and
stack, on each axis and past the last) in straight-line code and in counted
`while` loops, as paddle.nn.RNN over a custom cell writes them (forward,
reversed, time-major, two states, BiRNN) and as
paddle.static.nn.while_loop with an array in its loop vars does;
read_from_array with X_W (zeros past the end); slice with Starts/EndsTensor
whose values only the run knows (the axis dropped: x[k], x[-1]).

    python e2e_arrays.py OUTDIR [CASE ...]

Feeds: float32 standard normal; `lens` int64 sequence lengths in [1, 4].
Batch 2.  tests/oracle/oracle_case.py
saves each case with Paddle's reference outputs (the weights random)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import run_static_cases, case_registry  # noqa: E402

import paddle  # noqa: E402
from paddle.tensor.manipulation import tensor_array_to_tensor  # noqa: E402

CASES, case = case_registry()
BATCH = 2


class TanhCell(paddle.nn.RNNCellBase):
    """h' = tanh(W x + U h + b): one state."""

    def __init__(self, n_in, n_hid):
        super().__init__()
        self.w = paddle.nn.Linear(n_in, n_hid)
        self.u = paddle.nn.Linear(n_hid, n_hid)
        self.input_size, self.n_hid = n_in, n_hid

    @property
    def state_shape(self):
        return [self.n_hid]

    def forward(self, x, h):
        o = paddle.tanh(self.w(x) + self.u(h))
        return o, o


class TwoStateCell(paddle.nn.RNNCellBase):
    """A cell with a state pair (h, c) and an output that is neither."""

    def __init__(self, n_in, n_hid):
        super().__init__()
        self.w = paddle.nn.Linear(n_in, 2 * n_hid)
        self.n_hid = n_hid

    @property
    def state_shape(self):
        return ([self.n_hid], [self.n_hid])

    def forward(self, x, states):
        h, c = states
        a, b = paddle.split(self.w(x), 2, axis=-1)
        c2 = paddle.nn.functional.sigmoid(a) * c + paddle.tanh(b)
        h2 = paddle.tanh(c2) * 0.5 + h * 0.5
        return h2 * 2.0, (h2, c2)


@case
def rnn_custom_cell():
    x = paddle.static.data("x", [None, 5, 3], "float32")
    y, h = paddle.nn.RNN(TanhCell(3, 4))(x)
    return [x], [y, h]


@case
def rnn_reverse_time_major():
    x = paddle.static.data("x", [4, 2, 3], "float32")
    h0 = paddle.static.data("h0", [2, 6], "float32")
    y, h = paddle.nn.RNN(TanhCell(3, 6), is_reverse=True, time_major=True)(x, h0)
    return [x, h0], [y, h]


@case
def rnn_two_states():
    x = paddle.static.data("x", [None, 3, 5], "float32")
    y, (h, c) = paddle.nn.RNN(TwoStateCell(5, 4))(x)
    return [x], [y, h, c]


@case
def rnn_lstm_cell_lengths():
    """paddle.nn.RNN over the built-in LSTMCell with sequence_length: each
    step's new states masked by the step's `t < length` (sequence_mask)."""
    x = paddle.static.data("x", [None, 4, 3], "float32")
    lens = paddle.static.data("lens", [None], "int64")
    y, (h, c) = paddle.nn.RNN(paddle.nn.LSTMCell(3, 5))(x, sequence_length=lens)
    return [x, lens], [y, h, c]


@case
def rnn_gru_cell():
    x = paddle.static.data("x", [None, 3, 4], "float32")
    y, h = paddle.nn.RNN(paddle.nn.GRUCell(4, 3))(x)
    return [x], [y, h]


@case
def birnn():
    x = paddle.static.data("x", [None, 4, 3], "float32")
    y, (hf, hb) = paddle.nn.BiRNN(TanhCell(3, 4), TanhCell(3, 4))(x)
    return [x], [y, hf, hb]


@case
def straight_line():
    x = paddle.static.data("x", [None, 3], "float32")
    i = paddle.zeros([1], "int64")
    arr = paddle.tensor.create_array("float32")
    paddle.tensor.array_write(x, i, arr)
    paddle.tensor.array_write(x * 2.0 + 1.0, i + 1, arr)
    paddle.tensor.array_write(paddle.exp(x), i + 2, arr)
    paddle.tensor.array_write(x - 3.0, i + 1, arr)  # overwrites element 1
    n = paddle.tensor.array_length(arr)
    r = paddle.tensor.array_read(arr, i + 2)
    outs = [n, r + 0.0]
    for axis, stack in ((0, False), (1, False), (0, True), (1, True), (2, True)):
        outs.append(tensor_array_to_tensor(arr, axis=axis, use_stack=stack)[0])
    return [x], outs


@case
def while_loop_array():
    x = paddle.static.data("x", [None, 4], "float32")
    w = paddle.create_parameter([4, 4], "float32")
    i = paddle.full([1], 0, "int64")
    n = paddle.full([1], 3, "int64")
    arr = paddle.tensor.create_array("float32", [x])

    def body(i, h, arr):
        prev = paddle.tensor.array_read(arr, i)
        h = paddle.tanh(paddle.matmul(h, w)) + prev
        i = i + 1
        paddle.tensor.array_write(h, i, arr)
        return [i, h, arr]

    i2, h, arr = paddle.static.nn.while_loop(lambda i, h, a: i < n, body, [i, x, arr])
    out, _ = tensor_array_to_tensor(arr, axis=0, use_stack=False)
    return [x], [out, h, paddle.tensor.array_length(arr)]


@case
def while_loop_step_tensor():
    """A counter that starts at 1 and steps by a tensor the body makes
    (fill_constant inside the loop), the array's element 0 written before."""
    x = paddle.static.data("x", [None, 2], "float32")
    i = paddle.full([1], 1, "int64")
    n = paddle.full([1], 7, "int64")
    arr = paddle.tensor.create_array("float32")
    paddle.tensor.array_write(x, i - 1, arr)

    def body(i, h):
        h = paddle.sin(h) * 1.5 + 0.25
        paddle.tensor.array_write(h, i, arr)
        return [i + paddle.full([1], 1, "int64"), h]

    paddle.static.nn.while_loop(lambda i, h: i < n, body, [i, x])
    return [x], [tensor_array_to_tensor(arr, axis=1)[0], paddle.tensor.array_length(arr)]


@case
def read_with_x_w():
    """read_from_array with X_W (how write_to_array's grad reads): past the
    array's end Out is zeros of X_W's dims, inside it the element."""
    x = paddle.static.data("x", [None, 3], "float32")
    i = paddle.zeros([1], "int64")
    arr = paddle.tensor.create_array("float32")
    paddle.tensor.array_write(x * 3.0, i, arr)
    block = paddle.static.default_main_program().current_block()
    outs = []
    for k in (i + 4, i):
        o = block.create_var(name=f"read_w_{len(outs)}", dtype="float32", shape=[-1, 3])
        block.append_op(type="read_from_array", inputs={"X": [arr], "I": [k], "X_W": [x]}, outputs={"Out": [o]})
        outs.append(o + 1.0)
    return [x], outs


@case
def slice_tensor_bounds():
    """slice with StartsTensor and EndsTensor (one tensor each) whose values
    the data gives, the axis dropped: x[:, k] with k the row of the largest
    sum, and x[:, k - 5] (a negative start counts from the end)."""
    x = paddle.static.data("x", [None, 4, 5], "float32")
    k = paddle.reshape(paddle.argmax(paddle.sum(x, axis=[0, 2])), [1])
    block = paddle.static.default_main_program().current_block()
    outs = []
    for start in (k, k - 4):
        o = block.create_var(name=f"col_{len(outs)}", dtype="float32", shape=[-1, 5])
        block.append_op(type="slice", inputs={"Input": [x], "StartsTensor": [start], "EndsTensor": [start + 1]},
                        outputs={"Out": [o]},
                        attrs={"axes": [1], "starts": [-1], "ends": [-1], "infer_flags": [-1], "decrease_axis": [1]})
        outs.append(o + 0.0)
    return [x], outs + [k]


def beam_search_decoder(end_bias):
    """paddle.nn.dynamic_decode over a BeamSearchDecoder (a GRUCell, an
    embedding, a linear head; beam 3): a `while` that stops when every beam
    has ended or after max_step_num steps, its arrays joined by
    tensor_array_to_tensor and backtracked by gather_tree.  end_bias is
    added to the end token's logit (a constant of the program: the case's
    parameters are all redrawn)."""
    enc = paddle.static.data("enc", [None, 8], "float32")
    shift = np.zeros(20, "float32")
    shift[1] = end_bias
    head = paddle.nn.Linear(16, 20)
    decoder = paddle.nn.BeamSearchDecoder(paddle.nn.GRUCell(8, 16), start_token=0, end_token=1, beam_size=3,
                                          embedding_fn=paddle.nn.Embedding(20, 8),
                                          output_fn=lambda h: head(h) + paddle.assign(shift))
    ids, _ = paddle.nn.dynamic_decode(decoder, inits=paddle.nn.Linear(8, 16)(enc), max_step_num=6)
    return [enc], [ids]


@case
def beam_search_max_steps():
    """The loop runs to max_step_num (no beam picks the end token)."""
    return beam_search_decoder(-20.0)


@case
def beam_search_ends_early():
    """The end token is likely: every beam ends before max_step_num, so the
    joined arrays are shorter than paddlec's bound."""
    return beam_search_decoder(6.0)


def make_input(v, rng):
    shape = [BATCH if d in (None, -1) else d for d in v.shape]
    if v.name == "lens":  # sequence lengths in [1, 4]
        return rng.integers(1, 5, shape).astype("int64")
    return rng.standard_normal(shape).astype("float32")


if __name__ == "__main__":
    run_static_cases(CASES, make_input)

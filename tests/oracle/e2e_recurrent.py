#!/usr/bin/env python3
"""Op-level end-to-end cases for `recurrent` (fluid StaticRNN's op): a step
block run once per time step over time-major inputs [T, batch, ...], its
ex-states fed from initial_states at the first step and from the states of
the step before after it, each output stacked over the steps.  Paddle
2.6's Python no longer has StaticRNN, but its executor still runs the op:
the cases build it as StaticRNN did (the step block declares the step
inputs under the outer names, one step of their dims; the outputs under
the outer names), with assign where 1.x wrote rnn_memory_helper.

    python e2e_recurrent.py OUTDIR [CASE ...]

Feeds float32 standard normal, batch 2; inputs fed batch-major [batch, T,
...] and transposed to time-major, as 1.x programs did."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import run_static_cases, case_registry  # noqa: E402

import paddle  # noqa: E402
from paddle.base import core  # noqa: E402

CASES, case = case_registry()
BATCH = 2


def recurrent(inputs, init_states, step, params, reverse=False):
    """Appends a recurrent op: step(step_inputs, ex_states) -> (states,
    outputs) builds the step block; returns the stacked outputs."""
    main = paddle.static.default_main_program()
    parent = main.current_block()
    sub = main._create_block()
    xs = [sub.create_var(name=x.name, shape=[-1] + list(x.shape[2:]), dtype=x.dtype) for x in inputs]
    exs = [sub.create_var(name=f"{s.name}@ex", shape=s.shape, dtype=s.dtype) for s in init_states]
    states, outs = step(xs, exs)
    outs = [paddle.assign(o) for o in outs]
    main._rollback()
    stacked = [parent.create_var(name=o.name, shape=[inputs[0].shape[0]] + list(o.shape), dtype=o.dtype) for o in outs]
    scopes = parent.create_var(type=core.VarDesc.VarType.STEP_SCOPES)
    parent.append_op(type="recurrent",
                     inputs={"inputs": inputs, "initial_states": init_states, "parameters": params},
                     outputs={"outputs": stacked, "step_scopes": [scopes]},
                     attrs={"has_states": bool(init_states), "ex_states": [e.name for e in exs],
                            "states": [s.name for s in states], "sub_block": sub, "reverse": reverse,
                            "is_train": False, "skip_eager_deletion_vars": []})
    return stacked


def time_major(name, dims):
    x = paddle.static.data(name, [None] + dims, "float32")
    return paddle.transpose(x, [1, 0] + list(range(2, len(dims) + 1))), x


@case
def recurrent_tanh():
    """h' = tanh(x W + h U); the output 2 h'."""
    xt, x = time_major("x", [5, 3])
    h0 = paddle.static.data("h0", [None, 4], "float32")
    w, u = paddle.create_parameter([3, 4], "float32"), paddle.create_parameter([4, 4], "float32")

    def step(xs, exs):
        h = paddle.tanh(paddle.matmul(xs[0], w) + paddle.matmul(exs[0], u))
        return [h], [h * 2.0]

    (y,) = recurrent([xt], [h0], step, [w, u])
    return [x, h0], [paddle.transpose(y, [1, 0, 2])]


@case
def recurrent_reverse_two_states():
    """Reversed, two inputs, two states (h, c) and two outputs; the initial
    c made in the program."""
    xt, x = time_major("x", [4, 3])
    zt, z = time_major("z", [4, 2])
    h0 = paddle.static.data("h0", [None, 5], "float32")
    c0 = paddle.zeros_like(h0) + 0.5
    w, v = paddle.create_parameter([3, 5], "float32"), paddle.create_parameter([2, 5], "float32")

    def step(xs, exs):
        h_pre, c_pre = exs
        c = paddle.nn.functional.sigmoid(paddle.matmul(xs[0], w)) * c_pre + paddle.tanh(paddle.matmul(xs[1], v))
        h = paddle.tanh(c) + h_pre * 0.5
        return [h, c], [h, c - 1.0]

    hs, cs = recurrent([xt, zt], [h0, c0], step, [w, v], reverse=True)
    return [x, z, h0], [hs, cs]


@case
def recurrent_no_state():
    """has_states false: each step on its own."""
    xt, x = time_major("x", [3, 4])
    w = paddle.create_parameter([4, 2], "float32")

    def step(xs, exs):
        return [], [paddle.nn.functional.relu(paddle.matmul(xs[0], w))]

    (y,) = recurrent([xt], [], step, [w])
    return [x], [y]


@case
def recurrent_memory_helper():
    """recurrent_tanh as 1.x StaticRNN saved it: rnn_memory_helper where
    the cases write assign (Paddle 2.6 no longer registers it; it is an
    identity, RNNMemoryHelperOp sharing X: the numbers are assign's, the
    program is patched after saving, main())."""
    return recurrent_tanh()


def as_memory_helper(model):
    """Rewrites the step block's assign ops of a saved program into
    rnn_memory_helper (dtype 5, as StaticRNN wrote it)."""
    with open(model, "rb") as f:
        prog = paddle.static.Program.parse_from_string(f.read())
    for block in prog.blocks[1:]:
        for op in block.ops:
            if op.type == "assign":
                op.desc.set_type("rnn_memory_helper")
                op.desc._set_attr("dtype", 5)
    with open(model, "wb") as f:
        f.write(prog.desc.serialize_to_string())


def make_input(v, rng):
    return rng.standard_normal([BATCH if d in (None, -1) else d for d in v.shape]).astype("float32")


if __name__ == "__main__":
    run_static_cases(CASES, make_input)
    if "recurrent_memory_helper" in (sys.argv[2:] or CASES):
        as_memory_helper(os.path.join(sys.argv[1], "recurrent_memory_helper", "model.pdmodel"))

#!/usr/bin/env python3
"""Control flow as users export it: paddle.nn layers whose Python `while`
and `if` on tensors dy2static turns into `while` and `conditional_block` +
`select_input`, saved with paddle.jit.to_static +
jit.save (tests/oracle/oracle_case.py save_layer_case), the batch open.

    python e2e_control_jit.py OUTDIR [CASE ...]

Parameters re-drawn uniform in [-1, 1), inputs standard normal from a
generator seeded by the case's name; `n` (int64 [1]) is the trip count, 3.
Batch 3.  rnn_custom_cell: paddle.nn.RNN over a custom cell (tensor
arrays in a counted loop, the time dim static).  seq2seq_beam_search: a
beam-search decoder whose loop the data ends.  for_range: `for k in
range(n)` over a tensor n, which dy2static writes as a `while` over
paddle.arange(n) (its length the run's: compiled with --max-shape for it,
flags.json) with a float32 [1] placeholder for k that the loop makes int64
[], which nothing reads outside the body (loop_unread.h)."""
import json
import os
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import save_layer_case, case_registry  # noqa: E402
from e2e_arrays import TanhCell  # noqa: E402

import numpy as np  # noqa: E402
import paddle  # noqa: E402
from paddle.static import InputSpec  # noqa: E402

BATCH = 3
CASES, case = case_registry()


class LoopThenIf(paddle.nn.Layer):
    """while i < n over a residual tanh layer, then an if on the mean."""

    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(4, 4)

    def forward(self, x, n):
        i = paddle.zeros([1], "int64")
        while i < n:
            x = paddle.tanh(self.fc(x)) + x
            i = i + 1
        if paddle.mean(x) > 0:
            y = x * 2.0
        else:
            y = x - 1.0
        return y


class UntilLarge(paddle.nn.Layer):
    """while the data says so: grows h until its largest value passes 8."""

    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(5, 5)

    def forward(self, x):
        h = paddle.abs(x) + 0.5
        steps = paddle.zeros([1], "int32")
        while paddle.max(h) < 8.0:
            h = h * 1.5 + paddle.tanh(self.fc(h)) * 0.1
            steps = steps + 1
        return h, steps


class RnnHead(paddle.nn.Layer):
    """paddle.nn.RNN over a custom cell (a `while` over tensor arrays), then a
    linear layer on every step and on the final state."""

    def __init__(self):
        super().__init__()
        self.rnn = paddle.nn.RNN(TanhCell(3, 5))
        self.fc = paddle.nn.Linear(5, 2)

    def forward(self, x):
        y, h = self.rnn(x)
        return self.fc(y), self.fc(h)


class Seq2SeqBeam(paddle.nn.Layer):
    """A GRU encoder and a beam-search decoder (paddle.nn.dynamic_decode over
    a BeamSearchDecoder with a GRUCell, beam 3, at most 6 steps): a `while`
    that stops when every beam has ended, its arrays joined and backtracked
    by gather_tree.  dy2static of Paddle 2.6 refuses dynamic_decode's own
    assign of a view unless told it is safe (as its error message says)."""

    def __init__(self):
        super().__init__()
        self.enc = paddle.nn.GRU(8, 16)
        self.emb = paddle.nn.Embedding(20, 8)
        self.head = paddle.nn.Linear(16, 20)
        self.cell = paddle.nn.GRUCell(8, 16)

    def forward(self, src):
        _, h = self.enc(src)
        dec = paddle.nn.BeamSearchDecoder(self.cell, start_token=0, end_token=1, beam_size=3,
                                          embedding_fn=self.emb, output_fn=self.head)
        with paddle.base.framework._stride_in_no_check_dy2st_diff():
            ids, _ = paddle.nn.dynamic_decode(dec, inits=paddle.squeeze(h, 0), max_step_num=6, is_test=True)
        return ids


class ForRange(paddle.nn.Layer):
    """for k in range(n) over a tensor n: k read in the body."""

    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(4, 4)

    def forward(self, x, n):
        h = x
        for k in range(n):
            h = paddle.tanh(self.fc(h)) + paddle.cast(k, "float32") * 0.5
        return h


@case
def for_range():
    return ForRange(), [InputSpec([None, 4], "float32", "x"), InputSpec([1], "int64", "n")]


def range_bound(case_dir):
    """flags.json for a case whose program ranges over a fed count: its
    range op's output bounded by --max-shape [16]."""
    paddle.enable_static()
    prog, _, _ = paddle.static.load_inference_model(os.path.join(case_dir, "model"),
                                                    paddle.static.Executor(paddle.CPUPlace()))
    names = [op.output("Out")[0] for op in prog.global_block().ops if op.type == "range"]
    if names:
        with open(os.path.join(case_dir, "flags.json"), "w") as f:
            json.dump(["--max-shape", f"{names[0]}=16"], f)


@case
def loop_then_if():
    return LoopThenIf(), [InputSpec([None, 4], "float32", "x"), InputSpec([1], "int64", "n")]


@case
def until_large():
    return UntilLarge(), [InputSpec([None, 5], "float32", "x")]


@case
def rnn_custom_cell():
    return RnnHead(), [InputSpec([None, 6, 3], "float32", "x")]


@case
def seq2seq_beam_search():
    return Seq2SeqBeam(), [InputSpec([None, 5, 8], "float32", "src")]


def build(out_dir, name):
    paddle.disable_static()  # the previous case's reference run left static mode on
    layer, specs = CASES[name]()
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    for p in layer.parameters():
        p.set_value(rng.uniform(-1.0, 1.0, p.shape).astype("float32"))
    inputs = []
    for s in specs:
        shape = [BATCH if d in (None, -1) else d for d in s.shape]
        if s.name == "n":
            inputs.append(np.array([3], dtype=np.int64))
        else:
            inputs.append(rng.standard_normal(shape).astype("float32"))
    save_layer_case(os.path.join(out_dir, name), layer, specs, inputs)
    range_bound(os.path.join(out_dir, name))


if __name__ == "__main__":
    paddle.seed(1)
    for case_name in sys.argv[2:] or list(CASES):
        build(sys.argv[1], case_name)

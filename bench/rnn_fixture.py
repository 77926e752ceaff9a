"""Writes build/fixtures/rnn_cell for bench/run.py: paddle.nn.RNN over a
custom tanh cell (a `while` over tensor arrays, compiled as a counted C
loop: compiler/array_len.h), 32 steps of 64 features into 256 hidden units,
then a linear layer on the last state; saved with paddle.jit.save, the batch
open, with Paddle's outputs on a batch of 4.

    .venv/bin/python bench/rnn_fixture.py && .venv/bin/python bench/run.py rnn_cell"""
import os
import sys

import numpy as np
import paddle

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "oracle"))
from oracle_case import save_layer_case  # noqa: E402
from e2e_arrays import TanhCell  # noqa: E402


class RnnCell(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.rnn = paddle.nn.RNN(TanhCell(64, 256))
        self.fc = paddle.nn.Linear(256, 10)

    def forward(self, x):
        _, h = self.rnn(x)
        return self.fc(h)


def main():
    paddle.seed(7)
    layer = RnnCell()
    rng = np.random.default_rng(7)
    for p in layer.parameters():
        p.set_value(rng.uniform(-0.2, 0.2, p.shape).astype("float32"))
    x = rng.standard_normal((4, 32, 64)).astype("float32")
    save_layer_case(os.path.join(ROOT, "build", "fixtures", "rnn_cell"), layer,
                    [paddle.static.InputSpec([None, 32, 64], "float32", "x")], [x])


if __name__ == "__main__":
    main()

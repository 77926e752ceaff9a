"""Makes the sample model the README uses: a small MLP that tells which of
three Gaussian clusters an 8-feature point came from.  Trained for a few
hundred steps with fixed seeds, then exported the way users export
(paddle.jit.save with an unknown batch dimension) to samples/mlp/.

    .venv/bin/python samples/make_sample.py
"""
import os

import numpy as np
import paddle
from paddle.static import InputSpec

HERE = os.path.dirname(os.path.abspath(__file__))


class Classifier(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.hidden = paddle.nn.Linear(8, 16)
        self.out = paddle.nn.Linear(16, 3)

    def forward(self, x):
        return paddle.nn.functional.softmax(self.out(paddle.nn.functional.relu(self.hidden(x))))


def data(rng, n):
    centers = np.array([[2.0] * 8, [-2.0] * 8, [2.0, -2.0] * 4], dtype="float32")
    labels = rng.integers(0, 3, n)
    return (centers[labels] + rng.standard_normal((n, 8)).astype("float32")), labels


def main():
    paddle.seed(7)
    rng = np.random.default_rng(7)
    net = Classifier()
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=net.parameters())
    for _ in range(300):
        x, y = data(rng, 64)
        loss = paddle.nn.functional.nll_loss(paddle.log(net(paddle.to_tensor(x)) + 1e-9),
                                             paddle.to_tensor(y))
        loss.backward()
        opt.step()
        opt.clear_grad()
    net.eval()
    x, y = data(rng, 4)
    print("check accuracy on 4 points:", (net(paddle.to_tensor(x)).numpy().argmax(1) == y).mean())
    static = paddle.jit.to_static(net, input_spec=[InputSpec([None, 8], "float32", "x")], full_graph=True)
    paddle.jit.save(static, os.path.join(HERE, "mlp", "model"))
    np.save(os.path.join(HERE, "mlp", "x.npy"), x)
    info = os.path.join(HERE, "mlp", "model.pdiparams.info")
    if os.path.exists(info):
        os.remove(info)  # a Python pickle paddlec does not need


if __name__ == "__main__":
    main()

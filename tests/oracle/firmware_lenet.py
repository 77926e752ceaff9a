"""LeNet-5 for the firmware test (tests/test_firmware.py): two 5x5
convolutions with max pooling and three fully connected layers, every weight
AND every bias drawn at random (uniform: weights in +-sqrt(6 / fan-in), so
that the signal neither dies nor explodes, biases in +-0.5), so that a bias
that is dropped or misplaced shows.  Saved with paddle.jit.save from
dygraph, batch left open; the reference is Paddle's Executor on the saved
files at batch 2.

    python firmware_lenet.py OUT_DIR"""
import sys

import numpy as np
import paddle

from make_fixtures import LeNet  # the LeNet of the e2e fixtures
from oracle_case import save_layer_case


def randomize(layer, rng):
    """Weights uniform in +-sqrt(6 / fan-in), biases in +-0.5 (Paddle would
    start them at zero)."""
    for sub in (layer.c1, layer.c2, layer.f1, layer.f2, layer.f3):
        w = sub.weight
        fan_in = int(np.prod(w.shape[1:])) if len(w.shape) == 4 else int(w.shape[0])
        w.set_value((rng.uniform(-1, 1, w.shape) * np.sqrt(6 / fan_in)).astype("float32"))
        sub.bias.set_value(rng.uniform(-0.5, 0.5, sub.bias.shape).astype("float32"))


if __name__ == "__main__":
    paddle.disable_static()
    rng = np.random.default_rng(5)
    net = LeNet()
    randomize(net, rng)
    x = rng.uniform(0, 1, (2, 1, 28, 28)).astype("float32")
    save_layer_case(sys.argv[1], net, [paddle.static.InputSpec([None, 1, 28, 28], "float32", "image")], [x])

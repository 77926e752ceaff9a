"""Makes the small programs whose emitted code is golden (tests/golden/MODELS),
with the oracle's Paddle, into tests/golden/models/ (committed: the golden
files are what paddlec makes of these exact bytes):

  cnn/         conv + batch_norm + relu, a residual block, max and average
               pooling, a linear head: paddle.jit.save with batch None
  attention/   one paddle.nn.TransformerEncoderLayer (2 heads, d_model 16,
               post-norm, dropout 0) on [None, 5, 16]: jit.save
  train_step/  a training program as users write one (static fc layers,
               softmax cross entropy, Momentum.minimize): main.pdmodel and
               startup.pdmodel by desc.serialize_to_string()

Every parameter and batch_norm buffer is drawn at random (no zero bias or
unit scale).  Run: .venv/bin/python tests/golden/make_models.py"""
import os

os.environ.setdefault("FLAGS_enable_pir_api", "0")
import numpy as np  # noqa: E402
import paddle  # noqa: E402
from paddle.static import InputSpec  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models")


def randomize(layer, rng):
    for _, t in list(layer.named_parameters()) + list(layer.named_buffers()):
        v = rng.uniform(0.5, 1.5, t.shape) if "variance" in t.name else rng.standard_normal(t.shape) * 0.3
        t.set_value(v.astype(t.numpy().dtype))


class Cnn(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv1, self.bn1 = paddle.nn.Conv2D(3, 8, 3, padding=1), paddle.nn.BatchNorm2D(8)
        self.conv2, self.bn2 = paddle.nn.Conv2D(8, 8, 3, padding=1), paddle.nn.BatchNorm2D(8)
        self.head = paddle.nn.Linear(8, 4)

    def forward(self, image):
        x = paddle.nn.functional.relu(self.bn1(self.conv1(image)))
        y = self.bn2(self.conv2(x))
        x = paddle.nn.functional.max_pool2d(paddle.nn.functional.relu(x + y), 2)
        x = paddle.flatten(paddle.nn.functional.adaptive_avg_pool2d(x, 1), 1)
        return self.head(x)


def save_layer(name, layer, spec, rng):
    randomize(layer, rng)
    layer.eval()
    paddle.jit.save(paddle.jit.to_static(layer, input_spec=spec), os.path.join(OUT, name, "model"))


def train_step():
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    main.random_seed = startup.random_seed = 7
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 4], "float32")
        label = paddle.static.data("label", [None, 1], "int64")
        h = paddle.static.nn.fc(x, 8, activation="relu")
        logits = paddle.static.nn.fc(h, 3)
        loss = paddle.mean(paddle.nn.functional.cross_entropy(logits, label))
        paddle.optimizer.Momentum(0.05, momentum=0.9).minimize(loss)
    d = os.path.join(OUT, "train_step")
    os.makedirs(d, exist_ok=True)
    for prog, fname in ((main, "main.pdmodel"), (startup, "startup.pdmodel")):
        with open(os.path.join(d, fname), "wb") as f:
            f.write(prog.desc.serialize_to_string())


def main():
    paddle.seed(1)
    rng = np.random.default_rng(1)
    save_layer("cnn", Cnn(), [InputSpec([None, 3, 8, 8], "float32", "image")], rng)
    enc = paddle.nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0)
    save_layer("attention", enc, [InputSpec([None, 5, 16], "float32", "src")], rng)
    train_step()


if __name__ == "__main__":
    main()

"""Builds the test fixtures with real Paddle (the oracle), the way users export.

    python make_fixtures.py OUTDIR [NAME ...]

For each fixture, OUTDIR/NAME/ gets:
  model.pdmodel, model.pdiparams   the saved program and parameters
  input_<i>.npy                    random inputs (fixed seeds, batch 2), feed order
  output_<i>.npy                   what Paddle's Executor computes on the saved files
  b<N>/input_<i>.npy, output_<i>.npy   the same at other batch sizes, for the
                                   fixtures that test a run-time batch
  paddle.json                      what Paddle reports for the loaded program: feeds,
                                   fetches, and every variable's shape and dtype
Training fixtures also get startup.pdmodel (the startup program).
Every parameter and buffer that Paddle initializes to one value (biases,
norm scales and shifts, running statistics) is re-drawn before saving.
A fixture whose paddle.json exists is not rebuilt.
"""
import json
import os
import sys

os.environ.setdefault("FLAGS_enable_pir_api", "0")
import numpy as np  # noqa: E402
import paddle  # noqa: E402
from paddle.static import InputSpec  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import randomize_layer, randomize_scope_constants  # noqa: E402

SEED = 2024


def _dtype_name(dt):
    s = str(dt)
    return s.replace("paddle.", "").replace("VarType.", "").lower().replace("fp32", "float32")


def describe(program, feeds, fetches):
    """What Paddle reports about a loaded program."""
    vars_ = {}
    for block in program.blocks:
        for v in block.vars.values():
            try:
                shape = list(v.shape)
                dtype = str(v.dtype)
            except Exception:  # holders (feed/fetch) have no shape
                continue
            vars_[v.name] = {"shape": shape, "dtype": dtype, "block": block.idx}
    return {"feeds": feeds, "fetches": [f.name for f in fetches], "vars": vars_}


def run_reference(prefix, out_dir, batch, rng, int_high=None, describe_program=True, pad_tail=0):
    """Loads the saved files with Paddle's Executor and records inputs/outputs.
    pad_tail: the first feed's row r ends in r * pad_tail zeros (padding
    tokens, which a model's attention mask hides)."""
    os.makedirs(out_dir, exist_ok=True)
    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        prog, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        block = prog.global_block()
        feed_dict = {}
        for i, name in enumerate(feeds):
            v = block.var(name)
            shape = [batch if d < 0 else d for d in v.shape]
            if "int" in str(v.dtype):
                high = int_high[i] if int_high else 10
                x = rng.integers(0, high, size=shape).astype(
                    "int64" if "int64" in str(v.dtype) else "int32")
                if i == 0 and pad_tail:
                    for r in range(1, shape[0]):
                        x[r, max(shape[1] - r * pad_tail, 1):] = 0
            else:
                x = rng.standard_normal(shape).astype("float32")
            feed_dict[name] = x
            np.save(os.path.join(out_dir, f"input_{i}.npy"), x)
        outs = exe.run(prog, feed=feed_dict, fetch_list=fetches)
        for i, o in enumerate(outs):
            np.save(os.path.join(out_dir, f"output_{i}.npy"), np.asarray(o))
        if describe_program:
            with open(os.path.join(out_dir, "paddle.json"), "w") as f:
                json.dump(describe(prog, feeds, fetches), f, indent=1, sort_keys=True)
    paddle.disable_static()


def jit_export(layer, specs, out_dir):
    """Saves `layer` with every constant parameter and buffer re-drawn (zero
    biases, identity norms, initial running statistics), so that each one
    changes the outputs."""
    randomize_layer(layer, np.random.default_rng(SEED))
    layer.eval()
    prefix = os.path.join(out_dir, "model")
    static = paddle.jit.to_static(layer, input_spec=specs, full_graph=True)
    paddle.jit.save(static, prefix)
    return prefix


# ---- the fixtures -------------------------------------------------------

def mlp_static(out_dir):
    """A static-graph MLP saved with save_inference_model (fc = mul + add)."""
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    main.random_seed = startup.random_seed = SEED
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 64], "float32")
        h = paddle.static.nn.fc(x, 32, activation="relu")
        h = paddle.static.nn.fc(h, 32, activation="tanh")
        y = paddle.nn.functional.softmax(paddle.static.nn.fc(h, 10))
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    randomize_scope_constants(main, paddle.static.global_scope(), np.random.default_rng(SEED))
    prefix = os.path.join(out_dir, "model")
    paddle.static.save_inference_model(prefix, [x], [y], exe, program=main)
    paddle.disable_static()
    return prefix


class MLP(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.l1 = paddle.nn.Linear(64, 48)
        self.l2 = paddle.nn.Linear(48, 10)

    def forward(self, x):
        return paddle.nn.functional.softmax(self.l2(paddle.nn.functional.relu(self.l1(x))))


def mlp(out_dir):
    return jit_export(MLP(), [InputSpec([None, 64], "float32", "x")], out_dir)


class LeNet(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.c1 = paddle.nn.Conv2D(1, 6, 5, padding=2)
        self.c2 = paddle.nn.Conv2D(6, 16, 5)
        self.p = paddle.nn.MaxPool2D(2, 2)
        self.f1 = paddle.nn.Linear(16 * 5 * 5, 120)
        self.f2 = paddle.nn.Linear(120, 84)
        self.f3 = paddle.nn.Linear(84, 10)

    def forward(self, x):
        x = self.p(paddle.nn.functional.relu(self.c1(x)))
        x = self.p(paddle.nn.functional.relu(self.c2(x)))
        x = paddle.flatten(x, 1)
        x = paddle.nn.functional.relu(self.f1(x))
        x = paddle.nn.functional.relu(self.f2(x))
        return self.f3(x)


def lenet(out_dir):
    return jit_export(LeNet(), [InputSpec([None, 1, 28, 28], "float32", "image")], out_dir)


def vision(name):
    def build(out_dir):
        import paddle.vision.models as M
        net = getattr(M, name)(pretrained=False)
        return jit_export(net, [InputSpec([None, 3, 224, 224], "float32", "image")], out_dir)
    return build


class Branchy(paddle.nn.Layer):
    """An Inception-style block straight on the input: four branches that
    share nothing but the feed (the scheduler's tests need the first two
    kernels independent), concatenated, then a classifier."""

    def __init__(self):
        super().__init__()
        nn = paddle.nn
        self.b1 = nn.Conv2D(3, 8, 1)
        self.b2 = nn.Sequential(nn.Conv2D(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2D(8, 8, 3, padding=1))
        self.b3 = nn.Sequential(nn.MaxPool2D(3, 1, padding=1), nn.Conv2D(3, 8, 1))
        self.b4 = nn.Conv2D(3, 8, 5, padding=2)
        self.pool = nn.AdaptiveAvgPool2D(1)
        self.fc = nn.Linear(32, 10)

    def forward(self, x):
        y = paddle.concat([self.b1(x), self.b2(x), self.b3(x), self.b4(x)], axis=1)
        return self.fc(paddle.flatten(self.pool(paddle.nn.functional.relu(y)), 1))


def branchy(out_dir):
    return jit_export(Branchy(), [InputSpec([None, 3, 16, 16], "float32", "image")], out_dir)


class Bert(paddle.nn.Layer):
    """A small BERT-style encoder: embeddings, 4 layers, hidden 256, 4 heads."""

    def __init__(self, vocab=1000, hidden=256, heads=4, layers=4, seq=128):
        super().__init__()
        self.word = paddle.nn.Embedding(vocab, hidden, padding_idx=0)
        self.pos = paddle.nn.Embedding(seq, hidden)
        self.typ = paddle.nn.Embedding(2, hidden)
        self.norm = paddle.nn.LayerNorm(hidden)
        layer = paddle.nn.TransformerEncoderLayer(hidden, heads, hidden * 4, dropout=0.1,
                                                  activation="gelu")
        self.enc = paddle.nn.TransformerEncoder(layer, layers)
        self.pool = paddle.nn.Linear(hidden, hidden)

    def forward(self, ids, types):
        pos = paddle.arange(ids.shape[1], dtype="int64").unsqueeze(0)
        mask = paddle.unsqueeze(paddle.cast(ids == 0, "float32") * -1e4, [1, 2])
        x = self.norm(self.word(ids) + self.pos(pos) + self.typ(types))
        x = self.enc(x, mask)
        return x, paddle.tanh(self.pool(x[:, 0]))


def bert(out_dir):
    specs = [InputSpec([None, 128], "int64", "input_ids"),
             InputSpec([None, 128], "int64", "token_type_ids")]
    return jit_export(Bert(), specs, out_dir)


class TinyYoloE(paddle.nn.Layer):
    """A PP-YOLOE-style anchor-free detector with its NMS: a strided conv
    backbone, per-point class scores (sigmoid) and left/top/right/bottom
    distances decoded around the anchor points into boxes, the boxes divided
    by the image's scale factor as PaddleDetection's post-process does, then
    matrix_nms (gaussian decay) keeping a number of boxes the scores decide.
    The reference feeds are standard normal: the scale factor is taken as
    |s| + 0.5 to stay a scale."""

    def __init__(self, classes=4, size=64, stride=4):
        super().__init__()
        nn = paddle.nn
        self.backbone = nn.Sequential(nn.Conv2D(3, 8, 3, 2, 1), nn.BatchNorm2D(8), nn.ReLU(),
                                      nn.Conv2D(8, 16, 3, 2, 1), nn.BatchNorm2D(16), nn.ReLU())
        self.cls = nn.Conv2D(16, classes, 1)
        self.reg = nn.Conv2D(16, 4, 1)
        g = size // stride
        ys, xs = np.meshgrid(np.arange(g), np.arange(g), indexing="ij")
        points = (np.stack([xs, ys], -1).reshape(1, -1, 2) + 0.5) * stride
        self.register_buffer("points", paddle.to_tensor(points.astype("float32")))

    def forward(self, image, scale_factor):
        f = self.backbone(image)
        scores = paddle.nn.functional.sigmoid(self.cls(f)).flatten(2)                 # [N, C, A]
        dist = paddle.nn.functional.softplus(self.reg(f)).flatten(2).transpose([0, 2, 1]) * 4.0
        lt, rb = paddle.split(dist, 2, axis=-1)
        boxes = paddle.concat([self.points - lt, self.points + rb], axis=-1)            # [N, A, 4]
        sy, sx = paddle.split(paddle.abs(scale_factor) + 0.5, 2, axis=-1)
        boxes = boxes / paddle.concat([sx, sy, sx, sy], axis=-1).reshape([-1, 1, 4])
        out, rois_num, _ = paddle.vision.ops.matrix_nms(
            boxes, scores, score_threshold=0.4, post_threshold=0.5, nms_top_k=60, keep_top_k=200,
            use_gaussian=True, gaussian_sigma=2.0, background_label=-1, normalized=False, return_index=True,
            return_rois_num=True)
        return out, rois_num


def ppyoloe_nms(out_dir):
    specs = [InputSpec([None, 3, 64, 64], "float32", "image"), InputSpec([None, 2], "float32", "scale_factor")]
    return jit_export(TinyYoloE(), specs, out_dir)


def train_mlp(out_dir):
    """A training program: MLP + mean squared error + SGD, with its startup
    program and the initialized persistables in one combined file."""
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    main.random_seed = startup.random_seed = SEED
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 13], "float32")
        y = paddle.static.data("y", [None, 1], "float32")
        h = paddle.static.nn.fc(x, 16, activation="relu")
        pred = paddle.static.nn.fc(h, 1)
        loss = paddle.mean(paddle.nn.functional.square_error_cost(pred, y))
        paddle.optimizer.SGD(learning_rate=0.01).minimize(loss)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    randomize_scope_constants(main, paddle.static.global_scope(), np.random.default_rng(SEED))
    with open(os.path.join(out_dir, "model.pdmodel"), "wb") as f:
        f.write(main.desc.serialize_to_string())
    with open(os.path.join(out_dir, "startup.pdmodel"), "wb") as f:
        f.write(startup.desc.serialize_to_string())
    persist = sorted([v for v in main.list_vars() if v.persistable and v.name not in ("feed", "fetch")],
                     key=lambda v: v.name)
    paddle.static.save_vars(exe, out_dir, main, vars=persist, filename="model.pdiparams")
    rng = np.random.default_rng(SEED)
    xs = rng.standard_normal((8, 13)).astype("float32")
    ys = rng.standard_normal((8, 1)).astype("float32")
    np.save(os.path.join(out_dir, "input_0.npy"), xs)
    np.save(os.path.join(out_dir, "input_1.npy"), ys)
    (lv,) = exe.run(main, feed={"x": xs, "y": ys}, fetch_list=[loss])
    np.save(os.path.join(out_dir, "output_0.npy"), np.asarray(lv))
    with open(os.path.join(out_dir, "paddle.json"), "w") as f:
        json.dump(describe(main, ["x", "y"], [loss]), f, indent=1, sort_keys=True)
    paddle.disable_static()
    return None


def dtypes(out_dir):
    """Parameters of every dtype a model file can hold, each feeding the output
    (so none is pruned): the reader must load and check them all."""
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    # (int8 is left out: paddle.cast refuses it as an input in 2.6; uint16 is bfloat16)
    kinds = ["bool", "uint8", "int16", "int32", "int64", "float16", "uint16", "float32", "float64"]
    rng = np.random.default_rng(SEED)
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 3], "float32")
        acc = x
        for i, k in enumerate(kinds):
            w = paddle.static.create_global_var([2, 3], 0, k, persistable=True, name=f"p{i}_{k}")
            acc = acc + paddle.sum(paddle.cast(w, "float32"), axis=0)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    for i, k in enumerate(kinds):
        val = (rng.standard_normal((2, 3)) * 10).astype(k)
        paddle.static.global_scope().find_var(f"p{i}_{k}").get_tensor().set(val, paddle.CPUPlace())
    prefix = os.path.join(out_dir, "model")
    paddle.static.save_inference_model(prefix, [x], [acc], exe, program=main)
    paddle.disable_static()
    return prefix


FIXTURES = {
    "mlp": (mlp, {"batches": [1, 8]}),
    "mlp_static": (mlp_static, {}),
    "lenet": (lenet, {"batches": [1, 8]}),
    "resnet18": (vision("resnet18"), {}),
    "resnet50": (vision("resnet50"), {}),
    "vgg16": (vision("vgg16"), {}),
    "mobilenet_v1": (vision("mobilenet_v1"), {}),
    "mobilenet_v2": (vision("mobilenet_v2"), {}),
    "mobilenet_v3": (vision("mobilenet_v3_small"), {}),
    "bert": (bert, {"int_high": [1000, 2], "pad_tail": 40}),
    "branchy": (branchy, {"batches": [1, 5]}),
    "ppyoloe_nms": (ppyoloe_nms, {"batches": [1, 3]}),
    "train_mlp": (train_mlp, {}),
    "dtypes": (dtypes, {}),
}


def build(name, root):
    out_dir = os.path.join(root, name)
    if os.path.exists(os.path.join(out_dir, "paddle.json")):
        return
    os.makedirs(out_dir, exist_ok=True)
    paddle.seed(SEED)
    np.random.seed(SEED)
    fn, opts = FIXTURES[name]
    prefix = fn(out_dir)
    if prefix:
        for b in opts.get("batches", []):
            run_reference(prefix, os.path.join(out_dir, f"b{b}"), b, np.random.default_rng(SEED + b),
                          opts.get("int_high"), describe_program=False)
        run_reference(prefix, out_dir, 2, np.random.default_rng(SEED), opts.get("int_high"),
                      pad_tail=opts.get("pad_tail", 0))
    print("fixture", name, "ready", flush=True)


def main(argv):
    root = argv[1]
    names = argv[2:] or list(FIXTURES)
    for n in names:
        build(n, root)


if __name__ == "__main__":
    main(sys.argv)

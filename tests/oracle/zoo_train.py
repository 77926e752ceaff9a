"""Op zoo of the training family, built with real Paddle (the oracle).

    python zoo_train.py OUTDIR [CASE ...]

Each case writes OUTDIR/<case>/model.pdmodel (+ .pdiparams for inference
programs).  The harness runs `paddlec inspect --json` on every case and
requires every op to have a rule and every inferred shape and dtype to match
what Paddle's compile-time InferShape wrote into the VarDescs.

Covered: the fused `rnn` op (paddle.nn.LSTM / GRU / SimpleRNN through
jit.save), full training programs (grad ops of common layers, losses,
every optimizer, reader ops, cond and while_loop with their grads), and the
1.x LoD ops (gru, gru_unit, lstm, sequence_*, crf, ctc, cross_entropy)
appended directly with the attributes the old Python APIs used.
"""
import os
import sys

os.environ.setdefault("FLAGS_enable_pir_api", "0")
import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402
from paddle.static import InputSpec  # noqa: E402

SEED = 2024
CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def _programs():
    main, start = paddle.static.Program(), paddle.static.Program()
    main.random_seed = start.random_seed = SEED
    return main, start


def save_main(out_dir, main):
    """Saves the whole (training) program: grads, optimizers, readers."""
    with open(os.path.join(out_dir, "model.pdmodel"), "wb") as f:
        f.write(main.desc.serialize_to_string())


def save_infer(out_dir, main, start, feeds, fetches):
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(start)
        paddle.static.save_inference_model(os.path.join(out_dir, "model"), feeds, fetches, exe,
                                           program=main)


def append(type_, inputs, outputs, attrs=None, dtypes=None):
    """Appends a raw op; outputs are {slot: count}, created without shapes so
    that Paddle's InferShape fills them.  dtypes: {slot: dtype} for outputs
    whose dtype Paddle leaves to the Python API."""
    block = paddle.static.default_main_program().current_block()
    outs = {}
    for slot, n in outputs.items():
        dt = (dtypes or {}).get(slot, "float32")
        outs[slot] = [block.create_var(name=paddle.utils.unique_name.generate(type_ + "_" + slot),
                                       dtype=dt) for _ in range(n)]
    block.append_op(type=type_, inputs=inputs, outputs=outs, attrs=attrs or {})
    return {k: v if len(v) > 1 else v[0] for k, v in outs.items()}


def param(shape, name=None, dtype="float32"):
    return paddle.static.create_parameter(shape, dtype, name=name)


# ---------------------------------------------------------------- rnn (jit.save)

class _Rnn(paddle.nn.Layer):
    def __init__(self, cls, bidir, time_major, layers):
        super().__init__()
        self.rnn = cls(6, 5, num_layers=layers, time_major=time_major,
                       direction="bidirect" if bidir else "forward")

    def forward(self, x):
        out, state = self.rnn(x)
        if isinstance(state, tuple):
            return out, state[0], state[1]
        return out, state


def _rnn_case(out_dir, cls, bidir, time_major, layers):
    paddle.disable_static()
    paddle.seed(SEED)
    layer = _Rnn(cls, bidir, time_major, layers)
    layer.eval()
    static = paddle.jit.to_static(layer, input_spec=[InputSpec([None, None, 6], "float32")],
                                  full_graph=True)
    paddle.jit.save(static, os.path.join(out_dir, "model"))
    paddle.enable_static()


@case
def rnn_lstm(out_dir):
    _rnn_case(out_dir, paddle.nn.LSTM, False, False, 1)


@case
def rnn_lstm_bidir_2layers(out_dir):
    _rnn_case(out_dir, paddle.nn.LSTM, True, False, 2)


@case
def rnn_gru_bidir_time_major(out_dir):
    _rnn_case(out_dir, paddle.nn.GRU, True, True, 1)


@case
def rnn_gru_2layers_time_major(out_dir):
    _rnn_case(out_dir, paddle.nn.GRU, False, True, 2)


@case
def rnn_simple_bidir_2layers(out_dir):
    _rnn_case(out_dir, paddle.nn.SimpleRNN, True, False, 2)


class _RnnLen(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.rnn = paddle.nn.GRU(6, 5, direction="bidirect")

    def forward(self, x, lens):
        return self.rnn(x, sequence_length=lens)


@case
def rnn_gru_sequence_length(out_dir):
    paddle.disable_static()
    paddle.seed(SEED)
    layer = _RnnLen()
    layer.eval()
    specs = [InputSpec([None, None, 6], "float32"), InputSpec([None], "int64")]
    static = paddle.jit.to_static(layer, input_spec=specs, full_graph=True)
    paddle.jit.save(static, os.path.join(out_dir, "model"))
    paddle.enable_static()


@case
def rnn_train(out_dir):
    """rnn + rnn_grad in a training program, with explicit initial states."""
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 7, 6], "float32")
        h0 = paddle.static.data("h0", [2, None, 5], "float32")
        c0 = paddle.static.data("c0", [2, None, 5], "float32")
        out, (h, c) = paddle.nn.LSTM(6, 5, direction="bidirect")(x, (h0, c0))
        out2, h2 = paddle.nn.SimpleRNN(10, 4, activation="relu")(out)
        loss = paddle.mean(out2) + paddle.mean(h) + paddle.mean(c) + paddle.mean(h2)
        paddle.optimizer.SGD(0.1).minimize(loss)
    save_main(out_dir, main)


# ------------------------------------------------------- training programs

def _mlp(loss_kind):
    x = paddle.static.data("x", [None, 8], "float32")
    y = paddle.static.data("y", [None, 1], "int64")
    h = F.relu(paddle.nn.Linear(8, 16)(x))
    o = paddle.nn.Linear(16, 4)(h)
    if loss_kind == "ce":
        return F.cross_entropy(o, y)
    return F.mse_loss(o, paddle.cast(y, "float32"))


def _train_case(out_dir, opt, loss_kind="ce"):
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        opt().minimize(_mlp(loss_kind))
    save_main(out_dir, main)


@case
def train_sgd(out_dir):
    _train_case(out_dir, lambda: paddle.optimizer.SGD(0.1))


@case
def train_momentum_nesterov_l2(out_dir):
    _train_case(out_dir, lambda: paddle.optimizer.Momentum(
        0.1, 0.8, use_nesterov=True, weight_decay=paddle.regularizer.L2Decay(1e-4)), "mse")


@case
def train_adam(out_dir):
    _train_case(out_dir, lambda: paddle.optimizer.Adam(0.01, beta1=0.8, lazy_mode=True))


@case
def train_adamw(out_dir):
    _train_case(out_dir, lambda: paddle.optimizer.AdamW(0.01, weight_decay=0.05), "mse")


@case
def train_lamb(out_dir):
    _train_case(out_dir, lambda: paddle.optimizer.Lamb(0.01, lamb_weight_decay=0.02))


@case
def train_rmsprop_centered(out_dir):
    _train_case(out_dir, lambda: paddle.optimizer.RMSProp(0.01, momentum=0.5, centered=True))


@case
def train_rmsprop(out_dir):
    _train_case(out_dir, lambda: paddle.optimizer.RMSProp(0.01), "mse")


@case
def train_adagrad(out_dir):
    _train_case(out_dir, lambda: paddle.optimizer.Adagrad(0.01))


@case
def train_adamax_adadelta(out_dir):
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 8], "float32")
        l1 = paddle.nn.Linear(8, 4)
        l2 = paddle.nn.Linear(4, 2)
        loss = paddle.mean(l2(l1(x)))
        paddle.optimizer.Adamax(0.01, parameters=l1.parameters()).minimize(loss)
        paddle.optimizer.Adadelta(0.01, parameters=l2.parameters()).minimize(loss)
    save_main(out_dir, main)


@case
def train_reader(out_dir):
    """DataLoader.from_generator(iterable=False): create_py_reader,
    create_double_buffer_reader and read in the main program."""
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 8], "float32")
        y = paddle.static.data("y", [None, 1], "int64")
        paddle.base.io.DataLoader.from_generator(feed_list=[x, y], capacity=4, iterable=False)
        loss = F.cross_entropy(paddle.nn.Linear(8, 3)(x), y)
        paddle.optimizer.Adam(0.01).minimize(loss)
    save_main(out_dir, main)


@case
def train_cond_while(out_dir):
    """cond (conditional_block, select_input and their grads) and while_loop
    (while, while_grad)."""
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 8], "float32")
        y = paddle.static.data("y", [None, 1], "int64")
        h = paddle.nn.Linear(8, 4)(x)
        r = paddle.static.nn.cond(paddle.mean(h) > 0, lambda: h * 2, lambda: h - 1)
        i = paddle.full([1], 0, "int64")
        n = paddle.full([1], 3, "int64")
        _, r = paddle.static.nn.while_loop(lambda i, a: i < n,
                                           lambda i, a: (i + 1, F.relu(a)), [i, r])
        loss = F.cross_entropy(r, y)
        paddle.optimizer.Momentum(0.1).minimize(loss)
    save_main(out_dir, main)


@case
def cond_shapes(out_dir):
    """cond whose branches return different shapes: select_input merges them."""
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 8], "float32")
        flag = paddle.static.data("flag", [1], "bool")
        a = paddle.static.nn.cond(flag, lambda: x[:, :4], lambda: x[:, 2:6] * 2)
        b = paddle.static.nn.cond(paddle.logical_not(flag), lambda: paddle.sum(x),
                                  lambda: paddle.mean(x))
    save_infer(out_dir, main, start, [x, flag], [a, b])


@case
def train_grad_zoo(out_dir):
    """Grad ops of common layers (conv, norms, pools, interp, shape ops,
    activations, indexing, reductions)."""
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        img = paddle.static.data("img", [None, 3, 16, 16], "float32")
        x = paddle.static.data("x", [None, 6, 8], "float32")
        ids = paddle.static.data("ids", [None, 6], "int64")
        img.stop_gradient = False
        x.stop_gradient = False
        c = paddle.nn.Conv2D(3, 4, 3, padding=1)(img)
        c = paddle.nn.BatchNorm2D(4)(c)
        c = F.relu6(c)
        c = F.max_pool2d(c, 2)
        c = F.avg_pool2d(c, 2)
        c = paddle.nn.Conv2DTranspose(4, 4, 2, stride=2)(c)
        c = paddle.nn.Conv2D(4, 4, 3, padding=1, groups=4)(c)
        c = paddle.nn.GroupNorm(2, 4)(c)
        c = paddle.nn.InstanceNorm2D(4)(c)
        c = F.interpolate(c, scale_factor=2, mode="bilinear")
        c = F.interpolate(c, scale_factor=0.5, mode="nearest")
        c = F.pad(c, [1, 1, 1, 1])
        c = paddle.flatten(c, 1)
        c = F.dropout(c, 0.3)
        c = paddle.reshape(c, [-1, 4, 100])
        c = paddle.transpose(c, [0, 2, 1])
        c = paddle.squeeze(paddle.unsqueeze(c, 1), 1)
        a, b = paddle.split(c, 2, axis=1)
        c = paddle.concat([a, b], axis=2)
        c = paddle.stack([c, c], axis=1)
        c = paddle.slice(c, [2], [1], [30])
        c = paddle.gather(c, paddle.full([2], 0, "int64"), axis=1)
        l1 = paddle.mean(c) + paddle.sum(paddle.max(c, axis=1)) + paddle.prod(paddle.tanh(c))
        e = paddle.nn.Embedding(10, 8)(ids)
        e = paddle.nn.LayerNorm(8)(e + x)
        e = paddle.exp(F.sigmoid(F.log_softmax(F.softmax(F.gelu(e)))))
        e = paddle.abs(paddle.sqrt(e))
        e = paddle.matmul(e, e, transpose_y=True)
        e = paddle.expand(e[:, :1, :], [-1, 6, 6]) * paddle.tile(e[:, :, :1], [1, 1, 6])
        e = paddle.clip(e, -1, 1) / (paddle.pow(e, 2) + 1)
        e = paddle.maximum(e, paddle.minimum(e, e * 2))
        e = paddle.where(paddle.cumsum(e, axis=1) > 0, e, -e)
        tv, _ = paddle.topk(e, 2)
        l2 = (paddle.mean(tv) + paddle.norm(e) + paddle.mean(paddle.bmm(e, e))
              + paddle.mean(paddle.index_select(e, paddle.full([2], 1, "int64"), axis=2)))
        xs = paddle.unstack(x, axis=1)
        z = paddle.stack(xs[:3], axis=0)
        z = (F.leaky_relu(z) + F.elu(z) + F.softplus(z) + F.silu(z) + F.mish(z) + F.hardtanh(z)
             + F.selu(z) + F.celu(z) + F.tanhshrink(z) + F.hardshrink(z) + F.softshrink(z)
             + F.log_sigmoid(z) + F.thresholded_relu(z) + paddle.log(z) + paddle.rsqrt(z)
             + paddle.sin(z) + paddle.cos(z) + paddle.erf(z) + F.hardswish(z) + F.hardsigmoid(z)
             + F.swish(z) + paddle.stanh(z) + paddle.square(z) + F.softsign(z))
        z = paddle.nn.PReLU()(z)
        z = paddle.roll(z, 1, 0) + paddle.expand_as(z[:1], z) + paddle.reciprocal(z)
        l3 = paddle.mean(z) + paddle.mean(paddle.gather_nd(z, paddle.zeros([1, 1], "int64")))
        l3 = l3 + paddle.mean(paddle.strided_slice(z, [2], [0], [8], [2]))
        loss = paddle.mean(l1 + l2 + l3)
        paddle.optimizer.SGD(0.1).minimize(loss)
    save_main(out_dir, main)


@case
def train_loss_zoo(out_dir):
    """Losses and their grads (softmax_with_cross_entropy with soft labels and
    an axis, bce, sigmoid ce, huber, kl_div, log_loss, square error) and
    accuracy."""
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 8], "float32")
        y = paddle.static.data("y", [None, 1], "int64")
        ys = paddle.static.data("ys", [None, 3, 1], "int64")
        fc = paddle.nn.Linear(8, 5)(x)
        f3 = paddle.reshape(paddle.nn.Linear(8, 15)(x), [-1, 3, 5])
        ones = paddle.ones_like(fc)
        l = (F.cross_entropy(fc, y) + F.cross_entropy(fc, F.softmax(fc), soft_label=True)
             + F.cross_entropy(F.softmax(fc), y, use_softmax=False, ignore_index=2)
             + F.binary_cross_entropy_with_logits(fc, ones, pos_weight=paddle.ones([5]))
             + F.cross_entropy(f3, ys, axis=-1, reduction="sum")
             + paddle.mean(F.softmax_with_cross_entropy(paddle.transpose(f3, [0, 2, 1]),
                                                        paddle.transpose(ys, [0, 2, 1]), axis=1))
             + F.binary_cross_entropy_with_logits(fc, ones)
             + F.binary_cross_entropy(F.sigmoid(fc), ones)
             + F.smooth_l1_loss(fc, paddle.zeros_like(fc))
             + F.kl_div(F.log_softmax(fc), F.softmax(fc))
             + paddle.mean(F.kl_div(F.log_softmax(fc), F.softmax(fc), reduction="none"))
             + F.log_loss(F.sigmoid(fc[:, :1]), paddle.ones([1, 1])).mean()
             + F.square_error_cost(fc, paddle.zeros_like(fc)).mean())
        acc = paddle.static.accuracy(F.softmax(fc), y, k=2)
        paddle.optimizer.SGD(0.1).minimize(paddle.mean(l) + acc * 0)
    save_main(out_dir, main)


# ------------------------------------------------------------ 1.x LoD ops

def _lod_data(name, width, dtype="float32"):
    return paddle.static.data(name, [None, width], dtype, lod_level=1)


@case
def lod_gru(out_dir):
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        x = _lod_data("x", 12)
        h0 = paddle.static.data("h0", [None, 4], "float32")
        w, b = param([4, 12]), param([1, 12])
        g1 = append("gru", {"Input": x, "Weight": w, "Bias": b},
                    {"BatchGate": 1, "BatchResetHiddenPrev": 1, "BatchHidden": 1, "Hidden": 1})
        g2 = append("gru", {"Input": x, "Weight": w, "H0": h0},
                    {"BatchGate": 1, "BatchResetHiddenPrev": 1, "BatchHidden": 1, "Hidden": 1},
                    {"is_reverse": True, "origin_mode": True, "activation": "relu",
                     "gate_activation": "tanh"})
        u = append("gru_unit", {"Input": paddle.static.data("xu", [None, 12], "float32"),
                                "HiddenPrev": h0, "Weight": w, "Bias": b},
                   {"Gate": 1, "ResetHiddenPrev": 1, "Hidden": 1},
                   {"activation": 3, "gate_activation": 1, "origin_mode": True})
    save_infer(out_dir, main, start, [x, h0, main.global_block().var("xu")],
               [g1["Hidden"], g2["Hidden"], u["Hidden"], u["Gate"]])


@case
def lod_lstm(out_dir):
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        x = _lod_data("x", 16)
        h0 = paddle.static.data("h0", [None, 4], "float32")
        c0 = paddle.static.data("c0", [None, 4], "float32")
        outs = {"Hidden": 1, "Cell": 1, "BatchGate": 1, "BatchCellPreAct": 1}
        a = append("lstm", {"Input": x, "Weight": param([4, 16]), "Bias": param([1, 28])}, outs)
        b = append("lstm", {"Input": x, "Weight": param([4, 16]), "Bias": param([1, 16]),
                            "H0": h0, "C0": c0}, outs,
                   {"use_peepholes": False, "is_reverse": True, "gate_activation": "tanh",
                    "cell_activation": "relu", "candidate_activation": "identity"})
    save_infer(out_dir, main, start, [x, h0, c0],
               [a["Hidden"], a["Cell"], b["Hidden"], b["Cell"]])


@case
def lod_rnn_train(out_dir):
    """gru, lstm and sequence ops with their grads."""
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        x = _lod_data("x", 16)
        x.stop_gradient = False
        lstm = append("lstm", {"Input": x, "Weight": param([4, 16]), "Bias": param([1, 28])},
                      {"Hidden": 1, "Cell": 1, "BatchGate": 1, "BatchCellPreAct": 1})
        lstm2 = append("lstm", {"Input": x, "Weight": param([4, 16]), "Bias": param([1, 16])},
                       {"Hidden": 1, "Cell": 1, "BatchGate": 1, "BatchCellPreAct": 1},
                       {"use_peepholes": False, "is_reverse": True})
        g = append("gru", {"Input": paddle.static.nn.fc(x, 12), "Weight": param([4, 12]),
                           "Bias": param([1, 12])},
                   {"BatchGate": 1, "BatchResetHiddenPrev": 1, "BatchHidden": 1, "Hidden": 1})
        h = paddle.concat([lstm["Hidden"], lstm2["Hidden"], g["Hidden"]], axis=1)
        s = paddle.static.nn.sequence_conv(h, 6, filter_size=3)
        s = paddle.static.nn.sequence_softmax(s)
        s = paddle.static.nn.sequence_concat([s, paddle.static.nn.sequence_conv(h, 6, 2)])
        p = paddle.static.nn.sequence_pool(s, "max") + paddle.static.nn.sequence_pool(s, "sqrt")
        loss = paddle.mean(p)
        paddle.optimizer.Adam(0.01).minimize(loss)
    save_main(out_dir, main)


@case
def lod_sequence(out_dir):
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        x = _lod_data("x", 6)
        y = _lod_data("y", 1)
        seq = paddle.static.nn
        outs = [seq.sequence_conv(x, 4, filter_size=3, padding_start=-2),
                seq.sequence_conv(x, 5, filter_size=2, padding=False, bias_attr=False)]
        for pt in ["average", "sum", "sqrt", "max", "last", "first"]:
            outs.append(seq.sequence_pool(x, pt, pad_value=1.0))
        outs.append(seq.sequence_first_step(x))
        outs.append(seq.sequence_softmax(y))
        outs.append(seq.sequence_expand(x, y, ref_level=0))
        outs.append(seq.sequence_expand(paddle.static.data("xd", [None, 6], "float32"), y))
        outs.append(seq.sequence_expand_as(x, y))
        outs.append(seq.sequence_concat([x, x, x]))
        outs.append(seq.sequence_reshape(x, 3))
        pv = paddle.full([1], 0.0, "float32")
        padded, length = seq.sequence_pad(x, pv)
        padded5, length5 = seq.sequence_pad(x, paddle.zeros([6], "float32"), maxlen=5)
        outs += [padded, length, padded5, length5]
        outs.append(seq.sequence_unpad(padded5, length5))
        p3 = paddle.static.data("p3", [None, 5, 2, 3], "float32")
        outs.append(seq.sequence_unpad(p3, paddle.static.data("l3", [None], "int64")))
        lens = paddle.static.data("lens", [None], "int64")
        outs.append(F.sequence_mask(lens, maxlen=7))
        outs.append(F.sequence_mask(lens, dtype="float32"))
        outs.append(F.sequence_mask(lens, maxlen=paddle.full([1], 9, "int64"), dtype="int32"))
    feeds = [x, y] + [main.global_block().var(n) for n in ("xd", "p3", "l3", "lens")]
    save_infer(out_dir, main, start, feeds, outs)


@case
def lod_crf(out_dir):
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        e = _lod_data("e", 4)
        label = _lod_data("label", 1, "int64")
        e.stop_gradient = False
        t = param([6, 4], name="crfw")
        crf = append("linear_chain_crf", {"Emission": e, "Transition": t, "Label": label},
                     {"Alpha": 1, "EmissionExps": 1, "TransitionExps": 1, "LogLikelihood": 1})
        ep = paddle.static.data("ep", [None, 5, 4], "float32")
        lp = paddle.static.data("lp", [None, 5], "int64")
        ln = paddle.static.data("ln", [None], "int64")
        ep.stop_gradient = False
        crf2 = append("linear_chain_crf",
                      {"Emission": ep, "Transition": t, "Label": lp, "Length": ln},
                      {"Alpha": 1, "EmissionExps": 1, "TransitionExps": 1, "LogLikelihood": 1})
        v1 = append("crf_decoding", {"Emission": e, "Transition": t}, {"ViterbiPath": 1},
                    dtypes={"ViterbiPath": "int64"})
        v2 = append("crf_decoding", {"Emission": e, "Transition": t, "Label": label},
                    {"ViterbiPath": 1}, dtypes={"ViterbiPath": "int64"})
        v3 = append("crf_decoding", {"Emission": ep, "Transition": t, "Length": ln},
                    {"ViterbiPath": 1}, dtypes={"ViterbiPath": "int64"})
        loss = paddle.mean(crf["LogLikelihood"]) + paddle.mean(crf2["LogLikelihood"])
        loss = loss + paddle.mean(paddle.cast(v1["ViterbiPath"], "float32") * 0)
        paths = v2["ViterbiPath"] + v3["ViterbiPath"][:, :1]
        loss = loss + paddle.mean(paddle.cast(paths, "float32") * 0)
        paddle.optimizer.SGD(0.1).minimize(loss)
    save_main(out_dir, main)


@case
def ctc_infer(out_dir):
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        x = _lod_data("x", 1, "int32")
        a = append("ctc_align", {"Input": x}, {"Output": 1}, {"blank": 2, "merge_repeated": False},
                   dtypes={"Output": "int32"})
        xp = paddle.static.data("xp", [None, 10], "int64")
        xl = paddle.static.data("xl", [None, 1], "int64")
        b = append("ctc_align", {"Input": xp, "InputLength": xl}, {"Output": 1, "OutputLength": 1},
                   {"blank": 0, "padding_value": -1},
                   dtypes={"Output": "int64", "OutputLength": "int64"})
    save_infer(out_dir, main, start, [x, xp, xl], [a["Output"], b["Output"], b["OutputLength"]])


@case
def ctc_train(out_dir):
    """warpctc (LoD and padded, via paddle.nn.functional.ctc_loss) and grads."""
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        logits = _lod_data("logits", 7)
        label = _lod_data("label", 1, "int32")
        logits.stop_gradient = False
        w = append("warpctc", {"Logits": logits, "Label": label}, {"Loss": 1, "WarpCTCGrad": 1},
                   {"blank": 6, "norm_by_times": True})
        lp = paddle.static.data("lp", [9, None, 7], "float32")
        lp.stop_gradient = False
        lab = paddle.static.data("lab", [None, 4], "int32")
        il = paddle.static.data("il", [None], "int64")
        ll = paddle.static.data("ll", [None], "int64")
        l2 = F.ctc_loss(lp, lab, il, ll, blank=0, reduction="sum")
        loss = paddle.mean(w["Loss"]) + l2
        paddle.optimizer.SGD(0.1).minimize(loss)
    save_main(out_dir, main)


@case
def cross_entropy_legacy(out_dir):
    """cross_entropy / cross_entropy2 (fluid.layers.cross_entropy) and grads."""
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 8], "float32")
        y = paddle.static.data("y", [None, 1], "int64")
        y3 = paddle.static.data("y3", [None, 2], "int64")
        prob = F.softmax(paddle.nn.Linear(8, 5)(x))
        p3 = F.softmax(paddle.reshape(paddle.nn.Linear(8, 10)(x), [-1, 2, 5]))
        a = append("cross_entropy", {"X": prob, "Label": y}, {"Y": 1})
        b = append("cross_entropy", {"X": prob, "Label": F.softmax(prob)}, {"Y": 1},
                   {"soft_label": True})
        c = append("cross_entropy2", {"X": prob, "Label": y}, {"Y": 1, "XShape": 1, "MatchX": 1},
                   {"ignore_index": 3})
        d = append("cross_entropy2", {"X": p3, "Label": y3}, {"Y": 1, "XShape": 1, "MatchX": 1})
        loss = paddle.mean(a["Y"]) + paddle.mean(b["Y"]) + paddle.mean(c["Y"]) + paddle.mean(d["Y"])
        paddle.optimizer.SGD(0.1).minimize(loss)
    save_main(out_dir, main)


def main(argv):
    out = argv[1]
    names = argv[2:] or sorted(CASES)
    paddle.enable_static()
    for name in names:
        out_dir = os.path.join(out, name)
        os.makedirs(out_dir, exist_ok=True)
        paddle.seed(SEED)
        np.random.seed(SEED)
        paddle.utils.unique_name.switch()
        CASES[name](out_dir)


if __name__ == "__main__":
    main(sys.argv)

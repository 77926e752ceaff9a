"""Random fills that must match Paddle bit for bit (tests/test_random.py).

    python random_cases.py OUTDIR [CASE ...]

Each case builds a static program whose ops are random fills (and what
initializers add), with the fetches as Paddle's Executor adds them
(oracle_case.save_grad_program), and saves Paddle's outputs of one run:
OUTDIR/CASE/model.pdmodel, output_<i>.npy and paddle.json (feeds: none,
fetches, and `seed`: the paddle.seed(S) run before the reference run, which
the compiled binary repeats with --seed S; null when every op has its own
seed).  Ops with seed 0 draw from Paddle's global CPU generator in program
order, so a case's reference is one run right after paddle.seed; the next
run's outputs are output_second_<i>.npy, and those of a run right after
paddle.seed(0) (a compiled model's default) output_default_<i>.npy."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import case_registry  # noqa: E402

import numpy as np  # noqa: E402
import paddle  # noqa: E402

CASES, case = case_registry()
FLAGS = {}  # case -> paddlec compile flags


@case
def uniform_seeded():
    """uniform_random with its own seed: float32 and float64, min/max."""
    a = paddle.uniform([4, 5], dtype="float32", min=-0.3, max=2.5, seed=7)
    b = paddle.uniform([3, 7], dtype="float64", min=-2.0, max=0.5, seed=12345)
    c = paddle.uniform([1000], dtype="float32", seed=-3)  # a negative int seed
    return [a, b, c], None


@case
def randint_global():
    """randint from the global generator: int64 and int32, a narrow range,
    a negative one and one near 2^32 wide (where libstdc++'s old and new
    uniform_int_distribution part ways)."""
    a = paddle.randint(-3, 7, [50], dtype="int64")
    b = paddle.randint(-2147483648, 2147483647, [400], dtype="int64")
    c = paddle.randint(0, 1000000007, [3, 40], dtype="int32")
    return [a, b, c], 2024


@case
def randint_seeded():
    """randint with a seed: Paddle 2.6 seeds a fresh engine with the dtype
    attribute, whatever the seed (3 for int64, 2 for int32): both draw the
    same numbers each run."""
    a = paddle.randint(-2147483648, 2147483647, [300], dtype="int64")
    b = paddle.randint(5, 9, [20], dtype="int32")
    for o in paddle.static.default_main_program().global_block().ops:
        if o.type == "randint":
            o._set_attr("seed", 77)
    return [a, b], None


@case
def uniform_diag():
    """uniform_random's diag_num / diag_step / diag_val (uniform_raw)."""
    from oracle_case import append_op
    outs = []
    for dt, (num, step, val) in ((5, (3, 4, 2.5)), (6, (4, 0, -1.25)), (5, (2, 9, 7.0))):
        outs += append_op("uniform_random", {}, {"Out": ["float32" if dt == 5 else "float64"]},
                          {"shape": [4, 5], "min": -1.0, "max": 1.0, "seed": 99, "dtype": dt,
                           "diag_num": num, "diag_step": step, "diag_val": val})
    return outs, None


@case
def gaussian_seeded():
    """gaussian_random with its own seed: mean/std, float32 and float64,
    odd element counts (the pair's saved value left over)."""
    a = paddle.tensor.random.gaussian([5, 3], mean=0.5, std=1.7, seed=11, dtype="float32")
    b = paddle.tensor.random.gaussian([7], mean=-3.0, std=0.25, seed=11, dtype="float64")
    c = paddle.tensor.random.gaussian([2, 501], seed=2024, dtype="float32")
    return [a, b, c], None


@case
def shape_tensor():
    """The shape from ShapeTensor and ShapeTensorList (fill_constant values
    known at compile time)."""
    n = paddle.full([1], 3, "int32")
    a = paddle.uniform([2, n], dtype="float32", seed=5)
    s = paddle.full([2], 4, "int64")
    b = paddle.tensor.random.gaussian(s, seed=6)
    return [a, b], None


@case
def fed_shape_bounded():
    """Shapes fed at run time, bounded with --max-shape (flags.json, read by
    tests/test_random.py): uniform_random with its own seed from a fed
    ShapeTensor ([3, 5]), gaussian_random from the global generator from a
    fed ShapeTensorList entry and a constant one ([4, 3]), randint from the
    global generator and the fed ShapeTensor."""
    s = paddle.static.data("s", [2], "int64")
    n = paddle.static.data("n", [1], "int32")
    a = paddle.uniform(s, dtype="float32", min=-2.0, max=3.0, seed=5)
    b = paddle.tensor.random.gaussian([n, 3], mean=1.0, std=2.0)
    c = paddle.randint(-4, 9, s)
    for v, bound in ((a, "4,6"), (b, "8,3"), (c, "3,5")):
        FLAGS.setdefault("fed_shape_bounded", []).extend(["--max-shape", f"{v.name}={bound}"])
    return [a, b, c], 42, {"s": np.array([3, 5], "int64"), "n": np.array([4], "int32")}


@case
def global_in_order():
    """Ops with seed 0 draw from the global generator in program order,
    interleaved with a seeded op that does not touch it."""
    a = paddle.uniform([3, 4], min=-1.0, max=1.0)
    b = paddle.tensor.random.gaussian([5], mean=1.0, std=2.0)
    c = paddle.uniform([6], seed=3)
    d = paddle.uniform([2, 2], dtype="float64", min=0.0, max=10.0)
    e = paddle.tensor.random.gaussian([3, 3], dtype="float64")
    return [a, b, c, d, e], 2024


@case
def truncated_seeded():
    """truncated_gaussian_random with its own seed (Paddle 2.6: mean +- 2
    std), float32 and float64, many draws (both of Erfinv's tails)."""
    from oracle_case import append_op
    outs = []
    for dt, n, mean, std, seed in ((5, 20000, 0.0, 1.0, 7), (6, 20000, 0.5, 2.0, 123), (5, 33, -1.0, 0.3, -5)):
        outs += append_op("truncated_gaussian_random", {}, {"Out": ["float32" if dt == 5 else "float64"]},
                          {"shape": [n], "mean": mean, "std": std, "seed": seed, "dtype": dt})
    return outs, None


@case
def global_unfetched():
    """An op on the global generator whose output nobody reads still
    advances it (kept by dead code elimination)."""
    paddle.uniform([10])
    b = paddle.tensor.random.gaussian([4])
    return [b], 77


def _dropout_case(x_shape, dtype, drops, seed, fetch_mask=False, fetch_grad=True):
    """x -> each of `drops` (a function of x) -> their gradients w.r.t. x
    with fed upstream gradients (dropout_grad), fetched unless fetch_grad is
    false."""
    rng = np.random.default_rng(len(drops))
    x = paddle.static.data("x", x_shape, dtype)
    x.stop_gradient = False
    outs = [f(x) for f in drops]
    douts = [paddle.static.data(f"dout_{i}", x_shape, dtype) for i in range(len(outs))]
    (dx,) = paddle.static.gradients(outs, [x], target_gradients=douts)
    feeds = {"x": rng.standard_normal(x_shape).astype(dtype)}
    feeds.update({d.name: rng.standard_normal(x_shape).astype(dtype) for d in douts})
    fetches = outs + ([dx] if fetch_grad else [])
    if fetch_mask:
        block = paddle.static.default_main_program().global_block()
        fetches += [block.var(o.output("Mask" if o.type == "dropout" else "Noise")[0])
                    for o in block.ops if o.type in ("dropout", "rrelu")]
    return fetches, seed, feeds


F = paddle.nn.functional


def _drop(p, mode="upscale_in_train", seed_value=None, **attrs):
    """A raw dropout op (F.dropout returns x itself for p = 0), with a Seed
    input holding seed_value when given."""
    from oracle_case import append_op

    def f(x):
        ins = {"X": [x]}
        if seed_value is not None:
            ins["Seed"] = [paddle.full([1], seed_value, "int32")]
        out, _ = append_op("dropout", ins, {"Out": [x.dtype], "Mask": ["uint8"]},
                           dict(dropout_prob=p, is_test=False, dropout_implementation=mode, **attrs))
        return out
    return f


@case
def dropout_global():
    """Training dropout from the global generator: upscale_in_train and
    downgrade_in_infer, and their dropout_grad."""
    return _dropout_case([4, 6], "float32", [lambda x: F.dropout(x, 0.3, training=True),
                                             lambda x: F.dropout(x, 0.6, training=True, mode="downscale_in_infer")],
                         2024, fetch_mask=True)


@case
def dropout_fixed_seed():
    """program.random_seed != 0 makes fix_seed / seed; float64; p = 0 and
    p = 1 (no draws)."""
    paddle.static.default_main_program().random_seed = 17
    return _dropout_case([3, 5, 7], "float64", [lambda x: F.dropout(x, 0.35, training=True),
                                                _drop(0.0, fix_seed=True, seed=3),
                                                lambda x: F.dropout(x, 1.0, training=True),
                                                lambda x: F.dropout(x, 1.0, training=True, mode="downscale_in_infer"),
                                                lambda x: F.dropout(x, 0.25, training=True,
                                                                    mode="downscale_in_infer")],
                         None)


@case
def dropout_grad_unfetched():
    """A training program whose gradients nobody fetches: dead code
    elimination drops dropout_grad, the dropout still trains."""
    return _dropout_case([8, 9], "float32", [lambda x: F.dropout(x, 0.45, training=True)], 31, fetch_grad=False)


@case
def dropout_seed_input():
    """The Seed input: a non-zero value seeds a fresh engine, 0 draws from
    the global generator."""
    return _dropout_case([50], "float32", [_drop(0.4, seed_value=7), _drop(0.7, seed_value=0),
                                           lambda x: F.dropout(x, 0.5, training=True)], 99, fetch_mask=True)


@case
def rrelu_training():
    """rrelu with is_test false (F.rrelu, training=True): each element below
    zero gets a slope drawn from the global generator, in program order
    with a dropout's draws; zeros keep slope 1 and draw nothing; Noise (the
    slopes) and rrelu_grad fetched."""
    fetches, seed, feeds = _dropout_case([5, 7], "float32", [lambda x: F.rrelu(x, 0.1, 0.4, training=True),
                                                             lambda x: F.dropout(x, 0.3, training=True),
                                                             lambda x: F.rrelu(x, training=True)], 77, fetch_mask=True)
    feeds["x"][0, :3] = 0
    return fetches, seed, feeds


rrelu_training.sequential = True


@case
def rrelu_training_f64():
    """The same in float64 (a float draw converted to double), with equal
    bounds (every slope lower), and a NaN, which Paddle 2.6.2 keeps with
    slope 1, drawing nothing."""
    fetches, seed, feeds = _dropout_case([3, 4, 5], "float64", [lambda x: F.rrelu(x, 0.05, 0.9, training=True),
                                                                lambda x: F.rrelu(x, 0.3, 0.3, training=True)],
                                         4242, fetch_mask=True)
    feeds["x"][1, 2, :2] = [0.0, np.nan]
    return fetches, seed, feeds


rrelu_training_f64.sequential = True


@case
def random_ops_on_a_feed():
    """rrelu and dropout in training on a feed that needs no gradient, in a
    program that trains (it has grad ops): no rrelu_grad or dropout_grad
    reads Noise or Mask, and still Paddle's Executor draws."""
    rng = np.random.default_rng(8)
    x = paddle.static.data("x", [4, 6], "float32")
    y = paddle.static.data("y", [4, 6], "float32")
    y.stop_gradient = False
    a, b = F.rrelu(x, 0.1, 0.3, training=True), F.dropout(x, 0.4, training=True)
    out = a * y + b * y
    dout = paddle.static.data("dout", [4, 6], "float32")
    (dy,) = paddle.static.gradients([out], [y], target_gradients=[dout])
    feeds = {n: rng.standard_normal([4, 6]).astype("float32") for n in ("x", "y", "dout")}
    return [a, b, out, dy], 123, feeds


random_ops_on_a_feed.sequential = True


def _startup_case(build, seed):
    """The startup program of the net `build` makes: its parameters, in
    program order, drawn by Paddle's initializers."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        build()
    params = [startup.global_block().var(p.name) for p in main.all_parameters()]
    return startup, params, seed


I = paddle.nn.initializer


def _attr(init):
    return paddle.ParamAttr(initializer=init)


@case
def init_uniform_normal():
    def net():
        x = paddle.static.data("x", [-1, 6], "float32")
        y = paddle.static.nn.fc(x, 5, weight_attr=_attr(I.Uniform(-0.5, 0.7)), bias_attr=_attr(I.Normal(0.1, 2.0)))
        y = paddle.static.nn.fc(y, 3, weight_attr=_attr(I.Normal(-1.0, 0.5)), bias_attr=_attr(I.Uniform()))
        y = paddle.static.nn.fc(y, 300, weight_attr=_attr(I.TruncatedNormal(0.2, 1.5)),
                                bias_attr=_attr(I.TruncatedNormal()))
    return _startup_case(net, 5)


@case
def init_xavier_kaiming():
    def net():
        x = paddle.static.data("x", [-1, 3, 8, 8], "float32")
        y = paddle.static.nn.conv2d(x, 4, 3, param_attr=_attr(I.XavierUniform()), bias_attr=_attr(I.XavierNormal()))
        y = paddle.static.nn.conv2d(y, 2, 3, param_attr=_attr(I.KaimingUniform()), bias_attr=_attr(I.KaimingNormal()))
        y = paddle.flatten(y, 1)
        paddle.static.nn.fc(y, 3, weight_attr=_attr(I.XavierNormal()), bias_attr=_attr(I.XavierUniform(fan_in=7.0, fan_out=3.0)))
        paddle.static.nn.fc(y, 4, weight_attr=_attr(I.KaimingNormal(fan_in=10.0)),
                            bias_attr=_attr(I.KaimingUniform(negative_slope=0.1, nonlinearity="leaky_relu")))
    return _startup_case(net, 123456789)


@case
def init_constant_assign():
    def net():
        x = paddle.static.data("x", [-1, 4], "float32")
        y = paddle.static.nn.fc(x, 3, weight_attr=_attr(I.Assign(np.arange(12, dtype="float32").reshape(4, 3) / 7)),
                                bias_attr=_attr(I.Constant(0.25)))
        paddle.static.nn.fc(y, 2, weight_attr=_attr(I.Uniform(-2.0, 2.0)), bias_attr=_attr(I.Constant(-1.5)))
    return _startup_case(net, 9)


@case
def init_default():
    """fc and conv2d with Paddle's default initializers (Xavier weights,
    zero biases)."""
    def net():
        x = paddle.static.data("x", [-1, 2, 5, 5], "float32")
        y = paddle.static.nn.conv2d(x, 3, 3)
        paddle.static.nn.fc(paddle.flatten(y, 1), 4)
    return _startup_case(net, 1)


def save_program(out_dir, prog, fetches, feeds=()):
    """out_dir/model.pdmodel: `prog` with the feed and fetch ops Paddle's
    Executor adds; no parameter file.  A startup program makes its parameters: the
    saved copy declares them not persistable (plain tensors its ops write and
    the fetches read), so that paddlec compiles it as it compiles any
    program, without the trainer's handling of parameters."""
    from paddle.base.executor import _add_feed_fetch_ops
    os.makedirs(out_dir, exist_ok=True)
    prog = _add_feed_fetch_ops(prog, {f: None for f in feeds}, fetches, "feed", "fetch")
    for v in prog.global_block().vars.values():
        if v.persistable and v.name not in ("feed", "fetch"):
            v.desc.set_persistable(False)
    with open(os.path.join(out_dir, "model.pdmodel"), "wb") as f:
        f.write(prog.desc.serialize_to_string())


def build_case(out_dir, name, fn):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        r = fn()
    feeds = {}
    if len(r) == 3 and isinstance(r[0], paddle.static.Program):
        prog, fetches, seed = r
    else:
        prog, (fetches, seed, *rest) = main, r
        feeds = rest[0] if rest else {}
    d = os.path.join(out_dir, name)
    # Paddle 2.6's executor orders random ops among themselves by a fixed
    # list of op types, which lacks rrelu: from the second run on, its
    # scheduler may run an rrelu before or after the other random ops
    # (measured: the second and third runs' slopes differ from one Paddle
    # process to the next).  Its first run goes in program order, as
    # paddlec's runs all do; so does every run with
    # FLAGS_new_executor_sequential_run, with which the references of the
    # cases marked `sequential` are made.
    paddle.set_flags({"FLAGS_new_executor_sequential_run": bool(getattr(fn, "sequential", False))})
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        save_program(d, prog, fetches, list(feeds))
        paddle.seed(seed if seed is not None else 1)
        outs = exe.run(prog, feed=feeds, fetch_list=fetches)
        # the generator goes on run after run; a model starts as after paddle.seed(0)
        second = exe.run(prog, feed=feeds, fetch_list=fetches)
        paddle.seed(0)
        default = exe.run(prog, feed=feeds, fetch_list=fetches)
    for i, x in enumerate(feeds.values()):
        np.save(os.path.join(d, f"input_{i}.npy"), x)
    for tag, res in (("", outs), ("second_", second), ("default_", default)):
        for i, o in enumerate(res):
            np.save(os.path.join(d, f"output_{tag}{i}.npy"), np.asarray(o))
    with open(os.path.join(d, "paddle.json"), "w") as f:
        json.dump({"feeds": list(feeds), "fetches": [v.name for v in fetches], "seed": seed}, f, indent=1)
    if name in FLAGS:
        with open(os.path.join(d, "flags.json"), "w") as f:
            json.dump(FLAGS[name], f)


if __name__ == "__main__":
    paddle.enable_static()
    for n in sys.argv[2:] or list(CASES):
        build_case(sys.argv[1], n, CASES[n])

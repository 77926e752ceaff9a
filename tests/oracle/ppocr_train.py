"""Paddle's run of a real training program: PaddleOCR 1.x's DB text detector
(../shared/models/ppocr1_db_det_train, saved by fluid.save: main program and
best_accuracy.pdparams; no startup program, no .pdopt).

    python ppocr_train.py OUTDIR STEPS BATCH SIZE

writes to OUTDIR:

  startup.pdmodel   the startup program PaddleOCR's script would have had,
                    for the state the checkpoint lacks: every persistable
                    var of main, by fill_constant, with the value fluid's
                    initializers give it (below); the parameters' values are
                    placeholders the checkpoint replaces
  <feed>.npy        STEPS * BATCH random rows per feed (image normal, the
                    maps uniform in [0, 1), the masks 0 or 1), images of
                    SIZE x SIZE
  paddle_loss.npy   Paddle's loss at each step: its Executor runs the startup
                    program, loads best_accuracy.pdparams, and trains the
                    main program with its reader ops (create_py_reader,
                    create_double_buffer_reader, read) replaced by feeds
                    (for_paddle26)

Fluid's values for the state a checkpoint without .pdopt lacks (what the
startup program of the script that wrote it sets):
  *_moment1_0, *_moment2_0   0 (Adam's accumulators, _add_accumulator)
  *_beta1_pow_acc_0          the beta1 attribute of the adam op reading it
  *_beta2_pow_acc_0          the beta2 attribute of the adam op reading it
  @LR_DECAY_COUNTER@         begin - 1 = -1 (autoincreased_step_counter,
                             int64: the increment at the top makes it 0)
  learning_rate              0 (create_global_var; the schedule's
                             conditional blocks assign it before Adam reads
                             it)
The parameters and batch-norm statistics come from the checkpoint."""
import os
import pickle
import sys

os.environ.setdefault("FLAGS_enable_pir_api", "0")
import numpy as np  # noqa: E402
import paddle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "models", "ppocr1_db_det_train"))
READERS = ("create_py_reader", "create_double_buffer_reader", "read")
LOSS = "tmp_43"


def load_main():
    with open(os.path.join(MODEL, "best_accuracy.pdmodel"), "rb") as f:
        return paddle.static.Program.parse_from_string(f.read())


def state_values(main):
    """The value fluid's initializers give each persistable var the checkpoint
    lacks (module docstring); None for the ones it holds."""
    beta = {}
    for op in main.global_block().ops:
        if op.type == "adam":
            beta[op.input("Beta1Pow")[0]] = op.attr("beta1")
            beta[op.input("Beta2Pow")[0]] = op.attr("beta2")
    with open(os.path.join(MODEL, "best_accuracy.pdparams"), "rb") as f:
        have = pickle.load(f, encoding="latin1")
    out = {}
    for v in main.list_vars():
        if not v.persistable or v.type != paddle.base.core.VarDesc.VarType.LOD_TENSOR:
            continue
        if v.name in have:
            out[v.name] = None
        elif v.name in beta:
            out[v.name] = beta[v.name]
        elif v.name.endswith(("_moment1_0", "_moment2_0")) or v.name == "learning_rate":
            out[v.name] = 0.0
        elif v.name == "@LR_DECAY_COUNTER@":
            out[v.name] = -1
        else:
            raise SystemExit(f"no initial value known for state var {v.name}")
    return out


def write_startup(main, path):
    startup = paddle.static.Program()
    blk = startup.global_block()
    for name, value in sorted(state_values(main).items()):
        v = main.global_block().var(name)
        blk.create_var(name=name, shape=v.shape, dtype=v.dtype, persistable=True)
        blk.append_op(type="fill_constant", outputs={"Out": [name]},
                      attrs={"shape": list(v.shape), "dtype": v.dtype, "value": float(value or 0.0)})
    with open(path, "wb") as f:
        f.write(startup.desc.serialize_to_string())
    return startup


def for_paddle26(main):
    """The reader ops out (their outputs become feeds), and the ReserveSpace
    output Paddle 2.x's batch_norm kernel writes (fluid 1.8's op had none;
    Paddle 2.6's CPU kernel stops on a missing one)."""
    blk = main.global_block()
    for i in reversed(range(len(blk.ops))):
        if blk.ops[i].type in READERS:
            blk._remove_op(i)
    for k, op in enumerate(blk.ops):
        if op.type == "batch_norm" and "ReserveSpace" not in op.output_names:
            name = f"batch_norm_reserve_{k}"
            blk.create_var(name=name, dtype="float32")
            op.desc.set_output("ReserveSpace", [name])
    main._sync_with_cpp()


def data(steps, batch, size, rng):
    n = steps * batch
    maps = lambda: rng.uniform(0, 1, (n, size, size)).astype("float32")  # noqa: E731
    masks = lambda: (rng.uniform(0, 1, (n, size, size)) < 0.7).astype("float32")  # noqa: E731
    return {"image": rng.standard_normal((n, 3, size, size)).astype("float32"), "shrink_map": maps(),
            "shrink_mask": masks(), "threshold_map": maps(), "threshold_mask": masks()}


def main(out, steps, batch, size):
    os.makedirs(out, exist_ok=True)
    paddle.enable_static()
    prog = load_main()
    startup = write_startup(prog, os.path.join(out, "startup.pdmodel"))
    feeds = data(steps, batch, size, np.random.default_rng(16))
    for k, a in feeds.items():
        np.save(os.path.join(out, k + ".npy"), a)
    for_paddle26(prog)
    exe = paddle.static.Executor(paddle.CPUPlace())
    losses = []
    with paddle.static.scope_guard(paddle.static.Scope()):
        exe.run(startup)
        with open(os.path.join(MODEL, "best_accuracy.pdparams"), "rb") as f:
            state = pickle.load(f, encoding="latin1")
        scope = paddle.static.global_scope()
        for k, a in state.items():
            scope.find_var(k).get_tensor().set(np.asarray(a), paddle.CPUPlace())
        for s in range(steps):
            feed = {k: a[s * batch:(s + 1) * batch] for k, a in feeds.items()}
            losses.append(np.array(exe.run(prog, feed=feed, fetch_list=[LOSS])[0]).reshape(-1)[0])
    np.save(os.path.join(out, "paddle_loss.npy"), np.array(losses, dtype="float32"))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))

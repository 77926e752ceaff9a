#!/usr/bin/env python3
"""Paddle's run of ../shared/models/ppocr1_db_det_train (PaddleOCR 1.x's DB
text detector: MobileNetV3 + FPN + DB head, Adam, a piecewise learning rate
in conditional_block sub-blocks; its training program saved by fluid.save),
the reference tests/test_ppocr_train.py holds paddlec's trainer to.

As paddlec runs it: the reader ops (create_py_reader,
create_double_buffer_reader, read) go and their outputs are fed (and, for
Paddle 2.6 to run a 1.8 program: batch_norm gets the ReserveSpace output
its kernel writes, the grads of reductions over every element the axes []
instead of [0], their scalars being 0-D now, and every op the attributes
2.6 added, at their defaults); the
parameters come from best_accuracy.pdparams (a protocol-2 pickle); the
optimizer state, which fluid.save put in the .pdopt that the snapshot lacks,
starts as Paddle's optimizers start it (Optimizer._add_accumulator: the Adam
beta-power accumulators hold beta1 and beta2, the moments zeros; the fluid
decays' @LR_DECAY_COUNTER@ holds begin - 1 = -1; compiler/train_state.c).
STEPS steps, batch 1, on random images and maps (seeded): the loss of each.

    python ppocr_train.py MODEL_DIR OUT_DIR STEPS LOSS

writes OUT_DIR/<feed>.npy (STEPS rows each) and OUT_DIR/loss.npy."""
import os
import pickle
import sys

import numpy as np

import paddle  # noqa: E402
from paddle.base import core  # noqa: E402

READER_OPS = ("create_py_reader", "create_double_buffer_reader", "read")
FEEDS = ("image", "shrink_map", "shrink_mask", "threshold_map", "threshold_mask")


def data(steps, rng):
    """Images and the maps a DB label gives (text regions shrunk and their
    border distances), random but shaped like them."""
    hw = (steps, 640, 640)
    return {"image": rng.standard_normal((steps, 3, 640, 640)).astype("float32"),
            "shrink_map": (rng.random(hw) > 0.8).astype("float32"),
            "shrink_mask": (rng.random(hw) > 0.1).astype("float32"),
            "threshold_map": rng.uniform(0.3, 0.7, hw).astype("float32"),
            "threshold_mask": (rng.random(hw) > 0.5).astype("float32")}


def main(model_dir, out_dir, steps, loss):
    paddle.enable_static()
    prog = paddle.static.Program.parse_from_string(open(os.path.join(model_dir, "best_accuracy.pdmodel"), "rb").read())
    block = prog.global_block()
    for i in reversed(range(len(block.ops))):
        op = block.ops[i]
        if op.type in READER_OPS:
            block._remove_op(i)
        elif op.type == "batch_norm" and "ReserveSpace" not in op.output_names:
            # Paddle 2.6's kernel allocates ReserveSpace, which 1.8's op maker did not have
            v = block.create_var(name=op.output("Y")[0] + ".reserve", dtype="float32")
            op.desc.set_output("ReserveSpace", [v.name])
        elif op.type.startswith("reduce_") and op.type.endswith("_grad") and op.attr("reduce_all"):
            # 1.8's scalars were [1]; 2.6's are 0-D, which its grad kernel refuses dim [0] on
            op._set_attr("dim", [])
    for op in block.ops:  # attributes 2.6 added (conv2d_transpose's output_padding), at their defaults
        try:
            defaults = core.get_op_attrs_default_value(op.type.removesuffix("_grad").encode())
        except Exception:
            continue
        for name, value in defaults.items():
            if not op.has_attr(name) and isinstance(value, bool):  # _set_attr would store an int
                op.desc._set_bool_attr(name, value)
            elif not op.has_attr(name):
                op._set_attr(name, value)
    with open(os.path.join(model_dir, "best_accuracy.pdparams"), "rb") as f:
        params = pickle.load(f, encoding="latin1")
    state = {}
    for op in block.ops:  # what Paddle's optimizers fill their accumulators with
        if op.type == "adam":
            state[op.input("Beta1Pow")[0]] = op.attr("beta1")
            state[op.input("Beta2Pow")[0]] = op.attr("beta2")
    state["@LR_DECAY_COUNTER@"] = -1
    scope = paddle.static.global_scope()
    place = paddle.CPUPlace()
    for v in prog.list_vars():
        if not v.persistable or v.type != paddle.base.core.VarDesc.VarType.LOD_TENSOR:
            continue
        dtype = paddle.base.data_feeder.convert_dtype(v.dtype)
        if v.name in params:
            arr = np.asarray(params[v.name], dtype)
        else:
            arr = np.full([max(d, 1) for d in v.shape], state.get(v.name, 0), dtype)
        scope.var(v.name).get_tensor().set(arr, place)
    os.makedirs(out_dir, exist_ok=True)
    feeds = data(steps, np.random.default_rng(2020))
    for name, arr in feeds.items():
        np.save(os.path.join(out_dir, f"{name}.npy"), arr)
    exe = paddle.static.Executor(place)
    losses = []
    for s in range(steps):
        out, = exe.run(prog, feed={k: v[s:s + 1] for k, v in feeds.items()}, fetch_list=[loss], scope=scope)
        losses.append(np.asarray(out).reshape(-1)[0])
        print("step", s, "loss", losses[-1], flush=True)
    np.save(os.path.join(out_dir, "loss.npy"), np.array(losses, "float32"))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4])

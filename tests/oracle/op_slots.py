#!/usr/bin/env python3
"""Programs for the declared-slots walk (tests/test_op_slots.py).

    python op_slots.py OUTDIR CASEDIR...

Reads every Paddle-made case under the CASEDIRs (each a directory holding
model.pdmodel + model.pdiparams: the op-level cases of tests/oracle/e2e_*.py
and the zoo programs), and for every op type found, every input slot that
Paddle's op maker declares (OpProto) and the first program holding the op
leaves unbound: OUTDIR/<op>__<slot>/model.pdmodel, that program with the
slot bound to a new feed `slot_probe` (see SMALL_INT for its dtype and
shape), and its parameters.  OUTDIR/manifest.json lists the probes and, per
op type, the slots bound in some numeric case (those under an e2e
directory)."""
import json
import os
import shutil
import sys

os.environ.setdefault("FLAGS_enable_pir_api", "0")
import paddle  # noqa: E402
from paddle.base.framework import OpProtoHolder  # noqa: E402

PROBE = "slot_probe"
# Slots that hold a few numbers (shapes, axes, bounds, counts; scales,
# momenta, values) get a probe of one int32 or float32 element, as a user's
# program would bind them; any other slot one with the op's first input's
# dtype and shape.
SMALL_INT = ("Shape", "Size", "Axis", "Axes", "Starts", "Ends", "Strides", "Shifts", "Repeat", "depth",
             "MaxLen", "Paddings", "Seed", "K", "Num", "Offset")
SMALL_FLOAT = ("Scale", "Momentum", "Value", "Min", "Max", "Factor", "Alpha", "Beta", "Threshold")


def bound_slots(op):
    return {s for s in op.input_names if any(n and n != "@EMPTY@" for n in op.input(s))}


def load(d):
    exe = paddle.static.Executor(paddle.CPUPlace())
    with paddle.static.scope_guard(paddle.static.Scope()):
        prog, _, _ = paddle.static.load_inference_model(os.path.join(d, "model"), exe)
    return prog


def probe(prog, op_index, slot, out_dir, src_dir):
    """Writes prog with input `slot` of its op_index-th op bound to a new feed."""
    prog = prog.clone()
    block = prog.global_block()
    op = block.ops[op_index]
    if any(k in slot for k in SMALL_INT):
        shape, dtype = [1], paddle.int32
    elif any(k in slot for k in SMALL_FLOAT):
        shape, dtype = [1], paddle.float32
    elif "Tensor" in slot:
        shape, dtype = [1], paddle.int32
    else:
        first = next((block.var(n) for s in op.input_names for n in op.input(s)
                      if n and n != "@EMPTY@" and block.has_var(n)), None)
        shape = list(first.shape) if first is not None else [2]
        dtype = first.dtype if first is not None else paddle.float32
    var = block.create_var(name=PROBE, shape=shape, dtype=dtype, persistable=False)
    var.desc.set_need_check_feed(True)
    cols = [o.attr("col") for o in block.ops if o.type == "feed"]
    block._prepend_op(type="feed", inputs={"X": [block.var("feed")]}, outputs={"Out": [var]},
                      attrs={"col": max(cols) + 1 if cols else 0})
    op.desc.set_input(slot, [PROBE])
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "model.pdmodel"), "wb") as f:
        f.write(prog.desc.serialize_to_string())
    params = os.path.join(src_dir, "model.pdiparams")
    if os.path.exists(params):
        shutil.copy(params, os.path.join(out_dir, "model.pdiparams"))


def main(argv):
    out, case_dirs = argv[1], argv[2:]
    paddle.enable_static()
    holder = OpProtoHolder.instance()
    first = {}     # op type -> (program, op index, case dir)
    # gradient cases fetch only gradients, so a forward op whose output no
    # grad op reads is dead code there (its probe would compile untouched):
    # they are bases only for op types no other case has
    first_grad = {}
    numeric = {}   # op type -> slots bound in some numeric (e2e) case
    for root in case_dirs:
        for name in sorted(os.listdir(root)):
            d = os.path.join(root, name)
            if not os.path.exists(os.path.join(d, "model.pdmodel")):
                continue
            try:
                prog = load(d)
            except Exception as e:  # a case Paddle itself cannot load back is not a base
                print("skipped", d, type(e).__name__, file=sys.stderr)
                continue
            for i, op in enumerate(prog.global_block().ops):
                if op.type in ("feed", "fetch"):
                    continue
                (first_grad if "/e2e/grad_" in d else first).setdefault(op.type, (prog, i, d))
                if "/e2e/" in d + "/":
                    numeric.setdefault(op.type, set()).update(bound_slots(op))
    for t, base in first_grad.items():
        first.setdefault(t, base)
    probes = []
    for t, (prog, i, d) in sorted(first.items()):
        try:
            proto = holder.get_op_proto(t)
        except ValueError:
            continue
        have = bound_slots(prog.global_block().ops[i])
        for inp in proto.inputs:
            if inp.name in have:
                continue
            pd = os.path.join(out, f"{t}__{inp.name}")
            probe(prog, i, inp.name, pd, d)
            probes.append({"op": t, "slot": inp.name, "dir": pd, "base": d})
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump({"probes": probes, "numeric": {k: sorted(v) for k, v in numeric.items()},
                   "ops": sorted(first)}, f, indent=1)
    print(len(first), "op types,", len(probes), "probes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Cases for the declared-attributes walk (tests/test_op_attrs.py).

    python op_attrs.py OUTDIR CASEDIR...

Reads the op-level cases under the CASEDIRs (tests/oracle/e2e_*.py: each a
directory with model.pdmodel, model.pdiparams, inputs, Paddle's outputs and
paddle.json), and for every op type found, in the first case holding it,
every attribute Paddle's op maker declares for it (OpProto, defaults and
extras; not the bookkeeping ones) that the op sets: OUTDIR/<op>__<attr>/, the
case with that attribute changed (a bool flipped, a number moved, the first
entry of a list moved, a layout or padding mode swapped) and Paddle's
outputs for it, run by Paddle's Executor on the case's inputs.  A change
Paddle rejects is no case.  OUTDIR/manifest.json lists the variants, each
with `changed`: whether Paddle's outputs differ from the unchanged case's."""
import json
import os
import shutil
import signal
import sys
import time

import numpy as np

os.environ.setdefault("FLAGS_enable_pir_api", "0")
import paddle  # noqa: E402
from paddle.base import core  # noqa: E402
from paddle.base.framework import OpProtoHolder  # noqa: E402

# Never changed: Paddle's bookkeeping, and the backend choices (see
# compiler/ops/op_ctx.c: they choose how Paddle computes, never what).
SKIP = {"op_role", "op_role_var", "op_namescope", "op_callstack", "op_device", "with_quant_attr", "use_mkldnn",
        "use_cudnn", "mkldnn_data_type", "use_quantizer", "exhaustive_search", "workspace_size_MB"}
SWAP = {"NCHW": "NHWC", "NHWC": "NCHW", "NCDHW": "NDHWC", "NDHWC": "NCDHW", "EXPLICIT": "SAME", "SAME": "VALID",
        "VALID": "EXPLICIT", "AnyLayout": "NHWC", "upscale_in_train": "downgrade_in_infer",
        "downgrade_in_infer": "upscale_in_train"}


def changed_value(v):
    """Another value of v's kind, or None."""
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return v + 1
    if isinstance(v, float):
        return v * 1.5 + 0.25
    if isinstance(v, str):
        return SWAP.get(v)
    if isinstance(v, list) and v and all(isinstance(x, bool) for x in v):
        return [not v[0]] + v[1:]
    if isinstance(v, list) and v and all(isinstance(x, int) for x in v):
        return [v[0] + 1] + v[1:]
    if isinstance(v, list) and v and all(isinstance(x, float) for x in v):
        return [v[0] * 1.5 + 0.25] + v[1:]
    return None


def run_case(d, feeds, lods=None):
    """Paddle on case d; lods ({feed: offsets}, e2e_lod's lod.json) makes
    those feeds LoDTensors."""
    exe = paddle.static.Executor(paddle.CPUPlace())
    with paddle.static.scope_guard(paddle.static.Scope()):
        prog, names, fetches = paddle.static.load_inference_model(os.path.join(d, "model"), exe)
        fed = {}
        for i, n in enumerate(names):
            fed[n] = feeds[i]
            if lods and n in lods:
                fed[n] = core.LoDTensor()
                fed[n].set(feeds[i], paddle.CPUPlace())
                fed[n].set_lod([lods[n]])
        return exe.run(prog, feed=fed, fetch_list=fetches, return_numpy=not lods)


def declared(t):
    try:
        proto = OpProtoHolder.instance().get_op_proto(t)
    except ValueError:
        return set()
    names = {a.name for a in proto.attrs} | set(core.get_op_extra_attrs(t))
    return names - SKIP


def child_ok(pid, limit=60.0):
    """Whether the forked Paddle run exited 0 within `limit` seconds.  A
    child can also hang rather than crash: Paddle's thread pool, forked from
    a parent that has run programs, may wait on a lock forever (seen on
    frobenius_norm with reduce_all flipped under its grad op); it is killed
    and counts as a rejected value."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status == 0
        time.sleep(0.02)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return False


def main(argv):
    out, roots = argv[1], argv[2:]
    paddle.enable_static()
    first = {}  # op type -> (case dir, op index)
    for root in roots:
        for name in sorted(os.listdir(root)):
            d = os.path.join(root, name)
            if os.path.exists(os.path.join(d, "paddle.json")):
                prog = paddle.static.Program.parse_from_string(open(os.path.join(d, "model.pdmodel"), "rb").read())
                for i, op in enumerate(prog.global_block().ops):
                    if op.type not in ("feed", "fetch"):
                        first.setdefault(op.type, (d, i))
    variants = []
    for t, (d, i) in sorted(first.items()):
        with open(os.path.join(d, "paddle.json")) as f:
            ref = json.load(f)
        feeds = [np.load(os.path.join(d, f"input_{k}.npy")) for k in range(len(ref["feeds"]))]
        wants = [np.load(os.path.join(d, f"output_{k}.npy")) for k in range(len(ref["fetches"]))]
        lods = None
        if os.path.exists(os.path.join(d, "lod.json")):
            with open(os.path.join(d, "lod.json")) as f:
                lods = json.load(f)
        base = open(os.path.join(d, "model.pdmodel"), "rb").read()
        for a in sorted(declared(t)):
            prog = paddle.static.Program.parse_from_string(base)
            op = prog.global_block().ops[i]
            if not op.has_attr(a) or op.desc.attr_type(a) in (core.AttrType.BLOCK, core.AttrType.BLOCKS,
                                                               core.AttrType.VAR, core.AttrType.VARS):
                continue
            v = changed_value(op.attr(a))
            if v is None:
                continue
            try:
                op._set_attr(a, v)
            except Exception:
                continue
            vd = os.path.join(out, f"{t}__{a}")
            shutil.rmtree(vd, ignore_errors=True)
            os.makedirs(vd)
            with open(os.path.join(vd, "model.pdmodel"), "wb") as f:
                f.write(prog.desc.serialize_to_string())
            if os.path.exists(os.path.join(d, "model.pdiparams")):
                shutil.copy(os.path.join(d, "model.pdiparams"), vd)
            # Paddle in a child, twice: some values crash it outright, and
            # some make its kernel read or write out of bounds (frobenius_norm
            # with reduce_all flipped under its grad op: "free(): invalid
            # size" in one run, other numbers in the next); a value whose two
            # runs differ is no case either
            runs = []
            for _ in range(2):
                pid = os.fork()
                if pid == 0:
                    try:
                        # random ops with seed 0 draw from the global generator:
                        # paddle.seed(0), which is the compiled model's default seed
                        paddle.seed(0)
                        for k, y in enumerate(run_case(vd, feeds, lods)):
                            np.save(os.path.join(vd, f"output_{k}.npy"), np.array(y))
                            if lods and y.lod():  # a fetch's LoD, as run_binary compares it
                                with open(os.path.join(vd, f"output_{k}.lod.json"), "w") as f:
                                    json.dump(y.lod(), f)
                        os._exit(0)
                    except BaseException:
                        os._exit(1)
                if not child_ok(pid):  # Paddle rejects the value (or hangs on it): no case
                    break
                runs.append([np.load(os.path.join(vd, f"output_{k}.npy")) for k in range(len(wants))])
            if len(runs) < 2 or any(a.shape != b.shape or not np.array_equal(a, b, equal_nan=True)
                                    for a, b in zip(*runs)):
                shutil.rmtree(vd)
                continue
            got = runs[1]
            for k, x in enumerate(feeds):
                np.save(os.path.join(vd, f"input_{k}.npy"), x)
            shutil.copy(os.path.join(d, "paddle.json"), vd)
            if lods:
                shutil.copy(os.path.join(d, "lod.json"), vd)
            changed = any(np.asarray(g).shape != w.shape or not np.array_equal(np.asarray(g), w, equal_nan=True)
                          for g, w in zip(got, wants))
            variants.append({"op": t, "attr": a, "dir": vd, "base": d, "changed": bool(changed)})
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump({"variants": variants, "ops": sorted(first)}, f, indent=1)
    print(len(first), "op types,", len(variants), "variants")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

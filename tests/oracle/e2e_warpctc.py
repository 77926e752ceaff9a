#!/usr/bin/env python3
"""Op-level end-to-end cases for `warpctc` (paddle.nn.functional.ctc_loss's
op) and `warpctc_grad`, forward and gradient against Paddle's Executor.

Padded form (Logits [Tmax, N, C], Label [N, Lmax] int32, LogitsLength and
LabelLength int64): blank 0, a middle blank, the last class as blank with
norm_by_times, float64, batches of 1, 4 and 6, labels that no alignment
fits (Loss 0, zero gradient), tight ones (L + repeats = T) and empty ones.
Each fetches Loss and Logits@GRAD through a fed upstream gradient dout_0.

LoD form (Logits [T, C] and Label [L, 1] over level-1 LoDs of their own):
Logits of the batch's rows with Label's fixed, and the other way round;
norm_by_times, a blank not 0, float64; Loss and the gradient of
0.7 * sum(Loss) (paddlec's element-wise grads do not take Loss's run-time
rows yet, so the per-sequence Loss@GRAD is the padded cases' to check).

    python e2e_warpctc.py OUTDIR [CASE ...]

Feeds: x (logits, standard normal), lab_b<K> (labels in [0, C) without
the blank K), tlen / llen (the lengths in LENGTHS[case]).  The LoD cases'
dirs hold lod.json as tests/oracle/e2e_lod.py's do."""
import os
import sys
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import (append_op, case_registry, grad_input, lod_reference, randomize_params,  # noqa: E402
                         save_grad_program, save_training_case)

import paddle  # noqa: E402

CASES, case = case_registry()
LENGTHS = {}  # case -> (tlen, llen) of the padded form
LODS = {}  # case -> {feed: offsets} of the LoD form
CLASSES = {}  # case -> its number of classes C
CURRENT = {}  # the case being built: "name"


def warpctc(x, lab, blank, norm=False, tlen=None, llen=None):
    inputs = {"Logits": [x], "Label": [lab]}
    if tlen is not None:
        inputs["LogitsLength"], inputs["LabelLength"] = [tlen], [llen]
    dt = "float64" if x.dtype == paddle.float64 else "float32"
    return append_op("warpctc", inputs, {"Loss": [dt], "WarpCTCGrad": [dt]},
                     {"blank": blank, "norm_by_times": norm})[0]


def padded_case(name, tmax, lmax, classes, blank, tlen, llen, norm=False, dtype="float32"):
    """A padded-form grad case: Logits [tmax, N, classes], N = len(tlen)."""
    def fn():
        n = len(tlen)  # fixed: paddlec's batch is a dim 0
        x = grad_input("x", [tmax, n, classes], dtype)
        lab = paddle.static.data(f"lab_b{blank}", [n, lmax], "int32")
        tl = paddle.static.data("tlen", [n], "int64")
        ll = paddle.static.data("llen", [n], "int64")
        loss = paddle.reshape(warpctc(x, lab, blank, norm, tl, ll), [n, 1])  # Paddle's Loss is [-1, 1]
        return ["x", lab.name, "tlen", "llen"], [loss], [x], n
    fn.__name__ = name
    LENGTHS[name] = (tlen, llen)
    CLASSES[name] = classes
    case(fn)


padded_case("pad_blank0", 6, 3, 5, 0, [6, 3, 5, 4], [3, 1, 2, 0])
padded_case("pad_blank_mid_norm", 7, 4, 6, 2, [7, 5, 2, 6, 4, 1], [4, 2, 1, 3, 0, 1], norm=True)
padded_case("pad_blank_last_f64", 5, 3, 4, 3, [5, 4, 5], [3, 3, 2], norm=True, dtype="float64")
padded_case("pad_batch1", 8, 5, 7, 1, [8], [5])
# T 2 for 3 labels, T 3 for 3 (fits only without repeats), 5 for 3 with repeats:
# some labels fit tightly, some not at all (Loss 0, zero gradient)
padded_case("pad_infeasible", 5, 3, 3, 0, [2, 3, 5, 3, 4], [3, 3, 3, 2, 3])


def lod_case(name, lods, classes, blank, rows, norm=False, dtype="float32"):
    """A LoD-form case: Logits [rows['x'] or the batch, classes] and Label
    [rows['lab'] or the batch, 1] over `lods`; Loss and the gradient of
    0.7 * sum(Loss)."""
    def fn():
        x = paddle.static.data("x", [rows.get("x"), classes], dtype, lod_level=1)
        x.stop_gradient = False
        lab = paddle.static.data(f"lab_b{blank}", [rows.get("lab"), 1], "int32", lod_level=1)
        loss = warpctc(x, lab, blank, norm)
        total = paddle.scale(paddle.sum(loss), 0.7)
        # the batch is the first feed's dim 0: Label's when Logits' rows are fixed
        return (["x", lab.name] if rows.get("x") is None else [lab.name, "x"]), [loss], total, x
    fn.__name__ = name
    LODS[name] = {"x": lods[0], f"lab_b{blank}": lods[1]}
    CLASSES[name] = classes
    case(fn)


# logits: 3, 1, 4, 2 and 5 steps; labels 2, 0, 3, 1, 6 (the last does not fit)
LOD_X = [0, 3, 4, 8, 10, 15]
LOD_L = [0, 2, 2, 5, 6, 12]
# logits 6, 2, 7; labels 3, 2, 1
LOD_X2 = [0, 6, 8, 15]
LOD_L2 = [0, 3, 5, 6]
lod_case("lod_blank0", (LOD_X, LOD_L), 5, 0, {"lab": 12})
lod_case("lod_blank_mid_norm", (LOD_X, LOD_L), 6, 4, {"lab": 12}, norm=True)
lod_case("lod_fixed_logits_f64", (LOD_X2, LOD_L2), 4, 1, {"x": 15}, norm=True, dtype="float64")


def make_input(v, rng):
    name = CURRENT["name"]
    if v.name in ("tlen", "llen"):
        return np.array(LENGTHS[name][0 if v.name == "tlen" else 1], "int64")
    if name in LODS:
        rows = LODS[name][v.name][-1] if v.name in LODS[name] else None
    else:
        rows = None
    shape = [rows if d < 0 else d for d in v.shape]
    if v.name.startswith("lab_b"):
        blank = int(v.name[5:])
        keep = [c for c in range(CLASSES[CURRENT["name"]]) if c != blank]
        return rng.choice(np.array(keep, "int32"), shape)
    return rng.standard_normal(shape).astype("float64" if v.dtype == paddle.float64 else "float32")


def build_padded_case(out_dir, name, fn):
    """oracle_case.build_grad_case with Loss's upstream gradient dout_0 of
    a fixed [N, 1] (paddlec takes a feed's unknown dim 0 for the batch, which
    here is Logits' Tmax); fetches Loss and Logits@GRAD."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        feeds, outs, wrt, n = fn()
        dout = paddle.static.data("dout_0", [n, 1], outs[0].dtype)
        grads = paddle.static.gradients(outs, wrt, target_gradients=[dout])
    save_training_case(out_dir, name, main, startup, feeds + ["dout_0"], list(outs) + grads, make_input)


def build_lod_case(out_dir, name, fn):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        feeds, outs, total, x = fn()
        grads = paddle.static.gradients([total], [x])
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    block = main.global_block()
    inputs = [make_input(block.var(f), rng) for f in feeds]
    exe = paddle.static.Executor(paddle.CPUPlace())
    case_dir = os.path.join(out_dir, name)
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        randomize_params(main, scope, rng)
        save_grad_program(case_dir, main, feeds, list(outs) + list(grads), exe)
    lod_reference(case_dir, inputs, LODS[name])


def main(argv):
    paddle.enable_static()
    paddle.seed(1)
    for name in argv[2:] or list(CASES):
        fn = CASES[name]
        CURRENT["name"] = name
        if name in LODS:
            build_lod_case(argv[1], name, fn)
        else:
            build_padded_case(argv[1], name, fn)


if __name__ == "__main__":
    main(sys.argv)

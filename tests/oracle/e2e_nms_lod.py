#!/usr/bin/env python3
"""Op-level end-to-end cases for `multiclass_nms` (Out) and
`multiclass_nms2` (Out, Index) on Scores [N, C, M] and BBoxes [N, M, 4]:
multiclass_nms3's NMS with Out and Index carrying a level-1 LoD of the
images' offsets, made as the program runs (each case compares the fetches'
LoDs with Paddle's).  Batch 3 (images keep different counts),
background_label -1, 0 and 2, nms_top_k, keep_top_k, nms_eta < 1,
normalized false, scores with ties, and nothing kept at all (multiclass_nms2:
Out [0, 6], Index [0, 1], the LoD all zeros).  Each case is built twice:
NAME in float32 and NAME_f64 in float64.  (multiclass_nms keeping nothing
writes Out [1, 1] = {-1} with the LoD {0, 1}: paddlec's kernel stops the
run there instead, so no case keeps nothing with it.)

    python e2e_nms_lod.py OUTDIR [CASE ...]

Feeds named `boxes*` hold valid (xmin, ymin, xmax, ymax) boxes in pixels,
`nboxes*` the same in [0, 1], `scores*` scores in [0, 1), `qscores*` scores
in eighths (many equal: the stable orderings of NMS), `sparse` scores in
[0, 1) but 0 for all of image 1 (which keeps nothing)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op, build_static_case, case_registry, lod_reference  # noqa: E402

import paddle  # noqa: E402

BATCH = 3
CASES, _ = case_registry()


def both(build):
    """Registers build(dt) as the cases NAME (dt float32) and NAME_f64."""
    CASES[build.__name__] = lambda: build("float32")
    CASES[build.__name__ + "_f64"] = lambda: build("float64")
    return build


def make_input(var, rng):
    dt = str(var.dtype).split(".")[-1]
    shape = [BATCH] + list(var.shape[1:])
    name = var.name
    if name.startswith("boxes") or name.startswith("nboxes"):
        scale = 1.0 if name.startswith("nboxes") else 40.0
        xy = rng.uniform(0, 0.6, shape[:-1] + [2])
        wh = rng.uniform(0.05, 0.4, shape[:-1] + [2])
        return (np.concatenate([xy, xy + wh], -1) * scale).astype(dt)
    if name.startswith("qscores"):
        return (rng.integers(0, 8, shape) / 8.0).astype(dt)
    if name.startswith("scores"):
        return rng.uniform(0, 1, shape).astype(dt)
    if name.startswith("sparse"):  # image 1 scores 0 everywhere: it keeps nothing
        s = rng.uniform(0, 1, shape)
        s[1] = 0
        return s.astype(dt)
    raise ValueError(name)


def nms(version, boxes, scores, dt, **attrs):
    """One multiclass_nms (version 1: Out) or multiclass_nms2 (Out, Index)."""
    base = dict(score_threshold=0.3, nms_top_k=-1, keep_top_k=-1, nms_threshold=0.3, normalized=True, nms_eta=1.0,
                background_label=0)
    base.update(attrs)
    outs = {"Out": [dt]}
    if version == 2:
        outs["Index"] = ["int32"]
    return append_op("multiclass_nms" if version == 1 else "multiclass_nms2",
                     {"BBoxes": [boxes], "Scores": [scores]}, outs, base)


def feeds(dt, m=24, classes=3):
    b = paddle.static.data("boxes", [None, m, 4], dt)
    s = paddle.static.data("scores", [None, classes, m], dt)
    nb = paddle.static.data("nboxes", [None, m, 4], dt)
    q = paddle.static.data("qscores", [None, classes + 1, m], dt)
    sp = paddle.static.data("sparse", [None, classes, m], dt)
    return b, s, nb, q, sp


def variants(version, dt):
    b, s, nb, q, sp = feeds(dt)
    outs = nms(version, b, s, dt, normalized=False, nms_threshold=0.5, nms_top_k=20, keep_top_k=10)
    outs += nms(version, nb, s, dt, background_label=-1, nms_threshold=0.2, nms_eta=0.7)  # adaptive threshold
    outs += nms(version, nb, s, dt, background_label=2, nms_top_k=5, score_threshold=0.1)
    outs += nms(version, b, q, dt, normalized=False, score_threshold=0.2, keep_top_k=7)    # ties across classes
    outs += nms(version, nb, q, dt, background_label=-1, nms_threshold=0.6, nms_top_k=9, keep_top_k=30)
    outs += nms(version, nb, s, dt, score_threshold=0.9, nms_threshold=0.5)                # few kept
    outs += nms(version, b, sp, dt, background_label=-1, normalized=False, keep_top_k=12)   # image 1 keeps none
    return [b, s, nb, q, sp], outs


@both
def multiclass_nms(dt):
    """multiclass_nms: Out with the images' offsets as its LoD."""
    return variants(1, dt)


@both
def multiclass_nms2(dt):
    """multiclass_nms2: Out and Index (image * M + box), the same LoD."""
    return variants(2, dt)


@both
def multiclass_nms2_none_kept(dt):
    """Nothing passes the threshold: Out [0, 6], Index [0, 1], LoD all zeros."""
    b = paddle.static.data("boxes", [None, 6, 4], dt)
    s = paddle.static.data("scores", [None, 2, 6], dt)
    return [b, s], nms(2, b, s, dt, score_threshold=1.5)


def main(argv):
    paddle.enable_static()
    paddle.seed(1)
    for name in [n for n in argv[2:] if n in CASES] or (list(CASES) if len(argv) == 2 else []):
        out_dir, inputs = build_static_case(argv[1], name, CASES[name], make_input, run_reference=False)
        lod_reference(out_dir, inputs, [])


if __name__ == "__main__":
    main(sys.argv)

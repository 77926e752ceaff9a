"""Feeds whose dims the run gives (issue 19 item 1): an image model exported
with InputSpec([None, 3, None, None]) compiles with a --max-shape bound on
the feed and one binary runs images of any size within it, matching
Paddle's Executor on the saved files at each size (tests/oracle/
run_dims_models.py: convolutions with bias, batch_norm and activations
folded in, Winograd and depthwise ones, residual adds, max / average /
adaptive pooling, a fetched feature map whose height and width are the
run's; resizes by a scale and to another tensor's size read with shape /
slice / cast, the skip connection's concat, softmax, argmax, transpose;
patches flattened into tokens through layer_norm and an MLP; transposed
convolutions; a text encoder over ids of the run's length: embeddings,
positions from arange(shape(ids)[1]), a padding mask from ids != 0,
multi-head attention fused and as Paddle wrote it (matmul_v2 of the
queries and the keys, both of the run's length, the mask added to the
scores, softmax over the keys), layer_norm, the first token and the mean;
a BERT-style encoder fed ids, segment ids and a mask of one length; a
decoder whose causal mask is tril(ones([L, L])) of the run's length; LSTM
and GRU layers stepping through the run's time steps; attention written by
hand, reshaped to sizes read with paddle.shape).
Sizes past the bound, or too small for the program, stop the run
with a clear error; what paddlec cannot take yet is refused naming it."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import BUILD, ROOT, generated, inspect_json, run
from test_bad_catalogue import ir
from test_bad_input import bad
from test_binary import cc
from test_e2e import TOL, build

SCRIPT = os.path.join(ROOT, "tests", "oracle", "run_dims_models.py")


def models():
    out = os.path.join(BUILD, "run_dims")
    return generated(out, [sys.executable, SCRIPT, out], [SCRIPT])


def flags(d):
    with open(os.path.join(d, "flags.json")) as f:
        return json.load(f)


def run_image(binary, path, out, more=()):
    """Runs the binary on input x at path (and the feeds `more` names, at
    input_<k>_<feed>.npy beside it)."""
    args = [f"x={path}"] + [f"{f}={path[:-4]}_{f}.npy" for f in more]
    return subprocess.run([str(binary), *sum((["--input", a] for a in args), []), "--output-dir", str(out)],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("name", ["cnn", "resnetish", "seghead", "unetish", "unet", "tokens", "decoder", "text",
                                  "text_unfused", "bert", "bert_unfused", "gpt", "gpt_unfused",
                                  "rnn", "qkv", "visionops", "same", "moreops", "morevision",
                                  "gathers", "yoloehead", "qkv_einsum", "stn", "yolov3head", "tokenmaps",
                                  "mobilenetv3", "squeezenet", "flatfc", "unet_sized", "topk_hw", "text_cuts",
                                  "text_select", "text_resize", "resize_nhwc", "swin",
                                  "vit_sized", "convnext_detr", "text_lenreg", "segnet_bits", "video3d",
                                  "text_diag", "shape_arith"])
def test_one_binary_matches_paddle_at_every_size(tmp_path, name):
    d = os.path.join(models(), name)
    binary = build(d, tmp_path, *flags(d))
    with open(os.path.join(d, "sizes.json")) as f:
        info = json.load(f)
    matches_paddle(binary, d, info, [(str(k), size) for k, size in enumerate(info["sizes"])], tmp_path)


def matches_paddle(binary, d, info, runs, tmp_path):
    """Runs the binary on input_<k> for each (k, size) of runs and compares
    every fetch with Paddle's ref_<k>_<j>."""
    for k, size in runs:
        out = tmp_path / f"o{k}"
        p = run_image(binary, os.path.join(d, f"input_{k}.npy"), out, info["feeds"][1:])
        assert p.returncode == 0, (size, p.stderr[-2000:])
        for j, fetch in enumerate(info["fetches"]):
            want = np.load(os.path.join(d, f"ref_{k}_{j}.npy"))
            got = np.load(out / (fetch.replace("/", "_") + ".npy"))
            assert got.shape == want.shape, (size, fetch, got.shape, want.shape)
            if want.size:  # an empty fetch (a diagonal below a one-step sequence) has only its shape
                err = np.abs(got.astype(np.float64) - want).max() / max(np.abs(want).max(), 1e-6)
                assert err <= TOL, (size, fetch, err)


def unbounded(d):
    """The model's compile flags without its --max-shape bounds."""
    f, out = flags(d), []
    for i, a in enumerate(f):
        if a != "--max-shape" and (i == 0 or f[i - 1] != "--max-shape"):
            out.append(a)
    return out


@pytest.mark.parametrize("name", ["cnn", "resnetish", "seghead", "unet", "visionops", "bert", "gpt", "rnn", "qkv",
                                  "same", "moreops", "morevision", "gathers", "yoloehead", "qkv_einsum", "stn",
                                  "yolov3head", "tokenmaps", "mobilenetv3", "squeezenet", "flatfc", "unet_sized",
                                  "topk_hw", "text_cuts", "text_select", "text_resize", "resize_nhwc", "swin",
                                  "vit_sized", "convnext_detr", "segnet_bits", "video3d", "text_diag",
                                  "shape_arith"])
def test_built_without_a_bound_matches_paddle_in_every_size_class(tmp_path, name):
    """The same programs built with no --max-shape (issue 19 item 1): planned
    for size classes (bounds 32, 64, 128, ...), one binary runs sizes of
    several classes (images up to 200 high, sequences of 300 steps; the
    text encoders' positions stop at 32) and matches Paddle at each.  The
    kernels' code is the same in every class (the compiler checks it); the
    tables of the banner's classes differ."""
    d = os.path.join(models(), name)
    p = run(["compile", os.path.join(d, "model.pdmodel"), "-o", str(tmp_path / "src"), *unbounded(d)])
    assert p.returncode == 0, p.stderr
    source = (tmp_path / "src" / "model.c").read_text()
    assert "Memory: size classes: the dims the run gives up to 32, 64, 128, 256, 512" in source
    assert "static const int64_t class_offsets[NUM_CLASS_PIECES]" in source
    binary = build(d, tmp_path, *unbounded(d))
    with open(os.path.join(d, "sizes.json")) as f:
        info = json.load(f)
    matches_paddle(binary, d, info, [(f"u{k}", size) for k, size in enumerate(info["unbounded"])], tmp_path)


def test_a_length_regulator_needs_a_bound_on_its_output(tmp_path):
    """run_dims_models.py's text_lenreg repeats each token by a duration
    the program computes: without the --max-shape bound on the repeated
    states (their count is the durations' sum), the build is refused
    naming the op and the option."""
    d = os.path.join(models(), "text_lenreg")
    bad(["compile", os.path.join(d, "model.pdmodel"), "-o", str(tmp_path / "o"), "--max-shape", "x=2,16"],
        "(repeat_interleave -> repeat_interleave_0.tmp_0): dim 0 of X (", "is only known at run time, and "
        "RepeatsTensor's sum along it is the run's: bound Out ('repeat_interleave_0.tmp_0') with --max-shape to "
        "compile it")


def test_a_unet_on_odd_sizes_stops_where_paddle_does(tmp_path):
    """run_dims_models.py's unet concatenates its skip connection (H x W)
    with the transposed convolution's map (2 ceil(H / 2) x 2 ceil(W / 2)):
    two run-time extents of different producers, one only when H and W are
    even.  Paddle's concat raises an error on an odd size (seen: "The 2-th
    dimension of input[0] and input[1] is expected to be equal"); the run
    stops there naming both tensors, and even sizes go on (the test
    above)."""
    d = os.path.join(models(), "unet")
    binary = build(d, tmp_path, *flags(d))
    for i, shape in enumerate([(1, 3, 7, 8), (1, 3, 8, 5)]):
        np.save(tmp_path / f"x{i}.npy", np.ones(shape, np.float32))
        r = run_image(binary, str(tmp_path / f"x{i}.npy"), tmp_path / f"o{i}")
        assert r.returncode != 0 and "have different sizes along dim 2" in r.stderr, r.stderr
        assert "(Paddle raises an error)" in r.stderr, r.stderr
        assert not (tmp_path / f"o{i}").exists()


def test_a_map_of_another_size_than_its_linear_s_stops_where_paddle_does(tmp_path):
    """run_dims_models.py's flatfc flattens an 8-channel map into a Linear
    made for 4 x 4 (the sizes above); a 12 x 16 image pools to 3 x 4, 96
    values a row where the Linear takes 128: Paddle's matmul raises (seen:
    "Y'dims[0] must be equal to 96, but received Y'dims[0] is 128"); the run
    stops naming the contraction, built with a bound or without."""
    d = os.path.join(models(), "flatfc")
    np.save(tmp_path / "x.npy", np.ones((1, 3, 12, 16), np.float32))
    for k, f in enumerate([flags(d), unbounded(d)]):
        (tmp_path / f"b{k}").mkdir()
        binary = build(d, tmp_path / f"b{k}", *f)
        r = run_image(binary, str(tmp_path / "x.npy"), tmp_path / f"o{k}")
        assert r.returncode != 0 and "X's contracted dim (K) is not Y's" in r.stderr, r.stderr
        assert not (tmp_path / f"o{k}").exists()


def test_topk_past_the_run_s_axis_stops_where_paddle_does(tmp_path):
    """run_dims_models.py's topk_hw takes the 3 largest of h * w positions:
    a 1 x 2 image has 2 (Paddle raises: "The rank (3) of the input 'k' for
    topk op must be less than or equal to 2"); the run stops naming the
    dim."""
    d = os.path.join(models(), "topk_hw")
    binary = build(d, tmp_path, *unbounded(d))
    np.save(tmp_path / "x.npy", np.ones((1, 3, 1, 2), np.float32))
    r = run_image(binary, str(tmp_path / "x.npy"), tmp_path / "o")
    assert r.returncode != 0 and "is below k (Paddle raises)" in r.stderr, r.stderr
    assert not (tmp_path / "o").exists()


def test_a_cut_past_a_sequence_of_the_run_s_length_stops_where_paddle_does(tmp_path):
    """run_dims_models.py's text_cuts takes the third token, x[:, 2]: a
    sequence of 2 has none (Paddle's slice raises, seen); the run stops
    naming the slice."""
    d = os.path.join(models(), "text_cuts")
    binary = build(d, tmp_path, *unbounded(d))
    np.save(tmp_path / "x.npy", np.ones((1, 2), np.int64))
    r = run_image(binary, str(tmp_path / "x.npy"), tmp_path / "o")
    assert r.returncode != 0 and "against an axis of the run's size too short for them" in r.stderr, r.stderr
    assert not (tmp_path / "o").exists()


BLAZEFACE = os.path.join(ROOT, "tests", "oracle", "blazeface_sizes.py")


def near_ties_in_one_order(want, got):
    """NMS rows [label, score, box] of Paddle's (want) and ours (got), each
    run of rows of one label whose scores in want differ by float rounding
    only (1e-6 of their scale) put in the order of their boxes on both
    sides: which of two such boxes comes first depends on the last bit of a
    sum (seen: 0.048332796 and 0.048332784 in Paddle, 0.048332807 and
    0.048332796 in a clang -O3 build of the emitted code), not on the
    model.  Every value is still held to TOL."""
    want, got = want.copy(), got.copy()
    scale = max(np.abs(want[:, 1]).max(initial=0.0), 1e-6)
    i = 0
    while i < len(want):
        j = i + 1
        while j < len(want) and want[j, 0] == want[i, 0] and abs(want[j, 1] - want[j - 1, 1]) <= 1e-6 * scale:
            j += 1
        for rows in (want, got):
            rows[i:j] = rows[i:j][np.lexsort(rows[i:j, 2:].T[::-1])]
        i = j
    return want, got


def test_blazeface_built_without_a_bound_matches_paddle_at_every_image_size(tmp_path):
    """blazeface_det (../shared/models, its own weights; issue 19 item 3)
    built with no bound on its image: prior_box over feature maps of the
    run's sizes, the priors' concat and the box decoding over their run
    count, multiclass_nms3 over that many boxes per image.  One binary runs
    images of 128x128, 96x160 (two of them), 224x64 and 40x40 and keeps the
    boxes Paddle keeps, in its order (207, 211 + 210, 207, 25 of them)."""
    refs = generated(os.path.join(BUILD, "blazeface_sizes"), [sys.executable, BLAZEFACE,
                                                              os.path.join(BUILD, "blazeface_sizes")], [BLAZEFACE])
    with open(os.path.join(refs, "sizes.json")) as f:
        info = json.load(f)
    model = os.path.join(ROOT, "..", "shared", "models", "blazeface_det", "model.pdmodel")
    binary = tmp_path / "bin"
    p = run(["build", model, "-o", str(binary)])
    assert p.returncode == 0, p.stderr[-3000:]
    for k, size in enumerate(info["sizes"]):
        args = sum((["--input", f"{f}={refs}/input_{k}_{f}.npy"] for f in info["feeds"]), [])
        q = subprocess.run([str(binary), *args, "--output-dir", str(tmp_path / f"o{k}")], capture_output=True,
                           text=True, timeout=300)
        assert q.returncode == 0, (size, q.stderr[-2000:])
        for j, fetch in enumerate(info["fetches"]):
            want = np.load(os.path.join(refs, f"ref_{k}_{j}.npy"))
            got = np.load(tmp_path / f"o{k}" / (fetch + ".npy"))
            assert got.shape == want.shape and got.dtype == want.dtype, (size, fetch, got.shape, want.shape)
            if want.ndim == 2 and want.shape[1] == 6:  # the kept boxes
                want, got = near_ties_in_one_order(want, got)
            err = np.abs(got.astype(np.float64) - want).max() / max(np.abs(want).max(), 1e-6)
            assert err <= TOL, (size, fetch, err)


TWO_STAGE = os.path.join(ROOT, "tests", "oracle", "two_stage.py")


def run_two_stage(binary, refs, info, k, out):
    """Runs the two-stage detector's binary on size k's inputs and compares
    every fetch with Paddle's: the proposals, their counts, the kept rows
    (label, score, box), their Index and counts per image."""
    args = sum((["--input", f"{f}={refs}/input_{k}_{f}.npy"] for f in info["feeds"]), [])
    q = subprocess.run([str(binary), *args, "--output-dir", str(out)], capture_output=True, text=True, timeout=300)
    assert q.returncode == 0, (info["sizes"][k], q.stderr[-2000:])
    for j, fetch in enumerate(info["fetches"]):
        want = np.load(os.path.join(refs, f"ref_{k}_{j}.npy"))
        got = np.load(out / (fetch.replace("/", "_") + ".npy"))
        assert got.shape == want.shape and got.dtype == want.dtype, (info["sizes"][k], fetch, got.shape, want.shape)
        err = np.abs(got.astype(np.float64) - want).max() / max(np.abs(want).max(), 1e-6)
        assert err <= TOL, (info["sizes"][k], fetch, err)


def test_a_two_stage_detector_matches_paddle_at_every_image_size(tmp_path):
    """A Faster R-CNN-style detector with an FPN exported as PaddleDetection
    exports it (tests/oracle/two_stage.py; issue 19 items 1 and 3), built
    with no bound: anchors from aranges of offset * stride to w * stride by
    the stride over each level's run sizes, generate_proposals_v2 on each
    level, collect_fpn_proposals and distribute_fpn_proposals, roi_align of
    each level's RoIs on its map gathered back by the restore index (an
    Index the run counts), and multiclass_nms3 over the RoIs with RoisNum
    (Scores [R, C], a box per class: Paddle's two-stage form, its kept
    boxes in ascending order per class, Index = RoI * classes + label).
    One binary runs 64x64, 40x70, two of 90x33 and 150x40 (16, 16, 13 + 11
    and 16 boxes kept, the 16s cut by keep_top_k) and matches Paddle's
    every fetch; so does the program built for one fixed size (--shape)."""
    refs = generated(os.path.join(BUILD, "two_stage"), [sys.executable, TWO_STAGE, os.path.join(BUILD, "two_stage")],
                     [TWO_STAGE])
    with open(os.path.join(refs, "sizes.json")) as f:
        info = json.load(f)
    binary = tmp_path / "bin"
    p = run(["build", os.path.join(refs, "model.pdmodel"), "-o", str(binary)])
    assert p.returncode == 0, p.stderr[-3000:]
    for k in range(len(info["sizes"])):
        run_two_stage(binary, refs, info, k, tmp_path / f"o{k}")
    fixed = tmp_path / "fixed"
    n, h, w = info["sizes"][1]
    p = run(["build", os.path.join(refs, "model.pdmodel"), "-o", str(fixed), "--shape", f"x={n},3,{h},{w}",
             "--shape", f"im_shape={n},2"])
    assert p.returncode == 0, p.stderr[-3000:]
    run_two_stage(fixed, refs, info, 1, tmp_path / "f1")


def test_inspect_agrees_with_paddle_on_a_spatial_transformer():
    """affine_grid with an OutputShape tensor: Paddle declares its Grid
    5-D whatever the tensor's length, and grid_sampler's Output 5-D beside
    a 4-D X; inspect's shapes follow (the rule of grid_sampler once refused
    the ranks there)."""
    j = inspect_json(os.path.join(models(), "stn", "model.pdmodel"))
    assert j["shape_mismatches"] == [] and j["no_shape_rule"] == []
    assert not j["cannot_compile"]


def test_reshape_to_a_product_of_other_sizes_is_checked_or_refused(tmp_path):
    """x.reshape([b, c, h * h]) of an image [b, c, h, w]: the product of
    the run's sizes it names is not the one its -1 would take (h * w): a
    size the compiler bounds (h * h at most 16 * 16), which the run checks
    holds X's elements: square images reshape as numpy does (expected by
    hand: a reshape keeps the elements' order) and others stop the run,
    as Paddle raises an error whenever h != w; x.reshape([b, h * w]),
    which leaves the channels out, is refused; the program with
    [b, c, h * w] compiles."""
    def program(second):
        return ("var x: float32[-1, 4, -1, -1]\nvar s: int32[4]\nvar h: int32[1]\nvar w: int32[1]\n"
                "var b: int32[1]\nvar c: int32[1]\nvar hw: int32[1]\nvar y: float32[-1, 4, -1]\n"
                "var ys: float32[0, -1, 4, -1, -1]\n"
                "op feed(X: feed) -> (Out: x) {col: 0}\nop shape(Input: x) -> (Out: s)\n"
                + "".join(f"op slice(Input: s) -> (Out: {v}) {{axes: ints[0], starts: ints[{i}], ends: ints[{i + 1}], "
                          "decrease_axis: ints[], infer_flags: ints[1]}\n" for i, v in enumerate("bchw"))
                + f"op elementwise_mul(X: h, Y: {second}) -> (Out: hw) {{axis: -1}}\n"
                "op reshape2(ShapeTensor: [b, c, hw], X: x) -> (Out: y, XShape: ys) "
                "{shape: ints[-1, -1, -1]}\nop fetch(X: y) -> (Out: fetch) {col: 0}\n")
    ok = run(["compile", ir(tmp_path, program("w")), "-o", str(tmp_path / "ok"), "--max-shape", "x=2,4,16,16"])
    assert ok.returncode == 0, ok.stderr
    binary = tmp_path / "hh"
    p = run(["build", ir(tmp_path, program("h")), "-o", str(binary), "--max-shape", "x=2,4,16,16"])
    assert p.returncode == 0, p.stderr
    rng = np.random.default_rng(6)
    for i, shape in enumerate([(2, 4, 5, 5), (1, 4, 3, 7)]):
        x = rng.standard_normal(shape).astype(np.float32)
        np.save(tmp_path / f"hh{i}.npy", x)
        r = run_image(binary, str(tmp_path / f"hh{i}.npy"), tmp_path / f"hh{i}")
        if shape[2] == shape[3]:
            assert r.returncode == 0, r.stderr
            assert np.array_equal(np.load(tmp_path / f"hh{i}" / "y.npy"), x.reshape(shape[0], 4, -1))
        else:
            assert r.returncode != 0 and "reshape2: a target shape that does not hold X's elements" in r.stderr, \
                r.stderr
    # [b, c, h * w] read as [b, h * w] (the channels left out): the product's constant is checked
    body = program("w").replace("ShapeTensor: [b, c, hw]", "ShapeTensor: [b, hw]").replace(
        "{shape: ints[-1, -1, -1]}", "{shape: ints[-1, -1]}").replace("var y: float32[-1, 4, -1]", "var y: float32[-1, -1]")
    bad(["compile", ir(tmp_path, body), "-o", str(tmp_path / "o2"), "--max-shape", "x=2,4,16,16"],
        "(reshape2 -> y): target shape entry 1 is a product of X's sizes the run gives that does not hold the "
        "elements the other entries leave (256 of 1024 at the bound)")


def tokens_back_ir(entries, shape, y="float32[-1, -1, -1]", source="t"):
    """x [b, 4, h, w] as tokens t = x.reshape([0, 4, -1]) (and xt, x
    transposed to [b, h, w, 4]), then source reshaped to the ShapeTensor
    entries (b, c, h, w read from x's shape; ht, wt from xt's; m1 a -1)."""
    return ("var x: float32[-1, 4, -1, -1]\nvar s: int32[4]\nvar st: int32[4]\nvar m1: int32[1]\n"
            + "".join(f"var {v}: int32[1]\n" for v in ("b", "c", "h", "w", "ht", "wt"))
            + "var t: float32[-1, 4, -1]\nvar ts: float32[0, -1, 4, -1, -1]\nvar xt: float32[-1, -1, -1, 4]\n"
            f"var xts: float32[0, -1, 4, -1, -1]\nvar y: {y}\nvar ys: float32[0, -1, 4, -1]\n"
            "op feed(X: feed) -> (Out: x) {col: 0}\nop shape(Input: x) -> (Out: s)\n"
            + "".join(f"op slice(Input: s) -> (Out: {v}) {{axes: ints[0], starts: ints[{i}], ends: ints[{i + 1}], "
                      "decrease_axis: ints[], infer_flags: ints[1]}\n" for i, v in enumerate("bchw"))
            + "op reshape2(X: x) -> (Out: t, XShape: ts) {shape: ints[0, 4, -1]}\n"
            "op transpose2(X: x) -> (Out: xt, XShape: xts) {axis: ints[0, 2, 3, 1]}\nop shape(Input: xt) -> (Out: st)\n"
            + "".join(f"op slice(Input: st) -> (Out: {v}) {{axes: ints[0], starts: ints[{i}], ends: ints[{i + 1}], "
                      "decrease_axis: ints[], infer_flags: ints[1]}\n" for i, v in ((1, "ht"), (2, "wt")))
            + "op fill_constant() -> (Out: m1) {shape: ints[1], dtype: 2, value: -1.0}\n"
            f"op reshape2(ShapeTensor: [{entries}], X: {source}) -> (Out: y, XShape: ys) {{shape: ints[{shape}]}}\n"
            "op fetch(X: y) -> (Out: fetch) {col: 0}\n")


def bounded_and_not_match(tmp_path, tag, body, shapes, want, rng):
    """Builds program `body` (feed x [b, 4, h, w]) with --max-shape x=2,4,8,8
    and without a bound, and runs both on random x of each shape: y must
    be want(x) exactly (a reshape moves no value)."""
    for opts in (["--max-shape", "x=2,4,8,8"], []):
        binary = tmp_path / f"bin_{tag}{len(opts)}"
        p = run(["build", ir(tmp_path, body), "-o", str(binary), *opts])
        assert p.returncode == 0, p.stderr
        for i, shape in enumerate(shapes):
            x = rng.standard_normal(shape).astype(np.float32)
            np.save(tmp_path / f"{tag}{i}.npy", x)
            r = run_image(binary, str(tmp_path / f"{tag}{i}.npy"), tmp_path / f"{tag}{len(opts)}{i}")
            assert r.returncode == 0, r.stderr
            assert np.array_equal(np.load(tmp_path / f"{tag}{len(opts)}{i}" / "y.npy"), want(x)), shape


def test_reshape_to_sizes_read_from_other_shapes(tmp_path):
    """Tokens made back into a map by sizes read with `shape` (issue 19:
    t.reshape([b, c, w, h]) of t = x.reshape([0, 4, -1]), h and w x's, not
    t's): Out takes the sizes read, and the run checks they hold t's
    elements; without a bound too (the checks read no bound).  Expected by
    hand: numpy's reshape of x (a reshape keeps the elements' order).
    t.reshape([b, w, -1]) keeps its -1's value at the bound (4 * 8): it
    matches where that is the run's and stops the run elsewhere, naming
    the op, rather than give Paddle's [b, w, 4 * h] (a limitation: the
    compiler cannot tell that -1 takes the height); xt.reshape([b, wt, -1])
    of xt = x transposed to [b, h, w, 4], wt its own width read at another
    index, gives Paddle's [b, w, h * 4]: its -1 takes the run's height (the
    one run-time dim of xt no entry names), with a bound and without;
    xt.reshape([b, wt, c]), where nothing takes the height, is refused."""
    rng = np.random.default_rng(5)
    body = tokens_back_ir("b, c, w, h", "-1, -1, -1, -1", y="float32[-1, -1, -1, -1]")
    bounded_and_not_match(tmp_path, "x", body, [(2, 4, 8, 8), (1, 4, 3, 7), (2, 4, 6, 1)],
                          lambda x: x.reshape(x.shape[0], 4, x.shape[3], x.shape[2]), rng)
    binary = tmp_path / "bin_w"
    p = run(["build", ir(tmp_path, tokens_back_ir("b, w, m1", "-1, -1, -1")), "-o", str(binary),
             "--max-shape", "x=2,4,8,8"])
    assert p.returncode == 0, p.stderr
    for i, shape in enumerate([(2, 4, 8, 5), (1, 4, 5, 8)]):
        x = rng.standard_normal(shape).astype(np.float32)
        np.save(tmp_path / f"w{i}.npy", x)
        r = run_image(binary, str(tmp_path / f"w{i}.npy"), tmp_path / f"w{i}")
        if shape[2] == 8:
            assert r.returncode == 0, r.stderr
            assert np.array_equal(np.load(tmp_path / f"w{i}" / "y.npy"), x.reshape(shape[0], shape[3], -1))
        else:
            assert r.returncode != 0 and "reshape2: a target shape that does not hold X's elements in the sizes its " \
                "entries read from tensors' shapes" in r.stderr, r.stderr
    bounded_and_not_match(tmp_path, "t", tokens_back_ir("b, wt, m1", "-1, -1, -1", source="xt"),
                          [(2, 4, 8, 5), (1, 4, 3, 8), (2, 4, 1, 1)],
                          lambda x: x.transpose(0, 2, 3, 1).reshape(x.shape[0], x.shape[3], -1), rng)
    bad(["compile", ir(tmp_path, tokens_back_ir("b, wt, c", "-1, -1, 4", source="xt")), "-o", str(tmp_path / "o"),
         "--max-shape", "x=2,4,8,8"],
        "(reshape2 -> y): X ('xt') has dims only the run knows that the target shape's entries read from tensors' "
        "shapes do not name, and no -1 to take them")


def test_a_fill_over_the_batch_times_the_run_sizes_is_refused(tmp_path):
    """paddle.full([h * w, 1]) over an image's sizes compiles (the
    PP-YOLOE-style head above); paddle.full([n * h * w, 1]) with n the
    batch read by `shape` is refused naming the entry, rather than built
    with the batch of one of the compiler's probes frozen into it."""
    def program(first):
        return ("var x: float32[-1, 4, -1, -1]\nvar s: int32[4]\nvar n: int32[1]\nvar h: int32[1]\n"
                "var w: int32[1]\nvar hw: int32[1]\nvar nhw: int32[1]\nvar one: int32[1]\nvar y: float32[-1, 1]\n"
                "op feed(X: feed) -> (Out: x) {col: 0}\nop shape(Input: x) -> (Out: s)\n"
                + "".join(f"op slice(Input: s) -> (Out: {v}) {{axes: ints[0], starts: ints[{i}], ends: ints[{i + 1}], "
                          "decrease_axis: ints[], infer_flags: ints[1]}\n" for i, v in ((0, "n"), (2, "h"), (3, "w")))
                + "op elementwise_mul(X: h, Y: w) -> (Out: hw) {axis: -1}\n"
                "op elementwise_mul(X: n, Y: hw) -> (Out: nhw) {axis: -1}\n"
                "op fill_constant() -> (Out: one) {shape: ints[1], dtype: 2, value: 1.0}\n"
                f"op fill_constant(ShapeTensorList: [{first}, one]) -> (Out: y) {{shape: ints[-1, 1], dtype: 5, "
                "value: 8.0}\nop fetch(X: y) -> (Out: fetch) {col: 0}\n")
    ok = run(["compile", ir(tmp_path, program("hw")), "-o", str(tmp_path / "ok"), "--max-shape", "x=2,4,16,16"])
    assert ok.returncode == 0, ok.stderr
    bad(["compile", ir(tmp_path, program("nhw")), "-o", str(tmp_path / "o"), "--max-shape", "x=2,4,16,16"],
        "(fill_constant -> y): ShapeTensorList entry 0 multiplies the batch into the run's sizes")


def test_kthvalue_along_a_run_dim_checks_k(tmp_path):
    """kthvalue (k 3) along a dim the run gives: a row of 5 gives its third
    smallest (computed here by sorting each row); a row of 2 has no third,
    and the run stops naming k (Paddle raises an error there)."""
    body = ("var x: float32[-1, -1]\nvar y: float32[-1]\nvar i: int64[-1]\n"
            "op feed(X: feed) -> (Out: x) {col: 0}\n"
            "op kthvalue(X: x) -> (Indices: i, Out: y) {k: 3, axis: 1, keepdim: false}\n"
            "op fetch(X: y) -> (Out: fetch) {col: 0}\n")
    binary = tmp_path / "bin"
    p = run(["build", ir(tmp_path, body), "-o", str(binary), "--max-shape", "x=2,8"])
    assert p.returncode == 0, p.stderr[-2000:]
    x = np.array([[4.0, -1.0, 7.0, 2.0, 0.5], [3.0, 3.5, -2.0, 9.0, 1.0]], np.float32)
    np.save(tmp_path / "x.npy", x)
    q = subprocess.run([str(binary), "--input", f"x={tmp_path / 'x.npy'}", "--output-dir", str(tmp_path / "o")],
                       capture_output=True, text=True, timeout=120)
    assert q.returncode == 0, q.stderr
    got = np.load(next((tmp_path / "o").glob("*.npy")))
    assert got.tolist() == np.sort(x, axis=1)[:, 2].tolist()
    np.save(tmp_path / "x.npy", x[:, :2])
    q = subprocess.run([str(binary), "--input", f"x={tmp_path / 'x.npy'}", "--output-dir", str(tmp_path / "o2")],
                       capture_output=True, text=True, timeout=120)
    assert q.returncode == 1 and "k is larger than the run's size along the axis" in q.stderr, q.stderr


def test_sizes_outside_the_bound_or_too_small_stop(tmp_path):
    """resnetish bounded by [2, 3, 32, 32]: a height of 40 is refused by the
    driver naming the dim and the bound; a channel count other than the
    program's is the usual shape error; a 2x2 image leaves the unpadded 3x3
    stem no output: the run stops naming the kernel (Paddle 2.6 calls
    cblas_sgemm with a bad size there and corrupts its heap: "Intel MKL
    ERROR: Parameter 11 was incorrect on entry to cblas_sgemm",
    "malloc_consolidate(): invalid chunk size", measured)."""
    d = os.path.join(models(), "resnetish")
    binary = build(d, tmp_path, *flags(d))
    cases = [((1, 3, 40, 8), "error: input 'x' has 40 in dim 2; the model takes 1 to 32 there (its --max-shape)"),
             ((1, 4, 8, 8), "error: input 'x' has shape [1, 4, 8, 8]; the model expects [1, 3, 8, 8]"),
             ((1, 3, 2, 2), "fused_conv2d: the filter is larger than the padded input (an output size below 1)")]
    for shape, message in cases:
        np.save(tmp_path / "x.npy", np.ones(shape, np.float32))
        p = run_image(binary, tmp_path / "x.npy", tmp_path / "o")
        assert p.returncode != 0 and message in p.stderr, (shape, p.stderr[-1500:])
        assert not (tmp_path / "o").exists()


HOST = r"""
#include <stdio.h>
#include "net.h"
static unsigned char arena[NET_ARENA_BYTES(1)] __attribute__((aligned(64)));
static net_model m;
static float x[3 * 32 * 32], logits[7], feature[32 * 15 * 15];
int main(void) {
  const void *in[] = {x};
  void *out[] = {logits, feature};
  int64_t dims[4] = {1, 3, 19, 27}, big[4] = {1, 3, 19, 33}, got[4];
  if (net_init(&m, arena, sizeof arena, NULL, 0)) return 1;
  printf("%u\n", net_input_run_dims(0));
  int st = net_run(&m, 1, in, out);
  printf("%d %s\n", st == NET_ERR_SHAPE, net_last_error(&m));
  st = net_set_input_dims(&m, 0, big);
  printf("%d %s\n", st == NET_ERR_SHAPE, net_last_error(&m));
  if (net_set_input_dims(&m, 0, dims) || net_run(&m, 1, in, out)) return 2;
  const int64_t n = net_output_run_shape(&m, 1, got);
  printf("%lld: %lld %lld %lld %lld\n", (long long)n, (long long)got[0], (long long)got[1], (long long)got[2],
         (long long)got[3]);
  return 0;
}
"""


def test_the_api_takes_each_run_s_dims(tmp_path):
    """The generated API: <prefix>_input_run_dims says which dims of an
    input the run gives (bits 2 and 3: 12); a run before
    <prefix>_set_input_dims fails naming the input; a dim past the bound
    is refused; with 19 x 27 set the run takes it, and the fetched feature
    map's run shape is [1, 32, 9, 13] (19 - 2 = 17 after the stem, then
    (17 - 1) / 2 + 1 = 9 across the strided block; 27: 25, then 13)."""
    d = os.path.join(models(), "resnetish")
    p = run(["compile", os.path.join(d, "model.pdmodel"), "-o", str(tmp_path), "--name", "net", "--embed-weights",
             *flags(d)])
    assert p.returncode == 0, p.stderr
    (tmp_path / "host.c").write_text(HOST)
    rt = sorted(str(q) for q in (tmp_path / "paddlec_rt").glob("*.c"))
    cc("-I", str(tmp_path), str(tmp_path / "host.c"), str(tmp_path / "net.c"), str(tmp_path / "net_weights.c"), *rt,
       "-o", str(tmp_path / "host"))
    p = subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == [
        "12",
        "1 run: input 'x' has dims the run gives, not set (set_input_dims)",
        "1 set_input_dims: input 'x': a dim the run gives is below 1 or past its bound (--max-shape)",
        f"{32 * 9 * 13}: 1 32 9 13"], p.stdout


CONV_IR = ("var x: float32[-1, 3, -1, -1]\nvar w: float32[8, 3, 3, 3]\nvar y: float32[-1, 8, -1, -1]\n"
           "op feed(X: feed) -> (Out: x) {{col: 0}}\nop feed(X: feed) -> (Out: w) {{col: 1}}\n"
           "op conv2d(Input: x, Filter: w) -> (Output: y) {{strides: ints[1, 1], paddings: ints[1, 1], "
           "dilations: ints[1, 1], groups: 1, data_format: \"NCHW\", padding_algorithm: \"{alg}\"}}\n"
           "op fetch(X: y) -> (Out: fetch) {{col: 0}}\n")


@pytest.mark.parametrize("args, messages", [
    (["--max-shape", "x=2,3,16,16", "--shape", "x=2,3,16,16"],
     ["feed 'x' is named by both --shape and --max-shape; give one"]),
    (["--max-shape", "x=2,3,16"], ["--max-shape x has 3 dims; the feed has 4 [-1, 3, -1, -1]"]),
    (["--max-shape", "x=2,4,16,16"], ["--max-shape x: dim 1 is 3 in the program, not 4"]),
    (["--max-shape", "x=2,3,16,16", "--max-shape", "w=8,3,3,3"],
     ["--max-shape names 'w', which is no output of an op whose sizes only the run knows and that takes a bound, "
      "nor a feed with unknown dims"]),
])
def test_bad_bounds_on_a_feed_are_errors(tmp_path, args, messages):
    bad(["compile", ir(tmp_path, CONV_IR.format(alg="EXPLICIT")), "-o", str(tmp_path / "o")] + args, *messages)


def test_what_takes_no_run_sizes_yet_is_refused(tmp_path):
    """Pooling with SAME padding and ceil_mode (its output size is not
    ceil(in / stride)) is refused with run sizes, naming the op, in 2-D and
    3-D; so is an op that takes none yet (kron)."""
    ceil = ("var x: float32[-1, 3, -1, -1]\nvar y: float32[-1, 3, -1, -1]\nop feed(X: feed) -> (Out: x) {col: 0}\n"
            "op pool2d(X: x) -> (Out: y) {pooling_type: \"max\", ksize: ints[3, 3], strides: ints[2, 2], "
            "paddings: ints[0, 0], padding_algorithm: \"SAME\", ceil_mode: true}\n"
            "op fetch(X: y) -> (Out: fetch) {col: 0}\n")
    bad(["compile", ir(tmp_path, ceil), "-o", str(tmp_path / "o"), "--max-shape", "x=2,3,16,16"],
        "(pool2d -> y): X ('x') has sizes only the run knows; paddlec takes them in 2-D and 3-D pooling "
        "(SAME padding without ceil_mode) only")
    body = CONV_IR.format(alg="EXPLICIT").replace(
        "op fetch(X: y)", "op kron(X: y, Y: y) -> (Out: s)\n"
        "op fetch(X: s)").replace("var y:", "var s: float32[-1, 256, -1, -1]\nvar y:")
    bad(["compile", ir(tmp_path, body), "-o", str(tmp_path / "o"), "--max-shape", "x=2,3,16,16"],
        "(kron -> ", "dim 2 of input X ('y') is only known at run time", "kron does not take such an input yet")
    vol = ("var x: float32[-1, 3, -1, -1, -1]\nvar y: float32[-1, 3, -1, -1, -1]\n"
           "op feed(X: feed) -> (Out: x) {col: 0}\n"
           "op pool3d(X: x) -> (Out: y) {pooling_type: \"max\", ksize: ints[2, 2, 2], strides: ints[2, 2, 2], "
           "paddings: ints[0, 0, 0], padding_algorithm: \"SAME\", ceil_mode: true}\n"
           "op fetch(X: y) -> (Out: fetch) {col: 0}\n")
    bad(["compile", ir(tmp_path, vol), "-o", str(tmp_path / "o"), "--max-shape", "x=2,3,8,16,16"],
        "(pool3d -> y): X ('x') has sizes only the run knows; paddlec takes them in 2-D and 3-D pooling "
        "(SAME padding without ceil_mode) only")


SEQ_IR = ("var x: float32[-1, -1, 16]\nvar u: float32[1, 8, 16]\nvar w: float32[8, 4]\nvar y: float32[-1, -1, -1]\n"
          "op feed(X: feed) -> (Out: x) {{col: 0}}\nop feed(X: feed) -> (Out: u) {{col: 1}}\n"
          "op feed(X: feed) -> (Out: w) {{col: 2}}\n{op}\nop fetch(X: y) -> (Out: fetch) {{col: 0}}\n")


def test_feeds_of_one_length_that_differ_stop_the_run(tmp_path):
    """The BERT-style encoder's three feeds have one length, which the
    compiler cannot know (each feed its own bound): where two of them meet
    the run checks it, and lengths that differ stop the run naming the
    tensors (Paddle raises a broadcast error there): the segment ids of 4
    tokens beside ids of 5 at the embeddings' sum, a mask of 4 beside
    them at the attention."""
    d = os.path.join(models(), "bert")
    binary = build(d, tmp_path, *flags(d))
    cases = [(5, 4, 5, "and 'embedding_1.tmp_0' have different sizes along dim 1 of"),
             (5, 5, 4, "have different lengths in this run (Paddle raises an error)")]
    for n_x, n_seg, n_mask, message in cases:
        np.save(tmp_path / "x.npy", np.ones((1, n_x), np.int64))
        np.save(tmp_path / "x_seg.npy", np.zeros((1, n_seg), np.int64))
        np.save(tmp_path / "x_mask.npy", np.ones((1, n_mask), np.float32))
        p = run_image(binary, str(tmp_path / "x.npy"), tmp_path / "o", ["seg", "mask"])
        assert p.returncode != 0 and message in p.stderr, (n_x, n_seg, n_mask, p.stderr[-1500:])
        assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("op, message", [
    ("op elementwise_add(X: x, Y: u) -> (Out: y) {axis: -1}",
     "(elementwise_add -> y): dim 1 of X ('x') is only known at run time (from its fed array (bounded by "
     "--max-shape)), and Y ('u') [1, 8, 16] does not broadcast along it (its dim there is 8, not 1)"),
    ("op squeeze2(X: x) -> (Out: y, XShape: xs) {axes: ints[1]}",
     "(squeeze2 -> y): dim 1 of X ('x') is only known at run time and squeeze would drop it when the run's size is "
     "1 (Out's rank the run's): not supported"),
])
def test_sequences_of_the_run_s_length_refused_where_extents_may_differ(tmp_path, op, message):
    """Sequences [B, L, 16] of a length the run gives: a sum with a fixed dim
    of 8 against it,
    a squeeze of the length are refused naming the op (x[:, 0] and x[:, :1],
    the same for every length, pass: test_one_binary...[text]; cuts the
    length moves, [text_cuts]; two feeds' lengths meeting are checked by
    the run: test_feeds_of_one_length...)."""
    body = SEQ_IR.format(op=op).replace("var y:", "var xs: float32[-1]\nvar y:")
    bad(["compile", ir(tmp_path, body), "-o", str(tmp_path / "o"), "--max-shape", "x=2,8,16"], message)


def test_a_contraction_of_the_run_s_length_against_a_fixed_one_is_checked(tmp_path):
    """x^T @ w over sequences [B, L, 16] of a length the run gives against w
    [8, 4]: Paddle's matmul takes L = 8 only.  Built with --max-shape, the
    run at L = 8 equals the program built with --shape for it (whose
    kernel test_e2e_ops checks against Paddle); L = 5 stops naming the
    contracted dim, where Paddle raises."""
    body = SEQ_IR.format(op="op matmul_v2(X: x, Y: w) -> (Out: y) {trans_x: true, trans_y: false}")
    f = ir(tmp_path, body)
    rng = np.random.default_rng(3)
    u, w = rng.standard_normal((1, 8, 16)).astype(np.float32), rng.standard_normal((8, 4)).astype(np.float32)
    np.save(tmp_path / "u.npy", u)
    np.save(tmp_path / "w.npy", w)
    outs = []
    for name, flag in (("run", ["--max-shape", "x=2,8,16"]), ("fixed", ["--shape", "x=2,8,16"])):
        p = run(["build", f, "-o", str(tmp_path / name), *flag])
        assert p.returncode == 0, p.stderr
    for length, binaries in ((8, ("run", "fixed")), (5, ("run",))):
        x = rng.standard_normal((2, length, 16)).astype(np.float32)
        np.save(tmp_path / "x.npy", x)
        for b in binaries:
            args = sum((["--input", f"{n}={tmp_path / n}.npy"] for n in ("x", "u", "w")), [])
            r = subprocess.run([str(tmp_path / b), *args, "--output-dir", str(tmp_path / f"o{length}{b}")],
                               capture_output=True, text=True, timeout=120)
            if length == 5:
                assert r.returncode != 0 and "differ in the contracted dim" in r.stderr, r.stderr
            else:
                assert r.returncode == 0, r.stderr
                outs.append(np.load(tmp_path / f"o{length}{b}" / "y.npy"))
    assert outs[0].shape == (2, 16, 4) and np.array_equal(outs[0], outs[1])


def test_a_map_of_the_run_s_size_flattened_into_a_1x_fc_is_checked(tmp_path):
    """Paddle 1.x's fc (mul with x_num_col_dims 1) of a map [B, 2, H, W]
    of sizes the run gives against a weight [8, 3] made for one size:
    Paddle's kernel takes H * W = 4 only.  Built with --max-shape and
    without a bound, runs at 2 x 2 and 1 x 4 equal the programs built with
    --shape for them (whose mul kernel test_e2e_ops checks against Paddle)
    and numpy's product; 3 x 3 stops naming the columns, where Paddle
    raises."""
    body = ("var x: float32[-1, 2, -1, -1]\nvar w: float32[8, 3]\nvar y: float32[-1, 3]\n"
            "op feed(X: feed) -> (Out: x) {col: 0}\nop feed(X: feed) -> (Out: w) {col: 1}\n"
            "op mul(X: x, Y: w) -> (Out: y) {x_num_col_dims: 1, y_num_col_dims: 1}\n"
            "op fetch(X: y) -> (Out: fetch) {col: 0}\n")
    f = ir(tmp_path, body)
    rng = np.random.default_rng(4)
    w = rng.standard_normal((8, 3)).astype(np.float32)
    np.save(tmp_path / "w.npy", w)
    builds = {"bound": ["--max-shape", "x=2,2,6,6"], "classes": [], "f22": ["--shape", "x=2,2,2,2"],
              "f14": ["--shape", "x=2,2,1,4"]}
    for name, flag in builds.items():
        p = run(["build", f, "-o", str(tmp_path / name), *flag])
        assert p.returncode == 0, p.stderr
    for h, w_ in ((2, 2), (1, 4), (3, 3)):
        x = rng.standard_normal((2, 2, h, w_)).astype(np.float32)
        np.save(tmp_path / "x.npy", x)
        outs = []
        for b in ("bound", "classes", f"f{h}{w_}"):
            if not (tmp_path / b).exists():
                continue
            args = sum((["--input", f"{n}={tmp_path / n}.npy"] for n in ("x", "w")), [])
            r = subprocess.run([str(tmp_path / b), *args, "--output-dir", str(tmp_path / f"o{h}{w_}{b}")],
                               capture_output=True, text=True, timeout=120)
            if h * w_ != 4:
                assert r.returncode != 0 and "the columns of 'x' (its dims from 1 on) are not the rows of 'w'" \
                    in r.stderr, r.stderr
            else:
                assert r.returncode == 0, r.stderr
                outs.append(np.load(tmp_path / f"o{h}{w_}{b}" / "y.npy"))
        if outs:
            assert len(outs) == 3 and np.array_equal(outs[0], outs[2]) and np.array_equal(outs[1], outs[2])
            assert np.allclose(outs[0], x.reshape(2, 8).astype(np.float64) @ w, rtol=1e-5, atol=1e-5)


LRN_IR = CONV_IR.format(alg="EXPLICIT").replace(
    "op fetch(X: y)", "op lrn(X: y) -> (Out: s, MidOut: mid) {n: 5, k: 1.5, alpha: 0.01, beta: 0.6}\n"
    "op affine_channel(X: s, Scale: sc, Bias: bi) -> (Out: z) {data_layout: \"NCHW\"}\n"
    "op fetch(X: z)").replace("var y:", "var s: float32[-1, 8, -1, -1]\nvar mid: float32[-1, 8, -1, -1]\n"
                              "var z: float32[-1, 8, -1, -1]\nvar sc: float32[8]\nvar bi: float32[8]\nvar y:").replace(
    "op feed(X: feed) -> (Out: w) {col: 1}", "op feed(X: feed) -> (Out: w) {col: 1}\n"
    "op feed(X: feed) -> (Out: sc) {col: 2}\nop feed(X: feed) -> (Out: bi) {col: 3}")


def test_fluid_ops_at_the_run_s_sizes_match_the_fixed_build(tmp_path):
    """lrn and affine_channel, fluid ops of 1.x vision nets (Paddle 2.6
    exports neither, so no oracle program): built once with --max-shape
    and run on images of three sizes, each equal to the program built with
    --shape for that size, whose kernels test_e2e_ops checks against
    Paddle's."""
    rng = np.random.default_rng(7)
    w, sc, bi = (rng.standard_normal(s).astype(np.float32) for s in ((8, 3, 3, 3), (8,), (8,)))
    for name, v in (("w", w), ("sc", sc), ("bi", bi)):
        np.save(tmp_path / f"{name}.npy", v)
    f = ir(tmp_path, LRN_IR)
    p = run(["build", f, "-o", str(tmp_path / "run"), "--max-shape", "x=2,3,16,16"])
    assert p.returncode == 0, p.stderr
    more = [f"{n}={tmp_path / n}.npy" for n in ("w", "sc", "bi")]
    for i, shape in enumerate([(2, 3, 16, 16), (1, 3, 9, 7), (2, 3, 2, 5)]):
        x = rng.standard_normal(shape).astype(np.float32)
        np.save(tmp_path / f"x{i}.npy", x)
        fixed = tmp_path / f"fixed{i}"
        p = run(["build", f, "-o", str(fixed), "--shape", "x=" + ",".join(map(str, shape))])
        assert p.returncode == 0, p.stderr
        outs = []
        for b in (tmp_path / "run", fixed):
            args = sum((["--input", a] for a in [f"x={tmp_path / f'x{i}.npy'}"] + more), [])
            r = subprocess.run([str(b), *args, "--output-dir", str(tmp_path / f"o{i}{b.name}")],
                               capture_output=True, text=True, timeout=120)
            assert r.returncode == 0, r.stderr
            outs.append(np.load(tmp_path / f"o{i}{b.name}" / "z.npy"))
        assert outs[0].shape == shape[:1] + (8,) + shape[2:] and np.array_equal(outs[0], outs[1]), shape


# an H x W map added to itself with H and W swapped, or one row of it to
# one column: one feed's two run-time extents, which need not be equal
HW_IR = ("var x: float32[-1, 2, -1, -1]\nvar a: float32[-1, 2, -1, -1]\nvar b: float32[-1, 2, -1, -1]\n"
         "var xs: float32[-1]\nvar y: float32[-1, 2, -1, -1]\nop feed(X: feed) -> (Out: x) {{col: 0}}\n{ops}\n"
         "op elementwise_add(X: a, Y: b) -> (Out: y) {{axis: -1}}\nop fetch(X: y) -> (Out: fetch) {{col: 0}}\n")
SWAP = ("op assign(X: x) -> (Out: a)\n"
        "op transpose2(X: x) -> (Out: b, XShape: xs) {axis: ints[0, 1, 3, 2]}")
EDGES = ("op slice(Input: x) -> (Out: a) {axes: ints[2], starts: ints[0], ends: ints[1], infer_flags: ints[1], "
         "decrease_axis: ints[2]}\n"
         "op slice(Input: x) -> (Out: b) {axes: ints[3], starts: ints[0], ends: ints[1], infer_flags: ints[1], "
         "decrease_axis: ints[3]}")


@pytest.mark.parametrize("ops, want", [(SWAP, lambda x: x + x.transpose(0, 1, 3, 2)),
                                       (EDGES, lambda x: x[:, :, 0] + x[:, :, :, 0])])
def test_height_and_width_moved_apart_are_checked(tmp_path, ops, want):
    """A feed's height and width are two run-time extents of one producer:
    a transpose swapping them (or two slices each keeping one) gives a var
    whose run-time dims are not the feed's in the feed's order, so adding
    it to the feed pairs H with W, which the run must check as Paddle's
    broadcast does: square maps give x + x^T (x[:, :, 0] + x[:, :, :, 0]),
    by hand; a 4 x 6 map stops the run naming both tensors (it used to be
    added unchecked, reading past the rows)."""
    body = HW_IR.format(ops=ops)
    if ops == EDGES:
        body = body.replace("var a: float32[-1, 2, -1, -1]", "var a: float32[-1, 2, -1]").replace(
            "var b: float32[-1, 2, -1, -1]", "var b: float32[-1, 2, -1]").replace(
            "var y: float32[-1, 2, -1, -1]", "var y: float32[-1, 2, -1]")
    binary = tmp_path / "bin"
    p = run(["build", ir(tmp_path, body), "-o", str(binary), "--max-shape", "x=2,2,8,8"])
    assert p.returncode == 0, p.stderr
    rng = np.random.default_rng(3)
    for i, shape in enumerate([(2, 2, 5, 5), (1, 2, 8, 8), (1, 2, 4, 6)]):
        x = rng.standard_normal(shape).astype(np.float32)
        np.save(tmp_path / f"x{i}.npy", x)
        r = run_image(binary, str(tmp_path / f"x{i}.npy"), tmp_path / f"o{i}")
        if shape[2] == shape[3]:
            assert r.returncode == 0, r.stderr
            assert np.array_equal(np.load(tmp_path / f"o{i}" / "y.npy"), want(x))
        else:
            assert r.returncode != 0 and "'a' and 'b' have different sizes along dim" in r.stderr, r.stderr
            assert not (tmp_path / f"o{i}").exists()



def test_a_strided_cut_of_the_run_s_length_is_checked_against_the_uncut_sequence(tmp_path):
    """x[:, ::2] of a sequence of the run's length added to the sequence:
    the cut length is another extent than the sequence's (Paddle raises
    unless it is 1), so the run checks the two: a sequence of 1 gives x + x
    (by hand); one of 4 stops the run naming both.  (A strided_slice that
    cut a run-time axis once passed on the sequence's extent as the cut's:
    the add then ran unchecked, reading past the cut.)"""
    body = ("var x: float32[-1, -1, 4]\nvar a: float32[-1, -1, 4]\nvar b: float32[-1, -1, 4]\n"
            "var y: float32[-1, -1, 4]\nop feed(X: feed) -> (Out: x) {col: 0}\n"
            "op strided_slice(Input: x) -> (Out: a) {axes: ints[1], starts: ints[0], ends: ints[2147483647], "
            "strides: ints[2], infer_flags: ints[1], decrease_axis: ints[]}\nop assign(X: x) -> (Out: b)\n"
            "op elementwise_add(X: a, Y: b) -> (Out: y) {axis: -1}\nop fetch(X: y) -> (Out: fetch) {col: 0}\n")
    binary = tmp_path / "bin"
    p = run(["build", ir(tmp_path, body), "-o", str(binary), "--max-shape", "x=2,8,4"])
    assert p.returncode == 0, p.stderr
    rng = np.random.default_rng(4)
    for i, shape in enumerate([(2, 1, 4), (1, 4, 4)]):
        x = rng.standard_normal(shape).astype(np.float32)
        np.save(tmp_path / f"x{i}.npy", x)
        r = run_image(binary, str(tmp_path / f"x{i}.npy"), tmp_path / f"o{i}")
        if shape[1] == 1:
            assert r.returncode == 0, r.stderr
            assert np.array_equal(np.load(tmp_path / f"o{i}" / "y.npy"), x + x)
        else:
            assert r.returncode != 0 and "'a' and 'b' have different sizes along dim" in r.stderr, r.stderr


ALLOC_HOST = r"""
#include "host_util.h"
#include "net.h"
static int64_t ids[3 * 16];
static float logits[3 * 3], first[3 * 2];
int main(void) {
  Counting c;
  use_counting(&c, -1);
  net_model *m;
  if (net_create(&m, NULL)) return 1;
  net_exec_strategy s;
  net_exec_strategy_defaults(&s);
  s.num_threads = 1;
  net_set_exec_strategy(m, &s);
  const void *in[] = {ids};
  void *out[] = {logits, first};
  const int64_t runs[][2] = {{1, 16}, {1, 7}, {1, 1}, {2, 3}, {2, 16}, {2, 9}, {1, 12}, {3, 4}, {3, 16}};
  for (int r = 0; r < 9; r++) {
    const int64_t dims[2] = {runs[r][0], runs[r][1]};
    for (int i = 0; i < dims[0] * dims[1]; i++) ids[i] = 1 + (i * 7 + r) % 49;
    if (net_set_input_dims(m, 0, dims)) return 2;
    const long a = c.allocs;
    const int st = net_run(m, dims[0], in, out);
    printf("%lld x %lld: status %d allocs %ld\n", (long long)dims[0], (long long)dims[1], st, c.allocs - a);
    if (r == 3 && net_reserve(m, 2)) return 3;
  }
  net_destroy(m);
  printf("live %ld\n", c.live);
  return 0;
}
"""


def host_with_model(tmp_path, d, compile_flags, source):
    """tmp_path/host: C `source` (tests/host's helpers at hand) linked with
    model d compiled as `net` with its weights embedded."""
    p = run(["compile", os.path.join(d, "model.pdmodel"), "-o", str(tmp_path), "--name", "net", "--embed-weights",
             *compile_flags])
    assert p.returncode == 0, p.stderr
    (tmp_path / "host.c").write_text(source)
    rt = sorted(str(q) for q in (tmp_path / "paddlec_rt").glob("*.c"))
    cc("-I", str(tmp_path), "-I", os.path.join(ROOT, "tests", "host"), str(tmp_path / "host.c"),
       str(tmp_path / "net.c"), str(tmp_path / "net_weights.c"), *rt, "-o", str(tmp_path / "host"))


def test_run_sizes_allocate_once_per_size_class(tmp_path):
    """Issue 19 item 7 through the allocation hook (rt_set_allocator): the
    text encoder built with --max-shape x=2,16 (ids of any length up to 16)
    and create()'s arena for batch 1 runs batch 1 at lengths 16, 7 and 1
    without allocating (the tensors are planned at the bound); a batch of 2
    before reserve takes the local scope once for that run (dropped after a
    run that fetches, as Paddle's); after reserve(2) batches 2 and 1 at any
    length allocate nothing; a batch of 3 (past the reserve and the
    --max-shape batch, which does not bound the batch) takes the local
    scope once per run again; nothing is left after destroy."""
    d = os.path.join(models(), "text")
    host_with_model(tmp_path, d, flags(d), ALLOC_HOST)
    p = subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == [
        "1 x 16: status 0 allocs 0", "1 x 7: status 0 allocs 0", "1 x 1: status 0 allocs 0",
        "2 x 3: status 0 allocs 1", "2 x 16: status 0 allocs 0", "2 x 9: status 0 allocs 0",
        "1 x 12: status 0 allocs 0", "3 x 4: status 0 allocs 1", "3 x 16: status 0 allocs 1", "live 0"], p.stdout


CLASS_HOST = r"""
#include "host_util.h"
#include "net.h"
/* argv: triples B L DIR/run: ids from DIR/run.ids (int64), the fetch
 * written to DIR/run.out (float32, its run shape's elements) */
int main(int argc, char **argv) {
  Counting c;
  use_counting(&c, -1);
  net_model *m;
  if (net_create(&m, NULL) || net_reserve(m, 3)) return 1;
  net_exec_strategy s;
  net_exec_strategy_defaults(&s);
  s.num_threads = 1;
  net_set_exec_strategy(m, &s);
  for (int a = 1; a + 2 < argc; a += 3) {
    const int64_t dims[2] = {atoll(argv[a]), atoll(argv[a + 1])}, n = dims[0] * dims[1];
    char path[512];
    int64_t *ids = malloc(sizeof *ids * (size_t)n), bound[8], got[8];
    snprintf(path, sizeof path, "%s.ids", argv[a + 2]);
    FILE *f = fopen(path, "rb");
    if (!ids || !f || fread(ids, sizeof *ids, (size_t)n, f) != (size_t)n) return 2;
    fclose(f);
    if (net_set_input_dims(m, 0, dims)) return 3;
    float *out = malloc(sizeof *out * (size_t)net_output_bound(m, 0, dims[0], bound));
    const void *in[] = {ids};
    void *outs[] = {out};
    const long before = c.allocs;
    const int st = net_run(m, dims[0], in, outs);
    printf("%lld x %lld: status %d allocs %ld\n", (long long)dims[0], (long long)dims[1], st, c.allocs - before);
    const int64_t k = net_output_run_shape(m, 0, got);
    snprintf(path, sizeof path, "%s.out", argv[a + 2]);
    f = fopen(path, "wb");
    if (!out || !f || fwrite(out, sizeof *out, (size_t)k, f) != (size_t)k) return 4;
    fclose(f);
    free(ids);
    free(out);
  }
  net_destroy(m);
  printf("live %ld\n", c.live);
  return 0;
}
"""


def test_size_classes_switch_in_one_model_and_allocate_once_each(tmp_path):
    """The hand-written attention (qkv) built with no bound, through its
    API in one process (issue 19 items 1 and 7): after reserve(3), sizes of
    the smallest class (length 7) run in create()'s memory; a length of 40
    (class 64) grows it once, a length of 90 (class 128) once more; going
    back to a smaller class allocates nothing; each run's output, sized by
    <prefix>_output_bound for the dims set, matches Paddle's at that size
    (the offsets are the run's class's: a class's table left in place
    would put tensors where the larger ones overlap); nothing is left after
    destroy."""
    d = os.path.join(models(), "qkv")
    host_with_model(tmp_path, d, unbounded(d), CLASS_HOST)
    with open(os.path.join(d, "sizes.json")) as f:
        sizes = json.load(f)["unbounded"]
    assert sizes == [[2, 40], [1, 7], [3, 90]]
    order = [1, 0, 1, 2, 0, 1]
    args = []
    for r, k in enumerate(order):
        np.load(os.path.join(d, f"input_u{k}.npy")).astype(np.int64).tofile(tmp_path / f"r{r}.ids")
        args += [str(sizes[k][0]), str(sizes[k][1]), str(tmp_path / f"r{r}")]
    p = subprocess.run([str(tmp_path / "host"), *args], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == [
        "1 x 7: status 0 allocs 0", "2 x 40: status 0 allocs 1", "1 x 7: status 0 allocs 0",
        "3 x 90: status 0 allocs 1", "2 x 40: status 0 allocs 0", "1 x 7: status 0 allocs 0", "live 0"], p.stdout
    for r, k in enumerate(order):
        want = np.load(os.path.join(d, f"ref_u{k}_0.npy"))
        got = np.fromfile(tmp_path / f"r{r}.out", np.float32).reshape(want.shape)
        assert np.abs(got - want).max() / max(np.abs(want).max(), 1e-6) <= TOL, (r, k)


IMAGE_HOST = r"""
#include "host_util.h"
#include "net.h"
/* argv: groups B C H W DIR/run: the image from DIR/run.x (float32), fetch 0
 * written to DIR/run.out (its run shape's elements) */
int main(int argc, char **argv) {
  Counting c;
  use_counting(&c, -1);
  net_model *m;
  if (net_create(&m, NULL) || net_reserve(m, 2)) return 1;
  net_exec_strategy s;
  net_exec_strategy_defaults(&s);
  s.num_threads = 1;
  net_set_exec_strategy(m, &s);
  for (int a = 1; a + 4 < argc; a += 5) {
    const int64_t dims[4] = {atoll(argv[a]), atoll(argv[a + 1]), atoll(argv[a + 2]), atoll(argv[a + 3])};
    const int64_t n = dims[0] * dims[1] * dims[2] * dims[3];
    char path[512];
    int64_t bound[8], got[8];
    float *x = malloc(sizeof *x * (size_t)n);
    snprintf(path, sizeof path, "%s.x", argv[a + 4]);
    FILE *f = fopen(path, "rb");
    if (!x || !f || fread(x, sizeof *x, (size_t)n, f) != (size_t)n) return 2;
    fclose(f);
    if (net_set_input_dims(m, 0, dims)) return 3;
    void *outs[NET_NUM_OUTPUTS];
    for (int i = NET_NUM_OUTPUTS - 1; i >= 0; i--) /* fetch 0's bound last, in bound */
      outs[i] = malloc(sizeof(float) * (size_t)net_output_bound(m, i, dims[0], bound));
    float *out = outs[0];
    const void *in[] = {x};
    const long before = c.allocs;
    const int st = net_run(m, dims[0], in, outs);
    printf("%lld x %lld: status %d allocs %ld, room for %lld x %lld\n", (long long)dims[2], (long long)dims[3], st,
           c.allocs - before, (long long)bound[2], (long long)bound[3]);
    const int64_t k = net_output_run_shape(m, 0, got);
    snprintf(path, sizeof path, "%s.out", argv[a + 4]);
    f = fopen(path, "wb");
    if (!out || !f || fwrite(out, sizeof *out, (size_t)k, f) != (size_t)k) return 4;
    fclose(f);
    free(x);
    for (int i = 0; i < NET_NUM_OUTPUTS; i++) free(outs[i]);
  }
  net_destroy(m);
  printf("live %ld\n", c.live);
  return 0;
}
"""


def test_size_classes_bound_height_and_width_apart(tmp_path):
    """An image model built with no bound (tokenmaps, whose first fetch has
    the image's height and width) is planned for classes that bound the
    height and the width apart, up to 4 times each other (issue 19 item 1:
    a wide image does not take a square class): through its API, a 9 x 13
    image runs in the 32 x 32 class, 40 x 70 in 64 x 128 (not 128 x 128)
    and 150 x 20 in 256 x 64 (not 256 x 256), as the room
    <prefix>_output_bound gives for the fetch shows; memory grows once for
    each larger class and not when going back; each run matches Paddle."""
    d = os.path.join(models(), "tokenmaps")
    host_with_model(tmp_path, d, unbounded(d), IMAGE_HOST)
    with open(os.path.join(d, "sizes.json")) as f:
        sizes = json.load(f)["unbounded"]
    assert sizes == [[1, 3, 40, 70], [2, 3, 9, 13], [1, 3, 150, 20]]
    order = [1, 0, 2, 0, 1]
    args = []
    for r, k in enumerate(order):
        np.load(os.path.join(d, f"input_u{k}.npy")).astype(np.float32).tofile(tmp_path / f"r{r}.x")
        args += [str(v) for v in sizes[k]] + [str(tmp_path / f"r{r}")]
    p = subprocess.run([str(tmp_path / "host"), *args], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == [
        "9 x 13: status 0 allocs 0, room for 32 x 32", "40 x 70: status 0 allocs 1, room for 64 x 128",
        "150 x 20: status 0 allocs 1, room for 256 x 64", "40 x 70: status 0 allocs 0, room for 64 x 128",
        "9 x 13: status 0 allocs 0, room for 32 x 32", "live 0"], p.stdout
    for r, k in enumerate(order):
        want = np.load(os.path.join(d, f"ref_u{k}_0.npy"))
        got = np.fromfile(tmp_path / f"r{r}.out", np.float32).reshape(want.shape)
        assert np.abs(got - want).max() / max(np.abs(want).max(), 1e-6) <= TOL, (r, k)


def test_inspect_memory_lists_the_tensors_the_run_sizes():
    """inspect --memory names each tensor whose dims the run gives, with
    "<=" before the bound it was planned for (the text encoder: the position
    ids of arange(shape(x)[1]), the padding mask unsqueezed to [B, 1, 1, L]);
    the same program with --shape prints no such section."""
    d = os.path.join(models(), "text")
    p = run(["inspect", os.path.join(d, "model.pdmodel"), "--memory", *flags(d)])
    assert p.returncode == 0, p.stderr
    lines = [ln.split() for ln in p.stdout.splitlines()]
    assert ["run-time", "sizes:", "12", "tensors", "have", "dims", "the", "run", "gives,", "planned", "in", "the",
            "arena", "at", "their", "bounds:"] in lines, p.stdout
    assert ["range_0.tmp_0", "[<=16]", "(from", "its", "fed", "array", "(bounded", "by", "--max-shape))"] in lines
    assert ["unsqueeze2_1.tmp_0", "[B,", "1,", "1,", "<=16]", "(from", "its", "fed", "array", "(bounded", "by",
            "--max-shape))"] in lines
    p = run(["inspect", os.path.join(d, "model.pdmodel"), "--memory", "--shape", "x=2,16"])
    assert p.returncode == 0 and "arena" in p.stdout and "run-time sizes" not in p.stdout, p.stdout + p.stderr


def test_inspect_memory_shows_the_bounds_proved_for_swin_s_windows():
    """The Swin block bounded by x=2,3,16,16 (run_dims_models.py swin):
    the compiler proves its shape arithmetic's bounds and plans for them.
    By hand: the map padded by (4 - w % 4) % 4, at most 3, is at most
    16 + 3 = 19 high and wide; its windows [b, hp // 4, 4, wp // 4, 4, c]
    at most 19 // 4 = 4 along each; the cut back, [:, :h, :w], at most
    the map's 16 (its end h is at most 16)."""
    d = os.path.join(models(), "swin")
    p = run(["inspect", os.path.join(d, "model.pdmodel"), "--memory", *flags(d)])
    assert p.returncode == 0, p.stderr
    dims = {ln.split()[0]: ln.split("[", 1)[1].split("]")[0] for ln in p.stdout.splitlines() if "[" in ln}
    assert dims["pad3d_0.tmp_0"] == "B, 8, 1, <=19, <=19", p.stdout
    assert dims["reshape2_5.tmp_0"] == "B, <=4, 4, <=4, 4, 8", p.stdout
    assert dims["roll_1.tmp_0_slice_0"] == "B, <=16, <=16, 8", p.stdout


def test_inspect_memory_shows_the_size_classes():
    """The text encoder with no bound: inspect --memory says it is planned for
    size classes, lists their bounds, and lists the run-sized tensors at the
    smallest class's (32), their extents marked as coming from the fed array
    with no bound."""
    d = os.path.join(models(), "text")
    p = run(["inspect", os.path.join(d, "model.pdmodel"), "--memory", *unbounded(d)])
    assert p.returncode == 0, p.stderr
    assert ("size classes: no bound on the dims the run gives; planned for each class, up to 32, 64, 128, 256, 512, "
            "1024, 2048, 4096, 8192, 16384 in them") in p.stdout, p.stdout
    lines = [ln.split() for ln in p.stdout.splitlines()]
    assert ["range_0.tmp_0", "[<=32]", "(from", "its", "fed", "array", "(no", "bound:", "size", "classes))"] in lines


def test_the_text_encoder_specialized_by_shape_matches(tmp_path):
    """The same encoder with --shape x=2,16 (the batch fixed too): the
    padding mask [2, 1, 1, 16] is fused_attention's SrcMask with a batch
    dim of 2, not B (it was refused as not broadcasting to the scores),
    and the run matches Paddle's at that size."""
    d = os.path.join(models(), "text")
    binary = build(d, tmp_path, "--shape", "x=2,16")
    with open(os.path.join(d, "sizes.json")) as f:
        info = json.load(f)
    assert info["sizes"][0] == [2, 16]
    p = subprocess.run([str(binary), "--input", "x=" + os.path.join(d, "input_0.npy"), "--output-dir",
                        str(tmp_path / "o")], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    for j, fetch in enumerate(info["fetches"]):
        want = np.load(os.path.join(d, f"ref_0_{j}.npy"))
        got = np.load(tmp_path / "o" / (fetch.replace("/", "_") + ".npy"))
        assert got.shape == want.shape and np.abs(got - want).max() / max(np.abs(want).max(), 1e-6) <= TOL

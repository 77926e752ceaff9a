"""End to end against Paddle: each fixture is built into a standalone binary
with `paddlec build`, run on the inputs the oracle saved, and every output is
compared with what Paddle's Executor computed on the same files.

Error measure, per output: max |ours - paddle| / max(max |paddle|, 1e-6) —
the largest deviation relative to the output's scale — must be <= 1e-4, over
the finite elements; NaNs and infinities must be exactly where Paddle has them."""
import json
import os
import subprocess

import numpy as np
import pytest

from conftest import CC, SAN_ENV, run

TOL = 1e-4
# float64 outputs are held to a float64 tolerance: a float64 path computing
# in float32 anywhere (a float constant, a float accumulator, a float libm
# call) is off by ~1e-7 and fails
TOL64 = 1e-10
MODELS = ["mlp", "mlp_static", "lenet", "resnet18", "resnet50", "vgg16", "mobilenet_v1", "mobilenet_v2",
          "mobilenet_v3", "bert", "branchy", "ppyoloe_nms"]


def build(fixture, tmp_path, *extra, env=None):
    binary = tmp_path / "model_bin"
    p = run(["build", os.path.join(fixture, "model.pdmodel"), "-o", str(binary)] + list(extra))
    assert p.returncode == 0, p.stderr[-3000:]
    return binary


def run_binary(binary, fixture, sub, out_dir):
    with open(os.path.join(fixture, "paddle.json")) as f:
        ref = json.load(f)
    d = os.path.join(fixture, sub)
    args = [str(binary)]
    for i, name in enumerate(ref["feeds"]):
        args += ["--input", f"{name}={os.path.join(d, f'input_{i}.npy')}"]
    if os.path.exists(os.path.join(d, "lod.json")):  # LoD feeds (tests/oracle/e2e_lod.py): {feed: offsets}
        with open(os.path.join(d, "lod.json")) as f:
            for name, offsets in json.load(f).items():  # a list of levels: level 0 first, '/' between
                levels = offsets if isinstance(offsets[0], list) else [offsets]
                args += ["--lod", f"{name}={'/'.join(','.join(map(str, o)) for o in levels)}"]
    out_dir.mkdir(exist_ok=True)
    args += ["--output-dir", str(out_dir)]
    p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    for i, name in enumerate(ref["fetches"]):
        want = np.load(os.path.join(d, f"output_{i}.npy"))
        got = np.load(out_dir / (name.replace("/", "_") + ".npy"))
        want_lod, got_lod = os.path.join(d, f"output_{i}.lod.json"), out_dir / (name.replace("/", "_") + ".lod.json")
        if os.path.exists(want_lod) or os.path.exists(got_lod):  # a fetch's LoD: written beside it, as Paddle's
            assert os.path.exists(want_lod) and os.path.exists(got_lod), (name, "LoD written by one side only")
            with open(want_lod) as fw, open(got_lod) as fg:
                assert json.load(fw) == json.load(fg), (name, "LoD")
        assert got.shape == want.shape and got.dtype == want.dtype, (name, got.shape, want.shape)
        if want.dtype.kind == "f":
            # NaN and infinities must sit in the same places; the finite rest is measured
            fin = np.isfinite(want)
            assert (np.isnan(got) == np.isnan(want)).all() and (got[np.isinf(want)] == want[np.isinf(want)]).all(), name
            if fin.any():
                w, g = want[fin].astype(np.float64), got[fin].astype(np.float64)
                err = np.abs(g - w).max() / max(np.abs(w).max(), 1e-6)
                assert err <= (TOL64 if want.dtype == np.float64 else TOL), (name, str(want.dtype), err)
        else:
            assert (got == want).all(), name
    return p.stdout


@pytest.mark.parametrize("blas", ["openblas", "none"])
@pytest.mark.parametrize("name", MODELS)
def test_model_matches_paddle(fixtures_dir, tmp_path, name, blas):
    fixture = os.path.join(fixtures_dir, name)
    binary = build(fixture, tmp_path, f"--blas={blas}")
    run_binary(binary, fixture, "", tmp_path / "out")


@pytest.mark.parametrize("name", ["mlp", "lenet"])
def test_dynamic_batch_1_and_8(fixtures_dir, tmp_path, name):
    """Compiled once with the batch left open; runs at batch 1, 2 and 8."""
    fixture = os.path.join(fixtures_dir, name)
    binary = build(fixture, tmp_path)
    for sub in ("b1", "", "b8"):
        run_binary(binary, fixture, sub, tmp_path / ("out" + sub))


def test_detector_keeps_what_the_scores_decide(fixtures_dir, tmp_path):
    """The PP-YOLOE-style detector ends in matrix_nms: compiled once with the
    batch open, it runs at batch 1, 2 and 3 and writes as many rows as
    Paddle kept for those images (run_binary compares the shapes), which
    differ from image to image."""
    fixture = os.path.join(fixtures_dir, "ppyoloe_nms")
    binary = build(fixture, tmp_path)
    for sub in ("b1", "", "b3"):
        run_binary(binary, fixture, sub, tmp_path / ("out" + sub))
    counts = np.load(os.path.join(fixture, "b3", "output_1.npy"))
    assert len(set(counts.tolist())) > 1, counts


@pytest.mark.parametrize("name, sub", [("lenet", "b8"), ("resnet18", ""), ("mobilenet_v2", ""), ("bert", ""),
                                       ("ppyoloe_nms", "b3")])
def test_generated_code_is_sanitizer_clean(fixtures_dir, tmp_path, monkeypatch, name, sub):
    """The emitted code and runtime, built with ASan + UBSan, run clean and
    match Paddle: LeNet (im2col, pooling, one-row products), ResNet-18
    (Winograd F4 and F2, 1x1 and strided convolutions, the fused bn+add+relu
    epilogues), MobileNetV2 (depthwise channel blocks) and the BERT encoder
    (fused attention with its mask, layer_norm, gelu), and the detector's
    matrix_nms (run-time extents, the partial sorts)."""
    monkeypatch.setitem(SAN_ENV, "CC", CC + " -fsanitize=address,undefined -fno-sanitize-recover=all -g")
    fixture = os.path.join(fixtures_dir, name)
    binary = build(fixture, tmp_path, "--blas=none")
    out = run_binary(binary, fixture, sub, tmp_path / "out")
    assert "batch " in out


def run_threads(binary, fixture, out_dir, threads, num_threads):
    """Runs the binary on the fixture's inputs with --threads (all threads)
    and ExecutionStrategy num_threads (kernels at once); returns the outputs'
    bytes."""
    with open(os.path.join(fixture, "paddle.json")) as f:
        ref = json.load(f)
    args = [str(binary), "--threads", str(threads), "--exec-strategy", f"num_threads={num_threads}",
            "--output-dir", str(out_dir)]
    for i, name in enumerate(ref["feeds"]):
        args += ["--input", f"{name}={os.path.join(fixture, f'input_{i}.npy')}"]
    p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    return [(out_dir / (n.replace("/", "_") + ".npy")).read_bytes() for n in ref["fetches"]]


@pytest.mark.parametrize("blas", ["openblas", "none"])
@pytest.mark.parametrize("name", ["resnet18", "mobilenet_v2", "bert", "branchy"])
def test_threads_give_bitwise_identical_outputs(fixtures_dir, tmp_path, name, blas):
    """Every kernel splits its work the same way whatever the thread count
    (runtime/rt_parallel.h), and kernels that run at once touch disjoint
    memory (runtime/rt_sched.h): num_threads 2 and 4, and 2 or 4 threads
    with fewer kernels at once, give the bytes of 1 thread.  The models
    cover GEMM (split by blocks), im2col, Winograd, 1x1 and depthwise
    convolutions, and independent branches."""
    fixture = os.path.join(fixtures_dir, name)
    binary = build(fixture, tmp_path, f"--blas={blas}")
    outs = {}
    for t, nt in ((1, 1), (2, 2), (4, 4), (2, 1), (4, 2)):
        (tmp_path / f"t{t}_{nt}").mkdir()
        outs[t, nt] = run_threads(binary, fixture, tmp_path / f"t{t}_{nt}", t, nt)
    assert all(o == outs[1, 1] for o in outs.values())


@pytest.mark.parametrize("name", ["resnet18", "branchy", "mobilenet_v2", "bert"])
def test_thread_pool_is_race_free(fixtures_dir, tmp_path, monkeypatch, name):
    """The generated code, the worker pool and the scheduler under
    ThreadSanitizer: 3 threads, up to 3 kernels at once, on ResNet-18
    (portable kernels: every parallel kernel kind, Winograd), the branchy
    block, MobileNetV2 (depthwise channel blocks) and BERT (attention)."""
    monkeypatch.setitem(SAN_ENV, "CC", CC + " -fsanitize=thread -g")
    monkeypatch.setitem(SAN_ENV, "CFLAGS", "-O1")
    monkeypatch.setenv("TSAN_OPTIONS", "halt_on_error=1:exitcode=97")
    fixture = os.path.join(fixtures_dir, name)
    binary = build(fixture, tmp_path, "--blas=none")
    (tmp_path / "out").mkdir()
    run_threads(binary, fixture, tmp_path / "out", 3, 3)

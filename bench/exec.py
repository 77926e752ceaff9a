"""Benchmark (not a test) of the runtime scheduler: the paddlec binary on 1 and
2 threads against Paddle Inference on the same thread count.

    .venv/bin/python bench/exec.py [MODEL ...] [--repeat N]

Models: googlenet and inception_v3 from paddle.vision.models (random init,
paddle.seed(0), exported with paddle.jit.save into build/bench/models/<name>/
unless already there, with a batch-1 input and Paddle's Executor outputs on
the saved files as references), and the BERT-style fixture build/fixtures/bert
(from tests/oracle/make_fixtures.py).  Each binary is built with
--march=native and run with `--threads T --exec-strategy num_threads=N`: 1/1,
2/1 (two threads inside kernels, one kernel at a time) and 2/2 (up to two
kernels at once).
Its outputs are checked against Paddle's (max |got - want| / max |want|)."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np

from run import BUILD, FIXTURES, PADDLEC

OUT = os.path.join(BUILD, "bench", "exec")
EXPORTED = {"googlenet": 224, "inception_v3": 299}  # input height = width
MODELS = ["googlenet", "inception_v3", "bert"]
TOL = 1e-4


def export(name, d):
    """Exports the model as users do, then records a fixture like make_fixtures.py's:
    input_0.npy, Paddle's Executor outputs output_<i>.npy, paddle.json (feeds, fetches)."""
    import paddle

    prefix, hw = os.path.join(d, "model"), EXPORTED[name]
    if not os.path.exists(prefix + ".pdmodel"):
        paddle.seed(0)
        layer = getattr(paddle.vision.models, name)()
        layer.eval()
        spec = [paddle.static.InputSpec([None, 3, hw, hw], "float32", "x")]
        paddle.jit.save(paddle.jit.to_static(layer, input_spec=spec), prefix)
    paddle.enable_static()
    try:
        exe = paddle.static.Executor(paddle.CPUPlace())
        prog, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        x = np.random.default_rng(0).standard_normal((1, 3, hw, hw)).astype(np.float32)
        np.save(os.path.join(d, "input_0.npy"), x)
        for i, o in enumerate(exe.run(prog, feed={feeds[0]: x}, fetch_list=fetches)):
            np.save(os.path.join(d, f"output_{i}.npy"), np.asarray(o))
        with open(os.path.join(d, "paddle.json"), "w") as f:
            json.dump({"feeds": feeds, "fetches": [v.name for v in fetches]}, f, indent=1)
    finally:
        paddle.disable_static()


def fixture(name):
    """The model's directory, its batch-1 inputs [(feed, path)] and references [(fetch, array)]."""
    d = os.path.join(FIXTURES if name == "bert" else os.path.join(BUILD, "bench", "models"), name)
    if name == "bert":  # a no-op when the fixture exists
        subprocess.run([sys.executable, os.path.join(os.path.dirname(BUILD), "tests", "oracle", "make_fixtures.py"),
                        FIXTURES, name], check=True, capture_output=True)
    elif not os.path.exists(os.path.join(d, "paddle.json")):
        os.makedirs(d, exist_ok=True)
        export(name, d)
    with open(os.path.join(d, "paddle.json")) as f:
        spec = json.load(f)
    inputs = []
    for i, feed in enumerate(spec["feeds"]):  # as run.batch1_inputs, for any directory
        p = os.path.join(OUT, f"{name}_in_{i}.npy")
        np.save(p, np.load(os.path.join(d, f"input_{i}.npy"))[:1])
        inputs.append((feed, p))
    refs = [(fetch, np.load(os.path.join(d, f"output_{i}.npy"))[:1]) for i, fetch in enumerate(spec["fetches"])]
    return d, inputs, refs


def paddlec_run(binary, inputs, threads, num_threads, repeat, refs):
    """Median latency (ms) and max relative error of the outputs against Paddle's."""
    out_dir = os.path.join(OUT, "out")
    shutil.rmtree(out_dir, ignore_errors=True)  # models share fetch names: no stale outputs
    args = [binary, "--output-dir", out_dir, "--repeat", str(repeat), "--threads", str(threads),
            "--exec-strategy", f"num_threads={num_threads}"]
    for feed, p in inputs:
        args += ["--input", f"{feed}={p}"]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    ms = float(re.search(r"latency over \d+ runs: median ([0-9.]+) ms", out).group(1))
    err = 0.0
    for fetch, want in refs:  # the binary writes D/<fetch name, '/' -> '_'>.npy
        got = np.load(os.path.join(out_dir, fetch.replace("/", "_") + ".npy"))
        err = max(err, float(np.abs(got - want).max() / max(np.abs(want).max(), 1e-6)))
    return ms, err


def paddle_run(d, inputs, threads, repeat):
    out = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "paddle_infer.py"), d, str(threads),
                          str(repeat)] + [f"{feed}={p}" for feed, p in inputs],
                         check=True, capture_output=True, text=True).stdout
    return float(re.search(r"median_ms ([0-9.]+)", out).group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("models", nargs="*", metavar="MODEL", help=", ".join(MODELS) + " (default: all)")
    ap.add_argument("--repeat", type=int, default=20)
    a = ap.parse_args()
    unknown = [m for m in a.models if m not in MODELS]
    if unknown:
        ap.error(f"unknown model {', '.join(unknown)}; choose from {', '.join(MODELS)}")
    a.models = a.models or MODELS
    os.makedirs(OUT, exist_ok=True)
    print("| model | paddlec 1t ms | 2t, num_threads=1 ms | 2t, num_threads=2 ms | speedup 2/1 | Paddle 1t ms "
          "| Paddle 2t ms | paddlec/Paddle 1t | paddlec/Paddle 2t | max rel err |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in a.models:
        d, inputs, refs = fixture(name)
        binary = os.path.join(OUT, name)
        r = subprocess.run([PADDLEC, "build", os.path.join(d, "model.pdmodel"), "-o", binary, "--march=native"],
                           capture_output=True, text=True)
        if r.returncode:
            lines = r.stderr.strip().splitlines()
            print(f"| {name} | paddlec build failed: {next((l for l in lines if 'error' in l), lines[-1])} |", flush=True)
            continue
        ours, errs = zip(*(paddlec_run(binary, inputs, t, nt, a.repeat, refs) for t, nt in ((1, 1), (2, 1), (2, 2))))
        theirs = [paddle_run(d, inputs, t, a.repeat) for t in (1, 2)]
        err = max(errs)
        print(f"| {name} | {ours[0]:.3f} | {ours[1]:.3f} | {ours[2]:.3f} | {ours[0] / ours[2]:.2f} | {theirs[0]:.3f} "
              f"| {theirs[1]:.3f} | {ours[0] / theirs[0]:.2f} | {ours[2] / theirs[1]:.2f} "
              f"| {err:.1e}{'' if err <= TOL else ' FAIL'} |", flush=True)


if __name__ == "__main__":
    main()

"""Benchmarks (not tests): paddlec's compiled models against Paddle Inference
on the same inputs, and paddlec's GEMM against OpenBLAS.

    .venv/bin/python bench/run.py [MODEL ...] [--repeat N]

For each model (fixtures from tests/oracle/make_fixtures.py) at batch 1 with 1
and 2 threads: the median latency of the paddlec binary (built with
--march=native, OpenBLAS) and of Paddle Inference in its fastest CPU
configuration (ir_optim on; the faster of enable_mkldnn() and native), printed
as a ratio table (ratio = paddlec / Paddle: below 1 is faster)."""
import argparse
import os
import re
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
FIXTURES = os.path.join(BUILD, "fixtures")
MODELS = ["mlp", "lenet", "resnet18", "resnet50", "mobilenet_v1", "mobilenet_v2", "mobilenet_v3", "bert"]


def batch1_inputs(name, out_dir):
    import json
    with open(os.path.join(FIXTURES, name, "paddle.json")) as f:
        feeds = json.load(f)["feeds"]
    paths = []
    for i, feed in enumerate(feeds):
        x = np.load(os.path.join(FIXTURES, name, f"input_{i}.npy"))[:1]
        p = os.path.join(out_dir, f"in_{i}.npy")
        np.save(p, x)
        paths.append((feed, p, x))
    return paths


def paddlec_latency(name, inputs, threads, repeat, out_dir):
    binary = os.path.join(out_dir, name)
    if threads == 1:  # build once per run, never reuse a stale binary
        subprocess.run([os.path.join(BUILD, "paddlec"), "build", os.path.join(FIXTURES, name, "model.pdmodel"),
                        "-o", binary], check=True, capture_output=True)
    args = [binary, "--output-dir", out_dir, "--repeat", str(repeat), "--threads", str(threads)]
    for feed, p, _ in inputs:
        args += ["--input", f"{feed}={p}"]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return float(re.search(r"median ([0-9.]+) ms", out).group(1))


def paddle_latency(name, inputs, threads, repeat):
    import paddle.inference as pi
    best = None
    for mkldnn in (True, False):
        cfg = pi.Config(os.path.join(FIXTURES, name, "model.pdmodel"), os.path.join(FIXTURES, name, "model.pdiparams"))
        cfg.disable_gpu()
        cfg.switch_ir_optim(True)
        cfg.set_cpu_math_library_num_threads(threads)
        cfg.disable_glog_info()
        if mkldnn:
            cfg.enable_mkldnn()
        pred = pi.create_predictor(cfg)
        for feed, _, x in inputs:
            pred.get_input_handle(feed).copy_from_cpu(x)
        for _ in range(3):
            pred.run()
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            pred.run()
            times.append((time.perf_counter() - t) * 1e3)
        med = float(np.median(times))
        best = med if best is None else min(best, med)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("models", nargs="*", default=MODELS)
    ap.add_argument("--repeat", type=int, default=20)
    a = ap.parse_args()
    out = os.path.join(BUILD, "bench")
    os.makedirs(out, exist_ok=True)
    subprocess.run([sys.executable, os.path.join(ROOT, "tests", "oracle", "make_fixtures.py"), FIXTURES] + a.models,
                   check=True, capture_output=True)
    print(f"{'model':14} {'thr':>3} {'paddlec ms':>11} {'Paddle ms':>10} {'ratio':>6}")
    for name in a.models:
        inputs = batch1_inputs(name, out)
        for threads in (1, 2):
            try:
                ours = paddlec_latency(name, inputs, threads, a.repeat, out)
            except subprocess.CalledProcessError as e:
                print(f"{name:14} {threads:>3} {'(does not compile: ' + e.stderr.strip().splitlines()[-1][:60] + ')'}")
                break
            theirs = paddle_latency(name, inputs, threads, a.repeat)
            print(f"{name:14} {threads:>3} {ours:11.4f} {theirs:10.4f} {ours / theirs:6.2f}")
    gemm = os.path.join(out, "gemm")
    subprocess.run(["cc", "-O3", "-march=native", "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-I", os.path.join(ROOT, "runtime"),
                    os.path.join(ROOT, "bench", "gemm.c"), os.path.join(ROOT, "runtime", "rt_gemm.c"),
                    os.path.join(ROOT, "runtime", "rt_parallel.c"), "-lopenblas", "-pthread", "-o", gemm], check=True)
    print(subprocess.run([gemm, "2048"], check=True, capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()

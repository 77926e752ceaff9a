"""Benchmarks (not tests): paddlec's compiled models against Paddle Inference
on the same inputs, and paddlec's GEMM against OpenBLAS.

    .venv/bin/python bench/run.py [MODEL ...] [--repeat N] [--passes] [--isa avx2]

Table 1, for each model (fixtures from tests/oracle/make_fixtures.py) at
batch 1 with 1 and 2 threads: the median latency of the paddlec binary
(built with --march=native, OpenBLAS, the default passes) and of Paddle
Inference in its fastest CPU configuration (ir_optim on; the faster of
enable_mkldnn() and native), and their ratio (paddlec / Paddle: below 1 is
faster).  With --passes, table 2, at batch 1 on 1 thread: latency and arena
bytes with no passes, with each pass alone (those that change the model's
code) and with the default set, the arena's lower bound, and the peak
resident memory of the paddlec binary against Paddle Inference's process
(which includes the Python interpreter; nothing else runs Paddle here).
Then the single-thread GFLOP/s of paddlec's portable GEMM against OpenBLAS
sgemm on a 2048-cube product, and of its prepared-weights GEMM (rt_pp_gemm)
against sgemm on the few-column products of ResNet-50's late layers, and
of its wide GEMM (rt_wide_gemm) against sgemm on transformer linear layers.

--isa avx2 measures both sides as on a CPU without AVX-512 (the machines
the project targets first), on this one: paddlec built with
--march=haswell, OpenBLAS's Haswell kernels (OPENBLAS_CORETYPE), oneDNN and
MKL capped at AVX2 (ONEDNN_MAX_CPU_ISA, MKL_ENABLE_INSTRUCTIONS) for
Paddle."""
import argparse
import json
import os
import re
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
FIXTURES = os.path.join(BUILD, "fixtures")
PADDLEC = os.path.join(BUILD, "paddlec")
# --isa: extra build options for paddlec, and the environment of both sides
ISA = {"native": ([], {}),
       "avx2": (["--march=haswell"], {"OPENBLAS_CORETYPE": "Haswell", "ONEDNN_MAX_CPU_ISA": "AVX2",
                                      "DNNL_MAX_CPU_ISA": "AVX2", "MKL_ENABLE_INSTRUCTIONS": "AVX2"})}
BUILD_OPTS, RUN_ENV = [], dict(os.environ)
MODELS = ["mlp", "lenet", "resnet18", "resnet50", "mobilenet_v1", "mobilenet_v2", "mobilenet_v3", "bert",
          "ppyoloe_nms"]


def batch1_inputs(name, out_dir):
    with open(os.path.join(FIXTURES, name, "paddle.json")) as f:
        feeds = json.load(f)["feeds"]
    paths = []
    for i, feed in enumerate(feeds):
        x = np.load(os.path.join(FIXTURES, name, f"input_{i}.npy"))[:1]
        p = os.path.join(out_dir, f"{name}_in_{i}.npy")
        np.save(p, x)
        paths.append((feed, p))
    return paths


def build(name, binary, options):
    subprocess.run([PADDLEC, "build", os.path.join(FIXTURES, name, "model.pdmodel"), "-o", binary] + BUILD_OPTS +
                   options, check=True, capture_output=True)


def paddlec_run(binary, inputs, threads, repeat, out_dir):
    """Median latency (ms) and the binary's peak resident memory (KiB)."""
    args = [binary, "--output-dir", out_dir, "--repeat", str(repeat), "--threads", str(threads)]
    for feed, p in inputs:
        args += ["--input", f"{feed}={p}"]
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=RUN_ENV)
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)  # this child's own peak resident memory
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode:
        raise subprocess.CalledProcessError(p.returncode, args)
    return float(re.search(r"median ([0-9.]+) ms", out).group(1)), usage.ru_maxrss


def paddle_run(name, inputs, threads, repeat):
    """Median latency (ms), peak resident memory (KiB) and configuration of Paddle Inference."""
    out = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "paddle_infer.py"),
                          os.path.join(FIXTURES, name), str(threads), str(repeat)] +
                         [f"{feed}={p}" for feed, p in inputs], check=True, capture_output=True, text=True,
                         env=RUN_ENV).stdout
    m = re.search(r"median_ms ([0-9.]+) maxrss_kb (\d+) config (\w+)", out)
    return float(m.group(1)), int(m.group(2)), m.group(3)


def arena(name, options):
    """Arena bytes and lower bound at batch 1 (inspect --memory)."""
    out = subprocess.run([PADDLEC, "inspect", os.path.join(FIXTURES, name, "model.pdmodel"), "--memory"] + options,
                         check=True, capture_output=True, text=True).stdout
    a = int(re.search(r"^  arena +(\d+)", out, re.M).group(1))
    lb = int(re.search(r"^  lower bound +(\d+)", out, re.M).group(1))
    return a, lb


def pass_names():
    err = subprocess.run([PADDLEC, "opt", "-", "--passes=?"], capture_output=True, text=True).stderr
    return err.split("the passes are: ")[1].strip().split(", ")


def generated(name, options, out_dir):
    d = os.path.join(out_dir, "gen")
    subprocess.run([PADDLEC, "compile", os.path.join(FIXTURES, name, "model.pdmodel"), "-o", d] + options, check=True,
                   capture_output=True)
    text = open(os.path.join(d, "model.c")).read()
    return text[text.index("*/"):]


def table1(models, repeat, out):
    print(f"{'model':14} {'thr':>3} {'paddlec ms':>11} {'Paddle ms':>10} {'ratio':>6}  Paddle config")
    for name in models:
        inputs = batch1_inputs(name, out)
        binary = os.path.join(out, name)
        build(name, binary, [])
        for threads in (1, 2):
            ours, _ = paddlec_run(binary, inputs, threads, repeat, out)
            theirs, _, cfg = paddle_run(name, inputs, threads, repeat)
            print(f"{name:14} {threads:>3} {ours:11.4f} {theirs:10.4f} {ours / theirs:6.2f}  {cfg}", flush=True)


def table2(models, repeat, out):
    passes = pass_names()
    print(f"\n{'model':14} {'variant':26} {'ms':>9} {'arena B':>11} {'ratio':>6}")
    for name in models:
        inputs = batch1_inputs(name, out)
        base = generated(name, ["--passes=none"], out)
        variants = [("none", ["--passes=none"])]
        variants += [(p, [f"--passes={p}"]) for p in passes if generated(name, [f"--passes={p}"], out) != base]
        variants += [("default", [])]
        theirs, prss, cfg = paddle_run(name, inputs, 1, repeat)
        rss = None
        for label, opts in variants:
            binary = os.path.join(out, f"{name}_{label}")
            build(name, binary, opts)
            ms, r = paddlec_run(binary, inputs, 1, repeat, out)
            a, lb = arena(name, opts)
            if label == "default":
                rss = r
            print(f"{name:14} {label:26} {ms:9.4f} {a:11d} {ms / theirs:6.2f}", flush=True)
        print(f"{name:14} {'Paddle Inference (' + cfg + ')':26} {theirs:9.4f}", flush=True)
        print(f"{name:14} arena / lower bound {a / lb if lb else 1:.3f}; peak RSS paddlec {rss} KiB, "
              f"Paddle {prss} KiB ({(rss or 0) / prss:.2f})", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("models", nargs="*", default=MODELS)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--passes", action="store_true", help="also the per-pass table")
    ap.add_argument("--isa", choices=sorted(ISA), default="native", help="avx2: both sides without AVX-512")
    a = ap.parse_args()
    BUILD_OPTS[:] = ISA[a.isa][0]
    RUN_ENV.update(ISA[a.isa][1])
    out = os.path.join(BUILD, "bench")
    os.makedirs(out, exist_ok=True)
    subprocess.run([sys.executable, os.path.join(ROOT, "tests", "oracle", "make_fixtures.py"), FIXTURES] + a.models,
                   check=True, capture_output=True)
    table1(a.models, a.repeat, out)
    if a.passes:
        table2(a.models, a.repeat, out)
    gemm = os.path.join(out, "gemm")
    subprocess.run([os.environ.get("CC") or "clang", "-O3", "-march=haswell" if a.isa == "avx2" else "-march=native", "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-I", os.path.join(ROOT, "runtime"),
                    os.path.join(ROOT, "bench", "gemm.c"), os.path.join(ROOT, "runtime", "rt_gemm.c"),
                    os.path.join(ROOT, "runtime", "rt_ppgemm.c"), os.path.join(ROOT, "runtime", "rt_wide.c"),
                    os.path.join(ROOT, "runtime", "rt_parallel.c"), os.path.join(ROOT, "runtime", "rt_sched.c"),
                    os.path.join(ROOT, "runtime", "rt_alloc.c"), os.path.join(ROOT, "runtime", "rt_act.c"), "-lopenblas",
                    "-pthread", "-lm", "-o", gemm], check=True)
    print(subprocess.run([gemm, "2048"], check=True, capture_output=True, text=True, env=RUN_ENV).stdout.strip())


if __name__ == "__main__":
    main()

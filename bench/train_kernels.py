"""Benchmark (not a test): the convolution kernels of a compiled CNN trainer,
forward and backward, as a fraction of this machine's single-thread sgemm
peak (OpenBLAS through numpy, a 1024^3 product).

    .venv/bin/python bench/train_kernels.py [--steps N]

The CNN (registered here, built with tests/oracle/train_cases.py's `build`,
which also checks nothing): 16x32x32 images, batch 32; three 3x3 convs
without bias (16->32, 32->32, 32->64 stride 2), each + batch_norm (training)
+ relu, global average pool, fc to 10, softmax cross-entropy, Momentum.  The
trainer is built with -DPADDLEC_PROFILE (per-kernel times), one thread.
FLOPs per conv: 2 * N * Cout * Ho * Wo * Cin * 9 for the forward, the same
for each gradient it computes (Filter@GRAD always, Input@GRAD except for the
first conv, whose input is data)."""
import argparse
import os
import re
import subprocess
import sys
import time

os.environ.update(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1", CPU_NUM="1")
import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
sys.path.insert(0, os.path.join(ROOT, "tests", "oracle"))
N, HW = 32, 32
CONVS = [(16, 32, 1), (32, 32, 1), (32, 64, 2)]  # Cin, Cout, stride


def bench_cnn():
    import paddle
    F = paddle.nn.functional
    h = paddle.static.data("x", [None, 16, HW, HW], "float32")
    label = paddle.static.data("label", [None, 1], "int64")
    for cin, cout, stride in CONVS:
        h = paddle.static.nn.conv2d(h, cout, 3, stride=stride, padding=1, bias_attr=False)
        h = F.relu(paddle.static.nn.batch_norm(h))
    logits = paddle.static.nn.fc(paddle.flatten(F.adaptive_avg_pool2d(h, 1), 1), 10)
    loss = paddle.mean(F.cross_entropy(logits, label))
    paddle.optimizer.Momentum(learning_rate=0.01, momentum=0.9).minimize(loss)
    return loss, N


def conv_flops():
    out, hw = [], HW
    for cin, cout, stride in CONVS:
        ho = (hw + 2 - 3) // stride + 1
        out.append(2 * N * cout * ho * ho * cin * 9)
        hw = ho
    return out


def sgemm_peak():
    a = np.random.default_rng(0).standard_normal((1024, 1024)).astype("float32")
    a @ a
    best = 1e9
    for _ in range(5):
        t = time.perf_counter()
        a @ a
        best = min(best, time.perf_counter() - t)
    return 2 * 1024 ** 3 / best / 1e9


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=20)
    a = ap.parse_args()
    import paddle
    import train_cases
    paddle.enable_static()
    train_cases.case(bench_cnn)
    out = os.path.join(BUILD, "bench", "train_kernels")
    d = os.path.join(out, "bench_cnn")
    if not os.path.exists(os.path.join(d, "paddle_loss.npy")):
        train_cases.build(out, "bench_cnn")
    src = os.path.join(out, "src")
    subprocess.run([os.path.join(BUILD, "paddlec"), "compile", os.path.join(d, "main.pdmodel"), "--startup",
                    os.path.join(d, "startup.pdmodel"), "-o", src], check=True)
    subprocess.run(["make", "-s", "-j2", "-C", src, "CC=clang", "ARCH=-march=native", "BLAS=openblas",
                    "CFLAGS=-O3 -DPADDLEC_PROFILE", "model"], check=True)
    p = subprocess.run([os.path.join(src, "model"), "--input", f"x={d}/x.npy", "--input", f"label={d}/label.npy",
                        "--batch-size", str(N), "--steps", str(a.steps), "--params", os.path.join(d, "init")],
                       capture_output=True, text=True, check=True)
    times = {name: float(ms) for ms, name in re.findall(r"^\s*([0-9.]+)\s+[0-9.]+%\s+(\w+)$", p.stdout, re.M)}
    fwd = sorted(k for k in times if re.search(r"_k\d+_conv2d$", k))
    bwd = sorted(k for k in times if re.search(r"_k\d+_conv2d_grad$", k))
    flops, peak = conv_flops(), sgemm_peak()
    step = float(re.search(r"median step ([0-9.]+) ms", p.stdout).group(1))
    print(f"sgemm peak (1 thread): {peak:.1f} GFLOP/s; trainer median step {step:.3f} ms, "
          f"kernels {sum(times.values()):.3f} ms per step")
    print(f"{'kernel':34s} {'ms':>8s} {'GFLOP/s':>8s} {'of peak':>8s}")
    rows = [(k, f) for k, f in zip(fwd, flops)] + [(k, f * (2 if i else 1)) for i, (k, f) in
                                                    enumerate(zip(reversed(bwd), flops))]
    for k, f in rows:
        g = f / (times[k] * 1e-3) / 1e9
        print(f"{k:34s} {times[k]:8.3f} {g:8.1f} {g / peak:8.0%}")
    tot_f = sum(f for _, f in rows)
    tot_t = sum(times[k] for k, _ in rows)
    print(f"{'all convolutions':34s} {tot_t:8.3f} {tot_f / (tot_t * 1e-3) / 1e9:8.1f} "
          f"{tot_f / (tot_t * 1e-3) / 1e9 / peak:8.0%}  ({tot_t / sum(times.values()):.0%} of the kernels' time)")


if __name__ == "__main__":
    main()

"""Benchmark (not a test) of data-parallel trainers (issue 17): samples per
second of one trainer on 1 place and on 2 places, and of 2 MPI processes of
1 place each, on the training fixtures of tests/oracle/train_cases.py (built
in build/train/ by tests/test_train.py).

    .venv/bin/python bench/data_parallel.py [CASE ...] [--steps N] [--batch B]

Each configuration trains the same batches from the same state (`--params
init`), median step time over N steps; samples per second = B / step.  The
trainers are `paddlec build --march=native --mpi` (OpenBLAS single-threaded:
the trainer sets it).  Configurations:

  1p x 1t   one place, one thread (Paddle's Executor's setting)
  1p x 2t   one place, 2 threads (kernels and their tasks on 2 threads)
  2p x 2t   two places at once, one thread each (the 2-core target: >= 1.8x
            the samples per second of 1p x 2t)
  2 procs   mpirun -np 2, one place and one thread each

It also prints the bytes each step all-reduces (every gradient of the
program), for the cost model in bench/README.md."""
import argparse
import os
import re
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
PADDLEC = os.path.join(BUILD, "paddlec")
MPIRUN = ["mpirun", "--allow-run-as-root", "--oversubscribe"]


def case_dir(name):
    return os.path.join(BUILD, "train", name)


def step_ms(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, env=env)
    if p.returncode:
        raise RuntimeError(p.stdout[-1000:] + p.stderr[-2000:])
    return float(re.search(r"median step ([0-9.e+-]+) ms", p.stdout).group(1))


def grad_bytes(d):
    """Bytes of the gradients the places sum: the op_role_var pairs of the
    backward ops (what `paddlec inspect` counts)."""
    os.environ.setdefault("FLAGS_enable_pir_api", "0")
    import paddle
    paddle.enable_static()
    prog = paddle.static.Program.parse_from_string(open(os.path.join(d, "main.pdmodel"), "rb").read())
    blk, seen, total = prog.global_block(), set(), 0
    for op in blk.ops:
        if op.has_attr("op_role_var") and op.attr("op_role") & 1:
            for g in op.attr("op_role_var")[1::2]:
                if g not in seen:
                    seen.add(g)
                    total += int(np.prod(blk.var(g).shape)) * 4
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cases", nargs="*", default=["cnn_bn_momentum", "transformer_adamw"])
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--batch", type=int, default=80)
    a = ap.parse_args()
    print(f"{'case':20} {'grad KB':>8} {'1p x 1t':>9} {'1p x 2t':>9} {'2p x 2t':>9} {'2 procs':>9}   "
          f"(samples/s; x: over 1p x 2t)")
    for name in a.cases:
        d = case_dir(name)
        binary = os.path.join(BUILD, "bench_dp", name)
        os.makedirs(os.path.dirname(binary), exist_ok=True)
        p = subprocess.run([PADDLEC, "build", os.path.join(d, "main.pdmodel"), "--startup",
                            os.path.join(d, "startup.pdmodel"), "-o", binary, "--march=native", "--mpi"],
                           capture_output=True, text=True)
        if p.returncode:
            print(f"{name:20} does not build: {p.stderr.strip()[-200:]}")
            continue
        feeds = sorted(f[:-4] for f in os.listdir(d) if f.endswith(".npy") and not f.startswith("paddle"))
        base = [binary] + sum((["--input", f"{f}={os.path.join(d, f + '.npy')}"] for f in feeds), []) + \
            ["--batch-size", str(a.batch), "--steps", str(a.steps), "--params", os.path.join(d, "init")]
        env = dict(os.environ)
        env.pop("CPU_NUM", None)
        runs = {"1p x 1t": step_ms(base + ["--threads", "1"], env),
                "1p x 2t": step_ms(base + ["--threads", "2"], env),
                "2p x 2t": step_ms(base + ["--threads", "2", "--places", "2"], env),
                "2 procs": step_ms(MPIRUN + ["-np", "2"] + base + ["--threads", "1"], env)}
        sps = {k: a.batch / (v / 1e3) for k, v in runs.items()}
        ref = sps["1p x 2t"]
        cells = " ".join(f"{sps[k]:9.0f}" for k in runs)
        print(f"{name:20} {grad_bytes(d) / 1024:8.1f} {cells}   "
              f"x {sps['2p x 2t'] / ref:.2f} (2 places), x {sps['2 procs'] / ref:.2f} (2 processes)")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

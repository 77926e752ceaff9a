"""Benchmark (not a test) of compiled trainers against Paddle 2.6's static
Executor, on the training fixtures of tests/oracle/train_cases.py (built in
build/train/ by tests/test_train.py, or here when missing).

    .venv/bin/python bench/train.py [CASE ...] [--steps N]

For each case, the same batches from the same initial state: the median step
time of Paddle's Executor (exe.run of the main program with the loss
fetched, after warm-up steps; one thread: CPU_NUM=1, OMP/MKL/OpenBLAS
threads 1) and of the trainer (`paddlec build --march=native`, OpenBLAS, on
1 and 2 threads: `--threads T`), their ratios (Paddle / trainer: above 1 is
faster), and the peak resident memory of both processes (Paddle's includes
the Python interpreter).  A case of run-time sizes is built with its
--max-shape and fed as its test feeds it (with --lengths, each batch cut to
its own length, Paddle's feed too)."""
import argparse
import json
import os
import re
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
PADDLEC = os.path.join(BUILD, "paddlec")
SCRIPT = os.path.join(ROOT, "tests", "oracle", "train_cases.py")
ONE_THREAD = dict(os.environ, CPU_NUM="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")

PADDLE_RUN = r'''
import json, os, resource, sys, time
os.environ["FLAGS_enable_pir_api"] = "0"
import numpy as np, paddle
paddle.enable_static()
d, steps = sys.argv[1], int(sys.argv[2])
meta = json.load(open(os.path.join(d, "case.json")))
main = paddle.static.Program.parse_from_string(open(os.path.join(d, "main.pdmodel"), "rb").read())
exe = paddle.static.Executor(paddle.CPUPlace())
data = {k: np.load(os.path.join(d, k + ".npy")) for k in meta["feeds"]}
b = meta["batch"]
nb = min(len(a) for a in data.values()) // b
paddle.static.load(main, os.path.join(d, "init"), exe)
times = []
lengths = {n: np.load(os.path.join(d, n + ".lengths.npy")) for n in meta.get("lengths", [])}
for k in range(steps + 5):
    feed = {n: a[(k % nb) * b:(k % nb + 1) * b] for n, a in data.items()}
    for n, lens in lengths.items():  # a batch of its own length (the trainer's --lengths)
        feed[n] = feed[n][:, :int(lens[k % nb])]
    t = time.perf_counter()
    exe.run(main, feed=feed, fetch_list=[meta["loss"]])
    times.append(time.perf_counter() - t)
print(json.dumps({"ms": float(np.median(times[5:])) * 1e3,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
'''


def case_dir(name):
    d = os.path.join(BUILD, "train", name)
    if not os.path.exists(os.path.join(d, "case.json")):
        subprocess.run([sys.executable, SCRIPT, os.path.dirname(d), name], check=True, capture_output=True)
    return d


def paddle_step(d, steps):
    p = subprocess.run([sys.executable, "-c", PADDLE_RUN, d, str(steps)], capture_output=True, text=True,
                       env=ONE_THREAD, check=True)
    return json.loads(p.stdout.strip().splitlines()[-1])


def trainer_step(d, binary, steps, threads):
    meta = json.load(open(os.path.join(d, "case.json")))
    args = [binary, "--params", os.path.join(d, "init"), "--batch-size", str(meta["batch"]), "--steps",
            str(steps), "--threads", str(threads)]
    for f in meta["feeds"]:
        args += ["--input", f"{f}={os.path.join(d, f + '.npy')}"]
    for f in meta.get("lengths", []):
        args += ["--lengths", f"{f}={os.path.join(d, f + '.lengths.npy')}"]
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ONE_THREAD)
    stdout = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    assert status == 0, p.stderr.read()
    ms = float(re.search(r"median step ([0-9.e+-]+) ms", stdout).group(1))
    return ms, usage.ru_maxrss / 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cases", nargs="*")
    ap.add_argument("--steps", type=int, default=200)
    a = ap.parse_args()
    names = a.cases or [x or y for x, y in re.findall(r"^@case\ndef (\w+)\(|^_lr_case\(\"(\w+)\"",
                                                      open(SCRIPT).read(), re.M)]
    out = os.path.join(BUILD, "bench", "train")
    os.makedirs(out, exist_ok=True)
    print(f"{'case':28} {'paddle ms':>10} {'ours 1t':>9} {'ours 2t':>9} {'x 1t':>7} {'x 2t':>7} "
          f"{'paddle MB':>10} {'ours MB':>8}")
    for name in names:
        d = case_dir(name)
        binary = os.path.join(out, name)
        flags = json.load(open(os.path.join(d, "case.json"))).get("flags", [])  # --shape, --max-shape
        p = subprocess.run([PADDLEC, "build", os.path.join(d, "main.pdmodel"), "--startup",
                            os.path.join(d, "startup.pdmodel"), "-o", binary] + flags, capture_output=True, text=True)
        if p.returncode:
            print(f"{name:28} does not build: {p.stderr.strip().splitlines()[-1][:80]}")
            continue
        ref = paddle_step(d, a.steps)
        t1, rss = trainer_step(d, binary, a.steps, 1)
        t2, _ = trainer_step(d, binary, a.steps, 2)
        print(f"{name:28} {ref['ms']:10.4f} {t1:9.4f} {t2:9.4f} {ref['ms'] / t1:7.1f} {ref['ms'] / t2:7.1f} "
              f"{ref['rss_mb']:10.0f} {rss:8.1f}")


if __name__ == "__main__":
    main()

"""Random numbers bit for bit: each case of tests/oracle/random_cases.py
(uniform_random, gaussian_random, truncated_gaussian_random with their own
seeds and from the global generator, the startup programs of Paddle's
initializers, training dropout and dropout_grad, training rrelu and
rrelu_grad) is compiled,
run (with --seed S when the reference ran after paddle.seed(S)) on one and
on three threads, and every fetched tensor must equal Paddle's exactly; so
must the second of two runs (the generator goes on) and a run without
--seed (the model's default seed, paddle.seed(0))."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import BUILD, ROOT, SAN_ENV, generated
from test_e2e import build
from test_e2e_ops import case_flags

SCRIPT = os.path.join(ROOT, "tests", "oracle", "random_cases.py")
OUT = os.path.join(BUILD, "e2e_random")


def cases():
    generated(OUT, [sys.executable, SCRIPT, OUT], [SCRIPT])
    return sorted(d for d in os.listdir(OUT) if os.path.isdir(os.path.join(OUT, d)))


def run_bitwise(binary, fixture, out_dir, threads, seeded=True, iterations=1):
    """Runs the case's binary (--seed S unless `seeded` is false, the
    model's default seed then; `iterations` runs of the program per run)
    and compares each fetch with Paddle's: output_<i>.npy, the second run's
    output_second_<i>.npy for 2 iterations, output_default_<i>.npy
    unseeded."""
    with open(os.path.join(fixture, "paddle.json")) as f:
        ref = json.load(f)
    args = [str(binary), "--output-dir", str(out_dir), "--threads", str(threads),
            "--exec-strategy", f"num_iteration_per_run={iterations}"]
    for i, name in enumerate(ref["feeds"]):
        args += ["--input", f"{name}={os.path.join(fixture, f'input_{i}.npy')}"]
    if ref["seed"] is not None and seeded:
        args += ["--seed", str(ref["seed"])]
    tag = "second_" if iterations == 2 else "" if seeded or ref["seed"] is None else "default_"
    p = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    for i, name in enumerate(ref["fetches"]):
        want = np.load(os.path.join(fixture, f"output_{tag}{i}.npy"))
        got = np.load(out_dir / (name.replace("/", "_") + ".npy"))
        assert got.dtype == want.dtype and got.shape == want.shape, (name, got.dtype, got.shape, want.shape)
        assert np.array_equal(got, want, equal_nan=got.dtype.kind == "f"), (name, int((got != want).sum()), got.ravel()[:4], want.ravel()[:4])


@pytest.mark.parametrize("name", cases())
def test_random_bitwise(name, tmp_path, monkeypatch):
    monkeypatch.setitem(SAN_ENV, "CFLAGS", "-O1 -DPADDLEC_POISON_ARENA")
    fixture = os.path.join(OUT, name)
    binary = build(fixture, tmp_path, "--blas=none", *case_flags(fixture))
    for threads in (1, 3):
        run_bitwise(binary, fixture, tmp_path / f"out{threads}", threads)
    run_bitwise(binary, fixture, tmp_path / "second", 1, iterations=2)
    run_bitwise(binary, fixture, tmp_path / "default", 1, seeded=False)

"""Passes never change results beyond float rounding (DESIGN.md section 5).

Every end-to-end model is built with no passes (--passes=none), with each
pass alone, and with the default set; each optimized build must match the
unoptimized one (max relative error <= 1e-5, NaNs in the same places) and
Paddle (the measure of tests/test_e2e.py).  A pass whose generated code is
byte-for-byte the unoptimized code on a model does not fire there and is not
built again.  Every pass must change at least one model, alone or within the
default set (`paddlec opt --dump-after=all` counts its rewrites), or this test would
prove nothing about it."""
import os
import re
import subprocess

import numpy as np
import pytest

from conftest import SAN_ENV, run
from test_e2e import MODELS, run_binary

TOL = 1e-5


def pass_names():
    p = run(["opt", "-", "--passes=?"])
    return p.stderr.split("the passes are: ")[1].strip().split(", ")


def kernels(src_dir):
    """The generated model without its banner (which names the options)."""
    text = open(os.path.join(src_dir, "model.c")).read()
    return text[text.index("*/") + 2:]


def outputs(d):
    return {f: np.load(os.path.join(d, f)) for f in sorted(os.listdir(d)) if f.endswith(".npy")}


def close(got, want):
    if want.dtype.kind != "f":
        return (got == want).all()
    if not (np.isnan(got) == np.isnan(want)).all():
        return False
    fin = np.isfinite(want)
    if not fin.any():
        return True
    w, g = want[fin].astype(np.float64), got[fin].astype(np.float64)
    return np.abs(g - w).max() / max(np.abs(w).max(), 1e-6) <= TOL


@pytest.mark.parametrize("name", MODELS)
def test_each_pass_alone_and_all_match_the_unoptimized_build(fixtures_dir, tmp_path, name):
    fixture = os.path.join(fixtures_dir, name)
    model = os.path.join(fixture, "model.pdmodel")
    variants = [("none", ["--passes=none"])] + [(p, [f"--passes={p}"]) for p in pass_names()] + [("default", [])]
    base = None
    for label, opts in variants:
        src = tmp_path / f"{label}_src"
        p = run(["compile", model, "-o", str(src)] + opts)
        assert p.returncode == 0, (label, p.stderr[-2000:])
        if label == "none":
            base_code = kernels(src)
        elif kernels(src) == base_code:
            continue  # the pass does not fire on this model
        binary = tmp_path / label
        b = subprocess.run(["make", "-s", f"-j{os.cpu_count() or 1}", "-C", str(src), f"CC={SAN_ENV['CC']}",
                            "ARCH=-march=native", "BLAS=openblas", "model"],
                           capture_output=True, text=True, env=dict(SAN_ENV, CFLAGS="-O2"))
        assert b.returncode == 0, b.stderr[-2000:]
        os.rename(src / "model", binary)
        os.rename(src / "model.pdiparams", str(binary) + ".pdiparams")
        run_binary(binary, fixture, "", tmp_path / f"out_{label}")  # against Paddle
        got = outputs(tmp_path / f"out_{label}")
        if base is None:
            base = got
            continue
        bad = [f for f in base if not close(got[f], base[f])]
        assert not bad, (label, bad)


def rewrites(model, opts):
    """pass -> rewrites it reported, from `paddlec opt --dump-after=all`."""
    p = run(["opt", model, "--dump-after=all"] + opts)
    assert p.returncode == 0, p.stderr[-2000:]
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^# IR after ([a-z_]+) \((\d+) rewrites\)$",
                                                               p.stdout, re.M)}


def test_every_pass_fires_on_some_model(fixtures_dir):
    """Each pass rewrites some model alone or within the default set (the
    IR dumps count its rewrites).  Asked of `paddlec opt`, not of the
    differential test above: pytest-xdist runs that test's models in
    several processes, none of which sees them all."""
    # the optimizer merges have no inference model to change: tests/test_train_strategy.py trains with them;
    # sync_batch_norm rewrites only training batch_norms: tests/test_data_parallel.py trains with it
    training_only = {"fuse_all_optimizer_ops", "fuse_adamw", "sync_batch_norm"}
    missing = [p for p in pass_names() if p not in training_only]
    for name in MODELS:
        model = os.path.join(fixtures_dir, name, "model.pdmodel")
        fired = {p for p, n in rewrites(model, []).items() if n > 0}
        for p in list(missing):
            if p in fired or rewrites(model, [f"--passes={p}"]).get(p, 0) > 0:
                missing.remove(p)
        if not missing:
            break
    assert not missing, f"passes that changed no model: {missing}"

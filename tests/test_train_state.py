"""A trainer compiled without its startup program (compiler/train_state.c)
starts the optimizer state as Paddle's optimizers ask their startup program
to write it, for a checkpoint without its .pdopt (PaddleOCR 1.x's
fluid.save snapshots): the state it saves after 0 steps is, bit for bit, the
.pdopt Paddle saved right after running the startup program (init.pdopt of
the training fixtures, tests/oracle/train_cases.py)."""
import json
import os
import pickle
import shutil
import subprocess

import numpy as np
import pytest

from conftest import MODELS, SAN_ENV, run
from test_train import case_dir


@pytest.mark.parametrize("name", ["mlp_adam", "transformer_adamw"])
def test_state_without_startup_is_paddles_startup_state(name, tmp_path):
    """The learning rate var Paddle's startup fills (the optimizer's float
    learning rate) is no part of the main program: without --learning-rate
    the trainer refuses to train and names it; with the value it saves
    Paddle's .pdopt."""
    d = case_dir(name)
    with open(os.path.join(d, "init.pdopt"), "rb") as f:
        want = pickle.load(f)
    lrs = [k for k in want if k.startswith("learning_rate")]
    assert len(lrs) == 1 and any("beta1_pow" in k for k in want), sorted(want)
    binary = tmp_path / "trainer"
    p = run(["build", os.path.join(d, "main.pdmodel"), "-o", str(binary)])
    assert p.returncode == 0, p.stderr[-3000:]
    shutil.copy(os.path.join(d, "init.pdparams"), tmp_path / "ck.pdparams")  # no .pdopt
    with open(os.path.join(d, "case.json")) as f:
        meta = json.load(f)
    args = [str(binary), "--params", str(tmp_path / "ck"), "--batch-size", str(meta["batch"])]
    for feed in meta["feeds"]:
        args += ["--input", f"{feed}={os.path.join(d, feed + '.npy')}"]
    p = subprocess.run(args + ["--steps", "1"], capture_output=True, text=True, timeout=600, env=SAN_ENV)
    assert p.returncode != 0 and f"the learning rate '{lrs[0]}' is unset" in p.stderr, p.stdout[-1000:] + p.stderr
    p = subprocess.run(args + ["--steps", "0", "--save", str(tmp_path / "out"), "--learning-rate",
                               repr(float(want[lrs[0]]))], capture_output=True, text=True, timeout=600, env=SAN_ENV)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    assert "ck.pdopt not found" in p.stdout and "beta powers the betas" in p.stdout, p.stdout
    with open(tmp_path / "out.pdopt", "rb") as f:
        got = pickle.load(f)
    assert sorted(got) == sorted(want)
    for k in want:
        assert np.array_equal(np.asarray(got[k]), np.asarray(want[k])), (k, got[k], want[k])


def test_fluid_lr_counter_starts_at_minus_one(tmp_path):
    """ppocr1_db_det_train's piecewise learning rate counts steps in
    @LR_DECAY_COUNTER@, which fluid's autoincreased_step_counter creates
    with Constant(begin - 1) and _decay_step_counter calls with begin 0
    (Paddle 1.8 layers/learning_rate_scheduler.py, layers/nn.py): -1, so
    that the first step's increment makes it 0.  Its beta powers are Adam's
    beta1 = 0.9 and beta2 = 0.999 (the op attributes)."""
    out = tmp_path / "out"
    p = run(["compile", os.path.join(MODELS, "ppocr1_db_det_train"), "-o", str(out)])
    assert p.returncode == 0, p.stderr[-2000:]
    code = (out / "model.c").read_text()
    assert "[0] = -1; /* @LR_DECAY_COUNTER@: the fluid decays' step counter, begin 0 - 1 */" in code
    assert code.count("[0] = 0.899999976f; /* ") == 165 and code.count("[0] = 0.999000013f; /* ") == 165

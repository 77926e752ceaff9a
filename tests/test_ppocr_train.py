"""The real training program of ../shared/models/ppocr1_db_det_train
(PaddleOCR 1.x's DB text detector, saved by fluid.save: MobileNetV3 + FPN +
DB head, 165 Adam ops, a piecewise learning rate in conditional_block
sub-blocks, a py_reader, and the DB loss's online hard example mining: top_k
with k from a tensor) builds into a trainer without a startup program,
continues from its own best_accuracy.pdparams (its .pdopt is missing: the
optimizer state starts as Paddle's optimizers start it, which the trainer
states) and gives Paddle's loss at each of 10 steps on random 640x640
images (tests/oracle/ppocr_train.py: Paddle's Executor on the same program,
reader ops replaced by feeds)."""
import os
import subprocess
import sys

import numpy as np

from conftest import BUILD, MODELS, ROOT, SAN_ENV, generated, run

STEPS = 10
LOSS_TOL = 1e-4
SCRIPT = os.path.join(ROOT, "tests", "oracle", "ppocr_train.py")
FEEDS = ("image", "shrink_map", "shrink_mask", "threshold_map", "threshold_mask")


def test_ppocr_db_trains_as_paddle(tmp_path):
    model = os.path.join(MODELS, "ppocr1_db_det_train")
    ref = os.path.join(BUILD, "ppocr_train")
    generated(ref, [sys.executable, SCRIPT, model, ref, str(STEPS), "tmp_43"], [SCRIPT])
    binary = tmp_path / "trainer"
    p = run(["build", os.path.join(model, "best_accuracy.pdmodel"), "-o", str(binary)])
    assert p.returncode == 0, p.stderr[-3000:]
    args = [str(binary), "--batch-size", "1", "--steps", str(STEPS), "--output-dir", str(tmp_path / "out"),
            "--params", os.path.join(model, "best_accuracy")]
    for f in FEEDS:
        args += ["--input", f"{f}={os.path.join(ref, f + '.npy')}"]
    p = subprocess.run(args, capture_output=True, text=True, timeout=1200, env=SAN_ENV)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    assert "best_accuracy.pdopt not found" in p.stdout and "as Paddle's optimizers start it" in p.stdout, p.stdout
    got, want = np.load(tmp_path / "out" / "tmp_43.npy").reshape(-1), np.load(os.path.join(ref, "loss.npy"))
    assert got.shape == want.shape == (STEPS,)
    err = np.abs(got.astype(np.float64) - want) / np.abs(want)
    assert err.max() <= LOSS_TOL, list(zip(got, want))

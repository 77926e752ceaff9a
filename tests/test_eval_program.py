"""An evaluation program compiled with its trainer (issue 17,
share_vars_from): `paddlec build main.pdmodel --startup s.pdmodel --eval
test.pdmodel`, test.pdmodel being main.clone(for_test=True) as Paddle's docs
make it before minimize.  The trainer's --eval-every K runs it on the
trainer's live state after every K steps; the reference is Paddle's
Executor running test.pdmodel on the checkpoint the trainer saved after the
same steps (tests/oracle/eval_reference.py): every batch's loss within 1e-5.
cnn_bn_momentum's evaluation reads batch_norm's running statistics, which
the training steps update: on 2 places, place 0's.  text_run_length's
evaluation program takes the data set's token length (--max-shape), as its
trainer does."""
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT, SAN_ENV, run
from test_data_parallel import meta_of, rel_err
from test_train import build_trainer, case_dir

REFERENCE = os.path.join(ROOT, "tests", "oracle", "eval_reference.py")
LOSS_TOL = 1e-5


def data_args(name, flag):
    d = case_dir(name)
    return [a for f in meta_of(name)["feeds"] for a in (flag, f"{f}={os.path.join(d, f + '.npy')}")]


def paddle_eval(name, checkpoint, out):
    """Paddle's per-batch losses of the evaluation program on a checkpoint."""
    d, meta = case_dir(name), meta_of(name)
    p = subprocess.run([sys.executable, REFERENCE, os.path.join(d, "test.pdmodel"), str(checkpoint), str(out),
                        "--batch", str(meta["batch"]), "--fetch", meta["loss"]] +
                       [f"{f}={os.path.join(d, f + '.npy')}" for f in meta["feeds"]],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    return np.load(out)


@pytest.mark.parametrize("name, places", [("mlp_sgd", 1), ("cnn_bn_momentum", 1), ("cnn_bn_momentum", 2),
                                         ("fixed_batch", 1), ("text_run_length", 1), ("text_run_length", 2)])
def test_eval_on_the_trainers_state(name, places, tmp_path):
    d, meta = case_dir(name), meta_of(name)
    binary = build_trainer(d, tmp_path, "--eval", os.path.join(d, "test.pdmodel"))
    out = tmp_path / "out"
    args = [str(binary), "--batch-size", str(meta["batch"]), "--params", os.path.join(d, "init"), "--output-dir",
            str(out), "--eval-every", "3", "--places", str(places)] + data_args(name, "--input") + \
        data_args(name, "--eval-input")
    for steps in (3, 6):
        p = subprocess.run(args + ["--steps", str(steps), "--save", str(tmp_path / f"s{steps}")], capture_output=True,
                           text=True, timeout=600, env=SAN_ENV)
        assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("eval ")]
    assert " * Evaluation program: " + os.path.join(d, "test.pdmodel") + ", on the trainer's state (model_eval)" in \
        open(str(binary) + "_src/model.c").read(3000)
    got = np.load(out / ("eval_" + meta["loss"].replace("/", "_") + ".npy"))
    rows = np.load(os.path.join(d, meta["feeds"][0] + ".npy")).shape[0]
    assert got.shape[:2] == (2, rows // meta["batch"]), got.shape
    assert lines[0].startswith("eval after step 3 ") and lines[1].startswith("eval after step 6 "), lines
    assert abs(float(lines[1].split()[-1]) - got[1].astype(np.float64).mean()) <= 1e-6 * abs(got[1].mean())
    for k, steps in enumerate((3, 6)):
        want = paddle_eval(name, tmp_path / f"s{steps}", tmp_path / f"ref{steps}.npy")
        assert rel_err(got[k].reshape(want.shape), want) <= LOSS_TOL, (k, got[k][:3], want[:3])
    assert not np.array_equal(got[0], got[1])  # the state moved between the evaluations


def test_eval_data_past_the_bound(tmp_path):
    """text_run_length's evaluation program (--max-shape ids=-1,16, as its
    trainer): eval data of 17 tokens a row is an error naming the input and
    the bound."""
    name = "text_run_length"
    d, meta = case_dir(name), meta_of(name)
    binary = build_trainer(d, tmp_path, "--eval", os.path.join(d, "test.pdmodel"))
    ids = np.load(os.path.join(d, "ids.npy"))
    np.save(tmp_path / "ids17.npy", np.resize(ids, (ids.shape[0], 17)))
    p = subprocess.run([str(binary), "--batch-size", str(meta["batch"]), "--steps", "1", "--eval-every", "1",
                        "--eval-input", f"ids={tmp_path / 'ids17.npy'}", "--eval-input", f"y={d}/y.npy"] +
                       data_args(name, "--input"), capture_output=True, text=True, timeout=300, env=SAN_ENV)
    assert p.returncode == 1 and f"error: input 'ids': {tmp_path / 'ids17.npy'} has shape [160, 17]; the program " \
        "feeds [rows, 1 to 16] (1 to its --max-shape bound where the run gives the dim)" in p.stderr, p.stderr


def test_eval_api_without_an_eval_program(tmp_path):
    """--eval-every on a trainer built without --eval is an error."""
    name = "mlp_sgd"
    binary = build_trainer(case_dir(name), tmp_path)
    p = subprocess.run([str(binary), "--batch-size", "8", "--steps", "1", "--eval-every", "1"] +
                       data_args(name, "--input"), capture_output=True, text=True, timeout=300, env=SAN_ENV)
    assert p.returncode == 1 and "--eval-every: no evaluation program was compiled in (paddlec build --eval)" in \
        p.stderr, p.stderr


def test_eval_program_must_match_the_trainer(tmp_path):
    """mlp_sgd's evaluation program with fit_a_line's trainer: fc_0.w_0 of
    another shape, fc_1 no state of the trainer; a training program is no
    evaluation program; missing eval data is an error."""
    d, other = case_dir("fit_a_line"), case_dir("mlp_sgd")
    base = ["build", os.path.join(d, "main.pdmodel"), "--startup", os.path.join(d, "startup.pdmodel"), "-o",
            str(tmp_path / "t")]
    p = run(base + ["--eval", os.path.join(other, "test.pdmodel")])
    assert p.returncode == 1, p.stderr
    assert "--eval: 'fc_0.w_0' is float32[16, 32] here; the training program's state is float32[13, 1]" in p.stderr
    assert "--eval: it reads 'fc_1.w_0', which is not state of the training program" in p.stderr
    p = run(base + ["--eval", os.path.join(d, "main.pdmodel")])
    assert p.returncode == 1 and "--eval: this is a training program (it has backward or optimizer ops)" in p.stderr
    binary = build_trainer(other, tmp_path, "--eval", os.path.join(other, "test.pdmodel"))
    p = subprocess.run([str(binary), "--batch-size", "8", "--steps", "1", "--eval-every", "1"] +
                       data_args("mlp_sgd", "--input"), capture_output=True, text=True, timeout=300, env=SAN_ENV)
    assert p.returncode == 1 and "no --eval-input label=FILE.npy (the evaluation program feeds it)" in p.stderr

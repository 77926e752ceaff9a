"""The real programs of ../shared/models that have no LoD inputs or control
flow (the two with LoD inputs run in tests/oracle/e2e_lod.py and
e2e_lod_rnn.py; ppocr1_crnn_rec_infer makes its LoDs itself and runs here),
compiled and run against Paddle: on their own weights where complete,
otherwise on random weights of the right shapes that Paddle ran too
(tests/oracle/real_models.py).  Same error measure as tests/test_e2e.py."""
import json
import os
import subprocess
import sys

import pytest

from conftest import BUILD, ROOT, exclusive, run
from test_e2e import run_binary

sys.path.insert(0, os.path.join(ROOT, "tests", "oracle"))
from real_models import REAL  # noqa: E402

OUT = os.path.join(BUILD, "real")


@pytest.fixture(scope="session")
def references():
    script = os.path.join(ROOT, "tests", "oracle", "real_models.py")
    with exclusive(OUT):  # the script skips the models it made before
        p = subprocess.run([sys.executable, script, OUT], capture_output=True, text=True, timeout=1800)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    return OUT


@pytest.mark.parametrize("blas", ["openblas", "none"])
@pytest.mark.parametrize("name", sorted(REAL))
def test_real_model_matches_paddle(references, tmp_path, name, blas):
    d = os.path.join(references, name)
    with open(os.path.join(d, "paddlec.json")) as f:
        cfg = json.load(f)
    args = ["build", cfg["model"], "-o", str(tmp_path / "bin"), f"--blas={blas}"]
    if cfg.get("params"):
        args += ["--params", cfg["params"]]
    for s in cfg["shape"]:
        args += ["--shape", s]
    p = run(args)
    assert p.returncode == 0, p.stderr[-3000:]
    run_binary(tmp_path / "bin", d, "", tmp_path / "out")

"""Golden emitted code: compiling the models listed in tests/golden/MODELS
must give byte-identical files to those in tests/golden/<name>/ (regenerate
with `make golden-update` and review the diff), and two compiles of the same
model give byte-identical output."""
import filecmp
import os

import pytest

from conftest import ROOT, run

GOLDEN = os.path.join(ROOT, "tests", "golden")
with open(os.path.join(GOLDEN, "MODELS")) as f:
    ENTRIES = [line.split() for line in f if line.strip()]
FILES = ["model.h", "model.c", "main.c", "Makefile"]


def compile_to(entry, out):
    name, model, *args = entry
    p = run(["compile", model, "-o", out] + args)
    assert p.returncode == 0, p.stderr


@pytest.mark.parametrize("entry", ENTRIES, ids=[e[0] for e in ENTRIES])
def test_golden(entry, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = os.path.join("build", "golden", entry[0])
    compile_to(entry, out)
    for f in FILES:
        assert filecmp.cmp(os.path.join(out, f), os.path.join(GOLDEN, entry[0], f), shallow=False), \
            f"{f} differs from tests/golden/{entry[0]}/{f} (make golden-update, then review the diff)"


def test_two_compiles_identical(tmp_path, monkeypatch):
    """The same command twice: every file byte-identical."""
    monkeypatch.chdir(ROOT)
    out = os.path.join("build", "golden", "again")
    import shutil
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(out + ".first", ignore_errors=True)
    compile_to(["x", "samples/mlp"], out)
    os.rename(out, out + ".first")
    compile_to(["x", "samples/mlp"], out)
    cmp = filecmp.dircmp(out + ".first", out)
    assert not cmp.diff_files and not cmp.left_only and not cmp.right_only
    assert not filecmp.dircmp(out + ".first/paddlec_rt", out + "/paddlec_rt").diff_files

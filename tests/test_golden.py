"""Golden emitted code: compiling the models listed in tests/golden/MODELS
(the sample MLP, with and without embedded weights, and the programs of
tests/golden/make_models.py: a CNN with batch_norm, a residual add and
pooling, a Transformer encoder layer, a training step with its startup
program) must give byte-identical files to those in tests/golden/<name>/
(every file compile writes but paddlec_rt/ and the *.pdiparams weights;
regenerate with `make golden-update` and review the diff), and two compiles
of the same model give byte-identical output."""
import filecmp
import os

import pytest

from conftest import ROOT, run

GOLDEN = os.path.join(ROOT, "tests", "golden")
with open(os.path.join(GOLDEN, "MODELS")) as f:
    ENTRIES = [line.split() for line in f if line.strip()]


def emitted(d):
    """The files of compile's output directory d that are golden."""
    return sorted(f for f in os.listdir(d) if os.path.isfile(os.path.join(d, f)) and not f.endswith(".pdiparams"))


def compile_to(entry, out):
    name, model, *args = entry
    p = run(["compile", model, "-o", out] + args)
    assert p.returncode == 0, p.stderr


@pytest.mark.parametrize("entry", ENTRIES, ids=[e[0] for e in ENTRIES])
def test_golden(entry, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = os.path.join("build", "golden", entry[0])
    import shutil
    shutil.rmtree(out, ignore_errors=True)
    compile_to(entry, out)
    files = emitted(out)
    assert files == emitted(os.path.join(GOLDEN, entry[0])), "the files compile writes changed (make golden-update)"
    for f in files:
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

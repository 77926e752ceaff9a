"""The norm_conv family (tests/oracle/e2e_norm_conv.py) beyond the default
build that tests/test_e2e_ops.py compares:

  * the grouped and depthwise convolutions, compiled also with no passes (no
    bias / activation / relu fusion), must match Paddle like the default
    build that tests/test_e2e_ops.py checks;
  * a fetch of an op output that nothing computes is refused with one error
    line naming the op and the output slot, exit status 1: an output that
    save_inference_model dropped (instance_norm's SavedMean, norm's Norm,
    dropout's Mask: Paddle's executor stops there too), or one the op leaves
    unwritten in inference (norm's Norm and dropout's Mask at is_test)."""
import os
import subprocess
import sys

import pytest

from conftest import ROOT, SAN_ENV
from test_bad_input import bad
from test_e2e import build, run_binary
from test_e2e_ops import cases

SCRIPT = os.path.join(ROOT, "tests", "oracle", "e2e_norm_conv.py")


@pytest.mark.parametrize("passes", ["--passes=none", "--ir-optim=false"])
def test_grouped_convolutions_without_fusion(passes, tmp_path, monkeypatch):
    monkeypatch.setitem(SAN_ENV, "CFLAGS", "-O1 -DPADDLEC_POISON_ARENA")
    out, names = cases("norm_conv")
    names = [n for n in names if n.startswith("conv_")]
    assert len(names) == 3, names
    for name in names:
        d = tmp_path / name
        d.mkdir()
        binary = build(os.path.join(out, name), d, "--blas=none", passes)
        run_binary(binary, os.path.join(out, name), "", d / "out")


@pytest.fixture(scope="module")
def refused(tmp_path_factory):
    d = tmp_path_factory.mktemp("refused")
    p = subprocess.run([sys.executable, SCRIPT, str(d), "--refused"], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    return d


@pytest.mark.parametrize("name, must", [
    ("instance_norm_dropped", ["input X reads 'instance_norm_", "output SavedMean or SavedVariance",
                               "op 1 (instance_norm)", "save_inference_model drops"]),
    ("norm_dropped", ["output Norm of block 0 op 1 (norm)", "Tensor holds no memory"]),
    ("dropout_mask_dropped", ["(cast -> ", "output Mask of block 0 op 1 (dropout)"]),
    ("norm_is_test", ["(norm -> ", "output Norm (", "is_test"]),
    ("dropout_mask_is_test", ["(dropout -> ", "output Mask (", "not computed by paddlec's dropout kernel",
                              "reads it"]),
])
def test_unwritten_output_is_refused(refused, tmp_path, name, must):
    bad(["build", str(refused / name / "model.pdmodel"), "-o", str(tmp_path / "bin"), "--blas=none"], *must)
    assert not (tmp_path / "bin").exists()

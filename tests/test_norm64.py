"""The float64 normalizations (tests/oracle/e2e_grad_norm64.py) beyond the
default build that tests/test_e2e_ops.py compares:

  * the batch_norm fusions take float32 batch_norms only: asked for
    (fuse_bn_act_ops, fuse_bn_add_act_ops), they leave a float64 one as it
    is, and the build still matches Paddle;
  * what float64 does not cover is refused with one error line naming the
    op, exit status 1: sync_batch_norm of a training batch_norm (its sums
    kernels are float32's) and channel-last group_norm."""
import os
import subprocess
import sys

import pytest

from conftest import ROOT, SAN_ENV
from test_bad_input import bad
from test_e2e import build, run_binary
from test_e2e_ops import cases

SCRIPT = os.path.join(ROOT, "tests", "oracle", "e2e_grad_norm64.py")


def test_bn_fusions_leave_float64_alone(tmp_path, monkeypatch):
    monkeypatch.setitem(SAN_ENV, "CFLAGS", "-O1 -DPADDLEC_POISON_ARENA")
    out, _ = cases("grad_norm64")
    case = os.path.join(out, "bn_grad_relu")
    binary = build(case, tmp_path, "--blas=none", "--build-strategy", "fuse_bn_act_ops=true,fuse_bn_add_act_ops=true")
    run_binary(binary, case, "", tmp_path / "out")
    src = "".join(open(os.path.join(tmp_path, "model_bin_src", f)).read()
                  for f in os.listdir(tmp_path / "model_bin_src") if f.endswith(".c"))
    assert "rt_batch_norm_train_f64(" in src and "rt_batch_norm_grad_f64(" in src
    assert "fused_batch_norm_act" not in src


def test_sync_batch_norm_of_float64_is_refused(tmp_path):
    out, _ = cases("grad_norm64")
    bad(["build", os.path.join(out, "bn_grad_relu", "model.pdmodel"), "-o", str(tmp_path / "bin"), "--blas=none",
         "--build-strategy", "sync_batch_norm=true"],
        "(batch_norm -> ", "sync_batch_norm of float64 tensors is not supported")
    assert not (tmp_path / "bin").exists()


@pytest.fixture(scope="module")
def refused(tmp_path_factory):
    d = tmp_path_factory.mktemp("refused")
    p = subprocess.run([sys.executable, SCRIPT, str(d), "--refused"], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    return d


def test_channel_last_group_norm_of_float64_is_refused(refused, tmp_path):
    bad(["build", str(refused / "group_norm_nhwc" / "model.pdmodel"), "-o", str(tmp_path / "bin"), "--blas=none"],
        "(group_norm -> ", "group_norm of float64 tensors with data_layout NHWC is not supported")
    assert not (tmp_path / "bin").exists()

"""The fusion passes on float64 programs (issue 16).  Every fused kernel of
paddlec computes in float, so each pass takes float32 patterns alone: on a
float64 program asked for every fusion, none may fire (a fused op would
compute double data in float), and the build must match Paddle's double
kernels as the default build does.

  * inference: tests/oracle/e2e_fuse64.py holds a float64 program with the
    pattern of each inference fusion (the same programs in float32 fuse:
    that is how the cases were checked); built with every fusion asked for
    (and once without enable_auto_fusion, which otherwise takes the add +
    relu of fuse_elewise_add_act_ops), the IR after the passes has no fused
    op and the binary matches Paddle;
  * training: tests/oracle/train_cases.py resnet_linear_f64 holds the
    pattern of every training fusion; with all of them asked for, the
    trainer keeps the unfused kernels (but fuse_adamw's, which updates each
    parameter in its own dtype) and trains like Paddle: losses and final
    state within TOL64."""
import json
import os

import numpy as np
import pytest

from conftest import run
from test_e2e import build, run_binary
from test_e2e_ops import cases
from test_train import TOL64, build_trainer, case_dir, saved_state, train

INFER_FUSIONS = ("fuse_relu_depthwise_conv=true,fused_attention=true,fused_feedforward=true,"
                 "fuse_gemm_epilogue=true,enable_auto_fusion=true,fuse_elewise_add_act_ops=true")
TRAIN_FUSIONS = ("fuse_bn_add_act_ops=true,fuse_bn_act_ops=true,fuse_gemm_epilogue=true,"
                 "fuse_elewise_add_act_ops=true,fuse_all_optimizer_ops=true,fuse_adamw=true")
FUSED_OPS = ("fused_conv2d", "fused_batch_norm_act", "fused_bn_add_activation", "fused_elemwise_activation",
             "fused_elemwise_add_activation", "fused_gemm_epilogue", "fused_attention", "fused_feedforward",
             "fusion_group")


def ir_ops(model, strategy):
    """The op types of the IR that `paddlec opt` prints after the passes."""
    p = run(["opt", model, "--build-strategy", strategy])
    assert p.returncode == 0, p.stderr[-2000:]
    return [line.split()[1].split("(")[0] for line in p.stdout.splitlines() if line.startswith("op ")]


@pytest.mark.parametrize("strategy", [INFER_FUSIONS, INFER_FUSIONS + ",enable_auto_fusion=false"])
def test_inference_fusions_leave_float64_alone(strategy, tmp_path):
    out, names = cases("fuse64")
    for name in names:
        ops = ir_ops(os.path.join(out, name, "model.pdmodel"), strategy)
        fused = [t for t in ops if t in FUSED_OPS]
        assert not fused, (name, fused)
        assert name != "relu_depthwise_conv" or "relu" in ops, ops  # the relu the convs would apply
        d = tmp_path / name
        d.mkdir()
        binary = build(os.path.join(out, name), d, "--blas=none", "--build-strategy", strategy)
        run_binary(binary, os.path.join(out, name), "", d / "out")


def test_training_fusions_leave_float64_alone(tmp_path):
    name = "resnet_linear_f64"
    d = case_dir(name)
    meta = json.load(open(os.path.join(d, "case.json")))
    binary = build_trainer(d, tmp_path, "--build-strategy", TRAIN_FUSIONS)
    src = open(str(binary) + "_src/model.c").read()
    assert "fusing adamw + adamw" in src
    for t in FUSED_OPS:
        assert t not in src, t
    final = str(tmp_path / "final")
    train(binary, d, meta, tmp_path, meta["steps"], "--params", os.path.join(d, "init"), "--save", final)
    got = np.load(tmp_path / "out" / (meta["loss"].replace("/", "_") + ".npy")).reshape(-1)
    want = np.load(os.path.join(d, "paddle_loss.npy")).reshape(-1)
    assert got.dtype == want.dtype == np.float64 and got.shape == want.shape
    assert (np.abs(got - want) / np.maximum(np.abs(want), 1e-6)).max() <= TOL64, (got[:3], want[:3])
    ref, state = np.load(os.path.join(d, "paddle_final.npz")), saved_state(final)
    for k in ref.files:
        w = ref[k].astype(np.float64)
        assert np.abs(state[k].astype(np.float64) - w).max() <= TOL64 * max(np.abs(w).max(), 1e-6), k

"""BuildStrategy fields on training programs (issue 16 item 6).

Each field that applies to training is honored by name: the fixture of
tests/oracle/train_cases.py is built with `--build-strategy FIELD=...` and
without, both train 20 steps from the same state on the same batches, and
the losses agree within 1e-6 (the fields change memory, scheduling or how
kernels are merged, never the floats: in practice they are bitwise equal).
The generated code must differ, or the test would prove nothing about the
field; a fusion must also leave its fused op in the code.  A field paddlec
cannot honor on a training program is refused with an error naming it."""
import json
import os

import numpy as np
import pytest

from conftest import run
from test_train import build_trainer, case_dir, train

TOL = 1e-6

# (case, --build-strategy value, text (or tuple of texts) the generated model.c must then hold, trainer flags)
CASES = [
    ("mlp_sgd", "memory_optimize=false", None, ()),
    ("mlp_sgd", "enable_inplace=false", None, ()),
    ("mlp_sgd", "enable_sequential_execution=true", None, ("--threads", "2")),
    ("cnn_bn_momentum", "memory_optimize=false,enable_inplace=false", None, ()),
    ("mlp_sgd", "fuse_elewise_add_act_ops=true", "fused_elemwise_add_activation_grad", ()),
    ("mlp_adamw", "fuse_elewise_add_act_ops=true", "fused_elemwise_add_activation_grad", ()),
    ("mlp_clip_l2", "fuse_elewise_add_act_ops=true", "fusing tanh_grad + elementwise_add_grad", ("--threads", "2")),
    # sizes the run gives (--max-shape): the fused ops and their grads take them
    ("text_run_length", "fuse_elewise_add_act_ops=true", "fused_elemwise_add_activation_grad", ()),
    ("attention_run_length", "fuse_gemm_epilogue=true", "fused_gemm_epilogue_grad", ()),
    ("cnn_run_size", "fuse_bn_act_ops=true", "fused_batch_norm_act_grad", ()),
    ("resnet_run_size", "fuse_bn_add_act_ops=true,fuse_bn_act_ops=true",
     ("fused_bn_add_activation_grad", "fused_batch_norm_act_grad"), ()),
    ("mlp_sgd", "fuse_all_optimizer_ops=true", "fusing sgd + sgd + sgd + sgd", ()),
    ("cnn_bn_momentum", "fuse_all_optimizer_ops=true", "fusing momentum + momentum", ("--threads", "2")),
    ("mlp_momentum_nesterov_l2", "fuse_all_optimizer_ops=true", "fusing momentum + momentum", ()),
    ("mlp_clip_l2", "fuse_all_optimizer_ops=true", "fusing adam + adam", ()),
    ("mlp_lamb", "fuse_all_optimizer_ops=true", "fusing lamb + lamb", ()),
    ("fit_a_line_f64_adam", "fuse_all_optimizer_ops=true", "fusing adam + adam", ()),
    ("mlp_adamw", "fuse_adamw=true", "fusing adamw + adamw + adamw + adamw", ("--threads", "2")),
    ("mlp_adamw", "fuse_elewise_add_act_ops=true,fuse_adamw=true,memory_optimize=false", "fusing adamw + adamw",
     ()),
    ("cnn_bn_momentum", "fuse_bn_act_ops=true", "fused_batch_norm_act_grad", ()),
    ("cnn_bn_momentum", "fuse_bn_act_ops=true,fuse_all_optimizer_ops=true", "fusing relu_grad + batch_norm_grad",
     ("--threads", "2")),
    ("resnet_block_momentum", "fuse_bn_add_act_ops=true", "fusing relu_grad + elementwise_add_grad + batch_norm_grad",
     ()),
    ("resnet_block_momentum", "fuse_bn_add_act_ops=true,fuse_bn_act_ops=true",
     ("fused_bn_add_activation_grad", "fused_batch_norm_act_grad"), ("--threads", "2")),
    ("resnet_block_nhwc", "fuse_bn_add_act_ops=true", "fusing relu_grad + elementwise_add_grad + batch_norm_grad",
     ("--threads", "2")),
    ("linear_relu_gelu", "fuse_gemm_epilogue=true", "matmul_v2_grad + gelu_grad", ()),
    ("linear_relu_gelu", "fuse_gemm_epilogue=true", "matmul_v2_grad + relu_grad", ("--threads", "2")),
    ("transformer_adamw", "fuse_gemm_epilogue=true", "fused_gemm_epilogue_grad", ()),
    ("linear_relu_gelu", "fuse_gemm_epilogue=true,fuse_elewise_add_act_ops=true,fuse_all_optimizer_ops=true",
     "fusing momentum + momentum", ("--threads", "2")),
]

_built = {}


def _trainer(name, strategy, tmp_path_factory):
    """The trainer of `name` built with `strategy` (None: the defaults), and its model.c."""
    key = (name, strategy)
    if key not in _built:
        d = case_dir(name)
        tmp = tmp_path_factory.mktemp(name)
        extra = ["--build-strategy", strategy] if strategy else []
        binary = build_trainer(d, tmp, *extra)
        _built[key] = (binary, open(str(binary) + "_src/model.c").read())
    return _built[key]


def _losses(name, binary, tmp_path, flags):
    d = case_dir(name)
    meta = json.load(open(os.path.join(d, "case.json")))
    train(binary, d, meta, tmp_path, meta["steps"], "--params", os.path.join(d, "init"), *flags)
    return np.load(tmp_path / "out" / (meta["loss"].replace("/", "_") + ".npy")).reshape(-1)


def _kernels(src):
    """model.c without its banner (which names the options)."""
    return src[src.index("*/") + 2:]


@pytest.mark.parametrize("name,strategy,marker,flags", CASES, ids=[f"{c}-{s}" for c, s, _, _ in CASES])
def test_strategy_keeps_losses(name, strategy, marker, flags, tmp_path, tmp_path_factory):
    base, base_src = _trainer(name, None, tmp_path_factory)
    opt, opt_src = _trainer(name, strategy, tmp_path_factory)
    assert _kernels(opt_src) != _kernels(base_src), f"{strategy} changed nothing in the generated code"
    for m in marker if isinstance(marker, tuple) else (marker,) if marker else ():
        assert m in opt_src and m not in base_src, m
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    want = _losses(name, base, tmp_path / "a", flags)
    got = _losses(name, opt, tmp_path / "b", flags)
    assert got.shape == want.shape == (20,), (got.shape, want.shape)
    err = np.abs(got.astype(np.float64) - want) / np.maximum(np.abs(want), 1e-6)
    assert err.max() <= TOL, (strategy, err.max(), int(err.argmax()), got[:5], want[:5])


@pytest.mark.parametrize("field", ["enable_addto"])
def test_strategy_refused_on_training(field):
    """A fusion not applied to training programs, or in-place gradient
    accumulation (enable_addto), is an error naming the field."""
    d = case_dir("cnn_bn_momentum")
    p = run(["compile", os.path.join(d, "main.pdmodel"), "--startup", os.path.join(d, "startup.pdmodel"), "-o",
             "/dev/null/x", "--build-strategy", f"{field}=true"])
    assert p.returncode == 1 and f"BuildStrategy {field}=true" in p.stderr, p.stderr

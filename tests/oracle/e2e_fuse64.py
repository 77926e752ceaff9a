"""float64 programs with the pattern of every inference fusion pass, against
Paddle's double CPU kernels: the default build (ir_optim) runs the passes,
which take float32 alone, so each must leave these programs as they are
and the build match Paddle (tests/test_e2e_ops.py; tests/test_fuse64.py
builds them with every fusion asked for and checks that none fired).

  conv_bn_relu          fold_batch_norm, conv_elementwise_add_act
  conv_residual_relu    conv_elementwise_add_act (bias, residual, relu)
  relu_depthwise_conv   fuse_relu_depthwise_conv
  transformer_layer     fused_attention, fused_feedforward (an eval-mode
                        paddle.nn.TransformerEncoderLayer)
  linear_gelu_chain     fuse_gemm_epilogue (Linear + gelu),
                        enable_auto_fusion (x * w + b, tanh, sigmoid),
                        fuse_elewise_add_act_ops (add + relu)

Every parameter is float64 (the default dtype here) and re-drawn
(oracle_case.randomize_params); float64 outputs are held to TOL64.

    python e2e_fuse64.py OUTDIR [CASE ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import case_registry, run_grad_cases  # noqa: E402

import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

CASES, case = case_registry()


def forward_only(fn):
    fn.forward_only = True
    return case(fn)


def data(name, shape):
    return paddle.static.data(name, shape, "float64")


def conv(x, c, k=3, groups=1, bias=True):
    return paddle.static.nn.conv2d(x, c, k, padding=k // 2, groups=groups, bias_attr=None if bias else False)


@forward_only
def conv_bn_relu():
    x = data("x", [2, 3, 6, 6])
    return ["x"], [F.relu(paddle.static.nn.batch_norm(conv(x, 4, bias=False), is_test=True))]


@forward_only
def conv_residual_relu():
    x, r = data("x", [2, 3, 5, 5]), data("r", [2, 4, 5, 5])
    return ["x", "r"], [F.relu(paddle.add(conv(x, 4), r))]


@forward_only
def relu_depthwise_conv():
    """F.conv2d with groups = channels writes depthwise_conv2d."""
    x = data("x", [2, 4, 5, 5])
    w = paddle.static.create_parameter([4, 1, 3, 3], "float64")
    return ["x"], [F.conv2d(F.relu(x), w, padding=1, groups=4)]


@forward_only
def transformer_layer():
    x = data("x", [2, 3, 8])
    layer = paddle.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, normalize_before=False)
    layer.eval()
    return ["x"], [layer(x)]


@forward_only
def linear_gelu_chain():
    x, w, b = data("x", [3, 8]), data("w", [3, 6]), data("b", [6])
    h = F.gelu(paddle.nn.Linear(8, 6)(x))
    h = F.sigmoid(paddle.tanh(h * w + b))
    return ["x", "w", "b"], [F.relu(paddle.add(h, w))]


def make_input(v, rng):
    return rng.standard_normal([3 if d < 0 else d for d in v.shape]).astype("float64")


if __name__ == "__main__":
    paddle.set_default_dtype("float64")
    run_grad_cases(CASES, make_input, sys.argv)

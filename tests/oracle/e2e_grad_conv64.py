"""float64 convolutions, forward and gradient, held to TOL64: conv2d and
depthwise_conv2d (groups, strides, dilations, explicit / asymmetric / SAME /
VALID padding, a 1x1 filter, NHWC), their grads (Input@GRAD and
Filter@GRAD, or the filter's alone), conv2d_transpose and its grad,
conv3d and conv3d_transpose and their grads (groups, strides, dilations,
asymmetric padding, output_padding; a channel-last conv3d_transpose
forward), as Paddle's double CPU kernels compute them (im2col / vol2col +
GEMM; paddlec's rt_conv2d*_f64 and rt_conv3d*_f64), checked against
Paddle's own grad ops (oracle_case.build_grad_case).

The filters are fed float64 inputs with stop_gradient False (their
gradients fetched like the input's): oracle_case.randomize_params draws
parameters as float32.  Cases marked `inference` are saved as inference
programs (build_static_case) and fetch the forward outputs alone; the one
here puts a relu before a depthwise convolution, the pattern
fuse_relu_depthwise_conv rewrites in float32 and must leave alone in
float64.

    python e2e_grad_conv64.py OUTDIR [CASE ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import build_grad_case, build_static_case, case_registry, grad_input as data  # noqa: E402

import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

CASES, case = case_registry()
F64 = "float64"


def inference(fn):
    fn.inference = True
    return case(fn)


def conv_case(name, xs, ws, op=F.conv2d, input_grad=True, **kw):
    def fn():
        x = data("x", xs, F64) if input_grad else paddle.static.data("x", xs, F64)
        w = data("w", ws, F64)
        return ["x", "w"], [op(x, w, **kw)], [x, w] if input_grad else [w]
    fn.__name__ = name
    case(fn)


conv_case("conv64_groups_stride", [2, 4, 5, 5], [6, 2, 3, 3], groups=2, stride=2, padding=1)
conv_case("conv64_dil_asym", [1, 2, 9, 8], [3, 2, 3, 2], stride=[2, 1], dilation=[2, 1], padding=[1, 2, 0, 1])
conv_case("conv64_same_nhwc", [2, 7, 6, 3], [4, 3, 3, 3], stride=2, padding="SAME", data_format="NHWC")
conv_case("conv64_1x1_valid_filter_only", [2, 3, 4, 5], [5, 3, 1, 1], padding="VALID", input_grad=False)
conv_case("dwconv64_nhwc", [2, 6, 5, 4], [8, 1, 3, 3], groups=4, stride=[1, 2], padding=1, data_format="NHWC")
conv_case("convt64_groups", [2, 4, 4, 3], [4, 3, 3, 2], op=F.conv2d_transpose, groups=2, stride=2, padding=[1, 0],
          output_padding=1, dilation=[1, 2])
conv_case("convt64_nhwc_same", [2, 3, 4, 3], [3, 2, 3, 3], op=F.conv2d_transpose, stride=2, padding="SAME",
          data_format="NHWC")
conv_case("conv3d64_groups_stride_dil", [2, 4, 5, 6, 5], [6, 2, 2, 3, 2], op=F.conv3d, groups=2, stride=[2, 1, 2],
          dilation=[1, 2, 1], padding=[1, 0, 1])
conv_case("conv3d64_asym_filter_only", [1, 3, 5, 4, 5], [2, 3, 3, 3, 3], op=F.conv3d, stride=2,
          padding=[1, 0, 0, 2, 1, 1], input_grad=False)
conv_case("convt3d64_groups", [2, 4, 3, 4, 3], [4, 3, 3, 2, 3], op=F.conv3d_transpose, groups=2, stride=2,
          padding=[1, 0, 1], output_padding=1)


@inference
def conv64_infer_relu_dw_convt():
    """Inference: relu -> depthwise_conv2d -> depthwise_conv2d_transpose."""
    x = paddle.static.data("x", [-1, 3, 6, 6], F64)
    wd = paddle.static.data("wd", [3, 1, 3, 3], F64)
    wt = paddle.static.data("wt", [3, 1, 2, 2], F64)
    y = F.conv2d(F.relu(x), wd, groups=3, padding=1)
    z = F.conv2d_transpose(y, wt, stride=2, groups=3)
    return [x, wd, wt], [y, z]


@inference
def conv3d64_infer_convt_ndhwc():
    """Inference: channel-last conv3d_transpose (its grad is refused as in float32)."""
    x = paddle.static.data("x", [-1, 3, 4, 3, 2], F64)
    w = paddle.static.data("w", [2, 3, 3, 2, 2], F64)
    return [x, w], [F.conv3d_transpose(x, w, stride=[1, 2, 2], padding=1, data_format="NDHWC")]


def make_input(v, rng):
    shape = [2 if d < 0 else d for d in v.shape]
    return rng.standard_normal(shape).astype("float64" if v.dtype == paddle.float64 else "float32")


if __name__ == "__main__":
    paddle.enable_static()
    paddle.seed(1)
    for name in sys.argv[2:] or list(CASES):
        fn = CASES[name]
        if getattr(fn, "inference", False):
            build_static_case(sys.argv[1], name, fn, make_input)
        else:
            build_grad_case(sys.argv[1], name, fn, make_input)

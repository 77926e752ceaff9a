"""Gradient cases of what a CNN trains with: batch_norm in training mode
(batch statistics, running statistics updated with momentum, SavedMean and
SavedVariance) and batch_norm_grad (batch and global statistics, NCHW and
NHWC, one element per channel), conv2d_grad and depthwise_conv2d_grad
(groups, strides, dilations, explicit / asymmetric / SAME / VALID
padding, NHWC, only the filter's gradient), pool2d_grad (max and avg,
exclusive, ceil_mode, global, adaptive, NHWC, padding, ties) and
layer_norm_grad, checked against Paddle's own grad ops
(oracle_case.build_grad_case).

Cases marked `forward_only` run the training-mode forward alone and fetch
the given vars (batch_norm's running statistics, written in place, and its
saved statistics): saved with save_grad_program, since save_inference_model
would set is_test.

    python e2e_grad_cnn.py OUTDIR [CASE ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, build_grad_case, case_registry, save_training_case  # noqa: E402

import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

CASES, case = case_registry()


def data(name, shape, dtype="float32"):
    v = paddle.static.data(name, shape, dtype)
    v.stop_gradient = False
    return v


def forward_only(fn):
    fn.forward_only = True
    return case(fn)


# ---- batch_norm in training ----

def bn_outputs(y):
    """Y and the batch_norm op's MeanOut, VarianceOut, SavedMean, SavedVariance."""
    bn = [o for o in y.block.ops if o.type == "batch_norm"][-1]
    blk = y.block
    return [y] + [blk.var(bn.output(s)[0]) for s in ("MeanOut", "VarianceOut", "SavedMean", "SavedVariance")]


@forward_only
def bn_train_fwd_nchw():
    x = paddle.static.data("x", [2, 3, 4, 5], "float32")
    y = paddle.static.nn.batch_norm(x, is_test=False, momentum=0.8, epsilon=1e-3)
    return ["x"], bn_outputs(y)


@forward_only
def bn_train_fwd_nhwc():
    x = paddle.static.data("x", [3, 2, 4, 5], "float32")
    y = paddle.static.nn.batch_norm(x, is_test=False, data_layout="NHWC")
    return ["x"], bn_outputs(y)


@forward_only
def bn_train_fwd_rank2():
    x = paddle.static.data("x", [-1, 6], "float32")
    y = paddle.static.nn.batch_norm(x, is_test=False, momentum=0.5)
    return ["x"], bn_outputs(y)


@forward_only
def bn_train_fwd_momentum_tensor():
    """MomentumTensor is bound but Paddle 2.6's kernels take the attribute."""
    x = paddle.static.data("x", [2, 3, 4], "float32")
    y = paddle.static.nn.batch_norm(x, is_test=False, momentum=paddle.full([1], 0.3, "float32"))
    return ["x"], bn_outputs(y)


@forward_only
def bn_train_fwd_trainable_statistics():
    """is_test with trainable_statistics: batch statistics all the same."""
    x = paddle.static.data("x", [2, 3, 2, 2], "float32")
    y = paddle.static.nn.batch_norm(x, is_test=False)
    bn = [o for o in y.block.ops if o.type == "batch_norm"][-1]
    bn._set_attr("is_test", True)
    bn._set_attr("trainable_statistics", True)
    return ["x"], bn_outputs(y)


@case
def bn_grad_nchw():
    x = data("x", [2, 3, 4, 5])
    return ["x"], [paddle.static.nn.batch_norm(x, is_test=False)], [x]


@case
def bn_grad_nhwc():
    x = data("x", [2, 3, 3, 4])
    return ["x"], [paddle.static.nn.batch_norm(x, is_test=False, data_layout="NHWC", epsilon=1e-3)], [x]


@case
def bn_grad_rank2():
    x = data("x", [-1, 5])
    return ["x"], [paddle.static.nn.batch_norm(x, is_test=False)], [x]


@case
def bn_grad_rank3_relu():
    x = data("x", [4, 3, 5])
    return ["x"], [F.relu(paddle.static.nn.batch_norm(x, is_test=False))], [x]


@case
def bn_grad_global_stats():
    """use_global_stats in training: the running statistics normalize, and
    the grad reads them (MeanOut / VarianceOut)."""
    x = data("x", [2, 3, 4, 4])
    return ["x"], [paddle.static.nn.batch_norm(x, is_test=False, use_global_stats=True)], [x]


@case
def bn_grad_is_test():
    """is_test in a program with gradients: running statistics both ways."""
    x = data("x", [2, 3, 2, 3])
    return ["x"], [paddle.static.nn.batch_norm(x, is_test=True)], [x]


@case
def bn_grad_params_only():
    """X stops the gradient: only Scale@GRAD and Bias@GRAD."""
    x = paddle.static.data("x", [3, 2, 4], "float32")
    return ["x"], [paddle.static.nn.batch_norm(x, is_test=False, data_layout="NHWC")], []


@case
def bn_grad_one_element():
    """One element per channel: Y = X, X@GRAD = Y@GRAD, zero Scale/Bias grads."""
    x = data("x", [1, 3, 1, 1])
    return ["x"], [paddle.static.nn.batch_norm(x, is_test=False)], [x]


# ---- convolutions ----

def conv_case(name, xs, ws, **kw):
    def fn():
        x = data("x", xs)
        w = paddle.static.create_parameter(ws, "float32")
        return ["x"], [F.conv2d(x, w, **kw)], [x]
    fn.__name__ = name
    case(fn)


conv_case("conv_basic", [2, 3, 6, 6], [4, 3, 3, 3], padding=1)
conv_case("conv_stride_dil_asym", [1, 2, 9, 8], [3, 2, 3, 2], stride=[2, 1], dilation=[2, 1],
          padding=[1, 2, 0, 1])
conv_case("conv_groups", [2, 4, 5, 5], [6, 2, 3, 3], groups=2, stride=2, padding=1)
conv_case("conv_same", [1, 3, 7, 6], [2, 3, 3, 3], stride=2, padding="SAME")
conv_case("conv_valid_1x1", [2, 3, 4, 5], [5, 3, 1, 1], padding="VALID")
conv_case("conv_nhwc", [2, 5, 6, 3], [4, 3, 2, 3], stride=[1, 2], padding=[1, 0], data_format="NHWC")
conv_case("dwconv", [2, 3, 6, 6], [6, 1, 3, 3], groups=3, padding=1)
conv_case("dwconv_nhwc_stride", [1, 7, 6, 4], [4, 1, 3, 3], groups=4, stride=2, padding="SAME", data_format="NHWC")


def convt_case(name, xs, ws, **kw):
    def fn():
        x = data("x", xs)
        w = paddle.static.create_parameter(ws, "float32")
        return ["x"], [F.conv2d_transpose(x, w, **kw)], [x]
    fn.__name__ = name
    case(fn)


convt_case("convt_basic", [2, 3, 4, 4], [3, 2, 3, 3], stride=2, padding=1, output_padding=1)
convt_case("convt_groups_dil_asym", [1, 4, 5, 4], [4, 3, 3, 2], groups=2, dilation=[1, 2], padding=[1, 0, 0, 1])
convt_case("convt_nhwc_same", [2, 3, 4, 3], [3, 2, 3, 3], stride=2, padding="SAME", data_format="NHWC")
convt_case("dwconvt", [2, 3, 4, 4], [3, 1, 3, 3], groups=3, stride=2, padding=1)


@case
def conv_filter_only():
    """The input stops the gradient: only Filter@GRAD."""
    x = paddle.static.data("x", [2, 3, 5, 5], "float32")
    w = paddle.static.create_parameter([2, 3, 3, 3], "float32")
    return ["x"], [F.conv2d(x, w, stride=2)], []


# ---- pooling ----

def pool_case(name, kind, xs, ties=False, **kw):
    def fn():
        x = data("tie_x" if ties else "x", xs)
        f = {"max": F.max_pool2d, "avg": F.avg_pool2d, "amax": F.adaptive_max_pool2d,
             "aavg": F.adaptive_avg_pool2d}[kind]
        return [x.name], [f(x, **kw)], [x]
    fn.__name__ = name
    case(fn)


pool_case("maxpool", "max", [2, 3, 6, 6], kernel_size=2, stride=2)
pool_case("maxpool_pad_ceil_ties", "max", [1, 2, 7, 7], ties=True, kernel_size=3, stride=2, padding=1, ceil_mode=True)
pool_case("maxpool_nhwc_same", "max", [2, 5, 6, 3], kernel_size=3, stride=2, padding="SAME", data_format="NHWC")
pool_case("avgpool_exclusive", "avg", [2, 3, 7, 6], kernel_size=3, stride=2, padding=1)
pool_case("avgpool_inclusive_ceil", "avg", [1, 2, 7, 7], kernel_size=3, stride=2, padding=[1, 0],
          exclusive=False, ceil_mode=True)
pool_case("avgpool_nhwc_asym", "avg", [2, 6, 5, 3], kernel_size=[2, 3], stride=[2, 1], padding=[0, 1, 1, 0],
          data_format="NHWC")
pool_case("adaptive_avg", "aavg", [2, 3, 7, 5], output_size=[3, 2])
pool_case("adaptive_max_ties", "amax", [1, 2, 7, 6], ties=True, output_size=[3, 4])


@case
def global_pools():
    x = data("tie_x", [2, 3, 4, 5])
    a = op("pool2d", {"X": x}, {"Out": ["float32"]},
           {"pooling_type": "avg", "ksize": [1, 1], "global_pooling": True})[0]
    m = op("pool2d", {"X": x}, {"Out": ["float32"]},
           {"pooling_type": "max", "ksize": [2, 2], "global_pooling": True, "data_format": "NHWC"})[0]
    return ["tie_x"], [a, m], [x]


# ---- layer_norm ----

@case
def layer_norm_axis1():
    x = data("x", [3, 4, 5])
    return ["x"], [F.layer_norm(x, [4, 5], weight=paddle.static.create_parameter([20], "float32"),
                                bias=paddle.static.create_parameter([20], "float32"))], [x]


@case
def layer_norm_last_axis():
    x = data("x", [2, 3, 6])
    return ["x"], [paddle.static.nn.layer_norm(x, begin_norm_axis=2, epsilon=1e-3)], [x]


@case
def layer_norm_no_affine():
    x = data("x", [-1, 7])
    return ["x"], [F.layer_norm(x, [7])], [x]


@case
def layer_norm_scale_frozen():
    """Scale bound but not trained: Paddle's X@GRAD then leaves Scale out."""
    x = data("x", [3, 8])
    w = paddle.static.create_parameter([8], "float32")
    w.stop_gradient = True
    return ["x"], [F.layer_norm(x, [8], weight=w, bias=paddle.static.create_parameter([8], "float32"))], [x]


# ---- group_norm ----

@case
def group_norm_nchw():
    x = data("x", [2, 6, 3, 4])
    return ["x"], [paddle.nn.GroupNorm(3, 6, epsilon=1e-3)(x)], [x]


@case
def group_norm_nhwc():
    x = data("x", [2, 3, 3, 4])
    return ["x"], [paddle.nn.GroupNorm(2, 4, data_format="NHWC")(x)], [x]


@case
def group_norm_scale_only():
    x = data("x", [2, 4, 5])
    return ["x"], [paddle.nn.GroupNorm(2, 4, bias_attr=False)(x)], [x]


@case
def group_norm_no_affine():
    """No Scale: Paddle's kernel leaves the mean term out of X@GRAD."""
    x = data("x", [3, 4, 5])
    return ["x"], [paddle.static.nn.group_norm(x, groups=2, param_attr=False, bias_attr=False)], [x]


# ---- instance_norm ----

@case
def instance_norm_affine():
    x = data("x", [2, 3, 4, 5])
    return ["x"], [paddle.nn.InstanceNorm2D(3, epsilon=1e-3)(x)], [x]


@case
def instance_norm_plain():
    x = data("x", [3, 2, 6])
    return ["x"], [paddle.nn.InstanceNorm1D(2, weight_attr=False, bias_attr=False)(x)], [x]


# ---- a small CNN: everything together ----

@case
def small_cnn():
    x = data("x", [2, 3, 8, 8])
    y = paddle.static.nn.conv2d(x, 4, 3, padding=1, bias_attr=False)  # a bias before batch_norm has ~0 gradient
    y = F.relu(paddle.static.nn.batch_norm(y, is_test=False))
    y = F.max_pool2d(y, 2)
    y = paddle.static.nn.conv2d(y, 4, 3, padding=1, groups=4)
    y = F.adaptive_avg_pool2d(y, 1)
    return ["x"], [paddle.static.nn.fc(y, 3)], [x]  # fc flattens through mul


def make_input(v, rng):
    shape = [3 if d < 0 else d for d in v.shape]
    if v.name.startswith("tie_"):  # few distinct values: windows with equal maxima
        return rng.integers(-2, 3, shape).astype("float32")
    return rng.standard_normal(shape).astype("float32")


def build_forward_case(out_dir, name, fn):
    """A forward-only training-mode case: fn() -> (feeds, fetches)."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        feeds, fetches = fn()
    save_training_case(out_dir, name, main, startup, feeds, fetches, make_input)


if __name__ == "__main__":
    paddle.enable_static()
    paddle.seed(1)
    for name in sys.argv[2:] or list(CASES):
        fn = CASES[name]
        if getattr(fn, "forward_only", False):
            build_forward_case(sys.argv[1], name, fn)
        else:
            build_grad_case(sys.argv[1], name, fn, make_input)

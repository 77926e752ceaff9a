#!/usr/bin/env python3
"""Op-level end-to-end cases for the statistics outputs of the normalization
ops and for grouped convolutions, both found wrong by running Paddle's per-op
unit-test cases as one-op programs:

  * group_norm's Mean and Variance (and layer_norm's, instance_norm's
    SavedMean and SavedVariance) fetched: paddlec wrote only Y, so a fetch
    copied whatever the arena held (group_norm: zeros);
  * convolutions with a 1x1 filter, one input channel per group and several
    outputs per group (depthwise with a channel multiplier, stride 1, no
    padding): the runtime took its depthwise loop with no workspace
    (rt_conv2d_ws_floats asked the pointwise rule first) and crashed; their
    neighbours (1x1 and 3x3, grouped and depthwise, strided, with bias and
    fused activations).

    python e2e_norm_conv.py OUTDIR [CASE ...]
    python e2e_norm_conv.py OUTDIR --refused

The first form builds the cases tests/test_e2e_ops.py compiles and compares.
The second saves, one directory each, the programs paddlec must refuse with
an error naming the op and the output slot (tests/test_norm_conv.py): a
fetch of an output that no op writes because save_inference_model dropped it
(instance_norm's SavedMean, norm's Norm, dropout's Mask), or that the op
leaves unwritten in inference (norm's Norm and dropout's Mask at is_test).
For each, the script checks that Paddle's own executor fails too.

Parameters (Scale, Bias, filters, conv biases) are re-drawn uniform in
[-1, 1) by oracle_case.randomize_params, never Paddle's ones and zeros;
inputs are uniform in [-0.5, 1.5) so that means are not near zero.  Cases
whose programs keep the outputs Paddle marks extra are saved with
clip_extra=False (save_inference_model drops them otherwise).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, build_static_case, reference, run_static_cases, case_registry  # noqa: E402

import paddle  # noqa: E402
import paddle.nn as nn  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

BATCH = 2
CASES, case = case_registry()


def keep_extra(fn):
    """A case saved with clip_extra=False (oracle_case's keep_extra_attrs)."""
    fn.keep_extra_attrs = True
    return fn


def data(name, shape, dtype="float32"):
    return paddle.static.data(name, shape, dtype)


def param(shape):
    return paddle.static.create_parameter(shape, "float32")


def norm_op(type, x, stats, attrs, scale=None, bias=None):
    """One normalization op with optional Scale / Bias; returns Y and the
    statistics outputs named in `stats`."""
    inputs = {"X": [x]}
    if scale is not None:
        inputs["Scale"] = [scale]
    if bias is not None:
        inputs["Bias"] = [bias]
    outs = {"Y": ["float32"]}
    outs.update({s: ["float32"] for s in stats})
    return op(type, inputs, outs, attrs)


# ---------------------------------------------------------------- group_norm statistics
@case
def group_norm_stats():
    """Paddle's test_group_norm_op case (X [N, 100, 3, 5], 2 groups), then
    without Scale and Bias, with Scale only, with groups = channels, rank 3
    and NHWC (the kernel's statistics are per image and group, [N, groups])."""
    x = data("x", [None, 100, 3, 5])
    outs = norm_op("group_norm", x, ["Mean", "Variance"], {"epsilon": 1e-5, "groups": 2},
                   param([100]), param([100]))
    y = data("y", [None, 8, 6, 5])
    outs += norm_op("group_norm", y, ["Mean", "Variance"], {"epsilon": 1e-3, "groups": 4})
    outs += norm_op("group_norm", y, ["Mean", "Variance"], {"epsilon": 1e-5, "groups": 8}, param([8]))
    r = data("r", [None, 6, 7])
    outs += norm_op("group_norm", r, ["Mean", "Variance"], {"epsilon": 1e-5, "groups": 3}, param([6]), param([6]))
    h = data("h", [None, 3, 5, 12])
    outs += norm_op("group_norm", h, ["Mean", "Variance"], {"epsilon": 1e-5, "groups": 3, "data_layout": "NHWC"},
                    param([12]), param([12]))
    outs += norm_op("group_norm", h, ["Mean", "Variance"], {"epsilon": 1e-5, "groups": 4, "data_layout": "NHWC"})
    return [x, y, r, h], outs


@case
def group_norm_stats_read():
    """The statistics read by a later op rather than fetched."""
    x = data("x", [None, 6, 4, 3])
    y, m, v = norm_op("group_norm", x, ["Mean", "Variance"], {"epsilon": 1e-5, "groups": 3}, param([6]), param([6]))
    return [x], [y, paddle.add(m, v)]


@case
def layer_norm_stats():
    x = data("x", [None, 4, 6, 5])
    outs = norm_op("layer_norm", x, ["Mean", "Variance"], {"epsilon": 1e-5, "begin_norm_axis": 2},
                   param([30]), param([30]))
    outs += norm_op("layer_norm", x, ["Mean", "Variance"], {"epsilon": 1e-3, "begin_norm_axis": 1})
    return [x], outs


@case
@keep_extra
def instance_norm_stats():
    """SavedMean and SavedVariance (1 / sqrt(var + eps)), which only a program
    saved with clip_extra=False keeps."""
    x = data("x", [None, 4, 3, 5])
    outs = norm_op("instance_norm", x, ["SavedMean", "SavedVariance"], {"epsilon": 1e-5}, param([4]), param([4]))
    y = data("y", [None, 3, 7])
    outs += norm_op("instance_norm", y, ["SavedMean", "SavedVariance"], {"epsilon": 1e-3})
    return [x, y], outs


# ---------------------------------------------------------------- grouped convolutions
def conv(type, x, w, groups, stride=1, pad=0):
    return op(type, {"Input": [x], "Filter": [w]}, {"Output": ["float32"]},
              {"groups": groups, "strides": [stride, stride], "paddings": [pad, pad], "dilations": [1, 1],
               "data_format": "NCHW"})[0]


@case
def conv_1x1_multiplier():
    """Paddle's test_conv2d_op case: Input [N, 3, 5, 5], Filter [120, 1, 1, 1],
    groups 3 (40 outputs per input channel), as conv2d and as
    depthwise_conv2d; a channel multiplier of 1; with bias, with a fused
    activation (conv_elementwise_add_act), after a relu that only depthwise
    convolutions without bias read (fuse_relu_depthwise_conv: a bias would
    make them fused_conv2d first)."""
    x = data("x", [None, 3, 5, 5])
    a = conv("conv2d", x, param([120, 1, 1, 1]), 3)
    b = conv("depthwise_conv2d", x, param([6, 1, 1, 1]), 3)
    c = nn.Conv2D(3, 3, 1, groups=3)(x)
    d = F.relu(nn.Conv2D(3, 12, 1, groups=3)(x))
    e = F.relu6(nn.Conv2D(3, 9, 1, groups=3, bias_attr=False)(x))
    r = F.relu(x)
    f = nn.Conv2D(3, 6, 1, groups=3, bias_attr=False)(r)
    g = nn.Conv2D(3, 3, 1, groups=3, bias_attr=False)(r)
    return [x], [a, b, c, d, e, f, g]


@case
def conv_1x1_multiplier_strided():
    """1x1 depthwise with a multiplier but not pointwise: strided, padded."""
    x = data("x", [None, 4, 9, 8])
    a = conv("conv2d", x, param([12, 1, 1, 1]), 4, stride=2)
    b = conv("depthwise_conv2d", x, param([8, 1, 1, 1]), 4, pad=1)
    c = F.relu(nn.Conv2D(4, 8, 1, stride=2, padding=1, groups=4)(x))
    return [x], [a, b, c]


@case
def conv_grouped_several_outputs():
    """Groups of several input and output channels, 1x1 (one product per
    group) and 3x3 (im2col per group), strides, bias and activation; 3x3
    depthwise with a multiplier, strided, with bias and relu."""
    x = data("x", [None, 6, 7, 9])
    a = conv("conv2d", x, param([12, 2, 1, 1]), 3)
    b = nn.Conv2D(6, 9, 1, stride=2, groups=3)(x)
    c = F.relu(nn.Conv2D(6, 12, 3, padding=1, groups=3)(x))
    d = nn.Conv2D(6, 4, 3, stride=2, groups=2, bias_attr=False)(x)
    e = F.relu(nn.Conv2D(6, 18, 3, padding=1, stride=2, groups=6)(x))
    f = conv("depthwise_conv2d", x, param([12, 1, 3, 3]), 6, pad=1)
    g = nn.Conv2D(6, 12, (3, 1), padding=(1, 0), groups=6, bias_attr=False)(F.relu(x))
    return [x], [a, b, c, d, e, f, g]


# ---------------------------------------------------------------- refused programs
def refused_instance_norm_dropped():
    """Saved with save_inference_model's defaults: SavedMean is dropped from
    the op, and the program reads a tensor nothing writes."""
    x = data("x", [None, 4, 3, 5])
    y, m, v = norm_op("instance_norm", x, ["SavedMean", "SavedVariance"], {"epsilon": 1e-5}, param([4]), param([4]))
    return [x], [y, m]


def refused_norm_dropped():
    x = data("x", [None, 4, 3])
    o, n = op("norm", {"X": [x]}, {"Out": ["float32"], "Norm": ["float32"]},
              {"axis": 1, "epsilon": 1e-10, "is_test": False})
    return [x], [o, n]


def refused_norm_is_test():
    """Kept (clip_extra=False), but Paddle's norm kernel does not write Norm at
    is_test, which save_inference_model sets."""
    x = data("x", [None, 4, 3])
    o, n = op("norm", {"X": [x]}, {"Out": ["float32"], "Norm": ["float32"]},
              {"axis": 1, "epsilon": 1e-10, "is_test": False})
    return [x], [o, n]


def refused_dropout_mask_is_test():
    x = data("x", [None, 4, 3])
    o, m = op("dropout", {"X": [x]}, {"Out": ["float32"], "Mask": ["uint8"]},
              {"dropout_prob": 0.25, "is_test": False, "dropout_implementation": "upscale_in_train"})
    return [x], [o, m]


def refused_dropout_mask_dropped():
    x = data("x", [None, 4, 3])
    o, m = op("dropout", {"X": [x]}, {"Out": ["float32"], "Mask": ["uint8"]},
              {"dropout_prob": 0.25, "is_test": False})
    return [x], [o, paddle.cast(m, "float32")]


# name -> (case, clip_extra)
REFUSED = {"instance_norm_dropped": (refused_instance_norm_dropped, True),
           "norm_dropped": (refused_norm_dropped, True),
           "norm_is_test": (refused_norm_is_test, False),
           "dropout_mask_is_test": (refused_dropout_mask_is_test, False),
           "dropout_mask_dropped": (refused_dropout_mask_dropped, True)}


# ---------------------------------------------------------------- driver
def make_input(v, rng):
    return rng.uniform(-0.5, 1.5, [BATCH if d in (None, -1) else d for d in v.shape]).astype("float32")


def build_refused(out_dir):
    paddle.enable_static()
    for name, (fn, clip_extra) in REFUSED.items():
        d, inputs = build_static_case(out_dir, name, fn, make_input, clip_extra=clip_extra, run_reference=False)
        try:
            reference(d, inputs)
        except Exception as e:  # Paddle stops too: nothing writes the fetched tensor
            assert "holds no memory" in str(e) or "is not initialized" in str(e), str(e)[-2000:]
        else:
            raise AssertionError(f"{name}: Paddle ran the program; it is no refusal case")


if __name__ == "__main__":
    if sys.argv[2:] == ["--refused"]:
        build_refused(sys.argv[1])
    else:
        run_static_cases(CASES, make_input)

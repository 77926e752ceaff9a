"""float64 normalizations against Paddle's double CPU kernels: batch_norm in
training (Y, the running statistics updated in place, SavedMean and
SavedVariance) and in inference (the running statistics), batch_norm_grad
with the batch's statistics (followed by relu: the bn+act fusion must leave
a float64 batch_norm alone) and with the global ones, layer_norm (with and
without Scale and Bias), group_norm (channel first and last) and
instance_norm with their grads.
Every parameter is float64 (the default dtype here) and re-drawn
(oracle_case.randomize_params); the grad cases fetch their forward outputs
too (`fetch_outs`).  float64 outputs are held to TOL64 (tests/test_e2e.py).

    python e2e_grad_norm64.py OUTDIR [CASE ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import case_registry, run_grad_cases  # noqa: E402

import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

CASES, case = case_registry()


def data(name, shape, grad=True):
    v = paddle.static.data(name, shape, "float64")
    v.stop_gradient = not grad
    return v


def forward_only(fn):
    fn.forward_only = True
    return case(fn)


def with_outputs(fn):
    """A grad case that also fetches its forward outputs."""
    fn.fetch_outs = True
    return case(fn)


def param(shape):
    return paddle.static.create_parameter(shape, "float64")


# ---- batch_norm ----

@forward_only
def bn_train_fwd():
    """The batch's statistics: Y, MeanOut, VarianceOut, SavedMean, SavedVariance."""
    x = data("x", [2, 3, 4, 5], grad=False)
    y = paddle.static.nn.batch_norm(x, is_test=False, momentum=0.8, epsilon=1e-3)
    bn = [o for o in y.block.ops if o.type == "batch_norm"][-1]
    return ["x"], [y] + [y.block.var(bn.output(s)[0]) for s in ("MeanOut", "VarianceOut", "SavedMean",
                                                                 "SavedVariance")]


@forward_only
def bn_infer_fwd_nhwc():
    """is_test: the running statistics normalize (rt_batch_norm_f64)."""
    x = data("x", [2, 3, 4, 5], grad=False)
    return ["x"], [paddle.static.nn.batch_norm(x, is_test=True, data_layout="NHWC", epsilon=1e-4)]


@with_outputs
def bn_grad_relu():
    x = data("x", [3, 4, 2, 3])
    return ["x"], [F.relu(paddle.static.nn.batch_norm(x, is_test=False, epsilon=1e-3))], [x]


@case
def bn_grad_global_stats():
    """use_global_stats in training: the grad reads the running statistics."""
    x = data("x", [2, 3, 5])
    return ["x"], [paddle.static.nn.batch_norm(x, is_test=False, use_global_stats=True)], [x]


# ---- layer_norm, group_norm, instance_norm ----

@with_outputs
def layer_norm_affine():
    x = data("x", [3, 4, 5])
    return ["x"], [F.layer_norm(x, [4, 5], weight=param([20]), bias=param([20]), epsilon=1e-3)], [x]


@with_outputs
def layer_norm_plain():
    x = data("x", [-1, 2, 7])
    return ["x"], [paddle.static.nn.layer_norm(x, scale=False, shift=False, begin_norm_axis=2)], [x]


@with_outputs
def group_norm_nchw():
    x = data("x", [2, 6, 3, 4])
    return ["x"], [paddle.nn.GroupNorm(3, 6, epsilon=1e-3)(x)], [x]


@with_outputs
def instance_norm_affine():
    x = data("x", [2, 3, 4, 5])
    return ["x"], [paddle.nn.InstanceNorm2D(3, epsilon=1e-3)(x)], [x]


@with_outputs
def group_norm_nhwc():
    """Channel last: normalized as channel first on a double copy in scratch."""
    x = data("x", [2, 3, 4, 6])
    return ["x"], [paddle.nn.GroupNorm(2, 6, epsilon=1e-3, data_format="NHWC")(x)], [x]


def make_input(v, rng):
    return rng.standard_normal([3 if d < 0 else d for d in v.shape]).astype("float64")


if __name__ == "__main__":
    paddle.set_default_dtype("float64")
    run_grad_cases(CASES, make_input, sys.argv)

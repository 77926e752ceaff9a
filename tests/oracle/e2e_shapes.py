#!/usr/bin/env python3
"""Op-level end-to-end cases for sizes computed from tensor values that are
known at compile time: shape arithmetic on static dims (the batch left
open; floor division of negative values) feeding paddle.arange (BERT/ERNIE-style position ids), slice bounds
and interpolate sizes (PaddleSeg-style resizing to another tensor's size).
paddlec's constant folding turns those values into parameters and the ops'
rules and emitters read them; so are axes and a depth held in tensors of
constants (axes_from_tensors).

    python e2e_shapes.py OUTDIR [CASE ...]

Each case is a paddle.nn layer saved with paddle.jit.to_static + jit.save
(tests/oracle/oracle_case.py save_layer_case), batch None; inputs standard
normal from a generator seeded by the case's name; batch 3."""
import os
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import save_layer_case, case_registry  # noqa: E402

import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.nn as nn  # noqa: E402
import paddle.nn.functional as F  # noqa: E402
from paddle.static import InputSpec  # noqa: E402

BATCH = 3
CASES, case = case_registry()


class ArangeFromShape(nn.Layer):
    def __init__(self):
        super().__init__()
        self.pos = nn.Embedding(6, 4)

    def forward(self, x):
        ids = paddle.arange(paddle.shape(x)[1])
        return self.pos(ids) + x


@case
def arange_from_shape():
    """Position ids: arange over a static dim of a batch-open input."""
    return ArangeFromShape(), [InputSpec([None, 6, 4], "float32", "x")], (BATCH, 6, 4)


class SliceFromShape(nn.Layer):
    def forward(self, x):
        n = paddle.shape(x)[1]
        return x[:, n // 3:n - 1], x[:, :, 1:paddle.shape(x)[2]:2]


@case
def slice_from_shape():
    """Slice bounds from shape arithmetic (StartsTensorList, EndsTensorList)."""
    return SliceFromShape(), [InputSpec([None, 6, 5], "float32", "x")], (BATCH, 6, 5)


class InterpFromShape(nn.Layer):
    def forward(self, x):
        y = F.avg_pool2d(x, 2)
        a = F.interpolate(y, paddle.shape(x)[2:], mode="bilinear", align_corners=False)
        b = F.interpolate(y, [paddle.shape(x)[2], paddle.shape(x)[3]], mode="nearest")
        return a, b


@case
def interp_from_shape():
    """Resize back to another tensor's size: OutSize and SizeTensor."""
    return InterpFromShape(), [InputSpec([None, 3, 8, 10], "float32", "x")], (BATCH, 3, 8, 10)


class FloorDivFromShape(nn.Layer):
    def forward(self, x):
        n = paddle.shape(x)[1]  # 7
        a = (n - 11) // 3       # -4 // 3 = -2: floor division rounds toward minus infinity (truncation: -1)
        return paddle.arange(-a * 4) + paddle.sum(x), x[:, :n + a]


@case
def floordiv_from_shape():
    """Shape arithmetic through a negative value: elementwise_floordiv folded
    as Paddle floors (an arange length and a slice bound from it)."""
    return FloorDivFromShape(), [InputSpec([None, 7], "float32", "x")], (BATCH, 7)


class AxesFromTensors(nn.Layer):
    def forward(self, x):
        one, two = paddle.full([1], 1, "int64"), paddle.full([1], 2, "int64")
        pair = paddle.assign(np.array([1, 2], "int64"))
        depth = paddle.assign(np.array([5], "int32"))
        return (paddle.sum(x, axis=pair), paddle.mean(x, axis=two, keepdim=True), paddle.max(x, axis=one),
                paddle.prod(x, axis=[one, two]), paddle.argmax(x, axis=two), paddle.squeeze(x[:, :1], axis=one),
                paddle.cumsum(x, axis=one), F.one_hot(paddle.argmax(x, axis=2), depth))


@case
def axes_from_tensors():
    """Axes held in tensors of values known at compile time, as Paddle's op
    tests pass them (paddle.full / paddle.assign): the reductions' dim (a
    VAR, a VARS list), arg_max's axis, squeeze2's axes, cumsum's axis and
    one_hot_v2's depth_tensor."""
    return AxesFromTensors(), [InputSpec([None, 3, 4], "float32", "x")], (BATCH, 3, 4)


class FullLikeFromTensors(nn.Layer):
    def __init__(self):
        super().__init__()
        self.s = self.create_parameter([1])  # read only as the value: still a weight of the model

    def forward(self, x):
        m = paddle.mean(x) * 1.5  # made first, read after the chain below: its memory must live until then
        y = paddle.sin(paddle.exp(x * 0.5) * 3.0 + 1.0) * paddle.cos(x) + paddle.sum(x, axis=1, keepdim=True)
        a = paddle.mean(x) + paddle.max(x)  # read by relu and as a value: no fusion may drop it
        return (paddle.full_like(y, m) + x, paddle.full_like(x, paddle.max(x) * -10.0, dtype="int32"),
                paddle.full_like(x, self.s), paddle.full_like(x, a) + F.relu(a),
                paddle.full_like(x, paddle.full([1], 2.5, "float64"), dtype="float64"),
                paddle.full_like(x, paddle.argmax(x)), paddle.full_like(x, paddle.min(x) * 300.0, dtype="int16"),
                paddle.full_like(x, paddle.mean(x) > 5.0, dtype="bool"))


@case
def full_like_from_tensors():
    """paddle.full_like with a tensor as its value (fill_any_like's VAR
    attribute `value`, read when the op runs as phi's Scalar reads it: a
    double, then static_cast to Out's dtype): float32, int32 (truncated),
    float64, an int64 tensor into float32, int16, bool, a parameter, a sum
    relu reads too. The first's tensor is made before a chain of other ops,
    which must not reuse its memory."""
    return FullLikeFromTensors(), [InputSpec([None, 3, 4], "float32", "x")], (BATCH, 3, 4)


def build(out_dir, name):
    paddle.disable_static()  # the previous case's reference run left static mode on
    layer, specs, shape = CASES[name]()
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    for p in layer.parameters():
        p.set_value(rng.uniform(-1.0, 1.0, p.shape).astype("float32"))
    save_layer_case(os.path.join(out_dir, name), layer, specs, [rng.standard_normal(shape).astype("float32")])


if __name__ == "__main__":
    paddle.seed(1)
    for case_name in sys.argv[2:] or list(CASES):
        build(sys.argv[1], case_name)

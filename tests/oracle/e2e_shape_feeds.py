#!/usr/bin/env python3
"""Op-level end-to-end cases whose shapes come from fed tensors, as Paddle's
own op tests feed them (issue 19 item 2): `slice` with its Starts/Ends
given as a tensor or a list of one-element tensors that are feeds, so
that Out's extent along each sliced axis is only known when the program
runs (paddlec plans Out for the axis' size and the kernel writes the
extent).  Kept and dropped axes, negative and clamped bounds, the batch
axis, int32 and int64 bounds.  `crop_tensor` (paddle.crop) with fed
Offsets, Shape, or lists of both.  `strided_slice` with fed starts, ends
and strides (negative ones too).  `split` with fed sections.  `full`,
`arange`, `linspace`, `reshape`, `expand` and `tile` with sizes fed,
compiled with --max-shape bounds (flags.json beside the case), and
`one_hot` with a fed depth.  `cumsum` along a fed axis (and its grad).  Resizes to fed sizes of an image whose sizes the run
gives, and the grads of resizes by fed sizes and scales.
Reductions along fed axes (and their grads), `argmax` / `argmin` along a
fed axis, `squeeze` of fed axes.  `pad3d` with fed negative paddings (which crop) and
its grad by fed paddings.  `split` with a fed axis and fed sections.  `affine_grid` of a fed size
(and its grad).  `roll`
with shifts fed (and its grad).  The resize ops (interp v1 and v2) with
OutSize, SizeTensor or Scale fed, bounded by --max-shape: 1-, 2- and 3-D,
channel first and last, each method, v2's ratios from a fed Scale beside
a constant OutSize.  `pad3d` with its Paddings fed (bounded) or constant.
`eye` with a fed count (a VAR attribute; bounded).  `density_prior_box`
over a map and an image of the run's sizes (bounded).  `conv2d_transpose`
with output_size from paddle.shape of a tensor of fixed dims.
`concat` and `split` with a fed AxisTensor, `gather` with a fed Axis and
`unsqueeze` with fed axes (inputs of fixed dims: the compiler proves the
outputs' bounds, no flag).  `bincount` of fed values (bounded).

    python e2e_shape_feeds.py OUTDIR [CASE ...]

Feeds named in BOUNDS hold those integers, those in FLOATS those float32
values; the others are float32 standard normal.  Batch 3."""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op, run_static_cases, case_registry  # noqa: E402

import paddle  # noqa: E402
from paddle.base.layer_helper import LayerHelper  # noqa: E402

BATCH = 3
CASES, case = case_registry()
BOUNDS = {}  # feed name -> the integers it holds
FLOATS = {}  # feed name -> the float32 values it holds
FLAGS = {}  # case -> paddlec compile flags (flags.json, read by test_e2e_ops)


def max_shape(name, var, dims):
    """Case `name` compiles with var's dims bounded by --max-shape."""
    FLAGS.setdefault(name, []).extend(["--max-shape", f"{var.name}={','.join(map(str, dims))}"])


def bound(name, values, dtype="int64"):
    BOUNDS[name] = values
    return paddle.static.data(name, [len(values)], dtype)


def slice_op(x, axes, starts, ends, decrease=(), flags=None, starts_attr=None, ends_attr=None):
    """A slice op as the fluid layer writes it: each of starts / ends a list
    (ints, or one-element tensors: the *TensorList) or one tensor."""
    helper = LayerHelper("slice")
    out = helper.create_variable_for_type_inference(x.dtype)
    inputs = {"Input": [x]}
    attrs = {"axes": list(axes), "decrease_axis": list(decrease)}
    for key, given, attr in (("Starts", starts, starts_attr), ("Ends", ends, ends_attr)):
        if isinstance(given, paddle.static.Variable):
            inputs[key + "Tensor"] = [given]
            attrs[key.lower()] = attr or [-1] * len(axes)
        elif any(isinstance(v, paddle.static.Variable) for v in given):
            inputs[key + "TensorList"] = [v for v in given]
            attrs[key.lower()] = [-1 if isinstance(v, paddle.static.Variable) else v for v in given]
        else:
            attrs[key.lower()] = list(given)
    attrs["infer_flags"] = flags or [-1] * len(axes)
    helper.append_op(type="slice", inputs=inputs, outputs={"Out": [out]}, attrs=attrs)
    return out


@case
def slice_starts_tensor():
    """StartsTensor (int64 [2]: 1, -3) on axes 1 and 2, ends from the
    attribute: Out is [B, 3, 3]."""
    x = paddle.static.data("x", [None, 6, 5], "float32")
    s = bound("s", [1, -3])
    return [x, s], [slice_op(x, [1, 2], s, [4, 5])]


@case
def slice_tensor_lists():
    """StartsTensorList and EndsTensorList of int32 feeds, an end past the
    axis (clamped), and axis 2 dropped (one element from fed bounds)."""
    x = paddle.static.data("x", [None, 7, 4], "float32")
    s0, s1 = bound("s0", [2], "int32"), bound("s1", [3], "int32")
    e0, e1 = bound("e0", [100], "int32"), bound("e1", [4], "int32")
    return [x, s0, s1, e0, e1], [slice_op(x, [1, 2], [s0, s1], [e0, e1], decrease=[2])]


@case
def slice_batch_axis():
    """paddle.slice on the batch axis (end from a feed: 2 of the 3 rows)
    and axis 2 with an attribute start and a fed end, then tanh is not
    applied: Out is fetched as the run made it."""
    x = paddle.static.data("x", [None, 4, 6], "float32")
    e = bound("e", [2])
    f = bound("f", [-1])
    return [x, e, f], [paddle.slice(x, axes=[0, 2], starts=[0, 1], ends=[e, f])]


@case
def slice_empty():
    """Fed bounds that select nothing (start == end) on a kept axis: Out
    has extent 0 there."""
    x = paddle.static.data("x", [None, 5], "float32")
    s = bound("s", [2, 2])
    return [x, s], [slice_op(x, [1], [s[0]], [s[1]])]


@case
def crop_offsets_tensor():
    """paddle.crop with a fixed shape [-1, 2, 3] and fed Offsets [0, 1, 2]:
    Out's dims are known, the offsets found and checked at run time."""
    x = paddle.static.data("x", [None, 5, 6], "float32")
    o = bound("o", [0, 1, 2], "int32")
    return [x, o], [paddle.crop(x, shape=[-1, 2, 3], offsets=o)]


@case
def crop_shape_tensor():
    """A fed Shape [2, 3, -1] (-1: the rest after the offset) with
    offsets [1, 1, 2]: every dim of Out is the run's."""
    x = paddle.static.data("x", [None, 5, 6], "float32")
    sh = bound("sh", [2, 3, -1], "int32")
    return [x, sh], [paddle.crop(x, shape=sh, offsets=[1, 1, 2])]


@case
def crop_lists():
    """Shape and offsets as lists mixing ints and fed one-element tensors
    (ShapeTensor, OffsetsTensor)."""
    x = paddle.static.data("x", [None, 7], "float32")
    s0, o1 = bound("s0", [2], "int32"), bound("o1", [3], "int32")
    return [x, s0, o1], [paddle.crop(x, shape=[s0, 4], offsets=[1, o1])]


@case
def strided_tensor_bounds():
    """paddle.strided_slice with Starts a fed tensor (1, -1), ends 7 and
    -7, strides 2 and -2: rows 1, 3, 5 of axis 1 and 5, 3, 1 of axis 2."""
    x = paddle.static.data("x", [None, 8, 6], "float32")
    s = bound("s", [1, -1])
    return [x, s], [paddle.strided_slice(x, axes=[1, 2], starts=s, ends=[7, -7], strides=[2, -2])]


@case
def strided_fed_strides():
    """A fed stride (int32, 3) on axis 2 and a fed end on the batch axis
    (3: all rows, stride -1 from the last: reversed), as lists."""
    x = paddle.static.data("x", [None, 4, 10], "float32")
    k, e = bound("k", [3], "int32"), bound("e", [-4], "int32")
    return [x, k, e], [paddle.strided_slice(x, axes=[0, 2], starts=[-1, 1], ends=[e, 10], strides=[-1, k])]


@case
def strided_tensor_ends_strides():
    """EndsTensor (-1, 6) and StridesTensor (1, 3) fed as one tensor each,
    starts from the attribute: axis 1 from 1 to the last, axis 2 every
    third."""
    x = paddle.static.data("x", [None, 5, 7], "float32")
    e, k = bound("e", [-1, 6]), bound("k", [1, 3])
    return [x, e, k], [paddle.strided_slice(x, axes=[1, 2], starts=[1, 0], ends=e, strides=k)]


@case
def strided_back_from_past_the_end():
    """A fed start of 100 on an axis of 10 with stride -3: the walk starts
    at the last element (9, 6, 3)."""
    x = paddle.static.data("x", [None, 10], "float32")
    s = bound("s", [100])
    return [x, s], [paddle.strided_slice(x, axes=[1], starts=s, ends=[0], strides=[-3])]


@case
def strided_dropped_last():
    """strided_slice as indexing writes x[:, -1, ::k]: axis 1 dropped with
    start -1, end 0 and infer_flags -1 (the last row), the stride of axis
    2 fed (2)."""
    x = paddle.static.data("x", [None, 4, 6], "float32")
    t, k = bound("t", [-1]), bound("k", [2])
    helper = LayerHelper("strided_slice")
    out = helper.create_variable_for_type_inference(x.dtype)
    helper.append_op(type="strided_slice",
                     inputs={"Input": [x], "StartsTensorList": [t, paddle.full([1], 0, "int64")],
                             "StridesTensorList": [paddle.full([1], 1, "int64"), k]},
                     outputs={"Out": [out]},
                     attrs={"axes": [1, 2], "starts": [-1, -1], "ends": [0, 6], "strides": [-1, -1],
                            "infer_flags": [-1, -1], "decrease_axis": [1]})
    return [x, t, k], [out]


@case
def split_fed_sections():
    """paddle.split(x, [s, -1, 2], axis=1) with s a fed int32 tensor (3):
    SectionsTensorList, sections 3, 3 and 2 of 8; each output fetched with
    the size the run gave it."""
    x = paddle.static.data("x", [None, 8, 2], "float32")
    s = bound("s", [3], "int32")
    return [x, s], paddle.split(x, [s, -1, 2], axis=1)


@case
def fill_fed_shape_tensor():
    """paddle.full(s, 1.5) with s a fed int32 tensor ([2, 3]): Out's dims
    are the run's, within --max-shape [4, 6]; tanh and the fetch take them."""
    s = bound("s", [2, 3], "int32")
    out = paddle.full(s, 1.5)
    max_shape("fill_fed_shape_tensor", out, [4, 6])
    return [s], [paddle.tanh(out)]


@case
def fill_fed_shape_list():
    """paddle.full([n, 3], -2.0, "float64") with n a fed int64 tensor (5):
    ShapeTensorList (a fed entry and a constant one), within [8, 3]."""
    n = bound("n", [5])
    out = paddle.full([n, 3], -2.0, "float64")
    max_shape("fill_fed_shape_list", out, [8, 3])
    return [n], [out]


@case
def range_fed_end():
    """paddle.arange(0, e, 2) with e a fed int64 tensor (7): [0, 2, 4, 6],
    within --max-shape [16]."""
    e = bound("e", [7])
    out = paddle.arange(0, e, 2)
    max_shape("range_fed_end", out, [16])
    return [e], [out]


@case
def range_fed_down():
    """paddle.arange(e, 0, -3) with e a fed int64 tensor (10): a negative
    step, [10, 7, 4, 1]."""
    e = bound("e", [10])
    out = paddle.arange(e, 0, -3)
    max_shape("range_fed_down", out, [5])
    return [e], [out]


@case
def range_fed_float_start():
    """paddle.arange(s, 2.0, 0.3, "float32") with s fed (0.1): the length
    is ceil(|(2 - 0.1) / 0.3|) in float32 (7)."""
    start = paddle.static.data("start", [1], "float32")
    out = paddle.arange(start, 2.0, 0.3, "float32")
    max_shape("range_fed_float_start", out, [10])
    return [start], [out]


@case
def linspace_fed_num():
    """paddle.linspace(-1.0, 2.0, n) with n a fed int32 tensor (6), within
    --max-shape [8]: both ends exact as Paddle's CPU kernel makes them."""
    n = bound("n", [6], "int32")
    out = paddle.linspace(-1.0, 2.0, n)
    max_shape("linspace_fed_num", out, [8])
    return [n], [out]


@case
def reshape_fed_shape():
    """paddle.reshape(x [B, 3, 4], s) with s a fed int32 tensor [4, -1, 3]:
    Shape's values, the -1 taking the elements left ([4, 3, 3] at batch 3),
    within --max-shape [6, 6, 6]; exp and the fetch after it."""
    x = paddle.static.data("x", [None, 3, 4], "float32")
    s = bound("s", [4, -1, 3], "int32")
    out = paddle.reshape(x, s)
    max_shape("reshape_fed_shape", out, [6, 6, 6])
    return [x, s], [paddle.exp(out)]


@case
def reshape_fed_list():
    """paddle.reshape(x [B, 3, 4], [0, t]) with t a fed int64 tensor (12):
    ShapeTensor, a 0 that copies X's dim 0 (the batch) and the fed entry,
    within [8, 12]."""
    x = paddle.static.data("x", [None, 3, 4], "float32")
    t = bound("t", [12])
    out = paddle.reshape(x, [0, t])
    max_shape("reshape_fed_list", out, [8, 12])
    return [x, t], [out]


@case
def expand_fed_shape():
    """paddle.expand(x [B, 1, 4], s) with s a fed int32 tensor [2, 3, 5, -1]:
    a new leading dim, X's dim 1 broadcast to 5, -1 keeping 4 ([2, 3, 5, 4]
    at batch 3), within --max-shape [2, 4, 6, 4]."""
    x = paddle.static.data("x", [None, 1, 4], "float32")
    s = bound("s", [2, 3, 5, -1], "int32")
    out = paddle.expand(x, s)
    max_shape("expand_fed_shape", out, [2, 4, 6, 4])
    return [x, s], [out]


@case
def expand_fed_list():
    """paddle.expand(x [B, 1], [-1, t]) with t a fed int64 tensor (6):
    expand_shapes_tensor, within [4, 8]; sigmoid after it."""
    x = paddle.static.data("x", [None, 1], "float32")
    t = bound("t", [6])
    out = paddle.expand(x, [-1, t])
    max_shape("expand_fed_list", out, [4, 8])
    return [x, t], [paddle.nn.functional.sigmoid(out)]


@case
def tile_fed_repeats():
    """paddle.tile(x [B, 2, 3], r) with r a fed int32 tensor [2, 1, 3]:
    RepeatTimes ([6, 2, 9] at batch 3), within --max-shape [8, 2, 9]."""
    x = paddle.static.data("x", [None, 2, 3], "float32")
    r = bound("r", [2, 1, 3], "int32")
    out = paddle.tile(x, r)
    max_shape("tile_fed_repeats", out, [8, 2, 9])
    return [x, r], [out]


@case
def tile_fed_list_short():
    """paddle.tile(x [B, 2, 3], [t, 2]) with t a fed int32 tensor (3):
    fewer repeat counts than X has dims (padded with 1 in front),
    repeat_times_tensor, within [3, 6, 6]."""
    x = paddle.static.data("x", [None, 2, 3], "float32")
    t = bound("t", [3], "int32")
    out = paddle.tile(x, [t, 2])
    max_shape("tile_fed_list_short", out, [3, 6, 6])
    return [x, t], [out]


@case
def roll_fed_shifts():
    """paddle.roll(x [B, 4, 5], s, axis=[1, 2]) with s a fed int64 tensor
    [6, -7]: ShiftsTensor's values read when the kernel runs (Out keeps X's
    shape), past the dims both ways; and roll over the flattened x by a
    fed shift of 5."""
    x = paddle.static.data("x", [None, 4, 5], "float32")
    s = bound("s", [6, -7])
    k = bound("k", [5])
    return [x, s, k], [paddle.roll(x, s, axis=[1, 2]), paddle.roll(x, k)]


@case
def roll_fed_shifts_grad():
    """The gradient of roll by fed shifts (roll_grad rolls Out@GRAD back):
    d(sum(roll(x, s) * w)) / dx with s = [2] along axis 1 (of 6: rolling
    back differs from rolling on)."""
    x = paddle.static.data("x", [None, 6], "float32")
    x.stop_gradient = False
    w = paddle.static.data("w", [None, 6], "float32")
    s = bound("s", [2])
    y = paddle.roll(x, s, axis=1)
    (dx,) = paddle.static.gradients([paddle.sum(y * w)], [x])
    return [x, w, s], [y, dx]


@case
def cumsum_fed_axis():
    """paddle.cumsum(x [B, 3, 4], axis=a) with a fed (int64 2): Paddle 2.6
    writes attribute axis as a VAR naming a and reads it when the kernel
    runs (Out keeps X's shape); and along b fed (int32 -3: the batch axis,
    counted from the end)."""
    x = paddle.static.data("x", [None, 3, 4], "float32")
    a = bound("a", [2])
    b = bound("b", [-3], "int32")
    return [x, a, b], [paddle.cumsum(x, axis=a), paddle.cumsum(x, axis=b)]


@case
def cumsum_fed_axis_grad():
    """The gradient of cumsum along a fed axis (cumsum_grad: the reverse
    cumsum of Out@GRAD along the same axis, the VAR attribute copied):
    d(sum(cumsum(x, a) * w)) / dx with a = [1] (int64)."""
    x = paddle.static.data("x", [None, 5], "float32")
    x.stop_gradient = False
    w = paddle.static.data("w", [None, 5], "float32")
    a = bound("a", [1])
    y = paddle.cumsum(x, axis=a)
    (dx,) = paddle.static.gradients([paddle.sum(y * w)], [x])
    return [x, w, a], [y, dx]


@case
def reduce_fed_axes():
    """Reductions along axes fed as tensors (attribute dim a VAR, or VARS
    of one-element tensors; Paddle reads them when it runs): paddle.sum(x
    [B, 3, 4], axis=a) with a = [2] (Out [B, 3] within the proven bound),
    paddle.max(x, axis=m, keepdim=True) with m int32 [-1, 0] ([1, 3, 1]),
    paddle.mean(x, axis=[k, 1]) with k int64 0 (VARS: [4]) and
    paddle.prod(x, axis=t) with t naming all three dims (every dim: [])."""
    x = paddle.static.data("x", [None, 3, 4], "float32")
    a = bound("a", [2])
    m = bound("m", [-1, 0], "int32")
    k = bound("k", [0])
    t = bound("t", [2, 0, -2])
    return [x, a, m, k, t], [paddle.sum(x, axis=a), paddle.max(x, axis=m, keepdim=True),
                             paddle.mean(x, axis=[k, 1]), paddle.prod(x, axis=t)]


@case
def reduce_fed_axes_grad():
    """The grads of sum, mean and max along a fed axis (the VAR attribute
    copied to reduce_*_grad): d(sum(tanh(r(x * w, a)))) / dx for x, w [B,
    3, 4] with a = [1] (int64): tanh gives each Out@GRAD element its own
    value.  (r(x, a) * w for a w of fixed dims is refused: Out's dims are
    the run's.)"""
    x = paddle.static.data("x", [None, 3, 4], "float32")
    x.stop_gradient = False
    w = paddle.static.data("w", [None, 3, 4], "float32")
    a = bound("a", [1])
    outs = []
    for f in (paddle.sum, paddle.mean, paddle.max):
        (dx,) = paddle.static.gradients([paddle.sum(paddle.tanh(f(x * w, axis=a)))], [x])
        outs.append(dx)
    return [x, w, a], outs


@case
def reduce_fed_axis_tensors():
    """reduce_all, _any, _amax and _amin: their op makers declare the
    inputs AxisTensor (one tensor of axes) and AxisTensorList (one-element
    tensors), but Paddle 2.6's kernels reduce along the attribute dim and
    never read them (raw ops: no Python API writes these inputs).  Each
    here is fed axes other than its dim, so a compiler that read them
    would give other shapes and values: amax of x [B, 3, 4] along dim [1]
    with AxisTensor a = [2] (Out [B, 4]); amin along dim [-1] keeping dims
    with AxisTensorList [b = 0, e = 1] (int32: Paddle wants one dtype in
    the list) ([B, 3, 1]); all of x > 0 along dim [] (every dim: []) with
    AxisTensor d = [1, 0]; any of x > 1 along dim [0, 2] with
    AxisTensorList [c = 1] ([3])."""
    x = paddle.static.data("x", [None, 3, 4], "float32")
    a, c, d = bound("a", [2]), bound("c", [1]), bound("d", [1, 0])
    b, e = bound("b", [0], "int32"), bound("e", [1], "int32")
    pos, big = x > 0, x > 1

    def red(type, x, dim, slot, axes, keep=False, dt="float32"):
        return append_op(type, {"X": [x], slot: axes}, {"Out": [dt]},
                         {"dim": dim, "keep_dim": keep, "reduce_all": False})[0]

    return [x, a, b, c, d, e], [red("reduce_amax", x, [1], "AxisTensor", [a]),
                                red("reduce_amin", x, [-1], "AxisTensorList", [b, e], keep=True),
                                red("reduce_all", pos, [], "AxisTensor", [d], dt="bool"),
                                red("reduce_any", big, [0, 2], "AxisTensorList", [c], dt="bool")]


@case
def argmax_fed_axis():
    """paddle.argmax(x [B, 3, 4], axis=a) with a fed (int64 1): Out [B, 4]
    within the proven bound; paddle.argmin(x, axis=b, keepdim=True) with b
    int32 -1: [B, 3, 1]."""
    x = paddle.static.data("x", [None, 3, 4], "float32")
    a = bound("a", [1])
    b = bound("b", [-1], "int32")
    return [x, a, b], [paddle.argmax(x, axis=a), paddle.argmin(x, axis=b, keepdim=True)]


@case
def squeeze_fed_axes():
    """paddle.squeeze(x [B, 1, 3, 1], axis=a) with a fed (int64 [1]: axes a
    VAR attribute): Out [B, 3, 1] within the proven bound; and axis=[b,
    -1] with b int32 1 (VARS of a fed and a constant tensor): [B, 3]."""
    x = paddle.static.data("x", [None, 1, 3, 1], "float32")
    a = bound("a", [1])
    b = bound("b", [1], "int32")
    return [x, a, b], [paddle.squeeze(x, axis=a), paddle.tanh(paddle.squeeze(x, axis=[b, -1]))]


@case
def affine_grid_fed_shape():
    """F.affine_grid(theta [B, 2, 3], g) with g fed (int32 [3, 1, 5, 6]):
    Output [B, 5, 6, 2] within --max-shape [4, 6, 8, 2], its sizes g's when
    the kernel runs; and its grad: d(sum(tanh(grid))) / dtheta."""
    theta = paddle.static.data("theta", [None, 2, 3], "float32")
    theta.stop_gradient = False
    g = bound("g", [3, 1, 5, 6], "int32")
    grid = paddle.nn.functional.affine_grid(theta, g, align_corners=False)
    max_shape("affine_grid_fed_shape", grid, [4, 6, 8, 2])
    (dtheta,) = paddle.static.gradients([paddle.sum(paddle.tanh(grid))], [theta])
    return [theta, g], [grid, dtheta]


@case
def one_hot_fed_depth():
    """F.one_hot(ids [B, 2], d) with d a fed int32 tensor (5): one_hot_v2's
    depth_tensor, Out [B, 2, 5] within --max-shape [4, 2, 8].  (Paddle 2.6
    no longer registers fluid's one_hot v1.)"""
    ids = paddle.static.data("ids", [None, 2], "int64")
    d = bound("d", [5], "int32")
    out = paddle.nn.functional.one_hot(ids, d)
    max_shape("one_hot_fed_depth", out, [4, 2, 8])
    return [ids, d], [out]


def fed_scale(name, values):
    FLOATS[name] = values
    return paddle.static.data(name, [len(values)], "float32")


@case
def bincount_counts():
    """paddle.bincount of fed values, each Out within --max-shape [16] (its
    size the largest value plus one, at least minlength): int64 counts
    without weights; float32 sums with float32 weights (minlength 2, below
    the largest); float64 sums of int32 values' int64 weights (Paddle's
    kernel sums integer weights as doubles); minlength 9 from a tensor,
    past the largest value (6 zeros at the end)."""
    v = bound("vals", [3, 0, 5, 3, 3, 1, 5, 2])
    v32 = bound("vals32", [4, 4, 0, 1], "int32")
    w = fed_scale("wts", [0.5, 1.0, -2.0, 0.25, 3.0, 1.5, 2.0, -1.0])
    wi = bound("wints", [3, -1, 4, 2])
    outs = [paddle.bincount(v), paddle.bincount(v, weights=w, minlength=2), paddle.bincount(v32, weights=wi),
            paddle.bincount(v, minlength=paddle.full([1], 9, "int64"))]
    for o in outs:
        max_shape("bincount_counts", o, [16])
    return [v, v32, w, wi], outs


def interp(type, x, inputs, **attrs):
    """A raw interp op (v1 or _v2) of x with its size inputs, for the
    combinations F.interpolate does not write."""
    a = {"data_layout": "NCHW", "out_d": -1, "out_h": -1, "out_w": -1, "scale": [] if "_v2" in type else 0.0,
         "align_corners": False, "align_mode": 1, "interp_method": type.split("_")[0]}
    a.update(attrs)
    return append_op(type, dict(X=x, **inputs), {"Out": ["float32"]}, a)[0]


@case
def interp_fed_size_list():
    """F.interpolate(x [B, 3, 5, 7], size=[h, w], mode="bilinear") with h
    and w fed int32 tensors (4, 9): SizeTensor, Out [B, 3, 4, 9] within
    --max-shape [4, 3, 8, 12]; tanh after it."""
    x = paddle.static.data("x", [None, 3, 5, 7], "float32")
    h, w = bound("h", [4], "int32"), bound("w", [9], "int32")
    out = paddle.nn.functional.interpolate(x, size=[h, w], mode="bilinear")
    max_shape("interp_fed_size_list", out, [4, 3, 8, 12])
    return [x, h, w], [paddle.tanh(out)]


@case
def interp_fed_outsize_nearest():
    """F.interpolate(x, size=s, mode="nearest") with s fed ([6, 3]): OutSize
    (Python casts it to int32), up in h and down in w, within [4, 3, 8, 8]."""
    x = paddle.static.data("x", [None, 3, 5, 7], "float32")
    s = bound("s", [6, 3])
    out = paddle.nn.functional.interpolate(x, size=s, mode="nearest")
    max_shape("interp_fed_outsize_nearest", out, [4, 3, 8, 8])
    return [x, s], [out]


@case
def interp_fed_scale():
    """F.interpolate(x, scale_factor=sc, mode="bilinear") with sc fed
    ([1.5, 0.7]): Out [B, 3, 7, 4] ((int)(5 * 1.5), (int)(7 * 0.7)), the
    ratios 1 / scale (align_corners false), within [4, 3, 8, 8]."""
    x = paddle.static.data("x", [None, 3, 5, 7], "float32")
    sc = fed_scale("sc", [1.5, 0.7])
    out = paddle.nn.functional.interpolate(x, scale_factor=sc, mode="bilinear")
    max_shape("interp_fed_scale", out, [4, 3, 8, 8])
    return [x, sc], [out]


@case
def interp_fed_scale_bicubic_nhwc():
    """bicubic, channel last, one fed scale for both dims (1.6): x [B, 5, 4,
    2] to [B, 8, 6, 2] within [3, 9, 9, 2] (rt_resize's path)."""
    x = paddle.static.data("x", [None, 5, 4, 2], "float32")
    sc = fed_scale("sc", [1.6])
    out = paddle.nn.functional.interpolate(x, scale_factor=sc, mode="bicubic", data_format="NHWC")
    max_shape("interp_fed_scale_bicubic_nhwc", out, [3, 9, 9, 2])
    return [x, sc], [out]


@case
def interp_fed_size_trilinear():
    """trilinear, size=[d, h, w] fed (int32: Paddle 2.6's kernel reads
    SizeTensor's as int32 and stops on int64 ones): x [B, 2, 3, 4, 5] to
    [B, 2, 4, 6, 3] within [3, 2, 5, 6, 4], align_corners true."""
    x = paddle.static.data("x", [None, 2, 3, 4, 5], "float32")
    d, h, w = bound("d", [4], "int32"), bound("h", [6], "int32"), bound("w", [3], "int32")
    out = paddle.nn.functional.interpolate(x, size=[d, h, w], mode="trilinear", align_corners=True,
                                           data_format="NCDHW")
    max_shape("interp_fed_size_trilinear", out, [3, 2, 5, 6, 4])
    return [x, d, h, w], [out]


@case
def interp_fed_scale_linear():
    """linear (1-D, NCW), one fed scale (1.5): x [B, 3, 6] to [B, 3, 9],
    align_mode 0 (half-pixel), within [3, 3, 12]."""
    x = paddle.static.data("x", [None, 3, 6], "float32")
    sc = fed_scale("sc", [1.5])
    out = paddle.nn.functional.interpolate(x, scale_factor=sc, mode="linear", align_mode=0, data_format="NCW")
    max_shape("interp_fed_scale_linear", out, [3, 3, 12])
    return [x, sc], [out]


@case
def interp_v1_fed_outsize_over_scale():
    """fluid's bilinear_interp (v1) with OutSize fed ([5, 6]) and Scale fed
    (2.0): the v1 kernel takes OutSize over Scale, its ratios from the
    sizes; align_corners true; within [4, 3, 6, 8]."""
    x = paddle.static.data("x", [None, 3, 4, 5], "float32")
    s = bound("s", [5, 6], "int32")
    sc = fed_scale("sc", [2.0])
    out = interp("bilinear_interp", x, {"OutSize": s, "Scale": sc}, align_corners=True)
    max_shape("interp_v1_fed_outsize_over_scale", out, [4, 3, 6, 8])
    return [x, s, sc], [out]


@case
def interp_v1_fed_scale_nearest():
    """fluid's nearest_interp (v1) with only Scale fed (1.5): x [B, 2, 4,
    6] to [B, 2, 6, 9], the ratios in / out; within [3, 2, 8, 10]."""
    x = paddle.static.data("x", [None, 2, 4, 6], "float32")
    sc = fed_scale("sc", [1.5])
    out = interp("nearest_interp", x, {"Scale": sc})
    max_shape("interp_v1_fed_scale_nearest", out, [3, 2, 8, 10])
    return [x, sc], [out]


@case
def interp_v2_const_outsize_fed_scale():
    """bilinear_interp_v2 with a constant OutSize ([6, 9]) and a fed Scale
    ([1.5, 1.2]): Out's size is OutSize's (known when compiling, no bound),
    the v2 kernel's ratios 1 / Scale (align_corners false)."""
    x = paddle.static.data("x", [None, 3, 5, 7], "float32")
    sc = fed_scale("sc", [1.5, 1.2])
    s = paddle.assign(np.array([6, 9], "int32"))
    return [x, sc], [interp("bilinear_interp_v2", x, {"OutSize": s, "Scale": sc})]


def pad3d(x, paddings, mode, fmt="NCDHW", value=0.0):
    return append_op("pad3d", {"X": x, "Paddings": paddings}, {"Out": ["float32"]},
                     {"paddings": [], "mode": mode, "value": value, "data_format": fmt})[0]


@case
def pad3d_fed_paddings_constant():
    """pad3d (NCDHW, constant 0.75) with Paddings fed (int32 [1, 2, 0, 1,
    2, 0]: left, right, top, bottom, front, back): x [B, 2, 2, 3, 4] to [B,
    2, 4, 4, 7] within --max-shape [4, 2, 5, 6, 8]; tanh after it."""
    x = paddle.static.data("x", [None, 2, 2, 3, 4], "float32")
    p = bound("p", [1, 2, 0, 1, 2, 0], "int32")
    out = pad3d(x, p, "constant", value=0.75)
    max_shape("pad3d_fed_paddings_constant", out, [4, 2, 5, 6, 8])
    return [x, p], [paddle.tanh(out)]


@case
def pad3d_fed_paddings_negative():
    """pad3d (NCDHW, constant -0.5) with Paddings fed negative where they
    crop (int64 [-1, 2, 1, -2, 0, -1]): x [B, 2, 3, 4, 5] to [B, 2, 2, 3,
    6] within --max-shape [4, 2, 4, 5, 8]; and circular (int32 [2, -1, -1,
    1, 1, -2]): [B, 2, 2, 4, 6] within the same bound."""
    x = paddle.static.data("x", [None, 2, 3, 4, 5], "float32")
    p = bound("p", [-1, 2, 1, -2, 0, -1])
    q = bound("q", [2, -1, -1, 1, 1, -2], "int32")
    a, b = pad3d(x, p, "constant", value=-0.5), pad3d(x, q, "circular")
    max_shape("pad3d_fed_paddings_negative", a, [4, 2, 4, 5, 8])
    max_shape("pad3d_fed_paddings_negative", b, [4, 2, 4, 5, 8])
    return [x, p, q], [a, b]


@case
def pad3d_fed_paddings_grad():
    """The gradient of pad3d by fed Paddings (pad3d_grad takes the Paddings
    tensor too): d(sum(tanh(pad3d(x, p)))) / dx for reflect with p = [1, -1,
    2, 0, 1, 1] (int64), x [B, 2, 3, 4, 5], Out within [4, 2, 6, 7, 6]."""
    x = paddle.static.data("x", [None, 2, 3, 4, 5], "float32")
    x.stop_gradient = False
    p = bound("p", [1, -1, 2, 0, 1, 1])
    y = pad3d(x, p, "reflect")
    max_shape("pad3d_fed_paddings_grad", y, [4, 2, 6, 7, 6])
    (dx,) = paddle.static.gradients([paddle.sum(paddle.tanh(y))], [x])
    return [x, p], [y, dx]


@case
def pad3d_fed_paddings_reflect_ndhwc():
    """pad3d reflect, channel last, Paddings fed (int64 [2, 1, 1, 2, 1, 0]):
    x [B, 3, 4, 5, 2] to [B, 4, 7, 8, 2] within [3, 4, 8, 8, 2]."""
    x = paddle.static.data("x", [None, 3, 4, 5, 2], "float32")
    p = bound("p", [2, 1, 1, 2, 1, 0])
    out = pad3d(x, p, "reflect", "NDHWC")
    max_shape("pad3d_fed_paddings_reflect_ndhwc", out, [3, 4, 8, 8, 2])
    return [x, p], [out]


@case
def pad3d_fed_paddings_circular():
    """pad3d circular and replicate with the same fed Paddings ([3, 0, 2,
    1, 1, 1]): x [B, 2, 2, 3, 4] to [B, 2, 4, 6, 7] within [3, 2, 4, 6, 7]
    each."""
    x = paddle.static.data("x", [None, 2, 2, 3, 4], "float32")
    p = bound("p", [3, 0, 2, 1, 1, 1], "int32")
    outs = [pad3d(x, p, m) for m in ("circular", "replicate")]
    for o in outs:
        max_shape("pad3d_fed_paddings_circular", o, [3, 2, 4, 6, 7])
    return [x, p], outs


@case
def pad3d_const_paddings():
    """pad3d reflect with a Paddings tensor of constant values ([1, 1, 2,
    0, 0, 1]): Paddle declares Out's spatial dims unknown; the compiler
    knows them ([B, 2, 3, 5, 6])."""
    x = paddle.static.data("x", [None, 2, 2, 3, 4], "float32")
    p = paddle.assign(np.array([1, 1, 2, 0, 0, 1], "int32"))
    return [x], [pad3d(x, p, "reflect")]


@case
def concat_fed_axis():
    """paddle.concat([x, y], axis=t) with x, y [2, 3, 4] and t fed (int32
    1): Out [2, 6, 4] within the bound the compiler proves ([4, 6, 8]:
    each dim the largest of the three axes)."""
    x = paddle.static.data("x", [2, 3, 4], "float32")
    y = paddle.static.data("y", [2, 3, 4], "float32")
    t = bound("t", [1], "int32")
    return [x, y, t], [paddle.concat([x, y], axis=t)]


@case
def concat_fed_axis_negative():
    """paddle.concat([x, y, z], axis=t) with x [2, 3], y [2, 5], z [2, 1]
    (they fit along axis 1 only) and t fed (int64 -1): Out [2, 9]."""
    x = paddle.static.data("x", [2, 3], "float32")
    y = paddle.static.data("y", [2, 5], "float32")
    z = paddle.static.data("z", [2, 1], "float32")
    t = bound("t", [-1])
    return [x, y, z, t], [paddle.concat([x, y, z], axis=t)]


@case
def gather_fed_axis():
    """paddle.gather(x [2, 3, 4], i, axis=t) with i fed ([3, 0, 2], int64)
    and t fed (int64 2): Out [2, 3, 3] within the proven bound [3, 3, 4]."""
    x = paddle.static.data("x", [2, 3, 4], "float32")
    i = bound("i", [3, 0, 2])
    t = bound("t", [2])
    return [x, i, t], [paddle.gather(x, i, axis=t)]


@case
def gather_fed_axis_zero():
    """paddle.gather(x [3, 2], i, axis=t) with an int32 index and t fed
    (int32 0: Paddle's CPUGather, not GatherV2): Out [2, 2]."""
    x = paddle.static.data("x", [3, 2], "float32")
    i = bound("i", [2, 0], "int32")
    t = bound("t", [0], "int32")
    return [x, i, t], [paddle.gather(x, i, axis=t)]


@case
def split_fed_axis():
    """paddle.split(x [2, 4, 6], 2, axis=t) with t fed (int64 1): two [2,
    2, 6] within the proven bound."""
    x = paddle.static.data("x", [2, 4, 6], "float32")
    t = bound("t", [1])
    return [x, t], paddle.split(x, 2, axis=t)


@case
def split_fed_axis_sections():
    """paddle.split(x [2, 4, 6], [1, -1, 2], axis=t) with t fed (int32 2):
    [2, 4, 1], [2, 4, 3], [2, 4, 2]; tanh after the second."""
    x = paddle.static.data("x", [2, 4, 6], "float32")
    t = bound("t", [2], "int32")
    a, b, c = paddle.split(x, [1, -1, 2], axis=t)
    return [x, t], [a, paddle.tanh(b), c]


@case
def split_fed_axis_fed_sections():
    """paddle.split(x [B, 6, 5], [s, -1, 1], axis=t) with s fed (int32 2)
    and t fed (int64 2): AxisTensor and SectionsTensorList both the run's;
    [B, 6, 2], [B, 6, 2], [B, 6, 1], each within X's dims; tanh after the
    second.  And split(y [2, 6, 5], [k, 3], axis=t) with k a constant
    tensor (2): the sections known, the axis the run's (y's dims fixed, as
    the bound over the axes needs)."""
    x = paddle.static.data("x", [None, 6, 5], "float32")
    y = paddle.static.data("y", [2, 6, 5], "float32")
    s = bound("s", [2], "int32")
    t = bound("t", [2])
    a, b, c = paddle.split(x, [s, -1, 1], axis=t)
    k = paddle.full([1], 2, "int32")
    d, f = paddle.split(y, [k, 3], axis=t)
    return [x, y, s, t], [a, paddle.tanh(b), c, d, f]


@case
def unsqueeze_fed_axes():
    """paddle.unsqueeze(x [2, 3], axis=t) with t fed (int32 [-1, 0]):
    AxesTensor; -1 appends a 1 ([2, 3, 1]), then 0 puts one in front:
    [1, 2, 3, 1]."""
    x = paddle.static.data("x", [2, 3], "float32")
    t = bound("t", [-1, 0], "int32")
    return [x, t], [paddle.unsqueeze(x, axis=t)]


@case
def unsqueeze_fed_axes_list():
    """paddle.unsqueeze(x [2, 3], axis=[t, 1]) with t fed (int64 1):
    AxesTensorList of a fed and a constant entry; the second 1 moves the
    first right: [2, 1, 1, 3]."""
    x = paddle.static.data("x", [2, 3], "float32")
    t = bound("t", [1])
    return [x, t], [paddle.unsqueeze(x, axis=[t, 1])]


@case
def unsqueeze_const_axes():
    """paddle.unsqueeze(x, axis=[c, 2]) with c a constant tensor (0): the
    compiler knows the axes ([1, B, 1, 4])."""
    x = paddle.static.data("x", [None, 4], "float32")
    c = paddle.full([1], 0, "int64")
    return [x], [paddle.unsqueeze(x, axis=[c, 2])]


@case
def eye_fed_rows():
    """paddle.eye(n) and paddle.eye(n, 3) with n fed (int64 4): num_rows is
    a VAR attribute naming n; Out [4, 4] within --max-shape [6, 6], and [4,
    3] within [6, 3]."""
    n = bound("n", [4])
    a, b = paddle.eye(n), paddle.eye(n, 3)
    max_shape("eye_fed_rows", a, [6, 6])
    max_shape("eye_fed_rows", b, [6, 3])
    return [n], [a, b]


SHAPES = {"dpb_x": [2, 8, 6, 5], "dpb_img": [2, 3, 48, 40],  # feeds of the run's sizes: the sizes fed
          "ct_x": [2, 4, 5, 4], "ct_skip": [2, 3, 10, 7], "ri_x": [3, 2, 5, 6], "rs_x": [3, 4, 7, 2]}


@case
def interp_fed_size_run_hw():
    """F.interpolate of an image whose height and width the run gives (ri_x
    [3, 2, 5, 6] within --max-shape [3, 2, 8, 8]) to a fed size (s int32 [7,
    4], bilinear, within [3, 2, 9, 9]) and by a fed scale (sc [1.5, 0.5],
    nearest, within [3, 2, 12, 12]); and the grads of both:
    d(sum(tanh(a) + tanh(b))) / dx."""
    x = paddle.static.data("ri_x", [3, 2, None, None], "float32")
    x.stop_gradient = False
    max_shape("interp_fed_size_run_hw", x, [3, 2, 8, 8])
    s = bound("s", [7, 4], "int32")
    sc = fed_scale("sc", [1.5, 0.5])
    a = paddle.nn.functional.interpolate(x, size=s, mode="bilinear")
    b = paddle.nn.functional.interpolate(x, scale_factor=sc, mode="nearest")
    max_shape("interp_fed_size_run_hw", a, [3, 2, 9, 9])
    max_shape("interp_fed_size_run_hw", b, [3, 2, 12, 12])
    (dx,) = paddle.static.gradients([paddle.sum(paddle.tanh(a)) + paddle.sum(paddle.tanh(b))], [x])
    return [x, s, sc], [a, b, dx]


@case
def interp_fed_scale_grad():
    """The grad of a v2 resize by a fed Scale over an image of fixed sizes
    (rs_x [3, 4, 7, 2] channel last, bicubic, sc [1.4, 2.5]: Out [3, 5, 17,
    2] within [3, 6, 18, 2]): the ratios 1 / scale, read again by
    interp_grad."""
    x = paddle.static.data("rs_x", [3, 4, 7, 2], "float32")
    x.stop_gradient = False
    sc = fed_scale("sc", [1.4, 2.5])
    out = paddle.nn.functional.interpolate(x, scale_factor=sc, mode="bicubic", data_format="NHWC")
    max_shape("interp_fed_scale_grad", out, [3, 6, 18, 2])
    (dx,) = paddle.static.gradients([paddle.sum(paddle.tanh(out))], [x])
    return [x, sc], [out, dx]


@case
def conv_transpose_output_size_tensor():
    """conv2d_transpose with output_size=paddle.shape(skip)[2:] (a VAR
    attribute, as a U-Net decoder writes it to match its skip connection):
    skip's dims are fixed, so the compiler knows the values (10 and 7: from
    a 5 x 4 map with stride 2 and padding 1 the sizes 9 to 10 and 7 to 8
    are allowed); added to skip."""
    x = paddle.static.data("ct_x", [2, 4, 5, 4], "float32")
    skip = paddle.static.data("ct_skip", [2, 3, 10, 7], "float32")
    up = paddle.nn.Conv2DTranspose(4, 3, 3, stride=2, padding=1)
    return [x, skip], [up(x, output_size=paddle.shape(skip)[2:]) + skip]


@case
def density_prior_box_run_sizes():
    """density_prior_box over a feature map and an image whose heights and
    widths the run gives (x [2, 8, 6, 5], img [2, 3, 48, 40] within
    --max-shape [2, 8, 8, 8] and [2, 3, 64, 64]): Boxes and Variances
    [6, 5, priors, 4], and flatten_to_2d's [6 * 5 * priors, 4]."""
    x = paddle.static.data("dpb_x", [None, 8, None, None], "float32")
    img = paddle.static.data("dpb_img", [None, 3, None, None], "float32")
    max_shape("density_prior_box_run_sizes", x, [2, 8, 8, 8])
    max_shape("density_prior_box_run_sizes", img, [2, 3, 64, 64])
    outs = []
    for attrs in ({"fixed_sizes": [8.0, 16.0], "fixed_ratios": [1.0, 2.0], "densities": [2, 1]},
                  {"fixed_sizes": [8.0, 24.0], "fixed_ratios": [1.0, 0.5], "densities": [3, 1], "flatten_to_2d": True,
                   "clip": False}):
        outs += append_op("density_prior_box", {"Input": [x], "Image": [img]}, {"Boxes": ["float32"],
                          "Variances": ["float32"]}, dict(attrs, variances=[0.1, 0.1, 0.2, 0.2]))
    return [x, img], outs


def make_input(v, rng):
    if v.name in SHAPES:
        return rng.standard_normal(SHAPES[v.name]).astype("float32")
    if v.name in FLOATS:
        return np.array(FLOATS[v.name], "float32")
    if v.name in BOUNDS:
        return np.array(BOUNDS[v.name], "int64" if "int64" in str(v.dtype) else "int32")
    if v.name == "ids":  # one_hot_fed_depth's: ids in [0, 5)
        return rng.integers(0, 5, [BATCH if d in (None, -1) else d for d in v.shape]).astype("int64")
    if v.name == "start":  # range_fed_float_start's
        return np.array([0.1], "float32")
    shape = [BATCH if d in (None, -1) else d for d in v.shape]
    return rng.standard_normal(shape).astype("float32")


if __name__ == "__main__":
    run_static_cases(CASES, make_input)
    for name, flags in FLAGS.items():
        if os.path.isdir(os.path.join(sys.argv[1], name)):
            with open(os.path.join(sys.argv[1], name, "flags.json"), "w") as f:
                json.dump(flags, f)

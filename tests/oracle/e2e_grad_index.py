"""Gradient cases of the index, scatter and layout ops: take_along_axis,
put_along_axis (every Reduce, with and without Include_self),
index_sample, index_add, scatter (overwrite or not), scatter_nd_add,
repeat_interleave (Repeats and RepeatsTensor), broadcast_tensors,
crop_tensor, pixel_shuffle and pixel_unshuffle, channel_shuffle and
shuffle_channel, temporal_shift (NCHW and NHWC), maxout (ties), lrn,
affine_channel (NCHW and NHWC; float64 too, forward outputs fetched and
held to TOL64), max_pool3d_with_index, unpool and unpool3d, unfold and fold,
affine_grid (2-D and 3-D, align_corners), bilinear_tensor_product,
the fluid 1.x linear_interp, bicubic_interp and trilinear_interp,
masked_select (Mask or X broadcast; through a sum or a mean),
checked against Paddle's own grad ops (oracle_case.build_grad_case).

Feeds named ids_v<N> hold ids in [0, N) (repeated ones included); feeds
named tie* hold small integers (as floats), so that a max or min is reached
by several values.

    python e2e_grad_index.py OUTDIR [CASE ...]
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, case_registry, grad_input as data, run_grad_cases  # noqa: E402,F401

import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

CASES, case = case_registry()


def ids(n, shape, dtype="int64"):
    return f"ids_v{n}", paddle.static.data(f"ids_v{n}", shape, dtype)


def take(name, xs, idx_shape, axis, n, dtype="int64"):
    def f():
        x = data("x", xs)
        iname, idx = ids(n, idx_shape, dtype)
        return ["x", iname], [paddle.take_along_axis(x, idx, axis)], [x]
    f.__name__ = name
    case(f)


take("take_axis1_dup", [3, 5, 4], [3, 7, 4], 1, 5)
take("take_axis_neg2_int32", [4, 3], [2, 3], -2, 4, "int32")
take("take_broadcast_last", [3, 4, 2], [3, 4, 1], 2, 2)
take("take_axis0_1d", [6], [9], 0, 6)


def put(name, xs, idx_shape, axis, n, reduce, include_self=True, feed="x", dtype="int64"):
    def f():
        x = data(feed, xs)
        v = data(feed + "_v", idx_shape)
        iname, idx = ids(n, idx_shape, dtype)
        out = paddle.put_along_axis(x, idx, v, axis, reduce=reduce, include_self=include_self)
        return [feed, feed + "_v", iname], [out], [x, v]
    f.__name__ = name
    case(f)


put("put_assign_axis0_dup", [3, 4], [5, 4], 0, 3, "assign")
put("put_assign_axis1_int32", [2, 5, 3], [2, 4, 3], -2, 5, "assign", dtype="int32")
put("put_add_axis1", [3, 4], [3, 6], 1, 4, "add")
put("put_add_noself", [3, 4], [3, 6], 1, 4, "add", False)
put("put_mul_axis0", [3, 4, 2], [4, 4, 2], 0, 3, "mul")
put("put_mul_noself", [3, 4], [3, 5], 1, 4, "multiply", False)
put("put_mean", [4, 3], [6, 3], 0, 4, "mean")
put("put_mean_noself", [4, 3], [6, 3], 0, 4, "mean", False)
put("put_amax_ties", [3, 5], [3, 8], 1, 5, "amax", feed="tie")
put("put_amin_ties_noself", [5, 3], [7, 3], 0, 5, "amin", False, feed="tie")


def index_sample(name, xs, idx_shape, dtype="int64"):
    def f():
        x = data("x", xs)
        iname, idx = ids(xs[1], idx_shape, dtype)
        return ["x", iname], [paddle.index_sample(x, idx)], [x]
    f.__name__ = name
    case(f)


index_sample("index_sample_dup", [3, 4], [3, 7])
index_sample("index_sample_int32", [5, 6], [5, 2], "int32")


def index_add(name, xs, n_idx, axis, dtype="int64"):
    def f():
        x = data("x", xs)
        a = axis % len(xs)
        vs = list(xs)
        vs[a] = n_idx
        v = data("v", vs)
        iname, idx = ids(xs[a], [n_idx], dtype)
        return ["x", "v", iname], [paddle.index_add(x, idx, axis, v)], [x, v]
    f.__name__ = name
    case(f)


index_add("index_add_axis1_dup", [3, 4, 2], 6, 1)
index_add("index_add_axis_neg1_int32", [2, 5], 3, -1, "int32")
index_add("index_add_axis0", [4, 3], 5, 0)


def scatter(name, xs, n_ids, overwrite, dtype="int64", upd_rows=None):
    def f():
        x = data("x", xs)
        u = data("u", [n_ids] + list(xs[1:]))
        iname, idx = ids(xs[0], [n_ids], dtype)
        return ["x", "u", iname], [paddle.scatter(x, idx, u, overwrite=overwrite)], [x, u]
    f.__name__ = name
    case(f)


scatter("scatter_overwrite_dup", [4, 3], 6, True)
scatter("scatter_add_dup", [4, 3, 2], 7, False)
scatter("scatter_overwrite_int32", [5, 2], 3, True, "int32")


def scatter_nd_add(name, xs, idx_shape, n, dtype="int64"):
    def f():
        x = data("x", xs)
        k = idx_shape[-1]
        u = data("u", list(idx_shape[:-1]) + list(xs[k:]))
        iname, idx = ids(n, idx_shape, dtype)
        return ["x", "u", iname], [paddle.scatter_nd_add(x, idx, u)], [x, u]
    f.__name__ = name
    case(f)


scatter_nd_add("scatter_nd_add_k1_dup", [3, 4], [5, 1], 3)
scatter_nd_add("scatter_nd_add_k2_int32", [3, 3, 2], [2, 3, 2], 3, "int32")
scatter_nd_add("scatter_nd_add_full", [2, 2], [4, 2], 2)


def repeat(name, xs, repeats, axis):
    def f():
        x = data("x", xs)
        if not isinstance(repeats, list):
            return ["x"], [paddle.repeat_interleave(x, repeats, axis)], [x]
        out = paddle.repeat_interleave(x, paddle.assign(np.array(repeats, "int64")), axis)
        shape = list(xs)
        shape[axis] = sum(repeats)
        # Paddle leaves the repeated dim -1: a reshape gives the fed gradient its size
        return ["x"], [paddle.reshape(out, shape)], [x]
    f.__name__ = name
    case(f)


repeat("repeat_int_axis1", [3, 4, 2], 3, 1)
repeat("repeat_int_flat", [2, 3], 2, None)
repeat("repeat_tensor_axis0", [3, 4], [2, 0, 3], 0)
repeat("repeat_tensor_axis2", [2, 2, 3], [1, 4, 2], 2)


@case
def broadcast_tensors3():
    a, b, c = data("a", [3, 1, 4]), data("b", [2, 1]), data("c", [3, 2, 4])
    return ["a", "b", "c"], list(paddle.broadcast_tensors([a, b, c])), [a, b, c]


# (an input that stops the gradient is left out: Paddle 2.6's CPU
# broadcast_tensors_grad then crashes writing its empty X@GRAD)


def crop(name, xs, shape, offsets):
    def f():
        x = data("x", xs)
        return ["x"], [paddle.crop(x, shape, offsets)], [x]
    f.__name__ = name
    case(f)


crop("crop_2d", [5, 6], [2, 3], [1, 2])
crop("crop_rest", [3, 4, 5], [-1, 2, -1], [1, 0, 2])


def layout(name, xs, fn):
    def f():
        x = data("x", xs)
        return ["x"], [fn(x)], [x]
    f.__name__ = name
    case(f)


layout("pixel_shuffle_nchw", [2, 8, 3, 2], lambda x: F.pixel_shuffle(x, 2))
layout("pixel_shuffle_nhwc", [2, 3, 2, 18], lambda x: F.pixel_shuffle(x, 3, "NHWC"))
layout("pixel_unshuffle_nchw", [2, 2, 4, 6], lambda x: F.pixel_unshuffle(x, 2))
layout("pixel_unshuffle_nhwc", [1, 6, 3, 2], lambda x: F.pixel_unshuffle(x, 3, "NHWC"))
layout("channel_shuffle_nchw", [2, 6, 2, 3], lambda x: F.channel_shuffle(x, 3))
layout("channel_shuffle_nhwc", [2, 2, 3, 8], lambda x: F.channel_shuffle(x, 2, "NHWC"))
layout("shuffle_channel", [2, 6, 2, 2],
       lambda x: op("shuffle_channel", {"X": x}, {"Out": ["float32"]}, {"group": 2})[0])
layout("temporal_shift_nchw", [6, 8, 2, 3], lambda x: F.temporal_shift(x, 3, 0.25))
layout("temporal_shift_nhwc", [4, 2, 3, 10], lambda x: F.temporal_shift(x, 2, 0.2, data_format="NHWC"))
layout("unfold_pad_stride", [2, 3, 5, 5], lambda x: F.unfold(x, [2, 3], [1, 2], [1, 0, 0, 1], 1))
layout("unfold_dilation", [1, 2, 6, 5], lambda x: F.unfold(x, 2, 1, 0, 2))
layout("fold_basic", [2, 12, 12], lambda x: F.fold(x, [4, 5], 2))
layout("fold_pad_stride", [1, 8, 12], lambda x: F.fold(x, [5, 6], 2, strides=2, paddings=1))
layout("maxout_axis1", [2, 6, 3, 2], lambda x: F.maxout(x, 3))
layout("maxout_axis_neg1", [2, 2, 3, 4], lambda x: F.maxout(x, 2, -1))


@case
def maxout_ties():
    x = data("tie", [2, 8, 2, 2])
    return ["tie"], [F.maxout(x, 4, 1)], [x]


def lrn(name, xs, attrs):
    def f():
        x = data("x", xs)
        out = op("lrn", {"X": x}, {"Out": ["float32"], "MidOut": ["float32"]}, attrs)[0]
        return ["x"], [out], [x]
    f.__name__ = name
    case(f)


lrn("lrn_default", [2, 6, 3, 2], {})
lrn("lrn_n3_nhwc", [2, 3, 2, 5], {"n": 3, "k": 1.0, "alpha": 0.01, "beta": 0.5, "data_format": "NHWC"})


def affine_channel(name, xs, layout, dtype="float32"):
    def f():
        x = data("x", xs, dtype)
        ch = xs[-1] if layout == "NHWC" else xs[1]
        sc, b = data("sc", [ch], dtype), data("b", [ch], dtype)
        out = op("affine_channel", {"X": x, "Scale": sc, "Bias": b}, {"Out": [dtype]}, {"data_layout": layout})[0]
        return ["x", "sc", "b"], [out], [x, sc, b]
    f.__name__ = name
    f.fetch_outs = dtype == "float64"  # the float64 forward is checked here
    case(f)


affine_channel("affine_channel_nchw", [2, 3, 4, 5], "NCHW")
affine_channel("affine_channel_nhwc", [3, 2, 2, 4], "NHWC")
affine_channel("affine_channel_nchw_f64", [2, 3, 4, 5], "NCHW", "float64")
affine_channel("affine_channel_nhwc_f64", [3, 2, 2, 4], "NHWC", "float64")
affine_channel("affine_channel_rank3_nchw_f64", [2, 5, 7], "NCHW", "float64")
affine_channel("affine_channel_batch_nhwc_f64", [-1, 3, 4], "NHWC", "float64")



@case
def max_pool3d_index():
    x = data("x", [2, 2, 4, 5, 4])
    out, _ = F.max_pool3d(x, 2, stride=[2, 1, 2], padding=[0, 1, 0], return_mask=True)
    return ["x"], [out], [x]


@case
def max_pool3d_index_overlap():
    x = data("tie", [1, 3, 5, 5, 5])
    out, _ = F.max_pool3d(x, 3, stride=2, return_mask=True)
    return ["tie"], [out], [x]


@case
def unpool2d():
    x = data("x", [2, 3, 4, 6])
    out, mask = F.max_pool2d(x, 2, return_mask=True)
    return ["x"], [F.max_unpool2d(out, mask, 2, output_size=[5, 7])], [x]


@case
def unpool2d_overlap():
    x = data("x", [1, 2, 5, 5])
    out, mask = F.max_pool2d(x, 3, stride=2, return_mask=True)
    return ["x"], [F.max_unpool2d(out, mask, 3, stride=2)], [x]


@case
def unpool3d():
    x = data("x", [1, 2, 4, 4, 6])
    out, mask = F.max_pool3d(x, 2, return_mask=True)
    return ["x"], [F.max_unpool3d(out, mask, 2)], [x]



def affine_grid(name, ts, shape, align):
    def f():
        t = data("theta", ts)
        grid = F.affine_grid(t, shape, align_corners=align)
        # Paddle leaves the grid's spatial dims -1: a reshape gives the fed gradient its size
        return ["theta"], [paddle.reshape(grid, [shape[0]] + shape[2:] + [len(shape) - 2])], [t]
    f.__name__ = name
    case(f)


affine_grid("affine_grid_2d", [2, 2, 3], [2, 1, 4, 5], True)
affine_grid("affine_grid_2d_noalign", [2, 2, 3], [2, 3, 3, 6], False)
affine_grid("affine_grid_3d", [1, 3, 4], [1, 1, 2, 3, 4], True)
affine_grid("affine_grid_3d_noalign", [2, 3, 4], [2, 1, 3, 2, 2], False)



@case
def bilinear_tensor_product():
    x, y = data("x", [-1, 3]), data("y", [-1, 4])
    w = paddle.static.create_parameter([5, 3, 4], "float32", name="bil_w")
    b = paddle.static.create_parameter([1, 5], "float32", name="bil_b")
    out = F.bilinear(x, y, w, b)
    return ["x", "y"], [out], [x, y]


@case
def bilinear_tensor_product_nobias():
    x, y = data("x", [4, 2]), data("y", [4, 3])
    w = paddle.static.create_parameter([2, 2, 3], "float32", name="bil_w")
    return ["x", "y"], [F.bilinear(x, y, w)], [x, y]



def interp_v1(name, type, xs, **attrs):
    """A fluid 1.x interp op (linear_interp, bicubic_interp,
    trilinear_interp), which Paddle 2.6 still runs and differentiates
    (the nearest and bilinear ones are in e2e_grad_interp.py)."""
    def f():
        x = data("x", xs)
        a = {"data_layout": "NCHW", "out_d": -1, "out_h": -1, "out_w": -1, "scale": 0.0, "align_corners": True,
             "align_mode": 1, "interp_method": type.split("_")[0]}
        a.update(attrs)
        return ["x"], [op(type, {"X": x}, {"Out": ["float32"]}, a)[0]], [x]
    f.__name__ = name
    case(f)


interp_v1("linear_v1_align", "linear_interp", [2, 3, 6], out_w=11)
interp_v1("linear_v1_mode0_nwc", "linear_interp", [2, 5, 3], out_w=8, align_corners=False, align_mode=0,
          data_layout="NHWC")
interp_v1("bicubic_v1_align", "bicubic_interp", [2, 3, 4, 5], out_h=7, out_w=9)
interp_v1("bicubic_v1_half_nhwc", "bicubic_interp", [1, 6, 5, 2], out_h=4, out_w=7, align_corners=False,
          data_layout="NHWC")
# (the fluid ops take "NCHW" as channel first for every rank; paddlec
# refuses "NCDHW", which their kernels read as channel last)
interp_v1("trilinear_v1_align", "trilinear_interp", [1, 2, 3, 4, 5], out_d=5, out_h=3, out_w=7)
interp_v1("trilinear_v1_mode0", "trilinear_interp", [2, 2, 3, 2, 4], out_d=4, out_h=5, out_w=3,
          align_corners=False, align_mode=0)
interp_v1("trilinear_v1_scale", "trilinear_interp", [1, 2, 2, 3, 4], scale=1.5, align_corners=False)


def masked(name, xs, ms, reduce):
    """masked_select's grad through a sum or mean of what it selects (a
    fed dout of the selection's own size cannot be made: its length is
    only known at run time)."""
    def f():
        x = data("x", xs)
        m = paddle.static.data("mask", ms, "bool")
        return ["x", "mask"], [reduce(paddle.masked_select(x, m))], [x]
    f.__name__ = name
    case(f)


masked("masked_select_sum", [3, 4], [3, 4], paddle.sum)
masked("masked_select_mean_mask_broadcast", [2, 3, 4], [3, 1], paddle.mean)
masked("masked_select_sum_x_broadcast", [3, 1], [2, 3, 5], paddle.sum)


@case
def multiplex_three():
    """multiplex of three candidates (ids drawn in [0, 3)): the forward and
    each candidate's gradient (rows the ids did not pick stay zero)."""
    a, b, c = data("a", [-1, 2, 3]), data("b", [-1, 2, 3]), data("c", [-1, 2, 3])
    ids = paddle.static.data("ids_v3", [-1, 1], "int32")
    return ["a", "b", "c", "ids_v3"], [paddle.multiplex([a, b, c], ids)], [a, b, c]


@case
def multiplex_f64_one_grad():
    a, b = data("a", [5, 4], "float64"), paddle.static.data("b", [5, 4], "float64")
    ids = paddle.static.data("ids_v2", [5, 1], "int32")
    return ["a", "b", "ids_v2"], [paddle.multiplex([a, b], ids)], [a]


def make_input(v, rng):
    shape = [3 if d < 0 else d for d in v.shape]
    if v.dtype == paddle.bool:
        return rng.random(shape) < 0.5
    m = re.fullmatch(r"ids_v(\d+)", v.name)
    if m:
        return rng.integers(0, int(m.group(1)), shape).astype(str(v.dtype).replace("paddle.", ""))
    dt = "float64" if v.dtype == paddle.float64 else "float32"
    if v.name.startswith("tie"):
        return rng.integers(-2, 3, shape).astype(dt)
    return rng.standard_normal(shape).astype(dt)


if __name__ == "__main__":
    run_grad_cases(CASES, make_input)

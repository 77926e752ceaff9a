"""float64 cases of pooling and resizing and their gradients, as Paddle's
CPU kernels register them for double: pool2d (max and avg, exclusive and not,
ceil_mode, padding, SAME, global, adaptive, NHWC) and pool2d_grad,
max_pool2d_with_index and its grad (explicit windows and adaptive);
pool3d and pool3d_grad (the same attributes, NDHWC), max_pool3d_with_index
and its grad;
nearest_interp_v2 and nearest_interp (fluid 1.x) and their grads (the
float64 linear-family and bicubic resizes: e2e_grad_interp64.py).
Several ops share one case (one binary each).  Unlike
oracle_case.build_grad_case, each case also fetches its forward outputs
(and Masks), whose float64 kernels are checked here too.

    python e2e_grad_pool64.py OUTDIR [CASE ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, case_registry, grad_input, save_training_case  # noqa: E402

import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

CASES, case = case_registry()


def data(name, shape):
    return grad_input(name, shape, "float64")


# ---- pool2d ----

@case
def pool2d_f64_ties():
    """Few distinct values (windows with equal maxima: the first gets the
    gradient): max with padding and ceil_mode, avg inclusive with ceil_mode,
    global avg and global max NHWC."""
    x = data("tie_x", [2, 3, 7, 7])
    m = F.max_pool2d(x, kernel_size=3, stride=2, padding=1, ceil_mode=True)
    a = F.avg_pool2d(x, kernel_size=3, stride=2, padding=[1, 0], exclusive=False, ceil_mode=True)
    g = op("pool2d", {"X": x}, {"Out": ["float64"]},
           {"pooling_type": "avg", "ksize": [1, 1], "global_pooling": True})[0]
    gm = op("pool2d", {"X": x}, {"Out": ["float64"]},
            {"pooling_type": "max", "ksize": [2, 2], "global_pooling": True, "data_format": "NHWC"})[0]
    return [x.name], [m, a, g, gm], [x], []


@case
def pool2d_f64_nhwc_adaptive():
    """NHWC max with SAME padding, NHWC avg with asymmetric padding
    (exclusive), NCHW avg exclusive, adaptive avg."""
    x = data("x", [2, 6, 7, 3])
    m = F.max_pool2d(x, kernel_size=3, stride=2, padding="SAME", data_format="NHWC")
    a = F.avg_pool2d(x, kernel_size=[2, 3], stride=[2, 1], padding=[0, 1, 1, 0], data_format="NHWC")
    y = data("y", [2, 3, 7, 6])
    e = F.avg_pool2d(y, kernel_size=3, stride=2, padding=1)
    d = F.adaptive_avg_pool2d(y, output_size=[3, 4])
    return ["x", "y"], [m, a, e, d], [x, y], []


@case
def max_pool2d_index_f64():
    """max_pool2d_with_index (return_mask) with padding, and adaptive
    (with ties); their Masks fetched too."""
    x = data("x", [2, 3, 7, 6])
    m, mask = F.max_pool2d(x, kernel_size=3, stride=2, padding=1, return_mask=True)
    t = data("tie_t", [1, 2, 7, 6])
    am, amask = F.adaptive_max_pool2d(t, output_size=[3, 4], return_mask=True)
    return ["x", "tie_t"], [m, am], [x, t], [mask, amask]


# ---- pool3d ----

@case
def pool3d_f64():
    """Max with padding and ceil_mode (ties), avg inclusive NDHWC, avg
    exclusive with padding, adaptive avg."""
    x = data("tie_x", [2, 2, 5, 6, 5])
    m = F.max_pool3d(x, kernel_size=3, stride=2, padding=1, ceil_mode=True)
    e = F.avg_pool3d(x, kernel_size=[2, 3, 2], stride=2, padding=1)
    y = data("y", [2, 4, 5, 6, 3])
    a = F.avg_pool3d(y, kernel_size=2, stride=[1, 2, 2], padding=[0, 1, 1], exclusive=False, ceil_mode=True,
                     data_format="NDHWC")
    d = F.adaptive_avg_pool3d(y, output_size=[3, 2, 2], data_format="NDHWC")
    return ["tie_x", "y"], [m, e, a, d], [x, y], []


@case
def max_pool3d_index_f64():
    """max_pool3d_with_index (return_mask) with padding, and adaptive (with
    ties); their Masks fetched too."""
    x = data("x", [2, 2, 5, 6, 5])
    m, mask = F.max_pool3d(x, kernel_size=3, stride=2, padding=1, return_mask=True)
    t = data("tie_t", [1, 2, 5, 4, 6])
    am, amask = F.adaptive_max_pool3d(t, output_size=[2, 3, 4], return_mask=True)
    return ["x", "tie_t"], [m, am], [x, t], [mask, amask]


# ---- interp ----

@case
def nearest_f64():
    """nearest_interp_v2 in 2-D (scale factors, a size, align_corners,
    NCHW and NHWC) and 3-D (NCDHW, NDHWC); fluid 1.x nearest_interp (a
    scale, NHWC)."""
    x = data("x", [2, 3, 4, 5])
    a = F.interpolate(x, scale_factor=[1.7, 0.6], mode="nearest")
    b = nearest(x, "nearest_interp_v2", out_h=7, out_w=9, align_corners=True, scale=[])
    v = nearest(x, "nearest_interp", scale=2.0)
    y = data("y", [2, 9, 8, 3])
    c = F.interpolate(y, size=[4, 5], mode="nearest", data_format="NHWC")
    w = nearest(y, "nearest_interp", out_h=11, out_w=7, data_layout="NHWC")
    z = data("z", [2, 2, 3, 4, 5])
    d = F.interpolate(z, size=[5, 2, 6], mode="nearest", data_format="NCDHW")
    e = F.interpolate(z, scale_factor=2, mode="nearest", data_format="NDHWC")
    return ["x", "y", "z"], [a, b, v, c, w, d, e], [x, y, z], []


def nearest(x, type, **attrs):
    """A raw nearest interp op (v1, or v2 with attributes F.interpolate
    does not write)."""
    a = {"data_layout": "NCHW", "out_d": -1, "out_h": -1, "out_w": -1, "scale": 0.0, "align_corners": True,
         "align_mode": 1, "interp_method": "nearest"}
    a.update(attrs)
    return op(type, {"X": x}, {"Out": ["float64"]}, a)[0]


def build_case(out_dir, name, fn):
    """fn() -> (feeds, outs, wrt, extra): like build_grad_case (a random
    upstream gradient dout_<i> per output, Paddle's grad ops), fetching
    the outputs, then the extra vars (Masks), then d(outs)/d(wrt)."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        feeds, outs, wrt, extra = fn()
        douts = [paddle.static.data(f"dout_{i}", o.shape, o.dtype) for i, o in enumerate(outs)]
        grads = paddle.static.gradients(outs, list(wrt), target_gradients=douts)
    save_training_case(out_dir, name, main, startup, list(feeds) + [d.name for d in douts],
                       list(outs) + list(extra) + list(grads), make_input)


def make_input(v, rng):
    shape = [3 if d < 0 else d for d in v.shape]
    if v.name.startswith("tie_"):  # few distinct values: windows with equal maxima
        return rng.integers(-2, 3, shape).astype("float64")
    return rng.standard_normal(shape).astype("float64")


if __name__ == "__main__":
    paddle.enable_static()
    paddle.seed(1)
    for name in sys.argv[2:] or list(CASES):
        build_case(sys.argv[1], name, CASES[name])

"""Gradient cases of grid_sampler (grid_sampler_grad), set_value
(set_value_grad) and nanmedian (nanmedian_grad), checked against Paddle's
own grad ops (oracle_case.build_grad_case):

  grid_sampler_grad: every mode (bilinear, nearest) x padding_mode (zeros,
    border, reflection) x align_corners, on 4-D and 5-D inputs; grid
    positions reach past the image (every padding rule and the bounds
    checks are taken); a dim of 1 (reflection's max_val == 0); X@GRAD
    alone; float32, and float64 (every mode, padding_mode and
    align_corners on 4-D and 5-D inputs, the dims of 1, X@GRAD alone, a
    fed batch; forward outputs fetched too, held to TOL64).
  set_value_grad (paddle.static.setitem with a tensor value): decrease
    axes, none axes, negative steps, ends past the dim, broadcast values
    (summed into ValueTensor@GRAD), a bounds tensor (StartsTensorList),
    Input@GRAD or ValueTensor@GRAD alone; float32 and float64.
  nanmedian_grad: every axis form (none, one, negative, several, keepdim),
    odd and even counts, NaN in some rows, a row and a whole tensor of NaN,
    ties (Paddle's top-k picks which of equal values get the gradient);
    float32 and float64.

Feed names pick the inputs' distribution (make_input): `grid*` uniform in
(-1.4, 1.4), `nan*` standard normal with about a third NaN and row 1 all
NaN, `allnan*` all NaN, `tie*` small integers, others standard normal.

    python e2e_grad_sample.py OUTDIR [CASE ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import case_registry, grad_input as data, run_grad_cases  # noqa: E402

import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

CASES, case = case_registry()


# ---- grid_sampler_grad ----
def grid(name, xs, gs, mode, pad, align, wrt="both"):
    def f():
        x, g = data("x", xs), data("grid", gs)
        x.stop_gradient = wrt == "grid"
        g.stop_gradient = wrt == "x"
        out = F.grid_sample(x, g, mode=mode, padding_mode=pad, align_corners=align)
        return ["x", "grid"], [out], [v for v in (x, g) if not v.stop_gradient]
    f.__name__ = name
    case(f)


for _mode in ("bilinear", "nearest"):
    for _pad in ("zeros", "border", "reflection"):
        for _align in (True, False):
            _tag = f"{_mode}_{_pad}_{'align' if _align else 'half'}"
            grid(f"grid4_{_tag}", [2, 3, 4, 5], [2, 3, 6, 2], _mode, _pad, _align)
            grid(f"grid5_{_tag}", [1, 2, 3, 4, 3], [1, 2, 3, 2, 3], _mode, _pad, _align)
grid("grid4_reflection_h1_align", [2, 2, 1, 4], [2, 3, 2, 2], "bilinear", "reflection", True)
grid("grid4_reflection_w1_half", [1, 2, 3, 1], [1, 2, 4, 2], "bilinear", "reflection", False)
grid("grid4_x_only", [1, 2, 3, 3], [1, 4, 4, 2], "bilinear", "border", False, wrt="x")
# (Grid@GRAD alone: Paddle 2.6.2's kernel resizes the absent X@GRAD and
# crashes, so there is no reference; paddlec computes it as with X@GRAD)
grid("grid4_batch", [-1, 2, 3, 4], [-1, 3, 2, 2], "bilinear", "reflection", False)


def grid64(name, samples, wrt="both"):
    """float64: one grid_sample per (x shape, grid shape, mode, padding,
    align_corners) of `samples`, each with its own feeds x<k> and grid<k>
    (so that each gradient is fetched on its own); the forward outputs are
    fetched too."""
    def f():
        feeds, outs, grads = [], [], []
        for k, (xs, gs, mode, pad, align) in enumerate(samples):
            x, g = data(f"x{k}", xs, "float64"), data(f"grid{k}", gs, "float64")
            x.stop_gradient = wrt == "grid"
            g.stop_gradient = wrt == "x"
            outs.append(F.grid_sample(x, g, mode=mode, padding_mode=pad, align_corners=align))
            feeds += [f"x{k}", f"grid{k}"]
            grads += [v for v in (x, g) if not v.stop_gradient]
        return feeds, outs, grads
    f.__name__ = name
    f.fetch_outs = True
    case(f)


_EVERY_PAD = [(_pad, _align) for _pad in ("zeros", "border", "reflection") for _align in (True, False)]
for _mode in ("bilinear", "nearest"):
    grid64(f"grid4_{_mode}_f64", [([2, 3, 4, 5], [2, 3, 6, 2], _mode, p, a) for p, a in _EVERY_PAD])
    grid64(f"grid5_{_mode}_f64", [([1, 2, 3, 4, 3], [1, 2, 3, 2, 3], _mode, p, a) for p, a in _EVERY_PAD])
grid64("grid4_reflection_dim1_f64", [([2, 2, 1, 4], [2, 3, 2, 2], "bilinear", "reflection", True),
                                     ([1, 2, 3, 1], [1, 2, 4, 2], "bilinear", "reflection", False)])
grid64("grid4_x_only_f64", [([1, 2, 3, 3], [1, 4, 4, 2], "bilinear", "border", False)], wrt="x")
grid64("grid4_batch_f64", [([-1, 2, 3, 4], [-1, 3, 2, 2], "bilinear", "reflection", False)])


# ---- set_value_grad ----
def setitem(name, xs, vs, index, dtype="float32", wrt="both", feed_x="x"):
    """x[index] = v (index a tuple, or a function of a bounds tensor)."""
    def f():
        x, v = data(feed_x, xs, dtype), data("v", vs, dtype)
        x.stop_gradient = wrt == "v"
        v.stop_gradient = wrt == "x"
        idx = index() if callable(index) else index
        out = paddle.static.setitem(x, idx, v)
        return [feed_x, "v"], [out], [t for t in (x, v) if not t.stop_gradient]
    f.__name__ = name
    case(f)


S = slice
setitem("setv_decrease", [3, 4, 5], [3, 5], (S(None), 1))
setitem("setv_range_full_value", [3, 4, 5], [3, 2, 5], (S(None), S(1, 3)))
setitem("setv_broadcast_dim0", [3, 4, 5], [2, 3], (S(None), S(None, None, 2), S(-3, None)))
setitem("setv_neg_step_broadcast", [3, 4, 5], [1, 5], (S(None), S(None, None, -2)))
setitem("setv_neg_steps_two_axes", [3, 4, 5], [2, 2], (S(None), S(2, 0, -1), S(3, -10, -2)))
setitem("setv_neg_step_full_value", [4, 6], [4, 3], (S(None), S(5, None, -2)))
setitem("setv_none_axis", [3, 4, 5], [3, 1, 5], (S(None), 1, None))
setitem("setv_none_axis_front", [3, 4], [1, 3], (None, S(None), 2))
setitem("setv_end_past_dim", [3, 4, 5], [3, 5], (S(None), S(1, 100)))
setitem("setv_scalar_value", [3, 4, 5], [1], (S(1, None), 2))
setitem("setv_leading_ones", [3, 4, 5], [1, 1, 5], (S(None), 1))
setitem("setv_ellipsis", [2, 3, 4], [2], (Ellipsis, S(1, 3)))
setitem("setv_starts_tensor", [3, 6, 4], [3, 2, 2],
        lambda: (S(None), S(paddle.full([1], 1, "int64"), 3), S(None, None, 3)))
setitem("setv_f64", [3, 4, 5], [3, 1], (S(None), S(None, None, -1), 0), dtype="float64")
setitem("setv_f64_broadcast", [4, 5], [5], (S(1, 4),), dtype="float64")
setitem("setv_input_only", [3, 4, 5], [3, 5], (S(None), 2), wrt="x")
setitem("setv_value_only", [3, 4, 5], [4, 1], (1, S(None), S(0, 4, 3)), wrt="v")
setitem("setv_batch", [-1, 4, 5], [4, 1], (S(None), S(None), S(1, 3)))


# ---- nanmedian_grad ----
def nanmedian(name, xs, feed="x", dtype="float32", **kw):
    def f():
        x = data(feed, xs, dtype)
        return [feed], [paddle.nanmedian(x, **kw)], [x]
    f.__name__ = name
    case(f)


nanmedian("nanmedian_all_even", [3, 4])
nanmedian("nanmedian_all_odd", [3, 5])
nanmedian("nanmedian_axis1", [3, 4, 5], axis=1)
nanmedian("nanmedian_axis_neg_keep", [3, 4, 5], axis=-1, keepdim=True)
nanmedian("nanmedian_axes_0_2", [3, 4, 5], axis=[0, 2])
nanmedian("nanmedian_axes_keep", [2, 3, 4], axis=[2, 1], keepdim=True)
nanmedian("nanmedian_1d", [7], axis=0)
nanmedian("nanmedian_nan_rows", [4, 6], "nanx", axis=1)
nanmedian("nanmedian_nan_rows_odd", [5, 7], "nanx", axis=-1, keepdim=True)
nanmedian("nanmedian_nan_all", [4, 5], "nanx")
nanmedian("nanmedian_nan_axis0", [6, 4], "nanx", axis=0)
nanmedian("nanmedian_all_nan", [2, 3], "allnan", axis=1)
nanmedian("nanmedian_all_nan_flat", [2, 3], "allnan")
nanmedian("nanmedian_ties", [4, 8], "tiex", axis=1)
nanmedian("nanmedian_ties_all", [5, 9], "tiex")
nanmedian("nanmedian_ties_long", [2, 40], "tiex", axis=1)
nanmedian("nanmedian_nan_wide", [3, 200], "nanx", axis=1)
nanmedian("nanmedian_f64", [3, 4, 5], dtype="float64", axis=[1, 2])
nanmedian("nanmedian_f64_nan", [4, 6], "nanx", dtype="float64", axis=1)
nanmedian("nanmedian_batch", [-1, 6], axis=1)


def make_input(v, rng):
    shape = [3 if d < 0 else d for d in v.shape]
    dt = "float64" if v.dtype == paddle.float64 else "float32"
    if v.name.startswith("grid"):
        return rng.uniform(-1.4, 1.4, shape).astype(dt)
    if v.name.startswith("allnan"):
        return np.full(shape, np.nan, dt)
    if v.name.startswith("tie"):
        return rng.integers(-2, 3, shape).astype(dt)
    x = rng.standard_normal(shape).astype(dt)
    if v.name.startswith("nan"):
        x[rng.random(shape) < 0.35] = np.nan
        if len(shape) >= 2:
            x[1] = np.nan
        if shape[-1] >= 100:  # a row with few values left: FullTopK's partial_sort path
            x[0, 3:] = np.nan
            x[2, :] = rng.standard_normal(shape[-1])
            x[2, 3:] = np.nan
    return x


if __name__ == "__main__":
    run_grad_cases(CASES, make_input)

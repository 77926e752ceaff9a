"""Gradient cases of the math, reduction and special-function ops
(logsumexp, label_smooth, lerp, trunc, tril_triu, reduce_amax/amin, atan2,
cumprod, addmm, dist, trace, diagonal, diag_v2, kron, cross, norm,
cummax/cummin, mode, kthvalue, argsort, logcumsumexp, lgamma, digamma,
erfinv, polygamma, soft_relu, rrelu, i0/i0e/i1/i1e, spectral_norm), checked against
Paddle's own grad ops (oracle_case.build_grad_case): every attribute value
the grad kernels take (axis lists, negative axes, keepdim, reduce_all,
offsets, p orders, flatten/exclusive/reverse), broadcast operands, ties,
1-D and 0-D edge shapes.

Feed names pick the inputs' distribution (make_input): `int*` small
integers (ties, zeros), `pos*` in [0.5, 1.5), `unit*` in (-0.9, 0.9),
`nearone*` |x| in (1 - 1e-1, 1 - 1e-15) with random signs, `sat*` |x| in
(0.9, 1.5) and +-1, `wide*` in (-12, 12),
`tiny*` |x| in (1e-18, 1e-14) with random signs and zeros, `big*` |x| in (700, 715),
`huge*` |x| in (1e3, 1e8), others standard normal; float64 for a float64 var.

    python e2e_grad_math.py OUTDIR [CASE ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op, case_registry, grad_input as data, run_grad_cases  # noqa: E402

import paddle  # noqa: E402

CASES, case = case_registry()


def unary(name, shape, fn, feed="x"):
    def f():
        x = data(feed, shape)
        return [feed], [fn(x)], [x]
    f.__name__ = name
    case(f)


def binary(name, xs, ys, fn, xname="x", yname="y"):
    def f():
        x, y = data(xname, xs), data(yname, ys)
        return [xname, yname], [fn(x, y)], [x, y]
    f.__name__ = name
    case(f)


# logsumexp: axis lists, negative axes, keepdim, reduce_all, 1-D, 0-D
unary("logsumexp_axis1", [2, 3, 4], lambda x: paddle.logsumexp(x, axis=1))
unary("logsumexp_neg_keep", [2, 3, 4], lambda x: paddle.logsumexp(x, axis=[-1, 0], keepdim=True))
unary("logsumexp_all", [3, 4], lambda x: paddle.logsumexp(x))
unary("logsumexp_every_axis", [2, 3], lambda x: paddle.logsumexp(x, axis=[0, 1]))
unary("logsumexp_4d", [2, 3, 2, 2], lambda x: paddle.logsumexp(x, axis=[1, 3]))
unary("logsumexp_1d", [5], lambda x: paddle.logsumexp(x, axis=0))
unary("logsumexp_0d", [], lambda x: paddle.logsumexp(x))


# label_smooth: epsilon, with and without PriorDist (the grad ignores it)
def _label_smooth(x, eps, prior=None):
    ins = {"X": [x]}
    if prior is not None:
        ins["PriorDist"] = [prior]
    return append_op("label_smooth", ins, {"Out": ["float32"]}, {"epsilon": eps})[0]


unary("label_smooth", [3, 5], lambda x: _label_smooth(x, 0.1))


@case
def label_smooth_prior():
    x = data("x", [2, 4])
    p = paddle.static.data("p", [1, 4], "float32")
    return ["x", "p"], [_label_smooth(x, 0.25, p)], [x]


# lerp: a Python float weight, tensor weights, broadcast operands, 0-D
binary("lerp_scalar_w", [2, 3], [3], lambda x, y: paddle.lerp(x, y, 0.3))
binary("lerp_bcast", [3, 1], [1, 4], lambda x, y: paddle.lerp(x, y, 0.7))
binary("lerp_0d", [], [], lambda x, y: paddle.lerp(x, y, 0.4))


@case
def lerp_tensor_w():
    x, y, w = data("x", [2, 3]), data("y", [2, 3]), paddle.static.data("w", [2, 3], "float32")
    return ["x", "y", "w"], [paddle.lerp(x, y, w)], [x, y]


@case
def lerp_w_bcast():
    x, y, w = data("x", [4, 1, 3]), data("y", [2, 3]), paddle.static.data("w", [3], "float32")
    return ["x", "y", "w"], [paddle.lerp(x, y, w)], [x, y]


# trunc: zero gradient
unary("trunc", [3, 4], paddle.trunc)

# tril_triu: both sides, diagonals above and below, batched
unary("tril", [3, 4], paddle.tril)
unary("tril_neg", [2, 3, 4], lambda x: paddle.tril(x, -1))
unary("triu", [4, 3], paddle.triu)
unary("triu_pos", [2, 3, 4], lambda x: paddle.triu(x, 2))


# reduce_amax / reduce_amin: ties share the gradient evenly (int* inputs)
unary("amax_axis1", [3, 4], lambda x: paddle.amax(x, axis=1), feed="intx")
unary("amax_neg_keep", [2, 3, 4], lambda x: paddle.amax(x, axis=[-1, 0], keepdim=True), feed="intx")
unary("amax_all", [3, 4], lambda x: paddle.amax(x), feed="intx")
unary("amax_4d", [2, 3, 2, 3], lambda x: paddle.amax(x, axis=[1, 2, 3]), feed="intx")
unary("amax_1d", [6], lambda x: paddle.amax(x, axis=0), feed="intx")
unary("amax_0d", [], lambda x: paddle.amax(x))
unary("amax_5d_one_axis", [2, 1, 3, 2, 2], lambda x: paddle.amax(x, axis=[1, 2]), feed="intx")
unary("amin_axis0", [4, 3], lambda x: paddle.amin(x, axis=0), feed="intx")
unary("amin_every_axis", [2, 3], lambda x: paddle.amin(x, axis=[0, 1]), feed="intx")
unary("amin_3d_two", [3, 2, 4], lambda x: paddle.amin(x, axis=[0, 2], keepdim=True), feed="intx")
unary("amin_normal", [3, 5], lambda x: paddle.amin(x, axis=-1))


# atan2: same shapes, 1-D, 0-D
binary("atan2", [3, 4], [3, 4], paddle.atan2)
binary("atan2_1d", [5], [5], paddle.atan2)
binary("atan2_0d", [], [], paddle.atan2)

# cumprod: each dim, negative dim, zeros in X (int* inputs), 1-D, 0-D
unary("cumprod_dim0", [3, 4], lambda x: paddle.cumprod(x, dim=0))
unary("cumprod_mid", [2, 4, 3], lambda x: paddle.cumprod(x, dim=1))
unary("cumprod_neg", [2, 3, 4], lambda x: paddle.cumprod(x, dim=-1))
unary("cumprod_zeros", [3, 5], lambda x: paddle.cumprod(x, dim=1), feed="intx")
unary("cumprod_1d", [6], lambda x: paddle.cumprod(x, dim=0))
unary("cumprod_0d", [], lambda x: paddle.cumprod(x, dim=0))


# addmm: Input [M, N], [N] (broadcast rows), [M, 1], [1, 1]; Alpha, Beta
def addmm_case(name, ins, alpha=1.0, beta=1.0, m=3, k=4, n=5):
    def f():
        i, x, y = data("inp", ins), data("x", [m, k]), data("y", [k, n])
        return ["inp", "x", "y"], [paddle.addmm(i, x, y, beta=beta, alpha=alpha)], [i, x, y]
    f.__name__ = name
    case(f)


addmm_case("addmm", [3, 5])
addmm_case("addmm_scaled", [3, 5], alpha=2.5, beta=0.5)
addmm_case("addmm_row", [5], alpha=0.7, beta=-1.5)
addmm_case("addmm_col", [3, 1], beta=2.0)
addmm_case("addmm_one", [1, 1], alpha=-1.0, beta=3.0)
addmm_case("addmm_1x1", [1, 1], m=1, k=1, n=1)


# dist: p = 2, 1, 3, 0, +-inf; broadcast both ways, 0-D
binary("dist_p2", [3, 4], [3, 4], lambda x, y: paddle.dist(x, y, 2))
binary("dist_bcast_p1", [2, 3, 4], [3, 1], lambda x, y: paddle.dist(x, y, 1))
binary("dist_p3", [4, 1], [1, 5], lambda x, y: paddle.dist(x, y, 3))
binary("dist_p0", [3, 4], [4], lambda x, y: paddle.dist(x, y, 0))
binary("dist_inf", [3, 4], [4], lambda x, y: paddle.dist(x, y, float("inf")), xname="intx", yname="inty")
binary("dist_ninf", [3, 4], [3, 4], lambda x, y: paddle.dist(x, y, float("-inf")))
binary("dist_0d", [], [], lambda x, y: paddle.dist(x, y, 2))
binary("dist_1d_2d", [4], [3, 4], lambda x, y: paddle.dist(x, y, 2.5))


# trace, diagonal: offsets on both sides, axes in either order, batched, empty
def _diag(op, x, offset=0, a1=0, a2=1):
    return append_op(op, {"Input": [x]}, {"Out": ["float32"]}, {"offset": offset, "axis1": a1, "axis2": a2})[0]


unary("trace", [3, 4], lambda x: paddle.trace(x))
unary("trace_off", [2, 3, 4], lambda x: paddle.trace(x, offset=1, axis1=1, axis2=2))
unary("trace_neg_rev", [4, 2, 3], lambda x: paddle.trace(x, offset=-1, axis1=2, axis2=0))
unary("trace_empty", [2, 3], lambda x: _diag("trace", x, offset=5))
unary("diagonal", [3, 4], lambda x: paddle.diagonal(x))
unary("diagonal_off", [2, 3, 4], lambda x: paddle.diagonal(x, offset=1, axis1=1, axis2=2))
unary("diagonal_neg_rev", [4, 2, 3], lambda x: paddle.diagonal(x, offset=-1, axis1=2, axis2=0))
unary("diagonal_neg_axes", [2, 3, 3, 2], lambda x: paddle.diagonal(x, offset=2, axis1=-2, axis2=1))


# diag_v2: vector to matrix and back, offsets, padding_value
def _diag_v2(x, offset=0, pad=0.0):
    return append_op("diag_v2", {"X": [x]}, {"Out": ["float32"]}, {"offset": offset, "padding_value": pad})[0]


unary("diag_v2_vec", [4], lambda x: _diag_v2(x))
unary("diag_v2_vec_off", [3], lambda x: _diag_v2(x, 2, 1.5))
unary("diag_v2_vec_neg", [3], lambda x: _diag_v2(x, -1))
unary("diag_v2_0d", [], lambda x: _diag_v2(x, 1))
unary("diag_v2_mat", [3, 4], lambda x: _diag_v2(x))
unary("diag_v2_mat_off", [3, 4], lambda x: _diag_v2(x, 2))
unary("diag_v2_mat_neg", [4, 3], lambda x: _diag_v2(x, -2))


# kron: same rank, lower-rank operands on either side, size-1 dims, 0-D
binary("kron", [2, 3], [3, 2], paddle.kron)
binary("kron_x_lower", [3], [2, 2, 3], paddle.kron)
binary("kron_y_lower", [2, 1, 3], [2, 2], paddle.kron)
binary("kron_0d", [], [2, 3], paddle.kron)

# cross: explicit dims (negative too), the default (first dim of size 3)
binary("cross_dim1", [2, 3], [2, 3], lambda x, y: paddle.cross(x, y, axis=1))
binary("cross_neg", [3, 2, 3], [3, 2, 3], lambda x, y: paddle.cross(x, y, axis=-1))
binary("cross_default", [4, 3, 2], [4, 3, 2], paddle.cross)
binary("cross_1d", [3], [3], paddle.cross)


# norm (fluid's l2_normalize): axes, negative axis, epsilon, 1-D
def _l2(x, axis, eps=1e-10):
    return append_op("norm", {"X": [x]}, {"Out": ["float32"], "Norm": ["float32"]}, {"axis": axis, "epsilon": eps})[0]


unary("norm_axis1", [3, 4], lambda x: _l2(x, 1))
unary("norm_mid", [2, 4, 3], lambda x: _l2(x, 1, 1e-6))
unary("norm_neg", [2, 3, 4], lambda x: _l2(x, -1))
unary("norm_axis0", [4, 3], lambda x: _l2(x, 0))
unary("norm_1d", [5], lambda x: _l2(x, 0))


# cummax, cummin: axes, ties (int* inputs: the index the forward picks),
# 1-D, 0-D
unary("cummax", [3, 4], lambda x: paddle.cummax(x, axis=1)[0])
unary("cummax_ties", [4, 5], lambda x: paddle.cummax(x, axis=0)[0], feed="intx")
unary("cummin_neg", [2, 3, 4], lambda x: paddle.cummin(x, axis=-2)[0], feed="intx")
unary("cummin_1d", [6], lambda x: paddle.cummin(x, axis=0)[0])
unary("cummax_0d", [], lambda x: paddle.cummax(x, axis=0)[0])

# mode, kthvalue: axes, keepdim, 1-D, 0-D
unary("mode", [3, 5], lambda x: paddle.mode(x, axis=1)[0], feed="intx")
unary("mode_keep_mid", [2, 5, 3], lambda x: paddle.mode(x, axis=1, keepdim=True)[0], feed="intx")
unary("mode_axis0", [5, 3], lambda x: paddle.mode(x, axis=0)[0], feed="intx")
unary("mode_1d", [6], lambda x: paddle.mode(x)[0], feed="intx")
unary("mode_0d", [], lambda x: paddle.mode(x)[0])
unary("kthvalue", [3, 5], lambda x: paddle.kthvalue(x, 2, axis=1)[0])
unary("kthvalue_keep_mid", [2, 5, 3], lambda x: paddle.kthvalue(x, 4, axis=-2, keepdim=True)[0])
unary("kthvalue_axis0", [5, 3], lambda x: paddle.kthvalue(x, 1, axis=0)[0])
unary("kthvalue_1d", [6], lambda x: paddle.kthvalue(x, 3)[0])
unary("kthvalue_0d", [], lambda x: paddle.kthvalue(x, 1)[0])

# argsort (paddle.sort's values): axes, descending, ties, 0-D
unary("sort", [3, 5], lambda x: paddle.sort(x, axis=1))
unary("sort_desc_ties", [4, 3], lambda x: paddle.sort(x, axis=0, descending=True), feed="intx")
unary("sort_mid", [2, 4, 3], lambda x: paddle.sort(x, axis=-2))
unary("sort_0d", [], lambda x: paddle.sort(x))


# logcumsumexp: axes, flatten, exclusive, reverse, 1-D, 0-D (attributes
# Python does not expose go through a raw op)
def _lcse(x, axis=-1, flatten=False, exclusive=False, reverse=False):
    return append_op("logcumsumexp", {"X": [x]}, {"Out": ["float32"]},
                     {"axis": axis, "flatten": flatten, "exclusive": exclusive, "reverse": reverse})[0]


unary("logcumsumexp", [3, 4], lambda x: paddle.logcumsumexp(x, axis=1))
unary("logcumsumexp_axis0", [4, 3], lambda x: paddle.logcumsumexp(x, axis=0))
unary("logcumsumexp_flatten", [2, 3, 2], lambda x: paddle.logcumsumexp(x))
unary("logcumsumexp_rev", [2, 5], lambda x: _lcse(x, 1, reverse=True))
unary("logcumsumexp_excl", [2, 5, 2], lambda x: _lcse(x, -2, exclusive=True))
unary("logcumsumexp_excl_rev", [3, 4], lambda x: _lcse(x, 0, exclusive=True, reverse=True))
unary("logcumsumexp_1d", [6], lambda x: paddle.logcumsumexp(x, axis=0))
unary("logcumsumexp_0d", [], lambda x: paddle.logcumsumexp(x))


# special functions: lgamma, digamma, erfinv (|x| < 1), polygamma n = 1, 2
unary("lgamma", [3, 4], paddle.lgamma)
unary("digamma", [3, 4], paddle.digamma)
unary("digamma_pos", [5], paddle.digamma, feed="posx")
unary("erfinv", [3, 4], paddle.erfinv, feed="unitx")
unary("polygamma_1", [3, 4], lambda x: paddle.polygamma(x, 1), feed="posx")
unary("polygamma_2", [2, 3], lambda x: paddle.polygamma(x, 2))
unary("polygamma_0d", [], lambda x: paddle.polygamma(x, 3), feed="posx")


# and in float64 (Paddle's double kernels: Eigen's digamma, polygamma(1, x)
# for digamma's grad and digamma for lgamma's, ndtri for erfinv), forward
# fetched too, each range its own input: standard normal (digamma's
# reflection for x < 0), `wide` (poles' neighbourhoods, the asymptotic
# series past 10), `pos`; erfinv in `unit` and `nearone` |x| in
# (1 - 1e-1, 1 - 1e-15) (ndtri's tails, both of its tail fits), `sat`
# |x| in (0.9, 1.5) and +-1 (infinite past the domain, as Paddle's)
def ranges64(fn, ranges):
    """Case `<fn>_f64`: fn of one float64 [4, 6] input per range (each range
    its own input and gradient), the forward fetched too."""
    def f():
        xs = [data(r, [4, 6], "float64") for r in ranges]
        return ranges, [fn(x) for x in xs], xs
    f.__name__ = fn.__name__ + "_f64"
    f.fetch_outs = True
    case(f)


ranges64(paddle.digamma, ["x", "wide", "pos"])
ranges64(paddle.lgamma, ["x", "wide", "pos"])
ranges64(paddle.erfinv, ["unit", "nearone", "sat"])


# soft_relu: thresholds that clip (the grad's mask reads Out)
def _soft_relu(x, t):
    return append_op("soft_relu", {"X": [x]}, {"Out": ["float32"]}, {"threshold": t})[0]


unary("soft_relu", [3, 4], lambda x: _soft_relu(x, 40.0))
unary("soft_relu_clip", [4, 5], lambda x: _soft_relu(x, 0.9))


# rrelu: the grad reads the slopes in Noise, here the inference forward's
# (the training forward's random slopes, with their grads, are compared
# bit for bit in random_cases.py)
def _rrelu(x, lo, hi):
    return append_op("rrelu", {"X": [x]}, {"Out": ["float32"], "Noise": ["float32"]},
                     {"lower": lo, "upper": hi, "is_test": True})[0]


unary("rrelu", [3, 4], lambda x: _rrelu(x, 0.125, 1.0 / 3.0))
unary("rrelu_ties", [4, 5], lambda x: _rrelu(x, 0.2, 0.6), feed="intx")



# and in float64 (the slope is the float attributes' middle, exact in
# double), forward fetched too; zeros in the ties case (slope 1 at x = 0)
def rrelu64(name, feed, lo, hi):
    def f():
        x = data(feed, [4, 5], "float64")
        return [feed], [append_op("rrelu", {"X": [x]}, {"Out": ["float64"], "Noise": ["float64"]},
                                  {"lower": lo, "upper": hi, "is_test": True})[0]], [x]
    f.__name__ = name
    f.fetch_outs = True
    case(f)


rrelu64("rrelu_f64", "x", 0.125, 1.0 / 3.0)
rrelu64("rrelu_ties_f64", "intx", 0.2, 0.7)


# Bessel functions i0, i0e, i1, i1e: both Chebyshev ranges (|x| up to 12)
# and a zero (i1, i1e's small-|x| branch)
unary("i0", [3, 4], paddle.i0, feed="widex")
unary("i0e", [3, 4], paddle.i0e, feed="widex")
unary("i1", [3, 4], paddle.i1, feed="widex")
unary("i1e", [3, 4], paddle.i1e, feed="widex")
unary("i1_zero", [3, 4], paddle.i1, feed="intx")
unary("i1e_zero", [3, 4], paddle.i1e, feed="intx")


# and in float64 (Paddle's double kernels), forward fetched too: each range
# its own input, so each gradient is measured at its own scale: `tiny` |x|
# from 1e-18 to 1e-14 and zeros (the grads' |x| <= DBL_EPSILON branch),
# standard normal, `wide` (both Chebyshev ranges), `big` |x| in (700, 715)
# (exp(|x|) overflows past 709.78: infinities and NaNs), and for the scaled
# ones `huge` |x| from 1e3 to 1e8 (ranges64)
ranges64(paddle.i0, ["tiny", "x", "wide", "big"])
ranges64(paddle.i1, ["tiny", "x", "wide", "big"])
ranges64(paddle.i0e, ["tiny", "x", "wide", "big", "huge"])
ranges64(paddle.i1e, ["tiny", "x", "wide", "big", "huge"])


# spectral_norm_grad: dim 0 and 1, ranks 2 to 5, power_iters 0 to 3, eps;
# U and V are the op's non-trainable parameters (random values); a
# trainable weight (its gradient fetched as a parameter's); float64
def _sn(dim=0, iters=1, eps=1e-12):
    return lambda w: paddle.static.nn.spectral_norm(w, dim=dim, power_iters=iters, eps=eps)


unary("spectral_norm_dim0", [4, 3, 2, 2], _sn())
unary("spectral_norm_dim1_iters3", [4, 3, 2, 2], _sn(1, 3))
unary("spectral_norm_2d_iters0_eps", [3, 5], _sn(0, 0, 1e-4))
unary("spectral_norm_3d_dim1", [2, 5, 3], _sn(1, 2))
unary("spectral_norm_5d_dim1", [2, 3, 2, 1, 2], _sn(1))


@case
def spectral_norm_f64_dim1():
    w = data("f64w", [3, 4, 2], "float64")
    return ["f64w"], [_sn(1, 2)(w)], [w]


@case
def spectral_norm_param():
    """The weight a trainable parameter, as SpectralNorm of a layer's weight
    trains it."""
    w = paddle.static.create_parameter([6, 4], "float32")
    x = data("x", [3, 6])
    return ["x"], [paddle.matmul(x, paddle.static.nn.spectral_norm(w, dim=1, power_iters=2))], [x]


def make_input(v, rng):
    import numpy as np
    shape = [3 if d < 0 else d for d in v.shape]
    dt = "float64" if "float64" in str(v.dtype) else "float32"
    if v.name.startswith("int"):
        return rng.integers(-2, 3, shape).astype(dt)
    if v.name.startswith("pos"):
        return (rng.random(shape) + 0.5).astype(dt)
    if v.name.startswith("wide"):
        return rng.uniform(-12, 12, shape).astype(dt)
    if v.name.startswith("unit"):
        return rng.uniform(-0.9, 0.9, shape).astype(dt)

    def signed(a):  # a random sign on each element
        return np.where(rng.random(shape) < 0.5, -a, a)

    if v.name.startswith("nearone"):
        return signed(1.0 - 10.0 ** rng.uniform(-15, -1, shape)).astype(dt)
    if v.name.startswith("sat"):
        x = signed(rng.uniform(0.9, 1.5, shape))
        x.reshape(-1)[::4] = np.sign(x.reshape(-1)[::4])
        return x.astype(dt)
    if v.name.startswith("tiny"):
        x = signed(10.0 ** rng.uniform(-18, -14, shape))
        x.reshape(-1)[::5] = 0.0
        return x.astype(dt)
    if v.name.startswith("big"):
        return signed(rng.uniform(700, 715, shape)).astype(dt)
    if v.name.startswith("huge"):
        return signed(10.0 ** rng.uniform(3, 8, shape)).astype(dt)
    return rng.standard_normal(shape).astype(dt)


if __name__ == "__main__":
    run_grad_cases(CASES, make_input)

"""smooth_l1_loss and smooth_l1_loss_grad, the loss of Paddle 1.x detection
programs.  Paddle 2.5 dropped the op, so the wheel the tests use cannot run
it: the programs are written at the ProgramDesc level (feed, the op, its
grad, fetch), and the expected values come from the formula of fluid's
smooth_l1_loss_op.h written out below in float64:

    s2 = sigma^2;  Diff = (X - Y) * InsideWeight
    f(v)  = 0.5 * v^2 * s2   if |v| < 1 / s2,  else |v| - 0.5 / s2
    f'(v) = s2 * v           if |v| < 1 / s2,  else sign(v)
    Out[r] = sum over row r (dims 1.. of X flattened) of f(Diff) * OutsideWeight
    X@GRAD = Out@GRAD[r] * InsideWeight * OutsideWeight * f'(Diff),  Y@GRAD = -X@GRAD

(no weights: both are 1)."""
import subprocess

import numpy as np
import pytest
from paddle.base import core

from conftest import run
from test_e2e import build

FP32 = core.VarDesc.VarType.FP32


def _program(path, shape, sigma, weights):
    desc = core.ProgramDesc()
    block = desc.block(0)

    def var(name, shape_, vtype=core.VarDesc.VarType.LOD_TENSOR, persistable=False):
        v = block.var(name.encode())
        v.set_type(vtype)
        if vtype == core.VarDesc.VarType.LOD_TENSOR:
            v.set_shape(shape_)
            v.set_dtype(FP32)
        v.set_persistable(persistable)

    def op(type_, inputs, outputs, attrs):
        o = block.append_op()
        o.set_type(type_)
        for k, v in inputs.items():
            o.set_input(k, v)
        for k, v in outputs.items():
            o.set_output(k, v)
        for k, v in attrs.items():
            o._set_attr(k, v)

    var("feed", None, core.VarDesc.VarType.FEED_MINIBATCH, True)
    var("fetch", None, core.VarDesc.VarType.FETCH_LIST, True)
    feeds = ["x", "y"] + (["iw", "ow"] if weights else []) + ["dout"]
    for i, name in enumerate(feeds):
        var(name, [-1, 1] if name == "dout" else [-1] + list(shape[1:]))
        op("feed", {"X": ["feed"]}, {"Out": [name]}, {"col": i})
    for name in ("diff", "dx", "dy"):
        var(name, [-1] + list(shape[1:]))
    var("out", [-1, 1])
    w = {"InsideWeight": ["iw"], "OutsideWeight": ["ow"]} if weights else {}
    op("smooth_l1_loss", {"X": ["x"], "Y": ["y"], **w}, {"Diff": ["diff"], "Out": ["out"]}, {"sigma": sigma})
    op("smooth_l1_loss_grad", {"Diff": ["diff"], "Out@GRAD": ["dout"], **w}, {"X@GRAD": ["dx"], "Y@GRAD": ["dy"]},
       {"sigma": sigma})
    for i, name in enumerate(["out", "diff", "dx", "dy"]):
        op("fetch", {"X": [name]}, {"Out": ["fetch"]}, {"col": i})
    path.mkdir()
    (path / "model.pdmodel").write_bytes(desc.serialize_to_string())
    return feeds


def _expect(x, y, iw, ow, dout, sigma):
    x, y, iw, ow, dout = (a.astype(np.float64) for a in (x, y, iw, ow, dout))
    s2 = sigma * sigma
    d = (x - y) * iw
    a = np.abs(d)
    err = np.where(a < 1 / s2, 0.5 * d * d * s2, a - 0.5 / s2) * ow
    out = err.reshape(len(x), -1).sum(axis=1, keepdims=True)
    fd = np.where(a < 1 / s2, s2 * d, np.sign(d))
    dx = dout.reshape((len(x),) + (1,) * (x.ndim - 1)) * iw * ow * fd
    return out, d, dx, -dx


@pytest.mark.parametrize("shape,sigma,weights", [((5, 4), 1.0, False), ((3, 2, 6), 3.0, True), ((1, 7), 0.5, True),
                                                 ((4, 3), 2.0, False)])
def test_smooth_l1_loss_and_grad(shape, sigma, weights, tmp_path):
    feeds = _program(tmp_path / "m", shape, sigma, weights)
    rng = np.random.default_rng(7)
    x = rng.standard_normal(shape).astype(np.float32)
    # differences on both sides of 1 / s2 (and exactly 0)
    y = (x - rng.uniform(-2.0, 2.0, shape) / sigma ** 2).astype(np.float32)
    y.flat[0] = x.flat[0]
    iw = rng.uniform(0.2, 1.5, shape).astype(np.float32) if weights else np.ones(shape, np.float32)
    ow = rng.uniform(0.2, 1.5, shape).astype(np.float32) if weights else np.ones(shape, np.float32)
    dout = rng.standard_normal((shape[0], 1)).astype(np.float32)
    values = {"x": x, "y": y, "iw": iw, "ow": ow, "dout": dout}
    binary = build(str(tmp_path / "m"), tmp_path)
    args = [str(binary), "--output-dir", str(tmp_path / "out")]
    for name in feeds:
        np.save(tmp_path / f"{name}.npy", values[name])
        args += ["--input", f"{name}={tmp_path / (name + '.npy')}"]
    p = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    for name, want in zip(["out", "diff", "dx", "dy"], _expect(x, y, iw, ow, dout, sigma)):
        got = np.load(tmp_path / "out" / f"{name}.npy")
        assert got.shape == want.shape, (name, got.shape, want.shape)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=name)


def test_smooth_l1_one_weight_refused(tmp_path):
    """Paddle's rule: both weights or neither."""
    _program(tmp_path / "m", (3, 4), 1.0, True)
    desc = core.ProgramDesc(open(tmp_path / "m" / "model.pdmodel", "rb").read())
    for i in range(desc.block(0).op_size()):
        o = desc.block(0).op(i)
        if o.type() == "smooth_l1_loss":
            o.set_input("OutsideWeight", [])
    (tmp_path / "m" / "model.pdmodel").write_bytes(desc.serialize_to_string())
    p = run(["build", str(tmp_path / "m" / "model.pdmodel"), "-o", str(tmp_path / "bin")])
    assert p.returncode != 0 and "smooth_l1_loss" in p.stderr and "InsideWeight and OutsideWeight" in p.stderr, p.stderr


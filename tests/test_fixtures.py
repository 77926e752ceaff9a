"""Programs exported by real Paddle (tests/oracle/make_fixtures.py, fixed
seeds, the way users export): each parses, its parameters load completely, and
every variable's inferred shape and dtype equal what Paddle reports for the
loaded program (paddle.json, written by the oracle)."""
import json
import os

import pytest

from conftest import inspect_json

NAMES = ["mlp", "mlp_static", "lenet", "resnet18", "resnet50", "vgg16", "mobilenet_v1", "mobilenet_v2",
         "mobilenet_v3", "bert", "train_mlp", "dtypes", "ppyoloe_nms"]


def paddle_dtype(s):
    """Paddle prints bfloat16 as uint16 (numpy has no bfloat16)."""
    s = s.replace("paddle.", "")
    return "bfloat16" if s == "uint16" else s


def load(fixtures_dir, name):
    d = os.path.join(fixtures_dir, name)
    with open(os.path.join(d, "paddle.json")) as f:
        ref = json.load(f)
    model = os.path.join(d, "model.pdmodel")
    return ref, inspect_json(model, "--params", os.path.join(d, "model.pdiparams"))


@pytest.mark.parametrize("name", NAMES)
def test_fixture_shapes_match_paddle(fixtures_dir, name):
    ref, j = load(fixtures_dir, name)
    assert j["no_shape_rule"] == [] and j["shape_mismatches"] == []
    assert j["parameters"]["complete"], j["parameters"]
    # train_mlp is a training program without feed and fetch ops: its feeds are its data vars and its fetch the
    # loss, as the trainer takes them (compiler/train.c), which are what Paddle's Executor was fed and fetched
    assert [f["name"] for f in j["feeds"]] == ref["feeds"]
    assert [f["name"] for f in j["fetches"]] == ref["fetches"]
    ours = {v["name"]: v for v in j["vars"]}
    checked = 0
    for vname, r in ref["vars"].items():
        if vname not in ours or ours[vname]["shape"] is None:
            continue
        assert ours[vname]["shape"] == r["shape"], (vname, ours[vname]["shape"], r["shape"])
        assert ours[vname]["dtype"] == paddle_dtype(r["dtype"]), (vname, r["dtype"])
        checked += 1
    inferred = sum(1 for v in j["vars"] if v["inferred"])
    assert checked >= len(ref["vars"]) * 0.9 and inferred > 0


def test_train_mlp_startup_program(fixtures_dir):
    """The startup program initializes every persistable of the main program."""
    d = os.path.join(fixtures_dir, "train_mlp")
    main = inspect_json(os.path.join(d, "model.pdmodel"), "--no-params")
    start = inspect_json(os.path.join(d, "startup.pdmodel"), "--no-params")
    assert start["no_shape_rule"] == [] and start["shape_mismatches"] == []
    params = {v["name"] for v in main["vars"] if v["parameter"]}
    written = {v["name"] for v in start["vars"] if v["inferred"]}
    assert params <= written, params - written
    assert "sgd" in main["op_types"] and "reduce_mean_grad" in main["op_types"]


def test_every_param_dtype_loads(fixtures_dir):
    """bool, uint8, int16, int32, int64, float16, bfloat16, float32, float64
    parameters: each read and checked, 2x3 elements of its size (bytes by hand:
    6 * (1+1+2+4+8+2+2+4+8) = 192)."""
    _, j = load(fixtures_dir, "dtypes")
    got = sorted(v["dtype"] for v in j["vars"] if v["parameter"])
    assert got == sorted(["bool", "uint8", "int16", "int32", "int64", "float16", "bfloat16",
                          "float32", "float64"])
    assert j["parameters"]["bytes_loaded"] == 192


@pytest.mark.parametrize("name", ["mlp", "mlp_static", "lenet", "resnet18", "mobilenet_v2", "mobilenet_v3", "bert",
                                  "branchy", "ppyoloe_nms"])
def test_no_fixture_parameter_is_constant(fixtures_dir, name):
    """Every float parameter and buffer of a model fixture varies (the oracle
    re-draws Paddle's zero biases, identity norms and initial statistics), so
    a kernel that ignores one cannot match Paddle by accident."""
    import subprocess
    import sys
    script = ("import sys, numpy as np, paddle\n"
              "paddle.enable_static()\n"
              "exe = paddle.static.Executor(paddle.CPUPlace())\n"
              "prog, _, _ = paddle.static.load_inference_model(sys.argv[1], exe)\n"
              "n = 0\n"
              "for v in prog.list_vars():\n"
              "    if not v.persistable or v.name in ('feed', 'fetch'): continue\n"
              "    a = np.array(paddle.static.global_scope().find_var(v.name).get_tensor())\n"
              "    if a.dtype.kind != 'f': continue\n"
              "    n += 1\n"
              "    if a.size > 1 and (a == a.flat[0]).all(): print('constant', v.name, a.flat[0])\n"
              "print('checked', n)\n")
    p = subprocess.run([sys.executable, "-c", script, os.path.join(fixtures_dir, name, "model")],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    assert "constant" not in p.stdout and "checked " in p.stdout and "checked 0" not in p.stdout, p.stdout

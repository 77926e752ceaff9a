"""Run-time extents (graph.h VAR_RUNTIME_EXTENT): top_k with k from a tensor
writes an Out and Indices whose extent along the axis is only known when it
runs, bounded by the axis' dim; the reductions after it read the extent.
tests/oracle/e2e_topk.py's top_k_tensor_k_* cases check the numbers against
Paddle; here, what stops a compile or a run."""
import subprocess

import numpy as np

from conftest import run
from test_bad_catalogue import ir
from test_bad_input import bad
from test_e2e import build
from test_e2e_ops import cases

# top_k_v2 with K fed, then `{use}` of its Out
TOPK_IR = ("var x: float32[-1, 8]\nvar k: int32[1]\nvar o: float32[-1, -1]\nvar i: int64[-1, -1]\n"
           "var y: float32[{y}]\n"
           "op feed(X: feed) -> (Out: x) {{col: 0}}\nop feed(X: feed) -> (Out: k) {{col: 1}}\n"
           "op top_k_v2(K: k, X: x) -> (Indices: i, Out: o) {{axis: -1, k: 1, largest: true, sorted: true}}\n"
           "{use}\nop fetch(X: {fetched}) -> (Out: fetch) {{col: 0}}\n")


def topk_ir(tmp_path, use, y="-1", fetched="y"):
    return ir(tmp_path, TOPK_IR.format(use=use, y=y, fetched=fetched))


def test_an_op_without_run_time_extents_is_refused(tmp_path):
    """relu does not take a run-time extent: the error names the input, the
    dim and the op it comes from."""
    f = topk_ir(tmp_path, "op relu(X: o) -> (Out: y)", y="-1, -1")
    bad(["compile", f, "-o", str(tmp_path / "out")], "(relu -> y)", "dim 1 of input X ('o') is only known at run time",
        "(top_k_v2 -> ", "makes it from its input K ('k')); relu does not take such an input yet")
    assert not (tmp_path / "out").exists()


def test_fetching_a_run_time_extent_is_refused(tmp_path):
    f = topk_ir(tmp_path, "", fetched="o")
    bad(["compile", f, "-o", str(tmp_path / "out")], "dim 1 of input X ('o') is only known at run time",
        "fetch does not take such an input yet")


def test_a_reduction_keeping_the_run_time_dim_is_refused(tmp_path):
    """reduce_sum over dim 0 would keep dim 1, the run-time extent, in Out."""
    f = topk_ir(tmp_path, "op reduce_sum(X: o) -> (Out: y) {dim: ints[0], keep_dim: false, reduce_all: false}")
    bad(["compile", f, "-o", str(tmp_path / "out")], "dim 1 of X ('o') is only known at run time",
        "reduce_sum keeps it, which is not supported")


def test_reduced_over_the_run_time_dim_compiles(tmp_path):
    """The same program reducing dim 1 compiles: the check above is about
    the kept dim (the control of that test)."""
    f = topk_ir(tmp_path, "op reduce_sum(X: o) -> (Out: y) {dim: ints[1], keep_dim: false, reduce_all: false}")
    p = run(["compile", f, "-o", str(tmp_path / "out")])
    assert p.returncode == 0, p.stderr
    code = (tmp_path / "out" / "model.c").read_text()
    assert "m->runtime_dims[" in code and "int64_t runtime_dims[2];" in (tmp_path / "out" / "model.h").read_text()


def test_k_outside_its_axis_or_nothing_to_reduce_stops_the_run(tmp_path):
    """The OHEM case (top_k v1 over the 600 elements of a [2, 5, 60] batch,
    k counted and k fed, each sum and mean): with Paddle's inputs it
    matches (test_e2e_ops); a fed k of -1 or 601 stops the run with an error
    naming K, as does a k of 0 at the reduction after it (Paddle 2.6
    refuses to reduce an empty tensor)."""
    out, names = cases("topk")
    fixture = f"{out}/top_k_tensor_k_ohem"
    binary = build(fixture, tmp_path, "--blas=none")
    feeds = [np.load(f"{fixture}/input_{i}.npy") for i in range(4)]  # ties, k_one, k_seven, k_all
    for i, k, want in ((2, -1, "K ('k_seven') is below 0 or above dim 0 of X"),
                       (3, 601, "K ('k_all') is below 0 or above dim 0 of X"),
                       (1, 0, "is empty at run time, and Paddle does not reduce an empty tensor")):
        args = [str(binary), "--output-dir", str(tmp_path / "o")]
        for j, x in enumerate(feeds):
            if j == i:
                x = np.array([k], np.int32)
            np.save(tmp_path / f"in{j}.npy", x)
            args += ["--input", f"{['ties', 'k_one', 'k_seven', 'k_all'][j]}={tmp_path / f'in{j}.npy'}"]
        p = subprocess.run(args, capture_output=True, text=True, timeout=600)
        assert p.returncode != 0 and want in p.stderr, (k, p.returncode, p.stdout[-500:], p.stderr[-1500:])

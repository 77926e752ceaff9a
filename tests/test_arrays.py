"""Tensor arrays (compiler/array_len.h, ops/tensor_array.c): what the
compiler refuses, and what stops a run (and select_input's and
select_output's masks).  tests/oracle/e2e_arrays.py checks
the numbers against Paddle (paddle.nn.RNN over custom cells, while_loop
with an array, the joins); the programs here are
tests/oracle/arrays_refused.py's, saved with Paddle's outputs."""
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import BUILD, ROOT, generated
from test_bad_input import bad
from test_e2e import build, run_binary


def programs():
    script = os.path.join(ROOT, "tests", "oracle", "arrays_refused.py")
    out = os.path.join(BUILD, "e2e_refused", "arrays")
    return generated(out, [sys.executable, script, out], [script])


def test_an_array_written_in_a_loop_only_the_data_ends_is_refused(tmp_path):
    """The loop runs until sum(|h|) >= 100: its trip count, so the array's
    length, is the data's; the error names the array, the join that needs
    the length and the loop."""
    bad(["compile", f"{programs()}/loop_until_data/model.pdmodel", "-o", str(tmp_path / "o")],
        "(tensor_array_to_tensor -> ", "array 'array_0.out' has a length paddlec cannot know at compile time",
        "(while -> ", "writes it in a loop paddlec cannot count: its condition is not `counter < n`")


def test_an_array_written_in_a_loop_only_the_data_ends_takes_max_iterations(tmp_path):
    """The same program built with --max-iterations: the array is sized for
    that many trips of its counter.  16 holds the loop's trips: the join
    matches Paddle's; 2 does not, and the third write stops the run (Paddle
    grows its array instead)."""
    fixture = f"{programs()}/loop_until_data"
    binary = build(fixture, tmp_path, "--blas=none", "--max-iterations", "16")
    run_binary(binary, fixture, "", tmp_path / "ok")
    (tmp_path / "short").mkdir()
    short = build(fixture, tmp_path / "short", "--blas=none", "--max-iterations", "2")
    p = subprocess.run([str(short), "--input", f"x={fixture}/input_0.npy", "--output-dir", str(tmp_path / "o")],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode != 0 and "write_to_array: index negative, past the array's end (a gap) or past the length" \
        in p.stderr, (p.returncode, p.stderr[-1500:])


def test_an_array_written_in_a_branch_is_refused(tmp_path):
    bad(["compile", f"{programs()}/write_in_branch/model.pdmodel", "-o", str(tmp_path / "o")],
        "has a length paddlec cannot know at compile time", "(write_to_array -> ",
        "writes it inside a branch, which may or may not run")


def run_fed(binary, tmp_path, x, k):
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "k.npy", np.array([k], np.int64))
    return subprocess.run([str(binary), "--input", f"x={tmp_path / 'x.npy'}", "--input", f"k={tmp_path / 'k.npy'}",
                           "--output-dir", str(tmp_path / "o")], capture_output=True, text=True, timeout=600)


def test_an_index_outside_the_array_or_the_slice_stops_the_run(tmp_path):
    """read_from_array at a fed index and x[k] (a slice whose bounds are
    tensors, its axis dropped): k = 1 matches Paddle; past the array's two
    elements (k = 2 with 3 rows, where x[2] exists) the read stops the run;
    past x's rows (k = 1 with 1 row, where the array has element 1) the
    slice does, as both stop Paddle; k = -1 is x's last row to the slice
    (start -1, end 0: Paddle's x[-1]) and no element of the array."""
    fixture = f"{programs()}/read_fed_index"
    binary = build(fixture, tmp_path, "--blas=none")
    run_binary(binary, fixture, "", tmp_path / "ok")
    x3 = np.random.default_rng(1).standard_normal((3, 3)).astype(np.float32)
    for x, k, want in ((x3, 2, "read_from_array: index outside the array's written elements"),
                       (x3, -1, "read_from_array: index outside the array's written elements"),
                       (x3[:1], 1, "slice: bounds that do not give one element")):
        p = run_fed(binary, tmp_path, x, k)
        assert p.returncode != 0 and want in p.stderr, (k, p.returncode, p.stdout[-500:], p.stderr[-1500:])


@pytest.mark.parametrize("op,want", [("select_output", "select_output: Mask names no output"),
                                     ("select_input", "select_input: Mask names no input")])
def test_a_mask_naming_no_branch_stops_the_run(op, want, tmp_path):
    """select_output (X into the output the mask picks) and select_input
    (the input the mask picks) with the mask fed: 1 matches Paddle; 2 and -1
    name no branch of the two, which stops the run, as it stops Paddle."""
    fixture = f"{programs()}/{op}_fed_mask"
    binary = build(fixture, tmp_path, "--blas=none")
    run_binary(binary, fixture, "", tmp_path / "ok")
    np.save(tmp_path / "x.npy", np.ones((2, 3), np.float32))
    for m in (2, -1):
        np.save(tmp_path / "m.npy", np.array([m], np.int32))
        p = subprocess.run([str(binary), "--input", f"x={tmp_path / 'x.npy'}", "--input", f"mask={tmp_path / 'm.npy'}",
                            "--output-dir", str(tmp_path / "o")], capture_output=True, text=True, timeout=600)
        assert p.returncode != 0 and want in p.stderr, (m, p.stderr[-1500:])


def test_a_parent_outside_the_beam_stops_gather_tree(tmp_path):
    """gather_tree with Ids and Parents fed: Paddle's parents match; a parent
    of 3 (the beam size) stops the run, as it stops Paddle, and so does -1
    (where Paddle reads outside the tensor)."""
    fixture = f"{programs()}/gather_tree_fed"
    binary = build(fixture, tmp_path, "--blas=none")
    run_binary(binary, fixture, "", tmp_path / "ok")
    ids = np.load(f"{fixture}/input_0.npy")
    for bad_parent in (3, -1):
        parents = np.load(f"{fixture}/input_1.npy")
        parents[2, 1, 0] = bad_parent
        np.save(tmp_path / "ids.npy", ids)
        np.save(tmp_path / "parents.npy", parents)
        p = subprocess.run([str(binary), "--input", f"ids={tmp_path / 'ids.npy'}", "--input",
                            f"parents={tmp_path / 'parents.npy'}", "--output-dir", str(tmp_path / "o")],
                           capture_output=True, text=True, timeout=600)
        assert p.returncode != 0 and "a Parents value is outside [0, beam)" in p.stderr, (bad_parent, p.stderr[-1500:])

"""An index outside its tensor stops the compiled program, as it stops
Paddle (gather, index_select, embedding, gather_nd, one_hot, index_sample,
scatter, index_add, scatter_nd_add; take_along_axis and put_along_axis, where
Paddle 2.6 reads or writes outside the row): the
kernel returns 1 and the run reports it; inside, the outputs are Paddle's.
The programs are tests/oracle/index_faults.py's."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import BUILD, ROOT, generated
from test_e2e import build, run_binary


def programs():
    script = os.path.join(ROOT, "tests", "oracle", "index_faults.py")
    out = os.path.join(BUILD, "e2e_refused", "index_faults")
    return generated(out, [sys.executable, script, out], [script])


@pytest.fixture(scope="module")
def gathers(tmp_path_factory):
    fixture = f"{programs()}/gathers"
    tmp = tmp_path_factory.mktemp("gathers")
    return fixture, build(fixture, tmp, "--blas=none"), tmp


def test_indices_inside_match_paddle(gathers):
    fixture, binary, tmp = gathers
    run_binary(binary, fixture, "", tmp / "ok")


# (feed, its input number, the element set, the value, what the error says):
# idx 5 is past x's 2 rows and its 5 columns (gather axis 0 stops first);
# idx 2 is past the rows only (gather axis 0); -1 is outside both; an id of 6
# is past the table's 6 rows, -1 below them (0 is padding_idx, a zero row);
# an nd row (2, 0) is past x's 2 rows; one_hot's depth is 4; x has 5
# columns for index_sample and take_along_axis; scatter's, index_add's and
# scatter_nd_add's target has 2 rows and 5 columns.
CASES = [("idx", 1, (0,), 5, "an Index value is outside [0, B)"),
         ("idx", 1, (1,), -1, "an Index value is outside [0, B)"),
         ("ids", 2, (1, 3), 6, "an id is outside [0, 6), W's rows"),
         ("ids", 2, (0, 0), -1, "an id is outside [0, 6), W's rows"),
         ("nd", 3, (2, 0), 2, "an Index row addresses a slice outside X"),
         ("oh", 4, (1, 2), 4, "an id of X is outside [0, 4), the depth"),
         ("oh", 4, (0, 0), -1, "an id of X is outside [0, 4), the depth"),
         ("cols", 5, (1, 1), 5, "an Index value is outside [0, X's dim 1)"),
         ("cols", 5, (0, 0), -1, "an Index value is outside [0, X's dim 1)"),
         ("ta", 7, (1, 0), 5, "an Index value is outside [0, Input's dim at Axis)"),
         ("ta", 7, (0, 1), -1, "an Index value is outside [0, Input's dim at Axis)"),
         ("ia", 8, (2,), 5, "an Index value is outside [0, X's dim at axis)"),
         ("ia", 8, (0,), -1, "an Index value is outside [0, X's dim at axis)"),
         ("snd", 9, (1, 0), 2, "an Index tuple names a slice outside X"),
         ("snd", 9, (0, 0), -1, "an Index tuple names a slice outside X"),
         ("pa", 10, (1, 0), 5, "an Index value is outside [0, Input's dim at Axis)"),
         ("pa", 10, (0, 0), -1, "an Index value is outside [0, Input's dim at Axis)"),
         ("rows", 6, (1,), 2, "an Ids value is outside [0, X's dim 0)"),
         ("rows", 6, (0,), -1, "an Ids value is outside [0, X's dim 0)")]


@pytest.mark.parametrize("feed,col,at,value,want", CASES)
def test_an_index_outside_stops_the_run(gathers, feed, col, at, value, want):
    fixture, binary, tmp = gathers
    names = ["x", "idx", "ids", "nd", "oh", "cols", "rows", "ta", "ia", "snd", "pa"]
    args = [str(binary)]
    for i, name in enumerate(names):
        a = np.load(f"{fixture}/input_{i}.npy")
        if i == col:
            a[at] = value
        np.save(tmp / f"{name}.npy", a)
        args += ["--input", f"{name}={tmp / f'{name}.npy'}"]
    p = subprocess.run(args + ["--output-dir", str(tmp / "o")], capture_output=True, text=True, timeout=600)
    assert p.returncode != 0 and want in p.stderr, (p.returncode, p.stdout[-500:], p.stderr[-1500:])


def test_a_label_outside_the_classes_stops_the_run(tmp_path):
    """softmax_with_cross_entropy and cross_entropy2 with the label fed:
    Paddle's labels match; 4 (4 classes) and -1 stop the run, as they stop
    Paddle; -100, the ignore_index, runs (its loss is 0, as Paddle's
    kernels write it)."""
    fixture = f"{programs()}/labels"
    binary = build(fixture, tmp_path, "--blas=none")
    run_binary(binary, fixture, "", tmp_path / "ok")
    np.save(tmp_path / "logits.npy", np.load(f"{fixture}/input_0.npy"))
    for label, stops in ((4, True), (-1, True), (-100, False)):
        lab = np.load(f"{fixture}/input_1.npy")
        lab[1, 0] = label
        np.save(tmp_path / "lab.npy", lab)
        p = subprocess.run([str(binary), "--input", f"logits={tmp_path / 'logits.npy'}", "--input",
                            f"lab={tmp_path / 'lab.npy'}", "--output-dir", str(tmp_path / "o")],
                           capture_output=True, text=True, timeout=600)
        if stops:
            assert p.returncode != 0 and "a Label is outside [0, the class count)" in p.stderr, (label, p.stderr[-1500:])
        else:
            assert p.returncode == 0, p.stderr[-1500:]
            with open(f"{fixture}/paddle.json") as f:
                fetches = json.load(f)["fetches"]
            for name in fetches:
                assert np.load(tmp_path / "o" / (name.replace("/", "_") + ".npy"))[1, 0] == 0.0, name

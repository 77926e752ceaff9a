"""Static analysis: `make analyze` (clang's analyzer through scan-build, then
cppcheck, over compiler/, runtime/ and passes/) finds nothing; each false
positive is suppressed where it is, with its reason.  Then the regressions
for the defects those tools found that an input reaches (the constant
folding of a transpose with a negative axis is tests/passes/
constant_folding_transpose_negative_axis.ir)."""
import os
import shutil
import subprocess

import numpy as np
import pytest

from conftest import ROOT, run
from test_bad_catalogue import ir
from test_bad_input import bad


def test_make_analyze_finds_nothing():
    missing = [t for t in ("scan-build", "cppcheck", "clang") if not shutil.which(t)]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (Debian packages clang-tools, cppcheck; `make deps`)")
    # its own two jobs, not the jobserver of a `make test` above it; ~10 minutes on two idle cores,
    # more beside the other pytest-xdist worker
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    p = subprocess.run(["make", "-j2", "analyze"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=2700)
    assert p.returncode == 0, p.stdout[-6000:] + p.stderr[-3000:]


MATMUL = ("var x: float32[{x}]\nvar y: float32[4, 3]\nvar o: float32[-1, 3]\n"
          "op feed(X: feed) -> (Out: x) {{col: 0}}\nop feed(X: feed) -> (Out: y) {{col: 1}}\n"
          "op matmul(X: x, Y: y) -> (Out: o) {{fused_reshape_X: ints[0, -1], fused_transpose_X: ints[{perm}]}}\n"
          "op fetch(X: o) -> (Out: fetch) {{col: 0}}\n")


def test_matmul_fused_reshape_minus_one_beside_a_zero_dim(tmp_path):
    # scan-build: the -1 was the numel divided by the product of the others, 0 here (SIGFPE)
    f = ir(tmp_path, MATMUL.format(x="0, 4", perm="0, 1"))
    bad(["inspect", f], "op 2 (matmul -> o)", "fused_reshape_X has a -1 beside a dim of 0")


def test_matmul_fused_transpose_axis_out_of_range(tmp_path):
    # found beside it: the permutation indexed the dims unchecked (SIGSEGV)
    f = ir(tmp_path, MATMUL.format(x="2, 4", perm="0, 1000000"))
    bad(["inspect", f], "op 2 (matmul -> o)", "fused_transpose_X[1] = 1000000 is not an axis")


def test_roll_of_a_0d_tensor_along_axis_0(tmp_path):
    # scan-build: with X 0-D no dim was named, and the emitter printed dims[0] unset (SIGSEGV)
    f = ir(tmp_path, "var x: float32[]\nvar o: float32[]\nop feed(X: feed) -> (Out: x) {col: 0}\n"
                     "op roll(X: x) -> (Out: o) {axis: longs[0], shifts: longs[1]}\n"
                     "op fetch(X: o) -> (Out: fetch) {col: 0}\n")
    binary = tmp_path / "roll"
    p = run(["build", f, "-o", str(binary), "--blas=none"])
    assert p.returncode == 0, p.stderr[-3000:]
    np.save(tmp_path / "x.npy", np.array(3.5, dtype=np.float32))
    p = subprocess.run([str(binary), "--input", f"x={tmp_path / 'x.npy'}", "--output-dir", str(tmp_path / "out")],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    got = np.load(tmp_path / "out" / "o.npy")
    assert got.shape == () and got == np.float32(3.5)

"""Regressions found by running Paddle's per-op unit-test cases as one-op
programs (cases in tests/oracle/e2e_regress_ops2.py): the grouped and
depthwise convolutions, compiled also with no passes (no bias / activation /
relu fusion), must match Paddle like the default build that
tests/test_e2e_ops.py checks."""
import os

import pytest

from conftest import SAN_ENV
from test_e2e import build, run_binary
from test_e2e_ops import cases


@pytest.mark.parametrize("passes", ["--passes=none", "--ir-optim=false"])
def test_grouped_convolutions_without_fusion(passes, tmp_path, monkeypatch):
    monkeypatch.setitem(SAN_ENV, "CFLAGS", "-O1 -DPADDLEC_POISON_ARENA")
    out, names = cases("regress_ops2")
    names = [n for n in names if n.startswith("conv_")]
    assert len(names) == 3, names
    for name in names:
        d = tmp_path / name
        d.mkdir()
        binary = build(os.path.join(out, name), d, "--blas=none", passes)
        run_binary(binary, os.path.join(out, name), "", d / "out")

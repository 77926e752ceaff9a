"""Optimizer ops update their parameters in place (ParamOut is Param): the
compiled model must write its weights.  tests/oracle/e2e_optim.py's cases run
through test_e2e_ops with the weights in a file; here the same cases run with
--embed-weights, where a weight some op writes must not be a const array
(read-only memory: the first update would crash)."""
import os

import pytest

from conftest import SAN_ENV
from test_e2e import build, run_binary
from test_e2e_ops import cases


@pytest.mark.parametrize("name", ["sgd", "momentum_distinct", "adamw_decay", "adam_skip"])
def test_optimizer_updates_embedded_weights(name, tmp_path, monkeypatch):
    monkeypatch.setitem(SAN_ENV, "CFLAGS", "-O1 -DPADDLEC_POISON_ARENA")
    out, names = cases("optim")
    assert name in names
    binary = build(os.path.join(out, name), tmp_path, "--blas=none", "--embed-weights")
    run_binary(binary, os.path.join(out, name), "", tmp_path / "out")

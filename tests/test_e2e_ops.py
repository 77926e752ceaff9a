"""Op-level end-to-end cases: tests/oracle/e2e_<family>.py build, with real
Paddle, small programs exercising each op's attributes, with inputs and
Paddle's outputs (tests/oracle/oracle_case.py).  Each case is compiled with
`paddlec build --blas=none` (paddlec's own kernels; the OpenBLAS path is
exercised by every model in tests/test_e2e.py) at -O1 (small shapes: the
build dominates) and must match Paddle (the measure of tests/test_e2e.py)."""
import glob
import json
import os
import sys

import pytest

from conftest import BUILD, ROOT, SAN_ENV, generated
from test_e2e import build, run_binary

FAMILIES = sorted(os.path.basename(p)[4:-3] for p in glob.glob(os.path.join(ROOT, "tests", "oracle", "e2e_*.py")))


def cases(family):
    script = os.path.join(ROOT, "tests", "oracle", f"e2e_{family}.py")
    out = generated(os.path.join(BUILD, "e2e", family), [sys.executable, script, os.path.join(BUILD, "e2e", family)],
                    [script])
    return out, sorted(d for d in os.listdir(out) if os.path.isdir(os.path.join(out, d)))


def case_flags(fixture):
    """The compile flags a case asks for (flags.json: --max-shape bounds)."""
    path = os.path.join(fixture, "flags.json")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return json.load(f)


@pytest.mark.parametrize("family", FAMILIES)
def test_e2e_family(family, tmp_path, monkeypatch):
    monkeypatch.setitem(SAN_ENV, "CFLAGS", "-O1 -DPADDLEC_POISON_ARENA")
    out, names = cases(family)
    assert names, "the script made no cases"
    failures = []
    for name in names:
        d = tmp_path / name
        d.mkdir()
        try:
            binary = build(os.path.join(out, name), d, "--blas=none", *case_flags(os.path.join(out, name)))
            run_binary(binary, os.path.join(out, name), "", d / "out")
        except AssertionError as e:
            failures.append((name, str(e)[-600:]))
    assert not failures, failures

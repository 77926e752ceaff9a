"""Op zoos: tests/oracle/zoo_<family>.py build, with real Paddle, one small
program per case exercising an op family across its attributes.  For every
case paddlec must have a rule for every op, and its inferred shapes and dtypes
must equal the VarDescs Paddle wrote."""
import glob
import os
import sys

import pytest

from conftest import BUILD, ROOT, generated, inspect_json

ZOOS = sorted(os.path.basename(p)[4:-3] for p in glob.glob(os.path.join(ROOT, "tests", "oracle", "zoo_*.py")))


@pytest.mark.parametrize("family", ZOOS)
def test_zoo(family):
    out = os.path.join(BUILD, "zoo", family)
    script = os.path.join(ROOT, "tests", "oracle", f"zoo_{family}.py")
    generated(out, [sys.executable, script, out], [script], env=dict(os.environ, FLAGS_enable_pir_api="0"))
    cases = sorted(d for d in os.listdir(out) if os.path.isdir(os.path.join(out, d)))
    assert cases, "the zoo made no programs"
    failures = []
    for case in cases:
        j = inspect_json(os.path.join(out, case))
        if j["no_shape_rule"] or j["shape_mismatches"]:
            failures.append((case, [u["type"] for u in j["no_shape_rule"]], j["shape_mismatches"]))
    assert not failures, failures

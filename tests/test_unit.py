"""The C unit tests (tests/unit), each run on its own under the sanitizers."""
import os
import subprocess

import pytest

from conftest import BUILD, SAN_ENV

UNIT = os.path.join(BUILD, "asan", "unit_tests")


def names():
    """The unit tests' names from `unit_tests --list`.  A missing binary, a
    failing --list or an empty list is a failing test, not an empty (skipped)
    parameter set."""
    if not os.path.exists(UNIT):
        return ["unit_tests binary missing (run make asan)"]
    p = subprocess.run([UNIT, "--list"], capture_output=True, text=True)
    listed = p.stdout.split()
    if p.returncode != 0 or not listed:
        return [f"unit_tests --list gave no names (exit {p.returncode})"]
    return listed


@pytest.mark.parametrize("name", names())
def test_unit(name):
    p = subprocess.run([UNIT, name], capture_output=True, text=True, env=SAN_ENV)
    assert p.returncode == 0 and "1 passed, 0 failed" in p.stdout, p.stdout + p.stderr

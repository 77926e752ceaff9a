"""The C unit tests (tests/unit), each run on its own under the sanitizers."""
import os
import subprocess

import pytest

from conftest import BUILD, SAN_ENV

UNIT = os.path.join(BUILD, "asan", "unit_tests")


def names():
    if not os.path.exists(UNIT):
        return ["unit_tests binary missing (run make asan)"]
    return subprocess.run([UNIT, "--list"], capture_output=True, text=True).stdout.split()


@pytest.mark.parametrize("name", names())
def test_unit(name):
    p = subprocess.run([UNIT, name], capture_output=True, text=True, env=SAN_ENV)
    assert p.returncode == 0 and "1 passed, 0 failed" in p.stdout, p.stdout + p.stderr

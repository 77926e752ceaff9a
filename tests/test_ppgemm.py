"""The pre-packed GEMM (runtime/rt_ppgemm.c) and the convolutions that use
it: filters packed once when the weights are bound (rt_weights_bind, or by
the compiler for --embed-weights), the product of the late, few-pixel layers
computed without repacking them.

The micro-kernel is chosen by the target's vector width, so the host test
(tests/host/pp_gemm.c: odd sizes around every blocking edge, 1 and 3
threads bitwise equal) is built for each width this machine runs.  LeNet's
second convolution (10 x 10 output pixels) takes the packed path, and a
small CNN made by Paddle (tests/oracle/packed_convs.py) takes every
prepared path (Winograd F(4x4) and F(2x2) filters transformed and packed,
im2col and 1x1 products packed); both must match Paddle from a weights
file and embedded, at the default target and at -march=native."""
import os
import subprocess
import sys

import pytest

from conftest import CC, ROOT, SAN_ENV
from test_e2e import build, run_binary

RT = os.path.join(ROOT, "runtime")


def cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


WIDTHS = [("baseline", [], set()), ("avx2", ["-mavx2", "-mfma"], {"avx2", "fma"}),
          ("avx512", ["-mavx512f", "-mavx2", "-mfma"], {"avx512f", "avx2", "fma"})]


@pytest.mark.parametrize("width, flags, needs", WIDTHS, ids=[w[0] for w in WIDTHS])
def test_pp_gemm_matches_reference(tmp_path, width, flags, needs):
    if not needs <= cpu_flags():
        pytest.skip(f"this CPU does not run {width} code ({' '.join(sorted(needs))} not all in /proc/cpuinfo)")
    srcs = [os.path.join(ROOT, "tests", "host", "pp_gemm.c")] + \
        [os.path.join(RT, f) for f in ("rt_ppgemm.c", "rt_parallel.c", "rt_sched.c", "rt_alloc.c")]
    binary = tmp_path / "pp_gemm"
    cmd = CC.split() + ["-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Wextra", "-Werror", "-O2", "-pthread",
                        "-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-I", RT] + flags + srcs + \
        ["-lm", "-o", str(binary)]
    p = subprocess.run(cmd, capture_output=True, text=True, env=SAN_ENV, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    p = subprocess.run([str(binary)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stdout[-3000:] + p.stderr[-3000:]


@pytest.mark.parametrize("extra", [[], ["--embed-weights"], ["--march=native"]],
                         ids=["weights-file", "embedded", "native"])
def test_packed_conv_matches_paddle(fixtures_dir, tmp_path, extra):
    fixture = os.path.join(fixtures_dir, "lenet")
    binary = build(fixture, tmp_path, *extra)
    with open(str(binary) + "_src/model.c") as f:
        source = f.read()
    assert source.count(".packed = 1") == 1, "LeNet's second convolution should use the packed filter"
    for sub in ("b1", "b8"):
        run_binary(binary, fixture, sub, tmp_path / ("out" + sub))


@pytest.fixture(scope="module")
def packed_convs(tmp_path_factory):
    d = tmp_path_factory.mktemp("packed_convs")
    script = os.path.join(ROOT, "tests", "oracle", "packed_convs.py")
    p = subprocess.run([sys.executable, script, str(d)], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    return str(d)


@pytest.mark.parametrize("extra", [["--blas=none"], ["--embed-weights"], ["--march=native"]],
                         ids=["weights-file", "embedded", "native"])
def test_prepared_winograd_and_gemm_match_paddle(packed_convs, tmp_path, extra):
    binary = build(packed_convs, tmp_path, *extra)
    with open(str(binary) + "_src/model.c") as f:
        source = f.read()
    # the four long convolutions are prepared, the short 1x1 is not
    assert source.count(".packed = 1") == 4, source.count(".packed = 1")
    assert "batch 3" in run_binary(binary, packed_convs, "", tmp_path / "out")

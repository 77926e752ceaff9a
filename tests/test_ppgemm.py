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
F(2x2) also on a 7x7 image,
im2col and 1x1 products packed); both must match Paddle from a weights
file and embedded, at the default target and at -march=native."""
import os
import re
import subprocess
import sys

import pytest

from conftest import CC, ROOT, SAN_ENV, run
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


@pytest.mark.parametrize("host", ["pp_gemm", "wide_conv", "wide_gemm"])
@pytest.mark.parametrize("width, flags, needs", WIDTHS, ids=[w[0] for w in WIDTHS])
def test_host_kernel_matches_reference(tmp_path, host, width, flags, needs):
    """tests/host/pp_gemm.c (rt_pp_gemm), tests/host/wide_conv.c
    (rt_wide_conv) and tests/host/wide_gemm.c (GEMMs through rt_wide_gemm),
    each built for this vector width."""
    if not needs <= cpu_flags():
        pytest.skip(f"this CPU does not run {width} code ({' '.join(sorted(needs))} not all in /proc/cpuinfo)")
    kernels = {"pp_gemm": ("rt_ppgemm.c",), "wide_conv": ("rt_wide.c", "rt_gemm.c"),
               "wide_gemm": ("rt_wide.c", "rt_gemm.c")}[host]
    srcs = [os.path.join(ROOT, "tests", "host", host + ".c")] + \
        [os.path.join(RT, f) for f in kernels + ("rt_act.c", "rt_parallel.c", "rt_sched.c", "rt_alloc.c")]
    binary = tmp_path / host
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
    assert len(re.findall(r"\.packed = (?:16|64),", source)) == 1, "LeNet's second convolution should use the packed filter"
    for sub in ("b1", "b8"):
        run_binary(binary, fixture, sub, tmp_path / ("out" + sub))


@pytest.fixture(scope="module")
def packed_convs(tmp_path_factory):
    d = tmp_path_factory.mktemp("packed_convs")
    script = os.path.join(ROOT, "tests", "oracle", "packed_convs.py")
    p = subprocess.run([sys.executable, script, str(d)], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    return str(d)


def native_panel():
    """The panel height paddlec should pick for --march=native here: 64 rows
    when the CPU has AVX-512 (its kernel reads 64 rows a step), else 16."""
    return 64 if "avx512f" in cpu_flags() else 16


# every prepared path from a weights file and embedded, with the layout for
# this CPU and with the 16-row layout of a baseline x86-64 build
@pytest.mark.parametrize("extra, panel", [(["--blas=none"], None), (["--embed-weights"], None),
                                          (["--march=x86-64", "--embed-weights"], 16),
                                          (["--march=x86-64", "--blas=none"], 16)],
                         ids=["weights-file", "embedded", "baseline-embedded", "baseline-weights-file"])
def test_prepared_winograd_and_gemm_match_paddle(packed_convs, tmp_path, extra, panel):
    binary = build(packed_convs, tmp_path, *extra)
    with open(str(binary) + "_src/model.c") as f:
        source = f.read()
    # the five long convolutions are prepared, the short 1x1 is not
    heights = re.findall(r"\.packed = (\d+),", source)
    assert heights == [str(panel or native_panel())] * 5, heights
    assert source.count(".h_out = 7, .w_out = 7,") == 4  # s2, f2_small, pw, short
    assert "batch 3" in run_binary(binary, packed_convs, "", tmp_path / "out")


@pytest.mark.parametrize("march, panel", [(None, 16), ("x86-64", 16), ("haswell", 16), ("x86-64-v4", 64),
                                          ("skylake-avx512", 64)])
def test_compile_lays_prepared_weights_out_for_the_target(packed_convs, tmp_path, march, panel):
    """compile without --march writes the 16-row layout every target runs
    well; with --march, the one for that CPU (asked of the C compiler), in
    the kernels and in the weight table the runtime packs by."""
    out = tmp_path / "src"
    p = run(["compile", os.path.join(packed_convs, "model.pdmodel"), "-o", str(out)] +
            ([f"--march={march}"] if march else []))
    assert p.returncode == 0, p.stderr[-3000:]
    source = (out / "model.c").read_text()
    assert re.findall(r"\.packed = (\d+),", source) == [str(panel)] * 5
    # the weight table: rows, Winograd m (F(4x4) at 24 x 24, F(2x2) at 12 x 12 and 7 x 7, none) and panel height
    winos = re.findall(r"\{\"[^\"]+\", RT_DT_FP32, 4, \{[^}]*\}, \d+, ([024]), %d\}" % panel, source)
    assert sorted(winos) == ["0", "0", "2", "2", "4"], winos

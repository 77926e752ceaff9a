"""The libFuzzer harnesses (tests/fuzz/fuzz_*.c): built with `make fuzz-build`,
each replays its committed corpus and its regression inputs (every crash a
fuzzing run found, fixed), then fuzzes a fixed number of inputs from a fixed
seed, so that a clone gives the same verdict on every machine: a new crash
found by chance belongs to `make fuzz`, not to whichever CI run drew it.  A
crash, a sanitizer report, a leak or an internal error (exit 2) fails the
test.

PADDLEC_FUZZ_RUNS sets the inputs per target (default 20000; 0 only
replays), PADDLEC_FUZZ_SEED the seed (default 1).  Long, random runs: make
fuzz FUZZ_SECONDS=N."""
import os
import shutil
import subprocess

import pytest

from conftest import BUILD, ROOT, exclusive

TARGETS = ["fuzz_program", "fuzz_params", "fuzz_ir_text", "fuzz_strategy_json", "fuzz_npy", "fuzz_pickle"]
FUZZ = os.path.join(BUILD, "fuzz")
RUNS = int(os.environ.get("PADDLEC_FUZZ_RUNS", "20000"))
SEED = int(os.environ.get("PADDLEC_FUZZ_SEED", "1"))
OPTS = ["-close_fd_mask=3", "-timeout=20", "-rss_limit_mb=2048", "-malloc_limit_mb=1024"]
ENV = dict(os.environ, ASAN_OPTIONS="detect_leaks=1", UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")


@pytest.fixture(scope="module")
def built():
    if not shutil.which("clang"):
        pytest.skip("clang is needed for libFuzzer")
    with exclusive(FUZZ):
        p = subprocess.run(["make", "-s", "fuzz-build"], cwd=ROOT, capture_output=True, text=True, timeout=3600)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    return FUZZ


def inputs(kind, target):
    d = os.path.join(ROOT, "tests", "fuzz", kind, target)
    return sorted(os.path.join(d, f) for f in os.listdir(d)) if os.path.isdir(d) else []


@pytest.mark.parametrize("target", TARGETS)
def test_fuzz(built, target, tmp_path):
    exe = os.path.join(built, target)
    corpus = inputs("corpus", target)
    assert corpus, f"tests/fuzz/corpus/{target} is empty"
    # Each committed input and regression once, by name (the replay CI needs).
    files = corpus + inputs("regressions", target)
    p = subprocess.run([exe] + OPTS + files, capture_output=True, text=True, env=ENV, timeout=600)
    assert p.returncode == 0, p.stderr[-6000:]
    if RUNS <= 0:
        return
    # Then a short, seeded run from the corpus; what it learns stays in tmp_path.
    dirs = [str(tmp_path)] + [os.path.join(ROOT, "tests", "fuzz", k, target) for k in ("corpus", "regressions")
                              if inputs(k, target)]
    p = subprocess.run([exe] + OPTS + [f"-seed={SEED}", f"-runs={RUNS}", f"-artifact_prefix={tmp_path}/"] + dirs,
                       capture_output=True, text=True, env=ENV, timeout=900)
    crashes = [f for f in os.listdir(tmp_path) if f.startswith(("crash-", "leak-", "timeout-", "oom-"))]
    assert p.returncode == 0 and not crashes, f"{target} found {crashes}:\n" + p.stderr[-6000:]

"""Shared pieces of the test suite: where things are, and how to run paddlec.

Tests run the sanitizer build (build/asan/paddlec: AddressSanitizer, leak
checking and UBSan) so every run doubles as a memory-safety check."""
import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
PADDLEC = os.path.join(BUILD, "asan", "paddlec")
MODELS = os.path.normpath(os.path.join(ROOT, "..", "shared", "models"))
FIXTURES = os.path.join(BUILD, "fixtures")
# CFLAGS reaches the generated Makefile of `paddlec build`: the arena starts
# as NaNs, so a kernel that reads memory nothing wrote shows up as a mismatch.
# PADDLEC_VERIFY_EACH: the IR verifier runs after every pass of every compile.
# The generated programs build with ccache when it is there (the Makefile
# installs it): every one compiles the same runtime sources.
# CPU_NUM=1: the generated models' default num_threads without Paddle's hint
# about CPU_NUM on stderr (tests of the default unset it).
os.environ.setdefault("CPU_NUM", "1")
SAN_ENV = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:exitcode=99",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=98",
               CFLAGS="-O3 -DPADDLEC_POISON_ARENA", PADDLEC_VERIFY_EACH="1")
CC = "ccache clang" if shutil.which("ccache") else "clang"
SAN_ENV.update(CC=CC, CCACHE_DIR=os.path.join(BUILD, "ccache"), CCACHE_NOHASHDIR="1")


def run(args, binary=PADDLEC):
    """Runs paddlec; returns CompletedProcess with text stdout/stderr."""
    p = subprocess.run([binary] + list(args), capture_output=True, text=True, env=SAN_ENV,
                       timeout=600)
    assert "AddressSanitizer" not in p.stderr and "runtime error" not in p.stderr \
        and "LeakSanitizer" not in p.stderr, p.stderr[-4000:]
    return p


def declared_ignores(kind):
    """op type -> what its OpDef declares without effect where paddlec
    compiles it, each with its reason in the op's file: kind "slots"
    (`paddlec ops`: "...; ignores A, B") or "attributes" ("...; ignores
    attributes A, B")."""
    out = {}
    for line in run(["ops"]).stdout.splitlines():
        slots, _, attrs = line.partition("; ignores attributes ")
        listed = attrs if kind == "attributes" else slots.partition("; ignores ")[2]
        if listed:
            out[line.split()[0]] = listed.split(", ")
    return out


def inspect_json(path, *extra):
    p = run(["inspect", path, "--json"] + list(extra))
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def real_models():
    if not os.path.isdir(MODELS):
        return []
    return sorted(d for d in os.listdir(MODELS) if os.path.isdir(os.path.join(MODELS, d)))


# The longest tests first (`make test` prints the slowest): with two
# pytest-xdist workers, a long test collected last would run alone at the end.
SLOW_FIRST = ("test_static_analysis.py", "test_op_attrs.py", "test_fuzz.py", "test_passes_diff.py",
              "test_ppocr_train.py", "test_e2e_ops.py")


def pytest_collection_modifyitems(items):
    def rank(item):
        name = os.path.basename(str(item.fspath))
        return SLOW_FIRST.index(name) if name in SLOW_FIRST else len(SLOW_FIRST)
    items.sort(key=rank)  # stable: collection order otherwise (the same in every worker)


@contextlib.contextmanager
def exclusive(path):
    """One test process at a time in here: `make test` runs the suite in two
    pytest-xdist workers, and what tests generate into build/ (Paddle's
    fixtures and references) is shared by both.  A lock file per `path`
    (build/locks/<path relative to build, / as _>)."""
    locks = os.path.join(BUILD, "locks")
    os.makedirs(locks, exist_ok=True)
    with open(os.path.join(locks, os.path.relpath(path, BUILD).replace(os.sep, "_")), "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        yield


def generated(out, argv, inputs, timeout=900, env=None):
    """Runs `argv` (a script that writes directory `out`) unless out/.done is
    newer than every file in `inputs`; touches out/.done after it; one worker
    at a time.  Returns `out`."""
    with exclusive(out):
        stamp = os.path.join(out, ".done")
        if not os.path.exists(stamp) or os.path.getmtime(stamp) < max(os.path.getmtime(i) for i in inputs):
            p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=env)
            assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
            open(stamp, "w").close()
    return out


@pytest.fixture(scope="session")
def fixtures_dir():
    """Generates the Paddle-made fixtures once (kept in build/fixtures; the
    script skips the fixtures it made before)."""
    script = os.path.join(ROOT, "tests", "oracle", "make_fixtures.py")
    with exclusive(FIXTURES):
        p = subprocess.run([sys.executable, script, FIXTURES], capture_output=True, text=True,
                           timeout=1800)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    return FIXTURES

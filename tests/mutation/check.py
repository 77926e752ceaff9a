#!/usr/bin/env python3
"""`make mutation-check`: proves that the test suite fails when a kernel
quietly computes something else.

Each mutation below changes one line of the runtime (drops a bias add, a
norm's scale or shift, an epilogue's alpha, the attention mask, a Winograd
tile, ...).  For each, a scratch copy of the tree (build/mutation: the
tracked files, the built objects, and the generated fixtures hard-linked)
gets the change, paddlec is rebuilt, and the tests named for it run: they
must fail.  First the same tests run on the unmutated copy and must pass
(else a failure proves nothing).  A mutation that survives is printed and
makes the check exit 1.

    python tests/mutation/check.py [NAME ...]     (default: every mutation)
"""
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRATCH = os.path.join(ROOT, "build", "mutation")
E2E = "tests/test_e2e.py::test_model_matches_paddle"
CNN = "tests/test_e2e_ops.py::test_e2e_family[cnn]"

# name: (file, the line's text as it is, what it becomes, the tests that must fail)
MUTATIONS = {
    "conv_epilogue_bias": (
        "runtime/rt_act.c", "const float c = bias ? *bias : 0.0f;", "const float c = 0.0f;",
        [f"{E2E}[resnet18-none]"]),
    "gemm_epilogue_bias": (
        "runtime/rt_gemm.c", "for (int64_t c = 0; c < n; c++) row[c] += ep->bias[j0 + c];", "(void)j0;",
        [f"{E2E}[mlp-none]"]),
    "layer_norm_scale": (
        "runtime/rt_norm.c", "if (j->scale) v *= j->scale[i];", "(void)i;",
        [f"{E2E}[bert-none]"]),
    "batch_norm_shift": (
        "runtime/rt_norm.c", "float s = j->scale ? j->scale[ch] : 1.0f, b = j->bias ? j->bias[ch] : 0.0f;",
        "float s = j->scale ? j->scale[ch] : 1.0f, b = 0.0f;",
        [CNN]),
    "epilogue_alpha": (
        "runtime/rt_act.c", "v[i] = x > 0.0f ? x : a != 0.0f ? a * x : 0.0f;",
        "v[i] = x > 0.0f ? x : a != 0.0f ? 0.1f * x : 0.0f;",
        [CNN]),
    "attention_mask": (
        "runtime/rt_attention.c",
        "for (int64_t c = 0; c < p->sk; c++) sc[i * p->sk + c] += m[i * ms[2] + c * ms[3]];", "(void)m;",
        [f"{E2E}[bert-none]"]),
    "winograd_tile": (
        "runtime/rt_winograd4.c", "memcpy(y + r * row + 4 * tw, o, sizeof o);",
        "if (tw + 1 < tw_n) memcpy(y + r * row + 4 * tw, o, sizeof o);",
        [f"{E2E}[resnet18-none]"]),
}


def sh(*args, **kw):
    return subprocess.run(list(args), check=True, **kw)


def scratch_copy():
    """build/mutation: the tracked files (older than the objects, so that
    make rebuilds only what a mutation touches) and the build."""
    if os.path.exists(SCRATCH):
        shutil.rmtree(SCRATCH)
    os.makedirs(SCRATCH)
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    tar = subprocess.run(["tar", "-c", "--null", "-T", "-", "-f", "-"], cwd=ROOT, input=files,
                         capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-f", "-"], cwd=SCRATCH, input=tar, check=True)
    old = time.time() - 86400
    for d, _, fs in os.walk(SCRATCH):
        for f in fs:
            os.utime(os.path.join(d, f), (old, old))
    os.symlink(os.path.join(ROOT, ".venv"), os.path.join(SCRATCH, ".venv"))
    os.makedirs(os.path.join(SCRATCH, "build"))
    for entry in os.listdir(os.path.join(ROOT, "build")):
        if entry == "mutation":
            continue
        src, dst = os.path.join(ROOT, "build", entry), os.path.join(SCRATCH, "build", entry)
        if entry in ("fixtures", "e2e"):
            sh("cp", "-al", src, dst)  # read only: generated once by the oracle
        else:
            sh("cp", "-a", src, dst)


def pytest(tests):
    """Runs `tests` in the scratch copy: (exit code, pytest's closing line)."""
    t = subprocess.run([os.path.join(SCRATCH, ".venv", "bin", "python"), "-m", "pytest", "-q", "-x",
                        "-p", "no:cacheprovider"] + tests, cwd=SCRATCH, capture_output=True, text=True)
    return t.returncode, (t.stdout.strip().splitlines() or [t.stderr[-300:]])[-1]


def build():
    b = subprocess.run(["make", "-j2", "all", "asan"], cwd=SCRATCH, capture_output=True, text=True)
    return None if b.returncode == 0 else "build failed: " + b.stderr[-500:]


def run_mutation(name):
    path, old, new, tests = MUTATIONS[name]
    f = os.path.join(SCRATCH, path)
    text = open(f).read()
    assert text.count(old) == 1, f"{name}: '{old}' is not once in {path} (update tests/mutation/check.py)"
    open(f, "w").write(text.replace(old, new))
    try:
        err = build()
        if err:
            return err
        rc, last = pytest(tests)
        return ("killed: " if rc == 1 else "SURVIVED: " if rc == 0 else "error: ") + last
    finally:
        open(f, "w").write(text)  # newer than the mutated objects: the next make rebuilds them


def main(argv):
    names = argv[1:] or list(MUTATIONS)
    scratch_copy()
    # the control: unmutated, the same tests pass (else a failure proves nothing)
    tests = sorted({t for n in names for t in MUTATIONS[n][3]})
    err = build()
    rc, last = pytest(tests) if not err else (2, err)
    print(f"{'(unmutated)':24} {last}", flush=True)
    if rc != 0:
        return 2
    survived = 0
    for n in names:
        r = run_mutation(n)
        print(f"{n:24} {r}", flush=True)
        survived += not r.startswith("killed")
    print(f"{len(names) - survived} of {len(names)} mutations killed")
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

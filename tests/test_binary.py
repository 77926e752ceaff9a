"""The standalone binary and the generated API on the sample classifier:
clear errors for wrong inputs, embedded weights, two models in one program,
and the no-malloc static arena."""
import os
import re
import subprocess

import numpy as np
import pytest

from conftest import ROOT, run

SAMPLE = os.path.join(ROOT, "samples", "mlp")


@pytest.fixture(scope="module")
def classifier(tmp_path_factory):
    d = tmp_path_factory.mktemp("bin")
    p = run(["build", os.path.join(SAMPLE, "model.pdmodel"), "-o", str(d / "classifier")])
    assert p.returncode == 0, p.stderr
    return d / "classifier"


def paddle_reference(x, zero=()):
    """The sample's output for x, computed by Paddle (with the parameters
    named in `zero` set to zeros, to show that a check depends on them)."""
    import paddle
    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        prog, feeds, fetches = paddle.static.load_inference_model(os.path.join(SAMPLE, "model"), exe)
        for name in zero:
            t = scope.find_var(name).get_tensor()
            t.set(np.zeros_like(np.array(t)), paddle.CPUPlace())
        (out,) = exe.run(prog, feed={feeds[0]: x}, fetch_list=fetches)
    paddle.disable_static()
    return out


def soft_points(tmp_path):
    """Points near the clusters' middle, where the softmax is far from 0 and 1
    (samples/mlp/x.npy gives probabilities of 0.9998: a bias could be dropped
    there without moving them by 1e-4).  Saved as tmp_path/soft.npy."""
    x = (np.random.default_rng(3).standard_normal((6, 8)) * 0.5).astype("float32")
    np.save(tmp_path / "soft.npy", x)
    return x


def test_soft_points_depend_on_every_bias(tmp_path):
    """The numeric checks below hold each output to 1e-4 of the largest; on
    these points, dropping either bias moves an output by far more."""
    x = soft_points(tmp_path)
    want = paddle_reference(x)
    assert 0.02 < want.min() and want.max() < 0.95, want
    for bias in ("linear_0.b_0", "linear_1.b_0"):
        assert np.abs(paddle_reference(x, zero=[bias]) - want).max() > 100 * 1e-4 * np.abs(want).max(), bias


def bin_run(binary, *args):
    return subprocess.run([str(binary)] + list(args), capture_output=True, text=True, timeout=120)


def test_runs_and_matches_paddle(classifier, tmp_path):
    x = soft_points(tmp_path)
    p = bin_run(classifier, "--input", f"x={tmp_path}/soft.npy", "--output-dir", str(tmp_path), "--repeat", "3")
    assert p.returncode == 0, p.stderr
    assert "argmax per row" in p.stdout and "latency over 3 runs: median" in p.stdout
    got = np.load(tmp_path / "save_infer_model_scale_0.tmp_0.npy")
    assert np.abs(got - paddle_reference(x)).max() <= 1e-4 * np.abs(got).max()


def test_raw_bin_input_with_shape(classifier, tmp_path):
    x = soft_points(tmp_path)
    x.tofile(tmp_path / "x.bin")
    p = bin_run(classifier, "--input", f"x={tmp_path}/x.bin", "--shape", "x=6,8", "--output-dir", str(tmp_path))
    assert p.returncode == 0, p.stderr
    got = np.load(tmp_path / "save_infer_model_scale_0.tmp_0.npy")
    assert np.abs(got - paddle_reference(x)).max() <= 1e-4 * np.abs(got).max()


@pytest.mark.parametrize("make_input, expect", [
    (lambda d: ("y", np.zeros((2, 8), "float32")), ["no input 'y'", "x"]),
    (lambda d: ("x", np.zeros((2, 8), "int64")), ["input 'x' is int64", "float32"]),
    (lambda d: ("x", np.zeros((2, 7), "float32")), ["input 'x' has shape [2, 7]", "[2, 8]"]),
    (lambda d: ("x", np.zeros((2, 8, 1), "float32")), ["input 'x' has 3 dims", "expects 2"]),
])
def test_wrong_input_is_a_clear_error(classifier, tmp_path, make_input, expect):
    name, arr = make_input(tmp_path)
    np.save(tmp_path / "in.npy", arr)
    p = bin_run(classifier, "--input", f"{name}={tmp_path}/in.npy")
    assert p.returncode == 1
    for s in expect:
        assert s in p.stderr, p.stderr


def test_missing_weights_file(classifier, tmp_path):
    p = bin_run(classifier, "--input", f"x={SAMPLE}/x.npy", "--weights", str(tmp_path / "nope.pdiparams"))
    assert p.returncode == 1 and "nope.pdiparams" in p.stderr


def test_embedded_weights_need_no_file(tmp_path):
    p = run(["build", SAMPLE, "-o", str(tmp_path / "c"), "--embed-weights"])
    assert p.returncode == 0, p.stderr
    assert not (tmp_path / "c.pdiparams").exists()
    x = soft_points(tmp_path)
    p = bin_run(tmp_path / "c", "--input", f"x={tmp_path}/soft.npy", "--output-dir", str(tmp_path))
    assert p.returncode == 0, p.stderr
    got = np.load(tmp_path / "save_infer_model_scale_0.tmp_0.npy")
    assert np.abs(got - paddle_reference(x)).max() <= 1e-4 * np.abs(got).max()


def test_profile_build_times_every_kernel(tmp_path, monkeypatch):
    """Built with -DPADDLEC_PROFILE, --repeat also lists each kernel's time."""
    from conftest import SAN_ENV
    monkeypatch.setitem(SAN_ENV, "CFLAGS", "-O1 -DPADDLEC_PROFILE")
    p = run(["build", SAMPLE, "-o", str(tmp_path / "c")])
    assert p.returncode == 0, p.stderr
    out = bin_run(tmp_path / "c", "--input", f"x={SAMPLE}/x.npy", "--repeat", "3", "--output-dir", str(tmp_path)).stdout
    assert "kernel time per run (ms), 4 runs" in out, out
    kernels = re.findall(r"^ +[0-9.]+ +[0-9.]+%  (model_k\d+_\w+)$", out, re.M)
    source = (tmp_path / "c_src" / "model.c").read_text()
    assert kernels and sorted(kernels) == sorted(set(re.findall(r"^static void (model_k\d+_\w+)\(model_model", source, re.M)))


def test_check_nans_is_its_own_error(tmp_path, monkeypatch):
    """Built with -DPADDLEC_CHECK_NANS, the first kernel that makes a NaN
    stops the run with MODEL_ERR_NAN and names itself and the element; the
    library prints nothing of it (the driver does).  A row of +inf gives
    softmax inf - inf on that row: row 1, element 3 of [4, 3]."""
    from conftest import SAN_ENV
    monkeypatch.setitem(SAN_ENV, "CFLAGS", "-O1 -DPADDLEC_CHECK_NANS")
    p = run(["build", SAMPLE, "-o", str(tmp_path / "c")])
    assert p.returncode == 0, p.stderr
    assert "MODEL_ERR_NAN = 6," in (tmp_path / "c_src" / "model.h").read_text()
    x = np.load(os.path.join(SAMPLE, "x.npy"))
    x[1, :] = np.inf
    np.save(tmp_path / "inf.npy", x)
    p = bin_run(tmp_path / "c", "--input", f"x={tmp_path}/inf.npy", "--output-dir", str(tmp_path / "o"))
    assert p.returncode == 1 and "error: run failed: a kernel made a NaN (model_k003_softmax: NaN at element 3)" \
        in p.stderr, p.stderr
    assert bin_run(tmp_path / "c", "--input", f"x={SAMPLE}/x.npy", "--output-dir", str(tmp_path / "o")).returncode == 0


def cc(*args):
    p = subprocess.run(["cc", "-std=c11", "-O1", "-Wall", "-Wextra", "-Werror"] + list(args) + ["-lm"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def test_host_api_sample(tmp_path):
    """samples/host_api.c: create, names, run, destroy."""
    assert run(["compile", SAMPLE, "-o", str(tmp_path), "--name", "classifier"]).returncode == 0
    rt = sorted(str(p) for p in (tmp_path / "paddlec_rt").glob("*.c"))
    cc("-I", str(tmp_path), os.path.join(ROOT, "samples", "host_api.c"), str(tmp_path / "classifier.c"), *rt,
       "-o", str(tmp_path / "host"))
    p = bin_run(tmp_path / "host", str(tmp_path / "classifier.pdiparams"))
    assert p.returncode == 0, p.stderr
    assert "point 0: class 0" in p.stdout and "point 1: class 1" in p.stdout


ALLOC_GUARD = (
    "#include <stdlib.h>\n#include <stdio.h>\n"
    "void *__real_malloc(size_t); void *__real_calloc(size_t, size_t); void *__real_realloc(void *, size_t);\n"
    "void *__real_aligned_alloc(size_t, size_t); int __real_posix_memalign(void **, size_t, size_t);\n"
    "static int calls;\n"
    "void *__wrap_malloc(size_t n) { calls++; return __real_malloc(n); }\n"
    "void *__wrap_calloc(size_t a, size_t b) { calls++; return __real_calloc(a, b); }\n"
    "void *__wrap_realloc(void *p, size_t n) { calls++; return __real_realloc(p, n); }\n"
    "void *__wrap_aligned_alloc(size_t a, size_t n) { calls++; return __real_aligned_alloc(a, n); }\n"
    "int __wrap_posix_memalign(void **p, size_t a, size_t n) { calls++; return __real_posix_memalign(p, a, n); }\n"
    "static void report(void) { fprintf(stderr, \"allocations: %d\\n\", calls); }\n"
    "__attribute__((constructor)) static void setup(void) { atexit(report); }\n")
ALLOC_WRAP = "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=aligned_alloc,--wrap=posix_memalign"


def guarded(tmp_path, name, sources):
    """Links `sources` with the sample's generated code and runtime, every
    allocation function wrapped to count the calls made from them; runs it
    and returns (stdout, the count printed at exit)."""
    guard = tmp_path / "guard.c"
    guard.write_text(ALLOC_GUARD)
    rt = sorted(str(p) for p in (tmp_path / "paddlec_rt").glob("*.c"))
    cc("-I", str(tmp_path), *sources, str(tmp_path / "classifier.c"), str(tmp_path / "classifier_weights.c"),
       str(guard), *rt, ALLOC_WRAP, "-o", str(tmp_path / name))
    p = subprocess.run([str(tmp_path / name)], capture_output=True, text=True, env=dict(os.environ, MALLOC_ARENA_MAX="1"))
    assert p.returncode == 0, p.stdout + p.stderr
    # only calls from the linked objects are counted (libc's own are not)
    m = re.search(r"allocations: (\d+)", p.stderr)
    assert m, p.stderr
    return p.stdout, int(m.group(1))


def test_static_arena_allocates_nothing(tmp_path):
    """samples/host_static.c with embedded weights runs its largest batch
    with no call to any allocation function; the same guard counts the
    runtime's own allocator (rt_alloc), so it can tell."""
    assert run(["compile", SAMPLE, "-o", str(tmp_path), "--name", "classifier", "--embed-weights"]).returncode == 0
    out, calls = guarded(tmp_path, "fw", [os.path.join(ROOT, "samples", "host_static.c")])
    assert out.count("class probabilities") == 4, out
    assert calls == 0
    # the control: one rt_alloc made beside the static model is seen
    ctl = tmp_path / "control.c"
    ctl.write_text('#include "paddlec_rt/rt_alloc.h"\n#include <stdio.h>\n'
                   "int main(void) { void *p = rt_alloc(1 << 20); printf(\"%d\\n\", p != NULL); rt_free(p); return 0; }\n")
    out, calls = guarded(tmp_path, "control", [str(ctl)])
    assert out.strip() == "1" and calls == 1, (out, calls)


def test_two_models_in_one_program(tmp_path):
    """Two compiled models linked together: every symbol carries its prefix."""
    for name in ("first", "second"):
        assert run(["compile", SAMPLE, "-o", str(tmp_path / name), "--name", name]).returncode == 0
    host = tmp_path / "two.c"
    host.write_text(
        '#include <stdio.h>\n#include "first.h"\n#include "second.h"\n'
        "int main(int c, char **v) { (void)c; first_model *a; second_model *b;\n"
        "  if (first_create(&a, v[1]) || second_create(&b, v[2])) return 1;\n"
        "  float x[8] = {2, 2, 2, 2, 2, 2, 2, 2}, pa[3], pb[3]; const void *in[] = {x};\n"
        "  void *oa[] = {pa}, *ob[] = {pb};\n"
        "  if (first_run(a, 1, in, oa) || second_run(b, 1, in, ob)) return 1;\n"
        "  printf(\"%d\\n\", pa[0] == pb[0] && pa[1] == pb[1] && pa[2] == pb[2]);\n"
        "  first_destroy(a); second_destroy(b); return 0; }\n")
    rt = sorted(str(p) for p in (tmp_path / "first" / "paddlec_rt").glob("*.c"))
    cc("-I", str(tmp_path / "first"), "-I", str(tmp_path / "second"), str(host), str(tmp_path / "first" / "first.c"),
       str(tmp_path / "second" / "second.c"), *rt, "-o", str(tmp_path / "two"))
    p = bin_run(tmp_path / "two", str(tmp_path / "first" / "first.pdiparams"), str(tmp_path / "second" / "second.pdiparams"))
    assert p.returncode == 0 and p.stdout.strip() == "1", p.stderr


def test_static_arena_too_small_is_a_clear_error(tmp_path):
    """After net_init, a batch (or reserve) beyond the arena fails with the
    bytes it needs and the bytes it got (the message is built without printf,
    so that firmware links none)."""
    assert run(["compile", SAMPLE, "-o", str(tmp_path), "--name", "net", "--embed-weights"]).returncode == 0
    host = tmp_path / "small.c"
    host.write_text(
        '#include <stdio.h>\n#include "net.h"\n'
        "static unsigned char arena[NET_ARENA_BYTES(1)] __attribute__((aligned(64))); static net_model m;\n"
        "int main(void) { float x[24] = {0}, y[9]; const void *in[] = {x}; void *out[] = {y};\n"
        "  if (net_init(&m, arena, sizeof arena, NULL, 0)) return 1;\n"
        "  int st = net_run(&m, 3, in, out); printf(\"%d %s\\n\", st == NET_ERR_SHAPE, net_last_error(&m));\n"
        "  st = net_reserve(&m, 123456789012LL); printf(\"%d %s\\n\", st == NET_ERR_SHAPE, net_last_error(&m));\n"
        "  st = net_run(&m, 1, in, out); printf(\"%d\\n\", st == NET_OK); return 0; }\n")
    rt = sorted(str(p) for p in (tmp_path / "paddlec_rt").glob("*.c"))
    cc("-I", str(tmp_path), str(host), str(tmp_path / "net.c"), str(tmp_path / "net_weights.c"), *rt,
       "-o", str(tmp_path / "small"))
    p = bin_run(tmp_path / "small")
    assert p.returncode == 0, p.stderr
    act = re.search(r"#define NET_TENSOR_BYTES\(batch\) \(\(size_t\)(\d+) \* \(size_t\)\(batch\) \+ \(size_t\)(\d+)\)",
                    (tmp_path / "net.h").read_text())
    scratch = re.search(r"#define NET_SCRATCH_BYTES\(batch\) \(\(size_t\)(\d+) \* \(size_t\)\(batch\) \+ \(size_t\)(\d+)\)",
                        (tmp_path / "net.h").read_text())
    need = lambda b: int(act[1]) * b + int(act[2]) + int(scratch[1]) * b + int(scratch[2])  # noqa: E731
    home = need(1) + 64  # the arena is aligned: its 64 bytes of slack hold activations
    assert p.stdout.splitlines() == [
        f"1 run: batch 3 with 1 kernels at once needs {need(3)} bytes of activations; init gave {home}",
        f"1 reserve: batch 123456789012 with 1 kernels at once needs {need(123456789012)} bytes of activations; "
        f"init gave {home}", "1"], p.stdout

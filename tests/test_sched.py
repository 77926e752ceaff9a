"""The run-time scheduler and Paddle's ExecutionStrategy (runtime/rt_sched.h,
templates/model.c.in): the dependency graph emitted with the kernels,
num_threads, sequential execution, num_iteration_per_run,
num_iteration_per_drop_scope, CPU_NUM, the allocation hook, a soak and two
models at once.  The host programs are in tests/host/."""
import json
import os
import re
import subprocess
import sys

import pytest

from conftest import CC, ROOT, SAN_ENV, run

HOST = os.path.join(ROOT, "tests", "host")
CFLAGS = ["-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Wextra", "-Werror", "-pthread"]


def compile_model(fixture, out_dir, name="model", *extra):
    p = run(["compile", os.path.join(fixture, "model.pdmodel"), "-o", str(out_dir), "--name", name] + list(extra))
    assert p.returncode == 0, p.stderr[-3000:]
    return out_dir


def host(src, model_dirs, binary, *flags):
    """Builds tests/host/SRC with the models' sources and the runtime
    (portable kernels: no OpenBLAS, so sanitizers see every line)."""
    sources = [os.path.join(HOST, src)]
    for d in model_dirs:
        sources += sorted(str(p) for p in d.glob("*.c") if not p.name.startswith("main"))
    sources += sorted(str(p) for p in (model_dirs[0] / "paddlec_rt").glob("*.c"))
    inc = [a for d in model_dirs for a in ("-I", str(d))]
    p = subprocess.run(CC.split() + CFLAGS + list(flags) + inc + sources + ["-lm", "-o", str(binary)],
                       capture_output=True, text=True, env=SAN_ENV, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    return binary


def host_run(binary, *args, env=None):
    p = subprocess.run([str(binary)] + [str(a) for a in args], capture_output=True, text=True, timeout=600,
                       env=env or dict(os.environ, ASAN_OPTIONS="detect_leaks=1:exitcode=99",
                                       TSAN_OPTIONS="halt_on_error=1:exitcode=97"))
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    return p.stdout


# ---- the dependency graph --------------------------------------------------

def parse_kernels(source):
    """The kernels of a generated model.c: for each, the vars it reads and
    writes (name, dtype, shape text) and the kernels it runs after."""
    kernels = []
    for m in re.finditer(r"/\* block \d+ ops? [^\n]*\n((?: \*   [^\n]*\n)*) \*/\n", source):
        k = {"in": [], "out": [], "after": []}
        for line in m.group(1).splitlines():
            f = line[5:].split()
            if f[0] in ("in", "out"):
                k[f[0]].append((f[2], f[3], line[line.index("["):]))
            elif f[0] == "after" and f[1] != "(none:":
                k["after"] = [int(x.strip(",")[1:]) - 1 for x in f[1:]]
        kernels.append(k)
    return kernels


def memplan(stdout):
    """--dump-memplan: var name -> (offset a, offset c) of its buffer."""
    where, cols = {}, None
    for line in stdout.splitlines():
        if line.startswith("# buf"):
            cols = [line.index(h) for h in ("offset", "bytes", "ops", "vars")]
        elif cols and line.split() and line.split()[0].isdigit():
            for v in line[cols[3]:].split():
                where[v] = sym(line[cols[0]:cols[1]])
    return where


def sym(text):
    """'18816*B' / '0' / '(64*B+128)' style a*B + c -> (a, c)."""
    a = c = 0
    for term in re.findall(r"[+-]?[^+-]+", text.replace(" ", "").strip("()")):
        if term.endswith("*B"):
            a += int(term[:-2])
        elif term in ("B", "+B"):
            a += 1
        else:
            c += int(term)
    return a, c


SIZES = {"float32": 4, "int64": 8, "int32": 4, "bool": 1, "float64": 8, "int8": 1, "uint8": 1, "int16": 2}


def region(name, dtype, shape, where, batch):
    """The bytes [lo, hi) a var occupies at `batch`, from the memory plan and
    its shape (no rounding: never more than the compiler's own region)."""
    n = SIZES[dtype]
    for d in shape.strip("[]").split(","):
        d = d.strip()
        if d:
            a, c = sym(d.replace(" ", "").replace("*", "*"))
            n *= a * batch + c
    a, c = where[name]
    return a * batch + c, a * batch + c + n


@pytest.mark.parametrize("name,extra", [("lenet", []), ("resnet18", []), ("mobilenet_v2", []), ("bert", []),
                                        ("branchy", []), ("bert", ["--build-strategy", "fused_attention=true"]),
                                        ("mobilenet_v2", ["--build-strategy", "memory_optimize=false"])])
def test_dependency_graph_orders_every_conflict(fixtures_dir, tmp_path, name, extra):
    """For every two kernels that touch the same bytes (at batch 1, 2 and 7)
    with one of them writing, computed here from the emitted comments and
    --dump-memplan, the later one is reachable from the earlier through the
    'after' lines: data, write-after-read (the arena reuse of memory_optimize
    and enable_inplace) and write-after-write hazards all ordered."""
    p = run(["compile", os.path.join(fixtures_dir, name, "model.pdmodel"), "-o", str(tmp_path), "--dump-memplan"]
            + extra)
    assert p.returncode == 0, p.stderr[-2000:]
    where = memplan(p.stdout)
    kernels = parse_kernels((tmp_path / "model.c").read_text())
    n = len(kernels)
    reach = [set() for _ in range(n)]
    for j in range(n):
        for i in kernels[j]["after"]:
            assert i < j
            reach[j] |= {i} | reach[i]
    conflicts = 0
    for b in (1, 2, 7):
        acc = []
        for k in kernels:
            a = []
            for side in ("in", "out"):
                for v, dt, shape in k[side]:
                    key = region(v, dt, shape, where, b) if v in where else (v,)
                    a.append((key, side == "out"))
            acc.append(a)
        for j in range(n):
            for i in range(j):
                hit = any((wi or wj) and (x == y if len(x) == 1 or len(y) == 1 else x[0] < y[1] and y[0] < x[1])
                          for x, wi in acc[i] for y, wj in acc[j] if len(x) == len(y))
                if hit:
                    conflicts += 1
                    assert i in reach[j], f"kernel {j + 1} may run before kernel {i + 1}, which touches its memory"
    assert conflicts > 0
    if name in ("branchy", "bert", "resnet18"):  # the graph leaves room for kernels at once
        assert any(i not in reach[j] for j in range(n) for i in range(j))


# ---- num_threads, sequential execution, num_iteration_per_run ----------------

@pytest.fixture(scope="module")
def branchy_trace(fixtures_dir, tmp_path_factory):
    """sched_trace built three ways: plain, with enable_sequential_execution
    compiled in, and with --exec-strategy num_threads=2,num_iteration_per_run=3."""
    fixture = os.path.join(fixtures_dir, "branchy")
    out = {}
    for key, extra in (("plain", []), ("sequential", ["--build-strategy", "enable_sequential_execution=true"]),
                       ("baked", ["--exec-strategy", "num_threads=2,num_iteration_per_run=3"])):
        d = compile_model(fixture, tmp_path_factory.mktemp(key), "model", *extra)
        out[key] = (host("sched_trace.c", [d], d / "trace", "-O2", "-DPADDLEC_TRACE"), d / "model.pdiparams")
    return out


def trace(binary_weights, num_threads, sequential, iterations, wait_ms):
    binary, weights = binary_weights
    out = host_run(binary, weights, num_threads, sequential, iterations, wait_ms)
    events = [(ln[0], int(ln[2:])) for ln in out.splitlines() if ln[:2] in ("B ", "E ")]
    kernels, per = map(int, re.search(r"kernels (\d+) \((\d+) per iteration\)", out).groups())
    assert "identical 1" in out  # bitwise the outputs of one thread
    return events, kernels, per


def program_order(events, per):
    return events == [(e, k % per) for k in range(len(events) // 2) for e in "BE"]


def test_num_threads_runs_independent_kernels_at_once(branchy_trace):
    """Kernels 0 and 1 share only the feed; the hook holds kernel 0 until
    kernel 1 begins (10 s at most): with num_threads=2 it begins meanwhile."""
    events, kernels, per = trace(branchy_trace["plain"], 2, 0, 1, 10000)
    assert events.index(("B", 1)) < events.index(("E", 0)), events
    assert kernels == per


def test_one_thread_runs_kernels_in_program_order(branchy_trace):
    events, _, per = trace(branchy_trace["plain"], 1, 0, 1, 200)
    assert program_order(events, per), events


@pytest.mark.parametrize("how", ["run time", "compile time"])
def test_sequential_execution_keeps_program_order(branchy_trace, how):
    """num_threads=2 with enable_sequential_execution: one kernel at a time,
    in program order, though kernel 0 waits for kernel 1 to begin."""
    b = branchy_trace["plain"] if how == "run time" else branchy_trace["sequential"]
    events, _, per = trace(b, 2, 1 if how == "run time" else "-", 1, 200)
    assert program_order(events, per), events


def test_num_iteration_per_run(branchy_trace):
    """One run performs num_iteration_per_run iterations (every kernel that
    many times, in order on one thread); the outputs are still those of one
    iteration.  Compiled in, the same with num_threads=2."""
    events, kernels, per = trace(branchy_trace["plain"], 1, 0, 3, 0)
    assert kernels == 3 * per and program_order(events, per)
    events, kernels, per = trace(branchy_trace["baked"], "-", "-", "-", 10000)
    assert kernels == 3 * per
    assert events.index(("B", 1)) < events.index(("E", 0)), events


# ---- num_iteration_per_drop_scope and the allocation hook --------------------

@pytest.fixture(scope="module")
def alloc_hook(fixtures_dir, tmp_path_factory):
    d = compile_model(os.path.join(fixtures_dir, "branchy"), tmp_path_factory.mktemp("alloc"))
    return host("alloc_hook.c", [d], d / "alloc_hook", "-O1", "-g", "-fsanitize=address,undefined",
                "-fno-sanitize-recover=all"), d / "model.pdiparams"


def test_drop_scope_releases_temporaries(alloc_hook):
    """create sizes the static arena for batch 1; a run at batch 4 takes its
    activations from the local scope.  Counted through the allocation hook:
    10 iterations dropping every 3 allocate at iterations 1, 4, 7, 10 and
    release after 3, 6, 9 and 10 (the fetch) -> 4 and 4; dropping every 100,
    once and once (the fetch); a run that fetches nothing keeps its scope
    (1, 0), the next reuses it (0, 0) and drop_local_exe_scopes releases it
    (1); batch 1 fits the static arena (0, 0); after reserve(4), batch 4
    does too."""
    binary, weights = alloc_hook
    out = host_run(binary, weights, "scope")
    want = ["batch4 iterations10 drop3: status 0 allocs 4 frees 4",
            "batch4 iterations10 drop100: status 0 allocs 1 frees 1",
            "batch4 nofetch: status 0 allocs 1 frees 0",
            "batch4 nofetch again: status 0 allocs 0 frees 0",
            "drop_local_exe_scopes: frees 1",
            "batch1: status 0 allocs 0 frees 0",
            "reserve4: status 0 allocs 1",
            "batch4 reserved: status 0 allocs 0 frees 0",
            "after destroy: live 0"]
    assert out.splitlines() == want, out


def test_every_allocation_failure_is_an_error_and_leaks_nothing(alloc_hook):
    """fail_after=N for N = 0, 1, ...: every call of create, set_exec_strategy,
    set_num_threads, run, run (local scope), reserve, run returns 0 or
    ERR_NOMEM (3), nothing stays allocated after destroy (and LeakSanitizer
    agrees), and each call meets a failure for some N."""
    binary, weights = alloc_hook
    lines = host_run(binary, weights, "fail").splitlines()
    seen_fail = set()
    for ln in lines:
        m = re.fullmatch(r"fail_after (\d+): failed (\d+) statuses ([\d ]+) live (-?\d+)", ln)
        assert m, ln
        statuses = [int(s) for s in m.group(3).split()]
        assert set(statuses) <= {0, 3} and m.group(4) == "0", ln
        seen_fail |= {i for i, s in enumerate(statuses) if s}
    assert m.group(2) == "0" and statuses == [0] * 7, lines[-1]
    assert seen_fail == set(range(7)), lines


@pytest.fixture(scope="module")
def lod_alloc(tmp_path_factory):
    from test_e2e_ops import cases
    out, _ = cases("lod_made")
    d = compile_model(os.path.join(out, "ctc_greedy_decoder"), tmp_path_factory.mktemp("lod_alloc"))
    return host("lod_alloc.c", [d], d / "lod_alloc", "-O1", "-g", "-fsanitize=address,undefined",
                "-fno-sanitize-recover=all"), d / "model.pdiparams"


def test_made_lods_are_allocated_once_per_size(lod_alloc):
    """A model whose kernels make LoDs (im2sequence, then ctc_align over
    it) holds their offsets outside the arena, through the allocation
    hook: after reserve(3) the first run (batch 3) takes its two stores,
    and the runs at batches 1, 2, 3 and 3 after it allocate nothing; each
    run leaves output 0's LoD with batch + 1 offsets ending at the rows it
    wrote; destroy releases everything."""
    binary, weights = lod_alloc
    out = host_run(binary, weights, "grow")
    want = ["reserve3: status 0 allocs 1",
            "batch3: status 0 allocs 2 frees 0 lod 4 ends_at_rows 1",
            "batch1: status 0 allocs 0 frees 0 lod 2 ends_at_rows 1",
            "batch2: status 0 allocs 0 frees 0 lod 3 ends_at_rows 1",
            "batch3: status 0 allocs 0 frees 0 lod 4 ends_at_rows 1",
            "batch3: status 0 allocs 0 frees 0 lod 4 ends_at_rows 1",
            "after destroy: live 0"]
    assert out.splitlines() == want, out


def test_made_lod_allocation_failures_are_errors(lod_alloc):
    """Every allocation failing in turn (create, the runs that take the
    LoD stores): each call returns 0 or ERR_NOMEM (3) and nothing stays
    allocated after destroy."""
    binary, weights = lod_alloc
    lines = host_run(binary, weights, "fail").splitlines()
    seen = set()
    for ln in lines:
        m = re.fullmatch(r"fail_after (\d+): failed (\d+) statuses ([\d ]+) live (-?\d+)", ln)
        assert m, ln
        statuses = [int(x) for x in m.group(3).split()]
        assert set(statuses) <= {0, 3} and m.group(4) == "0", ln
        seen |= {i for i, st in enumerate(statuses) if st}
    assert m.group(2) == "0" and statuses == [0] * 4, lines[-1]
    assert {0, 1} <= seen, lines


# ---- soak, two models at once, determinism ----------------------------------

def test_soak_10000_runs(fixtures_dir, tmp_path):
    """10,000 runs on 2 threads at batches 1 and 3 in turn (every batch-3 run
    makes and drops a local scope): under ASan no leak and every output
    bitwise the first; built plainly, resident memory after the run grows
    less than 256 KiB over the last 9,000 runs (a leak of 32 bytes per run
    would pass that)."""
    d = compile_model(os.path.join(fixtures_dir, "branchy"), tmp_path / "m")
    asan = host("soak.c", [d], tmp_path / "soak_asan", "-O1", "-g", "-fsanitize=address,undefined",
                "-fno-sanitize-recover=all")
    assert "mismatches 0 " in host_run(asan, d / "model.pdiparams", 10000)
    plain = host("soak.c", [d], tmp_path / "soak", "-O2")
    out = host_run(plain, d / "model.pdiparams", 10000)
    m = re.search(r"runs 10000 mismatches 0 rss_early_kib (\d+) rss_end_kib (\d+)", out)
    assert m, out
    assert int(m.group(2)) - int(m.group(1)) < 256, out


def test_two_models_in_two_threads_at_once(fixtures_dir, tmp_path):
    """Two generated models, each with a 2-thread pool, run at once from two
    threads under ThreadSanitizer: no race, outputs bitwise those of one
    thread."""
    a = compile_model(os.path.join(fixtures_dir, "branchy"), tmp_path / "a", "model")
    b = compile_model(os.path.join(fixtures_dir, "lenet"), tmp_path / "b", "other")
    binary = host("two_models.c", [a, b], tmp_path / "two", "-O1", "-g", "-fsanitize=thread")
    out = host_run(binary, a / "model.pdiparams", b / "other.pdiparams", 200)
    assert "model mismatches 0 other mismatches 0" in out, out


# ---- configuration: --exec-strategy, CPU_NUM --------------------------------

@pytest.fixture(scope="module")
def branchy_bin(fixtures_dir, tmp_path_factory):
    d = tmp_path_factory.mktemp("bin")
    fixture = os.path.join(fixtures_dir, "branchy")
    p = run(["build", os.path.join(fixture, "model.pdmodel"), "-o", str(d / "branchy"), "--exec-strategy",
             "num_iteration_per_run=2,num_iteration_per_drop_scope=7"])
    assert p.returncode == 0, p.stderr[-2000:]
    return d / "branchy", os.path.join(fixture, "input_0.npy")


def drive(branchy_bin, tmp_path, *args, env=None):
    binary, x = branchy_bin
    e = dict(os.environ)
    e.pop("CPU_NUM", None)
    e.update(env or {})
    return subprocess.run([str(binary), "--input", f"image={x}", "--output-dir", str(tmp_path), "--repeat", "1"]
                          + list(args), capture_output=True, text=True, timeout=120, env=e)


def paddle_hint():
    """What Paddle itself prints when CPU_NUM is not set."""
    code = "import paddle.base.framework as f; f._cpu_num()"
    env = {k: v for k, v in os.environ.items() if k != "CPU_NUM"}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env).stderr


def test_cpu_num_decides_the_default_num_threads(branchy_bin, tmp_path):
    """num_threads unset: CPU_NUM, else 1 with the hint Paddle prints (the
    same text, taken from Paddle here) on a machine with more than one CPU."""
    hint = paddle_hint()
    p = drive(branchy_bin, tmp_path)
    assert p.returncode == 0, p.stderr
    assert "num_threads 1," in p.stdout
    if os.cpu_count() > 1:
        assert "!!! The CPU_NUM is not specified" in hint and hint in p.stderr, (hint, p.stderr)
    p = drive(branchy_bin, tmp_path, env={"CPU_NUM": "3"})
    assert p.returncode == 0 and "(threads 3, num_threads 3," in p.stdout and "CPU_NUM" not in p.stderr, p.stdout
    p = drive(branchy_bin, tmp_path, env={"CPU_NUM": "two"})
    assert p.returncode == 0 and "CPU_NUM='two' is not a positive number; using 1" in p.stderr


def test_exec_strategy_compiled_in_and_overridden(branchy_bin, tmp_path):
    """--exec-strategy at compile time sets the binary's defaults; the
    binary's own --exec-strategy and --threads override them."""
    p = drive(branchy_bin, tmp_path, env={"CPU_NUM": "1"})
    assert "num_threads 1, 2 iteration(s) per run" in p.stdout, p.stdout
    p = drive(branchy_bin, tmp_path, "--exec-strategy", "num_threads=2,num_iteration_per_run=1", "--threads", "4")
    assert "(threads 4, num_threads 2, 1 iteration(s) per run)" in p.stdout, p.stdout + p.stderr
    p = drive(branchy_bin, tmp_path, "--exec-strategy", "num_threads=2", "--build-strategy",
              "enable_sequential_execution=true")
    assert "num_threads 2, sequential" in p.stdout, p.stdout + p.stderr


@pytest.mark.parametrize("args,message", [
    (["--exec-strategy", "num_thread=2"], "unknown key in 'num_thread=2'; valid keys: num_threads "
                                          "num_iteration_per_run num_iteration_per_drop_scope"),
    (["--exec-strategy", "num_iteration_per_run=0"], "num_iteration_per_run='0': expected an integer >= 1"),
    (["--exec-strategy", "num_threads=-1"], "num_threads='-1': expected an integer >= 0"),
    (["--exec-strategy", "allow_op_delay=maybe"], "allow_op_delay='maybe': expected true or false"),
    (["--build-strategy", "fuse_bn_act_ops=true"], "valid keys: enable_sequential_execution sequential_run"),
])
def test_binary_rejects_bad_strategy(branchy_bin, tmp_path, args, message):
    p = drive(branchy_bin, tmp_path, *args)
    assert p.returncode == 1 and message in p.stderr, p.stderr


@pytest.mark.parametrize("args,message", [
    (["--exec-strategy", "num_thread=2"], "--exec-strategy: unknown ExecutionStrategy key 'num_thread'; valid keys: "
                                          "num_threads, num_iteration_per_run, num_iteration_per_drop_scope, "
                                          "allow_op_delay, use_experimental_executor, use_thread_barrier"),
    (["--exec-strategy", "num_threads=two"], "ExecutionStrategy num_threads='two': expected an integer"),
    (["--exec-strategy", "num_iteration_per_drop_scope=0"], "num_iteration_per_drop_scope must be >= 1"),
    (["--exec-strategy", "num_threads=-2"], "num_threads must be >= 0"),
])
def test_compiler_rejects_bad_exec_strategy(fixtures_dir, tmp_path, args, message):
    p = run(["compile", os.path.join(fixtures_dir, "branchy", "model.pdmodel"), "-o", str(tmp_path)] + args)
    assert p.returncode == 1 and message in p.stderr, p.stderr
    assert not (tmp_path / "model.c").exists()


def test_exec_strategy_file(fixtures_dir, tmp_path):
    f = tmp_path / "es.json"
    f.write_text(json.dumps({"num_threads": 3, "num_iteration_per_run": 4, "use_thread_barrier": False}))
    p = run(["compile", os.path.join(fixtures_dir, "branchy", "model.pdmodel"), "-o", str(tmp_path / "o"),
             "--exec-strategy-file", str(f)])
    assert p.returncode == 0, p.stderr
    src = (tmp_path / "o" / "model.c").read_text()
    assert "s->num_threads = 3;" in src and "s->num_iteration_per_run = 4;" in src


def test_built_without_threads(fixtures_dir, tmp_path):
    """make THREADS=0 (no POSIX threads): num_threads=2 compiled in still
    runs, one kernel at a time, with the bytes of the same sources built
    with threads and run on two; asking it for two threads is a clear
    error."""
    fixture = os.path.join(fixtures_dir, "branchy")
    x = os.path.join(fixture, "input_0.npy")
    outs = []
    for threads in ("0", "1"):
        src = compile_model(fixture, tmp_path / f"src{threads}", "model", "--exec-strategy", "num_threads=2")
        b = subprocess.run(["make", "-s", "-C", str(src), f"CC={CC}", f"THREADS={threads}", "BLAS=none", "model"],
                           capture_output=True, text=True, env=dict(SAN_ENV, CFLAGS="-O2 -Wall -Wextra -Werror"))
        assert b.returncode == 0, b.stderr[-2000:]
        p = subprocess.run([str(src / "model"), "--input", f"image={x}", "--output-dir", str(src / "out"),
                            "--repeat", "1"]
                           + (["--threads", "2"] if threads == "1" else []), capture_output=True, text=True,
                           timeout=120)
        assert p.returncode == 0 and f"(threads {1 + int(threads)}, num_threads 2," in p.stdout, p.stdout + p.stderr
        outs.append(sorted((f.name, f.read_bytes()) for f in (src / "out").iterdir()))
    assert outs[0] == outs[1] and outs[0]
    p = subprocess.run([str(tmp_path / "src0" / "model"), "--input", f"image={x}", "--threads", "2",
                        "--output-dir", str(tmp_path)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 1 and "built without threads (PADDLEC_NO_THREADS): one thread only" in p.stderr, p.stderr

"""Training programs against Paddle (issue 16).  tests/oracle/train_cases.py
saves each fixture: main and startup programs as users save them, a data
set, an initial state, and Paddle's Executor's loss at every step and final
state.  Each is built with `paddlec build MAIN --startup STARTUP -o trainer`
and trained on the same batches from the same state:

- the loss at every step within 1e-4 of Paddle's (relative: |ours - paddle|
  / max(|paddle|, 1e-6)), a case's extra fetches after every step within
  1e-4 (relative to their largest magnitude), the final state within 1e-3
  (relative to each tensor's largest magnitude);
- Paddle, started from the state the trainer saved (--save), gives for the
  next step the loss the trainer gives."""
import json
import re
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

from conftest import BUILD, ROOT, SAN_ENV, generated, run

SCRIPT = os.path.join(ROOT, "tests", "oracle", "train_cases.py")
LOSS_TOL = 1e-4
STATE_TOL = 1e-3
TOL64 = 1e-10  # a float64 program (loss and state): Paddle's double kernels, nearly bitwise


def case_names():
    """The @case functions of the script and its _lr_case registrations (read
    without importing Paddle)."""
    found = re.findall(r"^@case\ndef (\w+)\(|^_lr_case\(\"(\w+)\"", open(SCRIPT).read(), re.M)
    return [a or b for a, b in found]


def case_dir(name):
    out = os.path.join(BUILD, "train", name)
    return generated(out, [sys.executable, SCRIPT, os.path.dirname(out), name], [SCRIPT])


def train(binary, d, meta, tmp_path, steps, *extra):
    args = [str(binary)]
    for f in meta["feeds"]:
        args += ["--input", f"{f}={os.path.join(d, f + '.npy')}"]
    for f in meta.get("lengths", []):
        args += ["--lengths", f"{f}={os.path.join(d, f + '.lengths.npy')}"]
    args += ["--batch-size", str(meta["batch"]), "--steps", str(steps), "--output-dir", str(tmp_path / "out")]
    p = subprocess.run(args + list(extra), capture_output=True, text=True, timeout=600, env=SAN_ENV)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    return p.stdout


def saved_state(prefix):
    """Every var a trainer's --save PREFIX wrote (PREFIX.pdparams and
    PREFIX.pdopt), by name."""
    state = {}
    for ext in (".pdparams", ".pdopt"):
        with open(prefix + ext, "rb") as f:
            state.update(pickle.load(f))
    return state


def case_flags(d):
    """The build flags a case asks for (case.json's flags: --shape of feeds
    with unknown dims)."""
    path = os.path.join(d, "case.json")
    return json.load(open(path)).get("flags", []) if os.path.exists(path) else []


def build_trainer(d, tmp_path, *extra):
    binary = tmp_path / "trainer"
    p = run(["build", os.path.join(d, "main.pdmodel"), "--startup", os.path.join(d, "startup.pdmodel"), "-o",
             str(binary)] + case_flags(d) + list(extra))
    assert p.returncode == 0, p.stderr[-3000:]
    return binary


@pytest.mark.parametrize("name", case_names())
def test_trains_like_paddle(name, tmp_path):
    d = case_dir(name)
    meta = json.load(open(os.path.join(d, "case.json")))
    fetch = meta.get("fetch", [])
    binary = build_trainer(d, tmp_path, *(("--fetch", ",".join(fetch)) if fetch else ()))
    final = str(tmp_path / "final")
    seed = ("--seed", str(meta["seed"])) if meta.get("seeded_steps") else ()
    stdout = train(binary, d, meta, tmp_path, meta["steps"], "--params", os.path.join(d, "init"), "--save", final, *seed)
    got = np.load(tmp_path / "out" / (meta["loss"].replace("/", "_") + ".npy")).reshape(-1)
    want = np.load(os.path.join(d, "paddle_loss.npy")).reshape(-1)
    assert got.shape == want.shape, (got.shape, want.shape)
    err = np.abs(got.astype(np.float64) - want) / np.maximum(np.abs(want), 1e-6)
    assert err.max() <= (TOL64 if want.dtype == np.float64 else LOSS_TOL), (err.max(), int(err.argmax()), got[:5],
                                                                              want[:5])
    for i, n in enumerate(fetch):  # a case's extra fetches, after each step
        got_f = np.load(tmp_path / "out" / (n.replace("/", "_") + ".npy")).astype(np.float64)
        want_f = np.load(os.path.join(d, f"paddle_fetch_{i}.npy")).astype(np.float64)
        assert got_f.shape == want_f.shape, (n, got_f.shape, want_f.shape)
        assert np.abs(got_f - want_f).max() <= LOSS_TOL * max(np.abs(want_f).max(), 1e-6), n
    lines = [l for l in stdout.splitlines() if l.startswith("step ")]
    assert len(lines) == meta["steps"] and lines[0].startswith("step 0 loss "), stdout[:500]
    # the printed losses are the saved ones (%.9g of a float32, %.17g of a float64: both read back exactly)
    printed = np.array([float(v) for line in lines for v in line.split()[3:]]).astype(got.dtype)
    assert np.array_equal(printed, got), (lines[:3], got[:3])
    ref, state = np.load(os.path.join(d, "paddle_final.npz")), saved_state(final)
    for k in ref.files:
        w, g = ref[k].astype(np.float64), state[k].astype(np.float64)
        assert g.shape == w.shape, k
        tol = TOL64 if ref[k].dtype == np.float64 else STATE_TOL
        assert np.abs(g - w).max() <= tol * max(np.abs(w).max(), 1e-6), k
    # Paddle goes on from the saved state with the loss paddlec gives next
    p = subprocess.run([sys.executable, SCRIPT, "--step-from", d, final, str(meta["steps"])],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    paddle_next = float(p.stdout.strip().splitlines()[-1])
    train(binary, d, meta, tmp_path, 1, "--params", final, *seed)
    ours_next = float(np.load(tmp_path / "out" / (meta["loss"].replace("/", "_") + ".npy")).reshape(-1)[0])
    # the data set holds `steps` batches: Paddle's step `steps` and the trainer's step 0 both take batch 0
    assert abs(ours_next - paddle_next) <= LOSS_TOL * max(abs(paddle_next), 1e-6), (ours_next, paddle_next)


def test_trainer_errors(tmp_path):
    """Bad data, a bad state file and a NaN loss stop the trainer with a
    message naming the input, the file or the step."""
    d = case_dir("scale_update")
    meta = json.load(open(os.path.join(d, "case.json")))
    binary = build_trainer(d, tmp_path)

    def fails(*args):
        p = subprocess.run([str(binary)] + list(args), capture_output=True, text=True, timeout=60, env=SAN_ENV)
        assert p.returncode == 1, p.stdout + p.stderr
        return p.stderr

    x = os.path.join(d, "x.npy")
    assert "no --input x=" in fails("--batch-size", "4", "--steps", "1")
    bad = tmp_path / "bad.npy"
    np.save(bad, np.zeros((8, 4), np.float32))
    assert "input 'x'" in fails("--input", f"x={bad}", "--batch-size", "4", "--steps", "1")
    assert "fewer than one batch" in fails("--input", f"x={x}", "--batch-size", "100000", "--steps", "1")
    short = tmp_path / "short.state"
    short.write_bytes(open(os.path.join(d, "startup.state"), "rb").read()[:-4])
    assert "short.state" in fails("--input", f"x={x}", "--batch-size", "4", "--steps", "1", "--params", str(short))
    with open(os.path.join(d, "init.pdparams"), "rb") as f:
        params = pickle.load(f)
    for what, arrays in (("no 'create_parameter_0.w_0'", {}),
                         ("'create_parameter_0.w_0' is float32 [4]", {k: np.zeros(4, np.float32) for k in params})):
        with open(tmp_path / "bad.pdparams", "wb") as f:
            pickle.dump(arrays, f)
        err = fails("--input", f"x={x}", "--batch-size", "4", "--steps", "1", "--params", str(tmp_path / "bad"))
        assert what in err and "bad.pdparams" in err, err
    (tmp_path / "junk.pdparams").write_bytes(b"not a pickle")
    assert "junk.pdparams" in fails("--input", f"x={x}", "--batch-size", "4", "--steps", "1", "--params",
                                    str(tmp_path / "junk"))
    nan = tmp_path / "nan.npy"
    a = np.load(x)
    a[2 * meta["batch"]] = np.nan
    np.save(nan, a)
    assert "step 2:" in fails("--input", f"x={nan}", "--batch-size", str(meta["batch"]), "--steps", "5")


def refused_trainer(name, tmp_path, *flags):
    """The stderr of building tests/oracle/train_refused.py's program `name`
    with `flags` (the build fails, writing no binary)."""
    script = os.path.join(ROOT, "tests", "oracle", "train_refused.py")
    out = os.path.join(BUILD, "train_refused")
    d = os.path.join(generated(out, [sys.executable, script, out], [script]), name)
    p = run(["build", os.path.join(d, "main.pdmodel"), "--startup", os.path.join(d, "startup.pdmodel"), "-o",
             str(tmp_path / "t")] + list(flags))
    assert p.returncode == 1, p.stderr
    assert not os.path.exists(tmp_path / "t")
    return p.stderr


def test_a_trained_loop_only_the_data_ends_needs_a_bound(tmp_path):
    """while_grad needs every iteration's values: a while_loop that runs
    until its data says stop cannot have them sized without a bound, and
    the build says so, naming the loop, the tensor and --max-iterations
    (with it, train_cases' loop_until_data trains like Paddle)."""
    err = refused_trainer("loop_until_data", tmp_path)
    assert re.search(r"block 0 op \d+ \(while -> [^)]*\) keeps each iteration's 'tanh_0.tmp_0' for its while_grad, "
                     r"and paddlec cannot count its iterations: its condition is not `counter < n`.* \(bound them "
                     r"with --max-iterations N\)", err), err


def test_a_trained_loop_past_its_max_iterations_stops_the_run(tmp_path):
    """train_cases' loop_until_data (about seven trips a step) built with
    --max-iterations 3 instead of its 16: the first step's loop runs past
    the kept iterations, and the run stops naming the loop and the option
    rather than overrun the buffers."""
    d = case_dir("loop_until_data")
    meta = json.load(open(os.path.join(d, "case.json")))
    binary = build_trainer(d, tmp_path, "--max-iterations", "3")
    args = [str(binary), "--batch-size", str(meta["batch"]), "--steps", "2", "--params", os.path.join(d, "init")]
    for f in meta["feeds"]:
        args += ["--input", f"{f}={os.path.join(d, f + '.npy')}"]
    p = subprocess.run(args, capture_output=True, text=True, timeout=600, env=SAN_ENV)
    assert p.returncode != 0 and "while: more iterations than the compiler counted or --max-iterations 3 allows" \
        in p.stderr, (p.returncode, p.stderr[-2000:])


def trains_k_per_step(d, tmp_path, k):
    """Case d's trainer built with num_iteration_per_run k, trained from its
    init for steps / k steps: step j's loss is Paddle's at iteration
    j*k + k - 1. Returns the binary."""
    meta = json.load(open(os.path.join(d, "case.json")))
    binary = build_trainer(d, tmp_path, "--exec-strategy", f"num_iteration_per_run={k}")
    train(binary, d, meta, tmp_path, meta["steps"] // k, "--params", os.path.join(d, "init"))
    got = np.load(tmp_path / "out" / (meta["loss"] + ".npy")).reshape(-1)
    want = np.load(os.path.join(d, "paddle_loss.npy")).reshape(-1)[k - 1::k]
    assert got.shape == want.shape, (got.shape, want.shape)
    assert (np.abs(got.astype(np.float64) - want) / np.abs(want)).max() <= LOSS_TOL, (got, want)
    return binary


def test_a_trainers_run_time_length_needs_a_bound_and_grads_that_take_it(tmp_path):
    """ids [None, None]: a trainer takes the sequence length from its data
    within a --max-shape bound (train_cases text_run_length and
    attention_run_length train like Paddle); without one the build asks for
    it, and a gradient kernel that does not take run-time sizes yet
    (set_value_grad cutting the length; once roll_grad, then diagonal_grad,
    unfold_grad, conv3d_grad, set_value_grad along it, which take them now)
    is named. Once every such trainer was refused ("a
    trainer's feeds take no run-time sizes yet")."""
    err = refused_trainer("run_time_length", tmp_path)
    assert "main.pdmodel: feed 'ids' [-1, -1] has unknown dim 1; fix it with --shape ids=..., or bound it with " \
        "--max-shape ids=... to take the fed array's" in err, err
    err = refused_trainer("run_time_length", tmp_path, "--max-shape", "ids=-1,32")
    assert "(set_value_grad -> " in err and "slicing dim 1, a size the run gives, is not supported in " \
        "set_value_grad yet" in err, err


def test_a_trainer_of_run_time_lengths_checks_its_data(tmp_path):
    """train_cases text_run_length (--max-shape ids=-1,16, data of 11
    tokens): with num_iteration_per_run 2 each step runs two batches (the
    second batch's rows start at 11 tokens a row, not the bound's 16), and
    step k's loss is Paddle's at iteration 2k + 1; a data set of 1 token or
    of the bound's 16 trains; 17 tokens is an error saying why (on
    several places: test_data_parallel)."""
    d = case_dir("text_run_length")
    binary = trains_k_per_step(d, tmp_path, 2)
    ids = np.load(os.path.join(d, "ids.npy"))
    base = [str(binary), "--steps", "2", "--batch-size", "8", "--params", os.path.join(d, "init"), "--input",
            f"y={d}/y.npy"]
    for tokens in (1, 16, 17):
        path = tmp_path / f"ids{tokens}.npy"
        np.save(path, np.resize(ids, (ids.shape[0], tokens)))
        p = subprocess.run(base + ["--input", f"ids={path}"], capture_output=True, text=True, timeout=60, env=SAN_ENV)
        if tokens <= 16:
            assert p.returncode == 0 and "step 1 loss " in p.stdout, (tokens, p.stderr)
        else:
            assert p.returncode == 1 and f"error: input 'ids': {path} has shape [160, 17]; the program feeds [rows, " \
                "1 to 16] (1 to its --max-shape bound where the run gives the dim)" in p.stderr, p.stderr


def test_a_trainer_takes_each_batchs_length_and_checks_them(tmp_path):
    """train_cases bucketed_run_length (--lengths ids=FILE: each batch its
    own length, trained like Paddle in test_trains_like_paddle and on places
    in test_data_parallel): a lengths file of another batch count, a length
    past the padded data's, --lengths of an input the run gives no dims, and
    num_iteration_per_run 2 (one set of sizes a step) are errors saying why."""
    d = case_dir("bucketed_run_length")
    lens = np.load(os.path.join(d, "ids.lengths.npy"))
    np.save(tmp_path / "short.npy", lens[:-1])
    np.save(tmp_path / "long.npy", np.where(np.arange(lens.size) == 3, 15, lens))
    base = ["--steps", "2", "--batch-size", "4", "--params", os.path.join(d, "init"), "--input", f"ids={d}/ids.npy",
            "--input", f"y={d}/y.npy"]
    cases = ((tmp_path / "short.npy", "ids", "error: --lengths ids: " + str(tmp_path / "short.npy") + " is int64 with "
              "19 rows; the data sets hold 20 batches of 4: int64 or int32 [20, 1] expected (a size a batch for each "
              "dim the run gives; [batches] too)"),
             (tmp_path / "long.npy", "ids", "error: --lengths ids: batch 3's size of dim 1 is 15, outside [1, 14] (" +
              str(tmp_path / "long.npy") + "'s)"),
             (os.path.join(d, "ids.lengths.npy"), "y", "error: --lengths y: the input has no dims the run gives "
              "(compile it with --max-shape)"))
    binary = build_trainer(d, tmp_path)
    for path, feed, want in cases:
        p = subprocess.run([str(binary)] + base + ["--lengths", f"{feed}={path}"], capture_output=True, text=True,
                           timeout=60, env=SAN_ENV)
        assert p.returncode == 1 and want in p.stderr, (want, p.stderr)
    k2 = build_trainer(d, tmp_path / "k2", "--exec-strategy", "num_iteration_per_run=2")
    p = subprocess.run([str(k2)] + base + ["--lengths", f"ids={d}/ids.lengths.npy"], capture_output=True, text=True,
                       timeout=60, env=SAN_ENV)
    assert p.returncode == 1 and "error: --lengths ids: num_iteration_per_run 2 runs 2 batches a step on one set of " \
        "sizes; give each batch its sizes with num_iteration_per_run 1" in p.stderr, p.stderr


def test_a_tagger_checks_its_two_lengths_agree(tmp_path):
    """train_cases tagger_run_length (ids and labels each bounded with
    --max-shape, trained like Paddle in test_trains_like_paddle): labels of
    8 tokens beside ids of 9 stop the first step, as Paddle's
    softmax_with_cross_entropy raises, naming the two tensors."""
    d = case_dir("tagger_run_length")
    binary = build_trainer(d, tmp_path)
    y = np.load(os.path.join(d, "y.npy"))[:, :8]
    np.save(tmp_path / "y8.npy", y)
    p = subprocess.run([str(binary), "--steps", "1", "--batch-size", "4", "--params", os.path.join(d, "init"),
                        "--input", f"ids={d}/ids.npy", "--input", f"y={tmp_path / 'y8.npy'}"], capture_output=True,
                       text=True, timeout=60, env=SAN_ENV)
    assert p.returncode == 1 and "softmax_with_cross_entropy: Label ('unsqueeze2_0.tmp_0') and Logits (" in p.stderr \
        and ") differ in dim 1 (Paddle raises)" in p.stderr, p.stderr


def test_a_fixed_batch_trainer_checks_its_batch(tmp_path):
    """train_cases.py's fixed_batch (feeds [16, 13] and [16, 1]; trained
    like Paddle in test_trains_like_paddle, without --batch-size too): a
    --batch-size other than 16, or two places, is an error saying why."""
    d = case_dir("fixed_batch")
    binary = build_trainer(d, tmp_path)
    base = [str(binary), "--steps", "2", "--params", os.path.join(d, "init"), "--input", f"x={d}/x.npy", "--input",
            f"y={d}/y.npy"]
    for extra, want in ((["--batch-size", "8"], "error: --batch-size 8: the program's feeds fix the batch at 16 rows"),
                        (["--places", "2"], "error: the program's feeds fix the batch at 16 rows: it trains on one "
                         "place, not 2")):
        p = subprocess.run(base + extra, capture_output=True, text=True, timeout=60, env=SAN_ENV)
        assert p.returncode == 1 and want in p.stderr, (extra, p.stderr)
    p = subprocess.run(base, capture_output=True, text=True, timeout=60, env=SAN_ENV)
    assert p.returncode == 0 and "step 1 loss " in p.stdout, p.stderr


@pytest.mark.parametrize("name", case_names())
def test_startup_state_matches_paddle(name, tmp_path):
    """`--steps 0 --save-combined` writes the state the compiled startup program
    leaves: bitwise Paddle's (initializers from op seeds, or from the global
    generator after paddle.seed(S) and the trainer's --seed S)."""
    d = case_dir(name)
    meta = json.load(open(os.path.join(d, "case.json")))
    binary = build_trainer(d, tmp_path)
    p = subprocess.run([str(binary), "--steps", "0", "--seed", str(meta["seed"]), "--save-combined",
                        str(tmp_path / "s.state")],
                       capture_output=True, text=True, timeout=60, env=SAN_ENV)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "s.state").read_bytes() == open(os.path.join(d, "startup.state"), "rb").read()


def test_host_train_sample(tmp_path):
    """samples/host_train.c: the trainer API from a host program (startup,
    a learning-rate schedule, steps, a checkpoint Paddle loads): fit_a_line
    learns its linear target."""
    d = case_dir("fit_a_line")
    assert run(["compile", os.path.join(d, "main.pdmodel"), "--startup", os.path.join(d, "startup.pdmodel"), "-o",
                str(tmp_path), "--name", "fit"]).returncode == 0
    rt = sorted(str(p) for p in (tmp_path / "paddlec_rt").glob("*.c"))
    p = subprocess.run(["cc", "-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-I", str(tmp_path),
                        os.path.join(ROOT, "samples", "host_train.c"), str(tmp_path / "fit.c"),
                        str(tmp_path / "fit_startup.c"), *rt, "-o", str(tmp_path / "host"), "-lm", "-lpthread"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr[-3000:]
    p = subprocess.run([str(tmp_path / "host"), str(tmp_path / "ckpt")], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    last = float(re.search(r"([0-9.]+) at step 299", p.stdout).group(1))
    assert last < 1e-3, p.stdout
    with open(tmp_path / "ckpt.pdparams", "rb") as f:
        w = pickle.load(f)["fc_0.w_0"]
    assert np.abs(w - 0.1).max() < 0.02, w.ravel()


def test_num_iteration_per_run(tmp_path):
    """ExecutionStrategy.num_iteration_per_run K: each step of the trainer
    runs K iterations on K consecutive batches and reports the last loss, so
    step k's loss is Paddle's at iteration k*K + K - 1; a data set whose
    batches are not a multiple of K is refused."""
    d = case_dir("mlp_sgd")
    trains_k_per_step(d, tmp_path, 4)
    three = build_trainer(d, tmp_path / "k3", "--exec-strategy", "num_iteration_per_run=3")
    p = subprocess.run([str(three), "--input", f"x={d}/x.npy", "--input", f"label={d}/label.npy", "--batch-size", "8",
                        "--steps", "2"], capture_output=True, text=True, timeout=120, env=SAN_ENV)
    assert p.returncode != 0 and "20 batches of 8" in p.stderr and "multiple of 3" in p.stderr, p.stderr


def test_inspect_memory_split(tmp_path):
    """inspect --memory on a training program splits the bytes by role.
    mlp_adam's parameters are fc 16->32 and 32->10: 16*32 + 32 + 32*10 + 10
    = 874 floats = 3496 bytes in 4 tensors; Adam keeps two moments per
    parameter (2 * 3496 = 6992 bytes), two one-element beta powers per
    parameter (8 * 4 = 32 bytes) and the learning rate (4 bytes): 7028
    bytes in 17 tensors."""
    d = case_dir("mlp_adam")
    p = run(["inspect", os.path.join(d, "main.pdmodel"), "--memory"])
    assert p.returncode == 0, p.stderr
    assert "passes: none" in p.stdout, p.stdout  # no inference pass on a training program
    assert re.search(r"parameters\s+3496\s+bytes in 4 tensors", p.stdout), p.stdout
    assert re.search(r"optimizer\s+7028\s+bytes in 17 tensors", p.stdout), p.stdout
    act = re.search(r"activations\s+(\d+)\s+(\d+)", p.stdout)
    grad = re.search(r"gradients\s+(\d+)\s+(\d+)", p.stdout)
    assert act and grad and int(act[2]) > int(act[1]) > 0 and int(grad[2]) > int(grad[1]) > 0, p.stdout


NO_MALLOC_HOST = r"""
#include <stdio.h>
#include <stdlib.h>
#include "fit.h"
#include "paddlec_rt/rt_alloc.h"
static unsigned char arena[FIT_ARENA_BYTES(16)] __attribute__((aligned(64)));
static fit_model m;
static int calls;
static void *no_alloc(void *ctx, size_t bytes, size_t align) { (void)ctx; (void)bytes; (void)align; calls++; return NULL; }
static void no_release(void *ctx, void *p) { (void)ctx; (void)p; }
static unsigned char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *len = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc(*len);
  if (b && fread(b, 1, *len, f) != *len) b = NULL;
  fclose(f);
  return b;
}
int main(int argc, char **argv) {
  (void)argc;
  size_t ns, nx, ny;
  unsigned char *state = slurp(argv[1], &ns), *x = slurp(argv[2], &nx), *y = slurp(argv[3], &ny);
  if (!state || !x || !y) return 2;
  const RtAllocator none = {no_alloc, no_release, NULL};
  rt_set_allocator(&none); /* from here on nothing may allocate */
  int st = fit_init(&m, arena, sizeof arena, state, ns);
  const int ix = fit_input_index("x"), iy = fit_input_index("y");
  /* .npy files of float32 [rows, 13] and [rows, 1] with 128-byte headers */
  const float *xs = (const float *)(x + 128), *ys = (const float *)(y + 128);
  for (int k = 0; k < 5 && !st; k++) {
    const void *in[2];
    in[ix] = xs + k * 16 * 13;
    in[iy] = ys + k * 16;
    float loss;
    void *out[1] = {&loss};
    st = fit_train_step(&m, 16, in, out);
    if (!st) printf("step %d loss %.9g\n", k, (double)loss);
  }
  if (st) fprintf(stderr, "error %d: %s\n", st, fit_last_error(&m));
  printf("allocations %d\n", calls);
  return st ? 1 : 0;
}
"""


def test_trainer_without_malloc(tmp_path):
    """PREFIX_init works for a trainer: the one static arena
    (PREFIX_ARENA_BYTES) holds the state, the activations kept for backward
    and the gradients; a combined state file's bytes start it, and training
    steps call no allocator at all.  The losses are those of the standalone
    trainer (built with the same compiler and flags) on the same state and
    batches, bit for bit."""
    d = case_dir("fit_a_line")
    for f in ("x", "y"):  # the host reads the data at offset 128: .npy version 1 with a 118-byte header
        assert open(os.path.join(d, f + ".npy"), "rb").read(10)[6:] == bytes([1, 0, 118, 0])
    assert run(["compile", os.path.join(d, "main.pdmodel"), "--startup", os.path.join(d, "startup.pdmodel"), "-o",
                str(tmp_path), "--name", "fit"]).returncode == 0
    (tmp_path / "host.c").write_text(NO_MALLOC_HOST)
    rt = sorted(str(p) for p in (tmp_path / "paddlec_rt").glob("*.c"))
    # built as `paddlec build --blas=none` builds the trainer below (clang -O3 -march=native, no OpenBLAS)
    p = subprocess.run(["clang", "-std=c11", "-O3", "-march=native", "-Wall", "-Wextra", "-Werror", "-I", str(tmp_path),
                        str(tmp_path / "host.c"), str(tmp_path / "fit.c"), str(tmp_path / "fit_startup.c"), *rt,
                        "-o", str(tmp_path / "host"), "-lm", "-lpthread"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr[-3000:]
    state = os.path.join(d, "startup.state")
    p = subprocess.run([str(tmp_path / "host"), state, os.path.join(d, "x.npy"), os.path.join(d, "y.npy")],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "allocations 0" in p.stdout, p.stdout
    meta = json.load(open(os.path.join(d, "case.json")))
    ours = train(build_trainer(d, tmp_path / "t", "--blas=none"), d, meta, tmp_path, 5, "--params", state)
    want = [l for l in ours.splitlines() if l.startswith("step ")]
    got = [l for l in p.stdout.splitlines() if l.startswith("step ")]
    assert got == want, (got, want)

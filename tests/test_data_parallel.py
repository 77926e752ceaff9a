"""Data-parallel training on CPU places (issue 17): a trainer run with
--places N (or CPU_NUM=N) against tests/oracle/dp_reference.py, which runs
Paddle's program on each place's chunk with loss@GRAD seeded by the
gradient scale strategy, sums the gradients in place order and runs the
optimizer ops once on the sum (ParallelExecutor's documented semantics,
computed by Paddle's kernels: Paddle 2.6 no longer ships ParallelExecutor).

Each place's loss at every step within 1e-5 of the reference's, place 0's
state after the last step within 1e-4; the fixtures cover the docs' fit_a_line
(fc, square_error_cost, mean, SGD), SGD, Adam,
Momentum with batch_norm (running statistics per place), AdamW with global
norm clipping in a Transformer, learning-rate ops, and token ids of a length
the run gives (--max-shape: every place takes the data set's)."""
import os
import subprocess

import numpy as np
import pytest

from conftest import SAN_ENV
from test_dp_reference import dp_reference_dir
from test_train import build_trainer, case_dir, train

LOSS_TOL = 1e-5
STATE_TOL = 1e-4
CASES = ["fit_a_line", "mlp_sgd", "mlp_adam", "cnn_bn_momentum", "transformer_adamw", "lr_piecewise", "rnn_custom_cell",
         "text_run_length", "attention_run_length", "cnn_run_size", "bucketed_run_length"]


def meta_of(name):
    import json
    return json.load(open(os.path.join(case_dir(name), "case.json")))


def rel_err(got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    return float((np.abs(got - want) / np.maximum(np.abs(want), 1e-6)).max()) if want.size else 0.0


def train_places(binary, name, tmp_path, places, steps=None, *extra, env=None, launcher=()):
    """Trains `name` from its init checkpoint on `places` places; returns the
    losses [steps, places], place 0's saved state and the output."""
    d, meta = case_dir(name), meta_of(name)
    steps = meta["steps"] if steps is None else steps
    out = tmp_path / f"p{places}"
    out.mkdir(parents=True, exist_ok=True)
    args = list(launcher) + [str(binary)]
    for f in meta["feeds"]:
        args += ["--input", f"{f}={os.path.join(d, f + '.npy')}"]
    for f in meta.get("lengths", []):
        args += ["--lengths", f"{f}={os.path.join(d, f + '.lengths.npy')}"]
    args += ["--batch-size", str(meta["batch"]), "--steps", str(steps), "--output-dir", str(out), "--params",
             os.path.join(d, "init"), "--save", str(out / "final")]
    if places:
        args += ["--places", str(places)]
    p = subprocess.run(args + list(extra), capture_output=True, text=True, timeout=600, env=env or SAN_ENV)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    losses = np.load(out / (meta["loss"].replace("/", "_") + ".npy"))
    return losses, out / "final", p.stdout


def final_state(prefix):
    """Place 0's state as the trainer saved it (paddle.static.save's two
    pickles), read with Paddle's own loader."""
    import pickle
    state = {}
    for ext in (".pdparams", ".pdopt"):
        if os.path.exists(str(prefix) + ext):
            with open(str(prefix) + ext, "rb") as f:
                state.update({k: v for k, v in pickle.load(f).items() if isinstance(v, np.ndarray)})
    return state


@pytest.fixture(scope="module")
def trainers(tmp_path_factory):
    built = {}

    def get(name, *extra):
        key = (name,) + extra
        if key not in built:
            built[key] = build_trainer(case_dir(name), tmp_path_factory.mktemp(name), *extra)
        return built[key]
    return get


@pytest.mark.parametrize("places", [2, 4])
@pytest.mark.parametrize("name", CASES)
def test_places_train_like_the_reference(trainers, name, places, tmp_path):
    ref = dp_reference_dir(name, places)
    want = np.load(os.path.join(ref, "dp_loss.npy"))
    got, final, _ = train_places(trainers(name), name, tmp_path, places)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert rel_err(got, want) <= LOSS_TOL, (rel_err(got, want), got[:2], want[:2])
    want_state = np.load(os.path.join(ref, "dp_final.npz"))
    state = final_state(final)
    assert sorted(state) == sorted(want_state.files)
    for k in want_state.files:
        assert rel_err(state[k], want_state[k]) <= STATE_TOL or \
            np.abs(state[k].astype(np.float64) - want_state[k]).max() <= STATE_TOL, k


def test_cpu_num_gives_the_places(trainers, tmp_path):
    binary = trainers("mlp_sgd")
    by_flag, _, _ = train_places(binary, "mlp_sgd", tmp_path / "a", 2, 3)
    env = dict(SAN_ENV, CPU_NUM="2")
    by_env, _, out = train_places(binary, "mlp_sgd", tmp_path / "b", 0, 3, env=env)
    assert by_env.shape == (3, 2) and np.array_equal(by_flag, by_env)
    assert out.splitlines()[0].startswith("step 0 loss ") and len(out.splitlines()[0].split()) == 5


def test_no_places_no_cpu_num_is_one_place_with_the_hint(trainers, tmp_path):
    """Neither --places nor CPU_NUM: one place, and on a machine of several
    CPUs the hint Paddle's with_data_parallel prints (its own text, from
    test_sched.paddle_hint); --places 1 says nothing."""
    from test_sched import paddle_hint
    binary, d = trainers("mlp_sgd"), case_dir("mlp_sgd")
    args = [str(binary), "--input", f"label={d}/label.npy", "--input", f"x={d}/x.npy", "--batch-size", "8",
            "--steps", "1"]
    env = {k: v for k, v in SAN_ENV.items() if k != "CPU_NUM"}
    p = subprocess.run(args, capture_output=True, text=True, timeout=300, env=env)
    assert p.returncode == 0 and len(p.stdout.splitlines()[0].split()) == 4, p.stdout + p.stderr
    if os.cpu_count() > 1:
        hint = paddle_hint()
        assert "!!! The CPU_NUM is not specified" in hint and hint in p.stderr, (hint, p.stderr)
    p = subprocess.run(args + ["--places", "1"], capture_output=True, text=True, timeout=300, env=env)
    assert p.returncode == 0 and "CPU_NUM" not in p.stderr, p.stderr


def test_mean_of_place_losses_is_one_place_loss(trainers, tmp_path):
    """mlp_sgd has no batch_norm: at step 0 the mean of the 2 places' losses
    over equal chunks is the loss of one place on the whole batch."""
    binary = trainers("mlp_sgd")
    one, _, _ = train_places(binary, "mlp_sgd", tmp_path / "one", 1, 1)
    two, _, _ = train_places(binary, "mlp_sgd", tmp_path / "two", 2, 1)
    assert two.shape == (1, 2) and abs(float(two.astype(np.float64).mean()) - float(one.reshape(-1)[0])) <= 1e-6


def test_batch_that_does_not_split(trainers, tmp_path):
    d, binary = case_dir("mlp_sgd"), trainers("mlp_sgd")  # batch 8
    args = [str(binary), "--input", f"label={d}/label.npy", "--input", f"x={d}/x.npy", "--batch-size", "5",
            "--steps", "1", "--params", os.path.join(d, "init"), "--places", "4"]
    p = subprocess.run(args, capture_output=True, text=True, timeout=300, env=SAN_ENV)
    assert p.returncode == 1 and "The number(3) of samples[label] of current batch is less than the count(4) of " \
        "devices(CPU), currently, it is not allowed. You should set the environment variable CPU_NUM" in p.stderr, \
        p.stderr


def test_one_vs_coeff_num_device(trainers, tmp_path):
    ref = dp_reference_dir("mlp_sgd", 2, "One")
    binary = trainers("mlp_sgd", "--build-strategy", "gradient_scale_strategy=One")
    got, final, _ = train_places(binary, "mlp_sgd", tmp_path, 2)
    assert rel_err(got, np.load(os.path.join(ref, "dp_loss.npy"))) <= LOSS_TOL
    coeff, _, _ = train_places(trainers("mlp_sgd"), "mlp_sgd", tmp_path / "c", 2)
    assert not np.allclose(got[1:], coeff[1:])  # the updates differ by the factor 2
    want = np.load(os.path.join(ref, "dp_final.npz"))
    state = final_state(final)
    for k in want.files:
        assert np.abs(state[k].astype(np.float64) - want[k]).max() <= STATE_TOL, k


def test_reduce_sums_from_the_owner(trainers, tmp_path):
    """Reduce sums each gradient starting from its owner place's (Paddle's
    greedy owners): on 2 places g_k + g_other is AllReduce's float sum, bit
    for bit; on 4 places another rounding, within 1e-6 of AllReduce and
    within the tolerances of the reference's Reduce run."""
    red = trainers("mlp_adam", "--build-strategy", "reduce_strategy=Reduce")
    a, _, _ = train_places(trainers("mlp_adam"), "mlp_adam", tmp_path / "a", 2, 5)
    b, _, _ = train_places(red, "mlp_adam", tmp_path / "b", 2, 5)
    assert np.array_equal(a, b)
    a, _, _ = train_places(trainers("mlp_adam"), "mlp_adam", tmp_path / "a4", 4)
    b, final, _ = train_places(red, "mlp_adam", tmp_path / "b4", 4)
    assert not np.array_equal(a, b) and rel_err(b, a) <= 1e-6, rel_err(b, a)
    ref = dp_reference_dir("mlp_adam", 4, reduce="Reduce")
    assert rel_err(b, np.load(os.path.join(ref, "dp_loss.npy"))) <= LOSS_TOL
    want, state = np.load(os.path.join(ref, "dp_final.npz")), final_state(final)
    for k in want.files:
        assert rel_err(state[k], want[k]) <= STATE_TOL or np.abs(state[k].astype(np.float64) - want[k]).max() <= \
            STATE_TOL, k


@pytest.mark.parametrize("name, why", [
    ("cnn_bn_momentum", "reduce_strategy Reduce: part A (forward, backward) writes state var 'batch_norm_0.w_1', "
     "which Paddle's places share under Reduce on CPU"),
    ("transformer_adamw", "reads 'squared_l2_norm_0.tmp_0', which the optimizer ops for 'layer_norm_0.b_0@GRAD' "
     "write, on another owner place")])
def test_reduce_refuses_what_paddle_cannot_reduce(trainers, name, why, tmp_path):
    """batch_norm's running statistics (per place under AllReduce, shared
    and raced on under Paddle's Reduce) and global norm clipping (its
    optimizer ops pass the norm between gradients' owners) are refused."""
    binary = trainers(name, "--build-strategy", "reduce_strategy=Reduce")
    d, meta = case_dir(name), meta_of(name)
    args = [str(binary), "--batch-size", str(meta["batch"]), "--steps", "1", "--places", "2"]
    for f in meta["feeds"]:
        args += ["--input", f"{f}={os.path.join(d, f + '.npy')}"]
    p = subprocess.run(args, capture_output=True, text=True, timeout=300, env=SAN_ENV)
    assert p.returncode == 1 and why in p.stderr, p.stderr


def test_fused_optimizer_and_all_reduce_equal_unfused(trainers, tmp_path):
    a, _, _ = train_places(trainers("mlp_adam"), "mlp_adam", tmp_path / "a", 2, 5)
    fused = trainers("mlp_adam", "--build-strategy", "fuse_all_optimizer_ops=true,fuse_all_reduce_ops=true")
    b, _, _ = train_places(fused, "mlp_adam", tmp_path / "b", 2, 5)
    assert np.array_equal(a, b)


def test_customized_loss_grad_of_a_float64_loss_refused(trainers, tmp_path):
    """A fed loss@GRAD is taken as float32 values: for a float64 loss they
    would be rounded, so the trainer refuses rather than approximate."""
    binary = trainers("resnet_linear_f64", "--build-strategy", "gradient_scale_strategy=Customized")
    d, meta = case_dir("resnet_linear_f64"), meta_of("resnet_linear_f64")
    half = tmp_path / "half.npy"
    np.save(half, np.array([0.5, 0.5], np.float32))
    args = [str(binary), "--batch-size", str(meta["batch"]), "--steps", "1", "--places", "2",
            "--input", f"{meta['loss']}@GRAD={half}"] + [a for f in meta["feeds"] for a in ("--input", f"{f}={d}/{f}.npy")]
    p = subprocess.run(args, capture_output=True, text=True, timeout=300, env=SAN_ENV)
    assert p.returncode == 1 and "the loss is not float32" in p.stderr, p.stderr


def test_customized_loss_grad(trainers, tmp_path):
    """Customized: loss@GRAD fed, one value per place.  [0.5, 0.5] is
    CoeffNumDevice bit for bit; [1, 0] is the reference's run with that
    feed; missing or too few values are errors."""
    import sys
    from test_dp_reference import SCRIPT
    binary = trainers("mlp_sgd", "--build-strategy", "gradient_scale_strategy=Customized")
    half, one = tmp_path / "half.npy", tmp_path / "one.npy"
    np.save(half, np.array([0.5, 0.5], np.float32))
    np.save(one, np.array([1.0, 0.0], np.float32))
    seed = "--input", "mean_1.tmp_0@GRAD="
    got, _, _ = train_places(binary, "mlp_sgd", tmp_path / "a", 2, None, seed[0], seed[1] + str(half))
    coeff, _, _ = train_places(trainers("mlp_sgd"), "mlp_sgd", tmp_path / "b", 2)
    assert np.array_equal(got, coeff)
    got, final, _ = train_places(binary, "mlp_sgd", tmp_path / "c", 2, None, seed[0], seed[1] + str(one))
    ref = tmp_path / "ref"
    p = subprocess.run([sys.executable, SCRIPT, case_dir("mlp_sgd"), str(ref), "--places", "2", "--strategy",
                        "Customized", "--loss-grad", "1,0"], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    assert rel_err(got, np.load(ref / "dp_loss.npy")) <= LOSS_TOL
    want, state = np.load(ref / "dp_final.npz"), final_state(final)
    for k in want.files:
        assert np.abs(state[k].astype(np.float64) - want[k]).max() <= STATE_TOL, k
    d = case_dir("mlp_sgd")
    base = [str(binary), "--input", f"label={d}/label.npy", "--input", f"x={d}/x.npy", "--batch-size", "8", "--steps",
            "1", "--places", "2"]
    p = subprocess.run(base, capture_output=True, text=True, timeout=300, env=SAN_ENV)
    assert p.returncode == 1 and "Customized: loss@GRAD is fed" in p.stderr, p.stderr
    np.save(one, np.array([1.0], np.float32))
    p = subprocess.run(base + [seed[0], seed[1] + str(one)], capture_output=True, text=True, timeout=300, env=SAN_ENV)
    assert p.returncode == 1 and "The number(1) of samples[mean_1.tmp_0@GRAD] of current batch is less than the " \
        "count(2) of devices(CPU)" in p.stderr, p.stderr


MPIRUN = ["mpirun", "--allow-run-as-root", "--oversubscribe"]


def have_mpi():
    import shutil
    return shutil.which("mpirun") is not None


@pytest.mark.skipif(not have_mpi(), reason="no mpirun: OpenMPI (openmpi-bin, libopenmpi-dev) is not installed; "
                    "`make deps` installs it")
@pytest.mark.parametrize("name", ["fit_a_line", "mlp_adam", "cnn_bn_momentum", "transformer_adamw"])
def test_processes_equal_places_in_one_process(trainers, name, tmp_path):
    """mpirun -np 2 with 1 and 2 places each: bit for bit the losses and state
    of 2 and 4 places in one process (and so the reference's numbers)."""
    mpi = trainers(name, "--mpi")
    for per_proc in (1, 2):
        one, one_final, _ = train_places(trainers(name), name, tmp_path / f"one{per_proc}", 2 * per_proc)
        got, final, out = train_places(mpi, name, tmp_path / f"mpi{per_proc}", per_proc, None, env=None,
                                       launcher=MPIRUN + ["-np", "2"])
        assert got.shape == one.shape and np.array_equal(got, one), (per_proc, got[:2], one[:2])
        a, b = final_state(final), final_state(one_final)
        assert sorted(a) == sorted(b) and all(np.array_equal(a[k], b[k]) for k in a), per_proc
        assert out.count("step 0 loss") == 1  # process 0 alone prints
    want = np.load(os.path.join(dp_reference_dir(name, 4), "dp_loss.npy"))
    assert rel_err(got, want) <= LOSS_TOL


@pytest.mark.skipif(not have_mpi(), reason="no mpirun: OpenMPI (openmpi-bin, libopenmpi-dev) is not installed; "
                    "`make deps` installs it")
def test_processes_reduce_as_places_in_one_process(trainers, tmp_path):
    """Reduce under mpirun: each sum starts from its owner's value, wherever
    the owner's process; 2 processes x 2 places and 4 x 1 give the 4 places
    of one process bit for bit."""
    strategy = ("--build-strategy", "reduce_strategy=Reduce")
    one, _, _ = train_places(trainers("mlp_adam", *strategy), "mlp_adam", tmp_path / "one", 4, 4)
    mpi = trainers("mlp_adam", *strategy, "--mpi")
    for procs, per_proc in ((2, 2), (4, 1)):
        got, _, _ = train_places(mpi, "mlp_adam", tmp_path / f"mpi{procs}", per_proc, 4, env=None,
                                 launcher=MPIRUN + ["-np", str(procs)])
        assert np.array_equal(got, one), (procs, got[:2], one[:2])


def test_inspect_and_banner_say_how(tmp_path):
    from conftest import run
    d = case_dir("transformer_adamw")
    p = run(["inspect", os.path.join(d, "main.pdmodel"), "--build-strategy", "gradient_scale_strategy=One"])
    assert p.returncode == 0 and "data parallel: places (--places N, CPU_NUM, set_places) and MPI processes " \
        "(build --mpi); 26 gradients summed; reduce_strategy AllReduce, gradient_scale_strategy One" in p.stdout
    p = run(["compile", os.path.join(d, "main.pdmodel"), "--startup", os.path.join(d, "startup.pdmodel"), "-o",
             str(tmp_path / "src"), "--mpi"])
    assert p.returncode == 0, p.stderr
    head = open(tmp_path / "src" / "model.c").read(2000)
    assert " * Data parallel: places at run time (model_set_places, --places N, CPU_NUM); processes under mpirun " \
        "(built with --mpi); reduce_strategy AllReduce, gradient_scale_strategy CoeffNumDevice" in head
    assert "MPI    ?= 1" in open(tmp_path / "src" / "Makefile").read()


@pytest.mark.parametrize("name", ["mlp_adam", "cnn_bn_momentum"])
def test_places_at_once_on_threads(trainers, name, tmp_path):
    """With threads (by default one per place) the places run at once, one
    thread each; with --threads 1 one after another: the same numbers, bit
    for bit."""
    binary = trainers(name)
    for places in (2, 4):
        one, f1, _ = train_places(binary, name, tmp_path / f"t1_{places}", places, 4, "--threads", "1")
        two, f2, _ = train_places(binary, name, tmp_path / f"t2_{places}", places, 4, "--threads", "2")
        assert np.array_equal(one, two), places
        a, b = final_state(f1), final_state(f2)
        assert all(np.array_equal(a[k], b[k]) for k in a), places


@pytest.mark.parametrize("field,message", [
    ("reduce_strategy=_NoReduce", "reduce_strategy _NoReduce (no gradient sums) is not supported")])
def test_strategies_not_done_are_refused_on_places(trainers, field, message, tmp_path):
    """Never silently ignored: the trainer builds (one place is Paddle's
    Executor, where they play no part) and refuses several places."""
    binary = trainers("cnn_bn_momentum", "--build-strategy", field)
    one, _, _ = train_places(binary, "cnn_bn_momentum", tmp_path, 1, 2)
    assert one.shape == (2,)
    d = case_dir("cnn_bn_momentum")
    p = subprocess.run([str(binary), "--input", f"label={d}/label.npy", "--input", f"x={d}/x.npy", "--batch-size",
                        "4", "--steps", "1", "--places", "2"], capture_output=True, text=True, timeout=300, env=SAN_ENV)
    assert p.returncode == 1 and message in p.stderr, p.stderr


def test_fetches_are_the_places_rows_in_order(trainers, tmp_path):
    """A fetched activation comes back as the places' rows concatenated in
    place order: at step 0 (the same parameters everywhere) the rows of one
    place on the whole batch."""
    binary = trainers("mlp_adam", "--fetch", "fc_0.tmp_2")
    one, _, _ = train_places(binary, "mlp_adam", tmp_path / "one", 1, 1)
    for places in (2, 4):
        train_places(binary, "mlp_adam", tmp_path / f"p{places}", places, 1)
        a = np.load(tmp_path / "one" / "p1" / "fc_0.tmp_2.npy")
        b = np.load(tmp_path / f"p{places}" / f"p{places}" / "fc_0.tmp_2.npy")
        assert a.shape == b.shape == (1, 8, a.shape[2]) and np.abs(a - b).max() <= 1e-6, places


def test_iterations_per_run_on_places(trainers, tmp_path):
    """num_iteration_per_run 2: each step call is 2 iterations on 2 batches,
    on every place; the losses are every second one of a 1-iteration run."""
    two = trainers("mlp_adam", "--exec-strategy", "num_iteration_per_run=2")
    got, _, _ = train_places(two, "mlp_adam", tmp_path / "k2", 2, 5)
    want, _, _ = train_places(trainers("mlp_adam"), "mlp_adam", tmp_path / "k1", 2, 10)
    assert got.shape == (5, 2) and np.array_equal(got, want[1::2])


def test_drop_scope_on_places(trainers, tmp_path):
    """num_iteration_per_drop_scope 1 (the local scope dropped after every
    iteration) on 2 places: each place holds its chunk's activations in its
    own reserved memory, so the numbers are those of the default, bit for
    bit, with batch_norm's per-place statistics kept across iterations."""
    one = trainers("cnn_bn_momentum", "--exec-strategy", "num_iteration_per_drop_scope=1")
    got, f1, _ = train_places(one, "cnn_bn_momentum", tmp_path / "d1", 2, 4)
    want, f2, _ = train_places(trainers("cnn_bn_momentum"), "cnn_bn_momentum", tmp_path / "d100", 2, 4)
    assert got.shape == (4, 2) and np.array_equal(got, want)
    a, b = final_state(f1), final_state(f2)
    assert sorted(a) == sorted(b) and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("name", ["cnn_bn_momentum", "resnet_block_momentum", "resnet_block_nhwc", "cnn_run_size",
                                  "resnet_run_size"])
def test_sync_batch_norm_is_one_place_on_the_whole_batch(trainers, name, tmp_path):
    """sync_batch_norm: each batch_norm's statistics, and its grad's sums,
    over every place's rows.  With equal chunks the mean of the places'
    losses is then Paddle's single-place loss on the whole batch at every
    step (paddle_loss.npy, Paddle's Executor), and place 0's state, the
    running statistics included, Paddle's (within 1e-5 and 1e-4); 2
    processes give 2 places' numbers bit for bit."""
    d = case_dir(name)
    want = np.load(os.path.join(d, "paddle_loss.npy")).reshape(-1)
    want_state = np.load(os.path.join(d, "paddle_final.npz"))
    binary = trainers(name, "--build-strategy", "sync_batch_norm=true")
    for places in (2, 4):
        got, final, _ = train_places(binary, name, tmp_path / f"p{places}", places)
        mean = got.astype(np.float64).mean(axis=1)
        assert rel_err(mean, want) <= LOSS_TOL, (places, mean[:3], want[:3])
        state = final_state(final)
        for k in want_state.files:
            assert rel_err(state[k], want_state[k]) <= STATE_TOL or \
                np.abs(state[k].astype(np.float64) - want_state[k]).max() <= STATE_TOL, (places, k)
        if places == 2:
            two = got
    if have_mpi():
        mpi = trainers(name, "--build-strategy", "sync_batch_norm=true", "--mpi")
        got, _, _ = train_places(mpi, name, tmp_path / "mpi", 1, launcher=MPIRUN + ["-np", "2"])
        assert np.array_equal(got, two)


PER_PLACE_HOST = r"""
#include <stdio.h>
#include <string.h>
#include "fit.h"
#include "paddlec_rt/rt.h"
/* fit_a_line on 2 places: train_step on 16 rows against train_step_places
 * on the same rows fed as two 8-row batches, 5 steps, two models from the
 * same checkpoint; prints both losses. */
int main(int argc, char **argv) {
  (void)argc;
  RtNpy x, y;
  char err[160];
  if (rt_npy_read(argv[2], &x, err, sizeof err) || rt_npy_read(argv[3], &y, err, sizeof err)) return 2;
  fit_model *a, *b;
  if (fit_create(&a, NULL) || fit_create(&b, NULL) || fit_load(a, argv[1]) || fit_load(b, argv[1]) ||
      fit_set_places(a, 2) || fit_set_places(b, 2))
    return 3;
  const float *xs = x.data, *ys = y.data;
  for (int k = 0; k < 5; k++) {
    float la[2], lb[2];
    const void *in[2] = {xs + k * 16 * 13, ys + k * 16};
    void *fa[1] = {la}, *fb[1] = {lb};
    if (fit_train_step(a, 16, in, fa)) return 4;
    const void *p0[2] = {xs + k * 16 * 13, ys + k * 16}, *p1[2] = {xs + (k * 16 + 8) * 13, ys + k * 16 + 8};
    const void *const *per[2] = {p0, p1};
    const int64_t batches[2] = {8, 8};
    if (fit_train_step_places(b, batches, per, fb)) {
      printf("error %s\n", fit_last_error(b));
      return 5;
    }
    printf("step %d a %.9g %.9g b %.9g %.9g\n", k, la[0], la[1], lb[0], lb[1]);
  }
  const int64_t bad[2] = {8, 0};
  const void *p0[2] = {xs, ys};
  const void *const *per[2] = {p0, p0};
  float l[2];
  void *f[1] = {l};
  printf("zero rows: %d\n", fit_train_step_places(b, bad, per, f));
  fit_destroy(a);
  fit_destroy(b);
  return 0;
}
"""


def test_one_batch_per_place(tmp_path):
    """model_train_step_places (Paddle's list-of-dicts feed): the places'
    own batches, here the halves of what train_step splits: the same
    losses, bit for bit; a place with no rows is refused."""
    from conftest import run
    d = case_dir("fit_a_line")
    assert run(["compile", os.path.join(d, "main.pdmodel"), "--startup", os.path.join(d, "startup.pdmodel"), "-o",
                str(tmp_path), "--name", "fit", "--blas=none"]).returncode == 0
    (tmp_path / "host.c").write_text(PER_PLACE_HOST)
    rt = sorted(str(p) for p in (tmp_path / "paddlec_rt").glob("*.c"))
    p = subprocess.run(["cc", "-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-D_POSIX_C_SOURCE=200809L", "-I",
                        str(tmp_path), str(tmp_path / "host.c"), str(tmp_path / "fit.c"),
                        str(tmp_path / "fit_startup.c"), *rt, "-o", str(tmp_path / "host"), "-lm", "-lpthread"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr[-3000:]
    p = subprocess.run([str(tmp_path / "host"), os.path.join(d, "init"), os.path.join(d, "x.npy"),
                        os.path.join(d, "y.npy")], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
    steps = [l.split() for l in p.stdout.splitlines() if l.startswith("step ")]
    assert len(steps) == 5 and all(s[3:5] == s[6:8] for s in steps), p.stdout
    assert "zero rows: 2" in p.stdout  # MODEL_ERR_SHAPE

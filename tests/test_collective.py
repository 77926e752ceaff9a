"""Programs of Paddle's collective training (issue 17): the c_* ops
(compiler/ops/collective.c) over MPI (runtime/rt_collective.c).

- The runtime's collectives under mpirun -np 3, each against values worked
  out by hand (tests/mpi/test_collective.c): sums in rank order, max, min,
  product, reduce to a root, broadcast, allgather.
- mlp_sgd as GradAllReduce writes it for 2 processes (collective_main and
  collective_startup.pdmodel, tests/oracle/train_cases.py: loss@GRAD scaled
  by 1/2, each gradient c_allreduce_sum'ed, the startup's parameters
  c_broadcast) under mpirun -np 2 trains bit for bit as mlp_sgd on 2 places
  (CoeffNumDevice: the same seed, the same sums), and so within the
  tolerances of the data-parallel reference; from the checkpoint and from
  its startup program.
- The same with nrings=2 (collective_rings_*: gradients on rings 0 and 1,
  each ring's c_gen_nccl_id and c_comm_init with nranks 2 in the startup,
  as a CUDA build of Paddle writes them): every ring spans the processes,
  so the same numbers bit for bit; under 3 processes, refused by the
  trainer (c_comm_init's nranks); rings of different sizes (model
  parallelism) and rings no c_comm_init makes, refused by the compiler.
- Run as one process, or with 2 places per process, it is refused."""
import os
import shutil
import subprocess

import numpy as np
import pytest

from conftest import ROOT, SAN_ENV, run
from test_data_parallel import LOSS_TOL, MPIRUN, final_state, rel_err, train_places
from test_dp_reference import dp_reference_dir
from test_train import case_dir

pytestmark = pytest.mark.skipif(shutil.which("mpirun") is None or shutil.which("mpicc") is None,
                                reason="no mpirun/mpicc: OpenMPI (openmpi-bin, libopenmpi-dev) is not installed; "
                                "`make deps` installs it")


def test_runtime_collectives(tmp_path):
    rt = os.path.join(ROOT, "runtime")
    binary = tmp_path / "test_collective"
    b = subprocess.run(["mpicc", "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Wextra", "-Werror", "-DPADDLEC_MPI",
                        "-I" + rt, "-o", str(binary), os.path.join(ROOT, "tests", "mpi", "test_collective.c")] +
                       [os.path.join(rt, f) for f in ("rt_collective.c", "rt_alloc.c", "rt_dtype.c")],
                       capture_output=True, text=True)
    assert b.returncode == 0, b.stderr
    p = subprocess.run(MPIRUN + ["-np", "3", str(binary)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stdout + p.stderr


@pytest.fixture(scope="module")
def collective(tmp_path_factory):
    """Builds the trainers: "trainer" (collective_*), "rings"
    (collective_rings_*) and "plain" (main and startup) of mlp_sgd."""
    d, out = case_dir("mlp_sgd"), tmp_path_factory.mktemp("collective")
    for name, prefix, mpi in (("trainer", "collective_", ["--mpi"]), ("rings", "collective_rings_", ["--mpi"]),
                              ("plain", "", [])):
        p = run(["build", os.path.join(d, prefix + "main.pdmodel"), "--startup",
                 os.path.join(d, prefix + "startup.pdmodel"), "-o", str(out / name)] + mpi)
        assert p.returncode == 0, p.stderr[-3000:]
    return out / "trainer", out / "plain"


@pytest.mark.parametrize("which", ["trainer", "rings"])
def test_collective_program_trains_as_places(collective, which, tmp_path):
    plain = collective[1]
    binary = plain.parent / which
    got, final, _ = train_places(binary, "mlp_sgd", tmp_path / "mpi", 1, None, env=None, launcher=MPIRUN + ["-np", "2"])
    want, want_final, _ = train_places(plain, "mlp_sgd", tmp_path / "places", 2)
    assert got.shape == want.shape and np.array_equal(got, want), (got[:2], want[:2])
    a, b = final_state(final), final_state(want_final)
    assert sorted(a) == sorted(b) and all(np.array_equal(a[k], b[k]) for k in a)
    ref = np.load(os.path.join(dp_reference_dir("mlp_sgd", 2), "dp_loss.npy"))
    assert rel_err(got, ref) <= LOSS_TOL


def test_rings_need_their_processes(collective):
    """collective_rings' c_comm_init ops say 2 processes: 3 are refused."""
    binary = collective[1].parent / "rings"
    d = case_dir("mlp_sgd")
    p = subprocess.run(MPIRUN + ["-np", "3", str(binary), "--input", f"label={d}/label.npy", "--input",
                                 f"x={d}/x.npy", "--batch-size", "8", "--steps", "1"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode != 0 and "its collective ops are written for 2 processes (c_comm_init, c_allgather " \
        "nranks); this is one of 3" in p.stderr, p.stderr


def test_rings_the_compiler_refuses(tmp_path):
    """Ring 1 used with a startup that makes no communicator for it (the
    nrings=1 one): refused where it is used.  Ring 1 made with nranks 4
    beside ring 0's 2 (groups of model parallelism): refused at its
    c_comm_init."""
    import paddle
    paddle.enable_static()
    d = case_dir("mlp_sgd")
    main = os.path.join(d, "collective_rings_main.pdmodel")
    p = run(["build", main, "--startup", os.path.join(d, "collective_startup.pdmodel"), "-o", str(tmp_path / "a"),
             "--mpi"])
    assert p.returncode == 1 and "(c_allreduce_sum -> fc_0.b_0@GRAD): ring_id 1: no c_comm_init of the startup " \
        "program makes it over every process" in p.stderr, p.stderr
    prog = paddle.static.Program.parse_from_string(open(os.path.join(d, "collective_rings_startup.pdmodel"),
                                                        "rb").read())
    block = prog.desc.block(0)
    inits = [block.op(i) for i in range(block.op_size()) if block.op(i).type() == "c_comm_init"]
    assert [op.attr("ring_id") for op in inits] == [0, 1]
    inits[1]._set_attr("nranks", 4)
    startup = tmp_path / "startup.pdmodel"
    startup.write_bytes(prog.desc.serialize_to_string())
    p = run(["build", main, "--startup", str(startup), "-o", str(tmp_path / "b"), "--mpi"])
    assert p.returncode == 1 and "(c_comm_init) spans 4 processes, block 0 op 6 (c_comm_init) said 2: rings of " \
        "different sizes are groups of model or pipeline parallelism" in p.stderr, p.stderr


def test_collective_startup_broadcasts(collective, tmp_path):
    """From the startup programs (c_broadcast of every parameter from process
    0 in the collective one), seed 5: the same steps as 2 places."""
    binary, plain = collective
    d = case_dir("mlp_sgd")
    args = ["--input", f"label={d}/label.npy", "--input", f"x={d}/x.npy", "--batch-size", "8", "--steps", "4",
            "--seed", "5"]
    p = subprocess.run(MPIRUN + ["-np", "2", str(binary)] + args, capture_output=True, text=True, timeout=300)
    q = subprocess.run([str(plain)] + args + ["--places", "2"], capture_output=True, text=True, timeout=300,
                       env=SAN_ENV)
    assert p.returncode == 0 and q.returncode == 0, p.stderr + q.stderr
    steps = [ln for ln in p.stdout.splitlines() if ln.startswith("step ")]
    assert len(steps) == 4 and steps == [ln for ln in q.stdout.splitlines() if ln.startswith("step ")]


def test_collective_program_refusals(collective):
    binary, _ = collective
    d = case_dir("mlp_sgd")
    args = [str(binary), "--input", f"label={d}/label.npy", "--input", f"x={d}/x.npy", "--batch-size", "8",
            "--steps", "1"]
    p = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert p.returncode == 1 and "a program with collective ops (c_allreduce_sum, ...) trains on 2 or more " \
        "processes: mpirun -np P" in p.stderr, p.stderr
    p = subprocess.run(MPIRUN + ["-np", "2"] + args + ["--places", "2"], capture_output=True, text=True, timeout=300)
    assert p.returncode != 0 and "runs one place per process" in p.stderr, p.stderr



def test_collective_program_refuses_a_fed_loss_grad(tmp_path):
    """gradient_scale_strategy Customized would feed loss@GRAD; a collective
    program seeds and scales it itself, so the strategy is refused rather
    than the feed ignored."""
    d = case_dir("mlp_sgd")
    binary = tmp_path / "trainer"
    p = run(["build", os.path.join(d, "collective_main.pdmodel"), "--startup",
             os.path.join(d, "collective_startup.pdmodel"), "-o", str(binary), "--mpi", "--build-strategy",
             "gradient_scale_strategy=Customized"])
    assert p.returncode == 0, p.stderr[-3000:]
    p = subprocess.run(MPIRUN + ["-np", "2", str(binary), "--input", f"label={d}/label.npy", "--input",
                                 f"x={d}/x.npy", "--batch-size", "8", "--steps", "1"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode != 0 and "gradient_scale_strategy Customized: a program with collective ops seeds and " \
        "scales loss@GRAD itself" in p.stderr, p.stderr


def test_banner_and_inspect_say_collective(collective):
    binary, _ = collective
    head = open(str(binary) + "_src/model.c").read(3000)
    assert " * Data parallel: a collective program (its own c_allreduce_sum, ...): processes under mpirun (built " \
        "with --mpi), one place each" in head
    p = run(["inspect", os.path.join(case_dir("mlp_sgd"), "collective_main.pdmodel")])
    assert p.returncode == 0 and "data parallel: a collective program (its own c_allreduce_sum, ...): MPI processes " \
        "(build --mpi, mpirun -np P), one place each" in p.stdout, p.stdout

"""The float64 normalizations (tests/oracle/e2e_grad_norm64.py) beyond the
default build that tests/test_e2e_ops.py compares:

  * the batch_norm fusions take float32 batch_norms only: asked for
    (fuse_bn_act_ops, fuse_bn_add_act_ops), they leave a float64 one as it
    is, and the build still matches Paddle;
  * sync_batch_norm on places syncs float64 batch_norms too, and trains
    like Paddle's single place on the whole batch."""
import os

import numpy as np

from conftest import SAN_ENV
from test_data_parallel import MPIRUN, final_state, have_mpi, rel_err, train_places
from test_e2e import build, run_binary
from test_e2e_ops import cases
from test_train import TOL64, build_trainer, case_dir

def test_bn_fusions_leave_float64_alone(tmp_path, monkeypatch):
    monkeypatch.setitem(SAN_ENV, "CFLAGS", "-O1 -DPADDLEC_POISON_ARENA")
    out, _ = cases("grad_norm64")
    case = os.path.join(out, "bn_grad_relu")
    binary = build(case, tmp_path, "--blas=none", "--build-strategy", "fuse_bn_act_ops=true,fuse_bn_add_act_ops=true")
    run_binary(binary, case, "", tmp_path / "out")
    src = "".join(open(os.path.join(tmp_path, "model_bin_src", f)).read()
                  for f in os.listdir(tmp_path / "model_bin_src") if f.endswith(".c"))
    assert "rt_batch_norm_train_f64(" in src and "rt_batch_norm_grad_f64(" in src
    assert "fused_batch_norm_act" not in src


def test_sync_batch_norm_of_float64_is_one_place_on_the_whole_batch(tmp_path):
    """sync_batch_norm on float64 (train_cases.py resnet_linear_f64, three
    training batch_norms): each batch_norm's statistics and its grad's sums
    over every place's rows (the _f64 kernels; the sums double, as Paddle's
    GPU kernel keeps a double op's), so with equal chunks the mean of the
    places' losses is Paddle's single-place float64 loss on the whole batch
    at every step, and place 0's state Paddle's, within TOL64; 2 processes
    (MPI) give 2 places' numbers bit for bit."""
    name = "resnet_linear_f64"
    d = case_dir(name)
    want = np.load(os.path.join(d, "paddle_loss.npy")).reshape(-1)
    want_state = np.load(os.path.join(d, "paddle_final.npz"))
    binary = build_trainer(d, tmp_path, "--build-strategy", "sync_batch_norm=true")
    src = open(str(binary) + "_src/model.c").read()
    for k in ("rt_batch_norm_sums_f64(", "rt_batch_norm_train_synced_f64(", "rt_batch_norm_grad_sums_f64(",
              "rt_batch_norm_grad_synced_f64("):
        assert src.count(k) == 3, k
    for places in (2, 4):
        got, final, _ = train_places(binary, name, tmp_path / f"p{places}", places)
        assert got.dtype == np.float64 and got.shape == (want.shape[0], places)
        assert rel_err(got.mean(axis=1), want) <= TOL64, (places, got.mean(axis=1)[:3], want[:3])
        state = final_state(final)
        for k in want_state.files:
            w = want_state[k].astype(np.float64)
            assert np.abs(state[k].astype(np.float64) - w).max() <= TOL64 * max(np.abs(w).max(), 1e-6), (places, k)
        if places == 2:
            two = got
    if have_mpi():  # 2 processes: 2 places' numbers bit for bit (the sums cross processes as doubles)
        mpi = build_trainer(d, tmp_path / "mpi", "--build-strategy", "sync_batch_norm=true", "--mpi")
        got, _, _ = train_places(mpi, name, tmp_path / "mpi", 1, launcher=MPIRUN + ["-np", "2"])
        assert np.array_equal(got, two)

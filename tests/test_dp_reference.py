"""Self-checks of tests/oracle/dp_reference.py, the data-parallel reference
of issue 17 (Paddle's program run per place on that place's chunk, loss@GRAD
seeded by the gradient scale strategy, gradients summed in place order, the
optimizer run on the sum), on the training fixtures of train_cases.py:

- with 1 place it is Paddle's plain Executor run (paddle_loss.npy,
  paddle_final.npz), bit for bit;
- with 2 places on an MLP without batch_norm, the mean of the places'
  step-0 losses is the one-place loss and the parameters after the first
  SGD update are those of one place on the whole batch; every place holds
  the same parameters, and batch_norm's running statistics stay per place;
- a batch that does not split over the places is Paddle's error;
- One seeds loss@GRAD with 1, CoeffNumDevice with 1/N: the first SGD
  update differs by the factor N; Customized takes it fed.

dp_reference_dir() is how the trainer's data-parallel tests get the
reference's numbers (cached under the fixture's directory)."""
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT, generated
from test_train import case_dir

ORACLE = os.path.join(ROOT, "tests", "oracle")
SCRIPT = os.path.join(ORACLE, "dp_reference.py")


def dp_reference_dir(name, places, strategy="CoeffNumDevice", steps=None, reduce="AllReduce"):
    """build/train/<name>/dp_<strategy>_<places>[_<steps>][_Reduce]/ holding
    dp_loss.npy ([steps, places]) and dp_final.npz (place 0's state), as
    dp_reference.py writes them; made in a subprocess (Paddle stays out of the
    test process) and remade when the fixture or dp_reference.py is newer."""
    d = case_dir(name)
    out = os.path.join(d, f"dp_{strategy}_{places}" + ("" if steps is None else f"_{steps}") +
                       ("" if reduce == "AllReduce" else f"_{reduce}"))
    args = [sys.executable, SCRIPT, d, out, "--places", str(places), "--strategy", strategy, "--reduce", reduce]
    return generated(out, args + ([] if steps is None else ["--steps", str(steps)]),
                     [SCRIPT, os.path.join(d, ".done")])


@pytest.fixture(scope="module")
def dp():
    sys.path.insert(0, ORACLE)
    import dp_reference
    return dp_reference


@pytest.mark.parametrize("name", ["mlp_sgd", "cnn_bn_momentum", "lr_piecewise"])
def test_one_place_is_paddles_executor(dp, name):
    """mlp_sgd: plain SGD; cnn_bn_momentum: batch_norm's running statistics
    and Momentum's velocities; lr_piecewise: learning-rate (LRSched) ops
    between forward and backward, which the reference runs after backward."""
    d = case_dir(name)
    ref = dp.DataParallelReference(d, 1)
    assert ref.per_place == [] and ref.summed, (ref.summed, ref.per_place)
    losses, finals = ref.run()
    want = np.load(os.path.join(d, "paddle_loss.npy")).reshape(-1, 1)
    assert losses.shape == want.shape and np.abs(losses - want).max() <= 1e-6, (losses[:3], want[:3])
    ref_final = np.load(os.path.join(d, "paddle_final.npz"))
    assert sorted(finals[0]) == sorted(ref_final.files)
    for k in ref_final.files:
        assert np.abs(finals[0][k].astype(np.float64) - ref_final[k]).max() <= 1e-6, k


@pytest.mark.parametrize("places", [2, 4])
def test_places_split_the_batch(dp, places):
    """mlp_sgd (batch 8): equal chunks, so the mean loss is the mean of the
    chunks' losses and its gradient the mean of theirs."""
    d = case_dir("mlp_sgd")
    l1, f1 = dp.DataParallelReference(d, 1).run(steps=1)
    ref = dp.DataParallelReference(d, places)
    assert [g for _, g in ref.info["grads"]] == ["fc_1.b_0@GRAD", "fc_1.w_0@GRAD", "fc_0.b_0@GRAD", "fc_0.w_0@GRAD"]
    l2, f2 = ref.run(steps=1)
    assert l2.shape == (1, places) and len(set(l2[0].tolist())) == places, l2
    assert abs(float(l2[0].astype(np.float64).mean()) - float(l1[0, 0])) <= 1e-6, (l2, l1)
    init = dp.DataParallelReference(d, 1).run(steps=0)[1][0]
    for k in f1[0]:
        assert all(np.array_equal(f2[0][k], f2[p][k]) for p in range(places)), k  # every place: the same state
        assert np.abs(f2[0][k] - f1[0][k]).max() <= 1e-5, k
        if k.startswith("fc_"):
            assert np.abs(f1[0][k] - init[k]).max() > 1e-3, k  # the step moved it


def test_reduce_owners(dp):
    """Paddle's greedy owners, by hand for mlp_sgd's gradients in backward
    order, fc_1.b_0 (10 elements), fc_1.w_0 (320), fc_0.b_0 (32), fc_0.w_0
    (512): on 3 places b1 -> 0 (owned 10, 0, 0), w1 -> 1 (10, 320, 0),
    b0 -> 2 (10, 320, 32), w0 -> 0, the least owned (522, 320, 32); on 4
    places one each.  The sums start from the owner's: other roundings than
    AllReduce's, the same values to 1e-6."""
    d = case_dir("mlp_sgd")
    ref = dp.DataParallelReference(d, 3, reduce="Reduce")
    assert ref.owner == {"fc_1.b_0@GRAD": 0, "fc_1.w_0@GRAD": 1, "fc_0.b_0@GRAD": 2, "fc_0.w_0@GRAD": 0}
    assert list(dp.DataParallelReference(d, 4, reduce="Reduce").owner.values()) == [0, 1, 2, 3]
    lr, fr = dp.DataParallelReference(d, 4, reduce="Reduce").run(steps=3)
    la, fa = dp.DataParallelReference(d, 4).run(steps=3)
    assert np.abs(lr - la).max() <= 1e-6 and np.abs(fr[0]["fc_0.w_0"] - fa[0]["fc_0.w_0"]).max() <= 1e-6
    assert not all(np.array_equal(fr[0][k], fa[0][k]) for k in fa[0])


def test_batch_norm_statistics_stay_per_place(dp):
    d = case_dir("cnn_bn_momentum")
    _, f = dp.DataParallelReference(d, 2).run(steps=2)
    stats = [k for k in f[0] if k.startswith("batch_norm") and (k.endswith(".w_1") or k.endswith(".w_2"))]
    assert len(stats) == 2, sorted(f[0])
    for k in f[0]:
        same = np.array_equal(f[0][k], f[1][k])
        assert same != (k in stats), k


def test_batch_that_does_not_split(dp, tmp_path):
    d = case_dir("mlp_sgd")  # batch 8, feeds label and x
    with pytest.raises(dp.DataParallelError, match=r"^The number\(8\) of samples\[label\] of current batch is less "
                       r"than the count\(16\) of devices\(CPU\), currently, it is not allowed\. You should set the "
                       r"environment variable CPU_NUM"):
        dp.DataParallelReference(d, 16).run(steps=1)
    # 5 rows on 4 places: chunks of 2, 2, 1 -- three chunks
    with pytest.raises(dp.DataParallelError, match=r"The number\(3\) of samples\[label\] .* count\(4\)"):
        dp.DataParallelReference(d, 4).run(steps=1, batch=5)
    assert [len(c) for c in dp.split_batch("x", np.arange(5), 3)] == [2, 2, 1]
    assert [len(c) for c in dp.split_batch("x", np.arange(7), 4)] == [2, 2, 2, 1]
    with pytest.raises(dp.DataParallelError, match=r"The number\(3\) of samples\[x\] .* count\(4\)"):
        dp.split_batch("x", np.arange(6), 4)
    p = subprocess.run([sys.executable, SCRIPT, d, str(tmp_path / "out"), "--places", "3", "--batch", "2"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 1 and "The number(2) of samples[label]" in p.stderr, p.stderr[-2000:]
    assert not (tmp_path / "out").exists()


def test_one_vs_coeff_num_device(dp):
    """The CLI (through dp_reference_dir) writes what the API computes;
    One's first SGD update is N times CoeffNumDevice's, with the same
    losses."""
    d = case_dir("mlp_sgd")
    init = dp.DataParallelReference(d, 1).run(steps=0)[1][0]
    lc, fc = dp.DataParallelReference(d, 2, "CoeffNumDevice").run(steps=1)
    out = dp_reference_dir("mlp_sgd", 2, "One", steps=1)
    lo, fo = np.load(os.path.join(out, "dp_loss.npy")), np.load(os.path.join(out, "dp_final.npz"))
    assert np.array_equal(lo, dp.DataParallelReference(d, 2, "One").run(steps=1)[0])
    assert np.array_equal(lo, lc)
    for k in init:
        if k.startswith("fc_"):
            np.testing.assert_allclose(fo[k] - init[k], 2 * (fc[0][k] - init[k]), rtol=1e-4, atol=1e-6, err_msg=k)


def test_customized_loss_grad(dp):
    """Customized: loss@GRAD is fed, one value per place; 1/N everywhere is
    CoeffNumDevice, 1 everywhere is One, bit for bit."""
    d = case_dir("mlp_sgd")
    for strategy, values in (("CoeffNumDevice", [0.5, 0.5]), ("One", [1.0, 1.0])):
        lw, fw = dp.DataParallelReference(d, 2, strategy).run(steps=2)
        lg, fg = dp.DataParallelReference(d, 2, "Customized", values).run(steps=2)
        assert np.array_equal(lw, lg)
        for k in fw[0]:
            assert np.array_equal(fw[0][k], fg[0][k]), (strategy, k)
    _, f0 = dp.DataParallelReference(d, 2, "Customized", [1.0, 0.0]).run(steps=1)
    _, f1 = dp.DataParallelReference(d, 2, "Customized", [0.0, 1.0]).run(steps=1)
    _, fo = dp.DataParallelReference(d, 2, "One").run(steps=1)
    init = dp.DataParallelReference(d, 1).run(steps=0)[1][0]
    _, half = dp.DataParallelReference(d, 1).run(steps=1, batch=4)  # place 0's chunk alone
    for k in init:
        assert np.array_equal(f0[0][k], half[0][k]), k
        if k.startswith("fc_"):  # the update is linear in the seeds
            np.testing.assert_allclose(fo[0][k] - init[k], (f0[0][k] - init[k]) + (f1[0][k] - init[k]), rtol=1e-4,
                                       atol=1e-6, err_msg=k)
    with pytest.raises(dp.DataParallelError, match=r"samples\[mean_1.tmp_0@GRAD\]"):
        dp.DataParallelReference(d, 3, "Customized", [1.0]).run(steps=1)

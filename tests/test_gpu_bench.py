"""The GPU benchmark's reference (bench/gpu/sgemm_rate.cu) builds wherever nvcc is,
as CI must build every CUDA path without a GPU; where no GPU is present it says so
and exits 77, where one is it prints the rate table (run on a lent H100 so far by
hand: see bench/README.md)."""
import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.skipif(shutil.which(os.environ.get("NVCC", "nvcc")) is None,
                    reason="nvcc not on PATH: the CUDA toolkit is not installed, nothing GPU-side to build")
def test_sgemm_rate_builds_and_names_the_missing_gpu():
    subprocess.run(["make", "-s", "gpu-bench"], cwd=ROOT, check=True)
    run = subprocess.run([os.path.join(ROOT, "build", "gpu", "sgemm_rate"), "256"],
                         capture_output=True, text=True, timeout=300)
    if run.returncode == 77:
        assert "no GPU found" in run.stderr
    else:
        assert run.returncode == 0, run.stderr
        assert "| 256 |" in run.stdout and "cuBLAS" in run.stdout

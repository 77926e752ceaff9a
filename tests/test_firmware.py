"""The firmware promise, on an emulated Cortex-M4: the sample MLP and a
LeNet made by Paddle (tests/oracle/firmware_lenet.py, random weights and
biases), compiled with --embed-weights --blas=none, built by their generated
Makefile with THREADS=0 MALLOC=0 for a Cortex-M4F by arm-none-eabi-gcc and
by clang (newlib from the gcc toolchain), linked into samples/firmware
(start-up, linker script and main for QEMU's mps2-an386) and run under
qemu-system-arm with semihosting.  The program runs net_init on a static
arena and prints every output's bits; they must equal, bit for bit, those of
the same sources built natively (and the host's must match Paddle's).  No
heap function may be linked: nothing provides sbrk there, and the test reads
the symbol table too.  `make firmware-deps` (run by `make test`) installs the
tools; the test skips only when they are missing."""
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT, SAN_ENV, run

FW = os.path.join(ROOT, "samples", "firmware")
SAMPLE = os.path.join(ROOT, "samples", "mlp")
TOOLS = ["arm-none-eabi-gcc", "arm-none-eabi-ld", "arm-none-eabi-ar", "arm-none-eabi-nm", "arm-none-eabi-size",
         "qemu-system-arm", "clang"]
CPU = ["-mcpu=cortex-m4", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16"]
# every way into a heap: C's, newlib's reentrant ones, and what they sit on
HEAP = {"malloc", "calloc", "realloc", "free", "aligned_alloc", "posix_memalign", "memalign", "valloc",
        "_malloc_r", "_calloc_r", "_realloc_r", "_free_r", "_memalign_r", "_sbrk", "_sbrk_r", "sbrk"}
QEMU = ["qemu-system-arm", "-M", "mps2-an386", "-nographic", "-monitor", "none", "-serial", "none",
        "-semihosting-config", "enable=on,target=native", "-kernel"]
sys.path.insert(0, FW)
import make_input  # noqa: E402


def missing_tools():
    missing = [t for t in TOOLS if not shutil.which(t)]
    if not missing:
        libc = subprocess.run(["arm-none-eabi-gcc"] + CPU + ["-print-file-name=libc.a"], capture_output=True,
                              text=True).stdout.strip()
        if not os.path.isabs(libc):
            missing.append("newlib (libnewlib-arm-none-eabi)")
    return missing


pytestmark = pytest.mark.skipif(bool(missing_tools()),
                                reason=f"missing {', '.join(missing_tools())}: `make firmware-deps` installs them")
ENV = dict(SAN_ENV)
ENV.pop("CFLAGS")  # the sample's -O2, not the tests' arena poisoning (which the host build would print)
CCACHE = ["CCACHE=ccache"] if shutil.which("ccache") else []


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """name -> (compiled sources, input header dir, input header, Paddle's output or None)."""
    d = tmp_path_factory.mktemp("firmware")
    lenet = d / "lenet_paddle"
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "oracle", "firmware_lenet.py"), str(lenet)],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    (lenet / "lenet_input.h").write_text(make_input.header([np.load(lenet / "input_0.npy")], "tests/test_firmware.py"))
    out = {}
    for name, model, hdir, header, ref in [
            ("mlp", SAMPLE, FW, "mlp_input.h", None),
            ("lenet", str(lenet / "model.pdmodel"), str(lenet), "lenet_input.h", np.load(lenet / "output_0.npy"))]:
        src = d / name
        p = run(["compile", model, "-o", str(src), "--name", "net", "--embed-weights", "--blas=none"])
        assert p.returncode == 0, p.stderr
        out[name] = (src, hdir, header, ref)
    return out


def build(models, tmp_path, name, toolchain):
    """Builds samples/firmware around model `name` with `toolchain` (in a copy
    of its sources: each toolchain its own objects); returns the program."""
    src, hdir, header, _ = models[name]
    model_dir = tmp_path / name
    shutil.copytree(src, model_dir)
    p = subprocess.run(["make", "-j2", "-C", FW, f"TOOLCHAIN={toolchain}", f"MODEL_DIR={model_dir}",
                        f"INPUT={header}", f"INPUT_DIR={hdir}", f"BUILD={tmp_path / 'fw'}"] + CCACHE,
                       capture_output=True, text=True, env=ENV, timeout=900)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-5000:]
    return tmp_path / "fw" / ("host" if toolchain == "host" else "fw.elf")


@pytest.fixture(scope="module")
def host_outputs(models, tmp_path_factory):
    """What main.c prints when built natively from the same sources."""
    out = {}
    for name in models:
        binary = build(models, tmp_path_factory.mktemp("host"), name, "host")
        p = subprocess.run([str(binary)], capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stdout + p.stderr
        out[name] = p.stdout
    return out


def parse(text):
    """main.c's output lines -> float32 arrays (by output name)."""
    outs = {}
    for line in text.splitlines()[1:]:
        name, words = line.split(":", 1)
        outs[name] = np.array([int(w, 16) for w in words.split()], dtype=np.uint32).view(np.float32)
    return outs


def test_host_build_matches_paddle(models, host_outputs):
    """The host reference itself: LeNet's outputs are Paddle's."""
    ref = models["lenet"][3]
    (got,) = parse(host_outputs["lenet"]).values()
    assert got.shape == (ref.size,)
    err = np.abs(got - ref.reshape(-1)).max() / max(1.0, np.abs(ref).max())
    assert err <= 1e-4, err
    assert host_outputs["mlp"].startswith("arena ") and len(parse(host_outputs["mlp"])) == 1


@pytest.mark.parametrize("toolchain", ["gcc", "clang"])
@pytest.mark.parametrize("name", ["mlp", "lenet"])
def test_cortex_m4_matches_host_with_no_heap(models, host_outputs, tmp_path, name, toolchain):
    elf = build(models, tmp_path, name, toolchain)
    nm = subprocess.run(["arm-none-eabi-nm", str(elf)], capture_output=True, text=True, check=True).stdout
    linked = {line.split()[-1] for line in nm.splitlines() if line.strip()}
    assert not linked & HEAP, f"heap functions linked: {sorted(linked & HEAP)}"
    assert "net_init" in linked and "net_create" not in linked  # gc-sections dropped what main does not call
    p = subprocess.run(QEMU + [str(elf)], capture_output=True, text=True, timeout=120)
    printed = "".join(line for line in p.stderr.splitlines(True) if not line.startswith("qemu-system-arm:"))
    assert p.returncode == 0, p.stdout + p.stderr
    assert printed == host_outputs[name], f"Cortex-M4 ({toolchain}):\n{printed}\nhost:\n{host_outputs[name]}"
    size = subprocess.run(["arm-none-eabi-size", str(elf)], capture_output=True, text=True, check=True).stdout
    print(f"{name} {toolchain}: {size.splitlines()[1]}")

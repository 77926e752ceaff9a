"""Code size on a Cortex-M4F (not a test): the sample MLP and the firmware
test's LeNet (tests/oracle/firmware_lenet.py), compiled with --embed-weights
--blas=none and built as tests/test_firmware.py builds them
(samples/firmware: THREADS=0 MALLOC=0, --gc-sections), by arm-none-eabi-gcc
and by clang.

    .venv/bin/python bench/firmware_size.py [--cflags=-O2] [--top N]

For each model and compiler: the ELF's .text, .data and .bss
(arm-none-eabi-size), .text split into the weights (net_weights.o), the
sample's inputs (fw_input*) and the code (the rest: model, runtime, libc,
libm, libgcc, start-up), then the N largest code contributors (from the
linker map)."""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FW = os.path.join(ROOT, "samples", "firmware")
PADDLEC = os.path.join(ROOT, "build", "paddlec")
sys.path.insert(0, FW)
import make_input  # noqa: E402


def sh(*args, **kw):
    p = subprocess.run(list(args), capture_output=True, text=True, **kw)
    if p.returncode:
        sys.exit(f"{' '.join(args[:3])}...: {p.stdout[-2000:]}{p.stderr[-2000:]}")
    return p.stdout


def map_sizes(path):
    """Bytes each input file contributes to .text/.data/.bss, from a GNU ld map."""
    sizes, section = collections.Counter(), None
    for line in open(path):
        m = re.match(r"^(\.\w+)\s", line)
        if m:
            section = m.group(1) if m.group(1) in (".text", ".data", ".bss") else None
            continue
        m = re.match(r"^ \S*\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s+(\S+)$", line)
        if section and m:
            obj = re.sub(r".*/", "", m.group(2))
            sizes[(section, obj)] += int(m.group(1), 16)
    return sizes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cflags", default="-O2")
    ap.add_argument("--top", type=int, default=8)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="fw_size_")
    lenet = os.path.join(tmp, "lenet_paddle")
    sh(sys.executable, os.path.join(ROOT, "tests", "oracle", "firmware_lenet.py"), lenet)
    import numpy as np
    with open(os.path.join(lenet, "lenet_input.h"), "w") as f:
        f.write(make_input.header([np.load(os.path.join(lenet, "input_0.npy"))], "bench/firmware_size.py"))
    models = [("mlp", os.path.join(ROOT, "samples", "mlp"), FW, "mlp_input.h"),
              ("lenet", os.path.join(lenet, "model.pdmodel"), lenet, "lenet_input.h")]
    print(f"CFLAGS={args.cflags}; bytes; code = .text - weights - inputs\n")
    print("| model | compiler | .text | .data | .bss | weights | inputs | code |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    tops = []
    for name, model, hdir, header in models:
        src = os.path.join(tmp, name)
        sh(PADDLEC, "compile", model, "-o", src, "--name", "net", "--embed-weights", "--blas=none")
        for tc in ("gcc", "clang"):
            d = os.path.join(tmp, f"{name}-{tc}")
            shutil.copytree(src, d)
            sh("make", "-j2", "-C", FW, f"TOOLCHAIN={tc}", f"MODEL_DIR={d}", f"INPUT={header}", f"INPUT_DIR={hdir}",
               f"CFLAGS={args.cflags}")
            elf = os.path.join(d, f"fw-{tc}", "fw.elf")
            text, data, bss = (int(v) for v in sh("arm-none-eabi-size", elf).splitlines()[1].split()[:3])
            inputs = sum(int(line.split()[1], 16) for line in sh("arm-none-eabi-nm", "-S", elf).splitlines()
                         if re.search(r" fw_input\d+$", line))
            sizes = map_sizes(os.path.join(d, f"fw-{tc}", "fw.map"))
            weights = sizes[(".text", "libnet.a(net_weights.o)")]
            code = text - weights - inputs
            print(f"| {name} | {tc} | {text} | {data} | {bss} | {weights} | {inputs} | {code} |")
            objs = sorted(((n - (inputs if o == "main.o" else 0), o) for (s, o), n in sizes.items()
                           if s == ".text" and o != "libnet.a(net_weights.o)"), reverse=True)
            tops.append((name, tc, code, objs[:args.top]))
    for name, tc, code, objs in tops:
        print(f"\n{name}, {tc}: the largest code ({code} bytes) by object")
        for n, o in objs:
            print(f"  {n:7d}  {100 * n / code:5.1f}%  {o}")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()

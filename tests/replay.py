"""make replay BASE=<commit>: what a change does to the emitted code.

Builds paddlec at BASE (git archive into a temporary directory, its own
build/paddlec), then compiles every model the tests use with it and with
the working tree's build/paddlec, and prints the differences of what they
write: the sources, Makefile, CMake file and runtime copy byte for byte,
the weight files by their bytes, and for a model one of them refuses, the
exit status and messages.  Exits 1 when anything differs, 0 when all is
the same (a refactor's replay is empty), 2 when it could not run.

The models: tests/golden/MODELS; samples/mlp; ../shared/models (as
tests/test_e2e_real.py builds them where build/real/*/paddlec.json says
how, else the directory as it is); the Paddle-made fixtures of the tests
that exist under build/ (build/fixtures, build/e2e, build/e2e_random: run
the tests once to make them); the training fixtures under build/train
(main with its startup, and its evaluation program where there is one;
the collective programs with --mpi).  Both compilers run in directories of
the same depth with the same arguments, so banners match.

    python3 tests/replay.py BASE [--only SUBSTRING] [--jobs N] [--keep]"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "models")
BUILD = os.path.join(ROOT, "build")


def golden_jobs():
    with open(os.path.join(ROOT, "tests", "golden", "MODELS")) as f:
        for line in f:
            if line.split():
                name, model, *args = line.split()
                args = [os.path.join(ROOT, a) if os.path.exists(os.path.join(ROOT, a)) else a for a in args]
                yield "golden/" + name, [os.path.join(ROOT, model)] + args


def real_jobs():
    for d in sorted(glob.glob(os.path.join(SHARED, "*"))):
        name = os.path.basename(d)
        cfg = os.path.join(BUILD, "real", name, "paddlec.json")
        if os.path.exists(cfg):
            c = json.load(open(cfg))
            args = [c["model"]] + (["--params", c["params"]] if c.get("params") else [])
            for s in c.get("shape", []):
                args += ["--shape", s]
            yield "real/" + name, args
        else:
            yield "shared/" + name, [d]


def fixture_jobs():
    for kind in ("fixtures", "e2e", "e2e_random"):
        for model in sorted(glob.glob(os.path.join(BUILD, kind, "**", "model.pdmodel"), recursive=True)):
            yield os.path.relpath(os.path.dirname(model), BUILD), [model]
    for d in sorted(glob.glob(os.path.join(BUILD, "train", "*"))):
        if not os.path.exists(os.path.join(d, "main.pdmodel")):
            continue
        name = "train/" + os.path.basename(d)
        args = [os.path.join(d, "main.pdmodel"), "--startup", os.path.join(d, "startup.pdmodel")]
        if os.path.exists(os.path.join(d, "test.pdmodel")):
            args += ["--eval", os.path.join(d, "test.pdmodel")]
        yield name, args
        for main in sorted(glob.glob(os.path.join(d, "collective*_main.pdmodel"))):
            prefix = main[:-len("main.pdmodel")]
            yield name + "/" + os.path.basename(prefix).rstrip("_"), [main, "--startup", prefix + "startup.pdmodel",
                                                                      "--mpi"]


def build_base(base, where):
    """paddlec at commit `base`, built in where/src; its path."""
    src = os.path.join(where, "src")
    os.makedirs(src)
    archive = subprocess.run(["git", "-C", ROOT, "archive", base], capture_output=True)
    if archive.returncode:
        sys.exit(print(f"replay: git archive {base}: {archive.stderr.decode().strip()}", file=sys.stderr) or 2)
    subprocess.run(["tar", "-x", "-C", src], input=archive.stdout, check=True)
    cc = ["CC=ccache cc"] if shutil.which("ccache") else []
    env = dict(os.environ, CCACHE_BASEDIR=src, CCACHE_NOHASHDIR="1")
    p = subprocess.run(["make", "-C", src, "-j2", "build/paddlec"] + cc, capture_output=True, text=True, env=env)
    if p.returncode:
        sys.exit(print(f"replay: building paddlec at {base} failed:\n{p.stdout[-2000:]}{p.stderr[-3000:]}",
                       file=sys.stderr) or 2)
    return os.path.join(src, "build", "paddlec")


def compile_one(paddlec, top, name, args):
    """Compiles into top/<name>/out from top/<name> (relative -o: the same
    banner for both compilers); the exit status and messages go to
    top/<name>/status.txt."""
    d = os.path.join(top, name)
    os.makedirs(d, exist_ok=True)
    p = subprocess.run([paddlec, "compile"] + args + ["-o", "out"], cwd=d, capture_output=True, text=True,
                       timeout=600)
    with open(os.path.join(d, "status.txt"), "w") as f:
        f.write(f"exit {p.returncode}\n{p.stderr}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base")
    ap.add_argument("--only", default="", help="only the models whose name holds this")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    a = ap.parse_args()
    work_paddlec = os.path.join(BUILD, "paddlec")
    if not os.path.exists(work_paddlec):
        sys.exit(print("replay: build/paddlec is missing: make first", file=sys.stderr) or 2)
    tmp = tempfile.mkdtemp(prefix="replay.")
    try:
        base_paddlec = build_base(a.base, tmp)
        jobs = [(n, args) for n, args in list(golden_jobs()) + list(real_jobs()) + list(fixture_jobs())
                if a.only in n]
        with ThreadPoolExecutor(a.jobs) as pool:
            for side, paddlec in (("base", base_paddlec), ("work", work_paddlec)):
                list(pool.map(lambda j, s=side, c=paddlec: compile_one(c, os.path.join(tmp, s), *j), jobs))
        p = subprocess.run(["diff", "-r", "-u", "base", "work"], cwd=tmp, capture_output=True, text=True)
        differ = [ln for ln in p.stdout.splitlines() if ln.startswith(("diff -r", "Binary files ", "Only in "))]
        sys.stdout.write(p.stdout)
        print(f"replay {a.base}: {len(jobs)} models compiled by both; "
              f"{'no differences' if not p.stdout else f'{len(differ)} files differ'}")
        return 1 if p.stdout else 0
    finally:
        if a.keep:
            print(f"replay: kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

"""Paddle's evaluation program on a checkpoint: the reference for a
trainer's --eval (issue 17, share_vars_from).

    python eval_reference.py TEST.pdmodel CKPT_PREFIX OUT.npy --batch B --fetch NAME
                             NAME=FILE.npy ...

Loads CKPT_PREFIX.pdparams (+ .pdopt), as the trainer's --save wrote them,
into a scope with paddle.static.load(test_program, ...), then runs the test
program (main.clone(for_test=True)) with Paddle's Executor on each full
batch of B rows of the data sets, in order, and writes the fetched var of
every batch, stacked: [batches, ...]."""
import argparse
import os
import sys

os.environ.setdefault("FLAGS_enable_pir_api", "0")
import numpy as np  # noqa: E402
import paddle  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("program")
    ap.add_argument("checkpoint")
    ap.add_argument("out")
    ap.add_argument("--batch", type=int, required=True)
    ap.add_argument("--fetch", required=True)
    ap.add_argument("data", nargs="+", help="NAME=FILE.npy")
    args = ap.parse_args(argv)
    paddle.enable_static()
    with open(args.program, "rb") as f:
        test = paddle.static.Program.parse_from_string(f.read())
    data = {}
    for d in args.data:
        name, path = d.split("=", 1)
        data[name] = np.load(path)
    rows = min(a.shape[0] for a in data.values())
    exe = paddle.static.Executor(paddle.CPUPlace())
    values = []
    with paddle.static.scope_guard(paddle.static.Scope()):
        paddle.static.load(test, args.checkpoint, exe)
        for k in range(rows // args.batch):
            feed = {n: a[k * args.batch:(k + 1) * args.batch] for n, a in data.items()}
            out, = exe.run(test, feed=feed, fetch_list=[args.fetch])
            values.append(np.asarray(out))
    np.save(args.out, np.stack(values))
    print(f"{len(values)} batches: {args.fetch} {np.stack(values).reshape(len(values), -1)[:, 0].tolist()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

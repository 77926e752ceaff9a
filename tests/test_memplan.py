"""The memory plan of training programs (issue 16 item 5): the arena within
1.05x of the liveness lower bound at every batch, in pieces by batch where
one packing for every batch cannot be (compiler/plan.c).

The lower bound is recomputed here from the plan's own dump (each buffer's
size a*B + c and the ops it lives between: the most bytes alive at one op),
and so is the check that no two buffers alive at the same time share bytes,
so that neither rests on the compiler's arithmetic."""
import json
import os
import re

import numpy as np
import pytest

from conftest import run
from test_train import build_trainer, case_dir, case_flags, case_names, train

BATCHES = list(range(1, 321)) + [500, 1000, 4096]


def _sym(text):
    """'a*B + c', 'a*B - c', 'a*B' or 'c' -> (a, c)."""
    m = re.fullmatch(r"(?:(\d+)\*B)?(?: ?([+-]) ?)?(-?\d+)?", text.replace(" ", ""))
    assert m, text
    a = int(m[1] or 0)
    c = int(m[3] or 0) * (-1 if m[2] == "-" else 1)
    return a, c


def plan_pieces(name, tmp_path):
    """[(lo, hi or None, (arena a, c), [(offset, bytes, first, last), ...])] of the fixture's plan."""
    d = case_dir(name)
    p = run(["compile", os.path.join(d, "main.pdmodel"), "--startup", os.path.join(d, "startup.pdmodel"), "-o",
             str(tmp_path / "src"), "--dump-memplan"] + case_flags(d))
    assert p.returncode == 0, p.stderr[-2000:]
    pieces, lo, hi = [], 1, None
    for line in p.stdout.splitlines():
        if m := re.match(r"# piece \d+: batch (\d+)\.\.(\d*)$", line):
            lo, hi = int(m[1]), int(m[2]) if m[2] else None
        elif m := re.match(r"# arena bytes = (.+)$", line):
            pieces.append((lo, hi, _sym(m[1]), []))
        elif m := re.match(r"\s+\d+\s+(\S+(?: [+-] \d+)?)\s+(\S+(?: [+-] \d+)?)\s+(\d+)\.\.(\d+)", line):
            pieces[-1][3].append((_sym(m[1]), _sym(m[2]), int(m[3]), int(m[4])))
    assert pieces and all(len(x[3]) == len(pieces[0][3]) for x in pieces), p.stdout[:2000]
    return pieces


def at(x, b):
    return x[0] * b + x[1]


@pytest.mark.parametrize("name", case_names())
def test_training_arena_near_lower_bound(name, tmp_path):
    pieces = plan_pieces(name, tmp_path)
    bufs = pieces[0][3]
    nops = max(b[3] for b in bufs) + 1
    starts = {lo for lo, _, _, _ in pieces}
    prev = 0
    for b in BATCHES:
        lo, hi, arena, placed = next(x for x in pieces if x[0] <= b and (x[1] is None or b <= x[1]))
        live = np.zeros(nops + 1, dtype=np.int64)
        for _, size, first, last in placed:
            live[first:last + 1] += at(size, b)
        bound, total = int(live.max()), at(arena, b)
        assert total <= 1.05 * bound, (name, b, total, bound)
        assert total >= prev, (name, b, "the arena shrank as the batch grew", total, prev)
        prev = total
        ends = [at(o, b) + at(s, b) for o, s, _, _ in placed]
        assert max(ends) <= total, (name, b)
        if b in starts or b in (hi, 8, 1000):  # overlaps: at each piece's ends and a few more
            for i, (oi, si, fi, li) in enumerate(placed):
                for j in range(i + 1, len(placed)):
                    oj, sj, fj, lj = placed[j]
                    if li < fj or lj < fi:
                        continue
                    assert at(oi, b) + at(si, b) <= at(oj, b) or at(oj, b) + at(sj, b) <= at(oi, b), (name, b, i, j)


def test_mlp_plan_has_pieces(tmp_path):
    """mlp_adam's parameter gradients (fixed size) and activations (batch
    sized) are of a size near batch 8: one packing for every batch took 1.5x
    the lower bound there, so its plan comes in pieces."""
    assert len(plan_pieces("mlp_adam", tmp_path)) > 1


@pytest.mark.parametrize("batch", [1, 3, 6, 8, 13, 40])
def test_pieces_train_like_one_slot_each(batch, tmp_path):
    """The trainer of a plan in pieces, at batches that take different
    pieces, gives the losses of the same trainer with every tensor in a slot
    of its own (memory_optimize=false), bit for bit."""
    d = case_dir("mlp_adam")
    meta = json.load(open(os.path.join(d, "case.json")))
    losses = []
    for strategy in ([], ["--build-strategy", "memory_optimize=false"]):
        sub = tmp_path / ("own" if strategy else "pieces")
        sub.mkdir()
        binary = build_trainer(d, sub, *strategy)
        assert ("m->off[" in open(str(binary) + "_src/model.c").read()) == (not strategy)
        train(binary, d, meta, sub, 6, "--params", os.path.join(d, "init"), "--batch-size", str(batch))
        losses.append(np.load(sub / "out" / (meta["loss"].replace("/", "_") + ".npy")))
    assert losses[0].shape == (6,) and np.array_equal(losses[0], losses[1]), losses

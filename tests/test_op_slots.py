"""Every input slot Paddle declares is used or refused, never ignored.

tests/oracle/op_slots.py takes the Paddle-made programs of the op-level
cases (tests/oracle/e2e_*.py, compared with Paddle's numbers) and of the op
zoos, and for every op type they hold and every input slot its OpProto
declares that the program leaves unbound, writes the program with that slot
bound to a new feed.  paddlec must either refuse it with an error that names
the slot, or compile it — and then some op-level case binds that slot of that
op, so its numbers are checked against Paddle's — or the op's descriptor
declares it without effect where paddlec compiles the op (OpDef.ignores).  A program whose ops paddlec
does not all compile as Paddle saved it is not a probe of their slots.
(What makes refusals sure: compiler/ops/op_ctx.c's op_check_slots.)"""
import json
import os
import sys

import pytest

from conftest import BUILD, ROOT, declared_ignores, generated, run
from test_e2e_ops import FAMILIES, cases
from test_zoo import ZOOS, test_zoo as make_zoo


@pytest.fixture(scope="module")
def probes():
    roots = [cases(f)[0] for f in FAMILIES]
    for z in ZOOS:
        make_zoo(z)  # makes build/zoo/<family> (and checks it)
        roots.append(os.path.join(BUILD, "zoo", z))
    out, script = os.path.join(BUILD, "op_slots"), os.path.join(ROOT, "tests", "oracle", "op_slots.py")
    generated(out, [sys.executable, script, out] + roots, [script] + [os.path.join(r, ".done") for r in roots],
              timeout=1800)
    with open(os.path.join(out, "manifest.json")) as f:
        return json.load(f)


def test_every_declared_input_is_used_or_refused(probes, tmp_path):
    assert len(probes["ops"]) > 250 and len(probes["probes"]) > 80, (len(probes["ops"]), len(probes["probes"]))
    ignores = declared_ignores("slots")
    compiles = {}  # base program -> 1 when paddlec compiles it as Paddle saved it
    ignored, walked = [], 0
    for pr in probes["probes"]:
        base = pr["base"]
        if base not in compiles:
            compiles[base] = run(["compile", os.path.join(base, "model.pdmodel"), "-o", str(tmp_path / "base")]
                                 ).returncode == 0
        if not compiles[base]:
            continue
        walked += 1
        p = run(["compile", os.path.join(pr["dir"], "model.pdmodel"), "-o", str(tmp_path / "probe")])
        # the messages without their file name (the probe's directory is named after the slot)
        errors = [l.split(".pdmodel:", 1)[-1] for l in p.stderr.splitlines() if "error:" in l]
        if p.returncode == 1 and any(pr["slot"] in e for e in errors):
            continue  # refused, naming the slot
        if p.returncode == 0 and pr["slot"] in probes["numeric"].get(pr["op"], []):
            continue  # used, and an op-level case checks it against Paddle
        if p.returncode == 0 and pr["slot"] in ignores.get(pr["op"], []):
            continue  # declared without effect (the reason is in the op's file)
        ignored.append((pr["op"], pr["slot"], p.returncode, errors[:2]))
    assert walked > 40, walked
    assert not ignored, "\n".join(map(str, ignored))

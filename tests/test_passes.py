"""BuildStrategy passes, the pass pipeline and its options.

Pass tests: each tests/passes/*.ir holds an input program in IR text, the
options of `paddlec opt` on its "# RUN:" line, and after "# EXPECT" the IR
the passes must produce (tests/passes/update.sh rewrites that part; review
the diff).  Each fusion has a case where it fires and cases where it must
not.  The other tests check the options themselves: BuildStrategy keys and
values, --dump-after, the memory options, debug_graphviz_path."""
import glob
import json
import os
import re

import pytest

from conftest import ROOT, run

PASS_TESTS = sorted(glob.glob(os.path.join(ROOT, "tests", "passes", "*.ir")))
SAMPLE = os.path.join(ROOT, "samples", "mlp", "model.pdmodel")


def split_case(path):
    text = open(path).read()
    head, sep, expect = text.partition("# EXPECT\n")
    assert sep, f"{path}: no '# EXPECT' line"
    m = re.search(r"^# RUN: (.*)$", head, re.M)
    assert m, f"{path}: no '# RUN:' line"
    return head, m.group(1).split(), expect


@pytest.mark.parametrize("path", PASS_TESTS, ids=[os.path.basename(p)[:-3] for p in PASS_TESTS])
def test_pass_case(path, tmp_path):
    head, args, expect = split_case(path)
    src = tmp_path / "in.ir"
    src.write_text(head)
    p = run(["opt", str(src)] + args + ["--verify-each"])
    assert p.returncode == 0, p.stderr
    assert p.stdout == expect, "IR after the passes differs from the expected IR:\n" + p.stdout


def test_every_pass_has_a_case():
    p = run(["opt", SAMPLE, "--passes=nonexistent"])
    assert p.returncode == 1
    names = p.stderr.split("the passes are: ")[1].strip().split(", ")
    covered = set()
    for path in PASS_TESTS:
        for a in split_case(path)[1]:
            if a.startswith("--passes="):
                covered.update(a.split("=", 1)[1].split(","))
    assert set(names) <= covered, set(names) - covered


def test_unknown_key_lists_the_valid_keys(tmp_path):
    p = run(["compile", SAMPLE, "-o", str(tmp_path / "o"), "--build-strategy", "fuse_everything=true"])
    assert p.returncode == 1
    assert "unknown BuildStrategy key 'fuse_everything'" in p.stderr
    assert "fuse_elewise_add_act_ops" in p.stderr and "memory_optimize" in p.stderr
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("option, message", [
    ("enable_inplace=maybe", "expected true or false"),
    ("reduce_strategy=Sometimes", "expected one of AllReduce, Reduce, _NoReduce"),
    ("num_trainers=0", "num_trainers must be >= 1"),
    ("num_trainers=2,trainer_id=2", "trainer_id 2 must be in [0, num_trainers = 2)"),
    ("memory_optimize", "is not key=value"),
])
def test_bad_values_are_errors(tmp_path, option, message):
    p = run(["compile", SAMPLE, "-o", str(tmp_path / "o"), "--build-strategy", option])
    assert p.returncode == 1 and message in p.stderr, p.stderr


def paddle_build_strategy_fields():
    """Every field of paddle.static.BuildStrategy() with its default, as JSON
    values, read off the installed Paddle."""
    os.environ.setdefault("FLAGS_enable_pir_api", "0")
    import paddle
    bs, out = paddle.static.BuildStrategy(), {}
    for name in dir(bs):
        if name.startswith("_") or name in ("GradientScaleStrategy", "ReduceStrategy"):
            continue
        v = getattr(bs, name)
        if isinstance(v, (bool, int, str)) or v is None:
            out[name] = v
        elif isinstance(v, (list, set)):
            out[name] = sorted(v)
        else:  # the enums: ReduceStrategy.AllReduce -> "AllReduce"
            out[name] = v.name
    return out


def test_every_field_of_paddle_is_accepted_with_its_default(tmp_path):
    fields = paddle_build_strategy_fields()
    path = tmp_path / "bs.json"
    path.write_text(json.dumps(fields))
    p = run(["compile", SAMPLE, "-o", str(tmp_path / "o"), "--build-strategy-file", str(path)])
    assert p.returncode == 0, p.stderr
    listed = run(["strategy"]).stdout
    for key, value in fields.items():
        m = re.search(rf"^  {key} +\w+ +default (\S+)", listed, re.M)
        assert m, key
        if value is None or isinstance(value, bool):
            text = {True: "true", False: "false", None: "None"}[value]
        elif value == "":
            text = '""'
        else:
            text = str(value).replace(" ", "")
        assert m.group(1) == text, (key, m.group(1), value)


def test_strategy_file_errors_name_the_file(tmp_path):
    bad = tmp_path / "bs.json"
    bad.write_text('{"fuse_bn_act_ops": true,\n "sync_batch_norm": "yes"}')
    p = run(["compile", SAMPLE, "-o", str(tmp_path / "o"), "--build-strategy-file", str(bad)])
    assert p.returncode == 1 and str(bad) in p.stderr and "sync_batch_norm='yes'" in p.stderr, p.stderr
    bad.write_text('{"fuse_bn_act_ops": tru}')
    p = run(["compile", SAMPLE, "-o", str(tmp_path / "o"), "--build-strategy-file", str(bad)])
    assert p.returncode == 1 and f"{bad}:1: invalid JSON" in p.stderr, p.stderr


def test_unknown_pass_name_is_an_error(tmp_path):
    p = run(["compile", SAMPLE, "-o", str(tmp_path / "o"), "--dump-after=fold_everything"])
    assert p.returncode == 1 and "unknown pass 'fold_everything'" in p.stderr and "fold_batch_norm" in p.stderr


def test_dump_after_prints_the_ir_after_that_pass(fixtures_dir):
    model = os.path.join(fixtures_dir, "resnet18", "model.pdmodel")
    p = run(["opt", model, "--dump-after=fold_batch_norm"])
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("# IR after fold_batch_norm (20 rewrites)\n# paddlec IR\n")
    after_fold, final = p.stdout.split("# paddlec IR\n")[1:]
    assert "op batch_norm(" not in after_fold and "op fused_conv2d(" in after_fold
    assert "fuse_activation" not in after_fold  # the epilogue pass has not run yet
    assert "fuse_activation" in final           # the IR `opt` prints at the end


def test_ir_optim_false_runs_no_inference_folding(fixtures_dir):
    model = os.path.join(fixtures_dir, "resnet18", "model.pdmodel")
    p = run(["opt", model, "--ir-optim=false"])
    assert p.returncode == 0 and "op batch_norm(" in p.stdout and "fused_conv2d" not in p.stdout


def test_debug_graphviz_path_writes_dot_before_and_after(fixtures_dir, tmp_path):
    model = os.path.join(fixtures_dir, "resnet18", "model.pdmodel")
    d = tmp_path / "dots"
    p = run(["compile", model, "-o", str(tmp_path / "o"), "--build-strategy", f"debug_graphviz_path={d}"])
    assert p.returncode == 0, p.stderr
    before, after = (d / "before_passes.dot").read_text(), (d / "after_passes.dot").read_text()
    assert before.startswith("digraph") and after.startswith("digraph")
    op = r'label="%s\n#'  # an op node: its type, a line break, its index
    assert op % "batch_norm" in before and op % "batch_norm" not in after and op % "fused_conv2d" in after


def memory(model, *options):
    p = run(["inspect", model, "--memory"] + list(options))
    assert p.returncode == 0, p.stderr
    rows = dict(re.findall(r"^  (arena|lower bound|naive) +(\d+) +\d+", p.stdout, re.M))
    bufs = re.search(r"(\d+) tensors in (\d+) buffers", p.stdout)
    return {k: int(v) for k, v in rows.items()}, int(bufs.group(1)), int(bufs.group(2))


def test_memory_optimize_shares_the_arena(fixtures_dir):
    model = os.path.join(fixtures_dir, "mobilenet_v2", "model.pdmodel")
    on, _, _ = memory(model)
    off, _, _ = memory(model, "--build-strategy", "memory_optimize=false,enable_inplace=false")
    assert off["arena"] == off["naive"] and on["arena"] < off["arena"] / 3
    assert on["lower bound"] <= on["arena"] <= 1.10 * on["lower bound"]


@pytest.mark.parametrize("name", ["golden_cnn", "mobilenet_v2", "bert"])
def test_inspect_memory_scratch_is_the_compiled_slot(name, fixtures_dir, tmp_path):
    """inspect --memory's scratch is the scratch plan the compiled model
    uses: the slot at batch 1 and 8 is the header's SCRATCH_BYTES, the
    threads' bytes its THREAD_BYTES, and the kernel it names as taking the
    most is a kernel of the model whose named regions are its locals."""
    model = (os.path.join(ROOT, "tests", "golden", "models", "cnn") if name == "golden_cnn"
             else os.path.join(fixtures_dir, name, "model.pdmodel"))
    p = run(["inspect", model, "--memory"])
    assert p.returncode == 0, p.stderr
    slot = re.search(r"^  scratch slot +(\d+) +(\d+) +bytes per kernel that runs at once"
                     r" \(largest at batch 8: (\w+): (.*)\)$", p.stdout, re.M)
    thread = re.search(r"^  thread +(\d+) +bytes per worker thread", p.stdout, re.M)
    assert slot and thread, p.stdout
    c = run(["compile", model, "-o", str(tmp_path / "o")])
    assert c.returncode == 0, c.stderr
    header = (tmp_path / "o" / "model.h").read_text()
    a, k = map(int, re.search(r"SCRATCH_BYTES\(batch\) \(\(size_t\)(\d+) \* \(size_t\)\(batch\) \+ "
                                r"\(size_t\)(\d+)\)", header).groups())
    assert (int(slot[1]), int(slot[2])) == (a + k, 8 * a + k) and (a + k) > 0
    assert int(thread[1]) == int(re.search(r"THREAD_BYTES \(\(size_t\)(\d+)\)", header)[1])
    source = (tmp_path / "o" / "model.c").read_text()
    kernel = re.search(r"^static \w+ %s\(.*?^}" % slot[3], source, re.M | re.S)
    assert kernel, slot[3]
    regions = [r.split() for r in slot[4].split(", ")]
    assert sum(int(n) for _, n in regions) <= 8 * a + k
    for role, _ in regions:
        assert re.search(r"\*%s(_\d+)? = " % role, kernel[0]), (role, kernel[0][:2000])


def test_enable_inplace_shares_buffers_and_skips_copies(fixtures_dir, tmp_path):
    model = os.path.join(fixtures_dir, "bert", "model.pdmodel")
    _, tensors, bufs_on = memory(model)
    _, tensors_off, bufs_off = memory(model, "--build-strategy", "enable_inplace=false")
    assert tensors == tensors_off and bufs_on < bufs_off == tensors_off
    p = run(["compile", model, "-o", str(tmp_path / "o")])
    assert p.returncode == 0, p.stderr
    assert "Out shares X's buffer (enable_inplace): nothing to copy" in (tmp_path / "o" / "model.c").read_text()


def test_dump_memplan_lists_every_buffer(fixtures_dir, tmp_path):
    model = os.path.join(fixtures_dir, "lenet", "model.pdmodel")
    p = run(["compile", model, "-o", str(tmp_path / "o"), "--dump-memplan"])
    assert p.returncode == 0, p.stderr
    lines = [l for l in p.stdout.splitlines() if re.match(r"^  \d+ ", l)]
    head = re.search(r"(\d+) tensors in (\d+) buffers", p.stdout)
    assert len(lines) == int(head.group(2)) > 0
    for l in lines:  # buffer, offset, bytes, first..last op, vars
        assert re.match(r"^  \d+ +\S.* +\d+\.\.\d+ +\S", l), l
    assert head.group(0) in (tmp_path / "o" / "model.c").read_text()  # the source repeats the summary


def test_fused_attention_keeps_the_scores_out_of_the_arena(fixtures_dir, tmp_path):
    """With fused_attention the [B, heads, S, S] scores and probabilities of
    the BERT-style encoder are never stored: they are not in the memory plan
    and the arena shrinks."""
    model = os.path.join(fixtures_dir, "bert", "model.pdmodel")
    plans = {}
    for label, opts in (("on", []), ("off", ["--build-strategy", "fused_attention=false"])):
        p = run(["compile", model, "-o", str(tmp_path / label), "--dump-memplan"] + opts)
        assert p.returncode == 0, p.stderr
        plans[label] = p.stdout
    assert "softmax_0.tmp_0" in plans["off"] and "softmax_0.tmp_0" not in plans["on"]
    arena = {k: int(re.search(r"arena (\d+) bytes", v).group(1)) for k, v in plans.items()}
    assert arena["on"] < arena["off"], arena


def test_build_cinn_pass_asks_for_auto_fusion(fixtures_dir):
    model = os.path.join(fixtures_dir, "mobilenet_v3", "model.pdmodel")
    off = run(["opt", model, "--ir-optim=false"])
    on = run(["opt", model, "--ir-optim=false", "--build-strategy", "build_cinn_pass=true"])
    assert off.returncode == 0 and on.returncode == 0, off.stderr + on.stderr
    assert "fusion_group" not in off.stdout and "op fusion_group(" in on.stdout
    explicit_off = run(["opt", model, "--build-strategy", "enable_auto_fusion=false"])
    assert "fusion_group" not in explicit_off.stdout


# BuildStrategy fields that switch one fusion pass each, and the pass's case
# (tests/passes/<field>.ir, a program where it fires)
FIELD_PASSES = ["fuse_bn_add_act_ops", "fuse_bn_act_ops", "fuse_relu_depthwise_conv", "fused_attention",
                "fused_feedforward", "fuse_gemm_epilogue", "enable_auto_fusion", "fuse_elewise_add_act_ops"]


@pytest.mark.parametrize("field", FIELD_PASSES)
def test_build_strategy_field_switches_its_pass(field, tmp_path):
    """The field itself (not --passes) turns its pass on and off: with
    ir_optim off, field=true gives exactly the pass's expected IR and
    field=false the untouched program; with ir_optim on (every inference
    pass), field=false gives another program than field=true."""
    head, _, expect = split_case(os.path.join(ROOT, "tests", "passes", field + ".ir"))
    src = tmp_path / "in.ir"
    src.write_text(head)

    def opt(*args):
        p = run(["opt", str(src), "--verify-each"] + list(args))
        assert p.returncode == 0, p.stderr
        return p.stdout

    untouched = opt("--passes=none")
    assert opt("--ir-optim=false", "--build-strategy", f"{field}=true") == expect != untouched
    assert opt("--ir-optim=false", "--build-strategy", f"{field}=false") == untouched
    # (enable_auto_fusion, on by default, would fuse an element-wise chain either way)
    rest = "" if field == "enable_auto_fusion" else "enable_auto_fusion=false,"
    assert opt("--build-strategy", f"{rest}{field}=false") != opt("--build-strategy", f"{rest}{field}=true")

"""Run-time extents (graph.h VAR_RUNTIME_EXTENT): top_k with k from a tensor
writes an Out and Indices whose extent along the axis is only known when it
runs, bounded by the axis' dim; the reductions after it read the extent.
tests/oracle/e2e_topk.py's top_k_tensor_k_* cases check the numbers against
Paddle (tests/oracle/e2e_rcnn_head.py the ops after run-time rows: a box
head); here, what stops a compile or a run, and one binary run with
different row counts."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import BUILD, ROOT, generated, run
from test_bad_catalogue import ir
from test_bad_input import bad
from test_e2e import build
from test_e2e_ops import cases

# top_k_v2 with K fed, then `{use}` of its Out
TOPK_IR = ("var x: float32[-1, 8]\nvar k: int32[1]\nvar o: float32[-1, -1]\nvar i: int64[-1, -1]\n"
           "var y: float32[{y}]\n"
           "op feed(X: feed) -> (Out: x) {{col: 0}}\nop feed(X: feed) -> (Out: k) {{col: 1}}\n"
           "op top_k_v2(K: k, X: x) -> (Indices: i, Out: o) {{axis: -1, k: 1, largest: true, sorted: true}}\n"
           "{use}\nop fetch(X: {fetched}) -> (Out: fetch) {{col: 0}}\n")


def topk_ir(tmp_path, use, y="-1", fetched="y"):
    return ir(tmp_path, TOPK_IR.format(use=use, y=y, fetched=fetched))


def test_an_op_without_run_time_extents_is_refused(tmp_path):
    """kron does not take a run-time extent (element-wise unary ops do):
    the error names the input, the dim and the op it comes from."""
    f = topk_ir(tmp_path, "op kron(X: o, Y: o) -> (Out: y)", y="-1, -1")
    bad(["compile", f, "-o", str(tmp_path / "out")], "(kron -> y)",
        "dim 1 of input X ('o') is only known at run time", "(top_k_v2 -> ",
        "makes it from its input K ('k')); kron does not take such an input yet")


MASKED_IR = ("var x: float32[-1, 4]\nvar m: bool[-1, 4]\nvar m2: bool[-1, 4]\nvar s: float32[-1]\n"
             "var s2: float32[-1]\nvar r: float32[-1]\nvar y: float32[-1]\n"
             "op feed(X: feed) -> (Out: x) {{col: 0}}\nop feed(X: feed) -> (Out: m) {{col: 1}}\n"
             "op feed(X: feed) -> (Out: m2) {{col: 2}}\n"
             "op masked_select(Mask: m, X: x) -> (Y: s)\nop masked_select(Mask: m2, X: x) -> (Y: s2)\n"
             "op relu(X: s) -> (Out: r)\n"
             "op elementwise_add(X: r, Y: {y}) -> (Out: y) {{axis: -1}}\nop fetch(X: y) -> (Out: fetch) {{col: 0}}\n")


def run_masks(binary, tmp_path, m, m2, out):
    """Runs MASKED_IR's binary on tmp_path/x.npy and the masks m and m2."""
    np.save(tmp_path / "m.npy", m)
    np.save(tmp_path / "m2.npy", m2)
    return subprocess.run([str(binary), "--input", f"x={tmp_path / 'x.npy'}", "--input", f"m={tmp_path / 'm.npy'}",
                           "--input", f"m2={tmp_path / 'm2.npy'}", "--output-dir", str(out)],
                          capture_output=True, text=True, timeout=120)


def test_a_fused_chain_with_a_binary_op_takes_one_run_time_extent(tmp_path):
    """enable_auto_fusion fuses relu and elementwise_add after a
    masked_select into one fusion_group; relu(s) + relu(s) has one extent
    (the same producer's, passed on): the loop runs over the run's
    elements.  Expected by hand: 2 * relu of the selected elements, in
    row-major order, as many as the mask holds."""
    binary = tmp_path / "bin"
    p = run(["build", ir(tmp_path, MASKED_IR.format(y="r")), "-o", str(binary)])
    assert p.returncode == 0, p.stderr
    rng = np.random.default_rng(3)
    x = rng.standard_normal((3, 4)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    for i, mask in enumerate((x > 0.3, np.zeros((3, 4), bool), np.ones((3, 4), bool))):
        out = tmp_path / f"out{i}"
        r = run_masks(binary, tmp_path, mask, mask, out)
        assert r.returncode == 0, r.stderr
        got = np.load(out / "y.npy")
        assert got.shape == (mask.sum(),) and (got == 2 * np.maximum(x[mask], 0)).all(), (i, got)


GATHER_ROWS_IR = ("var x: float32[-1, 3]\nvar i: int64[-1, 2]\nvar c: int64[-1]\nvar y: float32[-1, 3]\n"
                  "var z: float32[-1, 3]\n"
                  "op feed(X: feed) -> (Out: x) {col: 0}\nop where_index(Condition: x) -> (Out: i)\n"
                  "op slice(Input: i) -> (Out: c) {axes: ints[1], starts: ints[0], ends: ints[1], "
                  "decrease_axis: ints[1], infer_flags: ints[1]}\n"
                  "op gather(X: x, Index: c) -> (Out: y) {axis: 0}\nop index_select(X: x, Index: c) -> (Out: z) {dim: 0}\n"
                  "op fetch(X: y) -> (Out: fetch) {col: 0}\nop fetch(X: z) -> (Out: fetch) {col: 1}\n")


def test_gather_by_indices_the_run_counts_has_as_many_rows(tmp_path):
    """gather and index_select of x's rows at paddle.nonzero(x)[:, 0] (an
    Index whose count only the run knows): Out has that many rows, by hand
    x[np.nonzero(x)[0]] (they were written at X's batch, the rows past the
    indices' garbage)."""
    binary = tmp_path / "bin"
    p = run(["build", ir(tmp_path, GATHER_ROWS_IR), "-o", str(binary)])
    assert p.returncode == 0, p.stderr
    for k, x in enumerate((np.array([[1, 0, 2], [0, 0, 0], [3, 4, 0]], np.float32), np.zeros((2, 3), np.float32),
                           np.arange(1, 13, dtype=np.float32).reshape(4, 3))):
        np.save(tmp_path / f"x{k}.npy", x)
        out = tmp_path / f"o{k}"
        r = subprocess.run([str(binary), "--input", f"x={tmp_path / f'x{k}.npy'}", "--output-dir", str(out)],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        want = x[np.nonzero(x)[0]]
        for name in ("y", "z"):
            got = np.load(out / f"{name}.npy")
            assert got.shape == want.shape and (got == want).all(), (k, name, got)


SMOOTH_IR = ("var lab: float32[-1, 4]\nvar p: float32[4]\nvar m: bool[4]\nvar pr: float32[-1]\n"
             "var y: float32[-1, 4]\nop feed(X: feed) -> (Out: lab) {col: 0}\nop feed(X: feed) -> (Out: p) {col: 1}\n"
             "op feed(X: feed) -> (Out: m) {col: 2}\nop masked_select(Mask: m, X: p) -> (Y: pr)\n"
             "op label_smooth(X: lab, PriorDist: pr) -> (Out: y) {epsilon: 0.25}\nop fetch(X: y) -> (Out: fetch) {col: 0}\n")
AFFINE_IR = ("var x: float32[-1, 4, 2, 2]\nvar s: float32[4]\nvar m: bool[4]\nvar sc: float32[-1]\nvar bi: float32[-1]\n"
             "var y: float32[-1, 4, 2, 2]\nop feed(X: feed) -> (Out: x) {col: 0}\nop feed(X: feed) -> (Out: s) {col: 1}\n"
             "op feed(X: feed) -> (Out: m) {col: 2}\nop masked_select(Mask: m, X: s) -> (Y: sc)\n"
             "op scale(X: sc) -> (Out: bi) {scale: 0.5, bias: 1.0}\n"
             "op affine_channel(X: x, Scale: sc, Bias: bi) -> (Out: y)\nop fetch(X: y) -> (Out: fetch) {col: 0}\n")
YOLO_IR = ("var x: float32[4, 12, 3, 3]\nvar tab: int32[4, 2]\nvar m: float32[4]\nvar i: int64[-1, 1]\n"
           "var c: int64[-1]\nvar img: int32[-1, 2]\nvar bx: float32[4, 18, 4]\nvar sc: float32[4, 18, 1]\n"
           "op feed(X: feed) -> (Out: x) {col: 0}\nop feed(X: feed) -> (Out: tab) {col: 1}\n"
           "op feed(X: feed) -> (Out: m) {col: 2}\nop where_index(Condition: m) -> (Out: i)\n"
           "op reshape2(X: i) -> (Out: c) {shape: ints[-1]}\nop gather(X: tab, Index: c) -> (Out: img) {axis: 0}\n"
           "op yolo_box(X: x, ImgSize: img) -> (Boxes: bx, Scores: sc) {anchors: ints[10, 13, 16, 30], class_num: 1, "
           "conf_thresh: 0.01, downsample_ratio: 32}\nop fetch(X: bx) -> (Out: fetch) {col: 0}\n")


@pytest.mark.parametrize("body, feeds, message", [
    (SMOOTH_IR, lambda rng, k: {"lab": rng.random((2, 4)), "p": rng.random(4), "m": np.arange(4) < k},
     "label_smooth: PriorDist does not hold one value per class"),
    (AFFINE_IR, lambda rng, k: {"x": rng.random((2, 4, 2, 2)), "s": rng.random(4), "m": np.arange(4) < k},
     "affine_channel: Scale or Bias does not hold one value per channel"),
    (YOLO_IR, lambda rng, k: {"x": rng.random((4, 12, 3, 3)), "tab": np.full((4, 2), 96, np.int32),
                              "m": (np.arange(4) < k).astype(np.float32)},
     "yolo_box: ImgSize's rows are not X's batch"),
], ids=["label_smooth_prior", "affine_channel_scale", "yolo_box_img_size"])
def test_an_operand_the_run_sizes_must_have_the_size_the_op_needs(tmp_path, body, feeds, message):
    """label_smooth's PriorDist, affine_channel's Scale and Bias and
    yolo_box's ImgSize made by masked_select / nonzero: their bound is the
    size the op needs (4 classes, 4 channels, X's batch 4), so they compile;
    a run that keeps all 4 gives Paddle's answer (label_smooth by hand:
    0.75 * lab + 0.25 * p), a run that keeps 2 stops naming the op (Paddle
    raises for the last two, and repeats a short PriorDist unchecked; these
    ran on, reading what lay past the run's count)."""
    binary = tmp_path / "bin"
    p = run(["build", ir(tmp_path, body), "-o", str(binary)])
    assert p.returncode == 0, p.stderr
    rng = np.random.default_rng(7)
    for k in (4, 2):
        args = [str(binary), "--output-dir", str(tmp_path / f"o{k}")]
        for name, v in feeds(rng, k).items():
            np.save(tmp_path / f"{name}{k}.npy", v.astype(np.float32) if v.dtype == np.float64 else v)
            args += ["--input", f"{name}={tmp_path / f'{name}{k}.npy'}"]
        r = subprocess.run(args, capture_output=True, text=True, timeout=120)
        if k == 4:
            assert r.returncode == 0, r.stderr
            if body is SMOOTH_IR:
                lab, pr = np.load(tmp_path / "lab4.npy"), np.load(tmp_path / "p4.npy")
                got = np.load(tmp_path / "o4" / "y.npy")
                assert np.allclose(got, np.float32(0.75) * lab + np.float32(0.25) * pr, rtol=1e-6), got
        else:
            assert r.returncode != 0 and message in r.stderr, r.stderr


COLLECT_IR = ("var R: float32[4, 4]\nvar S: float32[4, 1]\nvar mr: float32[4]\nvar ms: float32[4]\n"
              "var ir: int64[-1, 1]\nvar is: int64[-1, 1]\nvar cr: int64[-1]\nvar cs: int64[-1]\n"
              "var r: float32[-1, 4]\nvar s: float32[-1, 1]\nvar sh: int32[2]\nvar n0: int32[1]\n"
              "var out: float32[-1, 4]\nvar rn: int32[1]\n"
              "op feed(X: feed) -> (Out: R) {col: 0}\nop feed(X: feed) -> (Out: S) {col: 1}\n"
              "op feed(X: feed) -> (Out: mr) {col: 2}\nop feed(X: feed) -> (Out: ms) {col: 3}\n"
              "op where_index(Condition: mr) -> (Out: ir)\nop where_index(Condition: ms) -> (Out: is)\n"
              "op reshape2(X: ir) -> (Out: cr) {shape: ints[-1]}\nop reshape2(X: is) -> (Out: cs) {shape: ints[-1]}\n"
              "op gather(X: R, Index: cr) -> (Out: r) {axis: 0}\nop gather(X: S, Index: cs) -> (Out: s) {axis: 0}\n"
              "op shape(Input: r) -> (Out: sh)\nop slice(Input: sh) -> (Out: n0) {axes: ints[0], starts: ints[0], "
              "ends: ints[1], infer_flags: ints[1]}\n"
              "op collect_fpn_proposals(MultiLevelRois: [r], MultiLevelScores: [s], MultiLevelRoIsNum: [n0]) -> "
              "(FpnRois: out, RoisNum: rn) {post_nms_topN: 5}\nop fetch(X: out) -> (Out: fetch) {col: 0}\n")


def test_collect_fpn_scores_with_other_rows_than_the_rois_stop_the_run(tmp_path):
    """collect_fpn_proposals over one level whose RoIs and Scores are rows
    picked by two different nonzero masks: with both masks full, the 4 RoIs
    by descending score (by hand: one image, post_nms_topN 5 keeps all);
    with the Scores' mask keeping 2, Paddle reads past the scores (the
    probing helper saw its order change from run to run) and paddlec ran
    on with stale values: the run stops naming the op."""
    binary = tmp_path / "bin"
    p = run(["build", ir(tmp_path, COLLECT_IR), "-o", str(binary)])
    assert p.returncode == 0, p.stderr
    rng = np.random.default_rng(5)
    xy = rng.random((4, 2)).astype(np.float32) * 10
    feeds = {"R": np.concatenate([xy, xy + 2], 1), "S": rng.random((4, 1)).astype(np.float32),
             "mr": np.ones(4, np.float32)}
    for keep in (4, 2):
        feeds["ms"] = (np.arange(4) < keep).astype(np.float32)
        args = [str(binary), "--output-dir", str(tmp_path / f"o{keep}")]
        for name, v in feeds.items():
            np.save(tmp_path / f"{name}.npy", v)
            args += ["--input", f"{name}={tmp_path / f'{name}.npy'}"]
        r = subprocess.run(args, capture_output=True, text=True, timeout=120)
        if keep == 4:
            assert r.returncode == 0, r.stderr
            got = np.load(tmp_path / "o4" / "out.npy")
            assert (got == feeds["R"][np.argsort(-feeds["S"][:, 0], kind="stable")]).all(), got
        else:
            assert r.returncode != 0 and "collect_fpn_proposals" in r.stderr and "MultiLevelScores has other rows" \
                in r.stderr, r.stderr


RUN_ROWS_IR = ("var x: float32[4, 3]\nvar ids: int64[2]\nvar i: int64[-1, 2]\nvar c: int64[-1]\n"
               "var w: float32[-1, 3]\nvar e: float32[2, 3]\n"
               "op feed(X: feed) -> (Out: x) {{col: 0}}\nop feed(X: feed) -> (Out: ids) {{col: 1}}\n"
               "op where_index(Condition: x) -> (Out: i)\n"
               "op slice(Input: i) -> (Out: c) {{axes: ints[1], starts: ints[0], ends: ints[1], "
               "decrease_axis: ints[1], infer_flags: ints[1]}}\nop gather(X: x, Index: c) -> (Out: w) {{axis: 0}}\n"
               "{op}\nop fetch(X: e) -> (Out: fetch) {{col: 0}}\n")


@pytest.mark.parametrize("op, message", [
    ("op lookup_table_v2(W: w, Ids: ids) -> (Out: e) {padding_idx: -1}",
     "an id is outside [0, W's rows in this run) (Paddle raises an error)"),
    ("op gather(X: w, Index: ids) -> (Out: e) {axis: 0}",
     "an Index value is outside [0, X's dim 0 in this run) (Paddle raises an error)")], ids=["lookup", "gather"])
def test_an_index_past_rows_the_run_counts_names_them_in_words(tmp_path, op, message):
    """An embedding and a gather over the rows of x that nonzero picks (one
    row here): ids 0 and 0 read it (by hand: x's first row twice); an id of
    3 stops the run with a message that says the rows are this run's (it
    printed the model's C variable m->runtime_dims[0])."""
    binary = tmp_path / "bin"
    p = run(["build", ir(tmp_path, RUN_ROWS_IR.format(op=op)), "-o", str(binary)])
    assert p.returncode == 0, p.stderr
    x = np.zeros((4, 3), np.float32)
    x[0] = [1, 2, 3]
    np.save(tmp_path / "x.npy", x)
    for ids in ([0, 0], [0, 3]):
        np.save(tmp_path / "ids.npy", np.array(ids, np.int64))
        r = subprocess.run([str(binary), "--input", f"x={tmp_path / 'x.npy'}", "--input", f"ids={tmp_path / 'ids.npy'}",
                            "--output-dir", str(tmp_path / "o")], capture_output=True, text=True, timeout=120)
        if ids[1] == 0:
            assert r.returncode == 0 and (np.load(tmp_path / "o" / "e.npy") == x[[0, 0]]).all(), r.stderr
        else:
            assert r.returncode != 0 and message in r.stderr and "runtime_dims" not in r.stderr, r.stderr


NONZERO_HEAD = ("var x: float32[3, 3]\nvar i: int64[-1, 2]\nvar c: int64[-1]\nvar cf: float32[-1]\n"
                "op feed(X: feed) -> (Out: x) {col: 0}\nop where_index(Condition: x) -> (Out: i)\n"
                "op slice(Input: i) -> (Out: c) {axes: ints[1], starts: ints[0], ends: ints[1], "
                "decrease_axis: ints[1], infer_flags: ints[1]}\n"
                "op cast(X: c) -> (Out: cf) {in_dtype: 3, out_dtype: 5}\n")
FGEMM_T = ("var it: int64[2, -1]\nvar xt: float32[2, -1]\nvar w: float32[2, 3]\nvar b: float32[3]\n"
           "var y: float32[-1, 3]\nop transpose2(X: i) -> (Out: it) {axis: ints[1, 0]}\n"
           "op cast(X: it) -> (Out: xt) {in_dtype: 3, out_dtype: 5}\n"
           "op fill_constant() -> (Out: w) {shape: ints[2, 3], dtype: 5, value: 1.0}\n"
           "op fill_constant() -> (Out: b) {shape: ints[3], dtype: 5, value: 0.5}\n"
           "op fused_gemm_epilogue(X: xt, Y: w, Bias: b) -> (Out: y) {trans_x: true, trans_y: false, "
           "activation: \"none\"}\nop fetch(X: y) -> (Out: fetch) {col: 0}\n")
EXPAND_T = ("var cu: float32[-1, 1]\nvar s0: int32[1]\nvar s1: int32[1]\nvar y: float32[-1, 3]\n"
            "op unsqueeze2(X: cf) -> (Out: cu) {axes: ints[1]}\n"
            "op fill_constant() -> (Out: s0) {shape: ints[1], dtype: 2, value: -1.0}\n"
            "op fill_constant() -> (Out: s1) {shape: ints[1], dtype: 2, value: 3.0}\n"
            "op expand_v2(X: cu, expand_shapes_tensor: [s0, s1]) -> (Out: y) {shape: ints[]}\n"
            "op fetch(X: y) -> (Out: fetch) {col: 0}\n")


@pytest.mark.parametrize("body, want", [
    (FGEMM_T, lambda nz: np.repeat((nz.sum(1) + 0.5)[:, None], 3, 1)),
    (EXPAND_T, lambda nz: np.repeat(nz[:, :1], 3, 1))], ids=["fused_gemm_trans_x", "expand_v2_shape_tensors"])
def test_ops_after_nonzero_keep_its_count(tmp_path, body, want):
    """Ops over a tensor whose rows paddle.nonzero counts: fused_gemm_epilogue
    with trans_x (X = nonzero(x)^T, M its dim 1: Out's rows are the count;
    they were the bound's, rows past the count garbage), and expand_v2 to
    [-1, 3] given by tensors whose values are known (the -1 keeps the
    count; it was dropped there).  Expected by hand from np.argwhere."""
    binary = tmp_path / "bin"
    p = run(["build", ir(tmp_path, NONZERO_HEAD + body), "-o", str(binary)])
    assert p.returncode == 0, p.stderr
    for k, x in enumerate((np.array([[0, 1, 0], [0, 0, 0], [2, 0, 3]], np.float32), np.ones((3, 3), np.float32))):
        np.save(tmp_path / f"x{k}.npy", x)
        r = subprocess.run([str(binary), "--input", f"x={tmp_path / f'x{k}.npy'}", "--output-dir", str(tmp_path / f"o{k}")],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        got, expected = np.load(tmp_path / f"o{k}" / "y.npy"), want(np.argwhere(x).astype(np.float32))
        assert got.shape == expected.shape and (got == expected).all(), (k, got)


def test_ops_that_cannot_take_the_count_of_nonzero_refuse_it(tmp_path):
    """expand_v2 of nonzero's count to another rank and affine_grid of a
    Theta with that many rows are refused naming the op and input (both
    were compiled with the bound's rows, those past the count garbage)."""
    body = ("var s0: int32[1]\nvar s1: int32[1]\nvar y: float32[2, -1]\n"
            "op fill_constant() -> (Out: s0) {shape: ints[1], dtype: 2, value: 2.0}\n"
            "op fill_constant() -> (Out: s1) {shape: ints[1], dtype: 2, value: -1.0}\n"
            "op expand_v2(X: cf, expand_shapes_tensor: [s0, s1]) -> (Out: y) {shape: ints[]}\n"
            "op fetch(X: y) -> (Out: fetch) {col: 0}\n")
    bad(["compile", ir(tmp_path, NONZERO_HEAD + body), "-o", str(tmp_path / "o")],
        "(expand_v2 -> y): dim 0 of X ('cf') is only known at run time; expand_v2 takes it where `shape` keeps it")
    body = ("var cu: float32[-1, 1, 1]\nvar th: float32[-1, 2, 3]\nvar g: float32[-1, 2, 2, 2]\n"
            "op unsqueeze2(X: cf) -> (Out: cu) {axes: ints[1, 2]}\n"
            "op tile(X: cu) -> (Out: th) {repeat_times: ints[1, 2, 3]}\n"
            "op affine_grid(Theta: th) -> (Output: g) {output_shape: ints[1, 1, 2, 2], align_corners: true}\n"
            "op fetch(X: g) -> (Out: fetch) {col: 0}\n")
    bad(["compile", ir(tmp_path, NONZERO_HEAD + body), "-o", str(tmp_path / "o2")],
        "(affine_grid -> g): dim 0 of input Theta ('th') is only known at run time")


def test_two_run_time_extents_from_different_producers_are_checked(tmp_path):
    """The same chain adding relu of the elements one mask selects to
    those another selects: the two counts need not agree, so the run
    checks them where they meet (in the fusion_group, as alone it would):
    masks selecting as many elements (other ones) give relu(x[m]) +
    x[m2], by hand; masks selecting 3 and 2 stop the run naming the two
    tensors, where Paddle's broadcast raises an error."""
    binary = tmp_path / "bin"
    p = run(["build", ir(tmp_path, MASKED_IR.format(y="s2")), "-o", str(binary)])
    assert p.returncode == 0, p.stderr
    rng = np.random.default_rng(5)
    x = rng.standard_normal((3, 4)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    m = np.zeros((3, 4), bool)
    m[0, 1] = m[1, 2] = m[2, 0] = True
    m2 = np.zeros((3, 4), bool)
    m2[0, 0] = m2[2, 3] = m2[1, 1] = True
    m3 = m2.copy()
    m3[1, 1] = False
    for i, (a, b) in enumerate(((m, m2), (m, m3))):
        out = tmp_path / f"out{i}"
        r = run_masks(binary, tmp_path, a, b, out)
        if i == 0:
            assert r.returncode == 0, r.stderr
            got = np.load(out / "y.npy")
            assert got.shape == (3,) and np.allclose(got, np.maximum(x[a], 0) + x[b], rtol=0, atol=1e-6), got
        else:
            want = "fusion_group: 's' and 's2' have different sizes along dim 0 of 'y'"
            assert r.returncode != 0 and want in r.stderr, r.stderr
            assert not out.exists()


# top_k_v2 along dim 0 with K fed: the k largest of each column, [k, 4]
# rows known at run time; then a dense head over those rows
ROWS_IR = ("var x: float32[6, 4]\nvar k: int32[1]\nvar w: float32[4, 3]\nvar b: float32[3]\n"
           "var o: float32[-1, 4]\nvar i: int64[-1, 4]\nvar r: float32[-1, 4]\nvar xs: float32[-1]\n"
           "var h: float32[-1, 3]\nvar hb: float32[-1, 3]\nvar sm: float32[-1, 3]\nvar t: float32[-1, 3]\n"
           "op feed(X: feed) -> (Out: x) {col: 0}\nop feed(X: feed) -> (Out: k) {col: 1}\n"
           "op feed(X: feed) -> (Out: w) {col: 2}\nop feed(X: feed) -> (Out: b) {col: 3}\n"
           "op top_k_v2(K: k, X: x) -> (Indices: i, Out: o) {axis: 0, k: 1, largest: true, sorted: true}\n"
           "op reshape2(X: o) -> (Out: r, XShape: xs) {shape: ints[0, -1]}\n"
           "op matmul_v2(X: r, Y: w) -> (Out: h) {trans_x: false, trans_y: false}\n"
           "op elementwise_add(X: h, Y: b) -> (Out: hb) {axis: -1}\n"
           "op softmax(X: hb) -> (Out: sm) {axis: -1}\n"
           "op sum(X: [sm, hb]) -> (Out: t)\n"
           "op fetch(X: t) -> (Out: fetch) {col: 0}\n")


def test_the_run_s_rows_change_between_runs_of_one_binary(tmp_path):
    """One binary, K = 2, 6, 1 and 0: the rows after top_k (dim 0) go
    through reshape2 [0, -1], matmul_v2, the bias, softmax and sum, each
    run with its own row count (the GEMM's M, the loops' counts are the
    run's).  Expected by numpy: softmax(topk(x) @ w + b) + (topk(x) @ w + b)."""
    binary = tmp_path / "bin"
    p = run(["build", ir(tmp_path, ROWS_IR), "-o", str(binary)])
    assert p.returncode == 0, p.stderr
    rng = np.random.default_rng(11)
    feeds = {"x": rng.permutation(24).reshape(6, 4).astype(np.float32) / 8,
             "w": rng.standard_normal((4, 3)).astype(np.float32), "b": rng.standard_normal(3).astype(np.float32)}
    for k in (2, 6, 1, 0):
        feeds["k"] = np.array([k], np.int32)
        args = [str(binary), "--output-dir", str(tmp_path / f"o{k}")]
        for name, v in feeds.items():
            np.save(tmp_path / f"{name}.npy", v)
            args += ["--input", f"{name}={tmp_path / f'{name}.npy'}"]
        r = subprocess.run(args, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        h = (-np.sort(-feeds["x"], axis=0)[:k]).astype(np.float64) @ feeds["w"] + feeds["b"]
        e = np.exp(h - h.max(axis=1, keepdims=True)) if k else h
        want = (e / e.sum(axis=1, keepdims=True) if k else h) + h
        got = np.load(tmp_path / f"o{k}" / "t.npy")
        assert got.shape == (k, 3) and np.allclose(got, want, rtol=1e-5, atol=1e-5), (k, got, want)


def test_a_fetched_run_time_extent_has_the_run_s_rows(tmp_path):
    """top_k's Out fetched: the buffer is sized for the bound (k = 8), the
    .npy the driver writes (PREFIX_output_run_shape) has the k of each run.
    The expected values by hand: largest, sorted top_k_v2 gives each row's
    k largest values in descending order (distinct values: no ties)."""
    for k, x, got in topk_runs(tmp_path, topk_ir(tmp_path, "", fetched="o"), (3, 8, 0), "o"):
        assert got.shape == (3, k) and (got == -np.sort(-x, axis=1)[:, :k]).all(), (k, got)


def topk_runs(tmp_path, program, ks, fetched):
    """Builds `program` (TOPK_IR) and runs it on one x for each k; yields
    (k, x, the fetched array)."""
    binary = tmp_path / "bin"
    p = run(["build", program, "-o", str(binary)])
    assert p.returncode == 0, p.stderr
    x = np.random.default_rng(5).permutation(24).reshape(3, 8).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    for k in ks:
        np.save(tmp_path / "k.npy", np.array([k], np.int32))
        out = tmp_path / f"out{k}"
        r = subprocess.run([str(binary), "--input", f"x={tmp_path / 'x.npy'}", "--input", f"k={tmp_path / 'k.npy'}",
                            "--output-dir", str(out)], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        yield k, x, np.load(out / f"{fetched}.npy")


def test_a_reduction_keeping_the_run_time_dim_passes_it_on(tmp_path):
    """reduce_sum over dim 0 keeps dim 1, the run-time extent k, in Out (the
    sum of the k largest of each row, column by column; by hand), and
    reduce_max over dim 0 with keep_dim gives [1, k]."""
    for op, y, want in (("reduce_sum(X: o) -> (Out: y) {dim: ints[0], keep_dim: false, reduce_all: false}", "-1",
                         lambda t: t.sum(0)),
                        ("reduce_max(X: o) -> (Out: y) {dim: ints[0], keep_dim: true, reduce_all: false}", "1, -1",
                         lambda t: t.max(0, keepdims=True))):
        for k, x, got in topk_runs(tmp_path, topk_ir(tmp_path, "op " + op, y=y), (3, 8, 1), "y"):
            top = -np.sort(-x, axis=1)[:, :k]
            assert got.shape == want(top).shape and (got == want(top)).all(), (op, k, got)


def test_reduced_over_the_run_time_dim_compiles(tmp_path):
    """The same program reducing dim 1, the run-time extent, reads it: the
    generated code takes the reduced count from runtime_dims."""
    f = topk_ir(tmp_path, "op reduce_sum(X: o) -> (Out: y) {dim: ints[1], keep_dim: false, reduce_all: false}")
    p = run(["compile", f, "-o", str(tmp_path / "out")])
    assert p.returncode == 0, p.stderr
    code = (tmp_path / "out" / "model.c").read_text()
    assert "m->runtime_dims[" in code and "int64_t runtime_dims[2];" in (tmp_path / "out" / "model.h").read_text()


def test_k_outside_its_axis_or_nothing_to_reduce_stops_the_run(tmp_path):
    """The OHEM case (top_k v1 over the 600 elements of a [2, 5, 60] batch,
    k counted and k fed, each sum and mean): with Paddle's inputs it
    matches (test_e2e_ops); a fed k of -1 or 601 stops the run with an error
    naming K, as does a k of 0 at the reduction after it (Paddle 2.6
    refuses to reduce an empty tensor)."""
    out, names = cases("topk")
    fixture = f"{out}/top_k_tensor_k_ohem"
    binary = build(fixture, tmp_path, "--blas=none")
    feeds = [np.load(f"{fixture}/input_{i}.npy") for i in range(4)]  # ties, k_one, k_seven, k_all
    for i, k, want in ((2, -1, "K ('k_seven') is below 0 or above dim 0 of X"),
                       (3, 601, "K ('k_all') is below 0 or above dim 0 of X"),
                       (1, 0, "is empty at run time, and Paddle does not reduce an empty tensor")):
        args = [str(binary), "--output-dir", str(tmp_path / "o")]
        for j, x in enumerate(feeds):
            if j == i:
                x = np.array([k], np.int32)
            np.save(tmp_path / f"in{j}.npy", x)
            args += ["--input", f"{['ties', 'k_one', 'k_seven', 'k_all'][j]}={tmp_path / f'in{j}.npy'}"]
        p = subprocess.run(args, capture_output=True, text=True, timeout=600)
        assert p.returncode != 0 and want in p.stderr, (k, p.returncode, p.stdout[-500:], p.stderr[-1500:])


def test_nms_without_index_is_refused(tmp_path):
    """A multiclass_nms3 with no Index (Paddle 2.6's Python builder always
    adds one; a hand-made program may not): Paddle's kernel then writes a
    [1, 1] Out holding -1 when it keeps nothing, a shape the plan cannot
    give Out [rows, 6]: refused by name."""
    f = ir(tmp_path, "var b: float32[-1, 6, 4]\nvar s: float32[-1, 3, 6]\nvar o: float32[-1, 6]\nvar n: int32[-1]\n"
           "op feed(X: feed) -> (Out: b) {col: 0}\nop feed(X: feed) -> (Out: s) {col: 1}\n"
           "op multiclass_nms3(BBoxes: b, Scores: s) -> (NmsRoisNum: n, Out: o) "
           "{background_label: 0, keep_top_k: 10, nms_eta: 1.0, nms_threshold: 0.3, nms_top_k: -1, normalized: true, "
           "score_threshold: 0.1}\nop fetch(X: o) -> (Out: fetch) {col: 0}\n")
    bad(["compile", f, "-o", str(tmp_path / "out")], "(multiclass_nms3 -> ", "without Index is not supported",
        "[1, 1] holding -1")
    assert not (tmp_path / "out").exists()


def test_nan_in_a_sorted_unique_stops_the_run(tmp_path):
    """paddle.unique of a NaN: Paddle orders it through std::set, which NaN
    leaves without an order; the run stops with an error naming X (the
    same binary runs the case's own inputs: test_e2e_ops)."""
    out, names = cases("select")
    fixture = f"{out}/unique"
    binary = build(fixture, tmp_path, "--blas=none")
    args = [str(binary), "--output-dir", str(tmp_path / "o")]
    for i, name in enumerate(("dup_f", "i32", "dup_d")):
        x = np.load(f"{fixture}/input_{i}.npy")
        if name == "dup_d":
            x[3] = np.nan
        np.save(tmp_path / f"in{i}.npy", x)
        args += ["--input", f"{name}={tmp_path / f'in{i}.npy'}"]
    p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert p.returncode != 0 and "X ('dup_d') holds NaN" in p.stderr, (p.returncode, p.stderr[-1500:])


def test_roisnum_that_does_not_add_up_stops_the_run(tmp_path):
    """roi_align reads each RoI's image from RoisNum; counts that do not add
    up to the RoIs (Paddle's kernel then reads or writes past its list of
    images) or a negative count stop the run with an error naming RoisNum
    and ROIs (the same binary runs the case's own inputs: test_e2e_ops)."""
    out, names = cases("detection")
    fixture = f"{out}/roi_align"
    binary = build(fixture, tmp_path, "--blas=none")
    for counts in ([2, 4], [-1, 6]):
        args = [str(binary), "--output-dir", str(tmp_path / "o")]
        for i, name in enumerate(("x", "rois", "roisnum", "roisnum0")):
            v = np.load(f"{fixture}/input_{i}.npy")
            if name == "roisnum":
                v = np.array(counts, "int32")
            np.save(tmp_path / f"in{i}.npy", v)
            args += ["--input", f"{name}={tmp_path / f'in{i}.npy'}"]
        p = subprocess.run(args, capture_output=True, text=True, timeout=600)
        assert p.returncode != 0 and "RoisNum ('roisnum') does not add up to the rows of ROIs ('rois')" in p.stderr, (
            counts, p.returncode, p.stderr[-1500:])


def run_with_counts(tmp_path, fixture, binary, feed, counts):
    """Runs `binary` on the fixture's inputs with feed `feed` replaced by
    `counts` (int32); the finished process."""
    import json
    with open(f"{fixture}/paddle.json") as f:
        feeds = json.load(f)["feeds"]
    args = [str(binary), "--output-dir", str(tmp_path / "o")]
    for i, name in enumerate(feeds):
        v = np.array(counts, "int32") if name == feed else np.load(f"{fixture}/input_{i}.npy")
        np.save(tmp_path / f"in{i}.npy", v)
        args += ["--input", f"{name}={tmp_path / f'in{i}.npy'}"]
    return subprocess.run(args, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("case, message", [
    ("distribute_fpn_proposals", "RoisNum ('fpnnum') does not add up to the rows of FpnRois ('fpnrois')"),
    ("collect_fpn_proposals", "a level's MultiLevelRoIsNum does not add up to its rows of MultiLevelRois")])
def test_fpn_counts_that_do_not_add_up_stop_the_run(tmp_path, case, message):
    """distribute_fpn_proposals and collect_fpn_proposals read each RoI's
    image from the counts fed as `fpnnum` (40 RoIs: 15 and 25 in the cases);
    counts that do not add up (Paddle reads past its RoIs or distributes only
    the first) or a negative count stop the run with an error (the same
    binary runs the case's own inputs: test_e2e_ops)."""
    out, _ = cases("detection")
    fixture = f"{out}/{case}"
    binary = build(fixture, tmp_path, "--blas=none")
    for counts in ([15, 24], [-1, 41]):
        p = run_with_counts(tmp_path, fixture, binary, "fpnnum", counts)
        assert p.returncode != 0 and message in p.stderr, (counts, p.returncode, p.stderr[-1500:])


@pytest.mark.parametrize("lod, message", [
    (None, "input 'x' is a LoD tensor (lod_level 1) but was given no LoD"),
    ("1,3,3,4,8,9", "input 'x': its LoD does not start at 0"),
    ("0,3,2,4,8,9", "input 'x': its LoD offsets decrease"),
    ("0,3,3,4,8", "input 'x': its LoD does not end at its rows (dim 0)"),
    ("0,0,0,0,0,0,0,0,0,0,9", "input 'x': its LoD has more sequences than rows"),
])
def test_a_lod_feed_without_a_fitting_lod_stops_the_run(tmp_path, lod, message):
    """tests/oracle/e2e_lod.py's pool_all (sequence_pool of a [9, 5] feed of
    lod_level 1): a run without --lod, or with offsets that do not start at
    0, decrease, end before the rows or make more sequences than rows
    (Paddle's sequence_pool check), fails naming the input, before any
    kernel runs."""
    out, _ = cases("lod")
    binary = build(f"{out}/pool_all", tmp_path, "--blas=none")
    args = [str(binary), "--input", f"x={out}/pool_all/input_0.npy", "--output-dir", str(tmp_path / "o")]
    r = subprocess.run(args + (["--lod", f"x={lod}"] if lod else []), capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and message in r.stderr, r.stderr
    assert not (tmp_path / "o").exists()


def test_a_lod_only_fetches_carry_may_be_left_out(tmp_path):
    """e2e_lod's first_input_lod: no kernel reads x's LoD, two fetches carry
    it (tests/test_e2e_ops.py: as Paddle returns them, given --lod).  Run
    without it, as Paddle runs a LoD feed fed a plain array, every output
    is the same and none carries a LoD; with a bad one the run stops."""
    out, _ = cases("lod")
    d = f"{out}/first_input_lod"
    binary = build(d, tmp_path, "--blas=none")
    args = [str(binary), "--input", f"x={d}/input_0.npy", "--input", f"y={d}/input_1.npy", "--output-dir"]
    r = subprocess.run(args + [str(tmp_path / "o")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    outs = sorted(os.listdir(tmp_path / "o"))
    assert len(outs) == 4 and all(f.endswith(".npy") for f in outs), outs
    for i, f in enumerate(outs):
        assert np.allclose(np.load(tmp_path / "o" / f), np.load(f"{d}/output_{i}.npy"), rtol=1e-5, atol=1e-6), f
    r = subprocess.run(args + [str(tmp_path / "p"), "--lod", "x=0,3,9,4"], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 1 and "input 'x': its LoD offsets decrease" in r.stderr, r.stderr


def test_lod_given_to_an_input_without_one_is_refused(tmp_path):
    """--lod for a name the model lacks: the driver says so; every run of
    the model still needs the LoD of its real input."""
    out, _ = cases("lod")
    binary = build(f"{out}/pool_all", tmp_path, "--blas=none")
    r = subprocess.run([str(binary), "--input", f"x={out}/pool_all/input_0.npy", "--lod", "y=0,9", "--lod",
                        "x=0,9", "--output-dir", str(tmp_path / "o")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "error: --lod y: the model has no such input" in r.stderr, r.stderr


def test_lod_for_an_input_that_takes_none_is_refused(tmp_path):
    """e2e_lod's pool_beside_a_plain_feed: y has no LoD (lod_level 0), so
    <prefix>_set_input_lod refuses one for it (ERR_ARG, naming y), and the
    driver stops before running."""
    out, _ = cases("lod")
    d = f"{out}/pool_beside_a_plain_feed"
    binary = build(d, tmp_path, "--blas=none")
    r = subprocess.run([str(binary), "--input", f"x={d}/input_0.npy", "--input", f"y={d}/input_1.npy", "--lod",
                        "x=0,3,3,4,8,9", "--lod", "y=0,9", "--output-dir", str(tmp_path / "o")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "error: --lod y: set_input_lod: input 'y' takes no LoD" in r.stderr, r.stderr


@pytest.mark.parametrize("lod, message", [
    (None, "input 'scores' is a LoD tensor (lod_level 2) but was given no LoD"),
    ("0,1,3,4,5,7", "input 'scores' is a LoD tensor (lod_level 2) but was given no level 0"),
    ("0,2,5/0,1,3,4,5,7/0,7", "expected NAME=offset,offset,... or, for two levels"),
    ("1,2,5/0,1,3,4,5,7", "input 'scores': its LoD's level 0 does not start at 0"),
    ("0,3,2,5/0,1,3,4,5,7", "input 'scores': its LoD's level 0 decreases"),
    ("0,2,4/0,1,3,4,5,7", "input 'scores': its LoD's level 0 does not end at level 1's sequences"),
    ("0,2,5/0,1,3,4,5,6", "input 'scores': its LoD does not end at its rows (dim 0)"),
    ("0,0,0,0,0,0,2,5/0,1,3,4,5,7", "input 'scores': its LoD's level 0 has more sequences than level 1"),
])
def test_a_two_level_lod_feed_without_a_fitting_lod_stops_the_run(tmp_path, lod, message):
    """e2e_beam's two_levels (beam_search over scores [7, 4] of lod_level
    2, LoD [[0, 2, 5], [0, 1, 3, 4, 5, 7]]): a run without --lod, with one
    level only, with three, or with a level 0 that does not start at 0,
    decreases or does not end at level 1's 5 sequences (or a level 1 not at
    the rows), or that has more sequences than level 1 (7 empty ones: the
    LoD beam_search makes has no room for them; Paddle takes them), fails
    naming the input, before any kernel runs."""
    out, _ = cases("beam")
    d = f"{out}/two_levels"
    binary = build(d, tmp_path, "--blas=none")
    args = [str(binary)] + [a for i, n in enumerate(["pre_ids", "pre_scores", "ids", "scores"])
                            for a in ("--input", f"{n}={d}/input_{i}.npy")] + ["--output-dir", str(tmp_path / "o")]
    r = subprocess.run(args + (["--lod", f"scores={lod}"] if lod else []), capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and message in r.stderr, r.stderr
    assert not (tmp_path / "o").exists()


def test_beam_search_prefixes_that_scores_outnumber_stop_the_run(tmp_path):
    """e2e_beam's fixed_prefixes (pre_ids, pre_scores [7, 1]; scores [B, 4])
    run with 9 rows of scores: Paddle reads past pre_ids; paddlec stops the
    run naming beam_search.  (The driver takes the batch from ids, the first
    input whose dim 0 is the batch, not from pre_ids.)"""
    out, _ = cases("beam")
    d = f"{out}/fixed_prefixes"
    binary = build(d, tmp_path, "--blas=none")
    for i in (2, 3):
        x = np.load(f"{d}/input_{i}.npy")
        np.save(tmp_path / f"in{i}.npy", np.concatenate([x, x[:2]]))
    args = [str(binary), "--input", f"pre_ids={d}/input_0.npy", "--input", f"pre_scores={d}/input_1.npy",
            "--input", f"ids={tmp_path}/in2.npy", "--input", f"scores={tmp_path}/in3.npy",
            "--lod", "scores=0,2,6/0,1,3,4,5,7,9", "--output-dir", str(tmp_path / "o")]
    r = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "beam_search" in r.stderr and "fewer rows than scores" in r.stderr, r.stderr


@pytest.mark.parametrize("real", [[[5, 6.5], [-1, 3]], [[5, 6.5], [2, 0]], [[float("nan"), 3], [2, 3]],
                                  [[60, 70], [60, 70]]])
def test_im2sequence_real_sizes_that_paddle_cannot_take_stop_the_run(tmp_path, real):
    """e2e_lod_made's im2seq_real_sizes (2 images of 5 x 7, kernels 2 x 3):
    a negative or NaN real size, one that makes no patch (Paddle's Slice
    refuses the empty image) or sizes making more patches than the images
    have (the bound) stop the run with the kernel's error; with one image
    Y is not read (Paddle's kernel ignores it)."""
    from test_e2e_ops import cases as e2e_cases
    out, _ = e2e_cases("lod_made")
    d = f"{out}/im2seq_real_sizes"
    binary = build(d, tmp_path, "--blas=none")
    np.save(tmp_path / "real.npy", np.array(real, "float32"))
    args = [str(binary), "--input", f"x={d}/input_0.npy", "--input", f"real={tmp_path}/real.npy",
            "--output-dir", str(tmp_path / "o")]
    r = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "Y holds a real size that is negative" in r.stderr, r.stderr
    x1 = np.load(f"{d}/input_0.npy")[:1]
    np.save(tmp_path / "x1.npy", x1)
    np.save(tmp_path / "real1.npy", np.array(real[:1], "float32"))
    r = subprocess.run([str(binary), "--input", f"x={tmp_path}/x1.npy", "--input", f"real={tmp_path}/real1.npy",
                        "--output-dir", str(tmp_path / "o1")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("lod", ["0,4,4,11,14", "0,2,4,5,6,11,14"])
def test_box_clip_of_an_image_without_boxes_or_info_stops_the_run(tmp_path, lod):
    """e2e_lod_made's box_clip (boxes [14, 4] in 5 images, ImInfo [5, 3]): an
    image without boxes, or 6 images for 5 rows of ImInfo, make Paddle's
    Slice fail; the run stops with the kernel's error (and runs with the
    fitting LoD)."""
    from test_e2e_ops import cases as e2e_cases
    out, _ = e2e_cases("lod_made")
    d = f"{out}/box_clip"
    binary = build(d, tmp_path, "--blas=none")
    args = [str(binary), "--input", f"boxes={d}/input_0.npy", "--input", f"im_info={d}/input_1.npy",
            "--output-dir", str(tmp_path / "o")]
    r = subprocess.run(args + ["--lod", "boxes=0,4,5,6,11,14"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    r = subprocess.run(args + ["--lod", f"boxes={lod}"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "an image without boxes or more images than ImInfo has rows" in r.stderr, r.stderr


@pytest.mark.parametrize("bad", [6, -1])
def test_a_crf_length_outside_the_padded_rows_stops_the_run(tmp_path, bad):
    """e2e_lod_rnn's crf_padded (Emission [14, 5, 4], Length [14]): a length
    above S = 5 or below 0 would make Paddle read past the row; the run
    stops with the kernel's error instead of clamping it."""
    out, _ = cases("lod_rnn")
    d = f"{out}/crf_padded"
    binary = build(d, tmp_path, "--blas=none")
    length = np.load(f"{d}/input_2.npy")
    length[3] = bad
    np.save(tmp_path / "length.npy", length)
    r = subprocess.run([str(binary), "--input", f"e={d}/input_0.npy", "--input", f"label={d}/input_1.npy", "--input",
                        f"length={tmp_path / 'length.npy'}", "--output-dir", str(tmp_path / "o")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "a Length value is negative or above Emission's padded length" in r.stderr, r.stderr


def test_gru_with_more_sequences_than_h0_rows_stops_the_run(tmp_path):
    """e2e_lod_rnn's gru_h0 (H0 [5, 4], x [14, 12] in 5 sequences): run with
    6 sequences, the sixth would start from a row H0 does not have (Paddle
    reads past its end); the run stops with the kernel's error."""
    out, _ = cases("lod_rnn")
    d = f"{out}/gru_h0"
    binary = build(d, tmp_path, "--blas=none")
    args = [str(binary), "--input", f"x={d}/input_0.npy", "--input", f"h0={d}/input_1.npy",
            "--output-dir", str(tmp_path / "o")]
    ok = subprocess.run(args + ["--lod", "x=0,3,4,8,9,14"], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    r = subprocess.run(args + ["--lod", "x=0,3,4,8,9,12,14"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "H0 has fewer rows than Input has sequences" in r.stderr, r.stderr


def test_lstm_with_more_sequences_than_h0_rows_stops_the_run(tmp_path):
    """e2e_lod_rnn's lstm_h0_c0 (H0 and C0 [5, 4], x [14, 16] in 5
    sequences; one lstm with C0 alone): with 6 sequences the sixth would
    start from rows H0 and C0 do not have (Paddle reads past their end);
    the run stops with the kernel's error."""
    out, _ = cases("lod_rnn")
    d = f"{out}/lstm_h0_c0"
    binary = build(d, tmp_path, "--blas=none")
    args = [str(binary), "--input", f"x={d}/input_0.npy", "--input", f"h0={d}/input_1.npy", "--input",
            f"c0={d}/input_2.npy", "--output-dir", str(tmp_path / "o")]
    ok = subprocess.run(args + ["--lod", "x=0,3,4,8,9,14"], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    r = subprocess.run(args + ["--lod", "x=0,3,4,8,9,12,14"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "H0 / C0 has fewer rows than Input has sequences" in r.stderr, r.stderr
def run_lod_ops_case(tmp_path, name, change=None, lods=None, family="lod_ops"):
    """Builds e2e_<family>'s case `name` and runs it on its inputs, with
    change(i, array) replacing input i where it returns one, and the LoDs
    {feed: offsets} of lods over the case's own (if it has any)."""
    import json
    out, _ = cases(family)
    d = f"{out}/{name}"
    binary = build(d, tmp_path, "--blas=none")
    with open(f"{d}/paddle.json") as f:
        feeds = json.load(f)["feeds"]
    offsets = dict(lods or {})
    if os.path.exists(f"{d}/lod.json"):
        with open(f"{d}/lod.json") as f:
            offsets = {**json.load(f), **offsets}
    args = [str(binary), "--output-dir", str(tmp_path / "o")]
    for i, feed in enumerate(feeds):
        x = np.load(f"{d}/input_{i}.npy")
        y = change(i, x.copy()) if change else None
        if y is not None:
            np.save(tmp_path / f"input_{i}.npy", y)
        args += ["--input", f"{feed}={tmp_path / f'input_{i}.npy' if y is not None else f'{d}/input_{i}.npy'}"]
    for feed, o in offsets.items():
        args += ["--lod", f"{feed}={','.join(map(str, o))}"]
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def set_at(index, at, value):
    """change() for run_lod_ops_case: input `index`'s flat element `at` = value."""
    def change(i, x):
        if i != index:
            return None
        x.reshape(-1)[at] = value
        return x
    return change


@pytest.mark.parametrize("name, change, lods, message", [
    # Refs' LoD with 5 sequences for Hyps' 6: Paddle reads past Refs' offsets
    ("ed_lod", None, {"r": [0, 2, 2, 5, 6, 12]}, "Refs' LoD has fewer sequences than Hyps'"),
    # normalized over an empty reference: Paddle's "Reference string 2 is empty"
    ("ed_lod_normalized", None, {"r": [0, 2, 2, 5, 6, 11, 14]}, "or an empty reference (normalized)"),
    # padded: a HypsLength above Hyps' width 5, a negative RefsLength, an empty reference when normalized
    ("ed_padded", set_at(2, 1, 6), None, "a length outside [0, Hyps' or Refs' dim 1]"),
    ("ed_padded", set_at(3, 4, -1), None, "a length outside [0, Hyps' or Refs' dim 1]"),
    ("ed_padded_normalized", set_at(3, 2, 0), None, "or an empty reference (normalized)"),
    # linear_chain_crf: a label of 4 tags' 4, a negative one (Paddle checks the largest only), a Length above S
    ("crf_lod", set_at(1, 5, 4), None, "a Label outside [0, D)"),
    ("crf_lod", set_at(1, 13, -1), None, "a Label outside [0, D)"),
    ("crf_padded", set_at(3, 2, 6), None, "a Length outside [0, S]"),
])
def test_lod_ops_values_paddle_does_not_take_stop_the_run(tmp_path, name, change, lods, message):
    """e2e_lod_ops' edit_distance and linear_chain_crf cases run with a LoD
    or a value Paddle stops on or reads past for: the run stops with the
    kernel's error (ERR_SHAPE, exit 1)."""
    r = run_lod_ops_case(tmp_path, name, change, lods)
    assert r.returncode == 1 and message in r.stderr, r.stderr


@pytest.mark.parametrize("name, change, lods, message", [
    # padded (Logits [6, 4, 5], Label [4, 3], inputs x, lab_b0, tlen, llen):
    # a LogitsLength above 6, one of 0 steps, a LabelLength above 3, a label of 5 classes' 5
    ("pad_blank0", set_at(2, 0, 7), None, "a length outside [1, Logits' dim 0]"),
    ("pad_blank0", set_at(2, 1, 0), None, "a length outside [1, Logits' dim 0]"),
    ("pad_blank0", set_at(3, 2, 4), None, "a length outside [1, Logits' dim 0] ([0, Label's dim 1])"),
    ("pad_blank0", set_at(1, 0, 5), None, "or a label outside [0, C)"),
    # LoD: a Logits sequence of no steps (warp-ctc reads a step it lacks); 4 label sequences for 5
    ("lod_blank0", None, {"x": [0, 3, 4, 4, 10, 15]}, "a sequence of no steps"),
    ("lod_blank0", None, {"lab_b0": [0, 2, 2, 5, 12]}, "or LoDs of different counts"),
])
def test_warpctc_values_paddle_does_not_take_stop_the_run(tmp_path, name, change, lods, message):
    """e2e_warpctc's cases with a length, label or LoD that Paddle's kernel
    (warp-ctc) reads past for: the run stops with the kernel's error."""
    r = run_lod_ops_case(tmp_path, name, change, lods, family="warpctc")
    assert r.returncode == 1 and message in r.stderr, r.stderr


def test_edit_distance_refs_with_more_sequences_run(tmp_path):
    """ed_lod with Refs' LoD in 7 sequences for Hyps' 6: Paddle pairs the
    first 6 (e2e_lod_ops' ed_more_refs checks the numbers); the run goes on."""
    r = run_lod_ops_case(tmp_path, "ed_lod", None, {"r": [0, 2, 2, 5, 6, 11, 11, 12]})
    assert r.returncode == 0, r.stderr


def test_a_negative_accuracy_label_stops_the_run(tmp_path):
    """e2e_gru_unit's accuracy_f32 (x [5, 6], labels y [5, 1]): a negative
    label makes Paddle's accuracy kernel refuse the run
    (PADDLE_ENFORCE_GE); the run stops with the kernel's error."""
    out, _ = cases("gru_unit")
    d = f"{out}/accuracy_f32"
    binary = build(d, tmp_path, "--blas=none")
    y = np.load(f"{d}/input_1.npy")
    y[2, 0] = -1
    np.save(tmp_path / "y.npy", y)
    r = subprocess.run([str(binary), "--input", f"x={d}/input_0.npy", "--input", f"y={tmp_path / 'y.npy'}",
                        "--output-dir", str(tmp_path / "o")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "a Label is negative" in r.stderr, r.stderr
@pytest.mark.parametrize("case_name,args,message", [
    # a sequence of 3 rows x 4 columns does not divide into rows of 8
    ("reshape_wider", ["--lod", "x=0,3,4,6,12,14"], "a sequence's size (its rows x X's width) does not divide by new_dim"),
    # a sequence of 8 steps does not fit padded_length 7
    ("pad_scalar", ["--lod", "x=0,8,8,9,12,14"], "a sequence is longer than padded_length"),
])
def test_a_lod_the_op_cannot_take_stops_the_run(tmp_path, case_name, args, message):
    """e2e_lod_seq's sequence_reshape and sequence_pad cases run with a LoD
    that Paddle's kernels raise for: the run stops with the kernel's error."""
    out, _ = cases("lod_seq")
    d = f"{out}/{case_name}"
    binary = build(d, tmp_path, "--blas=none")
    inputs = ["--input", f"x={d}/input_0.npy"] + (["--input", f"pv={d}/input_1.npy"] if case_name == "pad_scalar" else [])
    r = subprocess.run([str(binary)] + inputs + args + ["--output-dir", str(tmp_path / "o")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and message in r.stderr, r.stderr


@pytest.mark.parametrize("bad", [6, -1])
def test_an_unpad_length_outside_the_padded_rows_stops_the_run(tmp_path, bad):
    """e2e_lod_seq's unpad_rank3 (X [3, 5, 2]): a Length above 5 (Paddle
    raises) or below 0 stops the run."""
    out, _ = cases("lod_seq")
    d = f"{out}/unpad_rank3"
    binary = build(d, tmp_path, "--blas=none")
    length = np.load(f"{d}/input_1.npy")
    length[0] = bad
    np.save(tmp_path / "length.npy", length)
    r = subprocess.run([str(binary), "--input", f"p={d}/input_0.npy", "--input", f"len3={tmp_path / 'length.npy'}",
                        "--output-dir", str(tmp_path / "o")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "a Length is outside [0, X's dim 1]" in r.stderr, r.stderr
def test_sequence_expand_of_lods_with_different_sequence_counts_stops_the_run(tmp_path):
    """e2e_seq_expand's expand_float32 (x's LoD of 4 sequences by y's 4) run
    with x's LoD in 5 sequences: Paddle's InferShape raises; the run stops
    with the kernel's error."""
    out, _ = cases("seq_expand")
    d = f"{out}/expand_float32"
    binary = build(d, tmp_path, "--blas=none")
    r = subprocess.run([str(binary), "--input", f"x={d}/input_0.npy", "--input", f"y={d}/input_1.npy",
                        "--lod", "x=0,3,3,5,7,9", "--lod", "y=0,2,3,3,8", "--output-dir", str(tmp_path / "o")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "X's LoD and Y's have different numbers of sequences" in r.stderr, r.stderr


def test_multiclass_nms_keeping_nothing_stops_the_run(tmp_path):
    """multiclass_nms (no Index) keeping no box: Paddle writes Out [1, 1] =
    {-1} with the LoD {0, 1}, a shape the plan cannot give Out [rows, 6];
    the run stops with an error saying so (the same binary runs the case's
    own inputs: test_e2e_ops, family nms_lod)."""
    out, names = cases("nms_lod")
    fixture = f"{out}/multiclass_nms"
    binary = build(fixture, tmp_path, "--blas=none")
    args = [str(binary), "--output-dir", str(tmp_path / "o")]
    for i, name in enumerate(("boxes", "scores", "nboxes", "qscores", "sparse")):
        x = np.load(f"{fixture}/input_{i}.npy")
        if "scores" in name or name == "sparse":
            x[...] = 0
        np.save(tmp_path / f"in{i}.npy", x)
        args += ["--input", f"{name}={tmp_path / f'in{i}.npy'}"]
    p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert p.returncode != 0 and "multiclass_nms kept no box" in p.stderr and "[1, 1] = {-1}" in p.stderr, (
        p.returncode, p.stderr[-1500:])


def test_fed_slice_bounds_that_end_before_they_start_stop_the_run(tmp_path):
    """tests/oracle/e2e_shape_feeds.py's slice_starts_tensor (StartsTensor
    fed, ends 4 and 5 from the attribute): with Paddle's inputs it matches
    (test_e2e_ops); starts [5, 0] end axis 1 before they start, where
    Paddle stops (CheckAndUpdateSliceAttrs: "end should be greater than
    start"), and so does the run, naming the slice."""
    out, names = cases("shape_feeds")
    fixture = f"{out}/slice_starts_tensor"
    binary = build(fixture, tmp_path, "--blas=none")
    np.save(tmp_path / "s.npy", np.array([5, 0], np.int64))
    args = [str(binary), "--input", f"x={fixture}/input_0.npy", "--input", f"s={tmp_path / 's.npy'}", "--output-dir",
            str(tmp_path / "o")]
    p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert p.returncode != 0 and "_slice: slice: " in p.stderr and "end before they start" in p.stderr, \
        (p.returncode, p.stdout[-500:], p.stderr[-1500:])
    np.save(tmp_path / "s.npy", np.array([4, 0], np.int64))  # an empty axis is fine
    p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-1500:]
    assert np.load(tmp_path / "o" / os.listdir(tmp_path / "o")[0]).shape == (3, 0, 5)


SLICE_LAST_IR = ("var x: float32[2, {n}, 5]\nvar st: int64[1]\nvar en: int64[1]\nvar y: float32[2, -1, 5]\n"
                 "var z: float32[2, 5]\n"
                 "op feed(X: feed) -> (Out: x) {{col: 0}}\nop feed(X: feed) -> (Out: st) {{col: 1}}\n"
                 "op feed(X: feed) -> (Out: en) {{col: 2}}\n"
                 "op slice(Input: x, StartsTensor: st, EndsTensor: en) -> (Out: y) {{axes: ints[1], starts: ints[-1], "
                 "ends: ints[-1], infer_flags: ints[-1], decrease_axis: ints[]}}\n"
                 "op slice(Input: x, StartsTensor: st, EndsTensor: en) -> (Out: z) {{axes: ints[1], starts: ints[-1], "
                 "ends: ints[-1], infer_flags: ints[-1], decrease_axis: ints[1]}}\n"
                 "op fetch(X: y) -> (Out: fetch) {{col: 0}}\nop fetch(X: z) -> (Out: fetch) {{col: 1}}\n")


@pytest.mark.parametrize("n", [1, 3])
def test_fed_slice_from_minus_one_to_zero_is_the_last_element_only_on_a_dropped_axis(tmp_path, n):
    """paddle.slice(x, [1], st, en) with st = -1, en = 0 fed: on a kept
    axis of 1 that is x[:, -1:0], empty (Paddle 2.6 gives [2, 0, 5],
    measured), on one of 3 the end is before the start, where Paddle stops
    and so does the run; on a decreased axis (x[:, t] with t = -1 a tensor)
    it is x[:, -1].  The kept axis gave the last element (a wrong shape, or
    a result where Paddle stops).  By hand with numpy."""
    binary = tmp_path / "bin"
    p = run(["build", ir(tmp_path, SLICE_LAST_IR.format(n=n)), "-o", str(binary)])
    assert p.returncode == 0, p.stderr
    x = np.arange(10 * n, dtype=np.float32).reshape(2, n, 5)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "st.npy", np.array([-1], np.int64))
    np.save(tmp_path / "en.npy", np.array([0], np.int64))
    r = subprocess.run([str(binary), *sum((["--input", f"{v}={tmp_path / (v + '.npy')}"] for v in ("x", "st", "en")), []),
                        "--output-dir", str(tmp_path / "o")], capture_output=True, text=True, timeout=120)
    if n == 3:
        assert r.returncode != 0 and "end before they start" in r.stderr, r.stderr
        return
    assert r.returncode == 0, r.stderr
    assert np.load(tmp_path / "o" / "y.npy").shape == (2, 0, 5)
    assert np.array_equal(np.load(tmp_path / "o" / "z.npy"), x[:, -1])


def test_concat_along_a_fed_axis_of_inputs_that_follow_the_batch_is_refused(tmp_path):
    """paddle.concat([x, y], axis=ax) with ax fed and x, y [-1, 4]: the
    kernel's cases are the inputs' dims as numbers, which follow the batch
    here; it compiled, with one probe's batch frozen in, and refused every
    run (a probing helper found it).  Refused naming X and --shape; with the
    batch fixed it builds."""
    body = ("var x: float32[-1, 4]\nvar y: float32[-1, 4]\nvar ax: int32[1]\nvar o: float32[-1, -1]\n"
            "op feed(X: feed) -> (Out: x) {col: 0}\nop feed(X: feed) -> (Out: y) {col: 1}\n"
            "op feed(X: feed) -> (Out: ax) {col: 2}\n"
            "op concat(X: [x, y], AxisTensor: ax) -> (Out: o) {axis: 0}\nop fetch(X: o) -> (Out: fetch) {col: 0}\n")
    bad(["compile", ir(tmp_path, body), "-o", str(tmp_path / "o")],
        "(concat -> o): the axis comes from AxisTensor, whose value only the run knows, and the dims of X ('x') follow "
        "the batch: supported with the batch fixed (--shape)")
    p = run(["compile", ir(tmp_path, body), "-o", str(tmp_path / "o2"), "--shape", "x=2,4", "--shape", "y=2,4"])
    assert p.returncode == 0, p.stderr


def test_fed_crop_offsets_outside_x_stop_the_run(tmp_path):
    """e2e_shape_feeds.py's crop_offsets_tensor (shape [-1, 2, 3], Offsets
    fed): offsets [0, 4, 2] put the crop of 2 past dim 1 (5), where
    Paddle's kernel stops ("should be less than or equal to the size"),
    and so does the run; [0, 3, 3] fits."""
    out, names = cases("shape_feeds")
    fixture = f"{out}/crop_offsets_tensor"
    binary = build(fixture, tmp_path, "--blas=none")
    for offsets, ok in (([0, 4, 2], False), ([0, 3, 3], True)):
        np.save(tmp_path / "o.npy", np.array(offsets, np.int32))
        p = subprocess.run([str(binary), "--input", f"x={fixture}/input_0.npy", "--input", f"o={tmp_path / 'o.npy'}",
                            "--output-dir", str(tmp_path / "out")], capture_output=True, text=True, timeout=600)
        if ok:
            assert p.returncode == 0, p.stderr[-1500:]
        else:
            assert p.returncode != 0 and "_crop_tensor: crop_tensor: a shape or offset from tensors outside X" in \
                p.stderr, (p.returncode, p.stderr[-1500:])


def test_fed_strided_slice_stride_of_zero_stops_the_run(tmp_path):
    """e2e_shape_feeds.py's strided_fed_strides with a fed stride of 0,
    where Paddle stops ("stride index in StridedSlice operator is 0"):
    the run stops, naming the op."""
    out, names = cases("shape_feeds")
    fixture = f"{out}/strided_fed_strides"
    binary = build(fixture, tmp_path, "--blas=none")
    np.save(tmp_path / "k.npy", np.array([0], np.int32))
    p = subprocess.run([str(binary), "--input", f"x={fixture}/input_0.npy", "--input", f"k={tmp_path / 'k.npy'}",
                        "--input", f"e={fixture}/input_2.npy", "--output-dir", str(tmp_path / "o")],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode != 0 and "_strided_slice: strided_slice: bounds or strides from tensors where Paddle stops" \
        in p.stderr, (p.returncode, p.stderr[-1500:])


def refused_programs():
    script = os.path.join(ROOT, "tests", "oracle", "shape_feeds_refused.py")
    out = os.path.join(BUILD, "e2e_refused", "shape_feeds")
    return generated(out, [sys.executable, script, out], [script])


def refused(name, tmp_path, *must_contain):
    """Compiling refused_programs()'s `name` fails with one error holding
    every string (notes may follow: the vars after it)."""
    refused_at(f"{refused_programs()}/{name}/model.pdmodel", tmp_path, *must_contain)


def refused_at(model, tmp_path, *must_contain):
    p = run(["compile", model, "-o", str(tmp_path / "o")])
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert p.returncode == 1 and lines and lines[0].startswith("paddlec: error: "), (p.returncode, p.stderr)
    assert all(ln.startswith("paddlec: note: ") for ln in lines[1:]), p.stderr
    for s in must_contain:
        assert s in lines[0], (s, lines[0])


def test_an_expand_to_a_fed_shape_is_refused(tmp_path):
    """paddle.expand(x [B, 1, 4], s) with s fed: Paddle gives [2, 5, 4] for
    s = [2, 5, 4] and a batch of 2.  Out's dims are s's values, which only
    the run knows (paddlec once took x's dims for them and wrote [2, 1, 4]):
    the error names the op and the input."""
    refused("expand_fed_shape", tmp_path, "(expand_v2 -> ",
            "is only known at run time (it depends on the values of input Shape ('s'))", "bound it with --max-shape")


def test_an_affine_grid_of_a_fed_size_is_refused_naming_the_size(tmp_path):
    """F.affine_grid(theta [B, 2, 3], g) with g fed (4 values: a 2-D grid):
    the grid's size is the run's; the error says so (it once said theta
    did not fit a 3-D grid)."""
    refused("affine_grid_fed_shape", tmp_path, "(affine_grid -> ",
            "(it depends on the values of input OutputShape ('g'))", "bound it with --max-shape")


def test_a_fed_affine_grid_size_paddle_cannot_take_stops_the_run(tmp_path):
    """F.affine_grid(theta [B, 2, 3], g) bounded by [4, 6, 8, 2]
    (e2e_shape_feeds.py's affine_grid_fed_shape, which matches Paddle with
    g = [3, 1, 5, 6]): a count of 2 grids for 3 thetas (Paddle reads past
    Theta), a height of 0 and a width past the bound stop the run naming the
    op; [3, 1, 6, 8] fills the bound."""
    fixture, _, binary = max_shape_case("affine_grid_fed_shape", tmp_path)
    for g, ok in (([2, 1, 5, 6], False), ([3, 1, 0, 6], False), ([3, 1, 5, 9], False), ([3, 1, 6, 8], True)):
        p = run_fed(binary, fixture, tmp_path, "g", np.array(g, np.int32))
        if ok:
            assert p.returncode == 0, p.stderr[-1500:]
            assert sorted(np.load(tmp_path / "o" / f).shape for f in os.listdir(tmp_path / "o"))[-1] == (3, 6, 8, 2)
        else:
            assert p.returncode != 0 and "affine_grid: OutputShape's count is not Theta's (Paddle reads past Theta), " \
                "or a size below 1 or past --max-shape [4, 6, 8, 2]" in p.stderr, (g, p.returncode, p.stderr[-1500:])


def max_shape_case(name, tmp_path, *flags):
    """e2e_shape_feeds.py's case `name` built with its --max-shape flags
    (or `flags` instead when given); (fixture, binary)."""
    out, names = cases("shape_feeds")
    fixture = f"{out}/{name}"
    with open(f"{fixture}/flags.json") as f:
        given = json.load(f)
    return fixture, given, build(fixture, tmp_path, "--blas=none", *(flags or given))


def test_fed_sizes_past_the_max_shape_bound_stop_the_run(tmp_path):
    """paddle.full(s, 1.5) bounded by --max-shape [4, 6]: with Paddle's s
    it matches (test_e2e_ops); s = [5, 3] is past the bound and s = [2, -1]
    is negative (Paddle stops too): the run stops, naming the op and the
    bound; [4, 6] fills the whole bound."""
    fixture, _, binary = max_shape_case("fill_fed_shape_tensor", tmp_path)
    for shape, ok in (([5, 3], False), ([2, -1], False), ([4, 6], True)):
        np.save(tmp_path / "s.npy", np.array(shape, np.int32))
        p = subprocess.run([str(binary), "--input", f"s={tmp_path / 's.npy'}", "--output-dir", str(tmp_path / "o")],
                           capture_output=True, text=True, timeout=600)
        if ok:
            assert p.returncode == 0, p.stderr[-1500:]
            got = np.load(tmp_path / "o" / os.listdir(tmp_path / "o")[0])
            assert got.shape == (4, 6) and np.allclose(got, np.tanh(1.5)), got
        else:
            assert p.returncode != 0 and "fill_constant: a shape from ShapeTensor below 0 or past --max-shape " \
                "[4, 6]" in p.stderr, (shape, p.returncode, p.stderr[-1500:])


def test_a_fed_range_step_paddle_refuses_stops_the_run(tmp_path):
    """paddle.arange(0, e, 2) bounded by [16]: e = 40 gives 20 values, past
    the bound; e = -4 with step 2 walks away from the end (Paddle: "The
    step should be less than 0 while start > end"): both stop the run."""
    fixture, _, binary = max_shape_case("range_fed_end", tmp_path)
    for end in (40, -4):
        np.save(tmp_path / "e.npy", np.array([end], np.int64))
        p = subprocess.run([str(binary), "--input", f"e={tmp_path / 'e.npy'}", "--output-dir", str(tmp_path / "o")],
                           capture_output=True, text=True, timeout=600)
        assert p.returncode != 0 and "range: a step of 0, a step away from End, or a length past --max-shape [16]" \
            in p.stderr, (end, p.returncode, p.stderr[-1500:])


def test_sizes_from_fed_tensors_without_a_bound_are_refused_naming_the_option(tmp_path):
    """Without --max-shape, paddle.full(s, ...)'s dims are the run's: the
    error names the op, the input and the option that bounds them."""
    out, _ = cases("shape_feeds")
    refused_at(f"{out}/fill_fed_shape_tensor/model.pdmodel", tmp_path, "(fill_constant -> ",
               "it depends on the values of input ShapeTensor ('s')", "bound it with --max-shape '")


def test_a_max_shape_that_bounds_nothing_is_an_error(tmp_path):
    """--max-shape naming a var whose size the compiler knows (the feed),
    or giving the wrong number of dims, is an error, not ignored."""
    out, _ = cases("shape_feeds")
    model = f"{out}/range_fed_end/model.pdmodel"
    with open(f"{out}/range_fed_end/flags.json") as f:
        var = json.load(f)[1].split("=")[0]
    bad(["compile", model, "-o", str(tmp_path / "o"), "--max-shape", f"{var}=16", "--max-shape", "e=4"],
        "--max-shape names 'e', which is no output of an op whose sizes only the run knows")
    bad(["compile", model, "-o", str(tmp_path / "o"), "--max-shape", f"{var}=4,4"], "(range -> ",
        f"--max-shape {var} gives 2 dims; Out ('{var}') has 1")


EMPTY_IR = ("var s: int64[2]\nvar y: int64[-1, -1]\nop feed(X: feed) -> (Out: s) {col: 0}\n"
            "op empty(ShapeTensor: s) -> (Out: y) {dtype: 3}\nop fetch(X: y) -> (Out: fetch) {col: 0}\n")


def test_empty_takes_a_fed_shape_within_a_bound(tmp_path):
    """paddle.empty(s) (op `empty`, dtype int64 = 3) with s fed: Out's
    shape is s's values (EmptyOpMaker: ShapeTensor over `shape`), here
    [3, 2] within --max-shape [4, 4]; its values are unspecified in Paddle
    (the memory as found), zeros in paddlec.  [5, 1] is past the bound."""
    model = ir(tmp_path, EMPTY_IR)
    binary = tmp_path / "bin"
    p = run(["build", model, "-o", str(binary), "--blas=none", "--max-shape", "y=4,4"])
    assert p.returncode == 0, p.stderr[-2000:]
    for shape, ok in (([3, 2], True), ([5, 1], False)):
        np.save(tmp_path / "s.npy", np.array(shape, np.int64))
        p = subprocess.run([str(binary), "--input", f"s={tmp_path / 's.npy'}", "--output-dir", str(tmp_path / "o")],
                           capture_output=True, text=True, timeout=600)
        if ok:
            assert p.returncode == 0, p.stderr[-1500:]
            got = np.load(tmp_path / "o" / "y.npy")
            assert got.shape == (3, 2) and got.dtype == np.int64 and not got.any(), got
        else:
            assert p.returncode != 0 and "empty: a shape from ShapeTensor below 0 or past --max-shape [4, 4]" in \
                p.stderr, p.stderr[-1500:]


def test_a_fed_reshape_target_that_does_not_hold_x_stops_the_run(tmp_path):
    """paddle.reshape(x [3, 3, 4], s) within --max-shape [6, 6, 6]: s =
    [5, -1, 3] leaves 36 / 15 elements for the -1 and [4, 3, 4] holds 48,
    where Paddle's ValidateShape stops; so do the runs.  [2, -1, 3] is
    [2, 6, 3]."""
    fixture, _, binary = max_shape_case("reshape_fed_shape", tmp_path)
    for shape, ok in (([5, -1, 3], False), ([4, 3, 4], False), ([2, -1, 3], True)):
        np.save(tmp_path / "s.npy", np.array(shape, np.int32))
        p = subprocess.run([str(binary), "--input", f"x={fixture}/input_0.npy", "--input", f"s={tmp_path / 's.npy'}",
                            "--output-dir", str(tmp_path / "o")], capture_output=True, text=True, timeout=600)
        if ok:
            assert p.returncode == 0, p.stderr[-1500:]
            got = np.load(tmp_path / "o" / os.listdir(tmp_path / "o")[0])
            want = np.exp(np.load(f"{fixture}/input_0.npy").reshape(2, 6, 3))
            assert got.shape == (2, 6, 3) and np.allclose(got, want, rtol=1e-6), got.shape
        else:
            assert p.returncode != 0 and "reshape2: a target shape from Shape that does not hold X [B, 3, 4]" in \
                p.stderr, (shape, p.returncode, p.stderr[-1500:])


def test_fed_expand_shapes_and_repeats_paddle_refuses_stop_the_run(tmp_path):
    """expand(x [B, 1, 4], s): s = [2, 3, 5, 3] asks dim 2 of X (4, not a
    singleton) to become 3, where phi's ExpandKernel stops; s = [2, 3, 0,
    -1] has a 0 ("The expanded size cannot be zero").  tile(x, r) with a
    repeat count of 0 (TileKernel: "must be positive").  The runs stop,
    naming the op."""
    (tmp_path / "e").mkdir(), (tmp_path / "t").mkdir()
    fixture, _, binary = max_shape_case("expand_fed_shape", tmp_path / "e")
    for shape in ([2, 3, 5, 3], [2, 3, 0, -1]):
        np.save(tmp_path / "s.npy", np.array(shape, np.int32))
        p = subprocess.run([str(binary), "--input", f"x={fixture}/input_0.npy", "--input", f"s={tmp_path / 's.npy'}",
                            "--output-dir", str(tmp_path / "o")], capture_output=True, text=True, timeout=600)
        assert p.returncode != 0 and "expand_v2: a shape from tensors Paddle's expand refuses" in p.stderr, \
            (shape, p.returncode, p.stderr[-1500:])
    fixture, _, binary = max_shape_case("tile_fed_repeats", tmp_path / "t")
    np.save(tmp_path / "r.npy", np.array([1, 0, 2], np.int32))
    p = subprocess.run([str(binary), "--input", f"x={fixture}/input_0.npy", "--input", f"r={tmp_path / 'r.npy'}",
                        "--output-dir", str(tmp_path / "o")], capture_output=True, text=True, timeout=600)
    assert p.returncode != 0 and "tile: a repeat count from tensors below 1" in p.stderr, p.stderr[-1500:]


def test_a_fed_one_hot_depth_past_the_bound_or_below_an_id_stops_the_run(tmp_path):
    """F.one_hot(ids, d) within --max-shape [4, 2, 8] (ids in [0, 5)): d = 9
    is past the bound; d = 1 leaves ids outside [0, d), where Paddle's
    kernel raises an error: both runs stop, naming the op."""
    fixture, _, binary = max_shape_case("one_hot_fed_depth", tmp_path)
    assert np.load(f"{fixture}/input_0.npy").max() >= 1
    for depth in (9, 1):
        np.save(tmp_path / "d.npy", np.array([depth], np.int32))
        p = subprocess.run([str(binary), "--input", f"ids={fixture}/input_0.npy", "--input",
                            f"d={tmp_path / 'd.npy'}", "--output-dir", str(tmp_path / "o")],
                           capture_output=True, text=True, timeout=600)
        assert p.returncode != 0 and "one_hot_v2: a depth from depth_tensor below 0 or past --max-shape [4, 2, 8]" \
            in p.stderr, (depth, p.returncode, p.stderr[-1500:])


def run_fed(binary, fixture, tmp_path, name, value):
    """Runs a shape_feeds binary with its Paddle inputs, feed `name` replaced
    by `value` (an array)."""
    with open(f"{fixture}/paddle.json") as f:
        feeds = json.load(f)["feeds"]
    args = [str(binary)]
    for i, feed in enumerate(feeds):
        path = f"{fixture}/input_{i}.npy"
        if feed == name:
            path = str(tmp_path / f"{name}.npy")
            np.save(path, value)
        args += ["--input", f"{feed}={path}"]
    return subprocess.run(args + ["--output-dir", str(tmp_path / "o")], capture_output=True, text=True, timeout=600)


INTERP_STOP = ("a size from OutSize or SizeTensor below 1, or a scale from Scale that gives one or is not above 0 "
               "(Paddle raises an error), or Out past --max-shape ")


def test_fed_resize_sizes_paddle_refuses_stop_the_run(tmp_path):
    """F.interpolate(x [B, 3, 5, 7], size=s, mode="nearest") bounded by
    --max-shape [4, 3, 8, 8] (e2e_shape_feeds.py's interp_fed_outsize_nearest):
    s = [0, 3] (Paddle: "out_h in Attr(out_shape) of Op(interpolate) should
    be greater than 0") and [9, 3], past the bound, stop the run naming the
    op; [8, 8] fills the bound."""
    fixture, _, binary = max_shape_case("interp_fed_outsize_nearest", tmp_path)
    for size, ok in (([0, 3], False), ([9, 3], False), ([8, 8], True)):
        p = run_fed(binary, fixture, tmp_path, "s", np.array(size, np.int64))
        if ok:
            assert p.returncode == 0, p.stderr[-1500:]
            assert np.load(tmp_path / "o" / os.listdir(tmp_path / "o")[0]).shape == (3, 3, 8, 8)
        else:
            assert p.returncode != 0 and "nearest_interp_v2: " + INTERP_STOP + "[4, 3, 8, 8]" in p.stderr, \
                (size, p.returncode, p.stderr[-1500:])


def test_fed_resize_scales_paddle_refuses_stop_the_run(tmp_path):
    """F.interpolate(x [B, 3, 5, 7], scale_factor=sc) bounded by [4, 3, 8,
    8]: a scale of 0 (Paddle: "The scale_h in input 'Scale' Tensor ...
    should be greater than 0") and one that gives a size of 0 ((int)(5 *
    0.1)) stop the run."""
    fixture, _, binary = max_shape_case("interp_fed_scale", tmp_path)
    for scale in ([0.0, 1.0], [0.1, 1.0]):
        p = run_fed(binary, fixture, tmp_path, "sc", np.array(scale, np.float32))
        assert p.returncode != 0 and "bilinear_interp_v2: " + INTERP_STOP in p.stderr, \
            (scale, p.returncode, p.stderr[-1500:])


def test_a_resize_to_a_fed_size_without_a_bound_is_refused_naming_the_option(tmp_path):
    """Without --max-shape, a resize whose size comes from fed SizeTensor or
    Scale has the run's dims: the error names the op, the input and the
    option."""
    out, _ = cases("shape_feeds")
    refused_at(f"{out}/interp_fed_size_list/model.pdmodel", tmp_path, "(bilinear_interp_v2 -> ",
               "it depends on the values of input SizeTensor ('h')", "bound it with --max-shape '")
    refused_at(f"{out}/interp_v1_fed_scale_nearest/model.pdmodel", tmp_path, "(nearest_interp -> ",
               "it depends on the values of input Scale ('sc')", "bound it with --max-shape '")


INTERP_IR = ("var x: float32[2, 3, 4, 4]\nvar h: {dt}[1]\nvar w: {dt}[1]\nvar y: float32[-1, -1, -1, -1]\n"
             "op feed(X: feed) -> (Out: x) {{col: 0}}\nop feed(X: feed) -> (Out: h) {{col: 1}}\n"
             "op feed(X: feed) -> (Out: w) {{col: 2}}\n"
             "op bilinear_interp_v2(SizeTensor: [h, w], X: x) -> (Out: y) {{out_h: -1, out_w: -1, "
             "align_corners: false, align_mode: 1, data_layout: \"NCHW\", interp_method: \"bilinear\"}}\n"
             "op fetch(X: y) -> (Out: fetch) {{col: 0}}\n")


def test_an_int64_size_tensor_is_refused(tmp_path):
    """Paddle 2.6's resize kernels read SizeTensor as int32 and stop on an
    int64 one ("The type of data we are trying to retrieve (int32) does not
    match"): refused when compiling, naming the tensor; int32 compiles."""
    bad(["compile", ir(tmp_path, INTERP_IR.format(dt="int64")), "-o", str(tmp_path / "o"), "--max-shape",
         "y=2,3,8,8"], "(bilinear_interp_v2 -> y)", "SizeTensor 'h' is int64; Paddle's kernel reads int32")
    p = run(["compile", ir(tmp_path, INTERP_IR.format(dt="int32")), "-o", str(tmp_path / "o"), "--max-shape",
             "y=2,3,8,8"])
    assert p.returncode == 0, p.stderr[-2000:]


def test_fed_paddings_paddle_refuses_stop_the_run(tmp_path):
    """pad3d reflect (NDHWC, x [B, 3, 4, 5, 2]) with Paddings fed, bounded
    by [3, 4, 8, 8, 2] (e2e_shape_feeds.py's pad3d_fed_paddings_reflect_ndhwc):
    a top padding of 4 on a height of 4, within the bound (Paddle: "The
    height of Input(X)'s dimension should be greater than pad_top in reflect
    mode"), a negative one that crops the width of 5 to nothing, and one
    past the bound stop the run; [1, 2, 0, 0, 0, 0] runs, and so does a
    negative one that crops a column (Paddle crops too)."""
    fixture, _, binary = max_shape_case("pad3d_fed_paddings_reflect_ndhwc", tmp_path)
    for pads, shape in (([0, 0, 4, 0, 0, 0], None), ([-5, 0, 0, 0, 0, 0], None), ([2, 2, 1, 2, 1, 0], None),
                        ([1, 2, 0, 0, 0, 0], (3, 3, 4, 8, 2)), ([-1, 0, 0, 0, 0, 0], (3, 3, 4, 4, 2))):
        p = run_fed(binary, fixture, tmp_path, "p", np.array(pads, np.int64))
        if shape:
            assert p.returncode == 0, p.stderr[-1500:]
            assert np.load(tmp_path / "o" / os.listdir(tmp_path / "o")[0]).shape == shape
        else:
            assert p.returncode != 0 and "pad3d: a padding from Paddings that leaves a dim below 1, a reflect " \
                "padding not below its dim or a circular one past it, or Out past --max-shape [3, 4, 8, 8, 2]" \
                in p.stderr, (pads, p.returncode, p.stderr[-1500:])


def test_fed_paddings_without_a_bound_are_refused_naming_the_option(tmp_path):
    out, _ = cases("shape_feeds")
    refused_at(f"{out}/pad3d_fed_paddings_constant/model.pdmodel", tmp_path, "(pad3d -> ",
               "it depends on the values of input Paddings ('p')", "bound it with --max-shape '")


def test_a_fed_concat_axis_paddle_refuses_stops_the_run(tmp_path):
    """paddle.concat([x [2, 3], y [2, 5], z [2, 1]], axis=t) with t fed
    (e2e_shape_feeds.py's concat_fed_axis_negative; no flag: the compiler
    proves Out's bound): t = 2 is out of range (Paddle: "The axis is
    expected to be in range of [-2, 2)") and t = 0 an axis along which the
    inputs do not fit (Paddle: "The 1-th dimension of input[0] and
    input[1] is expected to be equal"): both stop the run; t = 1 runs."""
    out, _ = cases("shape_feeds")
    fixture = f"{out}/concat_fed_axis_negative"
    binary = build(fixture, tmp_path, "--blas=none")
    for axis, ok in ((2, False), (0, False), (1, True)):
        p = run_fed(binary, fixture, tmp_path, "t", np.array([axis], np.int64))
        if ok:
            assert p.returncode == 0, p.stderr[-1500:]
            assert np.load(tmp_path / "o" / os.listdir(tmp_path / "o")[0]).shape == (2, 9)
        else:
            assert p.returncode != 0 and "concat: an axis from AxisTensor out of range, or along which the inputs' " \
                "dims do not fit (Paddle raises an error)" in p.stderr, (axis, p.returncode, p.stderr[-1500:])


def test_a_fed_gather_axis_paddle_refuses_stops_the_run(tmp_path):
    """paddle.gather(x [2, 3, 4], i = [3, 0, 2], axis=t) with t fed
    (e2e_shape_feeds.py's gather_fed_axis; the bound proven, no flag):
    t = -1 (where Paddle 2.6 reads past X's dims and writes garbage) and t =
    1 (index 3 outside [0, 3): Paddle raises an error) stop the run; t = 0
    is outside too (dim 2); t = 2 runs."""
    out, _ = cases("shape_feeds")
    fixture = f"{out}/gather_fed_axis"
    binary = build(fixture, tmp_path, "--blas=none")
    for axis, ok in ((-1, False), (1, False), (0, False), (2, True)):
        p = run_fed(binary, fixture, tmp_path, "t", np.array([axis], np.int64))
        if ok:
            assert p.returncode == 0, p.stderr[-1500:]
            assert np.load(tmp_path / "o" / os.listdir(tmp_path / "o")[0]).shape == (2, 3, 3)
        else:
            assert p.returncode != 0 and "gather: an axis from Axis outside [0, rank)" in p.stderr, \
                (axis, p.returncode, p.stderr[-1500:])


def test_a_fed_split_axis_paddle_refuses_stops_the_run(tmp_path):
    """paddle.split(x [2, 4, 6], [1, -1, 2], axis=t) with t fed
    (e2e_shape_feeds.py's split_fed_axis_sections; bounds proven, no flag):
    t = 0 (sections [1, -1, 2] do not fit a dim of 2: Paddle raises "Sum of
    Attr(num_or_sections) ... must be less than the input's size") and t =
    -1 (Paddle's kernel fails) stop the run; t = 1 runs."""
    out, _ = cases("shape_feeds")
    fixture = f"{out}/split_fed_axis_sections"
    binary = build(fixture, tmp_path, "--blas=none")
    for axis, ok in ((0, False), (-1, False), (1, True)):
        p = run_fed(binary, fixture, tmp_path, "t", np.array([axis], np.int32))
        if ok:
            assert p.returncode == 0, p.stderr[-1500:]
            assert sorted(np.load(tmp_path / "o" / f).shape for f in os.listdir(tmp_path / "o")) == \
                [(2, 1, 6), (2, 1, 6), (2, 2, 6)]
        else:
            assert p.returncode != 0 and "split: an axis from AxisTensor outside [0, rank)" in p.stderr, \
                (axis, p.returncode, p.stderr[-1500:])


def test_fed_unsqueeze_axes_paddle_refuses_stop_the_run(tmp_path):
    """paddle.unsqueeze(x [2, 3], axis=t) with t fed (e2e_shape_feeds.py's
    unsqueeze_fed_axes; the bound proven, no flag): t = [3, 0] (3 is past
    the 2 dims: Paddle raises "The insert dimension value should not be
    larger than the dims size") and [-4, 0] stop the run; [0, 0] gives [1,
    1, 2, 3]."""
    out, _ = cases("shape_feeds")
    fixture = f"{out}/unsqueeze_fed_axes"
    binary = build(fixture, tmp_path, "--blas=none")
    for axes, ok in (([3, 0], False), ([-4, 0], False), ([0, 0], True)):
        p = run_fed(binary, fixture, tmp_path, "t", np.array(axes, np.int32))
        if ok:
            assert p.returncode == 0, p.stderr[-1500:]
            assert np.load(tmp_path / "o" / os.listdir(tmp_path / "o")[0]).shape == (1, 1, 2, 3)
        else:
            assert p.returncode != 0 and "unsqueeze2: an axis from AxesTensor(List) out of range" in p.stderr, \
                (axes, p.returncode, p.stderr[-1500:])


def test_an_eye_count_another_op_writes_is_refused_without_a_bound_suggested(tmp_path):
    """paddle.eye(n + 1) with n fed: the count is a tensor another op writes,
    which eye does not read at run time (nothing orders eye after it); the
    error says so instead of suggesting a --max-shape bound, which did not
    help (a probing helper gave the bound and got the same error)."""
    body = ("var n: int32[1]\nvar n1: int32[1]\nvar e: float32[-1, -1]\n"
            "op feed(X: feed) -> (Out: n) {col: 0}\nop scale(X: n) -> (Out: n1) {scale: 1.0, bias: 1.0}\n"
            "op eye() -> (Out: e) {num_rows: var(n1), num_columns: -1, dtype: 5}\n"
            "op fetch(X: e) -> (Out: fetch) {col: 0}\n")
    for extra in ([], ["--max-shape", "e=8,8"]):
        bad(["compile", ir(tmp_path, body), "-o", str(tmp_path / "o"), *extra],
            "(eye -> e): num_rows comes from a tensor another op writes, whose value only the run knows; eye takes "
            "a count from a feed, or one the compiler knows")


def test_a_fed_eye_count_past_the_bound_stops_the_run(tmp_path):
    """paddle.eye(n) and paddle.eye(n, 3) with n fed (e2e_shape_feeds.py's
    eye_fed_rows, bounds [6, 6] and [6, 3]): n = 7 is past the bounds and n
    = -1 negative (Paddle 2.6's run aborts with a C++ stack trace): the
    run stops; n = 6 fills them."""
    fixture, _, binary = max_shape_case("eye_fed_rows", tmp_path)
    for n, ok in ((7, False), (-1, False), (6, True)):
        p = run_fed(binary, fixture, tmp_path, "n", np.array([n], np.int64))
        if ok:
            assert p.returncode == 0, p.stderr[-1500:]
            got = sorted(np.load(tmp_path / "o" / f).shape for f in os.listdir(tmp_path / "o"))
            assert got == [(6, 3), (6, 6)], got
        else:
            assert p.returncode != 0 and "eye: a negative count, or Out past --max-shape [6, " in p.stderr, \
                (n, p.returncode, p.stderr[-1500:])


def test_fed_reduction_axes_outside_the_dims_or_repeated_stop_the_run(tmp_path):
    """e2e_shape_feeds.py's reduce_fed_axes (which matches Paddle): a sum
    along a = [3] of a rank-3 x, which Paddle's reduce refuses, and a mean
    along [k, 1] with k = 1 (an axis given twice: Paddle gives Out one dim
    more than its program says) stop the run naming the op; a = [-1] runs
    (a's case's result: the last axis)."""
    out, _ = cases("shape_feeds")
    fixture = f"{out}/reduce_fed_axes"
    binary = build(fixture, tmp_path, "--blas=none")
    why = "an axis from attribute dim outside [-3, 3), or one given twice (Paddle raises an error, or gives Out " \
        "another rank)"
    for name, v, stop in (("a", [3], "reduce_sum"), ("k", [1], "reduce_mean"), ("a", [-1], None)):
        p = run_fed(binary, fixture, tmp_path, name, np.array(v, np.int64))
        if stop is None:
            assert p.returncode == 0, p.stderr[-1500:]
            with open(f"{fixture}/paddle.json") as f:
                first = json.load(f)["fetches"][0].replace("/", "_")
            assert np.allclose(np.load(tmp_path / "o" / f"{first}.npy"), np.load(f"{fixture}/output_0.npy"))
        else:
            assert p.returncode != 0 and f"{stop}: {why}" in p.stderr, (name, v, p.returncode, p.stderr[-1500:])


@pytest.mark.parametrize("case, op, ok", [("cumsum_fed_axis", "cumsum", -1), ("argmax_fed_axis", "arg_max", -2)])
def test_a_fed_axis_outside_the_dims_stops_the_run(tmp_path, case, op, ok):
    """paddle.cumsum / paddle.argmax of x [B, 3, 4] along a fed axis a
    (e2e_shape_feeds.py's cases, which match Paddle with a = 2 and 1): a =
    3 and a = -4 lie outside [-3, 3), which Paddle's kernel (InferMeta)
    refuses: the run stops naming the op and the tensor; a = ok, the case's
    axis counted from the end, runs to the case's result."""
    out, _ = cases("shape_feeds")
    fixture = f"{out}/{case}"
    binary = build(fixture, tmp_path, "--blas=none")
    for a, good in ((3, False), (-4, False), (ok, True)):
        p = run_fed(binary, fixture, tmp_path, "a", np.array([a], np.int64))
        if good:
            assert p.returncode == 0, p.stderr[-1500:]
            with open(f"{fixture}/paddle.json") as f:
                first = json.load(f)["fetches"][0].replace("/", "_")
            assert np.array_equal(np.load(tmp_path / "o" / f"{first}.npy"), np.load(f"{fixture}/output_0.npy"))
        else:
            assert p.returncode != 0 and f"{op}: the axis from tensor 'a' is outside [-3, 3) (Paddle raises an " \
                "error)" in p.stderr, (a, p.returncode, p.stderr[-1500:])


def test_fed_squeeze_axes_that_drop_another_count_of_dims_stop_the_run(tmp_path):
    """paddle.squeeze(x [B, 1, 3, 1], axis=a) with a fed (e2e_shape_feeds.py's
    squeeze_fed_axes, which matches Paddle with a = [1]): a = [2] names a
    dim of 3, which Paddle keeps, giving Out all four dims where its
    program has three, and a = [4] is out of range: the run stops naming
    the op; a = [-1] drops the last dim instead: [B, 1, 3], the elements
    in the same order."""
    out, _ = cases("shape_feeds")
    fixture = f"{out}/squeeze_fed_axes"
    binary = build(fixture, tmp_path, "--blas=none")
    for a, ok in (([2], False), ([4], False), ([-1], True)):
        p = run_fed(binary, fixture, tmp_path, "a", np.array(a, np.int64))
        if ok:
            assert p.returncode == 0, p.stderr[-1500:]
            with open(f"{fixture}/paddle.json") as f:
                first = json.load(f)["fetches"][0].replace("/", "_")
            got, want = np.load(tmp_path / "o" / f"{first}.npy"), np.load(f"{fixture}/output_0.npy")
            assert got.shape == (want.shape[0], 1, 3) and np.array_equal(got.ravel(), want.ravel()), got.shape
        else:
            assert p.returncode != 0 and "squeeze2: an axis from attribute axes out of range, or axes that drop " \
                "other than 1 dims (Paddle raises an error, or gives Out another rank)" in p.stderr, \
                (a, p.returncode, p.stderr[-1500:])


def test_a_for_range_over_a_fed_count_runs_each_count_up_to_its_bound(tmp_path):
    """e2e_control_jit.py's for_range (dy2static's `for k in range(n)`,
    which matches Paddle with n = 3; the range bounded by --max-shape [16]):
    n = 0 runs no iteration (the input comes out), n = 16 fills the bound,
    n = 17 is past it: the run stops naming the range op."""
    out, _ = cases("control_jit")
    fixture = f"{out}/for_range"
    with open(f"{fixture}/flags.json") as f:
        flags = json.load(f)
    binary = build(fixture, tmp_path, "--blas=none", *flags)
    x = np.load(f"{fixture}/input_0.npy")
    for n, ok in ((0, True), (16, True), (17, False)):
        p = run_fed(binary, fixture, tmp_path, "n", np.array([n], np.int64))
        if not ok:
            assert p.returncode != 0 and "range: a step of 0, a step away from End, or a length past --max-shape " \
                "[16]" in p.stderr, (n, p.returncode, p.stderr[-1500:])
            continue
        assert p.returncode == 0, p.stderr[-1500:]
        got = np.load(tmp_path / "o" / os.listdir(tmp_path / "o")[0])
        if n == 0:
            assert np.array_equal(got, x)
        else:
            assert got.shape == x.shape and np.isfinite(got).all() and not np.allclose(got, x)


@pytest.mark.parametrize("op, message", [
    ("op arg_max(X: x) -> (Out: y) {axis: var(a), keepdims: false, flatten: false, dtype: 3}",
     "(arg_max -> y): X ('x') has dims only the run gives (from its "),
    ("op reduce_sum(X: x) -> (Out: y) {dim: var(a), keep_dim: false, reduce_all: false}",
     "(reduce_sum -> y): dim 1 of X ('x') is only known at run time and the reduced axes come from tensors"),
])
def test_an_axis_only_the_run_knows_beside_a_size_the_run_gives_is_refused(tmp_path, op, message):
    """An axis held in a fed tensor over an X with a dim the run gives (a
    sequence length: -1 in its second dim): Out's dims would be the run's
    from two sources; refused naming the op, where over an X of fixed dims
    it compiles (e2e_shape_feeds.py's reduce_fed_axes, argmax_fed_axis,
    against Paddle)."""
    body = ("var x: float32[2, -1, 4]\nvar a: int64[1]\nvar y: float32[-1, -1]\n"
            "op feed(X: feed) -> (Out: x) {col: 0}\nop feed(X: feed) -> (Out: a) {col: 1}\n"
            f"{op}\nop fetch(X: y) -> (Out: fetch) {{col: 0}}\n")
    refused_at(ir(tmp_path, body), tmp_path, message)


def test_bincount_stops_on_a_negative_value_or_one_past_its_bound(tmp_path):
    """paddle.bincount of fed values (e2e_shape_feeds.py's bincount_counts,
    each Out bounded by --max-shape [16]): a value of 16 makes 17 counts,
    past the bound, and a negative one is refused by Paddle's kernel: the
    run stops naming the op; 15 fills the bound (the last count 1). Without
    the bound the build is refused naming the option."""
    fixture, given, binary = max_shape_case("bincount_counts", tmp_path)
    for vals, ok in (([3, 0, 16, 3, 3, 1, 5, 2], False), ([3, 0, -1, 3, 3, 1, 5, 2], False),
                     ([3, 0, 15, 3, 3, 1, 5, 2], True)):
        p = run_fed(binary, fixture, tmp_path, "vals", np.array(vals, np.int64))
        if ok:
            assert p.returncode == 0, p.stderr[-1500:]
            with open(f"{fixture}/paddle.json") as f:
                first = json.load(f)["fetches"][0].replace("/", "_")
            counts = np.load(tmp_path / "o" / f"{first}.npy")
            assert counts.shape == (16,) and counts[15] == 1 and counts[3] == 3, counts
        else:
            assert p.returncode != 0 and "bincount: X's largest value plus one past --max-shape [16], or a negative " \
                "value (Paddle raises)" in p.stderr, (vals, p.stderr[-1500:])
    p = run(["compile", f"{fixture}/model.pdmodel", "-o", str(tmp_path / "src")])
    assert p.returncode != 0 and "(bincount -> bincount_0.tmp_0): dim 0 of 'bincount_0.tmp_0' is only known at run " \
        "time (it depends on the values of input X ('vals')); bound it with --max-shape" in p.stderr, p.stderr


def test_full_like_stops_on_a_tensor_value_out_of_its_dtype_range(tmp_path):
    """e2e_shapes.py's full_like_from_tensors fills an int16 tensor with
    min(x) * 300 and an int32 one with max(x) * -10, read when the run
    reaches them: with an x of -200 (-60000) or of 3e8 (-3e9) phi's
    FullLikeKernel raises "The filled value is out of range for target
    type" (checked with Paddle 2.6's Executor when this test was written);
    the run stops naming the op. Paddle's own inputs run (test_e2e_ops)."""
    out, _ = cases("shapes")
    fixture = f"{out}/full_like_from_tensors"
    binary = build(fixture, tmp_path, "--blas=none")
    x = np.load(f"{fixture}/input_0.npy")
    for at, value, dtype in ((0, -200.0, "int16"), (1, 3e8, "int32")):
        bad_x = x.copy()
        bad_x.flat[at] = value
        np.save(tmp_path / "x.npy", bad_x)
        p = subprocess.run([str(binary), "--input", f"x={tmp_path / 'x.npy'}", "--output-dir", str(tmp_path / "o")],
                           capture_output=True, text=True)
        assert p.returncode != 0 and "fill_any_like: value (" in p.stderr and \
            f") is out of range for {dtype} (Paddle raises)" in p.stderr, (value, p.stderr[-1500:])

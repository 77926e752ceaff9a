"""The layers of the tree call downward: no two source files of the compiler,
the passes or the runtime call each other (issue 18 item 5), read off the
objects `make all` built (nm: what each file defines and what it calls).

Two cycles are known and allowed, each for a reason:
- the op core: the IR (graph.c, ir_text.c), shape inference (infer.c,
  spec.c, consteval.c, array_len.c: tensor arrays' lengths) and the emit helpers (emit*.c) look ops up in the op
  table, and every op's file (compiler/ops/) calls them back.  Nothing else
  (loader, passes, planner, code generation, runtime) may join it.
- the runtime's worker pool and scheduler (rt_parallel.c, rt_sched.c): the
  pool's idle threads run the scheduler's ready nodes, and the scheduler
  wakes the pool.
"""
import collections
import glob
import os
import re
import subprocess

import pytest

from conftest import BUILD, ROOT

OBJ = os.path.join(BUILD, "obj-cc")
OP_CORE = {f"compiler/{n}.o" for n in ("graph", "ir_text", "infer", "spec", "consteval", "array_len", "emit",
                                       "emit_ew", "emit_names")}
POOL = {"runtime/rt_parallel.o", "runtime/rt_sched.o"}


def calls_between_files():
    """{object: set of other objects whose symbols it uses}."""
    objs = sorted(os.path.relpath(o, OBJ) for o in glob.glob(os.path.join(OBJ, "**", "*.o"), recursive=True))
    assert len(objs) > 150, objs
    defined, used = {}, collections.defaultdict(set)
    for o in objs:
        out = subprocess.run(["nm", os.path.join(OBJ, o)], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            f = line.split()
            if len(f) == 3 and f[1] in "TDBR":
                defined[f[2]] = o
            elif len(f) == 2 and f[0] == "U":
                used[o].add(f[1])
    return objs, {o: {defined[s] for s in used[o] if defined.get(s, o) != o} for o in objs}


def cycles(nodes, edges):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    for v in nodes:
        if v not in index:
            visit(v)
    return out


def allowed(comp):
    return comp == POOL or all(o in OP_CORE or o.startswith("compiler/ops/") for o in comp)


def test_no_call_cycles_between_files_but_the_known_two():
    objs, edges = calls_between_files()
    found = cycles(objs, edges)
    bad = [sorted(c) for c in found if not allowed(c)]
    assert not bad, "files that call each other: " + "; ".join(", ".join(c) for c in bad)
    # the checker sees cycles: the op core is one
    assert any("compiler/graph.o" in c for c in found), found


def test_the_checker_finds_a_cycle():
    edges = {"a.o": {"b.o"}, "b.o": {"c.o"}, "c.o": {"a.o"}, "d.o": {"a.o"}}
    assert cycles(sorted(edges), edges) == [{"a.o", "b.o", "c.o"}]
    assert not allowed({"compiler/codegen.o", "compiler/codegen_model.o"})


def test_compiler_readme_lists_every_file_once():
    """compiler/README.md, the files by layer, lists each compiler/*.c once."""
    with open(os.path.join(ROOT, "compiler", "README.md")) as f:
        text = f.read()
    listed = re.findall(r"`([a-z_]+\.c)`", text.split("## ops/")[0])
    files = sorted(os.path.basename(p) for p in glob.glob(os.path.join(ROOT, "compiler", "*.c")))
    dup = sorted({n for n in listed if listed.count(n) > 1})
    assert not dup, f"listed twice: {dup}"
    assert sorted(listed) == files, (sorted(set(files) - set(listed)), sorted(set(listed) - set(files)))


@pytest.mark.parametrize("printer,calls", [
    ("ops/gemm_call.c", "sgemm_ws|sgemm_ep|dgemm|sgemm|einsum_(f32|f64|%s)"),
    ("ops/conv_util.c", "conv[23]d|conv[23]d_transpose|conv[23]d_filter_grad"),
    ("ops/pool_call.c", "pool2d|pool2d_grad|pool3d|pool3d_grad|max_pool2d_index|max_pool2d_index_grad|"
                        "max_pool3d_index"),
    ("ops/norm_call.c", "batch_norm|batch_norm_train(%s|_synced)?|batch_norm_grad|batch_norm_grad_synced|"
                        "batch_norm_sums|batch_norm_grad_sums|layer_norm|layer_norm_grad|group_norm|group_norm_grad|"
                        "instance_norm_grad"),
    ("ops/resample_call.c", "interp2d|resize|resize_grad|grid_sample|grid_sample_grad"),
    ("ops/attention_call.c", "softmax|log_softmax|attention"),
    ("ops/rnn_call.c", "rnn|rnn_grad|mt_seed|dropout_mask|dropout_(f32|f64|%s)|"
                       "fill_(uniform|normal|truncated_normal)_(f32|f64|%s)|uniform_int"),
    ("ops/detection_call.c", "(box_coder|prior_box|density_prior_box|anchor_generator|yolo_box|iou_similarity)"
                             "(%s|_f64)?|bipartite_match_(f32|f64|%s)"),
    ("ops/move_call.c", "gather|gather_nd|copy_strided|nhwc_to_nchw|nchw_to_nhwc|channel_affine|abs_max|"
                        "pad3d(%s|_grad)?"),
    ("ops/sort_call.c", "(argsort|topk|kthvalue)(_(f32|f64|i32|i64|%s))?"),
    ("ops/coll_call.c", "coll_reduce|coll_broadcast|coll_allgather"),
])
def test_kernels_are_printed_in_one_place(printer, calls):
    """Emitters describe their runtime calls as records (GemmCall in
    compiler/ops/gemm_call.h, ConvCall in compiler/ops/conv_call.h, PoolCall,
    NormCall, ResampleCall, AttentionCall, RnnCall and RandomCall,
    DetectionCall, MoveCall, CollCall, SortCall in the ops/*_call.h
    beside their printers); only the
    printer spells the runtime's calls, so a second backend prints the same
    records."""
    spelled = []
    for path in sorted(glob.glob(os.path.join(ROOT, "compiler", "**", "*.c"), recursive=True)):
        if path.endswith(os.path.join(*printer.split("/"))):
            continue
        with open(path) as f:
            for no, line in enumerate(f, 1):
                if re.search(r'"[^"]*\brt_(%s)[("]' % calls, line):  # a call, or a name handed on
                    spelled.append(f"{os.path.relpath(path, ROOT)}:{no}")
    assert not spelled, spelled


# Runtime names compiler/ may spell outside the record printers: scalar
# functions inside element-wise C expressions (ops/activation.c's table,
# bessel, polygamma, cast, and emit_ew.c's table of their double twins),
# which a backend maps one for one, and the
# generated model's own plumbing (codegen_model.c, emit.c: weight binding,
# state reset, the task split and thread pool).
SCALAR_AND_PLUMBING = {
    "erff", "erfinvf", "digammaf", "polygamma_f32", "polygamma_f64", "i0f", "i0ef", "i1f", "i1ef", "f2i32",
    "erfinv", "digamma", "i0", "i0e", "i1", "i1e", "f2i64", "ipow", "weights_bind", "state_zero", "split_tasks", "parallel", "dtype_name",
    "free",  # codegen_model.c: the made LoDs' stores released at destroy
    "%s%s",  # bessel.c: rt_i0f, rt_i0ef, rt_i1f, rt_i1ef (rt_i0, ... in float64) by name and dtype
}


def test_every_runtime_call_is_a_record():
    """No emitter spells a runtime routine: each call outside the scalar
    functions and the model's plumbing goes through a record's printer
    (compiler/ops/*_call.c, conv_util.c's conv_print_c)."""
    spelled = []
    for path in sorted(glob.glob(os.path.join(ROOT, "compiler", "**", "*.c"), recursive=True)):
        name = os.path.basename(path)
        if name.endswith("_call.c") or name == "conv_util.c":
            continue
        with open(path) as f:
            for no, line in enumerate(f, 1):
                for m in re.finditer(r'"[^"]*?\brt_([a-z0-9_%]+)[("]', line):
                    if m.group(1) not in SCALAR_AND_PLUMBING:
                        spelled.append(f"{os.path.relpath(path, ROOT)}:{no}: rt_{m.group(1)}")
    assert not spelled, spelled

#!/usr/bin/env python3
"""Op-level end-to-end cases for LoD feeds (lod_level 1) and the 1.x
sequence ops over them: sequence_pool with every pooltype (pad_value for an
empty sequence, MaxIndex), sequence_conv with several contextLength /
contextStart, sequence_softmax, sequence_reverse, sequence_expand(_as),
sequence_enumerate, and the ops between a feed and them that pass its LoD
on (lookup_table, elementwise_add of a bias, tanh, scale); the real
textcnn_news_cls model cut after its sequence_pools, and whole on two
batches of sentences.

    python e2e_lod.py OUTDIR [CASE ...]

Every case has one LoD feed of 9 rows, fed as a LoDTensor with the level-1
offsets LOD (sequences of 3, 0 (empty), 1, 4 and 1 rows); besides
tests/oracle/oracle_case.py's files each case dir holds lod.json ({feed:
offsets}, which tests/test_e2e.py's run_binary passes as --lod) and
output_<i>.lod.json for each fetch Paddle returns with a LoD."""
import os
import sys
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op, build_static_case, case_registry, lod_reference  # noqa: E402

import paddle  # noqa: E402
from paddle.static.nn import sequence_lod  # noqa: E402

LOD = [0, 3, 3, 4, 8, 9]
ROWS = LOD[-1]
VOCAB = 20
CASES, case = case_registry()
POOLS = ["average", "sum", "sqrt", "max", "last", "first"]


def feed(name, width, dtype="float32"):
    shape = [None] + ([width] if isinstance(width, int) else list(width))
    return paddle.static.data(name, shape, dtype, lod_level=1)


def make_input(var, rng):
    shape = [ROWS] + list(var.shape[1:])
    if var.dtype in (paddle.int64, paddle.int32, paddle.uint8):
        return rng.integers(0, VOCAB, shape).astype(str(var.dtype).split(".")[-1])
    return rng.uniform(-2, 2, shape).astype("float64" if var.dtype == paddle.float64 else "float32")


def training_kernel(out_dir):
    """save_inference_model sets every is_test to true, under which
    sequence_pool leaves MaxIndex unwritten: the saved program gets is_test
    false back (the kernel Paddle trains with)."""
    exe = paddle.static.Executor(paddle.CPUPlace())
    with paddle.static.scope_guard(paddle.static.Scope()):
        prog, _, _ = paddle.static.load_inference_model(os.path.join(out_dir, "model"), exe)
        for op in prog.global_block().ops:
            if op.type == "sequence_pool":
                op._set_attr("is_test", False)
        with open(os.path.join(out_dir, "model.pdmodel"), "wb") as f:
            f.write(prog.desc.serialize_to_string())


def reference(out_dir, inputs, lod=LOD):
    """Paddle's Executor on the saved model, each LoD input a LoDTensor with `lod`."""
    lod_reference(out_dir, inputs, lod)


# ---------------------------------------------------------------- cases
@case
def pool_all():
    """Every pooltype over [9, 5] rows; the empty sequence gets pad_value."""
    x = feed("x", 5)
    return [x], [sequence_lod.sequence_pool(x, t, pad_value=0.25) for t in POOLS]


@case
def pool_rank3():
    """X [9, 2, 3]: each row of 6 elements pooled."""
    x = feed("x", (2, 3))
    return [x], [sequence_lod.sequence_pool(x, t) for t in POOLS]


@case
def pool_max_index():
    """MAX with MaxIndex (int32 row indices, -1 for the empty sequence)
    fetched, as the training kernel writes it (is_test false)."""
    x = feed("x", 4)
    out, idx = append_op("sequence_pool", {"X": [x]}, {"Out": ["float32"], "MaxIndex": ["int32"]},
                         {"pooltype": "MAX", "is_test": False, "pad_value": -1.5})
    return [x], [out, idx]


pool_max_index.training_kernel = True


@case
def pool_float64():
    x = feed("x", 3, "float64")
    return [x], [sequence_lod.sequence_pool(x, t, pad_value=0.1) for t in POOLS]


@case
def pool_beside_a_plain_feed():
    """A LoD feed pooled and a feed without LoD (y, [9, 2]: the driver's
    --lod for it is refused) used by its own op."""
    x = feed("x", 3)
    y = paddle.static.data("y", [None, 2], "float32")
    return [x, y], [sequence_lod.sequence_pool(x, "sum"), paddle.nn.functional.relu(y)]


@case
def pool_of_sums():
    """x + y and y + x, x and y fed with different LoDs: an element-wise
    op passes X's LoD on (share_lod(x)), so the first pools by x's five
    sequences, the second by y's two."""
    x, y = feed("x", 3), feed("y", 3)
    return [x, y], [sequence_lod.sequence_pool(x + y, "sum"), sequence_lod.sequence_pool(y + x, "max")]


pool_of_sums.lod = {"x": LOD, "y": [0, 4, ROWS]}


@case
def first_input_lod():
    """add_n and concat (axis 1) of a LoD feed x and a plain feed y, each
    order, fetched: Out carries X[0]'s LoD only (share_lod(x[0])), none
    with y first, though x has Out's rows too.  No kernel reads x's LoD:
    the fetches carry it as given (tests/test_runtime_extent.py runs the
    binary without it too)."""
    x = feed("x", 3)
    y = paddle.static.data("y", [None, 3], "float32")
    return [x, y], [paddle.add_n([y, x]), paddle.add_n([x, y]), paddle.concat([y, x], axis=1),
                    paddle.concat([x, y], axis=1)]


def conv(x, filters, size, start, bias=False, act=None):
    return sequence_lod.sequence_conv(x, filters, filter_size=size, padding_start=start, bias_attr=bias, act=act)


@case
def conv_contexts():
    """contextLength 3 centred, 5 looking back, 2 looking ahead, 1, and one
    wider than every sequence (7, start -3); Out keeps X's LoD."""
    x = feed("x", 4)
    return [x], [conv(x, 3, 3, -1), conv(x, 2, 5, -4), conv(x, 4, 2, 0), conv(x, 2, 1, 0), conv(x, 3, 7, -3)]


@case
def text_cnn():
    """The 1.x text CNN (fluid.nets.sequence_conv_pool): word ids -> lookup
    table -> sequence_conv + bias + tanh -> sequence_pool, two branches;
    the LoD goes from the ids through lookup_table, elementwise_add and
    tanh (Paddle's ShareLoD); the convolutions' outputs are fetched too."""
    w = feed("words", 1, "int64")
    table = paddle.static.create_parameter([VOCAB, 6], "float32")
    emb = append_op("lookup_table", {"Ids": [w], "W": [table]}, {"Out": ["float32"]}, {})[0]  # the 1.x op: [T, 6]
    c1 = conv(emb, 5, 3, -1, bias=None, act="tanh")
    c2 = conv(emb, 4, 4, -2, bias=None, act="tanh")
    return [w], [sequence_lod.sequence_pool(c1, "max"), sequence_lod.sequence_pool(c2, "average"), c1, c2 * 2.0]


@case
def softmax():
    """sequence_softmax over X [9, 1]: per sequence, the empty one too; Out
    keeps X's LoD."""
    x = feed("x", 1)
    return [x], [sequence_lod.sequence_softmax(x)]


@case
def softmax_float64_rank1():
    x = feed("x", [], "float64")
    return [x], [sequence_lod.sequence_softmax(x)]


@case
def softmax_attention_pool():
    """Attention over the steps of each sequence: a score per step, its
    sequence_softmax, the steps weighted by it and summed by sequence_pool
    (the LoD passed through sequence_softmax and the product)."""
    x = feed("x", 4)
    w = sequence_lod.sequence_softmax(paddle.static.nn.fc(x, 1))
    return [x], [sequence_lod.sequence_pool(x * w, "sum"), w]


@case
def reverse():
    """sequence_reverse of [9, 3] rows; Y keeps X's LoD; its pooled FIRST
    is X's LAST."""
    x = feed("x", 3)
    y = sequence_lod.sequence_reverse(x)
    return [x], [y, sequence_lod.sequence_pool(y, "first")]


@case
def reverse_types():
    """int64 [9, 2, 2], float64 [9, 1], int32 [9, 2] and uint8 [9, 5] (the
    kernel has it; the Python API refuses it)."""
    xs = [feed("a", (2, 2), "int64"), feed("b", 1, "float64"), feed("c", 2, "int32")]
    d = feed("d", 5, "uint8")
    return xs + [d], [sequence_lod.sequence_reverse(x) for x in xs] + append_op(
        "sequence_reverse", {"X": [d]}, {"Y": ["uint8"]}, {})


@case
def expand_as():
    """Each sequence's mean (sequence_pool) expanded back over its steps
    (sequence_expand_as by X's own LoD; Out gets it) and taken off them;
    int64 [N, 2] rows (a pool's N, cast) expanded too."""
    x = feed("x", 3)
    mean = sequence_lod.sequence_pool(x, "average")
    centred = x - sequence_lod.sequence_expand_as(mean, x)
    n = paddle.cast(sequence_lod.sequence_pool(x, "max") * 10.0, "int64")
    return [x], [centred, sequence_lod.sequence_expand_as(n, x)]


@case
def expand():
    """sequence_expand (ref_level -1 and 0) of pooled rows (no LoD) by the
    LoD of the pooled feed: each row repeated over its sequence's steps
    (none for the empty one); Out has no LoD."""
    x = feed("x", 2)
    pooled = sequence_lod.sequence_pool(x, "sqrt")
    last = paddle.cast(sequence_lod.sequence_pool(x, "last") * 7.0, "int32")
    return [x], [sequence_lod.sequence_expand(pooled, x), sequence_lod.sequence_expand(last, x, ref_level=0)]


@case
def enumerate_windows():
    """sequence_enumerate of int64 ids, win_size 2 (pad 0) and 5 (pad -3:
    longer than most sequences), and of int32 ids (win 3); Out keeps the
    LoD."""
    x = feed("x", 1, "int64")
    y = feed("y", 1, "int32")
    return [x, y], [sequence_lod.sequence_enumerate(x, 2), sequence_lod.sequence_enumerate(x, 5, pad_value=-3),
                    sequence_lod.sequence_enumerate(y, 3, pad_value=7)]


REAL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "models",
                    "textcnn_news_cls")


def textcnn_news_cls_pools(out_root):
    """The real 1.6 text CNN (../shared/models/textcnn_news_cls) cut after
    its two branches: the SQRT sequence_pools (is_test) and the tanh
    outputs (with their LoD), on 20 word ids in sequences of 5, 1, 7, 0, 7
    rows."""
    if not os.path.isdir(REAL):
        return
    exe = paddle.static.Executor(paddle.CPUPlace())
    out_dir = os.path.join(out_root, "textcnn_news_cls_pools")
    with paddle.static.scope_guard(paddle.static.Scope()):
        prog, feeds, _ = paddle.static.load_inference_model(REAL, exe, model_filename="__model__")
        block = prog.global_block()
        outs = [block.var(op.output("Out")[0]) for t in ("sequence_pool", "tanh") for op in block.ops if op.type == t]
        os.makedirs(out_dir, exist_ok=True)
        paddle.static.save_inference_model(os.path.join(out_dir, "model"), [block.var(feeds[0])], outs, exe,
                                           program=prog)
    ids = np.random.default_rng(zlib.crc32(b"textcnn")).integers(0, 5532, (20, 1)).astype("int64")
    reference(out_dir, [ids], [0, 5, 6, 13, 13, 20])


def textcnn_news_cls(out_root, name, lod, seed):
    """The whole real 1.6 text CNN (../shared/models/textcnn_news_cls) on its
    own weights, its softmax fetched: the two branches' pools (one LoD, so
    one number of sequences) meet in the fc's sum.  Each batch of sentences
    is its own case (the binary built for its rows)."""
    if not os.path.isdir(REAL):
        return
    exe = paddle.static.Executor(paddle.CPUPlace())
    out_dir = os.path.join(out_root, name)
    with paddle.static.scope_guard(paddle.static.Scope()):
        prog, feeds, fetches = paddle.static.load_inference_model(REAL, exe, model_filename="__model__")
        block = prog.global_block()
        os.makedirs(out_dir, exist_ok=True)
        paddle.static.save_inference_model(os.path.join(out_dir, "model"), [block.var(feeds[0])], fetches, exe,
                                           program=prog)
    ids = np.random.default_rng(zlib.crc32(seed)).integers(0, 5532, (lod[-1], 1)).astype("int64")
    reference(out_dir, [ids], lod)


# name: (the LoD of the word ids, the ids' seed)
TEXTCNN_BATCHES = {
    "textcnn_news_cls_a": ([0, 5, 6, 13, 13, 20], b"textcnn a"),  # 5 sentences: one of 1 word, one empty
    "textcnn_news_cls_b": ([0, 1, 2, 11, 12], b"textcnn b"),  # 4 sentences: three of 1 word
}


def main(argv):
    paddle.enable_static()
    paddle.seed(1)
    if len(argv) == 2 or "textcnn_news_cls_pools" in argv[2:]:
        textcnn_news_cls_pools(argv[1])
    for name, (lod, seed) in TEXTCNN_BATCHES.items():
        if len(argv) == 2 or name in argv[2:]:
            textcnn_news_cls(argv[1], name, lod, seed)
    for name in [n for n in argv[2:] if n in CASES] or (list(CASES) if len(argv) == 2 else []):
        out_dir, inputs = build_static_case(argv[1], name, CASES[name], make_input, run_reference=False)
        if getattr(CASES[name], "training_kernel", False):
            training_kernel(out_dir)
        reference(out_dir, inputs, getattr(CASES[name], "lod", LOD))


if __name__ == "__main__":
    main(sys.argv)

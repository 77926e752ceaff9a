#!/usr/bin/env python3
"""Gradient cases of the 1.x LoD sequence ops (compiler/ops/sequence*.c):
each forward op over LoD feeds (stop_gradient false) with a random
upstream gradient per output, Paddle's grad ops (paddle.static.gradients)
checked against paddlec's.

    python e2e_grad_seq.py OUTDIR [CASE ...]

The LoD feeds: x [14, W] with offsets LOD_X (sequences of 4, 0 (empty),
2, 6 and 2 rows), y [7, W] with LOD_Y (1, 2, 0, 0, 4: as many sequences),
z [5, W] with LOD_Z (an empty first sequence).  An output with one row per
sequence gets an upstream gradient dout_<i> of [-1, ...] fed with that
many rows (ROWS); the others one of the output's dims.  Each case dir
holds lod.json as e2e_lod.py's do."""
import os
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op, case_registry, lod_reference, randomize_params, save_grad_program  # noqa: E402

import numpy as np  # noqa: E402
import paddle  # noqa: E402
from paddle.static.nn import sequence_lod  # noqa: E402

LOD_X = [0, 4, 4, 6, 12, 14]
LOD_Y = [0, 1, 3, 3, 3, 7]
LOD_Z = [0, 0, 2, 3, 3, 5]
LODS = {"x": LOD_X, "y": LOD_Y, "z": LOD_Z, "tie_x": LOD_X}
LENGTHS = {"len3": [5, 0, 2], "len4": [1, 6, 0, 3]}  # sequence_unpad's Length feeds
CASES, case = case_registry()


def seq(name, width, dtype="float32"):
    """A LoD feed that gradients flow to (tie_x: x with few distinct
    values)."""
    shape = [LODS[name.replace("tie_", "")][-1]] + (list(width) if isinstance(width, (list, tuple)) else [width])
    v = paddle.static.data(name, shape, dtype, lod_level=1)
    v.stop_gradient = False
    return v


def pool(x, pooltype, pad_value=0.0):
    return sequence_lod.sequence_pool(x, pooltype, pad_value=pad_value)


# ---------------------------------------------------------------- sequence_pool
@case
def pool_sum_average_sqrt():
    """SUM, AVERAGE and SQRT over x [14, 3] (an empty sequence)."""
    x = seq("x", 3)
    return [x], [(pool(x, "sum"), 5), (pool(x, "average"), 5), (pool(x, "sqrt"), 5)]


@case
def pool_max_last_first():
    """MAX (ties: few distinct values), LAST and FIRST over x [14, 2, 3]
    (rank 3), pad_value for the empty sequence."""
    x = seq("tie_x", [2, 3])
    return [x], [(pool(x, "max", 0.5), 5), (pool(x, "last", -1.0), 5), (pool(x, "first"), 5)]


@case
def pool_float64_empty_first():
    """float64 z [5, 4] (its first sequence empty): every pooltype."""
    z = seq("z", 4, "float64")
    return [z], [(pool(z, t), 5) for t in ("sum", "average", "sqrt", "max", "last", "first")]


# ---------------------------------------------------------------- sequence_softmax
@case
def softmax_column():
    """x [14, 1] (an empty sequence) and float64 y [7]."""
    x = seq("x", 1)
    y = paddle.static.data("y", [7], "float64", lod_level=1)
    y.stop_gradient = False
    return [x, y], [(sequence_lod.sequence_softmax(x), None), (sequence_lod.sequence_softmax(y), None)]


# ---------------------------------------------------------------- sequence_expand_as / sequence_expand
@case
def expand_as_pooled():
    """x [14, 3] pooled (AVERAGE) and expanded back by x's LoD: the
    expand's X@GRAD (one row per sequence, an empty one among them) feeds
    the pool's grad."""
    x = seq("x", 3)
    return [x], [(sequence_lod.sequence_expand_as(pool(x, "average"), x), 14)]


@case
def expand_pooled_float64():
    """float64 y [7, 2, 2] pooled (MAX) and sequence_expand-ed by y's LoD
    (ref_level -1), and a SUM pool expanded with ref_level 0."""
    y = seq("y", [2, 2], "float64")
    a = sequence_lod.sequence_expand(pool(y, "max"), y)
    b = sequence_lod.sequence_expand(pool(y, "sum"), y, ref_level=0)
    return [y], [(a, 7), (b, 7)]


# ---------------------------------------------------------------- sequence_conv
def conv(x, filters, size, start):
    return sequence_lod.sequence_conv(x, filters, filter_size=size, padding_start=start, bias_attr=False)


@case
def conv_contexts():
    """x [14, 4]: contextLength 3 centred, 5 looking back, 2 looking
    ahead, and 7 (wider than every sequence); X's and Filter's grads."""
    x = seq("x", 4)
    return [x], [(conv(x, 3, 3, -1), None), (conv(x, 2, 5, -4), None), (conv(x, 4, 2, 0), None),
                 (conv(x, 3, 7, -3), None)]


@case
def conv_filter_only():
    """z [5, 3] (an empty first sequence) with stop_gradient: only the
    Filter's grad, contextStart 1 (the rows after)."""
    z = seq("z", 3)
    z.stop_gradient = True
    return [z], [(conv(z, 2, 2, 1), None)]


# ---------------------------------------------------------------- sequence_pad / sequence_unpad
def pad(x, pad_value, padded_length):
    return append_op("sequence_pad", {"X": [x], "PadValue": [pad_value]}, {"Out": [x.dtype], "Length": ["int64"]},
                     {"padded_length": padded_length})[0]


def unpad(x, length):
    return append_op("sequence_unpad", {"X": [x], "Length": [length]}, {"Out": [x.dtype]}, {})[0]


@case
def pad_float32():
    """x [14, 3] padded to 7 steps (the longest 6) with a fed PadValue:
    Out [5, 7, 3]; X's grad."""
    x = seq("x", 3)
    pv = paddle.static.data("pv", [1], "float32")
    return [x, pv], [(pad(x, pv, 7), 5)]


@case
def pad_float64_rank3():
    """float64 y [7, 2, 2] padded to its longest sequence (4)."""
    y = seq("y", [2, 2], "float64")
    pv = paddle.static.data("pv", [2, 2], "float64")
    return [y, pv], [(pad(y, pv, 4), 5)]


@case
def unpad_float32():
    """p [3, 5, 2] with Length [5, 0, 2] (fed): Out [7, 2], its grad fed
    with Out's LoD [0, 5, 5, 7] (what the kernel reads)."""
    p = paddle.static.data("p", [3, 5, 2], "float32")
    p.stop_gradient = False
    n = paddle.static.data("len3", [3], "int64")
    return [p, n], [(unpad(p, n), 7, [0, 5, 5, 7])]


@case
def unpad_float64_rank2():
    """float64 p [4, 6] with Length [1, 6, 0, 3]: Out [10, 1]."""
    p = paddle.static.data("p", [4, 6], "float64")
    p.stop_gradient = False
    n = paddle.static.data("len4", [4], "int64")
    return [p, n], [(unpad(p, n), 10, [0, 1, 7, 7, 10])]


# ---------------------------------------------------------------- sequence_concat / sequence_reshape
def concat(xs):
    return append_op("sequence_concat", {"X": list(xs)}, {"Out": [xs[0].dtype]}, {})[0]


def reshape(x, new_dim):
    return append_op("sequence_reshape", {"X": [x]}, {"Out": [x.dtype]}, {"new_dim": new_dim})[0]


@case
def concat_two():
    """x [14, 3] and y [7, 3] (empty sequences in each): both grads."""
    x, y = seq("x", 3), seq("y", 3)
    return [x, y], [(concat([x, y]), None)]


@case
def concat_three_float64():
    """float64 z, x, y of [*, 2, 2] (an empty sequence in each)."""
    z, x, y = seq("z", [2, 2], "float64"), seq("x", [2, 2], "float64"), seq("y", [2, 2], "float64")
    return [z, x, y], [(concat([z, x, y]), None)]


@case
def reshape_wider_narrower():
    """x [14, 4] -> rows of 8, and float64 y [7, 6] -> rows of 3."""
    x = seq("x", 4)
    y = seq("y", 6, "float64")
    return [x, y], [(reshape(x, 8), 7), (reshape(y, 3), 14)]


reshape_wider_narrower.fetch_outs = True  # else no kernel reads the LoDs (the grads copy)


def build_case(out_dir, name, fn):
    """fn() -> (feeds, outs): the feeds (the gradients of those with
    stop_gradient false fetched, and every parameter's) and (output, rows)
    or (output, rows, lod): rows the output's rows in the run where
    Paddle's compile-time dim 0 differs (one per sequence, or -1 for an
    expand's: its dout has that many), else None; lod, the offsets of the
    output's LoD, which its dout then carries (sequence_unpad_grad reads
    Out@GRAD's).  With `fn.fetch_outs = True` the outputs are fetched
    too, first."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        fed, outs = fn()
        wrt = [v for v in fed if not v.stop_gradient]
        douts, lods = [], dict(LODS)
        for i, (o, n, *lod) in enumerate(outs):
            shape = list(o.shape)
            if n is not None:  # Paddle's compile-time dims are X's: say the run's
                shape[0] = n
                o.desc.set_shape(shape)
            douts.append(paddle.static.data(f"dout_{i}", shape, o.dtype, lod_level=1 if lod else 0))
            if lod:
                lods[f"dout_{i}"] = lod[0]
        params = [p for p in main.all_parameters() if not p.stop_gradient]
        grads = paddle.static.gradients([o[0] for o in outs], list(wrt) + params, target_gradients=douts)
    feeds = [v.name for v in fed] + [d.name for d in douts]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    block = main.global_block()
    inputs = [make_input(block.var(f), rng) for f in feeds]
    case_dir = os.path.join(out_dir, name)
    exe = paddle.static.Executor(paddle.CPUPlace())
    with paddle.static.scope_guard(paddle.static.Scope()):
        exe.run(startup)
        randomize_params(main, paddle.static.global_scope(), rng)
        fetches = [o[0] for o in outs] if getattr(fn, "fetch_outs", False) else []
        fetches += [g for g in grads if g is not None]
        save_grad_program(case_dir, main, feeds, fetches, exe)
    lod_reference(case_dir, inputs, lods)


def make_input(var, rng):
    dt = str(var.dtype).split(".")[-1]
    shape = list(var.shape)
    if var.name in LENGTHS:
        return np.array(LENGTHS[var.name], dtype=dt)
    if "int" in dt:
        return rng.integers(-50, 50, shape).astype(dt)
    if var.name.startswith("tie_"):
        return rng.integers(-2, 3, shape).astype(dt)
    return rng.uniform(-2, 2, shape).astype(dt)


def main(argv):
    paddle.enable_static()
    paddle.seed(1)
    for name in argv[2:] or list(CASES):
        build_case(argv[1], name, CASES[name])


if __name__ == "__main__":
    main(sys.argv)

"""Every kind of bad input gets one clear line naming the file (and the op or
variable), exit status 1, and no crash or leak (the sanitizer build runs)."""
import os
import shutil
import struct

import pytest

from conftest import MODELS, run


def tensor_records(data):
    """Splits a combined parameter file into (header, desc_bytes, payload)
    tuples, following spec section 5.1 (written here independently of paddlec)."""
    out, off = [], 0
    sizes = {5: 4, 3: 8, 2: 4, 6: 8}
    while off < len(data):
        start = off
        off += 4
        (levels,) = struct.unpack_from("<Q", data, off)
        off += 8
        for _ in range(levels):
            (n,) = struct.unpack_from("<Q", data, off)
            off += 8 + n
        off += 4
        (dsize,) = struct.unpack_from("<i", data, off)
        off += 4
        desc = data[off:off + dsize]
        off += dsize
        dtype, dims, i = None, [], 0
        while i < len(desc):  # varint fields 1 (dtype) and 2 (dims, unpacked)
            key = desc[i]
            i += 1
            v, shift = 0, 0
            while True:
                b = desc[i]
                i += 1
                v |= (b & 0x7F) << shift
                shift += 7
                if not b & 0x80:
                    break
            if key == 0x08:
                dtype = v
            elif key == 0x10:
                dims.append(v)
        n = sizes[dtype]
        for d in dims:
            n *= d
        out.append((data[start:off - dsize], desc, data[off:off + n], dtype, dims))
        off += n
    return out


def join(records):
    return b"".join(h + d + p for h, d, p, _, _ in records)


def varint(v):
    b = bytearray()
    while True:
        if v < 0x80:
            b.append(v)
            return bytes(b)
        b.append((v & 0x7F) | 0x80)
        v >>= 7


def desc_bytes(dtype, dims):
    return b"\x08" + varint(dtype) + b"".join(b"\x10" + varint(d) for d in dims)


def with_desc(rec, dtype, dims):
    h, _, p, _, _ = rec
    d = desc_bytes(dtype, dims)
    return (h[:-4] + struct.pack("<i", len(d)), d, p, dtype, dims)


@pytest.fixture
def mlp(fixtures_dir, tmp_path):
    """A private copy of the Paddle-exported MLP fixture."""
    d = tmp_path / "mlp"
    d.mkdir()
    for f in ("model.pdmodel", "model.pdiparams"):
        shutil.copy(os.path.join(fixtures_dir, "mlp", f), d / f)
    return d


def bad(args, *must_contain):
    p = run(args)
    assert p.returncode == 1, (p.returncode, p.stdout[-500:], p.stderr)
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith("paddlec: error: ")
    for s in must_contain:
        assert s in lines[0], (s, lines[0])
    return lines[0]


def test_not_a_protobuf(tmp_path):
    f = tmp_path / "junk.pdmodel"
    f.write_bytes(bytes(range(256)) * 4)
    bad(["inspect", str(f)], str(f), "not a Paddle ProgramDesc")


def test_text_file_is_not_a_program(tmp_path):
    f = tmp_path / "notes.pdmodel"
    f.write_text("hello, this is not a model\n")
    bad(["inspect", str(f)], str(f), "not a Paddle ProgramDesc")


def test_truncated_program(mlp):
    f = mlp / "model.pdmodel"
    data = f.read_bytes()
    f.write_bytes(data[: len(data) // 2])
    bad(["inspect", str(f)], str(f))


def test_empty_file(tmp_path):
    f = tmp_path / "empty.pdmodel"
    f.write_bytes(b"")
    bad(["inspect", str(f)], str(f), "empty")


def test_directory_without_model(tmp_path):
    (tmp_path / "readme.txt").write_text("nothing here")
    bad(["inspect", str(tmp_path)], str(tmp_path), "no Paddle model")


def test_truncated_params(mlp):
    f = mlp / "model.pdiparams"
    data = f.read_bytes()
    f.write_bytes(data[:-10])
    bad(["inspect", str(mlp)], "model.pdiparams", "truncated", "parameter '")


def test_trailing_bytes_after_last_tensor(mlp):
    f = mlp / "model.pdiparams"
    f.write_bytes(f.read_bytes() + b"\0" * 7)
    bad(["inspect", str(mlp)], "model.pdiparams", "7 trailing bytes")


def test_param_dtype_disagrees(mlp):
    f = mlp / "model.pdiparams"
    recs = tensor_records(f.read_bytes())
    recs[0] = with_desc(recs[0], 2, recs[0][4])  # float32 -> int32, same size
    f.write_bytes(join(recs))
    bad(["inspect", str(mlp)], "model.pdiparams", "int32", "float32", "linear_0.b_0")


def test_param_dims_disagree(mlp):
    f = mlp / "model.pdiparams"
    recs = tensor_records(f.read_bytes())
    i = next(k for k, r in enumerate(recs) if len(r[4]) == 2)
    recs[i] = with_desc(recs[i], 5, list(reversed(recs[i][4])))  # same bytes, dims swapped
    f.write_bytes(join(recs))
    bad(["inspect", str(mlp)], "model.pdiparams", "dims", "VarDesc")


def test_param_size_disagrees(mlp):
    f = mlp / "model.pdiparams"
    recs = tensor_records(f.read_bytes())
    last = recs[-1]
    recs[-1] = (last[0], last[1], last[2][:-4], last[3], last[4])  # one element short
    f.write_bytes(join(recs))
    bad(["inspect", str(mlp)], "model.pdiparams", "truncated", recs[-1][0] and "parameter")


def test_unknown_dtype_number(mlp):
    f = mlp / "model.pdiparams"
    recs = tensor_records(f.read_bytes())
    recs[0] = with_desc(recs[0], 99, recs[0][4])
    f.write_bytes(join(recs))
    bad(["inspect", str(mlp)], "model.pdiparams", "unknown dtype number 99", "linear_0.b_0")


def test_missing_per_variable_file(tmp_path):
    src = os.path.join(MODELS, "book_fit_a_line_2019")
    d = tmp_path / "fit"
    shutil.copytree(src, d)
    os.remove(d / "fc_0.w_0")
    bad(["inspect", str(d)], "fc_0.w_0", "missing parameter file")


def test_op_references_undeclared_var(mlp):
    from paddle.base.proto import framework_pb2
    f = mlp / "model.pdmodel"
    pd = framework_pb2.ProgramDesc()
    pd.ParseFromString(f.read_bytes())
    op = next(o for o in pd.blocks[0].ops if o.type == "relu")
    op.inputs[0].arguments[0] = "ghost_var"
    f.write_bytes(pd.SerializeToString())
    bad(["inspect", str(f)], str(f), "relu", "ghost_var", "no block declares")


def test_graph_needs_output(mlp):
    bad(["graph", str(mlp)], "-o")


def test_unknown_option(mlp):
    bad(["inspect", str(mlp), "--frobnicate"], "--frobnicate")


def test_batch_times_batch_size_asks_for_a_fixed_batch(tmp_path):
    """x @ x^T on a batch-open x is [N, N]: its size is not linear in the batch,
    which the arena cannot plan; the error names the op and the way out."""
    import subprocess
    import sys
    script = tmp_path / "export.py"
    script.write_text(
        "import os, sys\n"
        "os.environ['FLAGS_enable_pir_api'] = '0'\n"
        "import paddle\n"
        "class Pairwise(paddle.nn.Layer):\n"
        "    def forward(self, x):\n"
        "        return paddle.matmul(x, x, transpose_y=True)\n"
        "layer = Pairwise()\n"
        "layer.eval()\n"
        "spec = [paddle.static.InputSpec([None, 4], 'float32', 'x')]\n"
        "paddle.jit.save(paddle.jit.to_static(layer, input_spec=spec, full_graph=True), sys.argv[1])\n")
    subprocess.run([sys.executable, str(script), str(tmp_path / "model")], check=True, capture_output=True)
    p = run(["compile", str(tmp_path / "model.pdmodel"), "-o", str(tmp_path / "out")])
    assert p.returncode == 1, p.stderr
    assert "(matmul_v2 -> " in p.stderr and "batch x batch elements" in p.stderr and "--shape x=" in p.stderr
    assert not (tmp_path / "out").exists()
    p = run(["compile", str(tmp_path / "model.pdmodel"), "-o", str(tmp_path / "out"), "--shape", "x=3,4"])
    assert p.returncode == 0, p.stderr


def export_one_op(tmp_path, body, training=False, clip_extra=True):
    """Saves a static program whose ops `body` (Python, with x = a [6, 20]
    float32 feed, `op` = oracle_case.append_op, and np) appends, fetching
    `out`; returns the .pdmodel path.  `training`: the file is rewritten
    with is_test false (save_inference_model sets it on every op).
    clip_extra=False: save_inference_model keeps the ops' extra attributes
    and outputs."""
    import subprocess
    import sys
    script = tmp_path / "export.py"
    script.write_text(
        "import os, sys\n"
        "os.environ['FLAGS_enable_pir_api'] = '0'\n"
        f"sys.path.insert(0, {os.path.join(os.path.dirname(os.path.abspath(__file__)), 'oracle')!r})\n"
        "import numpy as np\n"
        "import paddle\n"
        "from oracle_case import append_op as op\n"
        "paddle.enable_static()\n"
        "main, startup = paddle.static.Program(), paddle.static.Program()\n"
        "with paddle.static.program_guard(main, startup):\n"
        "    x = paddle.static.data('x', [6, 20], 'float32')\n"
        + "".join(f"    {line}\n" for line in body.splitlines()) +
        "exe = paddle.static.Executor(paddle.CPUPlace())\n"
        "exe.run(startup)\n"
        f"paddle.static.save_inference_model(sys.argv[1], feeds, [out], exe, program=main, clip_extra={clip_extra})\n"
        + ("p = paddle.static.Program.parse_from_string(open(sys.argv[1] + '.pdmodel', 'rb').read())\n"
           "[o._set_attr('is_test', False) for o in p.global_block().ops if o.has_attr('is_test')]\n"
           "open(sys.argv[1] + '.pdmodel', 'wb').write(p.desc.serialize_to_string())\n" if training else ""))
    subprocess.run([sys.executable, str(script), str(tmp_path / "model")], check=True, capture_output=True)
    return str(tmp_path / "model.pdmodel")


@pytest.mark.parametrize("slot", ["Shape", "ShapeTensor"])
@pytest.mark.parametrize("type_", ["reshape2", "reshape"])
def test_reshape_shape_known_only_at_run_time(tmp_path, type_, slot):
    """A reshape whose target shape is a fed tensor (Paddle's OpTest case:
    X [6, 20], Shape [2, 3, 20], shape [0, -1, 20]) took the attribute
    instead; it is refused, naming the op and the slot."""
    if slot == "Shape":
        feed = "s = paddle.static.data('s', [3], 'int32')\ninputs = {'X': [x], 'Shape': [s]}\nfeeds = [x, s]"
    else:
        feed = ("s = [paddle.static.data(f's{i}', [1], 'int32') for i in range(2)]\n"
                "inputs = {'X': [x], 'ShapeTensor': s + [paddle.assign(np.array([20], 'int32'))]}\n"
                "feeds = [x] + s")
    outs = "{'Out': ['float32'], 'XShape': ['float32']}" if type_ == "reshape2" else "{'Out': ['float32']}"
    model = export_one_op(tmp_path, f"{feed}\nout = op('{type_}', inputs, {outs}, {{'shape': [0, -1, 20]}})[0]")
    line = bad(["compile", model, "-o", str(tmp_path / "out")], f"({type_} -> ", f"input {slot} ", "run time")
    assert model in line
    assert not (tmp_path / "out").exists()


def test_run_time_dim_traced_to_where_its_value_comes_from(tmp_path):
    """arange's end is a fill_constant whose value is a fed tensor
    (ValueTensor): the dims that follow are only known at run time.  The
    one error is at the op where the unknown dim starts (range), traced
    through End to fill_constant's ValueTensor and the feed; the vars
    downstream (the outputs of the cast and of the two scales that `* 2.0`
    writes) get one note, not an error each."""
    model = export_one_op(tmp_path, (
        "v = paddle.static.data('v', [1], 'int64')\n"
        "feeds = [v]\n"
        "end = op('fill_constant', {'ValueTensor': [v]}, {'Out': ['int64']}, {'shape': [1], 'dtype': 3})[0]\n"
        "out = paddle.cast(paddle.arange(0, end), 'float32') * 2.0"))
    p = run(["compile", model, "-o", str(tmp_path / "out")])
    assert p.returncode == 1, (p.returncode, p.stderr)
    errors = [ln for ln in p.stderr.splitlines() if ln.startswith("paddlec: error: ")]
    notes = [ln for ln in p.stderr.splitlines() if ln.startswith("paddlec: note: ")]
    assert len(errors) == 1 and len(notes) == 1, p.stderr
    for s in (model, "(range -> ", "only known at run time", "input End (", "from input ValueTensor ('v') of ",
              "(fill_constant -> "):
        assert s in errors[0], (s, errors[0])
    assert "3 more vars" in notes[0], notes[0]
    assert not (tmp_path / "out").exists()


def test_negative_shape_value_from_a_tensor_list(tmp_path):
    """fill_constant's ShapeTensorList with an entry whose value (known when
    compiling) is -1 beside a fed one: a negative dim, refused naming the op
    and the value.  (-1 is also paddlec's mark for a dim known only at run
    time; the entry was once taken for such a dim.)"""
    model = export_one_op(tmp_path, (
        "n = paddle.static.data('n', [1], 'int64')\n"
        "feeds = [x, n]\n"
        "dims = [paddle.assign(np.array([-1], 'int64')), n]\n"
        "out = op('fill_constant', {'ShapeTensorList': dims}, {'Out': ['float32']},"
        " {'shape': [2, 3], 'dtype': 5, 'value': 1.0})[0] + paddle.sum(x)"))
    line = bad(["compile", model, "-o", str(tmp_path / "out")], "(fill_constant -> ", "shape value 0 is -1")
    assert model in line
    assert not (tmp_path / "out").exists()


def test_reduce_grad_whose_out_the_forward_reduced_otherwise(tmp_path):
    """frobenius_norm_grad with reduce_all set, reading an Out the forward
    reduced over dim 0 only ([20], not a scalar): Paddle's kernel reads past
    Out (its results change from run to run); refused, naming the op and Out."""
    model = export_one_op(tmp_path, (
        "d = paddle.static.data('d', [], 'float32')\n"
        "feeds = [x, d]\n"
        "x.stop_gradient = False\n"
        "n = op('frobenius_norm', {'X': [x]}, {'Out': ['float32']}, {'dim': [0], 'reduce_all': True})[0]\n"
        "out = paddle.static.gradients([n], [x], [d])[0]\n"
        "[o._set_attr('reduce_all', False) for o in main.global_block().ops if o.type == 'frobenius_norm']"))
    bad(["compile", model, "-o", str(tmp_path / "out")], model, "(frobenius_norm_grad -> ", "Out (",
        "does not hold the kept dims of X")


def test_sequence_concat_grad_of_an_input_without_grad_refused(tmp_path):
    """sequence_concat_grad with one X@GRAD unbound (stop_gradient): Paddle's
    SplitFunctor pairs the grads it writes with the first pieces' sizes;
    refused, naming the slot."""
    model = export_one_op(tmp_path, (
        "s = paddle.static.data('s', [6, 3], 'float32', lod_level=1)\n"
        "t = paddle.static.data('t', [4, 3], 'float32', lod_level=1)\n"
        "d = paddle.static.data('d', [10, 3], 'float32')\n"
        "feeds = [s, t, d]\n"
        "s.stop_gradient = False\n"
        "c = op('sequence_concat', {'X': [s, t]}, {'Out': ['float32']}, {})[0]\n"
        "out = paddle.static.gradients([c], [s], [d])[0]"))
    bad(["compile", model, "-o", str(tmp_path / "out")], model, "(sequence_concat_grad -> ",
        "X@GRAD[1] is unbound (X[1] 't' needs no grad)")


def test_fake_quantize_range_abs_max_training_refused(tmp_path):
    """fake_quantize_range_abs_max in training keeps a window of scales
    across runs (OutScales): refused, naming the op."""
    model = export_one_op(tmp_path, (
        "s = paddle.static.data('s', [1], 'float32')\n"
        "it = paddle.static.data('it', [1], 'int64')\n"
        "feeds = [x, s, it]\n"
        "out = op('fake_quantize_range_abs_max', {'X': [x], 'InScale': [s], 'Iter': [it]},\n"
        "         {'Out': ['float32'], 'OutScale': ['float32'], 'OutScales': ['float32']},\n"
        "         {'window_size': 4, 'is_test': False})[0]"), training=True)
    bad(["compile", model, "-o", str(tmp_path / "out")], "(fake_quantize_range_abs_max -> ", "OutScales")


def test_fused_elemwise_activation_pair_paddle_does_not_compute(tmp_path):
    """A user's fused_elemwise_activation computes one of the nine functor
    pairs of Paddle's kernel; [sigmoid, elementwise_add] is not one (Paddle's
    checker refuses it when the op is appended, so the file is edited after):
    refused, naming the op and the pair — not computed with the sigmoid op's
    own formula."""
    model = export_one_op(tmp_path, (
        "feeds = [x]\n"
        "out = op('fused_elemwise_activation', {'X': [x], 'Y': [x]},\n"
        "         {'Out': ['float32'], 'IntermediateOut': ['float32']},\n"
        "         {'functor_list': ['relu', 'elementwise_add']})[0]\n"
        "[o._set_attr('functor_list', ['sigmoid', 'elementwise_add']) for o in main.global_block().ops\n"
        " if o.type == 'fused_elemwise_activation']"))
    bad(["compile", model, "-o", str(tmp_path / "out")], "(fused_elemwise_activation -> ", "[sigmoid, elementwise_add]",
        "none of the nine pairs")


# One op whose tensors or attributes Paddle's CPU kernels do not compute
# (reason, body for export_one_op, is the program training, fragments the
# message must hold): refused, naming the file, the op and what is wrong,
# nothing written.
NMS3 = ("out = op('multiclass_nms3', {{'BBoxes': [b], 'Scores': [s]}}, {{'Out': ['float32'], {out}"
        "'NmsRoisNum': ['int32']}}, {{'score_threshold': 0.1, 'nms_top_k': -1, 'keep_top_k': 10}})[0]")
NMS12 = ("out = op('{type}', {{'BBoxes': [b], 'Scores': [s]}}, {{'Out': ['float32'], {out}}}, "
         "{{'score_threshold': 0.1, 'nms_top_k': -1, 'keep_top_k': 10}})[0]")
PROPOSALS = ("s = paddle.static.data('s', [2, 3, 4, 5], 'float32')\n"
             "d = paddle.static.data('d', [2, 12, 4, 5], 'float32')\n"
             "im = paddle.static.data('im', [2, 2], '{im}')\n"
             "a = paddle.static.data('a', {anchors}, 'float32')\n"
             "v = paddle.static.data('v', {anchors}, 'float32')\n"
             "feeds = [s, d, im, a, v]\n"
             "out = op('generate_proposals_v2', {{'Scores': [s], 'BboxDeltas': [d], 'ImShape': [im], "
             "'Anchors': [a], 'Variances': [v]}}, {{'RpnRois': ['float32'], 'RpnRoiProbs': ['float32']}}, "
             "{{'pre_nms_topN': 10, 'post_nms_topN': 5, 'nms_thresh': 0.5, 'min_size': 0.1, 'eta': 1.0, "
             "'pixel_offset': True}})[0]")

# a LoD feed s [T, 3D] and a Weight w [D, 3D] (D 2) for the gru rows
GRU = ("s = paddle.static.data('s', [-1, 6], 'float32', lod_level=1)\n"
       "w = paddle.static.data('w', [2, 6], 'float32')\n"
       "feeds = [s, w]\n")

# a LoD feed s [T, 4D], Weight w [D, 4D] and Bias b [1, 4D] (D 2, no
# peepholes) for the lstm rows; LSTM(dtype, fetch) is the op with its four
# outputs, LSTM_OUTS the names of those
LSTM = ("s = paddle.static.data('s', [-1, 8], '{dt}', lod_level=1)\n"
        "w = paddle.static.data('w', [2, 8], '{wdt}')\n"
        "b = paddle.static.data('b', [1, 8], '{dt}')\n"
        "feeds = [s, w, b]\n"
        "outs = op('lstm', {{'Input': [s], 'Weight': [w], 'Bias': [b]}}, {{'Hidden': ['{dt}'], 'Cell': ['{dt}'], "
        "'BatchGate': ['{dt}'], 'BatchCellPreAct': ['{dt}']}}, {{'use_peepholes': False}})\n")


# deformable_conv_v1 of Input i [n, c, 7, 7], Offset o [n, oc, 5, 5] and a
# 3x3 Filter w [4, c, 3, 3]; `post` edits the op after Paddle's shape rule
# ran (an attribute value its check would stop on, or divide by)
DEFORM = ("i = paddle.static.data('i', [{n}, {c}, 7, 7], 'float32')\n"
          "o = paddle.static.data('o', [{n}, {oc}, 5, 5], '{odt}')\n"
          "w = paddle.static.data('w', [4, {c}, 3, 3], 'float32')\n"
          "feeds = [i, o, w]\n"
          "out = op('deformable_conv_v1', {{'Input': [i], 'Offset': [o], 'Filter': [w]}}, {{'Output': ['float32']}}, "
          "{{'deformable_groups': {dg}}})[0]\n"
          "[p._set_attr('im2col_step', {step}) for p in main.global_block().ops if p.type == 'deformable_conv_v1']")


ONE_OP_REFUSALS = {
    # deformable_conv_v1: a batch above im2col_step and no multiple of it
    # (Paddle's shape rule refuses it), im2col_step 0 (Paddle divides by
    # it), an Offset with 2*dg*kH*kW + kH*kW channels (Paddle's check lets
    # it through, then its kernel reads the images' offsets at the wrong
    # place), Input channels not divisible by deformable_groups (the kernel
    # reads past Offset), a float64 Offset with a float32 Input
    "deform_batch_not_a_multiple_of_im2col_step": (DEFORM.format(n=3, c=2, oc=18, odt="float32", dg=1, step=2), False,
                                                   ["(deformable_conv_v1 -> ", "the batch 3 is above im2col_step 2",
                                                    "not a multiple of it"]),
    "deform_im2col_step_zero": (DEFORM.format(n=2, c=2, oc=18, odt="float32", dg=1, step=0), False,
                                ["(deformable_conv_v1 -> ", "im2col_step 0 must be at least 1"]),
    "deform_offset_channels": (DEFORM.format(n=2, c=2, oc=27, odt="float32", dg=1, step=64), False,
                               ["(deformable_conv_v1 -> ", "Offset ('o') [2, 27, 5, 5] must be [N, 18, Ho, Wo]",
                                "dim 1 differs"]),
    "deform_channels_by_deformable_groups": (DEFORM.format(n=2, c=3, oc=36, odt="float32", dg=2, step=64), False,
                                             ["(deformable_conv_v1 -> ", "Input's 3 channels must be divisible by "
                                              "deformable_groups 2"]),
    "deform_mixed_dtypes": (DEFORM.format(n=2, c=2, oc=18, odt="float64", dg=1, step=64), False,
                            ["(deformable_conv_v1 -> ", "Offset ('o') is float64 but Input ('i') is float32"]),
    # ops after generate_proposals_v2's RpnRois [R, 4], R known only at run
    # time: the element-wise ops take it with an operand broadcast along it
    # or with the same extent; two extents from different producers, an
    # extent against a dim > 1, a sum with an input without it, a reshape,
    # flatten or softmax that would move or reduce the rows, and a product
    # with the extent in K are refused by name
    "extent_against_a_dim": (PROPOSALS.format(im="float32", anchors=[4, 5, 3, 4]) + "\n"
                             "y = paddle.static.data('y', [10, 4], 'float32')\nfeeds.append(y)\nout = out * y", False,
                             ["(elementwise_mul -> ", "dim 0 of X ('", "is only known at run time",
                              "Y ('y') [10, 4] does not broadcast along it (its dim there is 10, not 1)"]),
    "extent_sum_with_a_static_input": (PROPOSALS.format(im="float32", anchors=[4, 5, 3, 4]) + "\n"
                                       "y = paddle.static.data('y', [10, 4], 'float32')\nfeeds.append(y)\n"
                                       "out = paddle.add_n([out, y])", False,
                                       ["(sum -> ", "X[1] ('y') does not have a run-time extent on dim 0 only, as X ('",
                                        "sum takes run-time extents only when every input has them on the same dims"]),
    "extent_reshaped_away": (PROPOSALS.format(im="float32", anchors=[4, 5, 3, 4]) + "\nout = paddle.reshape(out, [10, 4])",
                             False, ["(reshape2 -> ", "has dims only the run knows that the target shape neither "
                                     "copies (0 at their index) nor takes into its -1"]),
    "extent_kron_over_it": (PROPOSALS.format(im="float32", anchors=[4, 5, 3, 4]) + "\n"
                            "out = paddle.kron(out, out)", False,
                            ["(kron -> ", "dim 0 of input X ('", "kron does not take such an input"]),
    # i0e of float16: Paddle's CPU kernels are float and double; paddlec's
    # too, rather than computing in another precision
    "bessel_float16": ("h = paddle.static.data('h', [6, 20], 'float16')\n"
                       "feeds = [h]\n"
                       "out = op('i0e', {'x': [h]}, {'out': ['float16']}, {})[0]", False,
                       ["(i0e -> ", "'h' is float16", "supported for float32 or float64"]),
    # nearest_interp_v2 lists an int8 kernel, but only oneDNN's: Paddle's CPU
    # Executor finds none (measured on 2.6.2)
    "nearest_interp_int8": ("i = paddle.static.data('i', [2, 3, 4, 5], 'int8')\n"
                            "feeds = [i]\n"
                            "out = op('nearest_interp_v2', {'X': [i]}, {'Out': ['int8']}, "
                            "{'out_h': 6, 'out_w': 7, 'interp_method': 'nearest'})[0]", False,
                            ["(nearest_interp_v2 -> ", "int8", "float32, float64, uint8, int32, int64"]),
    # pow of integers raises to the factor truncated to the integer type with
    # Eigen's integer pow, which never returns for a negative exponent
    # (Paddle 2.6.2 spins)
    "pow_int_negative_factor": ("i = paddle.static.data('i', [4, 5], 'int64')\n"
                                "feeds = [i]\n"
                                "out = op('pow', {'X': [i]}, {'Out': ['int64']}, {'factor': -1.5})[0]", False,
                                ["(pow -> ", "int64", "factor -1.5", "never returns"]),
    # clip with min > max once the bounds are converted to the tensor's type
    # (3.5 and 3.9 are both 3 as int32: fine; -1.5 > -2.5): Paddle's
    # kernel raises an error
    "clip_min_above_max": ("i = paddle.static.data('i', [4, 5], 'int32')\n"
                           "feeds = [i]\n"
                           "out = op('clip', {'X': [i]}, {'Out': ['int32']}, {'min': -1.5, 'max': -2.5})[0]", False,
                           ["(clip -> ", "min -1.5 and max -2.5 are -1 and -2 as int32", "min > max"]),
    # nearest_interp_v2 of int32 with interp_method bilinear: only uint8
    # takes the linear family here
    "bilinear_interp_int32": ("i = paddle.static.data('i', [2, 3, 4, 5], 'int32')\n"
                              "feeds = [i]\n"
                              "out = op('nearest_interp_v2', {'X': [i]}, {'Out': ['int32']}, "
                              "{'out_h': 6, 'out_w': 7, 'interp_method': 'bilinear'})[0]", False,
                              ["(nearest_interp_v2 -> ", "linear resizing of int32", "nearest for int32"]),
    # rrelu in training draws as Paddle's float and double kernels do; a
    # float16 X (no CPU kernel) is refused before anything is drawn
    "rrelu_training_float16": ("d = paddle.static.data('d', [4, 5], 'float16')\n"
                               "feeds = [d]\n"
                               "out = op('rrelu', {'X': [d]}, {'Out': ['float16'], 'Noise': ['float16']}, "
                               "{'is_test': False})[0]", True,
                               ["(rrelu -> ", "'d' is float16", "supported for float32 or float64"]),
    # an optimizer whose Grad is not shaped like Param: the update reads Grad
    # element for element with Param (a smaller Grad would be read past its end)
    "sgd_grad_not_param": ("p = paddle.static.data('p', [4, 5], 'float32')\n"
                           "g = paddle.static.data('g', [3, 5], 'float32')\n"
                           "lr = paddle.static.data('lr', [1], 'float32')\n"
                           "feeds = [p, g, lr]\n"
                           "out = op('sgd', {'Param': [p], 'Grad': [g], 'LearningRate': [lr]}, "
                           "{'ParamOut': ['float32']}, {})[0]", False,
                           ["(sgd -> ", "Grad [3, 5] does not match Param [4, 5]"]),
    # the same for lars_momentum (fluid LarsMomentumOp's InferShape checks
    # it); its rule checked only Velocity, and the update read past Grad
    "lars_momentum_grad_not_param": ("p = paddle.static.data('p', [4, 5], 'float32')\n"
                                     "g = paddle.static.data('g', [3, 5], 'float32')\n"
                                     "lr = paddle.static.data('lr', [1], 'float32')\n"
                                     "feeds = [p, g, lr]\n"
                                     "out = op('lars_momentum', {'Param': [p], 'Grad': [p], 'Velocity': [p], "
                                     "'LearningRate': [lr]}, {'ParamOut': ['float32'], 'VelocityOut': ['float32']}, "
                                     "{'mu': 0.9})[0]\n"
                                     "[o.desc.set_input('Grad', ['g']) for o in main.global_block().ops "
                                     "if o.type == 'lars_momentum']", False,
                                     ["(lars_momentum -> ", "Grad[0] 'g' [3, 5] does not match Param[0] 'p' [4, 5]"]),
    # roi_align's RoIs belong to the images RoisNum says; without it Paddle
    # reads them from the LoD of ROIs, which paddlec does not carry yet
    "roi_align_without_roisnum": ("r = paddle.static.data('r', [5, 4], 'float32')\n"
                                  "i = paddle.static.data('i', [2, 3, 8, 8], 'float32')\n"
                                  "feeds = [i, r]\n"
                                  "out = op('roi_align', {'X': [i], 'ROIs': [r]}, {'Out': ['float32']}, "
                                  "{'pooled_height': 2, 'pooled_width': 2})[0]", False,
                                  ["(roi_align -> ", "ROIs without RoisNum are not supported", "LoD of ROIs 'r'"]),
    # roi_align registers an int kernel whose sample positions are size_t
    # arithmetic: refused rather than guessed
    "roi_align_int32": ("r = paddle.static.data('r', [5, 4], 'int32')\n"
                        "i = paddle.static.data('i', [2, 3, 8, 8], 'int32')\n"
                        "n = paddle.static.data('n', [2], 'int32')\n"
                        "feeds = [i, r, n]\n"
                        "out = op('roi_align', {'X': [i], 'ROIs': [r], 'RoisNum': [n]}, {'Out': ['int32']}, "
                        "{'pooled_height': 2, 'pooled_width': 2})[0]", False,
                        ["(roi_align -> ", "roi_align of X int32 and ROIs int32 is not supported"]),
    # an int64 RoisNum: Paddle 2.6.2 raises (it reads RoisNum as int32)
    "roi_pool_int64_roisnum": ("r = paddle.static.data('r', [5, 4], 'float32')\n"
                               "i = paddle.static.data('i', [2, 3, 8, 8], 'float32')\n"
                               "n = paddle.static.data('n', [2], 'int64')\n"
                               "feeds = [i, r, n]\n"
                               "out = op('roi_pool', {'X': [i], 'ROIs': [r], 'RoisNum': [n]}, "
                               "{'Out': ['float32'], 'Argmax': ['int64']}, "
                               "{'pooled_height': 2, 'pooled_width': 2})[0]", False,
                               ["(roi_pool -> ", "RoisNum 'n' is int64", "reads it as int32"]),
    # cumsum with flatten scans Out [numel]: Paddle's kernel checks axis
    # against that one dim (measured on 2.6.2: axis 2 raises, -1 and 0 run)
    "cumsum_flatten_axis_2": ("i = paddle.static.data('i', [2, 3, 4], 'float32')\n"
                              "feeds = [i]\n"
                              "out = op('cumsum', {'X': [i]}, {'Out': ['float32']}, {'axis': 2, 'flatten': True})[0]",
                              False, ["(cumsum -> ", "axis 2 is out of range for X flattened to [24]"]),
    # generate_proposals_v2 reads ImShape as Scores' type: 2.6.2 raises for
    # a float64 ImShape beside float32 scores (measured)
    "proposals_imshape_f64": (PROPOSALS.format(im="float64", anchors="[4, 5, 3, 4]"), False,
                              ["(generate_proposals_v2 -> ", "'s' is float32 but 'im' is float64"]),
    # Anchors hold 4 numbers for each of the A*H*W anchors of Scores
    "proposals_anchor_count": (PROPOSALS.format(im="float32", anchors="[4, 5, 2, 4]"), False,
                               ["(generate_proposals_v2 -> ", "Anchors [4, 5, 2, 4] and Variances",
                                "4 numbers per anchor of Scores"]),
    # distribute_fpn_proposals takes each RoI's image from RoisNum; without
    # it, from FpnRois' LoD, which paddlec does not carry yet
    "fpn_without_rois_num": ("r = paddle.static.data('r', [6, 4], 'float32')\n"
                             "feeds = [r]\n"
                             "out = op('distribute_fpn_proposals', {'FpnRois': [r]}, "
                             "{'MultiFpnRois': ['float32', 'float32'], 'RestoreIndex': ['int32']}, "
                             "{'min_level': 2, 'max_level': 3, 'refer_level': 3, 'refer_scale': 16, "
                             "'pixel_offset': True})[1]", False,
                             ["(distribute_fpn_proposals -> ", "FpnRois without RoisNum is not supported"]),
    # collect_fpn_proposals takes each RoI's image from MultiLevelRoIsNum;
    # without it, from the levels' LoD, which paddlec does not carry yet
    "collect_fpn_without_rois_num": ("r = paddle.static.data('r', [6, 4], 'float32')\n"
                                     "s = paddle.static.data('s', [6, 1], 'float32')\n"
                                     "feeds = [r, s]\n"
                                     "out = op('collect_fpn_proposals', {'MultiLevelRois': [r], "
                                     "'MultiLevelScores': [s]}, {'FpnRois': ['float32']}, "
                                     "{'post_nms_topN': 4})[0]", False,
                                     ["(collect_fpn_proposals -> ", "without MultiLevelRoIsNum is not supported"]),
    # matrix_nms with nms_top_k 0: Paddle 2.6.2's kernel writes through an
    # empty vector (measured: a segmentation fault)
    "matrix_nms_top_k_zero": ("b = paddle.static.data('b', [2, 6, 4], 'float32')\n"
                              "s = paddle.static.data('s', [2, 3, 6], 'float32')\n"
                              "feeds = [b, s]\n"
                              "out = op('matrix_nms', {'BBoxes': [b], 'Scores': [s]}, "
                              "{'Out': ['float32'], 'Index': ['int32']}, {'score_threshold': 0.1, 'nms_top_k': 0, "
                              "'keep_top_k': 10, 'post_threshold': 0.0, 'use_gaussian': False, 'gaussian_sigma': 2.0, "
                              "'background_label': 0, 'normalized': True})[0]", False,
                              ["(matrix_nms -> ", "nms_top_k 0 is not supported"]),
    # multiclass_nms3 compiles for Scores [N, C, M] with boxes of 4
    # coordinates and an Index output; each other form is refused by name
    "nms3_polygon_boxes": ("b = paddle.static.data('b', [2, 6, 8], 'float32')\n"
                           "s = paddle.static.data('s', [2, 3, 6], 'float32')\n"
                           "feeds = [b, s]\n" + NMS3.format(out="'Index': ['int32'], "), False,
                           ["(multiclass_nms3 -> ", "boxes of 8 coordinates are not supported"]),
    "nms3_scores_per_roi": ("b = paddle.static.data('b', [6, 3, 4], 'float32')\n"
                            "s = paddle.static.data('s', [6, 3], 'float32')\n"
                            "feeds = [b, s]\n" + NMS3.format(out="'Index': ['int32'], "), False,
                            ["(multiclass_nms3 -> ", "Scores [6, 3] of rank 2", "is not supported"]),
    # multiclass_nms and multiclass_nms2 (their LoD made by the kernel) refuse
    # what multiclass_nms3 refuses, with the same messages
    "nms_polygon_boxes": ("b = paddle.static.data('b', [2, 6, 8], 'float32')\n"
                          "s = paddle.static.data('s', [2, 3, 6], 'float32')\n"
                          "feeds = [b, s]\n" + NMS12.format(type="multiclass_nms", out=""), False,
                          ["(multiclass_nms -> ", "boxes of 8 coordinates are not supported"]),
    "nms2_scores_per_roi": ("b = paddle.static.data('b', [6, 3, 4], 'float32')\n"
                            "s = paddle.static.data('s', [6, 3], 'float32')\n"
                            "feeds = [b, s]\n" + NMS12.format(type="multiclass_nms2", out="'Index': ['int32']"),
                            False, ["(multiclass_nms2 -> ", "Scores [6, 3] of rank 2", "is not supported"]),
    # unique's Indices along an axis of more than 16 slices: which of equal
    # slices Paddle reports first is its (unstable) std::sort's choice
    "unique_indices_of_many_slices": ("w = paddle.static.data('w', [3, 20], 'float32')\n"
                                      "feeds = [w]\n"
                                      "out = paddle.unique(w, return_index=True, axis=1)[1]", False,
                                      ["(unique -> ", "return_index along axis 1 of 20 slices is not supported"]),
    # an axis below -1: Paddle's kernel reads it as it is
    "unique_axis_minus_two": ("w = paddle.static.data('w', [3, 20], 'float32')\n"
                              "feeds = [w]\n"
                              "out = paddle.unique(w, axis=-2)", False,
                              ["(unique -> ", "axis -2 is not supported"]),
    # the sequence ops read their X's LoD, which must be a feed's of
    # lod_level 1 passed on by ops that keep the rows (op_lod_input)
    # (Paddle's shape rule wants an X of lod_level >= 1: an assign from a
    # feed without LoD into a var declared with one)
    "sequence_pool_without_lod": ("s = paddle.static.data('s', [-1, 4], 'float32')\n"
                                  "v = main.global_block().create_var(name='v', shape=[-1, 4], dtype='float32', "
                                  "lod_level=1)\n"
                                  "op('assign', {'X': [s]}, {'Out': [v]}, {})\n"
                                  "v.desc.set_lod_level(1)\n"
                                  "feeds = [s]\n"
                                  "out = op('sequence_pool', {'X': [v]}, {'Out': ['float32'], 'MaxIndex': ['float32']}, "
                                  "{'pooltype': 'SUM'})[0]", False,
                                  ["(sequence_pool -> ", "X ('v') must carry a level-1 LoD (a feed's or one an op makes)",
                                   "feed 's' has no LoD (lod_level 0)"]),
    "sequence_pool_lod_level_2": ("s = paddle.static.data('s', [-1, 4], 'float32', lod_level=2)\n"
                                  "feeds = [s]\n"
                                  "out = paddle.static.nn.sequence_lod.sequence_pool(s, 'sum')", False,
                                  ["(sequence_pool -> ", "feed 's' has lod_level 2; paddlec takes level 1 only"]),
    "sequence_pool_two_lods": ("s = paddle.static.data('s', [-1, 4], 'float32', lod_level=1)\n"
                               "t = paddle.static.data('t', [-1, 4], 'float32', lod_level=1)\n"
                               "feeds = [s, t]\n"
                               "out = paddle.static.nn.sequence_lod.sequence_pool(paddle.where(s > 0, s, t), "
                               "'sum')", False,
                               ["(sequence_pool -> ", "carry two LoDs ('s', 't')"]),
    # the pools of one LoD have one number of sequences (sequence.c's
    # lod_root); two feeds' LoDs may count others: their sum is refused
    # MaxIndex: Paddle leaves it unwritten under is_test (which
    # save_inference_model sets)
    "sequence_pool_max_index_is_test": ("s = paddle.static.data('s', [-1, 4], 'float32', lod_level=1)\n"
                                        "feeds = [s]\n"
                                        "out = op('sequence_pool', {'X': [s]}, {'Out': ['float32'], "
                                        "'MaxIndex': ['int32']}, {'pooltype': 'MAX'})[1]", False,
                                        ["(sequence_pool -> ", "MaxIndex (", "with is_test Paddle's kernel does not "
                                         "write it"]),
    "sequence_conv_padding_trainable": ("s = paddle.static.data('s', [-1, 4], 'float32', lod_level=1)\n"
                                        "f = paddle.static.data('f', [12, 2], 'float32')\n"
                                        "p = paddle.static.data('p', [2, 4], 'float32')\n"
                                        "feeds = [s, f, p]\n"
                                        "out = op('sequence_conv', {'X': [s], 'Filter': [f], 'PaddingData': [p]}, "
                                        "{'Out': ['float32']}, {'contextLength': 3, 'contextStart': -1, "
                                        "'paddingTrainable': True})[0]", False,
                                        ["(sequence_conv -> ", "paddingTrainable is true"]),
    # Paddle's kernel wants one element a time step
    "sequence_softmax_wide": ("s = paddle.static.data('s', [-1, 3], 'float32', lod_level=1)\n"
                              "feeds = [s]\n"
                              "out = op('sequence_softmax', {'X': [s]}, {'Out': ['float32']}, {})[0]", False,
                              ["(sequence_softmax -> ", "X ('s') must be [T] or [T, 1]"]),
    # the Python API takes int8, the CPU kernel is not registered for it
    "sequence_reverse_int8": ("s = paddle.static.data('s', [-1, 3], 'int8', lod_level=1)\n"
                              "feeds = [s]\n"
                              "out = paddle.static.nn.sequence_lod.sequence_reverse(s)", False,
                              ["(sequence_reverse -> ", "X ('s') is int8; Paddle's CPU kernel takes float32"]),
    # X's rows must be Y's sequences, which paddlec knows of a pool over Y's LoD only
    "sequence_expand_as_of_plain_rows": ("s = paddle.static.data('s', [-1, 3], 'float32', lod_level=1)\n"
                                         "r = paddle.static.data('r', [4, 3], 'float32')\n"
                                         "feeds = [s, r]\n"
                                         "out = paddle.static.nn.sequence_lod.sequence_expand_as(r, s)", False,
                                         ["(sequence_expand_as -> ", "X ('r') must have one row per sequence of "
                                          "Y's LoD (that of input 's')"]),
    # Paddle's kernel takes an X of at most one level of LoD
    "sequence_expand_of_a_two_level_x": ("s = paddle.static.data('s', [6, 3], 'float32', lod_level=1)\n"
                                         "r = paddle.static.data('r', [4, 3], 'float32', lod_level=2)\n"
                                         "feeds = [s, r]\n"
                                         "out = op('sequence_expand', {'X': [r], 'Y': [s]}, {'Out': ['float32']}, "
                                         "{})[0]", False,
                                         ["(sequence_expand -> ", "X ('r') has lod_level 2; Paddle's kernel takes an X "
                                          "of at most one level"]),
    # a Y of two levels (ref_level picks one): paddlec follows level-1 LoDs only
    "sequence_expand_by_a_two_level_y": ("s = paddle.static.data('s', [6, 3], 'float32', lod_level=2)\n"
                                         "r = paddle.static.data('r', [4, 3], 'float32', lod_level=1)\n"
                                         "feeds = [s, r]\n"
                                         "out = op('sequence_expand', {'X': [r], 'Y': [s]}, {'Out': ['float32']}, "
                                         "{'ref_level': 0})[0]", False,
                                         ["(sequence_expand -> ", "Y ('s') must carry a level-1 LoD", "feed 's' has "
                                          "lod_level 2; paddlec takes level 1 only"]),
    # the CPU kernel takes int32 and int64 ids only
    "sequence_enumerate_float": ("s = paddle.static.data('s', [-1, 1], 'float32', lod_level=1)\n"
                                 "feeds = [s]\n"
                                 "out = op('sequence_enumerate', {'X': [s]}, {'Out': ['float32']}, "
                                 "{'win_size': 2})[0]", False,
                                 ["(sequence_enumerate -> ", "X ('s') is float32; Paddle's CPU kernel takes int32"]),
    # registered for float64, but Paddle 2.6.2's run of it fails: nothing to check against
    "sequence_conv_float64": ("s = paddle.static.data('s', [-1, 4], 'float64', lod_level=1)\n"
                              "f = paddle.static.data('f', [12, 2], 'float64')\n"
                              "feeds = [s, f]\n"
                              "out = op('sequence_conv', {'X': [s], 'Filter': [f]}, {'Out': ['float64']}, "
                              "{'contextLength': 3, 'contextStart': -1})[0]", False,
                              ["(sequence_conv -> ", "sequence_conv of float64 is not supported"]),
    # increment of an X of 0 elements: Paddle's IncrementInferMeta requires
    # exactly one (2.6.2 raises when the op is appended, so the file is
    # edited after); the kernel would read and write past X
    "increment_of_no_element": ("z = paddle.static.data('z', [1], 'float32')\n"
                                "feeds = [z]\n"
                                "out = op('increment', {'X': [z]}, {'Out': ['float32']}, {'step': 2.0})[0]\n"
                                "z.desc.set_shape([0])", False,
                                ["(increment -> ", "X 'z' [0] holds 0 elements, not one"]),
    # sequence_mask reads MaxLenTensor as int32 (data<int32_t>): 2.6.2
    # raises for an int64 one (measured); it was read truncated to int32
    "sequence_mask_int64_maxlen": ("l = paddle.static.data('l', [4], 'int64')\n"
                                   "feeds = [l]\n"
                                   "m = paddle.full([1], 2**32 + 3, 'int64')\n"
                                   "out = op('sequence_mask', {'X': [l], 'MaxLenTensor': [m]}, {'Y': ['float32']}, "
                                   "{'out_dtype': 5})[0]", False,
                                   ["(sequence_mask -> ", "MaxLenTensor '", "is int64",
                                    "Paddle's kernel reads it as int32"]),
    # one_hot_v2 with a dtype attribute that is no data type: 2.6.2's
    # kernel raises (measured); it ended in "fetch ... is not computed"
    "one_hot_unknown_dtype": ("i = paddle.static.data('i', [4], 'int64')\n"
                              "feeds = [i]\n"
                              "out = op('one_hot_v2', {'X': [i]}, {'Out': ['float32']}, {'depth': 5, 'dtype': 5})[0]\n"
                              "[o._set_attr('dtype', 99) for o in main.global_block().ops if o.type == 'one_hot_v2']",
                              False, ["(one_hot_v2 -> ", "attribute dtype 99 is not a Paddle data type"]),
    # set_value of an empty slice ([:, 2:2]) still checks the value against
    # it: 2.6.2 raises for a [1, 2] value (measured); paddlec read no value there
    "set_value_empty_slice_value": ("i = paddle.static.data('i', [3, 4], 'float32')\n"
                                    "v = paddle.static.data('v', [1, 2], 'float32')\n"
                                    "feeds = [i, v]\n"
                                    "out = op('set_value', {'Input': [i], 'ValueTensor': [v]}, {'Out': ['float32']}, "
                                    "{'axes': [1], 'starts': [2], 'ends': [2], 'steps': [1]})[0]", False,
                                    ["(set_value -> ", "the value (dim 1 of 2) does not broadcast to the slice"]),
    # gru: activations are Paddle's four; an Input without a feed's LoD.
    # (A read Batch* output, which gru.c refuses too, is refused earlier in
    # a saved program: save_inference_model drops them.)
    "gru_activation_unknown": (GRU + "out = op('gru', {'Input': [s], 'Weight': [w]}, {'Hidden': ['float32'], "
                               "'BatchGate': ['float32'], 'BatchResetHiddenPrev': ['float32'], "
                               "'BatchHidden': ['float32']}, {'activation': 'softsign'})[0]", False,
                               ["(gru -> ", "activation 'softsign'", "must be sigmoid, tanh, relu or identity"]),
    "gru_without_lod": ("s = paddle.static.data('s', [-1, 6], 'float32')\n"
                        "w = paddle.static.data('w', [2, 6], 'float32')\n"
                        "v = main.global_block().create_var(name='v', shape=[-1, 6], dtype='float32', lod_level=1)\n"
                        "op('assign', {'X': [s]}, {'Out': [v]}, {})\n"
                        "feeds = [s, w]\n"
                        "out = op('gru', {'Input': [v], 'Weight': [w]}, {'Hidden': ['float32'], "
                        "'BatchGate': ['float32'], 'BatchResetHiddenPrev': ['float32'], "
                        "'BatchHidden': ['float32']}, {})[0]", False,
                        ["(gru -> ", "Input ('v') must carry a level-1 LoD (a feed's or one an op makes)",
                         "feed 's' has no LoD (lod_level 0)"]),
    # lstm: BatchCellPreAct (Paddle's intermediate in its length-sorted
    # batch order) read by an op: save_inference_model drops it, refused at
    # load naming lstm and the slots (kept: test_lstm_batch_output_read_refused);
    # an Input of another type
    # than the CPU kernels' float and double; a Weight of another type than
    # Input; an activation outside Paddle's four (its InEnum refuses it
    # when the op is made: set after); an Input without a feed's LoD
    "lstm_batch_cell_pre_act_read": (LSTM.format(dt="float32", wdt="float32") + "out = outs[0] + outs[3]", False,
                                     ["(elementwise_add -> ", "reads 'lstm_0.tmp_3', which no op writes",
                                      "output BatchGate or BatchCellPreAct of block 0 op 3 (lstm), which "
                                      "save_inference_model drops"]),
    "lstm_int32": (LSTM.format(dt="int32", wdt="int32") + "out = outs[0]", False,
                     ["(lstm -> ", "Input ('s') is int32; Paddle's CPU kernel takes float32 and float64"]),
    "lstm_weight_float64": (LSTM.format(dt="float32", wdt="float64") + "out = outs[0]", False,
                            ["(lstm -> ", "'w' is float64, Input float32"]),
    "lstm_activation_unknown": (LSTM.format(dt="float32", wdt="float32") + "out = outs[1]\n"
                                "[o._set_attr('cell_activation', 'softsign') for o in main.global_block().ops "
                                "if o.type == 'lstm']", False,
                                ["(lstm -> ", "cell_activation 'softsign' must be sigmoid, tanh, relu or identity"]),
    "lstm_without_lod": (LSTM.format(dt="float32", wdt="float32").replace(", lod_level=1", "") + "out = outs[0]",
                         False, ["(lstm -> ", "Input ('s') must carry a level-1 LoD (a feed's or one an op makes)",
                                 "feed 's' has no LoD (lod_level 0)"]),
    # crf_decoding: an int32 Length (read as int64 by Paddle); a Label that
    # is no sequence (Paddle requires one LoD level)
    "crf_decoding_length_int32": ("e = paddle.static.data('e', [-1, 5, 4], 'float32')\n"
                                  "t = paddle.static.data('t', [6, 4], 'float32')\n"
                                  "n = paddle.static.data('n', [-1], 'int32')\n"
                                  "feeds = [e, t, n]\n"
                                  "out = op('crf_decoding', {'Emission': [e], 'Transition': [t], 'Length': [n]}, "
                                  "{'ViterbiPath': ['int64']}, {})[0]", False,
                                  ["(crf_decoding -> ", "Length ('n') is int32; Paddle's kernel reads int64"]),
    "crf_decoding_label_without_lod": ("e = paddle.static.data('e', [-1, 4], 'float32', lod_level=1)\n"
                                       "t = paddle.static.data('t', [6, 4], 'float32')\n"
                                       "l = paddle.static.data('l', [-1, 1], 'int64')\n"
                                       "feeds = [e, t, l]\n"
                                       "out = op('crf_decoding', {'Emission': [e], 'Transition': [t], 'Label': [l]}, "
                                       "{'ViterbiPath': ['int64']}, {})[0]", False,
                                       ["(crf_decoding -> ", "Label ('l') must carry a level-1 LoD (a feed's or one an op makes)",
                                        "feed 'l' has no LoD (lod_level 0)"]),
    # im2sequence: Y (the images' real sizes) of float64 (the kernel reads
    # float32); float64 images (Paddle registers float32 only)
    "im2sequence_real_sizes_float64": ("img = paddle.static.data('img', [-1, 3, 5, 7], 'float32')\n"
                                       "y = paddle.static.data('y', [-1, 2], 'float64')\n"
                                       "feeds = [img, y]\n"
                                       "out = op('im2sequence', {'X': [img], 'Y': [y]}, {'Out': ['float32']}, "
                                       "{'kernels': [2, 2]})[0]", False,
                                       ["(im2sequence -> ", "Y ('y') is float64; Paddle's kernel reads float32"]),
    "im2sequence_float64": ("img = paddle.static.data('img', [-1, 3, 5, 7], 'float64')\n"
                            "feeds = [img]\n"
                            "out = op('im2sequence', {'X': [img]}, {'Out': ['float64']}, {'kernels': [2, 2]})[0]", False,
                            ["(im2sequence -> ", "im2sequence of float64 is not supported (float32)"]),
    "im2sequence_kernel_too_large": ("img = paddle.static.data('img', [-1, 3, 5, 7], 'float32')\n"
                                     "feeds = [img]\n"
                                     "out = op('im2sequence', {'X': [img]}, {'Out': ['float32']}, {'kernels': [6, 2]})[0]",
                                     False, ["(im2sequence -> ", "kernels [6, 2] do not fit X [-1, 3, 5, 7]"]),
    # ctc_align: float tokens (Paddle's kernels: int32, int64); an
    # InputLength of another dtype than Input (the kernel reads it as Input's)
    "ctc_align_float_tokens": ("t = paddle.static.data('t', [-1, 1], 'float32', lod_level=1)\n"
                               "feeds = [t]\n"
                               "out = op('ctc_align', {'Input': [t]}, {'Output': ['float32']}, {'blank': 0})[0]", False,
                               ["(ctc_align -> ", "ctc_align of float32 is not supported (int32, int64"]),
    "ctc_align_length_dtype": ("t = paddle.static.data('t', [-1, 6], 'int32')\n"
                               "n = paddle.static.data('n', [-1, 1], 'int64')\n"
                               "feeds = [t, n]\n"
                               "out = op('ctc_align', {'Input': [t], 'InputLength': [n]}, "
                               "{'Output': ['int32'], 'OutputLength': ['int64']}, {'blank': 0})[0]", False,
                               ["(ctc_align -> ", "InputLength ('n') must have Input's dtype int32"]),
    # warpctc: int64 labels (the kernel reads int32); one length without the
    # other (the kernel takes the LoD branch, then copies Logits as padded);
    # LoD Logits and Label both of the batch's rows (the CTC table would grow
    # with its square); the LoD form's WarpCTCGrad fetched (kept in Logits' rows)
    "warpctc_label_int64": ("lg = paddle.static.data('lg', [-1, 5], 'float32', lod_level=1)\n"
                            "lab = paddle.static.data('lab', [6, 1], 'int64', lod_level=1)\n"
                            "feeds = [lg, lab]\n"
                            "out = op('warpctc', {'Logits': [lg], 'Label': [lab]}, "
                            "{'Loss': ['float32'], 'WarpCTCGrad': ['float32']}, {'blank': 0})[0]", False,
                            ["(warpctc -> ", "Label ('lab') is int64; Paddle's kernel reads int32"]),
    "warpctc_one_length": ("lg = paddle.static.data('lg', [6, 4, 5], 'float32')\n"
                           "lab = paddle.static.data('lab', [4, 3], 'int32')\n"
                           "n = paddle.static.data('n', [4], 'int64')\n"
                           "feeds = [lg, lab, n]\n"
                           "out = op('warpctc', {'Logits': [lg], 'Label': [lab], 'LogitsLength': [n]}, "
                           "{'Loss': ['float32'], 'WarpCTCGrad': ['float32']}, {'blank': 0})[0]", False,
                           ["(warpctc -> ", "LogitsLength ('n') is given without LabelLength"]),
    "warpctc_table_square": ("lg = paddle.static.data('lg', [-1, 5], 'float32', lod_level=1)\n"
                             "lab = paddle.static.data('lab', [-1, 1], 'int32', lod_level=1)\n"
                             "feeds = [lg, lab]\n"
                             "out = op('warpctc', {'Logits': [lg], 'Label': [lab]}, "
                             "{'Loss': ['float32'], 'WarpCTCGrad': ['float32']}, {'blank': 0})[0]", False,
                             ["(warpctc -> ", "grows with the square of the batch: fix Label's rows or Logits' rows"]),
    "warpctc_lod_grad_fetched": ("lg = paddle.static.data('lg', [-1, 5], 'float32', lod_level=1)\n"
                                 "lab = paddle.static.data('lab', [6, 1], 'int32', lod_level=1)\n"
                                 "feeds = [lg, lab]\n"
                                 "out = op('warpctc', {'Logits': [lg], 'Label': [lab]}, "
                                 "{'Loss': ['float32'], 'WarpCTCGrad': ['float32']}, {'blank': 0})[1]", False,
                                 ["(warpctc -> ", "WarpCTCGrad ('", "in the LoD form paddlec keeps it in Logits' rows"]),
    # box_clip: boxes without a LoD (Paddle's kernel reads an empty one and
    # stops); ImInfo of another dtype than the boxes (the kernel reads it as theirs)
    "box_clip_without_lod": ("b = paddle.static.data('b', [-1, 4], 'float32')\n"
                             "i = paddle.static.data('i', [2, 3], 'float32')\n"
                             "feeds = [b, i]\n"
                             "out = op('box_clip', {'Input': [b], 'ImInfo': [i]}, {'Output': ['float32']}, {})[0]",
                             False, ["(box_clip -> ", "Input ('b') must carry a level-1 LoD", "feed 'b' has no LoD"]),
    "box_clip_info_float64": ("b = paddle.static.data('b', [-1, 4], 'float32', lod_level=1)\n"
                              "i = paddle.static.data('i', [2, 3], 'float64')\n"
                              "feeds = [b, i]\n"
                              "out = op('box_clip', {'Input': [b], 'ImInfo': [i]}, {'Output': ['float32']}, {})[0]",
                              False, ["(box_clip -> ", "box_clip of float32 boxes and float64 ImInfo is not supported"]),
    "ctc_align_without_lod": ("s = paddle.static.data('s', [-1, 1], 'int64')\n"
                              "feeds = [s]\n"
                              "out = op('ctc_align', {'Input': [s]}, {'Output': ['int64']}, {'blank': 0})[0]", False,
                              ["(ctc_align -> ", "Input ('s') must carry a level-1 LoD", "feed 's' has no LoD"]),
    # edit_distance: int32 strings (read as int64 by Paddle); one length
    # without the other (Paddle's kernel reads the missing one)
    "edit_distance_hyps_int32": ("h = paddle.static.data('h', [-1, 1], 'int32', lod_level=1)\n"
                                 "r = paddle.static.data('r', [-1, 1], 'int64', lod_level=1)\n"
                                 "feeds = [h, r]\n"
                                 "out = op('edit_distance', {'Hyps': [h], 'Refs': [r]}, "
                                 "{'Out': ['float32'], 'SequenceNum': ['int64']}, {})[0]", False,
                                 ["(edit_distance -> ", "Hyps ('h') is int32; Paddle's kernel reads int64"]),
    "edit_distance_one_length": ("h = paddle.static.data('h', [-1, 1], 'int64', lod_level=1)\n"
                                 "r = paddle.static.data('r', [-1, 1], 'int64', lod_level=1)\n"
                                 "n = paddle.static.data('n', [-1], 'int64')\n"
                                 "feeds = [h, r, n]\n"
                                 "out = op('edit_distance', {'Hyps': [h], 'Refs': [r], 'HypsLength': [n]}, "
                                 "{'Out': ['float32'], 'SequenceNum': ['int64']}, {})[0]", False,
                                 ["(edit_distance -> ", "HypsLength ('n') is given without RefsLength"]),
    # linear_chain_crf: a Label that carries no LoD (its sequences are the
    # kernel's); an int32 Length
    "linear_chain_crf_label_without_lod": ("e = paddle.static.data('e', [-1, 4], 'float32', lod_level=1)\n"
                                           "t = paddle.static.data('t', [6, 4], 'float32')\n"
                                           "l = paddle.static.data('l', [-1, 1], 'int64')\n"
                                           "feeds = [e, t, l]\n"
                                           "out = op('linear_chain_crf', {'Emission': [e], 'Transition': [t], "
                                           "'Label': [l]}, {'Alpha': ['float32'], 'EmissionExps': ['float32'], "
                                           "'TransitionExps': ['float32'], 'LogLikelihood': ['float32']}, {})[3]",
                                           False,
                                           ["(linear_chain_crf -> ",
                                            "Label ('l') must carry a level-1 LoD (a feed's or one an op makes)",
                                            "feed 'l' has no LoD (lod_level 0)"]),
    "linear_chain_crf_length_int32": ("e = paddle.static.data('e', [-1, 5, 4], 'float32')\n"
                                      "t = paddle.static.data('t', [6, 4], 'float32')\n"
                                      "l = paddle.static.data('l', [-1, 5], 'int64')\n"
                                      "n = paddle.static.data('n', [-1], 'int32')\n"
                                      "feeds = [e, t, l, n]\n"
                                      "out = op('linear_chain_crf', {'Emission': [e], 'Transition': [t], "
                                      "'Label': [l], 'Length': [n]}, {'Alpha': ['float32'], "
                                      "'EmissionExps': ['float32'], 'TransitionExps': ['float32'], "
                                      "'LogLikelihood': ['float32']}, {})[3]", False,
                                      ["(linear_chain_crf -> ", "Length ('n') is int32; Paddle's kernel reads int64"]),
    # gru_unit: activation ints outside GRUActivationType (0..3; Paddle's
    # maker refuses them (InEnum), so the rows set them on the desc, and its
    # kernel throws Unimplemented); a float16 step and mixed float
    # dtypes (the CPU kernels: float and double, one T)
    "gru_unit_activation_5": ("u = paddle.static.data('u', [-1, 12], 'float32')\n"
                    "h = paddle.static.data('h', [-1, 4], 'float32')\n"
                    "w = paddle.static.data('w', [4, 12], 'float32')\n"
                    "feeds = [u, h, w]\n"
                    "out = op('gru_unit', {'Input': [u], 'HiddenPrev': [h], 'Weight': [w]}, "
                    "{'Gate': ['float32'], 'ResetHiddenPrev': ['float32'], 'Hidden': ['float32']}, "
                    "{'activation': 2, 'gate_activation': 1, 'origin_mode': False})[2]\n"
                    "main.global_block().ops[-1].desc._set_attr('activation', 5)", False,
                              ["(gru_unit -> ", "activation 5 must be 0 (identity), 1 (sigmoid), 2 (tanh) or 3 (relu)"]),
    "gru_unit_gate_activation_negative": ("u = paddle.static.data('u', [-1, 12], 'float32')\n"
                    "h = paddle.static.data('h', [-1, 4], 'float32')\n"
                    "w = paddle.static.data('w', [4, 12], 'float32')\n"
                    "feeds = [u, h, w]\n"
                    "out = op('gru_unit', {'Input': [u], 'HiddenPrev': [h], 'Weight': [w]}, "
                    "{'Gate': ['float32'], 'ResetHiddenPrev': ['float32'], 'Hidden': ['float32']}, "
                    "{'activation': 2, 'gate_activation': 1, 'origin_mode': False})[2]\n"
                    "main.global_block().ops[-1].desc._set_attr('gate_activation', -1)", False,
                                          ["(gru_unit -> ", "gate_activation -1 must be 0 (identity)"]),
    "gru_unit_float16": ("u = paddle.static.data('u', [-1, 12], 'float16')\n"
                    "h = paddle.static.data('h', [-1, 4], 'float16')\n"
                    "w = paddle.static.data('w', [4, 12], 'float16')\n"
                    "feeds = [u, h, w]\n"
                    "out = op('gru_unit', {'Input': [u], 'HiddenPrev': [h], 'Weight': [w]}, "
                    "{'Gate': ['float16'], 'ResetHiddenPrev': ['float16'], 'Hidden': ['float16']}, "
                    "{'activation': 2, 'gate_activation': 1, 'origin_mode': False})[2]", False,
                         ["(gru_unit -> ", "Input ('u') is float16, which is not supported"]),
    "gru_unit_mixed_dtypes": ("u = paddle.static.data('u', [-1, 12], 'float32')\n"
                    "h = paddle.static.data('h', [-1, 4], 'float64')\n"
                    "w = paddle.static.data('w', [4, 12], 'float32')\n"
                    "feeds = [u, h, w]\n"
                    "out = op('gru_unit', {'Input': [u], 'HiddenPrev': [h], 'Weight': [w]}, "
                    "{'Gate': ['float32'], 'ResetHiddenPrev': ['float32'], 'Hidden': ['float32']}, "
                    "{'activation': 2, 'gate_activation': 1, 'origin_mode': False})[2]", False,
                              ["(gru_unit -> ", "gru_unit computes in one dtype throughout"]),
    # im2sequence_grad: an Out@GRAD whose rows are not the N*OH*OW patches
    # Paddle's kernel reads (here the batch's); float64 (one CPU kernel,
    # float; the forward is refused as well)
    "im2sequence_grad_rows": ("i = paddle.static.data('i', [2, 3, 6, 6], 'float32')\n"
                    "d = paddle.static.data('d', [-1, 12], 'float32')\n"
                    "feeds = [i, d]\n"
                    "i.stop_gradient = False\n"
                    "s = op('im2sequence', {'X': [i]}, {'Out': ['float32']}, "
                    "{'kernels': [2, 2], 'strides': [2, 2], 'paddings': [0, 0, 0, 0]})[0]\n"
                    "s.desc.set_shape([-1, 12])\n"
                    "out = paddle.static.gradients([s], [i], [d])[0]", False,
                              ["(im2sequence_grad -> ", "Out@GRAD ('d') must be [N * 9, 12] (X's patches)"]),
    "im2sequence_grad_float64": ("i = paddle.static.data('i', [2, 3, 6, 6], 'float64')\n"
                    "d = paddle.static.data('d', [18, 12], 'float64')\n"
                    "feeds = [i, d]\n"
                    "i.stop_gradient = False\n"
                    "s = op('im2sequence', {'X': [i]}, {'Out': ['float64']}, "
                    "{'kernels': [2, 2], 'strides': [2, 2], 'paddings': [0, 0, 0, 0]})[0]\n"
                    "s.desc.set_shape([18, 12])\n"
                    "out = paddle.static.gradients([s], [i], [d])[0]", False,
                                 ["(im2sequence_grad -> ", "im2sequence_grad of float64 ('i') is not supported "
                                  "(float32, the one CPU kernel)"]),
    # linear_chain_crf_grad without Emission@GRAD (Emission needs no
    # gradient, Transition does): Paddle's kernel writes it unconditionally
    "linear_chain_crf_grad_no_emission_grad": ("e = paddle.static.data('e', [3, 5, 4], 'float32')\n"
                    "t = paddle.static.data('t', [6, 4], 'float32')\n"
                    "l = paddle.static.data('l', [3, 5], 'int64')\n"
                    "n = paddle.static.data('n', [3], 'int64')\n"
                    "feeds = [e, t, l, n]\n"
                    "t.stop_gradient = False\n"
                    "ll = op('linear_chain_crf', {'Emission': [e], 'Transition': [t], "
                    "'Label': [l], 'Length': [n]}, {'Alpha': ['float32'], "
                    "'EmissionExps': ['float32'], 'TransitionExps': ['float32'], "
                    "'LogLikelihood': ['float32']}, {})[3]\n"
                    "out = paddle.static.gradients([ll], [t])[0]", False,
                                               ["(linear_chain_crf_grad -> ", "Emission@GRAD is not bound; Paddle's "
                                                "kernel always writes it"]),
    # accuracy: int32 Indices (Paddle's kernel reads int64); an int64 Out
    # (its kernel is registered for float and double)
    "accuracy_indices_int32": ("o = paddle.static.data('o', [-1, 3], 'float32')\n"
                    "i = paddle.static.data('i', [-1, 3], 'int32')\n"
                    "y = paddle.static.data('y', [-1, 1], 'int64')\n"
                    "feeds = [o, i, y]\n"
                    "out = op('accuracy', {'Out': [o], 'Indices': [i], 'Label': [y]}, "
                    "{'Accuracy': ['float32'], 'Correct': ['int32'], 'Total': ['int32']}, {})[0]", False,
                               ["(accuracy -> ", "Indices ('i') and Label ('y') must be int64, not int32 and int64"]),
    "accuracy_out_int64": ("o = paddle.static.data('o', [-1, 3], 'int64')\n"
                    "i = paddle.static.data('i', [-1, 3], 'int64')\n"
                    "y = paddle.static.data('y', [-1, 1], 'int64')\n"
                    "feeds = [o, i, y]\n"
                    "out = op('accuracy', {'Out': [o], 'Indices': [i], 'Label': [y]}, "
                    "{'Accuracy': ['float32'], 'Correct': ['int32'], 'Total': ['int32']}, {})[0]", False,
                           ["(accuracy -> ", "Out ('o') is int64; Paddle's CPU kernel takes float32 and float64"]),
    # sequence_reshape: a uint8 X (Paddle's kernels: float32, float64,
    # int32, int64; 2.6.2 raises, measured); an X without LoD; new_dim 0
    "sequence_reshape_uint8": ("s = paddle.static.data('s', [-1, 4], 'uint8', lod_level=1)\n"
                               "feeds = [s]\n"
                               "out = op('sequence_reshape', {'X': [s]}, {'Out': ['uint8']}, {'new_dim': 2})[0]", False,
                               ["(sequence_reshape -> ", "X ('s') is uint8; Paddle's CPU kernel takes float32, float64, "
                                "int32 and int64"]),
    "sequence_reshape_without_lod": ("s = paddle.static.data('s', [-1, 4], 'float32')\n"
                                     "feeds = [s]\n"
                                     "out = op('sequence_reshape', {'X': [s]}, {'Out': ['float32']}, {'new_dim': 2})[0]",
                                     False, ["(sequence_reshape -> ", "X ('s') must carry a level-1 LoD",
                                             "feed 's' has no LoD"]),
    "sequence_reshape_new_dim_0": ("s = paddle.static.data('s', [-1, 4], 'float32', lod_level=1)\n"
                                   "feeds = [s]\n"
                                   "out = op('sequence_reshape', {'X': [s]}, {'Out': ['float32']}, {'new_dim': 0})[0]",
                                   False, ["(sequence_reshape -> ", "new_dim 0 must be at least 1"]),
    # sequence_concat: an input without LoD (Paddle requires one each)
    "sequence_concat_without_lod": ("s = paddle.static.data('s', [-1, 4], 'float32', lod_level=1)\n"
                                    "t = paddle.static.data('t', [5, 4], 'float32')\n"
                                    "feeds = [s, t]\n"
                                    "out = op('sequence_concat', {'X': [s, t]}, {'Out': ['float32']}, {})[0]", False,
                                    ["(sequence_concat -> ", "X[1] ('t') must carry a level-1 LoD",
                                     "feed 't' has no LoD"]),
    # lod_reset: append over an X with a LoD (two levels); an int64 Y
    # without LoD (Paddle reads its data as int32); target_lod not from 0,
    # descending (Paddle's kernel raises for both)
    "lod_reset_append_over_lod": ("s = paddle.static.data('s', [6, 4], 'float32', lod_level=1)\n"
                                  "feeds = [s]\n"
                                  "out = op('lod_reset', {'X': [s]}, {'Out': ['float32']}, "
                                  "{'target_lod': [0, 2, 6], 'append': True})[0]", False,
                                  ["(lod_reset -> ", "append with an X ('s') that carries a LoD gives Out two levels"]),
    "lod_reset_y_int64": ("y = paddle.static.data('y', [3], 'int64')\n"
                          "feeds = [x, y]\n"
                          "out = op('lod_reset', {'X': [x], 'Y': [y]}, {'Out': ['float32']}, {})[0]", False,
                          ["(lod_reset -> ", "Y ('y') is int64; Paddle's kernel reads its data as int32 offsets"]),
    "lod_reset_target_lod_not_from_0": ("feeds = [x]\n"
                                        "out = op('lod_reset', {'X': [x]}, {'Out': ['float32']}, "
                                        "{'target_lod': [1, 3, 6]})[0]", False,
                                        ["(lod_reset -> ", "target_lod starts at 1; Paddle wants 0"]),
    "lod_reset_target_lod_descending": ("feeds = [x]\n"
                                        "out = op('lod_reset', {'X': [x]}, {'Out': ['float32']}, "
                                        "{'target_lod': [0, 4, 3, 6]})[0]", False,
                                        ["(lod_reset -> ", "target_lod descends at offset 2"]),
    # sequence_pad: padded_length -1 (the longest sequence: Out's dim 1 from
    # the data); a PadValue of another dtype than X (read as X's)
    "sequence_pad_to_longest": ("s = paddle.static.data('s', [-1, 4], 'float32', lod_level=1)\n"
                                "v = paddle.static.data('v', [1], 'float32')\n"
                                "feeds = [s, v]\n"
                                "out = op('sequence_pad', {'X': [s], 'PadValue': [v]}, "
                                "{'Out': ['float32'], 'Length': ['int64']}, {'padded_length': -1})[0]", False,
                                ["(sequence_pad -> ", "padded_length -1 pads to the longest sequence",
                                 "paddlec needs a padded_length > 0"]),
    "sequence_pad_value_dtype": ("s = paddle.static.data('s', [-1, 4], 'float32', lod_level=1)\n"
                                 "v = paddle.static.data('v', [1], 'float64')\n"
                                 "feeds = [s, v]\n"
                                 "out = op('sequence_pad', {'X': [s], 'PadValue': [v]}, "
                                 "{'Out': ['float32'], 'Length': ['int64']}, {'padded_length': 5})[0]", False,
                                 ["(sequence_pad -> ", "PadValue ('v') is float64, X float32"]),
    # sequence_unpad: an int32 Length (Paddle's kernel reads int64)
    "sequence_unpad_length_int32": ("p = paddle.static.data('p', [3, 5, 2], 'float32')\n"
                                    "n = paddle.static.data('n', [3], 'int32')\n"
                                    "feeds = [p, n]\n"
                                    "out = op('sequence_unpad', {'X': [p], 'Length': [n]}, {'Out': ['float32']}, {})[0]",
                                    False, ["(sequence_unpad -> ", "Length ('n') is int32; Paddle's kernel reads int64"]),
    # sequence_slice: an int32 Offset (Paddle's kernel reads int64)
    "sequence_slice_offset_int32": ("s = paddle.static.data('s', [-1, 4], 'float32', lod_level=1)\n"
                                    "o = paddle.static.data('o', [3, 1], 'int32')\n"
                                    "n = paddle.static.data('n', [3, 1], 'int64')\n"
                                    "feeds = [s, o, n]\n"
                                    "out = op('sequence_slice', {'X': [s], 'Offset': [o], 'Length': [n]}, "
                                    "{'Out': ['float32']}, {})[0]", False,
                                    ["(sequence_slice -> ", "Offset ('o') is int32 and Length ('n') int64; Paddle's "
                                     "kernel reads both as int64"]),
    # the channel-wise and linear quantization ops (fake_channel_quant.c,
    # quant_linear.c): fake_channel_wise_quantize_abs_max with is_test (it
    # quantizes with the scales an earlier run left in OutScale); a float64
    # quantize_linear (Paddle registers float32 alone); quantize_linear
    # training per tensor without its moving-average state (extra inputs,
    # dropped by clip_extra); a per-channel Scale that is not a [C] vector;
    # a float16 dequantize_linear Scale; dequantize_linear only_observer of
    # an int8 X into a float32 Y (Paddle's Y would hold int8), or along a
    # quant_axis X does not have;
    # fake_channel_wise_dequantize_max_abs with three Scales (Paddle leaves
    # Out unwritten), quant_bits past 16, a float64 scale for a float32 X
    "channel_quantize_is_test": ("feeds = [x]\n"
                                 "out = op('fake_channel_wise_quantize_abs_max', {'X': [x]}, "
                                 "{'Out': ['float32'], 'OutScale': ['float32']}, {'is_test': True})[0]", False,
                                 ["(fake_channel_wise_quantize_abs_max -> ",
                                  "is_test quantizes with the scales OutScale holds from an earlier run"]),
    "quantize_linear_float64": ("d = paddle.static.data('d', [6, 20], 'float64')\n"
                                "s = paddle.static.data('s', [1], 'float64')\n"
                                "feeds = [d, s]\n"
                                "out = op('quantize_linear', {'X': [d], 'Scale': [s], 'ZeroPoint': [s]}, "
                                "{'Y': ['float64']}, {'quant_axis': -1})[0]", False,
                                ["(quantize_linear -> ", "X ('d') is float64; Paddle's quantize_linear kernel takes "
                                 "float32"]),
    "quantize_linear_training_without_state": ("s = paddle.static.data('s', [1], 'float32')\n"
                                               "feeds = [x, s]\n"
                                               "out = op('quantize_linear', {'X': [x], 'Scale': [s], "
                                               "'ZeroPoint': [s]}, {'Y': ['float32']}, {'quant_axis': -1})[0]", True,
                                               ["(quantize_linear -> ", "training (is_test false) with quant_axis -1 "
                                                "needs InState, InAccum, OutState, OutAccum and OutScale"]),
    "quantize_linear_scale_not_a_vector": ("s = paddle.static.data('s', [1, 6], 'float32')\n"
                                           "feeds = [x, s]\n"
                                           "out = op('quantize_linear', {'X': [x], 'Scale': [s], 'ZeroPoint': [s]}, "
                                           "{'Y': ['float32']}, {'quant_axis': 0})[0]", False,
                                           ["(quantize_linear -> ", "Scale ('s') has shape [1, 6]",
                                            "one scale per channel along X's dim 0"]),
    "dequantize_linear_float16_scale": ("s = paddle.static.data('s', [1], 'float16')\n"
                                        "feeds = [x, s]\n"
                                        "out = op('dequantize_linear', {'X': [x], 'Scale': [s], 'ZeroPoint': [s]}, "
                                        "{'Y': ['float16']}, {'quant_axis': -1})[0]", False,
                                        ["(dequantize_linear -> ", "Scale ('s') is float16"]),
    "dequantize_linear_observer_int8": ("q = paddle.static.data('q', [6, 20], 'int8')\n"
                                        "s = paddle.static.data('s', [1], 'float32')\n"
                                        "feeds = [q, s]\n"
                                        "out = op('dequantize_linear', {'X': [q], 'Scale': [s], 'ZeroPoint': [s]}, "
                                        "{'Y': ['float32']}, {'quant_axis': -1, 'only_observer': True})[0]", False,
                                        ["(dequantize_linear -> ", "only_observer copies X ('q', int8) as it is into "
                                         "Y, declared float32"]),
    "dequantize_linear_axis_past_x": ("q = paddle.static.data('q', [20], 'float32')\n"
                                      "s = paddle.static.data('s', [20], 'float32')\n"
                                      "feeds = [q, s]\n"
                                      "out = op('dequantize_linear', {'X': [q], 'Scale': [s], 'ZeroPoint': [s]}, "
                                      "{'Y': ['float32']}, {'quant_axis': 1})[0]", False,
                                      ["(dequantize_linear -> ", "quant_axis 1 is out of range for X [20]"]),
    "channel_dequantize_three_scales": ("a = paddle.static.data('a', [6], 'float32')\n"
                                        "b = paddle.static.data('b', [1], 'float32')\n"
                                        "feeds = [x, a, b]\n"
                                        "out = op('fake_channel_wise_dequantize_max_abs', {'X': [x], "
                                        "'Scales': [a, b, b]}, {'Out': ['float32']}, {'quant_bits': [8, 8, 8]})[0]",
                                        False, ["(fake_channel_wise_dequantize_max_abs -> ", "Scales holds 3 tensors"]),
    "channel_dequantize_quant_bits_20": ("a = paddle.static.data('a', [6], 'float32')\n"
                                         "feeds = [x, a]\n"
                                         "out = op('fake_channel_wise_dequantize_max_abs', {'X': [x], 'Scales': [a]}, "
                                         "{'Out': ['float32']}, {'quant_bits': [20]})[0]", False,
                                         ["(fake_channel_wise_dequantize_max_abs -> ", "quant_bits[0] 20 is not in "
                                          "[1, 16]"]),
    # conv2d_transpose's output_size (here a tensor whose values the compiler
    # knows) outside [size, size + stride): Paddle's kernel raises
    "conv_transpose_output_size_outside": ("cx = paddle.static.data('cx', [2, 4, 5, 4], 'float32')\n"
                                           "skip = paddle.static.data('skip', [2, 3, 12, 7], 'float32')\n"
                                           "feeds = [cx, skip]\n"
                                           "up = paddle.nn.Conv2DTranspose(4, 3, 3, stride=2, padding=1)\n"
                                           "out = up(cx, output_size=paddle.shape(skip)[2:])", False,
                                           ["(conv2d_transpose -> ", "output_size[0] = 12 is outside [9, 11)",
                                            "(Paddle raises)"]),
    "channel_dequantize_float64_scale": ("a = paddle.static.data('a', [6], 'float64')\n"
                                         "feeds = [x, a]\n"
                                         "out = op('fake_channel_wise_dequantize_max_abs', {'X': [x], 'Scales': [a]}, "
                                         "{'Out': ['float64']}, {})[0]", False,
                                         ["(fake_channel_wise_dequantize_max_abs -> ", "X is float32, Scales[0] "
                                          "float64"]),
}


@pytest.mark.parametrize("name", sorted(ONE_OP_REFUSALS))
def test_one_op_refused(name, tmp_path):
    body, training, fragments = ONE_OP_REFUSALS[name]
    model = export_one_op(tmp_path, body, training=training)
    bad(["compile", model, "-o", str(tmp_path / "out")], model, *fragments)
    assert not (tmp_path / "out").exists()


def test_sequence_expand_of_a_lod_x_batch_by_batch_asks_for_a_fixed_batch(tmp_path):
    """sequence_expand of an X with a LoD has at most X's rows times Y's: with
    both open in the batch that is batch x batch, which the arena cannot
    plan; the error names the op and the way out, which compiles."""
    model = export_one_op(tmp_path, "s = paddle.static.data('s', [-1, 3], 'float32', lod_level=1)\n"
                                    "r = paddle.static.data('r', [-1, 3], 'float32', lod_level=1)\n"
                                    "feeds = [s, r]\n"
                                    "out = paddle.static.nn.sequence_lod.sequence_expand(r, s)")
    p = run(["compile", model, "-o", str(tmp_path / "out")])
    assert p.returncode == 1, p.stderr
    assert "(sequence_expand -> " in p.stderr
    assert "not a linear function of the batch; fix the batch with --shape" in p.stderr
    assert not (tmp_path / "out").exists()
    p = run(["compile", model, "-o", str(tmp_path / "out"), "--shape", "s=6,3", "--shape", "r=4,3"])
    assert p.returncode == 0, p.stderr


@pytest.mark.parametrize("read", ["out = outs[2]", "out = outs[0] + outs[3]"])
def test_lstm_batch_output_read_refused(tmp_path, read):
    """lstm's BatchGate fetched, BatchCellPreAct read by an op, in a model
    saved with its extra outputs (clip_extra=False): they hold Paddle's
    intermediates in its length-sorted batch order, which paddlec does not
    write; refused, naming the slot."""
    model = export_one_op(tmp_path, LSTM.format(dt="float32", wdt="float32") + read, clip_extra=False)
    slot = "BatchGate ('lstm_0.tmp_2')" if read.endswith("[2]") else "BatchCellPreAct ('lstm_0.tmp_3')"
    bad(["compile", model, "-o", str(tmp_path / "out")], model, "(lstm -> ", slot,
        "is read; paddlec does not write Paddle's time-major intermediates")
    assert not (tmp_path / "out").exists()


def test_float64_box_coder_decode_with_a_variance_list_refused(tmp_path):
    """box_coder's double kernel, decoding with the variance attribute,
    reads that float list as 4 doubles, past its end (Paddle's outputs
    change from run to run): refused, naming the op and what to do instead."""
    model = export_one_op(tmp_path, (
        "p = paddle.static.data('p', [5, 4], 'float64')\n"
        "t = paddle.static.data('t', [6, 5, 4], 'float64')\n"
        "feeds = [p, t]\n"
        "out = paddle.vision.ops.box_coder(p, [0.1, 0.1, 0.2, 0.2], t, 'decode_center_size')"))
    bad(["compile", model, "-o", str(tmp_path / "out")], model, "(box_coder -> ", "float64 decode_center_size",
        "PriorBoxVar")
    assert not (tmp_path / "out").exists()


def test_detection_op_of_mixed_float_dtypes_refused(tmp_path):
    """iou_similarity of float64 X and float32 Y: Paddle's kernels read
    every tensor in one dtype; refused, naming both vars and dtypes."""
    model = export_one_op(tmp_path, (
        "b = paddle.static.data('b', [6, 4], 'float64')\n"
        "y = paddle.static.data('y', [5, 4], 'float32')\n"
        "feeds = [b, y]\n"
        "out = op('iou_similarity', {'X': [b], 'Y': [y]}, {'Out': ['float64']}, {})[0]"))
    bad(["compile", model, "-o", str(tmp_path / "out")], "(iou_similarity -> ", "'b' is float64 but 'y' is float32")


def test_prior_box_of_an_int8_input_refused(tmp_path):
    """prior_box of an int8 Input: Paddle 2.6 registers it only in oneDNN
    (float32 boxes, outputs declared int8); its CPU executor has no kernel.
    Refused, saying so, not computed in some dtype."""
    model = export_one_op(tmp_path, (
        "f = paddle.static.data('f', [1, 2, 3, 3], 'int8')\n"
        "img = paddle.static.data('img', [1, 3, 12, 12], 'float32')\n"
        "feeds = [f, img]\n"
        "out = op('prior_box', {'Input': [f], 'Image': [img]}, {'Boxes': ['int8'], 'Variances': ['int8']},\n"
        "         {'min_sizes': [4.0], 'variances': [0.1, 0.1, 0.2, 0.2]})[0]"))
    bad(["compile", model, "-o", str(tmp_path / "out")], "(prior_box -> ", "an int8 Input", "oneDNN")


# paddlec's own fused ops (written by its passes; a program may hold them
# too) whose inputs their shape rule refuses (IR text: the op line, the vars
# it declares; fragments the one error line must hold).  X is fed [2, 3, 4].
FUSED_ATTENTION = ("op fused_attention(X: x, QW: w44a, KeyX: {k}, KW: w44b, ValueX: {v}, VW: w44c, OutLinearW: w44d)"
                   " -> (Y: y) {{head_dim: 2L, num_heads: 2L, scale: 0.5d}}")
FUSED_FFN = ("op fused_feedforward(X: x, Linear1Weight: {w1}, Linear2Weight: {w2}{more}) -> (Out: y)"
             " {{act_method: \"relu\"}}")
IR_OP_REFUSALS = {
    # deformable_conv without its Mask (Paddle's op maker requires it; the
    # form without is deformable_conv_v1)
    "deformable_conv_without_mask": ("var o: float32[2, 18, 5, 5]\nvar wd: float32[4, 3, 3, 3] param = rand(6)",
                                     "op deformable_conv(Input: x, Offset: o, Filter: wd) -> (Output: y) {}",
                                     ["(deformable_conv -> y)", "deformable_conv needs Mask",
                                      "deformable_conv_v1 is the form without it"]),
    # the kernel walks X's batch over KeyX and ValueX: a KeyX of batch 1
    # was read past its end
    "fused_attention_key_batch": ("var k: float32[1, 5, 4]", FUSED_ATTENTION.format(k="k", v="k"),
                                  ["(fused_attention -> y)", "KeyX 'k' [1, 5, 4]",
                                   "must have the batch dim of X 'x' [2, 3, 4]"]),
    "fused_attention_value_rank": ("var k: float32[2, 5, 4]\nvar v: float32[10, 4]",
                                   FUSED_ATTENTION.format(k="k", v="v"),
                                   ["(fused_attention -> y)", "ValueX 'v' [10, 4] must have rank 3"]),
    "fused_attention_lengths": ("var k: float32[2, 5, 4]\nvar v: float32[2, 6, 4]",
                                FUSED_ATTENTION.format(k="k", v="v"),
                                ["(fused_attention -> y)", "'k' [2, 5, 4] and ValueX 'v' [2, 6, 4]",
                                 "the same length"]),
    "fused_feedforward_chain": ("", FUSED_FFN.format(w1="w46", w2="w44a", more=""),
                                ["(fused_feedforward -> y)", "Linear1Weight [4, 6] and Linear2Weight [4, 4]",
                                 "do not chain"]),
    "fused_feedforward_bias": ("var b: float32[5] param = rand(6)",
                               FUSED_FFN.format(w1="w46", w2="w64", more=", Linear1Bias: b"),
                               ["(fused_feedforward -> y)", "Linear1Bias 'b' [5] must have 6 elements"]),
    "fused_feedforward_residual": ("var r: float32[2, 4]", FUSED_FFN.format(w1="w46", w2="w64", more=", Residual: r"),
                                   ["(fused_feedforward -> y)",
                                    "Residual 'r' [2, 4] must be shaped like Out [2, 3, 4]"]),
}
IR_OP_HEAD = ("# paddlec IR\nprogram version 2006002\nvar feed: feed_list\nvar fetch: fetch_list\n"
              "var x: float32[2, 3, 4]\nvar y: float32[2, 3, 4]\n"
              + "".join(f"var w44{c}: float32[4, 4] param = rand({i})\n" for i, c in enumerate("abcd"))
              + "var w46: float32[4, 6] param = rand(4)\nvar w64: float32[6, 4] param = rand(5)\n")


@pytest.mark.parametrize("name", sorted(IR_OP_REFUSALS))
def test_ir_op_refused(name, tmp_path):
    decls, op_line, fragments = IR_OP_REFUSALS[name]
    feeds = [ln.split()[1][:-1] for ln in decls.splitlines() if "param" not in ln]
    text = (IR_OP_HEAD + (decls + "\n" if decls else "") + "op feed(X: feed) -> (Out: x) {col: 0}\n"
            + "".join(f"op feed(X: feed) -> (Out: {f}) {{col: {i + 1}}}\n" for i, f in enumerate(feeds))
            + op_line + "\nop fetch(X: y) -> (Out: fetch) {col: 0}\n")
    f = tmp_path / "m.ir"
    f.write_text(text)
    bad(["compile", str(f), "-o", str(tmp_path / "out")], str(f), *fragments)
    assert not (tmp_path / "out").exists()


def test_deform_batch_not_a_multiple_of_im2col_step_stops_the_run(tmp_path):
    """e2e_deform's deform_im2col_step (batch left open; a deformable_conv
    of im2col_step 2): at batch 4 it runs, at batch 3 Paddle's shape rule
    refuses the batch, and the run stops with the kernel's error."""
    import subprocess

    import numpy as np

    from test_e2e import build
    from test_e2e_ops import cases
    out, _ = cases("deform")
    d = f"{out}/deform_im2col_step"
    binary = build(d, tmp_path, "--blas=none")
    for n, rc in ((4, 0), (3, 1)):
        args = [str(binary)]
        for i, name in enumerate(("x", "off", "mask")):
            v = np.load(f"{d}/input_{i}.npy")
            np.save(tmp_path / f"{name}{n}.npy", np.concatenate([v, v])[:n])
            args += ["--input", f"{name}={tmp_path / f'{name}{n}.npy'}"]
        r = subprocess.run(args + ["--output-dir", str(tmp_path / f"o{n}")], capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == rc, (n, r.stderr)
    assert "the batch is above im2col_step 2 but not a multiple of it" in r.stderr, r.stderr


def test_full_like_value_out_of_its_dtype_range(tmp_path):
    """paddle.full_like(x, 70000.0, dtype="int16"): phi's FullLikeKernel
    raises "The filled value is out of range for target type" (checked
    with Paddle 2.6's Executor when this test was written); paddlec wrapped
    it to 4464. Refused, naming the op, the value and the dtype."""
    model = export_one_op(tmp_path, "feeds = [x]\nout = paddle.full_like(x, 70000.0, dtype='int16')")
    line = bad(["compile", model, "-o", str(tmp_path / "out")], "(fill_any_like -> ",
               "value 70000 is out of range for int16 (Paddle's kernel raises)")
    assert model in line


def test_fc_relu_without_bias(tmp_path):
    """fc with activation_type relu and no Bias: Paddle's kernel raises
    "When bias is NULL, relu can not be true" (checked with Paddle 2.6's
    Executor when this test was written); refused, naming the op."""
    model = export_one_op(tmp_path, "w = paddle.static.data('w', [20, 3], 'float32')\nfeeds = [x, w]\n"
                          "out = op('fc', {'Input': [x], 'W': [w]}, {'Out': ['float32']},"
                          " {'in_num_col_dims': 1, 'activation_type': 'relu'})[0]")
    line = bad(["compile", model, "-o", str(tmp_path / "out")], "(fc -> ", "activation_type relu without a Bias")
    assert model in line

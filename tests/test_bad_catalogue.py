"""The bad-input catalogue: one test per kind of malformed program, parameter
file, feed, strategy file and command line (test_bad_input.py holds the
first kinds; none is repeated here).  Each gets exactly one line naming the
file and the op, var or field, exit status 1, and no sanitizer report
(conftest.run checks; the generated binary is built with ASan/UBSan too).
Every bad input is made here, from IR text, from Paddle's own protobuf
classes over the MLP fixture, or byte by byte."""
import json
import os
import shutil
import struct
import subprocess

import numpy as np
import pytest

from conftest import CC, ROOT, SAN_ENV, run
from test_bad_input import bad, desc_bytes, join, mlp, tensor_records, varint, with_desc  # noqa: F401

IR_HEAD = "# paddlec IR\nprogram version 2006002\nvar feed: feed_list\nvar fetch: fetch_list\n"
IR_RELU = ("var x: float32[-1, 4]\nvar y: float32[-1, 4]\n"
           "op feed(X: feed) -> (Out: x) {col: 0}\nop relu(X: x) -> (Out: y)\n"
           "op fetch(X: y) -> (Out: fetch) {col: 0}\n")


def ir(tmp_path, body, name="m.ir"):
    f = tmp_path / name
    f.write_text(IR_HEAD + body)
    return str(f)


def program(mlp_dir):
    from paddle.base.proto import framework_pb2
    pd = framework_pb2.ProgramDesc()
    pd.ParseFromString((mlp_dir / "model.pdmodel").read_bytes())
    return pd


def save(mlp_dir, pd):
    """Writes pd over the fixture's program (partial: some kinds leave out
    fields Paddle's schema calls required)."""
    f = mlp_dir / "model.pdmodel"
    f.write_bytes(pd.SerializePartialToString())
    return str(f)


def add_var(block, name, dims, persistable=False, dtype=5):
    v = block.vars.add()
    v.name = name
    v.type.type = 7
    v.type.lod_tensor.tensor.data_type = dtype
    v.type.lod_tensor.tensor.dims.extend(dims)
    v.persistable = persistable
    return v


# ---- programs: sizes -------------------------------------------------------

def test_ir_dim_too_large_for_int64(tmp_path):
    f = ir(tmp_path, "var x: float32[1e30] feed 0\n" + IR_RELU.replace("var x: float32[-1, 4]\n", ""))
    bad(["inspect", f], f + ":5:", "var 'x'", "1e30", "does not fit in 64 bits")


def test_ir_ints_attribute_too_large_for_int32(tmp_path):
    f = ir(tmp_path, IR_RELU.replace("op relu(X: x) -> (Out: y)", "op relu(X: x) -> (Out: y) {axes: ints[1, 1e30]}"))
    bad(["inspect", f], f + ":8:", "attribute 'axes'", "1e30")


def test_ir_int_attribute_out_of_int32_range(tmp_path):
    f = ir(tmp_path, IR_RELU.replace("op relu(X: x) -> (Out: y)", "op relu(X: x) -> (Out: y) {axis: 3000000000}"))
    bad(["inspect", f], f + ":8:", "attribute 'axis'", "3000000000", "out of range")


def test_ir_float_attribute_out_of_float32_range(tmp_path):
    f = ir(tmp_path, IR_RELU.replace("op relu(X: x) -> (Out: y)", "op relu(X: x) -> (Out: y) {alpha: 1e300f}"))
    bad(["inspect", f], f + ":8:", "attribute 'alpha'", "float32")


def test_ir_dim_not_an_integer(tmp_path):
    f = ir(tmp_path, IR_RELU.replace("float32[-1, 4]\nvar y", "float32[-1, 2.5]\nvar y"))
    bad(["inspect", f], f + ":5:", "var 'x'", "2.5", "not an integer")


def test_ir_parameter_of_2_62_elements(tmp_path):
    """Its bytes wrapped to a small allocation that the values overran."""
    f = ir(tmp_path, "var x: float32[2]\nvar w: float32[4611686018427387904] param = fill(1)\nvar y: float32[2]\n"
           "op feed(X: feed) -> (Out: x) {col: 0}\nop elementwise_add(X: x, Y: w) -> (Out: y)\n"
           "op fetch(X: y) -> (Out: fetch) {col: 0}\n")
    bad(["inspect", f], f, "variable 'w'", "4611686018427387904", "64 bits")


def test_ir_parameter_value_outside_its_dtype(tmp_path):
    f = ir(tmp_path, "var x: int32[2]\nvar w: int32[2] param = fill(1e30)\nvar y: int32[2]\n"
           "op feed(X: feed) -> (Out: x) {col: 0}\nop elementwise_add(X: x, Y: w) -> (Out: y)\n"
           "op fetch(X: y) -> (Out: fetch) {col: 0}\n")
    bad(["inspect", f], f, "parameter 'w'", "int32")


def test_ir_rand_seed_negative(tmp_path):
    f = ir(tmp_path, "var w: float32[2] param = rand(-1)\n" + IR_RELU)
    bad(["inspect", f], f + ":5:", "var 'w'", "seed")


def test_persistable_var_dims_overflow(mlp):
    """An unused persistable [1e18, 1e18]: inspect printed a wrapped count."""
    pd = program(mlp)
    add_var(pd.blocks[0], "huge", [10 ** 18, 10 ** 18], persistable=True)
    f = save(mlp, pd)
    bad(["inspect", str(mlp)], f, "variable 'huge'", "64 bits")


def test_negative_dim_in_program(mlp):
    pd = program(mlp)
    v = next(v for v in pd.blocks[0].vars if v.name == "linear_0.w_0")
    v.type.lod_tensor.tensor.dims[1] = -5
    f = save(mlp, pd)
    bad(["inspect", str(mlp)], f, "variable 'linear_0.w_0'", "-5")


def test_inferred_shape_overflows(tmp_path):
    """fill_constant's shape attribute makes an output too large to size."""
    f = ir(tmp_path, "var c: float32[-1]\n" + IR_RELU +
           "op fill_constant() -> (Out: c) {dtype: 5, shape: longs[4294967296, 4294967296], value: 1.0f}\n")
    bad(["inspect", f], f, "fill_constant -> c", "output 'c'", "64 bits")


def test_reshape_target_overflows(tmp_path):
    """reshape2's shape attribute multiplied past int64 inside the op's rule (UB)."""
    f = ir(tmp_path, IR_RELU.replace("op relu(X: x) -> (Out: y)",
                                     "op reshape2(X: x) -> (Out: y) {shape: ints[65536, 65536, 65536, 65536, 65536]}"))
    bad(["inspect", f], f, "reshape2 -> y", "shape[3]", "64 bits")


def test_tile_output_overflows(tmp_path):
    f = ir(tmp_path, IR_RELU.replace("op relu(X: x) -> (Out: y)",
                                     "op tile(X: x) -> (Out: y) {repeat_times: ints[2147483647, 2147483647, 2147483647]}"))
    bad(["inspect", f], f, "tile -> y", "output 'y'", "64 bits")


def test_too_many_dims(mlp):
    pd = program(mlp)
    add_var(pd.blocks[0], "deep", [1] * 11)
    f = save(mlp, pd)
    bad(["inspect", str(mlp)], f, "variable 'deep'", "11 dims")


# ---- programs: structure ---------------------------------------------------

def test_var_declared_twice(mlp):
    pd = program(mlp)
    add_var(pd.blocks[0], "relu_0.tmp_0", [-1, 7])
    f = save(mlp, pd)
    bad(["inspect", str(mlp)], f, "variable 'relu_0.tmp_0'", "declared twice")


def test_ir_var_declared_twice(tmp_path):
    f = ir(tmp_path, IR_RELU + "var y: float32[3]\n")
    bad(["inspect", f], f + ":10:", "var 'y'", "declared twice")


def add_block(pd, parent):
    b = pd.blocks.add()
    b.idx = len(pd.blocks) - 1
    b.parent_idx = parent
    return b


def add_cond(block, sub):
    op = block.ops.add()
    op.type = "conditional_block"
    a = op.attrs.add()
    a.name = "sub_block"
    a.type = 8
    a.block_idx = sub
    return op


def test_cycle_through_sub_blocks(mlp):
    pd = program(mlp)
    b1, b2 = add_block(pd, 0), add_block(pd, 1)
    add_cond(b1, 2)
    add_cond(b2, 1)
    add_cond(pd.blocks[0], 1)
    f = save(mlp, pd)
    bad(["inspect", str(mlp)], f, "conditional_block", "cycle")


def test_sub_block_runs_its_own_block(mlp):
    pd = program(mlp)
    add_cond(pd.blocks[0], 0)
    f = save(mlp, pd)
    bad(["inspect", str(mlp)], f, "block 0 op", "conditional_block", "cycle")


def test_sub_block_that_does_not_exist(mlp):
    pd = program(mlp)
    add_cond(pd.blocks[0], 7)
    f = save(mlp, pd)
    bad(["inspect", str(mlp)], f, "conditional_block", "sub_block 7 does not exist")


def test_block_parent_not_earlier(mlp):
    pd = program(mlp)
    add_block(pd, 5)
    f = save(mlp, pd)
    bad(["inspect", str(mlp)], f, "block 1 has parent 5")


def test_op_without_type(mlp):
    pd = program(mlp)
    pd.blocks[0].ops.add()
    f = save(mlp, pd)
    bad(["inspect", str(mlp)], f, "has no type")


def test_var_without_name(mlp):
    pd = program(mlp)
    pd.blocks[0].vars.add()
    f = save(mlp, pd)
    bad(["inspect", str(mlp)], f, "has no name")


def test_bit_flipped_program(mlp):
    """A flipped bit in the first field's wire type: no longer a protobuf."""
    f = mlp / "model.pdmodel"
    data = bytearray(f.read_bytes())
    data[0] ^= 0x07
    f.write_bytes(bytes(data))
    bad(["inspect", str(f)], str(f), "not a Paddle ProgramDesc")


def test_program_truncated_in_a_length(mlp):
    """Cut inside the first block's length prefix (test_bad_input cuts it in half)."""
    f = mlp / "model.pdmodel"
    data = f.read_bytes()
    f.write_bytes(data[:2])
    bad(["inspect", str(f)], str(f), "not a Paddle ProgramDesc")


def test_pickle_given_as_program(tmp_path):
    import pickle
    f = tmp_path / "model.pdmodel"
    f.write_bytes(pickle.dumps({"w": [1.0, 2.0]}, protocol=2))
    bad(["inspect", str(f)], str(f), "pickle")


def test_pir_json_given_as_program(tmp_path):
    f = tmp_path / "model.pdmodel"
    f.write_text('{"program": {"regions": []}}\n')
    bad(["inspect", str(f)], str(f), "JSON")


@pytest.mark.parametrize("op,g,o,call", [
    ("grid_sampler", "[2, 3, 6, 2]", "[2, 3, 3, 6]", "(X: x, Grid: g) -> (Output: o)"),
    ("affine_channel", "[3]", "[2, 3, 4, 5]", "(X: x, Scale: g, Bias: g) -> (Out: o)"),
])
def test_float32_and_float64_inputs_of_one_kernel(tmp_path, op, g, o, call):
    """Ops whose kernels take float32 or float64 alike (Paddle's float and
    double kernels) refuse a float64 input beside a float32 X, naming
    both, rather than reading one as the other's type."""
    f = ir(tmp_path, f"var x: float32[2, 3, 4, 5]\nvar g: float64{g}\nvar o: float32{o}\n"
           "op feed(X: feed) -> (Out: x) {col: 0}\nop feed(X: feed) -> (Out: g) {col: 1}\n"
           f"op {op}{call}\nop fetch(X: o) -> (Out: fetch) {{col: 0}}\n")
    bad(["compile", f, "-o", str(tmp_path / "out")], f, op, "'x' is float32 but 'g' is float64", "all float64")


def test_ir_unknown_dtype(tmp_path):
    f = ir(tmp_path, IR_RELU.replace("var y: float32", "var y: float33"))
    bad(["inspect", f], f + ":6:", "unknown dtype 'float33'")


def test_ir_parameter_without_value(tmp_path):
    f = ir(tmp_path, "var w: float32[4] param\nvar z: float32[-1, 4]\n" + IR_RELU +
           "op elementwise_add(X: y, Y: w) -> (Out: z)\n")
    bad(["inspect", f], f, "parameter 'w' has no value")


# ---- parameter files -------------------------------------------------------

def test_params_extra_tensor(mlp):
    f = mlp / "model.pdiparams"
    recs = tensor_records(f.read_bytes())
    f.write_bytes(join(recs + [recs[0]]))
    bad(["inspect", str(mlp)], "model.pdiparams", "trailing bytes", "more than")


def test_params_missing_tensor(mlp):
    f = mlp / "model.pdiparams"
    recs = tensor_records(f.read_bytes())
    f.write_bytes(join(recs[:-1]))
    bad(["inspect", str(mlp)], "model.pdiparams", "parameter 'linear_1.w_0'", "record 4 of 4")


def test_params_record_dims_overflow(mlp):
    f = mlp / "model.pdiparams"
    recs = tensor_records(f.read_bytes())
    recs[0] = with_desc(recs[0], 5, [1 << 40, 1 << 40])
    f.write_bytes(join(recs))
    bad(["inspect", str(mlp)], "model.pdiparams", "parameter 'linear_0.b_0'", "overflow")


def test_params_record_negative_dim(mlp):
    f = mlp / "model.pdiparams"
    recs = tensor_records(f.read_bytes())
    h, _, p, _, _ = recs[0]
    d = b"\x08\x05\x10" + varint((1 << 64) - 48)  # dims [-48], as protobuf writes a negative int64
    recs[0] = (h[:-4] + struct.pack("<i", len(d)), d, p, 5, [])
    f.write_bytes(join(recs))
    bad(["inspect", str(mlp)], "model.pdiparams", "parameter 'linear_0.b_0'", "negative dim")


def test_params_negative_desc_size(mlp):
    f = mlp / "model.pdiparams"
    data = bytearray(f.read_bytes())
    data[16:20] = struct.pack("<i", -3)
    f.write_bytes(bytes(data))
    bad(["inspect", str(mlp)], "model.pdiparams", "parameter 'linear_0.b_0'", "negative TensorDesc size")


def test_params_wrong_lod_version(mlp):
    f = mlp / "model.pdiparams"
    data = bytearray(f.read_bytes())
    data[0] = 1
    f.write_bytes(bytes(data))
    bad(["inspect", str(mlp)], "model.pdiparams", "parameter 'linear_0.b_0'", "LoD version 1")


def test_params_huge_lod_level_count(mlp):
    f = mlp / "model.pdiparams"
    data = bytearray(f.read_bytes())
    data[4:12] = struct.pack("<Q", 1 << 62)
    f.write_bytes(bytes(data))
    bad(["inspect", str(mlp)], "model.pdiparams", "parameter 'linear_0.b_0'", "LoD level count")


def test_params_file_is_a_pickle(mlp):
    import pickle
    (mlp / "model.pdiparams").write_bytes(pickle.dumps({"linear_0.b_0": [0.0]}, protocol=2))
    bad(["inspect", str(mlp)], "model.pdiparams", "pickle")


def test_params_file_empty(mlp):
    (mlp / "model.pdiparams").write_bytes(b"")
    bad(["inspect", str(mlp)], "model.pdiparams", "empty parameter file")


# ---- strategy files --------------------------------------------------------

SAMPLE = os.path.join(ROOT, "samples", "mlp", "model.pdmodel")


def strategy(tmp_path, text, option="--build-strategy-file"):
    f = tmp_path / "s.json"
    f.write_text(text)
    return ["compile", SAMPLE, "-o", str(tmp_path / "out"), option, str(f)], str(f)


def test_strategy_field_wrong_type(tmp_path):
    args, f = strategy(tmp_path, '{"memory_optimize": "yes please"}')
    bad(args, f, "memory_optimize", "expected true, false or None")


def test_strategy_unknown_field(tmp_path):
    args, f = strategy(tmp_path, '{"fuse_everything": true}')
    bad(args, f, "unknown BuildStrategy key 'fuse_everything'")


def test_strategy_not_an_object(tmp_path):
    args, f = strategy(tmp_path, '[1, 2]')
    bad(args, f, "expected a JSON object")


def test_strategy_truncated_json(tmp_path):
    args, f = strategy(tmp_path, '{"memory_optimize": tru')
    bad(args, f + ":1:", "invalid JSON")


def test_strategy_truncated_unicode_escape(tmp_path):
    args, f = strategy(tmp_path, '{"debug_graphviz_path": "\\u')
    bad(args, f + ":1:", "invalid JSON")


def test_strategy_nested_object_value(tmp_path):
    args, f = strategy(tmp_path, '{"reduce_strategy": {"AllReduce": 1}}')
    bad(args, f, "reduce_strategy", "objects are not a value")


def test_strategy_nested_too_deeply(tmp_path):
    args, f = strategy(tmp_path, '{"trainers_endpoints": ' + "[" * 100 + "]" * 100 + "}")
    bad(args, f + ":1:", "nested too deeply")


def test_exec_strategy_integer_too_large(tmp_path):
    args, f = strategy(tmp_path, '{"num_threads": 99999999999999999999}', "--exec-strategy-file")
    bad(args, f, "num_threads", "expected an integer")


def test_exec_strategy_negative_threads(tmp_path):
    args, f = strategy(tmp_path, '{"num_threads": -2}', "--exec-strategy-file")
    bad(args, f, "num_threads must be >= 0")


def test_strategy_file_missing(tmp_path):
    bad(["compile", SAMPLE, "-o", str(tmp_path / "out"), "--build-strategy-file", str(tmp_path / "nope.json")],
        "nope.json", "cannot read")


# ---- command line ----------------------------------------------------------

def test_shape_not_a_number(tmp_path):
    bad(["compile", SAMPLE, "-o", str(tmp_path / "o"), "--shape", "x=four,8"], "--shape x=four,8", "positive integers")


def test_shape_without_name(tmp_path):
    bad(["compile", SAMPLE, "-o", str(tmp_path / "o"), "--shape", "4,8"], "--shape 4,8", "NAME=")


def test_shape_dim_too_large_for_int64(tmp_path):
    bad(["compile", SAMPLE, "-o", str(tmp_path / "o"), "--shape", "x=99999999999999999999,8"],
        "--shape x=99999999999999999999,8")


def test_shape_overflows_a_size(tmp_path):
    """Each dim fits, their product (times 4 bytes) does not."""
    bad(["compile", SAMPLE, "-o", str(tmp_path / "o"), "--shape", "x=4611686018427387904,8"],
        "model.pdmodel", "'x'", "64 bits")


def test_shape_wrong_rank(tmp_path):
    bad(["compile", SAMPLE, "-o", str(tmp_path / "o"), "--shape", "x=4,8,1"], "model.pdmodel", "--shape x", "3 dims")


def test_shape_names_no_feed(tmp_path):
    bad(["compile", SAMPLE, "-o", str(tmp_path / "o"), "--shape", "z=4,8"], "model.pdmodel", "'z'", "not a feed")


def test_unknown_command():
    bad(["frobnicate", SAMPLE], "unknown command 'frobnicate'")


def test_option_without_value():
    bad(["inspect", SAMPLE, "--params"], "--params needs a value")


def test_bad_blas_value(tmp_path):
    bad(["compile", SAMPLE, "-o", str(tmp_path / "o"), "--blas=mkl"], "--blas", "'mkl'")


def test_prefix_not_an_identifier(tmp_path):
    bad(["compile", SAMPLE, "-o", str(tmp_path / "o"), "--name", "1-model"], "--name 1-model", "C identifier")


def test_params_option_names_a_missing_file(tmp_path):
    bad(["inspect", SAMPLE, "--params", str(tmp_path / "nope.pdiparams")], "nope.pdiparams", "cannot read")


# ---- feeds of the generated binary -----------------------------------------

SAN_CFLAGS = "-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"


@pytest.fixture(scope="module")
def san_classifier(tmp_path_factory):
    """The sample classifier built with ASan/UBSan: the .npy reader and the
    generated batch arithmetic run under the sanitizers."""
    d = tmp_path_factory.mktemp("sanbin")
    env = dict(SAN_ENV, CFLAGS=SAN_CFLAGS)
    p = subprocess.run([os.path.join(ROOT, "build", "asan", "paddlec"), "build", os.path.join(ROOT, "samples", "mlp",
                        "model.pdmodel"), "-o", str(d / "classifier"), "--blas=none"], capture_output=True, text=True,
                       env=env, timeout=900)
    assert p.returncode == 0, p.stderr
    return d / "classifier"


def bad_feed(binary, tmp_path, args, *must_contain):
    p = subprocess.run([str(binary), "--output-dir", str(tmp_path)] + args, capture_output=True, text=True,
                       env=SAN_ENV, timeout=120)
    assert "Sanitizer" not in p.stderr and "runtime error" not in p.stderr, p.stderr[-4000:]
    assert p.returncode == 1, (p.returncode, p.stderr)
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), p.stderr
    for s in must_contain:
        assert s in lines[0], (s, lines[0])


def npy_bytes(header, data=b""):
    """A version 1.0 .npy file with this header dict text, padded as numpy pads it."""
    h = header.encode()
    pad = (64 - (10 + len(h) + 1) % 64) % 64
    h += b" " * pad + b"\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h + data


def feed(tmp_path, content, name="x.npy"):
    f = tmp_path / name
    f.write_bytes(content)
    return str(f)


def test_npy_shape_larger_than_its_data(san_classifier, tmp_path):
    f = feed(tmp_path, npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1000, 8), }", b"\0" * 64))
    bad_feed(san_classifier, tmp_path, ["--input", f"x={f}"], "input 'x'", f, "truncated", "32000")


def test_npy_shape_terabytes_with_no_data(san_classifier, tmp_path):
    """Fits in 64 bits, but the file cannot hold it: refused before allocating."""
    f = feed(tmp_path, npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776, 8), }"))
    bad_feed(san_classifier, tmp_path, ["--input", f"x={f}"], "input 'x'", f, "truncated")


def test_npy_shape_overflows(san_classifier, tmp_path):
    f = feed(tmp_path, npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 8), }"))
    bad_feed(san_classifier, tmp_path, ["--input", f"x={f}"], "input 'x'", f, "overflows")


def test_npy_dim_past_int64(san_classifier, tmp_path):
    f = feed(tmp_path, npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999, 8), }"))
    bad_feed(san_classifier, tmp_path, ["--input", f"x={f}"], "input 'x'", f, "malformed .npy shape")


def test_npy_fortran_order(san_classifier, tmp_path):
    f = str(tmp_path / "x.npy")
    np.save(f, np.asfortranarray(np.zeros((4, 8), "float32")))
    bad_feed(san_classifier, tmp_path, ["--input", f"x={f}"], "input 'x'", f, "Fortran-order")


def test_npy_big_endian(san_classifier, tmp_path):
    f = str(tmp_path / "x.npy")
    np.save(f, np.zeros((4, 8), ">f4"))
    bad_feed(san_classifier, tmp_path, ["--input", f"x={f}"], "input 'x'", f, "big-endian", "'<f4'")


def test_npy_without_magic(san_classifier, tmp_path):
    f = feed(tmp_path, b"PK\x03\x04 a zip, not an array")
    bad_feed(san_classifier, tmp_path, ["--input", f"x={f}"], "input 'x'", f, "not a .npy file")


def test_npy_header_cut_short(san_classifier, tmp_path):
    f = feed(tmp_path, npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4, 8), }")[:30])
    bad_feed(san_classifier, tmp_path, ["--input", f"x={f}"], "input 'x'", f, "truncated")


def test_raw_input_batch_wraps_the_size(san_classifier, tmp_path):
    """2^59 x 8 floats are 2^64 bytes: 0 once wrapped, which an empty file matched."""
    f = feed(tmp_path, b"", "x.bin")
    bad_feed(san_classifier, tmp_path, ["--input", f"x={f}", "--shape", "x=576460752303423488,8"],
             "input 'x'", f, "too large")


def test_raw_input_bad_shape(san_classifier, tmp_path):
    f = feed(tmp_path, b"\0" * 32, "x.bin")
    bad_feed(san_classifier, tmp_path, ["--input", f"x={f}", "--shape", "x=1,eight"], "input 'x'", f, "--shape")


def test_raw_input_size_disagrees_with_shape(san_classifier, tmp_path):
    f = feed(tmp_path, b"\0" * 33, "x.bin")
    bad_feed(san_classifier, tmp_path, ["--input", f"x={f}", "--shape", "x=1,8"], "input 'x'", f, "33 bytes", "32")

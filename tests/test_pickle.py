"""Paddle's pickled checkpoints (runtime/rt_pickle.c, rt_pickle_write.c)
against Python's pickle and Paddle, through tests/host/pickle_tool.c built
with ASan and UBSan:

- reading: what `pickle_tool info` lists (names in dict order, Paddle dtype
  numbers, dims) is what pickle.load gives, for files written by
  paddle.static.save (protocols 2, 3, 4), by pickle from numpy dicts of
  every dtype (0-D, empty, Fortran-order, big, many-item arrays; protocols
  2, 3, 4), by Python 2 (hand-assembled: BINSTRING data), Paddle's split of
  big arrays, and PaddleOCR 1.x's fluid.save checkpoint;
- writing: every file read is written back with protocols 2 and 4
  (`pickle_tool copy`), and pickle.load gives the same arrays bit for bit;
  paddle.static.load and load_program_state accept the copies of a
  paddle.static.save checkpoint and restore every variable exactly;
- malformed and foreign pickles are errors naming what and where, never
  crashes; every allocation failure is RT_ERR_NOMEM with nothing leaked."""
import os
import pickle
import struct
import subprocess
import sys

import numpy as np
import pytest

from conftest import BUILD, MODELS, ROOT, SAN_ENV

RT = os.path.join(ROOT, "runtime")
ORACLE = os.path.join(ROOT, "tests", "oracle", "pickle_checkpoint.py")
PPOCR = os.path.join(MODELS, "ppocr1_db_det_train", "best_accuracy.pdparams")
PADDLE_DTYPE = {"float32": 5, "float64": 6, "float16": 4, "int64": 3, "int32": 2, "int16": 1, "int8": 21,
                "uint8": 20, "bool": 0}
SAN_REPORTS = ("AddressSanitizer", "LeakSanitizer", "runtime error")


@pytest.fixture(scope="module")
def tool(tmp_path_factory):
    """pickle_tool with the reader, the writer and what they call (sections
    nothing calls dropped, so rt_read_file's file needs no more of the
    runtime)."""
    exe = str(tmp_path_factory.mktemp("pickle") / "pickle_tool")
    srcs = [os.path.join(ROOT, "tests", "host", "pickle_tool.c")] + [
        os.path.join(RT, f) for f in ("rt_pickle.c", "rt_pickle_write.c", "rt_alloc.c", "rt_dtype.c",
                                      "rt_weights.c", "rt_prepack.c", "rt_tensor_io.c")]
    cmd = ["clang", "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Wextra", "-Werror", "-Wshadow",
           "-Wstrict-prototypes", "-Wmissing-prototypes", "-O1", "-g", "-fsanitize=address,undefined",
           "-fno-sanitize-recover=all", "-ffunction-sections", "-Wl,--gc-sections", "-I", RT] + srcs + \
        ["-lm", "-o", exe]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    return exe


def run_tool(tool, *args):
    p = subprocess.run([tool] + [str(a) for a in args], capture_output=True, text=True, env=SAN_ENV, timeout=300)
    assert not any(s in p.stderr for s in SAN_REPORTS), p.stderr[-4000:]
    return p


def listing(d):
    """What `pickle_tool info` prints for dict d."""
    return "".join(f"{k}\t{PADDLE_DTYPE[v.dtype.name]}\t{','.join(map(str, v.shape))}\n" for k, v in d.items())


def same(a, b):
    """Equal dicts of arrays: order, names, dtypes, shapes, bits; b C-order."""
    assert list(a) == list(b)
    for k in a:
        x, y = a[k], b[k]
        assert isinstance(y, np.ndarray) and x.dtype == y.dtype and x.shape == y.shape, (k, x.dtype, y.dtype)
        assert np.ascontiguousarray(x).tobytes() == y.tobytes(), k
        assert y.flags.c_contiguous, k


def check_file(tool, path, tmp_path, expect=None):
    """info lists what pickle.load gives (or `expect`); copies with
    protocols 2 and 4 load as the same dict."""
    want = expect if expect is not None else pickle.load(open(path, "rb"), encoding="latin1")
    p = run_tool(tool, "info", path)
    assert p.returncode == 0, p.stderr
    assert p.stdout == listing(want)
    for proto in (2, 4):
        out = tmp_path / f"copy{proto}.pkl"
        p = run_tool(tool, "copy", path, out, proto)
        assert p.returncode == 0, p.stderr
        assert not os.path.exists(str(out) + ".tmp")
        data = out.read_bytes()
        assert data[:2] == bytes([0x80, proto])
        same(want, pickle.loads(data))
        same(want, pickle.loads(data, encoding="latin1"))


def all_dtypes():
    rng = np.random.default_rng(5)
    d = {}
    for name in PADDLE_DTYPE:
        if name == "bool":
            a = rng.integers(0, 2, (3, 5)).astype(bool)
        elif name.startswith("float"):
            a = rng.standard_normal((3, 5)).astype(name)
        else:
            info = np.iinfo(name)
            a = rng.integers(info.min, info.max, (3, 5), dtype=name, endpoint=True)
        d[f"{name}_2d"] = a
        d[f"{name}_0d"] = a.reshape(-1)[:1].reshape(())
        d[f"{name}_empty"] = a[:0]
    d["f32_special"] = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, 3.4e38], np.float32)
    d["rank5"] = rng.standard_normal((2, 1, 3, 1, 2)).astype(np.float32)
    d["rank10"] = np.arange(2 ** 10, dtype=np.int32).reshape((2,) * 10)
    d["fortran_2d"] = np.asfortranarray(rng.standard_normal((4, 7)).astype(np.float32))
    d["fortran_3d"] = np.asfortranarray(np.arange(60, dtype=np.int64).reshape(3, 4, 5))
    d["fortran_bool"] = np.asfortranarray(rng.integers(0, 2, (5, 3)).astype(bool))
    d["strided"] = np.arange(40, dtype=np.float64).reshape(5, 8)[:, ::3]
    d["big"] = rng.standard_normal((300, 300)).astype(np.float32)  # BINBYTES beyond a frame
    d["bytes_256"] = np.arange(256, dtype=np.uint8)
    d["dim_1e5"] = np.zeros((100000,), np.int8)
    d["sigma_σ_名"] = np.ones((2,), np.float32)
    d[""] = np.zeros((1,), np.float32)
    return d


@pytest.mark.parametrize("proto", [2, 3, 4])
def test_numpy_dicts(tool, tmp_path, proto):
    d = all_dtypes()
    assert d["fortran_2d"].flags.f_contiguous and not d["fortran_2d"].flags.c_contiguous
    path = tmp_path / "d.pkl"
    path.write_bytes(pickle.dumps(d, protocol=proto))
    if proto == 2:  # the Fortran arrays really are pickled in Fortran order
        assert b"\x88" in pickle.dumps(d["fortran_3d"], protocol=2)
    check_file(tool, path, tmp_path)


@pytest.mark.parametrize("proto", [2, 4])
def test_many_items(tool, tmp_path, proto):
    """More than 1000 items: the pickler's SETITEMS batches, LONG_BINPUT /
    LONG_BINGET memo indices past 255."""
    d = {f"v{i}": np.full((i % 3 + 1,), i, np.float32 if i % 2 else np.int64) for i in range(2500)}
    path = tmp_path / "many.pkl"
    path.write_bytes(pickle.dumps(d, protocol=proto))
    check_file(tool, path, tmp_path)


def test_paddle_split_big_arrays(tool, tmp_path):
    """Paddle's protocol 2/3 split of big arrays (UnpackBigParamInfor@@, as
    paddle's _unpack_saved_dict writes it, made small): joined back as
    paddle's _pack_loaded_dict does, at the end of the dict."""
    from paddle.framework.io_utils import _pack_loaded_dict
    w = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    flat = w.flatten()
    d = {"a": np.ones(3, np.int64), "w@@.0": flat[:10], "w@@.1": flat[10:20], "w@@.2": flat[20:],
         "b": np.zeros((2, 2), np.float64),
         "UnpackBigParamInfor@@": {"w": {"OriginShape": w.shape, "slices": ["w@@.0", "w@@.1", "w@@.2"]}}}
    for proto in (2, 3):
        path = tmp_path / f"split{proto}.pkl"
        path.write_bytes(pickle.dumps(d, protocol=proto))
        want = _pack_loaded_dict(pickle.load(open(path, "rb"), encoding="latin1"))
        assert list(want) == ["a", "b", "w"]
        check_file(tool, path, tmp_path, want)


def test_ppocr_fluid_save(tool, tmp_path):
    """PaddleOCR 1.x's fluid.save checkpoint (protocol 2, 267 float32
    arrays): every array as pickle gives it, and its copies."""
    if not os.path.exists(PPOCR):
        pytest.skip(f"{PPOCR} not present")
    check_file(tool, PPOCR, tmp_path)


def test_python2_pickle(tool, tmp_path):
    """A pickle as Python 2 wrote it: keys and data as Python 2 str
    (SHORT_BINSTRING / BINSTRING), dtype('f4', 0, 1), ints as BININT*,
    GLOBAL lines, BINPUT/BINGET; read as pickle.load(encoding='latin1')."""
    w = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5
    i = np.array([7, -1], np.int64)

    def s2(b):  # a Python 2 str
        return (b"U" + bytes([len(b)]) + b) if len(b) < 256 else (b"T" + struct.pack("<i", len(b)) + b)

    def array(shape, code, data, first):
        out = (b"cnumpy.core.multiarray\n_reconstruct\nq\x01cnumpy\nndarray\nq\x02" if first else b"h\x01h\x02")
        out += b"K\x00\x85" + s2(b"b") + b"\x87R("
        out += b"K\x01" + b"".join(b"K" + bytes([n]) for n in shape) + (b"\x86" if len(shape) == 2 else b"\x85")
        out += (b"cnumpy\ndtype\nq\x03" if first else b"h\x03") + s2(code) + b"K\x00K\x01\x87R("
        out += b"K\x03" + s2(b"<") + b"NNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK\x00tb"
        return out + b"\x89" + s2(data) + b"tb"

    blob = b"\x80\x02}q\x00(" + s2(b"w\xe9") + array(w.shape, b"f4", w.tobytes(), True) + \
        s2(b"ids") + array(i.shape, b"i8", i.tobytes(), False) + b"u."
    path = tmp_path / "py2.pkl"
    path.write_bytes(blob)
    want = pickle.loads(blob, encoding="latin1")
    assert list(want) == ["w\xe9", "ids"]
    check_file(tool, path, tmp_path)


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    d = tmp_path_factory.mktemp("ckpt")
    p = subprocess.run([sys.executable, ORACLE, "save", str(d)], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    return d


@pytest.mark.parametrize("proto", [2, 3, 4])
def test_paddle_static_save(tool, tmp_path, checkpoint, proto):
    """paddle.static.save's .pdparams and .pdopt (fc + Adam, after two
    steps) read as pickle reads them; the copies our writer makes (protocols
    2 and 4) load into the program with paddle.static.load and
    load_program_state, every variable bit for bit."""
    prefix = checkpoint / f"p{proto}"
    for ext in (".pdparams", ".pdopt"):
        check_file(tool, f"{prefix}{ext}", tmp_path)
    for out_proto in (2, 4):
        copy = tmp_path / f"c{out_proto}"
        for ext in (".pdparams", ".pdopt"):
            p = run_tool(tool, "copy", f"{prefix}{ext}", f"{copy}{ext}", out_proto)
            assert p.returncode == 0, p.stderr
        p = subprocess.run([sys.executable, ORACLE, "load", str(copy), str(checkpoint)], capture_output=True,
                           text=True, timeout=600)
        assert p.returncode == 0 and p.stdout.strip().startswith("ok"), p.stdout[-3000:] + p.stderr[-3000:]


def test_info_dtypes_and_order(tool, tmp_path, checkpoint):
    p = run_tool(tool, "info", checkpoint / "p4.pdopt")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == "learning_rate_0\t5\t"  # a 0-D float32
    assert "fc_0.w_0_moment1_0\t5\t4,8" in lines


def test_allocation_failures(tool, tmp_path):
    """Every allocation of a read and a write failing in turn: RT_ERR_NOMEM,
    nothing leaked, nothing half-made returned."""
    d = {"a": np.arange(6, dtype=np.float32).reshape(2, 3), "b": np.asfortranarray(np.ones((3, 2), np.int64)),
         "c": np.array(True), "w@@.0": np.arange(4, dtype=np.float32), "w@@.1": np.arange(2, dtype=np.float32),
         "UnpackBigParamInfor@@": {"w": {"OriginShape": (2, 3), "slices": ["w@@.0", "w@@.1"]}}}
    for proto in (2, 4):
        path = tmp_path / f"nomem{proto}.pkl"
        path.write_bytes(pickle.dumps(d, protocol=proto))
        p = run_tool(tool, "nomem", path, proto)
        assert p.returncode == 0 and p.stdout.startswith("ok after"), p.stdout + p.stderr


class Weird:
    pass


class Reduced:
    """Pickles as REDUCE of fn(*args), then BUILD with state when given."""

    def __init__(self, fn, args, state=None):
        self.r = (fn, args) if state is None else (fn, args, state)

    def __reduce__(self):
        return self.r


def fake_array(shape, data, version=1, dtype="f4"):
    """An ndarray pickle with any shape and data."""
    from numpy.core.multiarray import _reconstruct
    return Reduced(_reconstruct, (np.ndarray, (0,), b"b"), (version, shape, np.dtype(dtype), False, data))


def bad_cases():
    """(name, pickle bytes, words the message must hold)."""
    import codecs
    from numpy.core.multiarray import _reconstruct
    good = pickle.dumps({"a": np.arange(3, dtype=np.float32)}, protocol=4)
    good2 = pickle.dumps({"a": np.arange(3, dtype=np.float32)}, protocol=2)

    def p2(v):
        return pickle.dumps({"a": v}, protocol=2)

    return [
        ("empty", b"", "empty"),
        ("text_protocol0", pickle.dumps({"a": 1}, protocol=0), "not a binary pickle"),
        ("truncated", good[:-7], "byte"),
        ("frame_short", good[:-1], "FRAME of 155 bytes, the pickle has 154 left"),
        ("no_stop", good2[:-1], "ends before its STOP"),
        ("unknown_opcode", good[:11] + b"\xff" + good[12:], "unknown opcode 0xff"),
        ("persid", good2[:2] + b"Q" + good2[2:], "opcode BINPERSID is not supported"),
        ("dict_of_ints", pickle.dumps({"a": 1, "b": 2}, protocol=4), "value of 'a' is an int, not a numpy.ndarray"),
        ("int_key", pickle.dumps({1: np.zeros(2, np.float32)}, protocol=4), "key 0 of the dict is an int"),
        ("int_key_p2", pickle.dumps({"x": np.zeros(1, np.float32), 5: np.zeros(2, np.float32)}, protocol=2),
         "key 1 of the dict is an int"),
        ("list", pickle.dumps([np.zeros(2, np.float32)], protocol=4), "holds a list, not a dict"),
        ("os_system", pickle.dumps(os.system, protocol=4), "global 'posix.system' is not allowed"),
        ("class", p2(Weird()), "global 'test_pickle.Weird' is not allowed"),
        ("protocol5", pickle.dumps({"a": np.zeros(2, np.float32)}, protocol=5), "_frombuffer' is not allowed"),
        ("complex", pickle.dumps({"a": np.zeros(2, np.complex64)}, protocol=4), "numpy dtype 'c8' is not supported"),
        ("uint32", p2(np.zeros(2, np.uint32)), "numpy dtype 'u4' is not supported"),
        ("object", pickle.dumps({"a": np.array([1, "x"], dtype=object)}, protocol=4), "numpy dtype 'O8'"),
        ("big_endian", pickle.dumps({"a": np.zeros(2, ">f4")}, protocol=4), "big-endian"),
        ("structured", pickle.dumps({"a": np.zeros(2, [("x", "<f4")])}, protocol=4), "numpy dtype 'V4'"),
        ("scalar", pickle.dumps({"a": np.float32(1)}, protocol=4), "'numpy.core.multiarray.scalar' is not allowed"),
        ("memo_missing", good[:13] + b"h\x09" + good[14:], "memo index 9 was never stored"),
        ("huge_length", good2[:6] + b"\xff\xff\xff\x7f" + good2[10:], "needs 2147483647 bytes"),
        ("short_data", p2(fake_array((4,), b"x" * 12)), "needs 16 bytes of data, it has 12"),
        ("rank11", p2(fake_array((1,) * 11, b"x" * 4)), "has 11 dims, more than 10"),
        ("negative_dim", p2(fake_array((-1,), b"")), "dim 0 of the array"),
        ("dims_overflow", p2(fake_array((2 ** 40, 2 ** 40), b"")), "overflows"),
        ("long_dim", p2(fake_array((2 ** 70,), b"")), "does not fit in 64 bits"),
        ("version2", p2(fake_array((1,), b"x" * 4, version=2)), "has version other than 1"),
        ("dygraph_state_dict", pickle.dumps({"weight": np.zeros(2, np.float32), "StructuredToParameterName@@":
                                              {"weight": "linear_0.w_0"}}, protocol=4), "dygraph Layer's state_dict"),
        ("key_not_utf8", pickle.dumps({"k": np.zeros(2, np.float32)}, protocol=4).replace(b"\x8c\x01k", b"\x8c\x01\xff"),
         "key 0 of the dict is not valid UTF-8"),
        ("no_build", p2(Reduced(_reconstruct, (np.ndarray, (0,), b"b"))), "never had its state set"),
        ("ndarray_call", p2(Reduced(np.ndarray, ((2,),))), "REDUCE calls numpy.ndarray directly"),
        ("encode_utf8", p2(Reduced(codecs.encode, ("abc", "utf-8"))), "_codecs.encode wants (str, 'latin1')"),
        ("encode_euro", p2(fake_array((1,), "\u20ac\u20ac\u20ac\u20ac")), "U+20AC, which latin1 cannot encode"),
    ]


@pytest.mark.parametrize("case", bad_cases(), ids=lambda c: c[0])
def test_malformed(tool, tmp_path, case):
    name, blob, words = case
    path = tmp_path / "bad.pkl"
    path.write_bytes(blob)
    p = run_tool(tool, "info", path)
    assert p.returncode == 1 and p.stdout == "", p.stdout + p.stderr
    assert str(path) in p.stderr and "pickle byte " in p.stderr and words in p.stderr, p.stderr


def test_duplicate_and_split_errors(tool, tmp_path):
    """Keys twice (a dict pickle can only say so through SETITEM after
    SETITEMS), and split info that names a missing slice."""
    one = pickle.dumps({"aa": np.zeros(1, np.float32), "zz": np.ones(1, np.float32)}, protocol=2)
    dup = one.replace(b"X\x02\x00\x00\x00zz", b"X\x02\x00\x00\x00aa")
    assert dup != one
    bad_split = pickle.dumps({"w@@.0": np.zeros(2, np.float32),
                              "UnpackBigParamInfor@@": {"w": {"OriginShape": (4,), "slices": ["w@@.0", "w@@.9"]}}},
                             protocol=2)
    short_split = pickle.dumps({"w@@.0": np.zeros(2, np.float32),
                                "UnpackBigParamInfor@@": {"w": {"OriginShape": (3,), "slices": ["w@@.0"]}}},
                               protocol=2)
    for blob, words in ((dup, "key 'aa' appears twice"), (bad_split, "names slice 'w@@.9'"),
                        (short_split, "the slices hold 2 elements, OriginShape 3")):
        path = tmp_path / "bad.pkl"
        path.write_bytes(blob)
        p = run_tool(tool, "info", path)
        assert p.returncode == 1 and words in p.stderr, p.stderr


def test_every_truncation_and_byte(tool, tmp_path):
    """Each prefix of a small checkpoint is an error; each byte set to a few
    values is an error or a dict that pickle gives the same."""
    d = {"a": np.arange(3, dtype=np.float32), "b": np.asfortranarray(np.ones((2, 2), np.int8))}
    blob = pickle.dumps(d, protocol=2)
    path = tmp_path / "t.pkl"
    for n in range(0, len(blob), 3):
        path.write_bytes(blob[:n])
        p = run_tool(tool, "info", path)
        assert p.returncode == 1, (n, p.stdout)
    for i in range(2, len(blob), 5):
        for v in (0x00, 0x80, 0xff, 0x28):
            mutated = blob[:i] + bytes([v]) + blob[i + 1:]
            path.write_bytes(mutated)
            p = run_tool(tool, "info", path)
            assert p.returncode in (0, 1), (i, v, p.stderr)

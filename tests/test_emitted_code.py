"""What the emitted kernels read like (issue 18): every tensor a local named
after its Paddle var, declared at the top of the kernel or task function,
const unless written; names that are no C names, that collide, or that are
C's or the runtime's own get a "t_" in front or a suffix, and the numbers
stay right (tests/emitted/names.ir: 6 * relu(x), worked out by hand in the
file); no (void) lines; dtypes by their enumerators; an identity scale
emits nothing."""
import os
import re
import subprocess

import numpy as np

from conftest import ROOT, run

NAMES = os.path.join(ROOT, "tests", "emitted", "names.ir")


def kernels(source):
    """{kernel name: its text} of an emitted model.c."""
    found = re.findall(r"^static void (model_k\w+)\((.*?)^}\n", source, re.M | re.S)
    return dict(found)


def test_awkward_names(tmp_path):
    p = run(["build", NAMES, "-o", str(tmp_path / "m"), "--ir-optim=false"])
    assert p.returncode == 0, p.stderr
    src = (tmp_path / "m_src" / "model.c").read_text()
    k = kernels(src)
    # relu(a.b) -> a_b: the var named a_b keeps its name, a.b becomes a_b_2
    relu2 = k["model_k002_relu_task0"]
    assert "const float *a_b_2 = (const float *)" in relu2 and "float *a_b = (float *)" in relu2, relu2
    add = k["model_k003_elementwise_add_task0"]
    assert "const float *a_b = " in add and "const float *a_b_2 = " in add and "float *for_2 = " in add, add
    assert "float *t_1st = " in k["model_k004_relu_task0"]
    assert "float *t_rt_x = " in k["model_k005_scale_task0"]
    # the feed x: the emitter's own x is taken, so x_2
    assert "const float *x_2 = (const float *)m->in[0];" in k["model_k001_relu_task0"]
    assert "(void)" not in "".join(k.values())
    x = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    q = subprocess.run([str(tmp_path / "m"), "--input", f"x={tmp_path}/x.npy", "--output-dir", str(tmp_path / "o")],
                       capture_output=True, text=True, timeout=120)
    assert q.returncode == 0, q.stderr
    assert np.array_equal(np.load(tmp_path / "o" / "rt_x.npy"), np.float32(6) * np.maximum(x, 0))


def test_sample_reads_with_names(tmp_path):
    """The sample MLP: its kernels name its Paddle vars, mark what they do
    not use once in the signature, and its tables name dtypes."""
    p = run(["compile", os.path.join(ROOT, "samples", "mlp"), "-o", str(tmp_path)])
    assert p.returncode == 0, p.stderr
    src = (tmp_path / "model.c").read_text()
    assert "const float *linear_0_w_0 = (const float *)m->w[1];" in src
    assert re.search(r"static void model_k003_softmax\(model_model \*m, int64_t B, unsigned char \*ws RT_UNUSED\)", src)
    assert '{"x", RT_DT_FP32, 2, {1, 0}, {0, 8}},' in src
    assert "(void)" not in "".join(kernels(src).values()) and "&& !0" not in src and "m->w[1])," not in src
    assert "static void fetch(model_model *m RT_UNUSED, int64_t B RT_UNUSED, void *const outputs[] RT_UNUSED)" in src


def test_identity_scale_emits_nothing(tmp_path):
    """The jit.save'd sample ends in scale 1 + 0 into its own buffer: no
    loop, and the outputs are those of the run before."""
    p = run(["compile", os.path.join(ROOT, "samples", "mlp"), "-o", str(tmp_path)])
    assert p.returncode == 0, p.stderr
    k = kernels((tmp_path / "model.c").read_text())
    scale = [v for n, v in k.items() if n.endswith("_scale")]
    assert scale and "nothing to copy" in scale[0] and "for (" not in scale[0], scale


def test_scratch_is_named_by_role(tmp_path):
    """The golden CNN: each kernel's scratch regions are locals named after
    their role (conv_ws, gemm_ws), declared with the operands; no call reads
    `(float *)(ws + N)`.  The trainer's place functions mark what they do not
    use in their signatures instead of (void) lines."""
    p = run(["compile", os.path.join(ROOT, "tests", "golden", "models", "cnn"), "-o", str(tmp_path / "cnn")])
    assert p.returncode == 0, p.stderr
    k = kernels((tmp_path / "cnn" / "model.c").read_text())
    conv = k["model_k001_fused_conv2d"]
    assert re.search(r"^  float \*conv_ws = \(float \*\)ws;$", conv, re.M), conv
    assert re.search(r"^  float \*gemm_ws = \(float \*\)\(ws \+ \d+\);$", conv, re.M), conv
    assert re.search(r"rt_conv2d\(&geo, B, image, .*, conv_ws, gemm_ws\);", conv), conv
    for name, text in k.items():
        for line in text.splitlines()[1:]:  # after the signature
            if "ws" in re.findall(r"\w+", line) and not re.match(r"^\s+(unsigned char|float|int64_t) \*\w+ = ", line):
                assert "(ws" not in line and "ws)" not in line, (name, line)
    golden = os.path.join(ROOT, "tests", "golden", "models", "train_step")
    p = run(["compile", os.path.join(golden, "main.pdmodel"), "--startup", os.path.join(golden, "startup.pdmodel"),
             "-o", str(tmp_path / "train")])
    assert p.returncode == 0, p.stderr
    src = (tmp_path / "train" / "model.c").read_text()
    assert "static void *dp_sync(model_model *m RT_UNUSED, int64_t B RT_UNUSED, int i," in src
    assert re.search(r"^static void dp_seed\(model_model \*m, int64_t B RT_UNUSED, double v\) \{\n  float \*out = ",
                     src, re.M)
    for fn in ("dp_grad", "dp_sync", "dp_seed"):
        body = re.search(r"^static void \*?%s\(.*?^}$" % fn, src, re.M | re.S).group(0)
        assert "(void)" not in body, body

"""The 22 real programs in ../shared/models (saved by Paddle 1.x-2.6 in other
people's projects): every one parses; its feeds, fetches, version and op types
are what its SOURCE.txt says; parameters load and match every VarDesc where
they are complete; every op output's inferred shape equals Paddle's VarDesc.

EXPECT holds facts copied by hand from each model's SOURCE.txt (feeds with
dtype and shape, fetch names, ProgramDesc.version, op counts the text states,
block counts, whether the parameters are complete).  -1 version = the field is
absent."""
import os

import pytest

from conftest import MODELS, inspect_json, real_models, run

F32, I64 = "float32", "int64"
EXPECT = {
    "blazeface_det": dict(version=2003000, params=198, feeds={
        "image": (F32, [-1, 3, -1, -1]), "im_shape": (F32, [-1, 2]), "scale_factor": (F32, [-1, 2])},
        fetches=["multiclass_nms3_0.tmp_0", "multiclass_nms3_0.tmp_2"],
        has_ops=["prior_box", "multiclass_nms3", "depthwise_conv2d", "stack", "exp"]),
    "book_fit_a_line_2018": dict(version=-1, params=2, feeds={"x": (F32, [-1, 13])},
                                 fetches=["fc_0.tmp_1"],
                                 ops={"feed": 1, "mul": 1, "elementwise_add": 1, "fetch": 1}),
    "book_fit_a_line_2019": dict(version=-1, params=2, feeds={"x": (F32, [-1, 13])},
                                 fetches=["scale_99.tmp_0"],
                                 ops={"feed": 1, "mul": 1, "elementwise_add": 1, "scale": 1, "fetch": 1}),
    "custom_gap_op": dict(version=0, params=6, feeds={"x": (F32, [32, 3, 7, 7])},
                          has_ops=["gap", "conv2d", "matmul_v2"], unknown=["gap"]),
    "dqn_atari_cnn": dict(version=-1, params=10, feeds={"state": (F32, [-1, 4, 84, 84])}, ops={
        "feed": 1, "fill_constant": 1, "elementwise_div": 1, "conv2d": 4, "elementwise_add": 5,
        "relu": 4, "pool2d": 3, "flatten2": 1, "mul": 1, "scale": 1, "fetch": 1}),
    "keypoint_hrnet_lite_pd26": dict(version=2006000, params=None, op_count=1488, nfetch=2,
                                     feeds={"image": (F32, [-1, 3, 256, 192])},
                                     has_ops=["nearest_interp_v2", "bilinear_interp_v2", "arg_max"]),
    "lac_seg_bigru_crf": dict(version=1006001, params=20, feeds={"words": (I64, [-1, 1])},
                              lod={"words": 1}, has_ops=["gru", "crf_decoding", "lookup_table"],
                              ops_at_least={"gru": 4},
                              # declared float32 (the 1.x Python API), int64 as Paddle's kernel writes it
                              mismatches=["crf_decoding_0.tmp_0", "save_infer_model/scale_0"]),
    "lite_simple_conv_bn": dict(version=2002002, params=5, feeds={"image": (F32, [-1, 3, 224, 224])},
                                fetches=["batch_norm_0.tmp_3"],
                                ops={"feed": 1, "conv2d": 1, "batch_norm": 1, "relu": 1, "fetch": 1}),
    "mlp_mnist_fluid2018": dict(version=-1, params=6, feeds={"img": (F32, [-1, 1, 28, 28])},
                                fetches=["fc_2.tmp_2"], op_count=11),
    "mlp_mnist_fluid21": dict(version=2001000, params=6, feeds={"image": (F32, [-1, 1, 28, 28])},
                              fetches=["save_infer_model/scale_0.tmp_4"], ops={
        "feed": 1, "mul": 3, "elementwise_add": 3, "relu": 2, "softmax": 1, "scale": 1, "fetch": 1}),
    "mobilenet_v1_fluid": dict(version=-1, params=None, feeds={"image": (F32, [-1, 3, 224, 224])},
                               ops_at_least={"conv2d": 14, "depthwise_conv2d": 13, "batch_norm": 27}),
    "pphgnetv2_b0_cls_pd26": dict(version=2006002, params=None, op_count=194,
                                  feeds={"x": (F32, [-1, 3, 224, 224])}),
    "ppocr1_crnn_rec_infer": dict(version=1008005, params=None, op_count=198, nfetch=2,
                                  feeds={"image": (F32, [-1, 3, 32, 320])},
                                  has_ops=["lstm", "im2sequence", "ctc_align", "top_k"]),
    "ppocr1_crnn_rec_train": dict(version=1008005, params=None, blocks=3, grad_ops=192,
                                  ops_at_least={"adam": 159}),
    "ppocr1_db_det_infer": dict(version=1008005, params=256, op_count=167,
                                feeds={"image": (F32, [-1, 3, 640, 640])}),
    # a training program: its feeds are the outputs of its `read` op, its fetch the loss (compiler/train.c)
    "ppocr1_db_det_train": dict(version=1008005, params=None, blocks=3, grad_ops=211, nfeed=5,
                                fetches=["tmp_43"], ops_at_least={"adam": 165}),
    "ppocr_rec_svtr_pd25": dict(version=2005000, params=None, op_count=251,
                                feeds={"x": (F32, [-1, 3, 48, -1])}, fetches=["softmax_2.tmp_0"]),
    "resnet50_int8_qat_fluid": dict(version=0, params=None, op_count=367,
                                    feeds={"image": (F32, [-1, 3, 224, 224])}, ops_at_least={
        "fake_quantize_moving_average_abs_max": 50,
        "fake_quantize_dequantize_moving_average_abs_max": 84, "fake_dequantize_max_abs": 54}),
    "resnet50_pd20": dict(version=0, params=None, feeds={"inputs": (F32, [-1, 3, 224, 224])},
                          ops_at_least={"conv2d": 53, "batch_norm": 53}),
    "textcnn_news_cls": dict(version=1006003, params=8, feeds={"words": (I64, [-1, 1])}, ops={
        "feed": 1, "lookup_table": 1, "sequence_conv": 2, "elementwise_add": 3, "tanh": 2,
        "sequence_pool": 2, "mul": 2, "sum": 1, "softmax": 1, "scale": 1, "fetch": 1}),
    "video_stnet_fluid": dict(version=-1, params=None, op_count=218,
                              feeds={"image": (F32, [-1, 7, 15, 224, 224])},
                              has_ops=["conv3d"]),
    "word2vec_ngram": dict(version=1006003, params=5, feeds={
        w: (I64, [-1, 1]) for w in ("firstw", "secondw", "thirdw", "fourthw")},
        ops_at_least={"lookup_table_v2": 4}),
}


def model_path(name):
    d = os.path.join(MODELS, name)
    trains = [f for f in os.listdir(d) if f == "best_accuracy.pdmodel"]
    return os.path.join(d, trains[0]) if trains else d


def test_all_22_models_present():
    assert sorted(EXPECT) == real_models()


@pytest.mark.parametrize("name", sorted(EXPECT))
def test_real_model(name):
    e = EXPECT[name]
    j = inspect_json(model_path(name))
    assert j["version"] == e["version"]
    if "blocks" in e:
        assert j["blocks"] == e["blocks"]
    feeds = {f["name"]: (f["dtype"], f["shape"]) for f in j["feeds"]}
    if "feeds" in e:
        assert feeds == e["feeds"]
        assert [f["col"] for f in j["feeds"]] == list(range(len(j["feeds"])))
    if "nfeed" in e:
        assert len(j["feeds"]) == e["nfeed"]
    for name_, lod in e.get("lod", {}).items():
        assert [f.get("lod_level") for f in j["feeds"] if f["name"] == name_] == [lod]
    if "fetches" in e:
        assert [f["name"] for f in j["fetches"]] == e["fetches"]
    if "nfetch" in e:
        assert len(j["fetches"]) == e["nfetch"]
    ops = j["op_types"]
    if "ops" in e:
        assert ops == e["ops"]
    if "op_count" in e:
        assert j["op_count"] == e["op_count"]
    for t in e.get("has_ops", []):
        assert t in ops
    for t, n in e.get("ops_at_least", {}).items():
        assert ops.get(t, 0) >= n, (t, ops.get(t))
    if "grad_ops" in e:
        assert sum(n for t, n in ops.items() if t.endswith("_grad")) == e["grad_ops"]
    # parameters: complete ones load and match every VarDesc (paddlec checks
    # dtype, dims and byte count; a mismatch is an error and exit 1)
    p = j["parameters"]
    if e["params"] is None:
        assert not p["complete"] and p["bytes_loaded"] == 0
    else:
        assert p["complete"] and p["count"] == e["params"], p
    # shape inference: every op has a rule (except a user-defined custom op,
    # which must be reported) and agrees with Paddle's VarDescs
    assert sorted({u["type"] for u in j["no_shape_rule"]}) == e.get("unknown", [])
    assert j["shape_mismatches"] == e.get("mismatches", [])
    # every op paddlec cannot compile yet is listed with its place
    for u in j["cannot_compile"]:
        assert u["type"] in ops and u["block"] >= 0 and u["op"] >= 0


def test_mlp_2018_ignores_unreferenced_param_files():
    """fc_3.* files sit in the directory but the program does not use them."""
    j = inspect_json(os.path.join(MODELS, "mlp_mnist_fluid2018"))
    names = {v["name"] for v in j["vars"] if v["parameter"]}
    assert names == {f"fc_{i}.{k}_0" for i in range(3) for k in "wb"}


def test_pickle_params_rejected_clearly():
    """fluid.save's .pdparams is a Python pickle, not a tensor stream."""
    d = os.path.join(MODELS, "ppocr1_db_det_train")
    p = run(["inspect", os.path.join(d, "best_accuracy.pdmodel"), "--params",
             os.path.join(d, "best_accuracy.pdparams")])
    assert p.returncode == 1
    assert "best_accuracy.pdparams" in p.stderr and "pickle" in p.stderr


@pytest.mark.parametrize("name", ["lite_simple_conv_bn", "blazeface_det", "ppocr1_db_det_train"])
def test_graph_dot(name, tmp_path):
    out = tmp_path / "g.dot"
    p = run(["graph", model_path(name), "-o", str(out)])
    assert p.returncode == 0, p.stderr
    text = out.read_text()
    assert text.startswith("digraph") and text.rstrip().endswith("}")
    j = inspect_json(model_path(name))
    assert text.count("shape=box") == j["op_count"]


@pytest.mark.parametrize("name", ["custom_gap_op"])
def test_compile_lists_every_unsupported_op(name, tmp_path):
    """compile names every op type it cannot compile, with places, exits 1 and
    writes nothing (never a partial program)."""
    j = inspect_json(model_path(name))
    missing = {u["type"] for u in j["cannot_compile"]}
    assert missing
    out = tmp_path / "out"
    p = run(["compile", model_path(name), "-o", str(out), "--no-params"])
    assert p.returncode == 1
    for t in missing:
        assert f"cannot compile op '{t}'" in p.stderr, (t, p.stderr[-2000:])
    assert not out.exists()


def test_ppocr_train_compiles_with_run_time_top_k(tmp_path):
    """ppocr1_db_det_train compiles: its LR sub-blocks inline, and its DB
    loss's top_k takes K from a tensor (the OHEM negative count,
    min(negatives, 3 * positives)), a run-time extent that the reduce_sum
    after it reads (tests/test_runtime_extent.py)."""
    out = tmp_path / "out"
    p = run(["compile", model_path("ppocr1_db_det_train"), "-o", str(out)])
    assert p.returncode == 0, p.stderr[-2000:]
    code = (out / "model.c").read_text()
    assert "const int64_t k = cast_1_tmp_0[0];" in code and "const int64_t n0 = m->runtime_dims[" in code

"""References for the real programs in ../shared/models, computed by Paddle.

    python real_models.py OUTDIR [NAME ...]

Models whose parameters are complete run on their own weights.  For the
others, random weights of the right shapes (fixed seed) are written in
Paddle's combined format next to a copy of the program (in OUTDIR, never in
the repository), and Paddle runs on those.  OUTDIR/NAME/ gets input_<i>.npy,
output_<i>.npy, paddle.json and paddlec.json (the program and parameter paths
and --shape options paddlec needs)."""
import json
import os
import shutil
import struct
import sys

os.environ.setdefault("FLAGS_enable_pir_api", "0")
import numpy as np  # noqa: E402
import paddle  # noqa: E402

MODELS = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "models"))
SEED = 11

# name: program file, parameter file (None = per-variable files), whether the
# weights must be made up, batch, --shape for dims other than the batch,
# the exclusive upper bound of integer inputs, the values of feeds that
# are not random, and whether the fetches' LoDs are compared (lod).
REAL = {
    "book_fit_a_line_2018": dict(model="__model__"),
    "book_fit_a_line_2019": dict(model="__model__"),
    "dqn_atari_cnn": dict(model="__model__"),
    "lite_simple_conv_bn": dict(model="model.pdmodel", params="model.pdiparams"),
    "mlp_mnist_fluid2018": dict(model="__model__"),
    "mlp_mnist_fluid21": dict(model="__model__"),
    "word2vec_ngram": dict(model="__model__", int_high=2074),
    "ppocr1_db_det_infer": dict(model="model", params="params", batch=1),
    "mobilenet_v1_fluid": dict(model="__model__", random=True),
    "pphgnetv2_b0_cls_pd26": dict(model="inference.pdmodel", random=True),
    "resnet50_pd20": dict(model="inference.pdmodel", random=True, batch=1),
    "resnet50_int8_qat_fluid": dict(model="__model__", random=True, batch=1),
    "video_stnet_fluid": dict(model="__model__", random=True, batch=1),
    "keypoint_hrnet_lite_pd26": dict(model="model.pdmodel", random=True, batch=1),
    "ppocr_rec_svtr_pd25": dict(model="inference.pdmodel", random=True, batch=1, shape={"x": [3, 48, 320]}),
    # its NMS keeps a number of boxes known only at run time; the image sizes and scales as a detector gets them
    # CRNN: im2sequence makes a LoD (one sequence an image) that the LSTMs read and ctc_align
    # decodes into a LoD of its own; both fetches carry theirs (output_<i>.lod.json)
    "ppocr1_crnn_rec_infer": dict(model="model", random=True, batch=2, lod=True),
    "blazeface_det": dict(model="model.pdmodel", params="model.pdiparams", shape={
        "image": [3, 128, 128], "im_shape": [2], "scale_factor": [2]}, values={
        "im_shape": [[128, 128], [128, 128]], "scale_factor": [[1, 1], [0.5, 0.75]]}),
}

DTYPES = {"float32": 5, "float64": 6, "int64": 3, "int32": 2, "int8": 21, "uint8": 20, "bool": 0}


def record(arr):
    """One tensor record in Paddle's format (spec section 5.1)."""
    desc = b"\x08" + bytes([DTYPES[str(arr.dtype)]])
    for d in arr.shape:
        v, enc = d, bytearray()
        while True:
            if v < 0x80:
                enc.append(v)
                break
            enc.append((v & 0x7F) | 0x80)
            v >>= 7
        desc += b"\x10" + bytes(enc)
    head = struct.pack("<IQI", 0, 0, 0) + struct.pack("<i", len(desc))
    return head + desc + np.ascontiguousarray(arr).tobytes()


def random_params(program, path, rng):
    """Writes made-up values for every persistable tensor, in byte-wise name
    order: 1-D tensors (scales, biases, BN statistics, quant scales) in
    [0.9, 1.1) so variances stay positive; others normal with variance 1/fan-in
    (LeCun), which keeps deep random networks from saturating."""
    names = sorted({v.name for b in program.blocks for v in b.vars.values()
                    if v.persistable and v.name not in ("feed", "fetch")}, key=lambda s: s.encode())
    block = program.global_block()
    with open(path, "wb") as f:
        for n in names:
            v = block.var(n)
            shape = [int(d) for d in v.shape]
            dt = str(v.dtype).replace("paddle.", "")
            if "float" not in dt:
                arr = np.zeros(shape, dtype=dt)
            elif len(shape) <= 1:
                arr = rng.uniform(0.9, 1.1, shape).astype(dt)
            else:
                fan = max(int(np.prod(shape[1:])), 1)
                arr = (rng.standard_normal(shape) * np.sqrt(1.0 / fan)).astype(dt)
            f.write(record(arr))


def build(name, root):
    cfg = REAL[name]
    out = os.path.join(root, name)
    if os.path.exists(os.path.join(out, "paddlec.json")):
        return
    os.makedirs(out, exist_ok=True)
    src = os.path.join(MODELS, name)
    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    rng = np.random.default_rng(SEED)
    model_dir, params = src, cfg.get("params")
    args = {"model": os.path.join(src, cfg["model"])}
    if cfg.get("random"):
        shutil.copy(os.path.join(src, cfg["model"]), os.path.join(out, "program"))
        prog = paddle.static.Program.parse_from_string(open(os.path.join(out, "program"), "rb").read())
        random_params(prog, os.path.join(out, "random.pdiparams"), rng)
        model_dir, params = out, "random.pdiparams"
        args = {"model": os.path.join(out, "program"), "params": os.path.join(out, "random.pdiparams")}
    model_file = "program" if cfg.get("random") else cfg["model"]
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        prog, feeds, fetches = paddle.static.load_inference_model(model_dir, exe, model_filename=model_file,
                                                                  params_filename=params)
        inputs, shapes = {}, []
        for i, fname in enumerate(feeds):
            v = prog.global_block().var(fname)
            fixed = cfg.get("shape", {}).get(fname)
            shape = [cfg.get("batch", 2)] + (fixed or [int(d) for d in v.shape[1:]])
            if fixed:
                shapes.append(f"{fname}=" + ",".join(str(d) for d in shape))
            dt = str(v.dtype).replace("paddle.", "")
            x = (rng.integers(0, cfg.get("int_high", 10), shape) if "int" in dt
                 else rng.standard_normal(shape)).astype(dt)
            if fname in cfg.get("values", {}):
                x = np.array(cfg["values"][fname], dtype=dt)
            inputs[fname] = x
            np.save(os.path.join(out, f"input_{i}.npy"), x)
        outs = exe.run(prog, feed=inputs, fetch_list=fetches, return_numpy=False)
        for i, o in enumerate(outs):
            np.save(os.path.join(out, f"output_{i}.npy"), np.array(o))
            if cfg.get("lod") and o.lod():
                with open(os.path.join(out, f"output_{i}.lod.json"), "w") as f:
                    json.dump(o.lod(), f)
    args["shape"] = shapes
    with open(os.path.join(out, "paddle.json"), "w") as f:
        json.dump({"feeds": list(feeds), "fetches": [f.name for f in fetches]}, f, indent=1)
    with open(os.path.join(out, "paddlec.json"), "w") as f:
        json.dump(args, f, indent=1)
    paddle.disable_static()
    print("real model", name, "ready", flush=True)


if __name__ == "__main__":
    for n in sys.argv[2:] or list(REAL):
        build(n, sys.argv[1])

"""Saving one op-level test case the way the end-to-end tests read it.

    save_static_case(out_dir, feeds, fetches, exe, program, inputs)
    save_layer_case(out_dir, layer, input_specs, inputs)

Each writes out_dir/model.pdmodel + model.pdiparams (Paddle's own save), then
loads those files back with Paddle's Executor, runs it on `inputs` (a list of
numpy arrays in feed order) and writes input_<i>.npy, output_<i>.npy and
paddle.json (feeds, fetches, var shapes), the layout tests/test_e2e*.py read."""
import json
import os

os.environ.setdefault("FLAGS_enable_pir_api", "0")
import numpy as np  # noqa: E402
import paddle  # noqa: E402


def _describe(program, feeds, fetches):
    vars_ = {}
    for block in program.blocks:
        for v in block.vars.values():
            try:
                vars_[v.name] = {"shape": list(v.shape), "dtype": str(v.dtype), "block": block.idx}
            except Exception:
                continue
    return {"feeds": list(feeds), "fetches": [f.name for f in fetches], "vars": vars_}


def reference(out_dir, inputs):
    """Runs the saved out_dir/model with Paddle's Executor on `inputs`."""
    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        prog, feeds, fetches = paddle.static.load_inference_model(os.path.join(out_dir, "model"), exe)
        assert len(feeds) == len(inputs), (feeds, len(inputs))
        for i, x in enumerate(inputs):
            np.save(os.path.join(out_dir, f"input_{i}.npy"), x)
        outs = exe.run(prog, feed=dict(zip(feeds, inputs)), fetch_list=fetches)
        for i, o in enumerate(outs):
            np.save(os.path.join(out_dir, f"output_{i}.npy"), np.asarray(o))
        with open(os.path.join(out_dir, "paddle.json"), "w") as f:
            json.dump(_describe(prog, feeds, fetches), f, indent=1, sort_keys=True)


def save_static_case(out_dir, feeds, fetches, exe, program, inputs):
    os.makedirs(out_dir, exist_ok=True)
    paddle.static.save_inference_model(os.path.join(out_dir, "model"), feeds, fetches, exe, program=program)
    reference(out_dir, inputs)


def save_layer_case(out_dir, layer, input_specs, inputs):
    os.makedirs(out_dir, exist_ok=True)
    paddle.disable_static()
    layer.eval()
    static = paddle.jit.to_static(layer, input_spec=input_specs, full_graph=True)
    paddle.jit.save(static, os.path.join(out_dir, "model"))
    info = os.path.join(out_dir, "model.pdiparams.info")
    if os.path.exists(info):
        os.remove(info)
    reference(out_dir, inputs)

"""Saving one op-level test case the way the end-to-end tests read it.

    save_static_case(out_dir, feeds, fetches, exe, program, inputs)
    save_layer_case(out_dir, layer, input_specs, inputs)

Each writes out_dir/model.pdmodel + model.pdiparams (Paddle's own save), then
loads those files back with Paddle's Executor, runs it on `inputs` (a list of
numpy arrays in feed order) and writes input_<i>.npy, output_<i>.npy and
paddle.json (feeds, fetches, var shapes), the layout tests/test_e2e*.py read.

    build_static_case(out_dir, name, fn, make_input)
    run_static_cases(cases, make_input)

drive the op-level scripts (tests/oracle/e2e_<family>.py): a case is a
function returning (feeds, fetches) built in a fresh static program, with
inputs drawn by the script's make_input(var, rng) and parameters re-drawn
(randomize_params), both from one generator seeded by the case's name."""
import json
import os
import sys
import zlib

os.environ.setdefault("FLAGS_enable_pir_api", "0")
import numpy as np  # noqa: E402
import paddle  # noqa: E402
from paddle.base.layer_helper import LayerHelper  # noqa: E402


def append_op(type, inputs, outputs, attrs):
    """Appends a raw op; `outputs` maps slot -> list of dtypes (a new var
    each) or existing vars.  Returns the first var of each output slot."""
    helper = LayerHelper(type)
    outs = {s: [dt if isinstance(dt, paddle.static.Variable) else helper.create_variable_for_type_inference(dt)
                for dt in dts]
            for s, dts in outputs.items()}
    helper.append_op(type=type, inputs=inputs, outputs=outs, attrs=attrs)
    return [v[0] for v in outs.values()]


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


def save_program(out_dir, feeds, fetches, exe, program, clip_extra=True):
    """out_dir/model.pdmodel + .pdiparams by save_inference_model;
    clip_extra=False keeps the ops' extra attributes and outputs (it drops
    them by default: fused_conv2d's fuse_alpha and fuse_beta, for one)."""
    os.makedirs(out_dir, exist_ok=True)
    paddle.static.save_inference_model(os.path.join(out_dir, "model"), feeds, fetches, exe, program=program,
                                       clip_extra=clip_extra)


def save_static_case(out_dir, feeds, fetches, exe, program, inputs, clip_extra=True):
    save_program(out_dir, feeds, fetches, exe, program, clip_extra)
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


def initialized_persistables(program, scope):
    """(var, its scope variable) for every initialized persistable var of
    `program` in `scope`, in program order."""
    for v in program.list_vars():
        if not v.persistable or v.name in ("feed", "fetch"):
            continue
        t = scope.find_var(v.name)
        if t is not None and t.get_tensor()._is_initialized():
            yield v, t


def randomize_params(program, scope, rng):
    """Re-draws every initialized persistable var of `program` in `scope`
    (in program order) uniform in [-1, 1), batch_norm variances in [0.5, 1.5)
    to stay positive, so that no initializer's symmetry hides a layout bug.
    float64 vars stay float64, anything else becomes float32."""
    positive = {n for o in program.global_block().ops if o.type == "batch_norm" for n in o.input("Variance")}
    for v, t in initialized_persistables(program, scope):
        arr = np.array(t.get_tensor())
        lo, hi = (0.5, 1.5) if v.name in positive else (-1.0, 1.0)
        dtype = "float64" if arr.dtype == np.float64 else "float32"
        t.get_tensor().set(rng.uniform(lo, hi, arr.shape).astype(dtype), paddle.CPUPlace())


def redraw_constant(arr, rng):
    """`arr` re-drawn when it is a float tensor holding one value everywhere
    (Paddle's default biases, norm scales and shifts, running statistics:
    zeros and ones under which a kernel that ignores them gives the same
    bits): ones become uniform [0.5, 1.5) (positive, for variances and
    scales), anything else its value + uniform [-0.3, 0.3).  None when the
    tensor is left as it is."""
    if arr.dtype.kind != "f" or arr.size == 0 or not (arr == arr.flat[0]).all():
        return None
    v = float(arr.flat[0])
    lo, hi = (0.5, 1.5) if v == 1.0 else (v - 0.3, v + 0.3)
    return rng.uniform(lo, hi, arr.shape).astype(arr.dtype)


def randomize_layer(layer, rng):
    """Re-draws every constant parameter and buffer of a dygraph layer
    (redraw_constant), in state_dict order; returns how many."""
    n = 0
    for t in layer.state_dict().values():
        new = redraw_constant(t.numpy(), rng)
        if new is not None:
            t.set_value(new)
            n += 1
    return n


def randomize_scope_constants(program, scope, rng):
    """The same for the initialized persistables of a static program."""
    n = 0
    for _, t in initialized_persistables(program, scope):
        new = redraw_constant(np.array(t.get_tensor()), rng)
        if new is not None:
            t.get_tensor().set(new, paddle.CPUPlace())
            n += 1
    return n


def build_static_case(out_dir, name, fn, make_input, clip_extra=None, run_reference=True):
    """Builds case `name` (fn() -> feeds, fetches) and saves it in
    out_dir/name: inputs make_input(feed var, rng) in feed order, then the
    parameters, from a generator seeded by crc32(name).  A case function
    with `keep_extra_attrs = True` is saved with its extra attributes
    (clip_extra, when given, decides instead).  With run_reference false
    only the program is saved; returns (out_dir/name, the inputs)."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        feeds, fetches = fn()
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    inputs = [make_input(f, rng) for f in feeds]
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        randomize_params(main, scope, rng)
        clip = not getattr(fn, "keep_extra_attrs", False) if clip_extra is None else clip_extra
        save_program(os.path.join(out_dir, name), feeds, fetches, exe, main, clip)
        if run_reference:
            reference(os.path.join(out_dir, name), inputs)
    return os.path.join(out_dir, name), inputs


def run_static_cases(cases, make_input, argv=None):
    """The op-level scripts' command line, `script.py OUTDIR [CASE ...]`:
    builds the named cases of `cases` (name -> fn), or all of them."""
    argv = sys.argv if argv is None else argv
    paddle.enable_static()
    paddle.seed(1)
    for name in argv[2:] or list(cases):
        build_static_case(argv[1], name, cases[name], make_input)


def case_registry():
    """A family's table of cases and the decorator that fills it:
    `CASES, case = case_registry()`, then `@case` on each case function."""
    cases = {}

    def case(fn):
        cases[fn.__name__] = fn
        return fn

    return cases, case


def unclipped(case):
    """`unclipped_case = unclipped(case)`: a decorator like `case` for a case
    saved with the ops' extra inputs and outputs kept (build_static_case's
    keep_extra_attrs)."""
    def unclipped_case(fn):
        fn.keep_extra_attrs = True
        return case(fn)

    return unclipped_case


def named_feeds(batch=2):
    """`data, make_input = named_feeds()` for a family whose feeds say by name
    what they hold: data(name, shape, dtype, low, high) declares a feed (an
    integer feed is uniform in [low, high)); make_input draws it, a None or -1
    dim taking `batch`.  Float feeds are standard normal, except `ties*`
    (small integers: many equal values), `pos*` (|x| * 5 + 0.05), `sorted*`
    (halves sorted along the last dim: repeated values), `special*` (NaN,
    +inf and -inf in every 5th, 7th and 11th place) and `nan*` (NaN in every
    4th place and the whole row [0, 1, :])."""
    int_range = {}

    def data(name, shape, dtype="float32", low=-5, high=5):
        int_range[name] = (low, high)
        return paddle.static.data(name, shape, dtype)

    def make_input(v, rng):
        shape = [batch if d in (None, -1) else d for d in v.shape]
        dt = str(v.dtype)
        if "int" in dt:
            low, high = int_range[v.name]
            return rng.integers(low, high, size=shape).astype("int64" if "int64" in dt else "int32")
        if v.name.startswith("ties"):
            return rng.integers(0, 4, size=shape).astype("float32")
        x = rng.standard_normal(shape).astype("float64" if "float64" in dt else "float32")
        if v.name.startswith("pos"):
            x = np.abs(x) * 5.0 + 0.05
        if v.name.startswith("sorted"):
            x = np.sort(np.round(x * 2.0) / 2.0, axis=-1).astype(x.dtype)
        if v.name.startswith("special"):
            flat = x.reshape(-1)
            flat[::5] = np.nan
            flat[1::7] = np.inf
            flat[3::11] = -np.inf
        if v.name.startswith("nan"):
            flat = x.reshape(-1)
            flat[::4] = np.nan
            x[0, 1, :] = np.nan
        return x

    return data, make_input


def save_grad_program(out_dir, main, feeds, fetches, exe):
    """A program with backward ops, saved as the end-to-end tests read it:
    feed and fetch ops added the way Paddle's Executor adds them
    (save_inference_model would prune the grad ops), and every persistable
    var in one combined file in byte-wise name order, as save_inference_model
    writes it."""
    from paddle.base.executor import _add_feed_fetch_ops
    os.makedirs(out_dir, exist_ok=True)
    prog = _add_feed_fetch_ops(main, {f: None for f in feeds}, fetches, "feed", "fetch")
    with open(os.path.join(out_dir, "model.pdmodel"), "wb") as f:
        f.write(prog.desc.serialize_to_string())
    pers = sorted((v for v in main.list_vars() if v.persistable and v.name not in ("feed", "fetch")),
                  key=lambda v: v.name.encode())
    if pers:
        paddle.static.save_vars(exe, out_dir, main, vars=pers, filename="model.pdiparams")


def grad_input(name, shape, dtype="float32"):
    """A data var that gradients flow to (stop_gradient False), for the
    gradient families' cases."""
    v = paddle.static.data(name, shape, dtype)
    v.stop_gradient = False
    return v


def unary_grad_case(case, name, shape, fn, feed="x"):
    """Registers with `case` a gradient case `name`: fn applied to one input
    `feed` of `shape`, its gradient fetched."""
    def f():
        x = grad_input(feed, shape)
        return [feed], [fn(x)], [x]
    f.__name__ = name
    case(f)


def build_grad_case(out_dir, name, fn, make_input):
    """Case `name` of a gradient family: fn() builds a forward computation in
    a fresh static program and returns (feeds, outs, wrt): feed var names,
    the forward outputs, and the vars whose gradients to fetch (inputs with
    stop_gradient False).  Each output gets a fed upstream gradient
    `dout_<i>` (random, so that no grad kernel is tested against ones
    only); the case fetches d(outs)/d(wrt) and the gradient of every
    parameter, through paddle.static.gradients (Paddle's own grad ops);
    with `fn.fetch_outs = True` the forward outputs too, first.
    Inputs and parameters are drawn as build_static_case draws them."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        feeds, outs, wrt = fn()
        douts = [paddle.static.data(f"dout_{i}", o.shape, o.dtype) for i, o in enumerate(outs)]
        params = [p for p in main.all_parameters() if not p.stop_gradient]
        grads = paddle.static.gradients(outs, list(wrt) + params, target_gradients=douts)
    fetches = (list(outs) if getattr(fn, "fetch_outs", False) else []) + [g for g in grads if g is not None]
    return save_training_case(out_dir, name, main, startup, list(feeds) + [d.name for d in douts], fetches,
                              make_input)


def save_training_case(out_dir, name, main, startup, feeds, fetches, make_input):
    """Saves out_dir/name from a program that is not cloned for test (grad
    ops, training-mode forward ops) with save_grad_program, inputs and
    re-drawn parameters from one generator seeded by crc32(name), and runs
    Paddle's reference on the saved files.  Returns (case dir, inputs)."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    block = main.global_block()
    inputs = [make_input(block.var(f), rng) for f in feeds]
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    case_dir = os.path.join(out_dir, name)
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        randomize_params(main, scope, rng)
        save_grad_program(case_dir, main, feeds, fetches, exe)
    reference(case_dir, inputs)
    return case_dir, inputs


def build_forward_case(out_dir, name, fn, make_input):
    """A forward-only training-mode case of a gradient family: fn() ->
    (feeds, fetches), saved as save_training_case saves it (not cloned for
    test, so batch_norm keeps is_test false)."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        feeds, fetches = fn()
    return save_training_case(out_dir, name, main, startup, feeds, fetches, make_input)


def run_grad_cases(cases, make_input, argv=None):
    """run_static_cases for gradient families (build_grad_case; a case
    function with `forward_only = True`, build_forward_case)."""
    argv = sys.argv if argv is None else argv
    paddle.enable_static()
    paddle.seed(1)
    for name in argv[2:] or list(cases):
        fn = cases[name]
        build = build_forward_case if getattr(fn, "forward_only", False) else build_grad_case
        build(argv[1], name, fn, make_input)


def run_lod_cases(argv, cases, data, lods):
    """The command line of a family whose cases feed fixed arrays with LoDs
    (`script.py OUTDIR [CASE ...]`): case `name` feeds data[name] (feed name
    -> array) with the LoDs lods(name) ({feed: offsets}, as lod_reference
    takes them), and Paddle's Executor runs the saved program on them."""
    paddle.enable_static()
    paddle.seed(1)
    for name in [n for n in argv[2:] if n in cases] or (list(cases) if len(argv) == 2 else []):
        out_dir, inputs = build_static_case(argv[1], name, cases[name], lambda v, rng, d=data[name]: d[v.name],
                                            clip_extra=False, run_reference=False)
        lod_reference(out_dir, inputs, lods(name))


def lod_reference(out_dir, inputs, lod):
    """Paddle's Executor on the saved model, each input of lod_level > 0 a
    LoDTensor with the level-1 offsets `lod` (one list for every such input,
    or a dict {feed: offsets}; offsets a list of levels for several): inputs, outputs and paddle.json as
    build_static_case writes them, and lod.json ({feed: offsets}) and
    output_<i>.lod.json for each fetch Paddle returns with a LoD."""
    exe = paddle.static.Executor(paddle.CPUPlace())
    with paddle.static.scope_guard(paddle.static.Scope()):
        prog, feeds, fetches = paddle.static.load_inference_model(os.path.join(out_dir, "model"), exe)
        fed, lods = {}, {}
        for i, (name, x) in enumerate(zip(feeds, inputs)):
            np.save(os.path.join(out_dir, f"input_{i}.npy"), x)
            fed[name] = x
            if prog.global_block().var(name).lod_level:
                fed[name] = paddle.base.core.LoDTensor()
                fed[name].set(x, paddle.CPUPlace())
                offsets = lod[name] if isinstance(lod, dict) else lod
                fed[name].set_lod(offsets if isinstance(offsets[0], list) else [offsets])  # levels, or level 1
                lods[name] = offsets
        outs = exe.run(prog, feed=fed, fetch_list=fetches, return_numpy=False)
        for i, o in enumerate(outs):
            np.save(os.path.join(out_dir, f"output_{i}.npy"), np.array(o))
            if o.lod():
                with open(os.path.join(out_dir, f"output_{i}.lod.json"), "w") as f:
                    json.dump(o.lod(), f)
        with open(os.path.join(out_dir, "lod.json"), "w") as f:
            json.dump(lods, f)
        with open(os.path.join(out_dir, "paddle.json"), "w") as f:
            json.dump(_describe(prog, feeds, fetches), f, indent=1, sort_keys=True)

#!/usr/bin/env python3
"""Op-level end-to-end cases for the optimizer ops (sgd, momentum, adam,
adamw, adamax, adagrad, adadelta, rmsprop, lamb, lars_momentum): one step of
each on a parameter, every attribute Paddle's CPU kernel reads set to values
other than its default somewhere.

    python e2e_optim.py OUTDIR [CASE ...]

Each case is one raw optimizer op (oracle_case.append_op) in a static
program, as Paddle's optimizers write it: Param, LearningRate and the
accumulators are persistable vars and the op's outputs are bound to the
SAME vars (ParamOut = Param, Moment1Out = Moment1, ..., updated in place);
the `*_distinct` cases bind them to new vars instead.  Grad is a feed.  The
case fetches every updated var (Paddle's Executor returns the values after
the step).  Values: Param and Grad uniform [-1, 1), the learning rate 0.01
to 0.1, second moments and other accumulators that sit under a square root
positive, beta powers as Paddle's optimizer has them after a few steps
(beta ** k).  The values are drawn in float64 and stored in each var's
dtype: the `*_f64` cases (one per op, float64 Param, Grad, accumulators and
LearningRate: Paddle's double kernels) get values float32 cannot hold.  The
program is saved with its feed and fetch ops and all persistables
(oracle_case.save_grad_program)."""
import os
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op, case_registry, reference, save_grad_program  # noqa: E402

import numpy as np  # noqa: E402
import paddle  # noqa: E402

CASES, case = case_registry()
SHAPE = [6, 37]  # not a multiple of 8 or 16: vector tails
ALIGNED = [4, 16]  # a multiple of 8: Paddle's JIT sgd takes it


def pvar(name, shape, dtype="float32"):
    """A persistable var (filled by the case's `values` after startup)."""
    return paddle.static.create_global_var(shape, 0, dtype, persistable=True, name=name)


def optim(type, inputs, outs, attrs, values, feeds=(), distinct=()):
    """The program of one optimizer op: `inputs` maps slot -> persistable
    var name (shape, value generator) or a feed var; `outs` maps output slot
    -> input slot it updates; `distinct` names the output slots bound to a
    new var instead of the input's.  Returns (feeds, fetches, values)."""
    vars_ = {}
    for slot, v in inputs.items():
        vars_[slot] = v
    outputs, fetches = {}, []
    for o, i in outs.items():
        src = vars_[i]
        dst = paddle.static.default_main_program().global_block().create_var(
            name=f"{o.lower()}_new", shape=src.shape, dtype=src.dtype) if o in distinct else src
        outputs[o] = [dst]
        fetches.append(dst)
    append_op(type, {s: [v] for s, v in vars_.items()}, outputs, attrs)
    return list(feeds), fetches, values


def uni(lo, hi):
    return lambda rng, shape: rng.uniform(lo, hi, shape)


def const(v):
    return lambda rng, shape: np.full(shape, v)


PARAM = uni(-1, 1)
LR = uni(0.01, 0.1)
POS = uni(0.1, 1.0)


def grad(shape=SHAPE, dtype="float32"):
    return paddle.static.data("grad", shape, dtype)


def std_vars(spec, dtype="float32"):
    """spec: slot -> (name, shape, generator); the persistable vars (of
    dtype) and the generators by var name."""
    vs, gens = {}, {}
    for slot, (name, shape, gen) in spec.items():
        vs[slot] = pvar(name, shape, dtype)
        gens[name] = gen
    return vs, gens


# ---------------------------------------------------------------- sgd
def sgd_case(distinct=(), shape=SHAPE, dtype="float32"):
    vs, gens = std_vars({"Param": ("param", shape, PARAM), "LearningRate": ("lr", [1], LR)}, dtype)
    g = grad(shape, dtype)
    vs["Grad"] = g
    return optim("sgd", vs, {"ParamOut": "Param"}, {}, gens, ["grad"], distinct)


@case
def sgd():
    return sgd_case()


@case
def sgd_distinct():
    return sgd_case(("ParamOut",))


@case
def sgd_aligned():
    return sgd_case(shape=ALIGNED)


@case
def sgd_aligned_distinct():
    return sgd_case(("ParamOut",), shape=ALIGNED)


@case
def sgd_f64():
    return sgd_case(dtype="float64")


# ---------------------------------------------------------------- momentum
def momentum_case(attrs, distinct=(), shape=SHAPE, dtype="float32"):
    vs, gens = std_vars({"Param": ("param", shape, PARAM), "Velocity": ("velocity", shape, uni(-0.5, 0.5)),
                         "LearningRate": ("lr", [1], LR)}, dtype)
    vs["Grad"] = grad(shape, dtype)
    return optim("momentum", vs, {"ParamOut": "Param", "VelocityOut": "Velocity"}, dict({"mu": 0.9}, **attrs),
                 gens, ["grad"], distinct)


@case
def momentum():
    return momentum_case({})


@case
def momentum_nesterov():
    return momentum_case({"mu": 0.8, "use_nesterov": True})


@case
def momentum_l2():
    """l2_decay, and rescale_grad (which Paddle's CPU kernel does not read)."""
    return momentum_case({"regularization_method": "l2_decay", "regularization_coeff": 0.05, "rescale_grad": 0.5})


@case
def momentum_l2_nesterov():
    return momentum_case({"regularization_method": "l2_decay", "regularization_coeff": 0.1, "use_nesterov": True})


@case
def momentum_aligned():
    return momentum_case({"use_nesterov": True}, shape=ALIGNED)


@case
def momentum_distinct():
    return momentum_case({"use_nesterov": True}, ("ParamOut", "VelocityOut"))


@case
def momentum_l2_nesterov_f64():
    return momentum_case({"mu": 0.8, "regularization_method": "l2_decay", "regularization_coeff": 0.1,
                          "use_nesterov": True}, dtype="float64")


# ---------------------------------------------------------------- adam / adamw
ADAM_OUTS = {"ParamOut": "Param", "Moment1Out": "Moment1", "Moment2Out": "Moment2", "Beta1PowOut": "Beta1Pow",
             "Beta2PowOut": "Beta2Pow"}


def adam_case(type, attrs, steps=3, beta_tensors=False, skip=None, distinct=(), b1=0.9, b2=0.999, shape=SHAPE,
              dtype="float32", beta_dtype=None):
    """beta_dtype: the dtype of Beta1Tensor, Beta2Tensor and EpsilonTensor
    (dtype when None): Paddle reads them as Scalars of any dtype."""
    spec = {"Param": ("param", shape, PARAM), "LearningRate": ("lr", [1], LR),
            "Moment1": ("moment1", shape, uni(-0.3, 0.3)), "Moment2": ("moment2", shape, uni(0.0, 0.2)),
            "Beta1Pow": ("beta1_pow", [1], const(b1 ** steps)), "Beta2Pow": ("beta2_pow", [1], const(b2 ** steps))}
    vs, gens = std_vars(spec, dtype)
    if beta_tensors:
        more, more_gens = std_vars({"Beta1Tensor": ("beta1_t", [1], const(b1)),
                                    "Beta2Tensor": ("beta2_t", [1], const(b2)),
                                    "EpsilonTensor": ("eps_t", [1], const(1e-5))}, beta_dtype or dtype)
        vs.update(more)
        gens.update(more_gens)
    vs["Grad"] = grad(shape, dtype)
    feeds = ["grad"]
    if skip is not None:
        vs["SkipUpdate"] = paddle.static.data("skip", [1], "bool")
        feeds.append("skip")
        SKIP[paddle.static.default_main_program()] = skip
    return optim(type, vs, ADAM_OUTS, attrs, gens, feeds, distinct)


SKIP = {}


@case
def adam():
    return adam_case("adam", {})


@case
def adam_attrs():
    """beta1, beta2, epsilon as attributes; first step (pows = beta)."""
    return adam_case("adam", {"beta1": 0.8, "beta2": 0.99, "epsilon": 1e-4}, steps=1, b1=0.8, b2=0.99)


@case
def adam_tensors():
    """Beta1Tensor, Beta2Tensor, EpsilonTensor override the attributes."""
    return adam_case("adam", {"beta1": 0.5, "beta2": 0.5, "epsilon": 1.0}, beta_tensors=True, b1=0.85, b2=0.98)


@case
def adam_global_beta_pow():
    """use_global_beta_pow: the beta powers stay as they are."""
    return adam_case("adam", {"use_global_beta_pow": True}, steps=7)


@case
def adam_lazy():
    """lazy_mode only changes SelectedRows gradients."""
    return adam_case("adam", {"lazy_mode": True}, steps=2)


@case
def adam_skip():
    return adam_case("adam", {}, skip=True)


@case
def adam_noskip():
    return adam_case("adam", {}, skip=False)


@case
def adam_aligned():
    return adam_case("adam", {}, shape=ALIGNED)


@case
def adam_distinct():
    return adam_case("adam", {}, distinct=tuple(ADAM_OUTS))


@case
def adam_tensors_f64():
    """Beta1Tensor, Beta2Tensor, EpsilonTensor in float64 too."""
    return adam_case("adam", {"beta1": 0.5, "beta2": 0.5, "epsilon": 1.0}, beta_tensors=True, b1=0.85, b2=0.98,
                     dtype="float64")


@case
def adam_tensors_f64_beta_f32():
    """float64 parameters with float32 Beta1Tensor, Beta2Tensor and
    EpsilonTensor (as `beta1=<a float32 Variable>` writes them), widened."""
    return adam_case("adam", {"beta1": 0.5, "beta2": 0.5, "epsilon": 1.0}, beta_tensors=True, b1=0.85, b2=0.98,
                     dtype="float64", beta_dtype="float32")


@case
def adamw_tensors_beta_f64():
    """float32 parameters with float64 beta and epsilon tensors, narrowed."""
    return adam_case("adamw", {"with_decay": True, "coeff": 0.02}, beta_tensors=True, b1=0.85, b2=0.98,
                     beta_dtype="float64")


@case
def adam_attrs_f64_skip_distinct():
    """beta1, beta2, epsilon attributes; SkipUpdate false; outputs distinct."""
    return adam_case("adam", {"beta1": 0.8, "beta2": 0.99, "epsilon": 1e-4}, steps=2, b1=0.8, b2=0.99,
                     skip=False, distinct=tuple(ADAM_OUTS), dtype="float64")


@case
def adamw():
    """with_decay false: plain adam."""
    return adamw_case({"coeff": 0.1})


def adamw_case(attrs, **kw):
    return adam_case("adamw", attrs, **kw)


@case
def adamw_decay():
    return adamw_case({"with_decay": True, "coeff": 0.1})


@case
def adamw_decay_ratio():
    return adamw_case({"with_decay": True, "coeff": 0.05, "lr_ratio": 0.5, "beta1": 0.7, "beta2": 0.95,
                       "epsilon": 1e-6}, b1=0.7, b2=0.95, steps=5)


@case
def adamw_tensors_global():
    return adamw_case({"with_decay": True, "use_global_beta_pow": True, "lazy_mode": True}, beta_tensors=True,
                      b1=0.85, b2=0.98)


@case
def adamw_skip():
    return adamw_case({"with_decay": True}, skip=True)


@case
def adamw_noskip():
    return adamw_case({"with_decay": True}, skip=False)


@case
def adamw_aligned():
    return adamw_case({"with_decay": True}, shape=ALIGNED)


@case
def adamw_distinct():
    return adamw_case({"with_decay": True}, distinct=tuple(ADAM_OUTS))


@case
def adamw_decay_ratio_f64():
    return adamw_case({"with_decay": True, "coeff": 0.05, "lr_ratio": 0.5, "beta1": 0.7, "beta2": 0.95,
                       "epsilon": 1e-6}, b1=0.7, b2=0.95, steps=5, dtype="float64")


@case
def adamw_skip_distinct_f64():
    """SkipUpdate true: every input copied to its own output var."""
    return adamw_case({"with_decay": True}, skip=True, distinct=tuple(ADAM_OUTS), dtype="float64")


# ---------------------------------------------------------------- adagrad
def adagrad_case(attrs, distinct=(), shape=SHAPE, dtype="float32"):
    vs, gens = std_vars({"Param": ("param", shape, PARAM), "Moment": ("moment", shape, POS),
                         "LearningRate": ("lr", [1], LR)}, dtype)
    vs["Grad"] = grad(shape, dtype)
    return optim("adagrad", vs, {"ParamOut": "Param", "MomentOut": "Moment"}, attrs, gens, ["grad"], distinct)


@case
def adagrad():
    return adagrad_case({})


@case
def adagrad_eps():
    return adagrad_case({"epsilon": 1e-3}, shape=ALIGNED)


@case
def adagrad_distinct():
    return adagrad_case({}, ("ParamOut", "MomentOut"))


@case
def adagrad_f64():
    return adagrad_case({"epsilon": 1e-3}, dtype="float64")


# ---------------------------------------------------------------- rmsprop
def rmsprop_case(attrs, distinct=(), shape=SHAPE, dtype="float32"):
    spec = {"Param": ("param", shape, PARAM), "MeanSquare": ("mean_square", shape, POS),
            "Moment": ("moment", shape, uni(-0.1, 0.1)), "LearningRate": ("lr", [1], LR)}
    # |MeanGrad| small: MeanSquare - MeanGrad^2 stays positive; Paddle's op
    # requires MeanGradOut centered or not
    spec["MeanGrad"] = ("mean_grad", shape, uni(-0.2, 0.2))
    outs = {"ParamOut": "Param", "MomentOut": "Moment", "MeanSquareOut": "MeanSquare", "MeanGradOut": "MeanGrad"}
    vs, gens = std_vars(spec, dtype)
    vs["Grad"] = grad(shape, dtype)
    return optim("rmsprop", vs, outs, attrs, gens, ["grad"], distinct)


@case
def rmsprop():
    return rmsprop_case({})


@case
def rmsprop_momentum():
    return rmsprop_case({"momentum": 0.9, "decay": 0.8, "epsilon": 1e-4})


@case
def rmsprop_centered():
    return rmsprop_case({"centered": True, "momentum": 0.5, "decay": 0.95, "epsilon": 1e-6})


@case
def rmsprop_centered_aligned():
    """(Paddle's rmsprop requires its outputs in place: no distinct case.)"""
    return rmsprop_case({"centered": True, "momentum": 0.3}, shape=ALIGNED)


@case
def rmsprop_centered_f64():
    return rmsprop_case({"centered": True, "momentum": 0.5, "decay": 0.95, "epsilon": 1e-6}, dtype="float64")


@case
def rmsprop_f64():
    """Not centered: MeanGradOut keeps MeanGrad."""
    return rmsprop_case({"momentum": 0.9, "decay": 0.8, "epsilon": 1e-4}, dtype="float64")


# ---------------------------------------------------------------- adamax
def adamax_case(attrs, distinct=(), shape=SHAPE, b1=0.9, steps=3, dtype="float32"):
    vs, gens = std_vars({"Param": ("param", shape, PARAM), "LearningRate": ("lr", [1], LR),
                         "Moment": ("moment", shape, uni(-0.3, 0.3)), "InfNorm": ("inf_norm", shape, uni(0.0, 1.2)),
                         "Beta1Pow": ("beta1_pow", [1], const(b1 ** steps))}, dtype)
    vs["Grad"] = grad(shape, dtype)
    return optim("adamax", vs, {"ParamOut": "Param", "MomentOut": "Moment", "InfNormOut": "InfNorm"}, attrs, gens,
                 ["grad"], distinct)


@case
def adamax():
    return adamax_case({})


@case
def adamax_attrs():
    """InfNorm from 0 to 1.2: both sides of the max."""
    return adamax_case({"beta1": 0.8, "beta2": 0.9, "epsilon": 1e-3}, b1=0.8, steps=1)


@case
def adamax_distinct():
    return adamax_case({"beta1": 0.85}, ("ParamOut", "MomentOut", "InfNormOut"), shape=ALIGNED, b1=0.85)


@case
def adamax_f64():
    return adamax_case({"beta1": 0.8, "beta2": 0.9, "epsilon": 1e-3}, b1=0.8, steps=2, dtype="float64")


# ---------------------------------------------------------------- adadelta
def adadelta_case(attrs, distinct=(), shape=SHAPE, dtype="float32"):
    vs, gens = std_vars({"Param": ("param", shape, PARAM), "AvgSquaredGrad": ("avg_sq_grad", shape, POS),
                         "AvgSquaredUpdate": ("avg_sq_update", shape, uni(0.0, 0.1)),
                         "LearningRate": ("lr", [1], uni(0.5, 1.0))}, dtype)
    vs["Grad"] = grad(shape, dtype)
    return optim("adadelta", vs, {"ParamOut": "Param", "AvgSquaredGradOut": "AvgSquaredGrad",
                                  "AvgSquaredUpdateOut": "AvgSquaredUpdate"}, attrs, gens, ["grad"], distinct)


@case
def adadelta():
    return adadelta_case({})


@case
def adadelta_attrs():
    return adadelta_case({"rho": 0.8, "epsilon": 1e-3})


@case
def adadelta_distinct():
    return adadelta_case({"rho": 0.9}, ("ParamOut", "AvgSquaredGradOut", "AvgSquaredUpdateOut"), shape=ALIGNED)


@case
def adadelta_f64():
    return adadelta_case({"rho": 0.8, "epsilon": 1e-3}, dtype="float64")


# ---------------------------------------------------------------- lamb
def lamb_case(attrs, distinct=(), skip=None, shape=SHAPE, b1=0.9, b2=0.999, steps=3, dtype="float32"):
    return adam_case("lamb", attrs, steps=steps, skip=skip, distinct=distinct, b1=b1, b2=b2, shape=shape,
                     dtype=dtype)


@case
def lamb():
    return lamb_case({"weight_decay": 0.01})


@case
def lamb_attrs():
    return lamb_case({"weight_decay": 0.1, "beta1": 0.8, "beta2": 0.99, "epsilon": 1e-4}, b1=0.8, b2=0.99, steps=1)


@case
def lamb_no_decay():
    """weight_decay 0: no trust ratio (1)."""
    return lamb_case({"weight_decay": 0.0})


@case
def lamb_always_adapt():
    return lamb_case({"weight_decay": 0.0, "always_adapt": True}, steps=6)


@case
def lamb_skip():
    return lamb_case({"weight_decay": 0.01}, skip=True)


@case
def lamb_noskip():
    return lamb_case({"weight_decay": 0.01}, skip=False)


@case
def lamb_distinct():
    return lamb_case({"weight_decay": 0.05}, distinct=tuple(ADAM_OUTS), shape=ALIGNED)


@case
def lamb_f64():
    return lamb_case({"weight_decay": 0.1, "beta1": 0.8, "beta2": 0.99, "epsilon": 1e-4}, b1=0.8, b2=0.99,
                     steps=2, dtype="float64")


# ---------------------------------------------------------------- lars_momentum
@case
def lars_momentum_f64():
    """Trust ratio on (lars_weight_decay > 0), rescale_grad and epsilon
    set."""
    dtype = "float64"
    vs, gens = std_vars({"Param": ("param", SHAPE, PARAM), "Velocity": ("velocity", SHAPE, uni(-0.5, 0.5)),
                         "LearningRate": ("lr", [1], LR)}, dtype)
    vs["Grad"] = grad(SHAPE, dtype)
    return optim("lars_momentum", vs, {"ParamOut": "Param", "VelocityOut": "Velocity"},
                 {"mu": 0.8, "lars_coeff": 0.01, "lars_weight_decay": [0.002], "epsilon": 1e-5, "rescale_grad": 0.5},
                 gens, ["grad"])


def build(out_dir, name, fn):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        feeds, fetches, values = fn()
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    case_dir = os.path.join(out_dir, name)
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        for vname, gen in values.items():
            t = scope.find_var(vname).get_tensor()
            t.set(gen(rng, np.array(t).shape).astype(np.array(t).dtype), paddle.CPUPlace())
        save_grad_program(case_dir, main, feeds, fetches, exe)
    inputs = []
    for f in feeds:
        if f == "skip":
            inputs.append(np.array([SKIP[main]]))
        else:
            v = main.global_block().var(f)
            inputs.append(rng.uniform(-1, 1, v.shape).astype(paddle.base.data_feeder.convert_dtype(v.dtype)))
    reference(case_dir, inputs)


if __name__ == "__main__":
    paddle.enable_static()
    for n in sys.argv[2:] or list(CASES):
        build(sys.argv[1], n, CASES[n])

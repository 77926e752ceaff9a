"""The reference for data-parallel training (issue 17), computed by Paddle.

    python dp_reference.py CASE_DIR OUT_DIR --places N
                           [--strategy CoeffNumDevice|One|Customized] [--steps K]
                           [--batch B] [--loss-grad V0,V1,...]
                           [--reduce AllReduce|Reduce]

Paddle 2.6 no longer ships ParallelExecutor / CompiledProgram.with_data_parallel,
so this script computes what they computed, with Paddle's own kernels (its
Executor), on a training fixture directory written by train_cases.py
(main.pdmodel, init.pdparams/.pdopt, <feed>.npy, case.json).  It writes

  OUT_DIR/dp_loss.npy     the loss of every place at every step, [steps, N]
                          (ParallelExecutor's fetch: the places' values in
                          place order)
  OUT_DIR/dp_final.npz    place 0's persistables after the last step

What it computes, and the Paddle source each rule follows:

- Places and state: N places, one Scope each, each loaded from the same
  init checkpoint (ParallelExecutor::ParallelExecutor broadcasts place 0's
  parameters to every place: parallel_executor.cc, BCastParamsToDevices).

- Feed split: each fed batch of B rows is cut on dim 0 into chunks of
  ceil(B/N) rows in place order, ceil(B / ceil(B/N)) chunks in all
  (framework/lod_tensor.cc, SplitLoDTensor); fewer chunks than places is
  Paddle's error, with Paddle's text (parallel_executor.cc,
  ParallelExecutor::FeedAndSplitTensorIntoLocalScopes) -- so B=5 on 4
  places fails although B >= N (chunks 2, 2, 1).  Feeds are checked in
  case.json's order (Paddle walks an unordered map).

- The program's ops are split by their `op_role` attribute (OpRole in
  framework/op_proto_maker.h: Forward 0, Backward 1, Optimize 2, LRSched 16,
  Loss 256 bits) into part A, forward + backward (every op without the
  Optimize or LRSched bit), and part B, optimizer + learning-rate ops (the
  rest), each in program order.  ParallelExecutor runs every op on every
  place, ordered by data dependencies only; the learning-rate ops read
  nothing part A writes, so running them after part A gives the same values
  (checked here: a program where moving them would change a read or write
  is refused).

- loss@GRAD: the op whose op_role is exactly Backward|Loss (the
  `fill_constant` append_backward writes) is Paddle's "scale loss op"
  (ir/multi_devices_graph_pass/multi_devices_graph_pass.cc,
  MultiDevSSAGraphBuilderBase::IsScaleLossOp); InsertScaleLossGradOp
  replaces it by a ScaleLossGradOpHandle writing float(1.0 / loss_scale)
  (details/scale_loss_grad_op_handle.cc), loss_scale = the number of places
  for CoeffNumDevice (kNRanks: num_trainers * places, one trainer here) and
  1 for One.  Here: that fill_constant's value is set to the same float32.
  Customized (loss_scale 0) inserts nothing in the op's place: loss@GRAD
  is the user's feed, split over the places like any non-persistable feed
  (FeedAndSplitTensorIntoLocalScopes).  Here: the op is removed and
  `loss_grad`'s rows are split on dim 0, each place's chunk reshaped to the
  op's `shape` (N values give each place one: [1] -> the 0-D loss's []).

- Parameter gradients: the (parameter, gradient) pairs of the `op_role_var`
  attribute of Backward-role ops, as MultiDevSSAGraphBuilderBase::ApplyImpl
  finds the gradients to all-reduce (multi_devices_graph_pass.cc; one
  all-reduce per gradient, after the op that writes it).

- AllReduce: each such gradient is summed across places in place order,
  float32, ((g0 + g1) + g2) + ..., and the sum is what every place's
  optimizer reads: on CPU places AllReduceOpHandle::RunImpl
  (details/all_reduce_op_handle.cc) reduces into place 0's tensor with
  ReduceLoDTensor (details/reduce_and_gather.h: dst = g_i + dst for
  i = 1, 2, ..., place 0's own tensor skipped), then copies it to the other
  places.

- Reduce (--reduce Reduce): each gradient is summed into its owner place
  k's tensor the same way, ((g_k + g_0) + g_1) + ... without g_k's second
  term (details/reduce_op_handle.cc; for 3 or more places another rounding
  than AllReduce's).  The owners: gradients in the order the backward
  writes them, each to the place with the fewest elements owned so far, the
  first of equals (ReduceSSAGraphBuilder::InsertCollectiveOp,
  BalanceVarSSAGraphBuilder::GetAppropriateDeviceID in
  multi_devices_graph_pass.cc; the element count from the gradient's
  VarDesc).  Paddle runs each optimizer op on its gradient's owner alone,
  on parameters its CPU places share, so every place ends the step with
  the values part B gives on the sums, as under AllReduce.

- Part B then runs in every place's scope on the summed gradients (the
  AllReduce builder runs the optimizer ops on every place:
  AllReduceSSAGraphBuilder), so every place ends the step with the same
  parameters; persistables written by forward ops (batch_norm's running
  mean and variance) stay per place.

Mechanics: part A and part B are two programs run with Paddle's Executor in
the place's scope.  The Executor drops non-persistable variables after a
run, so part A fetches, besides the loss, every non-persistable variable
part B reads before writing it; part B gets them back as feeds (the
gradients as their sums).  Places run one after another in place order;
a case whose steps draw from the global generator (case.json seeded_steps)
is seeded once before the first step and draws in that order (Paddle's
threads draw in no fixed order)."""
import argparse
import json
import math
import os
import sys

os.environ.setdefault("FLAGS_enable_pir_api", "0")
import numpy as np  # noqa: E402
import paddle  # noqa: E402

ROLE_BACKWARD, ROLE_OPTIMIZE, ROLE_LRSCHED, ROLE_LOSS = 1, 2, 16, 256
STRATEGIES = ("CoeffNumDevice", "One", "Customized")


class DataParallelError(Exception):
    """Paddle's error for a batch that does not split over the places."""


def split_batch(name, a, places):
    """SplitLoDTensor's chunks of a fed array, or Paddle's error text."""
    rows = a.shape[0]
    step = max(1, math.ceil(rows / places))
    chunks = [a[i:i + step] for i in range(0, rows, step)]
    if len(chunks) != places:
        raise DataParallelError(
            f"The number({len(chunks)}) of samples[{name}] of current batch is less than the count({places}) of "
            "devices(CPU), currently, it is not allowed. You should set the environment variable CPU_NUM in the "
            "system to determine the number of devices you need.")
    return chunks


def _role(op):
    return op.attr("op_role") if op.has_attr("op_role") else 0


def _in_part_b(op):
    return bool(_role(op) & (ROLE_OPTIMIZE | ROLE_LRSCHED))


def _load_program(case_dir):
    with open(os.path.join(case_dir, "main.pdmodel"), "rb") as f:
        return paddle.static.Program.parse_from_string(f.read())


def _keep_ops(program, keep):
    blk = program.global_block()
    for i in reversed(range(len(blk.ops))):
        if not keep(blk.ops[i]):
            blk._remove_op(i)
    return program


def split_program(case_dir):
    """(main, part A, part B, info): the two parts of main as programs, and
    info: `seed` (the Backward|Loss op's index and type), `grads` (the
    (param, grad) pairs of the Backward ops' op_role_var, program order),
    `carry` (the non-persistable vars part B reads before writing them)."""
    main = _load_program(case_dir)
    ops = main.global_block().ops
    seeds = [i for i, op in enumerate(ops) if _role(op) == ROLE_BACKWARD | ROLE_LOSS]
    if len(seeds) != 1 or ops[seeds[0]].type != "fill_constant":
        raise ValueError(f"expected one Backward|Loss fill_constant (the loss@GRAD seed), found "
                         f"{[(i, ops[i].type) for i in seeds]}")
    grads = []
    for op in ops:
        if _role(op) & ROLE_BACKWARD and op.has_attr("op_role_var"):
            rv = op.attr("op_role_var")
            grads += [(rv[i], rv[i + 1]) for i in range(0, len(rv), 2) if (rv[i], rv[i + 1]) not in grads]
    # moving part B's ops after part A's must not change what any op reads or writes
    for i, b in enumerate(ops):
        if not _in_part_b(b):
            continue
        bw, br = set(b.output_arg_names), set(b.input_arg_names)
        for a in ops[i + 1:]:
            if _in_part_b(a):
                continue
            if bw & (set(a.input_arg_names) | set(a.output_arg_names)) or br & set(a.output_arg_names):
                raise ValueError(f"op {i} ({b.type}, op_role {_role(b)}) precedes part-A op {a.type} "
                                 "that it depends on or that depends on it")
    blk = main.global_block()
    carry, written = [], set()
    for op in ops:
        if not _in_part_b(op):
            continue
        for n in op.input_arg_names:
            v = blk._find_var_recursive(n)
            if n not in written and n not in carry and v is not None and not v.persistable:
                carry.append(n)
        written |= set(op.output_arg_names)
    part_a = _keep_ops(_load_program(case_dir), lambda op: not _in_part_b(op))
    part_b = _keep_ops(_load_program(case_dir), _in_part_b)
    return main, part_a, part_b, {"seed": (seeds[0], ops[seeds[0]].type), "grads": grads, "carry": carry}


def _persistables(main):
    return sorted((v for v in main.list_vars() if v.persistable and v.name not in ("feed", "fetch")),
                  key=lambda v: v.name.encode())


class DataParallelReference:
    """run() gives the per-place losses [steps, N] and every place's final
    persistables; see the module docstring for what it computes."""

    def __init__(self, case_dir, places, strategy="CoeffNumDevice", loss_grad=None, reduce="AllReduce"):
        if places < 1:
            raise ValueError("places must be >= 1")
        if strategy not in STRATEGIES:
            raise ValueError(f"strategy {strategy!r}: one of {STRATEGIES}")
        if (loss_grad is None) != (strategy != "Customized"):
            raise ValueError("loss_grad goes with strategy Customized, and only with it")
        paddle.enable_static()
        self.dir, self.places, self.strategy = case_dir, places, strategy
        self.meta = json.load(open(os.path.join(case_dir, "case.json")))
        self.main, self.part_a, self.part_b, self.info = split_program(case_dir)
        ops = self.part_a.global_block().ops
        seed_at, = (i for i, op in enumerate(ops) if _role(op) == ROLE_BACKWARD | ROLE_LOSS)
        self.loss_grad_name = ops[seed_at].output_arg_names[0]
        if strategy == "Customized":
            self.loss_grad_shape = list(ops[seed_at].attr("shape"))
            self.loss_grad = np.atleast_1d(np.asarray(loss_grad, dtype=np.float32))
            self.part_a.global_block()._remove_op(seed_at)
        else:
            # ScaleLossGradOpHandle's coeff_: static_cast<float>(1.0 / loss_scale)
            loss_scale = places if strategy == "CoeffNumDevice" else 1
            self.coeff = float(np.float32(1.0 / loss_scale))
            ops[seed_at]._set_attr("value", self.coeff)
            ops[seed_at]._set_attr("str_value", "")
        grad_names = {g for _, g in self.info["grads"]}
        self.owner = {}  # Reduce: gradient -> its owner place (AllReduce: place 0)
        if reduce == "Reduce":
            owned = [0] * places
            blk = self.main.global_block()
            for _, g in self.info["grads"]:
                k = owned.index(min(owned))
                self.owner[g] = k
                owned[k] += int(np.prod(blk.var(g).shape))
        elif reduce != "AllReduce":
            raise ValueError(f"reduce {reduce!r}: AllReduce or Reduce")
        self.summed = [n for n in self.info["carry"] if n in grad_names]
        self.per_place = [n for n in self.info["carry"] if n not in grad_names]

    def cut(self, name, rows, j):
        """Batch j's rows of feed `name`, cut to its size of dim 1 where the
        case gives each batch its own (train_cases' `lengths`)."""
        if name not in self.meta.get("lengths", []):
            return rows
        return rows[:, :int(np.load(os.path.join(self.dir, f"{name}.lengths.npy"))[j])]

    def run(self, steps=None, batch=None):
        meta = self.meta
        steps = meta["steps"] if steps is None else steps
        b = meta["batch"] if batch is None else batch
        data = {k: np.load(os.path.join(self.dir, f"{k}.npy")) for k in meta["feeds"]}
        n = self.places
        scopes = [paddle.static.Scope() for _ in range(n)]
        exes = [paddle.static.Executor(paddle.CPUPlace()) for _ in range(n)]
        for scope, exe in zip(scopes, exes):
            with paddle.static.scope_guard(scope):
                paddle.static.load(self.main, os.path.join(self.dir, "init"), exe)
        if meta.get("seeded_steps"):
            paddle.seed(meta["seed"])
        carry = self.summed + self.per_place
        losses = []
        for k in range(steps):
            rows = (k * b) % (next(iter(data.values())).shape[0] // b * b)
            chunks = {name: split_batch(name, self.cut(name, a[rows:rows + b], rows // b), n)
                      for name, a in data.items()}
            if self.strategy == "Customized":
                lg = split_batch(self.loss_grad_name, self.loss_grad, n)
                if any(c.size != int(np.prod(self.loss_grad_shape)) for c in lg):
                    raise ValueError(f"loss_grad: {self.loss_grad.shape[0]} rows on {n} places do not give each "
                                     f"place one {self.loss_grad_name} of shape {self.loss_grad_shape}")
                chunks[self.loss_grad_name] = [c.reshape(self.loss_grad_shape) for c in lg]
            step_losses, fetched = [], []
            for p in range(n):
                feed = {name: c[p] for name, c in chunks.items()}
                out = exes[p].run(self.part_a, feed=feed, fetch_list=[meta["loss"]] + carry, scope=scopes[p])
                step_losses.append(np.asarray(out[0]).reshape(-1)[0])
                fetched.append(dict(zip(carry, out[1:])))
            sums = {}
            for g in self.summed:
                k = self.owner.get(g, 0)
                s = np.array(fetched[k][g], copy=True)
                for p in range(n):
                    if p != k:
                        s += fetched[p][g]  # float32, place order: ((g_k + g0) + g1) + ..., g_k once
                sums[g] = s
            for p in range(n):
                feed = dict(sums)
                feed.update({v: fetched[p][v] for v in self.per_place})
                exes[p].run(self.part_b, feed=feed, fetch_list=[], scope=scopes[p])
            losses.append(step_losses)
        state = _persistables(self.main)
        finals = [{v.name: np.array(s.find_var(v.name).get_tensor()) for v in state} for s in scopes]
        return np.asarray(losses, dtype=np.float32).reshape(steps, n), finals


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("case_dir")
    ap.add_argument("out_dir")
    ap.add_argument("--places", type=int, required=True)
    ap.add_argument("--strategy", default="CoeffNumDevice", choices=STRATEGIES)
    ap.add_argument("--reduce", default="AllReduce", choices=("AllReduce", "Reduce"))
    ap.add_argument("--steps", type=int, default=None)
    ap.add_argument("--batch", type=int, default=None, help="rows per step (default: case.json's batch)")
    ap.add_argument("--loss-grad", default=None, help="Customized: the fed loss@GRAD, comma-separated values "
                    "split over the places (one each: N values)")
    args = ap.parse_args(argv)
    lg = None if args.loss_grad is None else [float(v) for v in args.loss_grad.split(",")]
    ref = DataParallelReference(args.case_dir, args.places, args.strategy, lg, args.reduce)
    try:
        losses, finals = ref.run(args.steps, args.batch)
    except DataParallelError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    os.makedirs(args.out_dir, exist_ok=True)
    np.save(os.path.join(args.out_dir, "dp_loss.npy"), losses)
    np.savez(os.path.join(args.out_dir, "dp_final.npz"), **finals[0])
    print(f"{len(losses)} steps on {args.places} places ({args.strategy}): loss[0] {losses[0].tolist()} "
          f"loss[-1] {losses[-1].tolist()}; {len(ref.summed)} gradients summed, "
          f"per place: {ref.per_place}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

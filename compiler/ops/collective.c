/* The collective ops of Paddle's collective programs (what
 * paddle.distributed.fleet and the collective transpiler write: gradients
 * summed across trainer processes by the program itself).  Ring 0, the
 * ring of every trainer process, is the world of processes of an mpirun
 * (runtime/rt_collective.h: one process without MPI); so is another ring
 * the startup program's c_comm_init makes with the same nranks (the extra
 * rings of nrings > 1: compiler/data_parallel.h dp_rings); other rings
 * (groups of model parallelism) are refused.  The
 * stream attributes (use_calc_stream, use_model_parallel) order CUDA
 * streams, which a CPU program has none of.
 *   c_allreduce_sum/max/min/prod: X -> Out (X's dims and dtype; float32,
 *     float64, int32, int64), every process's X combined, on every process
 *     (sums and products in rank order: ((x0 + x1) + x2) + ...).
 *   c_reduce_sum/max/min/prod: X -> Out, the same on process root_id only;
 *     the others' Out is their X.
 *   c_broadcast: X -> Out, process `root`'s X on every process.
 *   c_allgather: X [d0, ...] -> Out [nranks * d0, ...], every process's X
 *     in rank order; nranks must be the number of processes.
 *   c_identity: X -> Out, a copy (the forward of tensor parallelism's
 *     split point).
 *   c_sync_calc_stream, c_sync_comm_stream: X -> Out, the same tensors
 *     (they wait for a CUDA stream).
 *   c_comm_init, c_comm_init_all, c_gen_nccl_id: make NCCL communicators
 *     (MPI's world is the communicator here): no outputs to compute.
 * The collectives of a program run one after another in program order
 * (OpDef.collective: deps.c), as every process must call them in the same
 * order. */
#include <string.h>

#include "../util.h"
#include "coll_call.h"
#include "ops.h"
#include "rt_collective.h"
#include "tensor_util.h"

static int infer_same(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  return 0;
}

static int infer_nothing(OpCtx *c) {
  (void)c;
  return 0;
}

static int infer_allgather(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const int64_t nranks = attr_int(c->op, "nranks", 1);
  if (nranks < 1) return ctx_fail(c, "nranks %lld: at least 1 process", (long long)nranks);
  if (x->shape.rank < 1) return ctx_fail(c, "X is 0-D; it is gathered along dim 0");
  Shape s = x->shape;
  if (s.d[0] != DIM_UNKNOWN) s.d[0] *= nranks;
  ctx_set(c, "Out", 0, &s, x->dtype);
  return 0;
}

/* 0 for a ring over every process (ring 0, or one dp_rings() found the
 * startup program making over as many), else em_fail(). */
static int ring_world(EmitCtx *e) {
  const int64_t ring = attr_int(e->op, "ring_id", 0);
  if (ring && (ring < 0 || ring > 63 || !(e->g->coll_rings >> ring & 1)))
    return em_fail(e, "ring_id %lld: no c_comm_init of the startup program makes it over every process; paddlec "
                   "runs ring 0 and rings over every process (not groups of model parallelism)", (long long)ring);
  return 0;
}

/* X and Out of the op (on a ring over every process): Out a copy of X unless it is X's
 * buffer; NULL after em_fail(). */
static Var *copy_in_out(EmitCtx *e, Var **x) {
  if (ring_world(e)) return NULL;
  *x = tu_in(e, "X", 0);
  Var *out = tu_out(e, "Out", 0);
  if (!*x || !out || tu_copy(e, *x, out)) return NULL;
  return out;
}

static int numeric(EmitCtx *e, const Var *v) {
  if (v->dtype == RT_DT_FP32 || v->dtype == RT_DT_FP64 || v->dtype == RT_DT_INT32 || v->dtype == RT_DT_INT64)
    return 0;
  return em_fail(e, "%s '%s' is %s; float32, float64, int32 or int64 expected", e->op->type, v->name,
                 rt_dtype_name(v->dtype));
}

/* c_allreduce_* (root -1) and c_reduce_* (root_id): combine with `op`. */
static int emit_reduce(EmitCtx *e, int op, int root) {
  Var *x, *out = copy_in_out(e, &x);
  if (!out || numeric(e, out)) return -1;
  coll_print_c(e->p, &(CollCall){.kind = COLL_REDUCE, .data = em_ptr(e, out, 0), .count = em_numel(e, out),
                                  .dtype = out->dtype, .op = op, .root = root});
  return 0;
}

static int emit_allreduce_sum(EmitCtx *e) { return emit_reduce(e, RT_COLL_SUM, -1); }
static int emit_allreduce_max(EmitCtx *e) { return emit_reduce(e, RT_COLL_MAX, -1); }
static int emit_allreduce_min(EmitCtx *e) { return emit_reduce(e, RT_COLL_MIN, -1); }
static int emit_allreduce_prod(EmitCtx *e) { return emit_reduce(e, RT_COLL_PROD, -1); }

/* The root of c_reduce_*, c_broadcast: a process number. */
static int root_attr(EmitCtx *e, const char *name) {
  const int64_t r = attr_int(e->op, name, 0);
  if (r < 0 || r > 65535) return em_fail(e, "%s %lld is no process number", name, (long long)r), -1;
  return (int)r;
}

static int emit_reduce_root(EmitCtx *e, int op) {
  const int root = root_attr(e, "root_id");
  return root < 0 ? -1 : emit_reduce(e, op, root);
}

static int emit_reduce_sum(EmitCtx *e) { return emit_reduce_root(e, RT_COLL_SUM); }
static int emit_reduce_max(EmitCtx *e) { return emit_reduce_root(e, RT_COLL_MAX); }
static int emit_reduce_min(EmitCtx *e) { return emit_reduce_root(e, RT_COLL_MIN); }
static int emit_reduce_prod(EmitCtx *e) { return emit_reduce_root(e, RT_COLL_PROD); }

static int emit_broadcast(EmitCtx *e) {
  const int root = root_attr(e, "root");
  Var *x, *out = root < 0 ? NULL : copy_in_out(e, &x);
  if (!out) return -1;
  coll_print_c(e->p, &(CollCall){.kind = COLL_BROADCAST, .data = em_ptr(e, out, 0), .count = em_numel(e, out),
                                  .dtype = out->dtype, .root = root});
  return 0;
}

static int emit_allgather(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out || ring_world(e)) return -1;
  const int64_t nranks = attr_int(e->op, "nranks", 1);
  coll_print_c(e->p, &(CollCall){.kind = COLL_ALLGATHER, .data = em_ptr(e, x, 1), .count = em_numel(e, x),
                                  .dtype = x->dtype, .out = em_ptr(e, out, 0), .nranks = (long long)nranks});
  return 0;
}

static int emit_copy(EmitCtx *e) {
  Var *x;
  return copy_in_out(e, &x) ? 0 : -1;
}

static int emit_nothing(EmitCtx *e) {
  if (ring_world(e)) return -1;
  coll_print_c(e->p, &(CollCall){.kind = COLL_NONE, .op_type = e->op->type});
  return 0;
}

/* CUDA streams and devices: a CPU program has none. */
static const char *const stream_attrs[] = {"use_calc_stream", "use_model_parallel", NULL};
/* The communicator's set-up, done by MPI (the trainer checks nranks against
 * the processes; rank is each process's own under mpirun). */
static const char *const init_attrs[] = {"nranks", "rank", "device_id", "endpoints", "endpoint", "other_endpoints",
                                         "use_calc_stream", "devices", NULL};

const OpDef op_c_allreduce_sum = {.type = "c_allreduce_sum", .infer = infer_same, .emit_c = emit_allreduce_sum,
                                  .attr_ignores = stream_attrs, .collective = 1};
const OpDef op_c_allreduce_max = {.type = "c_allreduce_max", .infer = infer_same, .emit_c = emit_allreduce_max,
                                  .attr_ignores = stream_attrs, .collective = 1};
const OpDef op_c_allreduce_min = {.type = "c_allreduce_min", .infer = infer_same, .emit_c = emit_allreduce_min,
                                  .attr_ignores = stream_attrs, .collective = 1};
const OpDef op_c_allreduce_prod = {.type = "c_allreduce_prod", .infer = infer_same, .emit_c = emit_allreduce_prod,
                                   .attr_ignores = stream_attrs, .collective = 1};
const OpDef op_c_reduce_sum = {.type = "c_reduce_sum", .infer = infer_same, .emit_c = emit_reduce_sum,
                               .attr_ignores = stream_attrs, .collective = 1};
const OpDef op_c_reduce_max = {.type = "c_reduce_max", .infer = infer_same, .emit_c = emit_reduce_max,
                               .attr_ignores = stream_attrs, .collective = 1};
const OpDef op_c_reduce_min = {.type = "c_reduce_min", .infer = infer_same, .emit_c = emit_reduce_min,
                               .attr_ignores = stream_attrs, .collective = 1};
const OpDef op_c_reduce_prod = {.type = "c_reduce_prod", .infer = infer_same, .emit_c = emit_reduce_prod,
                                .attr_ignores = stream_attrs, .collective = 1};
const OpDef op_c_broadcast = {.type = "c_broadcast", .infer = infer_same, .emit_c = emit_broadcast,
                              .attr_ignores = stream_attrs, .collective = 1};
const OpDef op_c_allgather = {.type = "c_allgather", .infer = infer_allgather, .emit_c = emit_allgather,
                              .attr_ignores = stream_attrs, .collective = 1};
const OpDef op_c_identity = {.type = "c_identity", .infer = infer_same, .emit_c = emit_copy,
                             .attr_ignores = stream_attrs, .inplace = "X:Out"};
const OpDef op_c_sync_calc_stream = {.type = "c_sync_calc_stream", .infer = infer_same, .emit_c = emit_copy};
const OpDef op_c_sync_comm_stream = {.type = "c_sync_comm_stream", .infer = infer_same, .emit_c = emit_copy};
const OpDef op_c_comm_init = {.type = "c_comm_init", .infer = infer_nothing, .emit_c = emit_nothing,
                              .attr_ignores = init_attrs, .collective = 1, .comm_handles = 1};
const OpDef op_c_comm_init_all = {.type = "c_comm_init_all", .infer = infer_nothing, .emit_c = emit_nothing,
                                  .attr_ignores = init_attrs, .collective = 1, .comm_handles = 1};
const OpDef op_c_gen_nccl_id = {.type = "c_gen_nccl_id", .infer = infer_nothing, .emit_c = emit_nothing,
                                .attr_ignores = init_attrs, .collective = 1, .comm_handles = 1};

/* Reductions.
 *   reduce_sum, reduce_mean, reduce_max, reduce_min, reduce_prod,
 *   reduce_amax, reduce_amin, reduce_all, reduce_any, frobenius_norm
 *     inputs: X   outputs: Out
 *     attrs:  dim:INTS={0} (a VAR/VARS tensor in 2.5+ files; the op
 *             makers of reduce_all, _any, _amax, _amin also declare inputs
 *             AxisTensor† / AxisTensorList†*, which Paddle 2.6's kernels
 *             never read: ignored, as there),
 *             keep_dim:BOOLEAN=false, reduce_all:BOOLEAN=false,
 *             in_dtype:INT=-1, out_dtype:INT=-1; extra use_mkldnn
 *   mean: X -> Out, the mean of every element (spec 7.7)
 * Shape rule (phi ReduceInferDim): negative dims += rank; every dim is
 * reduced when reduce_all is set, when `dim` is empty or when it names every
 * axis; reduced dims become 1 with keep_dim and disappear without it.  A
 * scalar result is shape_scalar() ([] from 2.5, [1] before).  When `dim`
 * comes from a tensor the axes are unknown at compile time: keep_dim gives
 * rank(X) unknown dims, otherwise rank(X) - len(dim) of them.
 * Dtypes: reduce_sum uses out_dtype when set, else int64 for bool and int32
 * input (phi SumRawInferMeta); reduce_all / reduce_any give bool; the rest
 * keep X's dtype.  See legacy_reduce() for files older than 2.3.
 * Emission: X's dims are collapsed into alternating runs of
 * kept and reduced dims; nested loops read X in memory order and combine
 * each element, converted to Out's type, into its output element (a local
 * accumulator when the innermost run is reduced).  Mean divides by the
 * reduced count at the end, frobenius_norm takes the square root.  Axes
 * from tensors whose values only the run knows (`dim` fed):
 * while specializing with X's dims known, Out gets a proven bound (X's dims
 * with keep_dim; else dim i at most the sum of X's dims i..i+n, linear in
 * the batch) and the kernel reads the axes, checks them as Paddle does (in
 * range; a repeated one, which would give Out another rank, stops the run
 * too), sets Out's dims and walks X one dim at a time, each strided in Out
 * by the run (reduce_print_run_axes); the grads (but amax / amin's) alike.
 * The reductions take an X whose extents are only known at run time
 * (VAR_RUNTIME_EXTENT: top_k with k from a tensor, an image's height and
 * width), along dims they reduce or keep (Out has those); the loops read
 * them, and an X empty at run time stops the run, as Paddle 2.6 refuses to
 * reduce an empty tensor. */
#include <string.h>

#include "../util.h"
#include "ops.h"
#include "reduce_call.h"
#include "tensor_util.h"

/* Reads `dim`.  Returns its length and sets *dims (held in tensors whose
 * values the compiler knows too: ctx_attr_values, ctx_bounds), or sets
 * *from_tensor and returns the number of run-time values; -1 on error. */
static int read_dims(OpCtx *c, int64_t **dims, int *from_tensor) {
  const OpAttr *a = attr_find(c->op, "dim");
  const Var *vars[RT_MAX_RANK];
  *from_tensor = 0;
  int64_t *known = pool_alloc(sizeof(int64_t) * RT_MAX_RANK);
  const int nk = ctx_attr_values(c, "dim", known, RT_MAX_RANK);
  if (nk >= 0) {
    *dims = known;
    return nk;
  }
  if (!a) { /* the op maker's default */
    static int64_t dim0[1] = {0};
    *dims = dim0;
    return 1;
  }
  if (a->type != AT_VAR && a->type != AT_VARS) return attr_ints(c->op, "dim", dims);
  int n = a->type == AT_VAR ? 1 : (int)a->n_vars_name;
  if (n > RT_MAX_RANK) return ctx_fail(c, "attribute dim lists %d tensors", n);
  for (int i = 0; i < n; i++) {
    const char *name = a->type == AT_VAR ? a->var_name : a->vars_name[i];
    int id = name ? graph_find_var(c->g, c->op->block, name) : -1;
    if (id < 0 || c->g->vars[id].shape.rank < 0)
      return ctx_fail(c, "attribute dim names an unknown tensor '%s'", name ? name : "");
    vars[i] = &c->g->vars[id];
  }
  *from_tensor = 1;
  return (int)tensor_list_len(n ? &vars[0]->shape : NULL, n);
}

/* Files written before Paddle 2.3 (fluid ReduceOp; 1.x files carry version
 * 0 or none): an empty `dim` reduces nothing, and reduce_sum keeps the input
 * dtype. */
static int legacy_reduce(const OpCtx *c) { return ctx_version_before(c, 2003000); }

void reduce_kept_dims_to(int r, const int *red, int keep, int *to) {
  for (int i = 0, k = 0; i < r; i++) {
    to[i] = red[i] ? -1 : k;
    k += !red[i] || keep;
  }
}

/* Out's shape, into *out, and where X's dims go (to[]); 1 when Out (of
 * `dtype`) was set to a bound proven for axes only the run knows (ctx_proven_shape), 0 when
 * *out is to be set, -1 after an error. */
static int reduce_shape(OpCtx *c, const Var *xv, int dtype, Shape *out, int *to) {
  const Shape *x = &xv->shape;
  int64_t *dims;
  int from_tensor, n = read_dims(c, &dims, &from_tensor);
  if (n < 0) return -1;
  int keep = attr_bool(c->op, "keep_dim", 0), all = attr_bool(c->op, "reduce_all", 0);
  int rank = x->rank;
  Shape s = {0, {0}};
  const int rt = var_runtime_axis(xv);
  if (rt >= 0 && from_tensor && !all)
    return ctx_fail(c, "dim %d of X ('%s') is only known at run time and the reduced axes come from tensors", rt,
                    xv->name);
  if (from_tensor && !all && n > rank)
    return ctx_fail(c, "the reduced axes' tensors hold %d values, more than X's %d dims", n, rank);
  if (from_tensor && !all && n < rank) {
    s.rank = keep ? rank : rank - n;
    for (int i = 0; i < s.rank; i++) s.d[i] = DIM_UNKNOWN;
    *out = s;
    if (!ctx_feeds_fixed(c) || shape_numel(x) < 0) return 0;
    /* while specializing, X's dims known: Out's dims are the run's within a
     * bound proven here (with keep_dim X's; else dim i is one of X's dims
     * i..i+n, the kept dims shifting left past the reduced ones: their sum
     * bounds it, linear in the batch as their largest is not) */
    for (int i = 0; i < s.rank; i++) {
      s.d[i] = x->d[i];
      for (int k = 1; !keep && k <= n; k++) s.d[i] += x->d[i + k];
    }
    return ctx_proven_shape(c, "Out", 0, &s, dtype, "attribute dim's values");
  }
  all = all || from_tensor; /* as many axes as dims: Paddle reduces every dim, checking the axes (the kernel) */
  int reduced[RT_MAX_RANK] = {0};
  for (int i = 0; i < n && !from_tensor; i++) {
    int64_t d = dims[i];
    if (rank == 0 ? (d != 0 && d != -1) : (d < -rank || d >= rank))
      return ctx_fail(c, "dim %lld is out of range for rank %d", (long long)d, rank);
    if (rank) reduced[d < 0 ? d + rank : d] = 1;
  }
  int every = 1;
  for (int i = 0; i < rank; i++) every &= reduced[i];
  /* Paddle 2.6's shape rule for these ignores reduce_all while the kernel
   * reduces every dim: an output of `dim`'s shape, one element of it written */
  if (all && !every && n > 0 && (!strcmp(c->op->type, "reduce_amax") || !strcmp(c->op->type, "reduce_amin")))
    return ctx_fail(c, "reduce_all with dim naming some dims: Paddle's %s keeps the shape of `dim` but reduces every "
                    "dim, leaving all but one element uninitialized; refused", c->op->type);
  all = all || every || (n == 0 && !legacy_reduce(c));
  for (int i = 0; i < rank; i++) reduced[i] |= all;
  reduce_kept_dims_to(rank, reduced, keep, to); /* a run-time extent of a kept dim is Out's */
  for (int i = 0; i < rank; i++) {
    if (reduced[i]) {
      if (keep) s.d[s.rank++] = 1;
    } else {
      s.d[s.rank++] = x->d[i];
    }
  }
  *out = s.rank ? s : shape_scalar(c);
  return 0;
}

static int infer_reduce_as(OpCtx *c, int dtype) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  Shape out;
  int to[RT_MAX_RANK];
  for (int i = 0; i < RT_MAX_RANK; i++) to[i] = -1;
  if (dtype < 0) dtype = x->dtype;
  const int r = reduce_shape(c, x, dtype, &out, to);
  if (r < 0) return -1;
  if (r == 0) ctx_set(c, "Out", 0, &out, dtype); /* else set to a proven bound */
  ctx_pass_runtime_extents_to(c, x, "Out", 0, to);
  return 0;
}

static int infer_reduce(OpCtx *c) { return infer_reduce_as(c, -1); }

static int infer_reduce_bool(OpCtx *c) { return infer_reduce_as(c, RT_DT_BOOL); }

static int infer_reduce_sum(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int dt = (int)attr_int(c->op, "out_dtype", -1);
  if (dt < 0 && !legacy_reduce(c))
    dt = x->dtype == RT_DT_BOOL || x->dtype == RT_DT_INT32 ? RT_DT_INT64 : x->dtype;
  return infer_reduce_as(c, dt);
}

static int infer_mean(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  Shape s = shape_scalar(c);
  ctx_set(c, "Out", 0, &s, x->dtype);
  return 0;
}

/* ---- emission ---- */

/* How a reduction combines: `step` folds element v into acc; `init` is the
 * starting value ("min"/"max" = the type's extreme); `final` maps the
 * accumulated acc, with %s standing for Out's C type (NULL: kept as is). */
typedef struct Reducer {
  const char *type, *step, *init, *final;
} Reducer;

static const Reducer reducers[] = {
    {"reduce_sum", "acc + v", "0", NULL},
    {"reduce_mean", "acc + v", "0", "acc / (%s)count"},
    {"mean", "acc + v", "0", "acc / (%s)count"},
    {"reduce_max", "v > acc ? v : acc", "min", NULL},
    {"reduce_amax", "v > acc ? v : acc", "min", NULL},
    {"reduce_min", "v < acc ? v : acc", "max", NULL},
    {"reduce_amin", "v < acc ? v : acc", "max", NULL},
    {"reduce_prod", "acc * v", "1", NULL},
    {"reduce_all", "acc && v", "1", NULL},
    {"reduce_any", "acc || v", "0", NULL},
    {"frobenius_norm", "acc + v * v", "0", "(%s)sqrt((double)acc)"},
};

/* The starting value of `init` for dtype dt as C text. */
static const char *init_value(const char *init, int dt) {
  int hi = !strcmp(init, "max");
  if (strcmp(init, "min") && !hi) return dt == RT_DT_BOOL ? (init[0] == '1' ? "true" : "false") : init;
  switch (dt) {
    case RT_DT_FP32: return hi ? "INFINITY" : "-INFINITY";
    case RT_DT_FP64: return hi ? "(double)INFINITY" : "-(double)INFINITY";
    case RT_DT_INT64: return hi ? "INT64_MAX" : "INT64_MIN";
    case RT_DT_INT32: return hi ? "INT32_MAX" : "INT32_MIN";
    case RT_DT_INT16: return hi ? "INT16_MAX" : "INT16_MIN";
    case RT_DT_INT8: return hi ? "INT8_MAX" : "INT8_MIN";
    case RT_DT_UINT8: return hi ? "UINT8_MAX" : "0";
    default: return hi ? "true" : "false";
  }
}

/* Which dims of a rank-r X the op reduces (as the shape rule decides). */
static int reduced_dims(EmitCtx *e, int r, int *red) {
  OpCtx c = {e->g, (Op *)e->op};
  int all = !strcmp(e->op->type, "mean");
  if (!all) {
    int64_t *dims;
    int from_tensor, n = read_dims(&c, &dims, &from_tensor);
    if (n < 0) return -1;
    if (from_tensor && !attr_bool(e->op, "reduce_all", 0))
      return em_fail(e, "the axes come from tensors (attribute dim) whose values only the run knows");
    for (int i = 0; i < n && !from_tensor; i++) {
      int a = axis_norm(dims[i], r);
      if (a < 0) return em_fail(e, "dim %lld is out of range", (long long)dims[i]);
      if (r) red[a] = 1;
    }
    all = attr_bool(e->op, "reduce_all", 0) || (n == 0 && !legacy_reduce(&c));
  }
  for (int i = 0; i < r; i++) red[i] |= all;
  return 0;
}

/* 1 when the reduced axes are the run's (tensors whose values the compiler
 * does not know; reduce_all set reduces every dim without them). */
static int axes_run(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  int64_t *dims;
  int from_tensor = 0;
  if (strcmp(e->op->type, "mean") == 0 || attr_bool(e->op, "reduce_all", 0)) return 0;
  return read_dims(&c, &dims, &from_tensor) >= 0 && from_tensor;
}

/* For axes the run gives: prints their reading (reduce_print_run_axes; Out's
 * dims od[] for out_rank >= 0; red_count with `count`) and makes the
 * record's runs X's dims one each, strided in Out by the run's ostep[];
 * *why: the run's stop (em_fault).  0, or -1 after em_fail. */
static int print_axes_run(EmitCtx *e, const Var *x, int out_rank, ReduceCall *call, int count, const char **why) {
  ReduceAxes a = {.r = tu_rank(e, x), .keep = attr_bool(e->op, "keep_dim", 0), .out_rank = out_rank, .count = count};
  a.n = tu_run_attr_values(e, "dim", a.axes);
  if (a.n < 0) return -1;
  if (a.n == 0 || a.r == 0)
    return em_fail(e, "the axes from attribute dim hold %d values for a rank-%d X, which is not supported", a.n, a.r);
  a.all = a.n == a.r;
  for (int i = 0; i < a.r; i++) a.xd[i] = em_dim(e, x, i);
  reduce_print_run_axes(e->p, &a);
  const int twice = out_rank >= 0 && !a.keep && !a.all;
  *why = pool_printf("an axis from attribute dim outside [-%d, %d)%s (Paddle raises an error%s)", a.r, a.r,
                     twice ? ", or one given twice" : "", twice ? ", or gives Out another rank" : "");
  em_fault(e, *why);
  call->nruns = a.r;
  for (int k = 0; k < a.r; k++) call->run_n[k] = a.xd[k], call->run_reduced[k] = 0;
  call->ostep = "ostep";
  call->count = "red_count";
  return 0;
}

/* emit_reduce for axes the run gives: Out's dims set from them where Out
 * is bounded (reduce_shape's proven bound), then the walk over X. */
static int emit_reduce_axes_run(EmitCtx *e, const Var *x, const Var *out, ReduceCall *call) {
  const int bounded = tu_max_shaped(e, out);
  const char *why;
  if (print_axes_run(e, x, bounded ? tu_rank(e, out) : -1, call, call->final && strstr(call->final, "count"), &why))
    return -1;
  if (bounded) { /* within the proven bound: the run stops only on the axes */
    const char *od[RT_MAX_RANK];
    for (int d = 0; d < tu_rank(e, out); d++) od[d] = pool_printf("od[%d]", d);
    tu_set_extents(e, out, od, tu_rank(e, out), why);
  }
  call->kept = em_numel(e, out);
  reduce_print_c(e->p, call);
  return 0;
}

/* One run of collapsed dims. */
typedef struct Run {
  const char *n; /* extent */
  int reduced;   /* 1 when reduced */
} Run;

static int emit_reduce(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  const Reducer *rd = NULL;
  for (size_t i = 0; i < sizeof reducers / sizeof reducers[0]; i++)
    if (!strcmp(reducers[i].type, e->op->type)) rd = &reducers[i];
  if (!rd) return em_fail(e, "no C emitter for %s", e->op->type);
  const VarSpec *xs = em_spec(e, x);
  int r = xs->rank, red[RT_MAX_RANK] = {0}, nr = 0;
  const int run = axes_run(e);
  if (!run && reduced_dims(e, r, red)) return -1;
  Run runs[RT_MAX_RANK];
  const char *count = "1";
  VarSpec keep = {.known = 1}; /* the kept dims, to check Out against */
  for (int i = 0; i < r; i++) {
    if (tu_is_one(xs->d[i]) && !(xs->runtime_mask >> i & 1)) continue; /* a run-time extent may be 0 */
    const char *d = em_dim(e, x, i);
    if (red[i]) count = tu_mul(count, d);
    else keep.d[keep.rank++] = xs->d[i];
    if (nr && runs[nr - 1].reduced == red[i]) runs[nr - 1].n = tu_mul(runs[nr - 1].n, d);
    else runs[nr++] = (Run){d, red[i]};
  }
  SymDim nkeep = spec_numel(&keep), no = spec_numel(em_spec(e, out));
  if (!run && (nkeep.a < 0 || nkeep.a != no.a || nkeep.c != no.c))
    return em_fail(e, "Out does not hold the kept dims of X");
  const char *kept = em_numel(e, out);
  const char *t = em_ctype(out->dtype);
  const char *empty = NULL;
  if (xs->runtime_dim) { /* phi ReduceKernelImpl: "Tensor need be reduced must not empty" */
    empty = em_numel(e, x);
    em_fault(e, pool_printf("X ('%s') is empty at run time, and Paddle does not reduce an empty tensor", x->name));
  }
  ReduceCall call = {.kind = REDUCE_FORWARD, .type = t, .x_type = em_ctype(x->dtype), .nruns = nr,
                     .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0), .kept = kept,
                     .init = init_value(rd->init, out->dtype), .step = rd->step, .final = rd->final, .count = count,
                     /* float sums run in double over the innermost run, as close to Eigen's tree-shaped sums as
                      * a loop gets */
                     .wide = out->dtype == RT_DT_FP32 && strstr(rd->step, "acc +") != NULL};
  for (int k = 0; k < nr; k++) call.run_n[k] = runs[k].n, call.run_reduced[k] = runs[k].reduced;
  call.empty = empty;
  if (run) return emit_reduce_axes_run(e, x, out, &call);
  reduce_print_c(e->p, &call);
  return 0;
}

/* reduce_sum_grad, reduce_mean_grad, reduce_max_grad, reduce_min_grad,
 * reduce_amax_grad, reduce_amin_grad
 * (phi ReduceGradKernel): X@GRAD takes X's shape, each element the
 * Out@GRAD element its X element was reduced into, broadcast along the
 * reduced dims (the same dims as the forward's, reduced_dims()):
 *   sum:      dX = dOut
 *   mean:     dX = dOut / (the number of elements reduced into it)
 *   max, min: dX = X == Out ? dOut : 0 (every element equal to the
 *             extreme gets the gradient, MaxOrMinGradFunctor)
 *   prod:     dX = dOut * Out * (1 / X) (ProdGradFunctor; a 0 in X gives
 *             inf or NaN, as in Paddle)
 *   frobenius_norm: dX = X / (Out + 1e-12f) * dOut (FrobeniusNormGradFunctor)
 *   amax, amin: dX = dOut * (X == Out) / n, n the number of elements equal
 *             to the extreme in its reduction (AMaxOrAMinGradFunctor: the
 *             gradient is shared evenly; the counts go to scratch first)
 * X's dims collapse into runs of kept and reduced dims, as in
 * emit_reduce; X@GRAD is written once, in memory order.
 * AMaxOrAMinGradFunctor writes nothing (X@GRAD keeps whatever its memory
 * held) when, short of a reduction over every element, no reduced dim is
 * longer than 1, or when two or more are and X does not have rank 3 or 4
 * (it instantiates only those): refused. */
static int emit_reduce_grad(EmitCtx *e) {
  int sel = strstr(e->op->type, "_max_") || strstr(e->op->type, "_min_");
  int mean = !strcmp(e->op->type, "reduce_mean_grad"), prod = !strcmp(e->op->type, "reduce_prod_grad");
  int fro = !strcmp(e->op->type, "frobenius_norm_grad");
  int amx = strstr(e->op->type, "_amax_") || strstr(e->op->type, "_amin_"), need = sel || prod || fro || amx;
  Var *x = tu_in(e, "X", 0), *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  Var *out = need ? tu_in(e, "Out", 0) : NULL;
  if (!x || !dout || !dx || (need && !out)) return -1;
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || dout->dtype != x->dtype || dx->dtype != x->dtype ||
      (out && out->dtype != x->dtype))
    return em_fail(e, "%s of %s (Out@GRAD %s) is not supported (float32 or float64)", e->op->type,
                   rt_dtype_name(x->dtype), rt_dtype_name(dout->dtype));
  const VarSpec *xs = em_spec(e, x);
  int r = xs->rank, red[RT_MAX_RANK] = {0}, nr = 0;
  const ReduceGrad how = sel    ? RGRAD_SELECT
                         : amx  ? RGRAD_SHARE
                         : prod ? RGRAD_PROD
                         : fro  ? RGRAD_FROBENIUS
                         : mean ? RGRAD_MEAN
                                : RGRAD_SUM;
  const int run = axes_run(e);
  if (run && amx)
    return em_fail(e, "%s with axes only the run knows is not supported (which dims it shares the gradient over "
                      "decides whether Paddle's kernel writes X@GRAD)", e->op->type);
  if (!run && reduced_dims(e, r, red)) return -1;
  Run runs[RT_MAX_RANK];
  const char *count = "1";
  VarSpec keep = {.known = 1};
  for (int i = 0; i < r; i++) {
    if (tu_is_one(xs->d[i]) && !(xs->runtime_mask >> i & 1)) continue; /* a run-time extent may be 0 */
    const char *d = em_dim(e, x, i);
    if (red[i]) count = tu_mul(count, d);
    else keep.d[keep.rank++] = xs->d[i];
    if (nr && runs[nr - 1].reduced == red[i]) runs[nr - 1].n = tu_mul(runs[nr - 1].n, d);
    else runs[nr++] = (Run){d, red[i]};
  }
  SymDim nkeep = spec_numel(&keep), no = spec_numel(em_spec(e, dout));
  if (run) { /* Out@GRAD's dims are the forward's Out's, which the run set from the same axes */
    ReduceCall call = {.kind = REDUCE_GRAD, .type = em_ctype(x->dtype), .grad = how, .dout = em_ptr(e, dout, 1),
                       .x = need ? em_ptr(e, x, 1) : NULL, .out = need ? em_ptr(e, out, 1) : NULL,
                       .dx = em_ptr(e, dx, 0)};
    const char *why;
    if (print_axes_run(e, x, -1, &call, mean, &why)) return -1;
    reduce_print_c(e->p, &call);
    return 0;
  }
  if (nkeep.a < 0 || nkeep.a != no.a || nkeep.c != no.c) return em_fail(e, "Out@GRAD does not hold the kept dims of X");
  /* Out is read per kept element: one the forward reduced otherwise (its
   * reduce_all or dim changed on one side) is refused, where Paddle's
   * kernel reads past it */
  const SymDim nout = out ? spec_numel(em_spec(e, out)) : nkeep;
  if (out && (nout.a != nkeep.a || nout.c != nkeep.c))
    return em_fail(e, "Out ('%s') does not hold the kept dims of X: the forward reduced with other dim / reduce_all",
                   out->name);
  if (amx && r > 0 && !(nkeep.a == 0 && nkeep.c == 1)) {
    int longer = 0;
    for (int i = 0; i < r; i++) longer += red[i] && !tu_is_one(xs->d[i]);
    if (longer == 0 || (longer >= 2 && r != 3 && r != 4) || r > 6)
      return em_fail(e, "%d reduced dims longer than 1 in a rank-%d X: Paddle's %s kernel leaves X@GRAD unwritten",
                     longer, r, e->op->type);
  }
  ReduceCall call = {.kind = REDUCE_GRAD, .type = em_ctype(x->dtype), .nruns = nr, .count = count, .grad = how,
                     .dout = em_ptr(e, dout, 1), .x = need ? em_ptr(e, x, 1) : NULL,
                     .out = need ? em_ptr(e, out, 1) : NULL, .dx = em_ptr(e, dx, 0)};
  for (int k = 0; k < nr; k++) call.run_n[k] = runs[k].n, call.run_reduced[k] = runs[k].reduced;
  if (amx) /* how many elements of each reduction equal its extreme */
    call.cnt = em_scratch_at(e, "cnt", (SymDim){no.a * 8, no.c * 8}), call.cnt_n = em_sym(no);
  reduce_print_c(e->p, &call);
  return 0;
}

/* in_dtype: Paddle 2.6's kernels (phi Sum/Mean/...Kernel) take X's dtype
 * and out_dtype; the attribute is never read. */
static const char *const reduce_attr_ignores[] = {"in_dtype", NULL};
#define REDUCE_DEF(name, rule, slots)                                                                          \
  const OpDef op_##name = {.type = #name, .infer = rule, .emit_c = emit_reduce, .ignores = slots,               \
                           .attr_ignores = reduce_attr_ignores, .runtime_extents = 2};
/* mean_grad: X, Out@GRAD (one element) -> X@GRAD (X's shape): every
 * element is Out@GRAD / numel(X), the count converted to the element type
 * first (phi MeanAllGradKernel); X is read for its shape only. */
static int emit_mean_grad(EmitCtx *e) {
  Var *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!dout || !dx) return -1;
  if ((dx->dtype != RT_DT_FP32 && dx->dtype != RT_DT_FP64) || dout->dtype != dx->dtype)
    return em_fail(e, "only float32 and float64 gradients are supported");
  SymDim n1 = spec_numel(em_spec(e, dout));
  if (n1.a != 0 || n1.c != 1) return em_fail(e, "Out@GRAD must have one element");
  Var *x = tu_in(e, "X", 0);
  if (x) tu_pass_extent(e, x, dx); /* X's run-time extents: the count is the run's */
  ReduceCall call = {.kind = REDUCE_MEAN_ALL_GRAD, .type = em_ctype(dx->dtype), .dout = em_ptr(e, dout, 1)};
  call.count = em_numel(e, dx);
  call.dx = em_ptr(e, dx, 0);
  reduce_print_c(e->p, &call);
  return 0;
}

#define OP_REDUCE(name) REDUCE_DEF(name, infer_reduce, NULL)
OP_REDUCE(frobenius_norm)
const OpDef op_mean = {.type = "mean", .infer = infer_mean, .emit_c = emit_reduce, .runtime_extents = 2};
const OpDef op_mean_grad = {.type = "mean_grad", .infer = grad_infer, .emit_c = emit_mean_grad, .runtime_extents = 2};
/* AxisTensor, AxisTensorList: declared by these four ops' makers (the
 * IntArray axis of their YAML), never read by Paddle 2.6's kernels, whose
 * signatures (amax_raw, all_raw, ...) take the attribute dim: fed axes
 * there change nothing (e2e_shape_feeds' reduce_fed_axis_tensors). */
static const char *const axis_tensor_ignores[] = {"AxisTensor", "AxisTensorList", NULL};
#define OP_REDUCE_AXIS_TENSOR(name) REDUCE_DEF(name, infer_reduce, axis_tensor_ignores)
#define OP_REDUCE_BOOL_AXIS_TENSOR(name) REDUCE_DEF(name, infer_reduce_bool, axis_tensor_ignores)
OP_REDUCE_BOOL_AXIS_TENSOR(reduce_all)
OP_REDUCE_AXIS_TENSOR(reduce_amax)
OP_REDUCE_AXIS_TENSOR(reduce_amin)
OP_REDUCE_BOOL_AXIS_TENSOR(reduce_any)
OP_REDUCE(reduce_max)
/* every reduction takes run-time extents, along dims it reduces (top_k's k
 * from a tensor: online hard example mining losses; an image's height and
 * width the run gives) or keeps (the mean over channels of a spatial
 * attention) */
const OpDef op_reduce_mean = {.type = "reduce_mean", .infer = infer_reduce, .emit_c = emit_reduce,
                              .attr_ignores = reduce_attr_ignores, .runtime_extents = 2};
OP_REDUCE(reduce_min)
OP_REDUCE(reduce_prod)
const OpDef op_reduce_sum = {.type = "reduce_sum", .infer = infer_reduce_sum, .emit_c = emit_reduce,
                             .attr_ignores = reduce_attr_ignores, .runtime_extents = 2};
/* The grads also leave keep_dim alone: Out@GRAD holds the same elements
 * in the same order with or without the reduced dims of size 1. */
static const char *const reduce_grad_attr_ignores[] = {"in_dtype", "keep_dim", NULL};
/* the grads take the run-time extents their forward reduced or kept */
#define OP_REDUCE_GRAD(name)                                                                     \
  const OpDef op_##name = {.type = #name, .infer = grad_infer, .emit_c = emit_reduce_grad, \
                           .attr_ignores = reduce_grad_attr_ignores, .runtime_extents = 2};
OP_REDUCE_GRAD(reduce_amax_grad)
OP_REDUCE_GRAD(reduce_amin_grad)
OP_REDUCE_GRAD(reduce_max_grad)
OP_REDUCE_GRAD(reduce_mean_grad)
OP_REDUCE_GRAD(reduce_min_grad)
OP_REDUCE_GRAD(reduce_prod_grad)
OP_REDUCE_GRAD(frobenius_norm_grad)
OP_REDUCE_GRAD(reduce_sum_grad)

/* Random fills: ShapeTensor†, ShapeTensorList†* -> Out.
 *   uniform_random: shape:LONGS, min:FLOAT=-1, max:FLOAT=1 (may be VAR),
 *     seed:INT=0, diag_num:INT=0, diag_step:INT=0, diag_val:FLOAT=1,
 *     dtype:INT=5
 *   gaussian_random: shape:LONGS, mean:FLOAT=0, std:FLOAT=1, seed:INT=0,
 *     dtype:INT=5; extra use_mkldnn
 *   truncated_gaussian_random: shape:LONGS, mean, std, seed, dtype:INT=5,
 *     a, b (no tensor inputs)
 *   randint: shape:LONGS, low:INT=0, high:INT=0, seed:INT=0, dtype:INT=3
 * Out = `shape` with dtype `dtype`, except at compile time:
 *   - ShapeTensorList: one -1 per tensor (uniform_random, randint); for
 *     gaussian_random only when `shape` is empty (else `shape`, which
 *     Python writes with -1 at the tensor entries);
 *   - ShapeTensor with an empty `shape`: numel(ShapeTensor) -1 dims.
 * While specializing, known ShapeTensor (else ShapeTensorList) values are
 * the shape, as at run time; unknown ones leave every dim unknown (refused
 * by spec.c) unless --max-shape bounds Out (ctx_max_shape): the kernel
 * then sets the dims from the values and draws that many elements.
 *
 * Emission (uniform_random, gaussian_random; float32 and float64), bit for
 * bit as Paddle's CPU kernels (phi uniform_kernel.cc / uniform_raw,
 * gaussian_kernel.cc; runtime/rt_random.h): the engine is a fresh
 * mt19937_64 seeded with `seed` when it is not 0, else the model's global
 * generator (m->rng, seeded by <prefix>_seed as paddle.seed seeds Paddle's
 * CPU generator), which such ops draw from in program order.  Elements are
 * drawn in order: uniform_real_distribution<T>(T(min), T(max)) with min and
 * max as float; normal_distribution<T>(mean, std), one per op.
 * uniform_random with diag_num > 0 then sets Out[i * (diag_step + 1)] =
 * diag_val for i < diag_num (Paddle requires numel > (diag_num - 1) *
 * (diag_step + 1)).  truncated_gaussian_random (Paddle 2.6: no a, b
 * attributes) is Paddle's TruncatedNormal<T>(mean, std): mean +- 2 std by
 * the inverse CDF with Paddle's own Erfinv, on uniform_real_distribution
 * <T>(FLT_MIN, 1) draws.
 * randint (int32, int64): std::uniform_int_distribution<T>(low, high - 1),
 * one draw per element (rt_uniform_int: the downscaling of libstdc++ before
 * GCC 11, which Paddle 2.6's wheel was measured to use: the later
 * multiply-shift differs by one now and then on a 1e9 range), low < high
 * required as Paddle does.  Its engine is the global generator with seed 0; with any other
 * seed Paddle 2.6 seeds a fresh engine not with `seed` but with the
 * `dtype` attribute's value (2 for int32, 3 for int64: the argument its
 * kernel takes as the seed; measured, tests/oracle/random_cases.py), and so
 * does paddlec. */
#include <string.h>

#include "../util.h"
#include "ops.h"
#include "rnn_call.h"
#include "tensor_util.h"

static int infer_random(OpCtx *c) {
  int64_t *v;
  int n = attr_ints(c->op, "shape", &v);
  int dflt = strcmp(c->op->type, "randint") == 0 ? RT_DT_INT64 : RT_DT_FP32;
  int gaussian = strcmp(c->op->type, "gaussian_random") == 0;
  int nlist = ctx_in(c, "ShapeTensorList", 0) ? ctx_nin(c, "ShapeTensorList") : 0;
  Var *st = ctx_in(c, "ShapeTensor", 0);
  Shape s;
  int64_t tv[RT_MAX_RANK];
  int nt = tu_slot_values(c, "ShapeTensor", 0, tv, RT_MAX_RANK);
  if (nt < 0 && !st) nt = tu_slot_values(c, "ShapeTensorList", 1, tv, RT_MAX_RANK);
  if (nt >= 0) { /* run-time shape values known at compile time */
    s = shape_make(nt, tv);
    for (int i = 0; i < s.rank; i++)
      if (s.d[i] < 0) return ctx_fail(c, "shape value %d is %lld", i, (long long)s.d[i]);
  } else if (c->g->specializing && (st || nlist)) { /* the run's values: Paddle's kernel reads them, not `shape` */
    int rank = st ? (int)shape_numel(&st->shape) : nlist;
    if (rank < 0 || rank > RT_MAX_RANK) return ctx_fail(c, "the shape tensors give %d dims", rank);
    int b = ctx_max_shape(c, "Out", 0, rank, (int)attr_int(c->op, "dtype", dflt),
                          st ? "ShapeTensor's values" : "ShapeTensorList's values");
    if (b) return b < 0 ? -1 : 0;
    s.rank = rank;
    for (int i = 0; i < rank; i++) s.d[i] = DIM_UNKNOWN;
  } else if (nlist && !(gaussian && n)) {
    if (nlist > RT_MAX_RANK) return ctx_fail(c, "ShapeTensorList has %d tensors", nlist);
    s.rank = nlist;
    for (int i = 0; i < nlist; i++) s.d[i] = DIM_UNKNOWN;
  } else if (st && n == 0) {
    if (ctx_shape_from_tensor(c, "ShapeTensor", &s)) return -1;
  } else {
    if (n > RT_MAX_RANK) return ctx_fail(c, "attribute shape has %d dims", n);
    s = shape_make(n, v);
  }
  ctx_set(c, "Out", 0, &s, (int)attr_int(c->op, "dtype", dflt));
  return 0;
}

/* 1 when `op` draws from the global generator: a seed of 0 (OpDef). */
static int random_global_rng(const Graph *g, const Op *op) {
  (void)g;
  return attr_int(op, "seed", 0) == 0;
}

/* Declares `mt`, the engine the op draws from: a fresh one seeded with the
 * op's seed, or the model's global generator. */
static int emit_engine(EmitCtx *e) {
  int64_t seed = attr_int(e->op, "seed", 0);
  if (seed < INT32_MIN || seed > INT32_MAX) return em_fail(e, "seed %lld is not an int32", (long long)seed);
  /* engine->seed(int seed): the int converts to uint64 */
  random_print_c(e->p, &(RandomCall){.kind = RANDOM_ENGINE,
                                     .seed = seed ? pool_printf("(uint64_t)INT64_C(%lld)", (long long)seed) : NULL});
  return 0;
}

/* Out, when it is float32 or float64 (Paddle's CPU kernels also take
 * bfloat16 and float16, refused here). */
static Var *random_out(EmitCtx *e) {
  Var *out = tu_out(e, "Out", 0);
  if (!out || (tu_max_shaped(e, out) && tu_shape_extents(e, out))) return NULL;
  if (out->dtype != RT_DT_FP32 && out->dtype != RT_DT_FP64) {
    em_fail(e, "%s of dtype %s is not supported (float32 or float64)", e->op->type, rt_dtype_name(out->dtype));
    return NULL;
  }
  return out;
}

/* A float attribute as a C literal of the op's type: the float value, as
 * Paddle's kernel converts it (float -> T). */
static const char *float_attr(EmitCtx *e, const char *name, double dflt, int dtype) {
  if (attr_is_var(e->op, name)) {
    em_fail(e, "attribute %s given as a tensor is not supported", name);
    return NULL;
  }
  float v = (float)attr_float(e->op, name, dflt);
  return dtype == RT_DT_FP32 ? em_float(v) : pool_printf("%.17g", (double)v);
}

static int emit_uniform_random(EmitCtx *e) {
  Var *out = random_out(e);
  if (!out) return -1;
  const char *lo = float_attr(e, "min", -1.0, out->dtype), *hi = float_attr(e, "max", 1.0, out->dtype);
  if (!lo || !hi) return -1;
  int64_t diag_num = attr_int(e->op, "diag_num", 0), diag_step = attr_int(e->op, "diag_step", 0);
  const char *diag_val = float_attr(e, "diag_val", 1.0, out->dtype);
  if (!diag_val) return -1;
  if (diag_num > 0 && tu_max_shaped(e, out)) return em_fail(e, "diag_num with a shape from tensors is not supported");
  if (diag_num > 0) { /* Paddle checks numel > (diag_num - 1) * (diag_step + 1) at run time */
    int64_t numel = 1;
    for (int d = 0; d < tu_rank(e, out); d++) {
      int64_t n = em_const_dim(e, out, d);
      if (n < 0) return em_fail(e, "diag_num with a batch-dependent shape is not supported");
      numel *= n;
    }
    if (diag_step < 0 || diag_num > INT32_MAX || numel <= (diag_num - 1) * (diag_step + 1))
      return em_fail(e, "diag_num %lld, diag_step %lld do not fit %lld elements (Paddle refuses it)",
                     (long long)diag_num, (long long)diag_step, (long long)numel);
  }
  if (emit_engine(e)) return -1;
  random_print_c(e->p, &(RandomCall){.kind = RANDOM_UNIFORM, .mt = "mt", .f64 = out->dtype == RT_DT_FP64,
                                     .out = em_ptr(e, out, 0), .n = em_numel(e, out), .lo = lo, .hi = hi,
                                     .diag_num = diag_num, .diag_stride = diag_step + 1, .diag_val = diag_val});
  return 0;
}

static int emit_truncated_gaussian_random(EmitCtx *e) {
  Var *out = random_out(e);
  if (!out) return -1;
  const char *mean = float_attr(e, "mean", 0.0, out->dtype), *std = float_attr(e, "std", 1.0, out->dtype);
  if (!mean || !std) return -1;
  if (emit_engine(e)) return -1;
  random_print_c(e->p, &(RandomCall){.kind = RANDOM_TRUNCATED_NORMAL, .mt = "mt", .f64 = out->dtype == RT_DT_FP64,
                                     .out = em_ptr(e, out, 0), .n = em_numel(e, out), .mean = mean, .stddev = std});
  return 0;
}

static int emit_gaussian_random(EmitCtx *e) {
  Var *out = random_out(e);
  if (!out) return -1;
  const char *mean = float_attr(e, "mean", 0.0, out->dtype), *std = float_attr(e, "std", 1.0, out->dtype);
  if (!mean || !std) return -1;
  if (emit_engine(e)) return -1;
  random_print_c(e->p, &(RandomCall){.kind = RANDOM_NORMAL, .mt = "mt", .f64 = out->dtype == RT_DT_FP64,
                                     .out = em_ptr(e, out, 0), .n = em_numel(e, out), .mean = mean, .stddev = std});
  return 0;
}

const OpDef op_gaussian_random = {.type = "gaussian_random", .infer = infer_random, .emit_c = emit_gaussian_random,
                                  .global_rng = random_global_rng, .max_shape = 1};
const OpDef op_uniform_random = {.type = "uniform_random", .infer = infer_random, .emit_c = emit_uniform_random,
                                 .global_rng = random_global_rng, .max_shape = 1};

const OpDef op_truncated_gaussian_random = {.type = "truncated_gaussian_random", .infer = infer_random,
                                            .emit_c = emit_truncated_gaussian_random,
                                            .global_rng = random_global_rng};

static int emit_randint(EmitCtx *e) {
  Var *out = tu_out(e, "Out", 0);
  if (!out || (tu_max_shaped(e, out) && tu_shape_extents(e, out))) return -1;
  if (out->dtype != RT_DT_INT32 && out->dtype != RT_DT_INT64)
    return em_fail(e, "randint of dtype %s is not supported (int32 or int64)", rt_dtype_name(out->dtype));
  const int64_t low = attr_int(e->op, "low", 0), high = attr_int(e->op, "high", 0);
  if (low >= high) return em_fail(e, "low %lld must be less than high %lld (Paddle's rule)", (long long)low, (long long)high);
  const int64_t seed = attr_int(e->op, "seed", 0);
  if (seed < INT32_MIN || seed > INT32_MAX) return em_fail(e, "seed %lld is not an int32", (long long)seed);
  RandomCall engine = {.kind = RANDOM_ENGINE};
  if (seed) { /* Paddle 2.6 seeds it with the dtype attribute (see the top of the file) */
    engine.seed = pool_printf("%d", out->dtype);
    engine.note = pool_printf("seed %lld: Paddle seeds with dtype %d instead", (long long)seed, out->dtype);
  }
  random_print_c(e->p, &engine);
  const char *ptr = em_ptr(e, out, 0);
  random_print_c(e->p, &(RandomCall){.kind = RANDOM_UNIFORM_INT, .mt = "mt", .out = ptr, .n = em_numel(e, out),
                                     .type = em_ctype(out->dtype), .lo = pool_printf("%lld", (long long)low),
                                     .hi = pool_printf("%lld", (long long)(high - 1))});
  return 0;
}

const OpDef op_randint = {.type = "randint", .infer = infer_random, .emit_c = emit_randint,
                          .global_rng = random_global_rng, .max_shape = 1};

/* Constant fills.
 *   fill_constant: ValueTensor†, ShapeTensor†, ShapeTensorList†* -> Out;
 *     dtype:INT=5, shape:LONGS=[] (INTS in old files), value:FLOAT=0,
 *     str_value:STRING="", force_cpu:BOOLEAN=false, place_type:INT=-1;
 *     extra use_mkldnn.  Out = `shape` (Python writes -1 where a
 *     ShapeTensorList entry goes); with only ShapeTensor and an empty
 *     `shape`, numel(ShapeTensor) unknown dims (fluid FillConstantOp).
 *     At run time the ShapeTensor (else ShapeTensorList) values are the
 *     shape, whatever `shape` says: while specializing, where consteval
 *     knows them they are the shape, else the dims are unknown (one per
 *     ShapeTensorList entry, numel(ShapeTensor)) and specialization
 *     refuses them, naming the slot, unless each ShapeTensorList entry is
 *     known or the run-time extent of a tensor (traced_fill: a causal
 *     mask paddle.ones([L, L]) of the run's length) or a product of such
 *     extents (expr_fill: paddle.full([h * w, 1], s) over an image's
 *     sizes, a detector's strides per anchor point), or --max-shape bounds Out: then
 *     Out is sized for the bound and the kernel sets its dims from the
 *     values (ctx_max_shape), stopping the run on one below 0 or past it.
 *   fill_constant_batch_size_like: Input -> Out; shape:INTS, dtype:INT=5,
 *     value:FLOAT=0, str_value, force_cpu, input_dim_idx:INT=0,
 *     output_dim_idx:INT=0.  Out = `shape` with
 *     Out[output_dim_idx] = Input[input_dim_idx].
 *   fill_any_like: X -> Out; value:FLOAT=0, dtype:INT=-1 (-1 = X's dtype).
 *     `value` may be a tensor's name (VAR: paddle.full_like(x, t)), read
 *     when the op runs.  phi's FullLikeKernel raises on a value outside
 *     Out's dtype's range (like_range), a constant one refused here.
 *   empty: ShapeTensor†, ShapeTensorList†* -> Out; shape:LONGS=[],
 *     dtype:INT=5: fill_constant's shape rule; values unspecified.
 *   fill_zeros_like: X -> Out, X's dims and dtype.
 *   fill_zeros_like2: X -> Out; dtype:INT=5.  Paddle's InferShape leaves
 *     Out's dtype as the creator declared it; Python declares `dtype`.
 * Emission: a loop storing one literal of Out's dtype.  The value is
 * str_value when set ("inf", "-inf", "nan", else a number read as a
 * double, as phi's Scalar does), else `value`, converted as static_cast
 * does; fill_constant's ValueTensor is read at run time instead.
 * force_cpu (fill_constant, fill_constant_batch_size_like) only places Out
 * in CPU memory on a GPU build: paddlec's tensors always are (attr_ignores;
 * paddle.nn.LSTM's initial states in a static program set it). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../consteval.h"
#include "../util.h"
#include "fill_call.h"
#include "move_call.h"
#include "ops.h"
#include "run_hw.h"
#include "tensor_util.h"

static int shape_from_attr(OpCtx *c, const char *name, Shape *s) {
  int64_t *v;
  int n = attr_ints(c->op, name, &v);
  if (n > RT_MAX_RANK) return ctx_fail(c, "attribute %s has %d dims", name, n);
  *s = shape_make(n, v);
  return 0;
}

/* ShapeTensorList's entries, each a value the compiler knows (shape[i]
 * set, from[i] NULL) or the run-time extent of a tensor
 * (ctx_run_extent_of: paddle.ones([L, L]) with
 * L = paddle.shape(ids)[1]; from[i], at[i], shape[i] its bound), those
 * tensors of one root.  The number of extents, 0 when some entry is
 * neither. */
static int traced_shape(OpCtx *c, int n, Shape *shape, const Var **from, int *at) {
  int nrun = 0;
  shape->rank = n;
  for (int i = 0; i < n; i++) {
    const Var *entry = ctx_in(c, "ShapeTensorList", i), *t;
    const int64_t *v;
    from[i] = NULL;
    if (entry && ctx_values(c, entry, &v) == 1) {
      if (v[0] < 0) return 0;
      shape->d[i] = v[0];
      continue;
    }
    if (!entry || !ctx_run_extent_of(c->g, entry, 0, &t, &at[i])) return 0;
    for (int k = 0; k < i; k++)
      if (from[k] && !same_runtime_extent(from[k], t)) return 0;
    from[i] = t;
    shape->d[i] = t->shape.d[at[i]];
    nrun++;
  }
  return nrun;
}

/* fill_constant whose ShapeTensorList traced_shape follows to run-time
 * extents: Out has them (one extent, their root).  1 when set. */
static int traced_fill(OpCtx *c, int n) {
  Shape s;
  const Var *from[RT_MAX_RANK];
  int at[RT_MAX_RANK];
  if (!traced_shape(c, n, &s, from, at)) return 0;
  unsigned mask = 0;
  const Var *root = NULL;
  for (int i = 0; i < n; i++)
    if (from[i]) mask |= 1u << i, root = from[i];
  if (!root) return 0;
  ctx_set(c, "Out", 0, &s, (int)attr_int(c->op, "dtype", RT_DT_FP32));
  ctx_set_runtime_extents(c, "Out", 0, mask, root->runtime_from);
  Var *out = ctx_out(c, "Out", 0);
  if (out) out->runtime_root = root->runtime_root, out->runtime_same = 1;
  return 1;
}

/* ShapeTensorList's entries, each a value the compiler knows or a
 * product of run-time extents (ctx_size_expr: paddle.full([h * w, 1], s)
 * over an image's sizes): the number of such products (into e[i], n 0
 * for a known value, its bound in shape), 0 when some entry is neither. */
static int expr_shape(OpCtx *c, int n, Shape *shape, SizeExpr *e) {
  int nrun = 0;
  shape->rank = n;
  for (int i = 0; i < n; i++) {
    const Var *entry = ctx_in(c, "ShapeTensorList", i);
    const int64_t *v;
    e[i] = (SizeExpr){.k = 1};
    if (entry && ctx_values(c, entry, &v) == 1) {
      if (v[0] < 0) return 0;
      shape->d[i] = v[0];
      continue;
    }
    if (!entry || !ctx_size_expr(c, entry, 0, &e[i])) return 0;
    shape->d[i] = e[i].k;
    for (int f = 0; f < e[i].n; f++) shape->d[i] *= e[i].v[f]->shape.d[e[i].d[f]];
    nrun++;
  }
  return nrun;
}

/* fill_constant whose ShapeTensorList expr_shape reads as products of
 * run-time extents: Out's dims there are run-time extents of a root of
 * their own (one per product).  1 when set. */
static int expr_fill(OpCtx *c, int n) {
  Shape s;
  SizeExpr e[RT_MAX_RANK];
  if (!expr_shape(c, n, &s, e)) return 0;
  unsigned mask = 0;
  const char *key = "fill", *from = NULL;
  for (int i = 0; i < n; i++) {
    if (!e[i].n) continue;
    mask |= 1u << i;
    key = pool_printf("%s %d:%lld", key, i, (long long)e[i].k);
    for (int f = 0; f < e[i].n; f++) {
      key = pool_printf("%s*%d.%d", key, e[i].v[f]->runtime_root, e[i].d[f]);
      from = e[i].v[f]->runtime_from;
    }
  }
  ctx_set(c, "Out", 0, &s, (int)attr_int(c->op, "dtype", RT_DT_FP32));
  ctx_set_runtime_extents(c, "Out", 0, mask, from);
  Var *out = ctx_out(c, "Out", 0);
  if (out) run_hw_share_root(c->g, out, key);
  return 1;
}

/* The C expression of a SizeExpr: its factors' extents times k. */
static const char *expr_text(EmitCtx *e, const SizeExpr *x) {
  const char *t = pool_printf("%lld", (long long)x->k);
  for (int f = 0; f < x->n; f++) t = tu_mul(t, em_dim(e, x->v[f], x->d[f]));
  return t;
}

static int infer_fill_constant(OpCtx *c) {
  Shape s;
  if (shape_from_attr(c, "shape", &s)) return -1;
  Var *st = ctx_in(c, "ShapeTensor", 0);
  int64_t tv[RT_MAX_RANK];
  int nt = tu_slot_values(c, "ShapeTensor", 0, tv, RT_MAX_RANK);
  if (nt < 0 && !st) nt = tu_slot_values(c, "ShapeTensorList", 1, tv, RT_MAX_RANK);
  if (nt >= 0) { /* run-time shape values known at compile time */
    s = shape_make(nt, tv);
    for (int i = 0; i < s.rank; i++)
      if (s.d[i] < 0) return ctx_fail(c, "shape value %d is %lld", i, (long long)s.d[i]);
  } else if (c->g->specializing && st) { /* values only known at run time */
    if (ctx_shape_from_tensor(c, "ShapeTensor", &s)) return -1;
    int b = ctx_max_shape(c, "Out", 0, s.rank, (int)attr_int(c->op, "dtype", RT_DT_FP32), "ShapeTensor's values");
    if (b) return b < 0 ? -1 : 0;
  } else if (c->g->specializing && ctx_in(c, "ShapeTensorList", 0)) { /* a dim per entry, known where its value is */
    int n = ctx_nin(c, "ShapeTensorList");
    if (n > RT_MAX_RANK) return ctx_fail(c, "ShapeTensorList has %d entries", n);
    if (!ctx_has_max_shape(c, "Out", 0) && (traced_fill(c, n) || expr_fill(c, n))) return 0;
    int b = ctx_max_shape(c, "Out", 0, n, (int)attr_int(c->op, "dtype", RT_DT_FP32), "ShapeTensorList's values");
    if (b) return b < 0 ? -1 : 0;
    s.rank = n;
    for (int i = 0; i < n; i++) {
      const int64_t *v;
      if (ctx_values(c, ctx_in(c, "ShapeTensorList", i), &v) != 1) {
        s.d[i] = DIM_UNKNOWN;
        continue;
      }
      if (v[0] < 0) return ctx_fail(c, "shape value %d is %lld", i, (long long)v[0]);
      s.d[i] = v[0];
    }
  } else if (st && s.rank == 0) {
    if (ctx_shape_from_tensor(c, "ShapeTensor", &s)) return -1;
  } else if (!st && !ctx_in(c, "ShapeTensorList", 0)) {
    for (int i = 0; i < s.rank; i++)
      if (s.d[i] < 0) return ctx_fail(c, "shape[%d] = %lld is negative", i, (long long)s.d[i]);
  }
  ctx_set(c, "Out", 0, &s, (int)attr_int(c->op, "dtype", RT_DT_FP32));
  return 0;
}

static int infer_fill_batch_like(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0);
  if (!x) return -1;
  Shape s;
  if (shape_from_attr(c, "shape", &s)) return -1;
  int64_t in = attr_int(c->op, "input_dim_idx", 0), out = attr_int(c->op, "output_dim_idx", 0);
  if (in < 0 || in >= x->shape.rank || out < 0 || out >= s.rank)
    return ctx_fail(c, "input_dim_idx %lld / output_dim_idx %lld out of range", (long long)in,
                    (long long)out);
  s.d[out] = x->shape.d[in];
  ctx_set(c, "Out", 0, &s, (int)attr_int(c->op, "dtype", RT_DT_FP32));
  return 0;
}

static int infer_fill_any_like(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int dt = (int)attr_int(c->op, "dtype", -1);
  if (attr_is_var(c->op, "value") && !ctx_attr_tensor(c, "value")) /* read when it runs (emit_fill_any_like) */
    return ctx_fail(c, "attribute value names an unknown tensor");
  ctx_set(c, "Out", 0, &x->shape, dt < 0 ? x->dtype : dt);
  ctx_pass_runtime_extent(c, x, "Out", 0); /* the run's sizes of X are Out's (emit_fill_any_like) */
  return 0;
}

static int infer_fill_zeros_like(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  return 0;
}

static int infer_fill_zeros_like2(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, (int)attr_int(c->op, "dtype", RT_DT_FP32));
  return 0;
}

/* ---- emission ---- */

/* out[i] = value (a literal), or (type)from[0] when from is not NULL, for
 * every element of Out. */
static int fill(EmitCtx *e, const Var *out, const char *value, const char *from) {
  const char *ptr = em_ptr(e, out, 0);
  fill_print_c(e->p, &(FillCall){.kind = FILL_VALUE, .type = em_ctype(out->dtype), .out = ptr,
                                 .n = em_numel(e, out), .value = value, .from = from});
  return 0;
}

/* The fill value of the op as a literal of Out's dtype; NULL after
 * em_fail(). */
static const char *fill_value(EmitCtx *e, const Var *out) {
  const char *s = attr_str(e->op, "str_value", "");
  double v = attr_float(e->op, "value", 0);
  if (!strcmp(s, "inf")) v = INFINITY;
  else if (!strcmp(s, "-inf")) v = -INFINITY;
  else if (!strcmp(s, "nan")) v = NAN;
  else if (*s) {
    char *end;
    v = strtod(s, &end);
    if (end == s || *end) {
      em_fail(e, "str_value '%s' is not a number", s);
      return NULL;
    }
  }
  const char *lit = tu_literal(out->dtype, v);
  if (!lit) em_fail(e, "value %g does not convert to %s", v, rt_dtype_name(out->dtype));
  return lit;
}

static int emit_fill_constant(EmitCtx *e) {
  Var *out = tu_out(e, "Out", 0);
  if (!out) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  if (tu_max_shaped(e, out) && tu_shape_extents(e, out)) return -1;
  if (!tu_max_shaped(e, out) && em_spec(e, out)->runtime_mask) { /* traced_fill: the extents of the tensors */
    Shape s;
    const Var *from[RT_MAX_RANK];
    int at[RT_MAX_RANK];
    SizeExpr x[RT_MAX_RANK];
    const int n = ctx_nin(&c, "ShapeTensorList");
    if (traced_shape(&c, n, &s, from, at)) {
      for (int i = 0; i < s.rank; i++)
        if (from[i])
          move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = em_dim(e, out, i), .src = em_dim(e, from[i], at[i])});
    } else if (expr_shape(&c, n, &s, x)) { /* expr_fill: the products of the extents */
      for (int i = 0; i < s.rank; i++) {
        if (!x[i].n) continue;
        if (em_spec(e, out)->d[i].a) /* its constant would be the batch of one probe */
          return em_fail(e, "ShapeTensorList entry %d multiplies the batch into the run's sizes, which is not "
                            "supported", i);
        move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = em_dim(e, out, i), .src = expr_text(e, &x[i])});
      }
    } else {
      return em_fail(e, "ShapeTensorList no longer traces to run-time extents");
    }
  }
  if (ctx_in(&c, "ValueTensor", 0)) {
    attr_superseded(e->op, "value"), attr_superseded(e->op, "str_value"); /* Paddle reads the tensor instead */
    Var *vt = tu_in(e, "ValueTensor", 0);
    return vt ? fill(e, out, NULL, em_ptr(e, vt, 1)) : -1;
  }
  const char *v = fill_value(e, out);
  return v ? fill(e, out, v, NULL) : -1;
}

/* phi's FullLikeKernel takes a value v (a double) that is infinite, NaN,
 * or, compared in float (CommonType: float for every Out dtype but
 * float64), within [lo, hi] of Out's type, and stores static_cast<T>(v);
 * it raises on any other.  An integer type also holds only the doubles in
 * (conv_lo, conv_hi) (C's conversion; past them Paddle's is undefined).
 * NULL for float64 (every value) and for the dtypes paddlec does not fill. */
typedef struct LikeRange {
  int dtype;
  double lo, hi;           /* Paddle's check, as floats */
  double conv_lo, conv_hi; /* an integer type's convertible range, open (int64's low end closed) */
} LikeRange;

static const LikeRange *like_range(int dtype) {
  static const LikeRange r[] = {
      {RT_DT_FP32, -3.40282347e+38, 3.40282347e+38, 0, 0},
      {RT_DT_BOOL, 0, 1, 0, 0},
      {RT_DT_UINT8, 0, 255, -1, 256},
      {RT_DT_INT8, -128, 127, -129, 128},
      {RT_DT_INT16, -32768, 32767, -32769, 32768},
      {RT_DT_INT32, -2147483648.0, 2147483648.0, -2147483649.0, 2147483648.0}, /* (float)INT32_MAX is 2^31 */
      {RT_DT_INT64, -9223372036854775808.0, 9223372036854775808.0, -9223372036854775808.0, 9223372036854775808.0},
  };
  for (size_t i = 0; i < sizeof r / sizeof r[0]; i++)
    if (r[i].dtype == dtype) return &r[i];
  return NULL;
}

/* The value v passes Paddle's check for Out's dtype. */
static int like_in_range(int dtype, double v) {
  const LikeRange *r = like_range(dtype);
  return !r || isinf(v) || isnan(v) || ((float)v >= (float)r->lo && (float)v <= (float)r->hi);
}

/* The run-time form: a C condition on the double v, NULL when every value
 * passes (float64). */
static const char *like_check(int dtype) {
  const LikeRange *r = like_range(dtype);
  if (!r) return NULL;
  const char *lo = dtype == RT_DT_FP32 ? "-3.40282347e+38f" : pool_printf("%.1ff", r->lo);
  const char *hi = dtype == RT_DT_FP32 ? "3.40282347e+38f" : pool_printf("%.1ff", r->hi);
  const char *paddle = pool_printf("(isinf(v) || isnan(v) || ((float)v >= %s && (float)v <= %s))", lo, hi);
  if (r->conv_lo == r->conv_hi) return paddle;
  return pool_printf("%s && v %s %.1f && v < %.1f", paddle, dtype == RT_DT_INT64 ? ">=" : ">", r->conv_lo, r->conv_hi);
}

/* fill_any_like: `value` a number, or a tensor passed as the attribute
 * (`paddle.full_like(x, x.mean())`: a VAR attribute) read when it runs, as
 * phi's Scalar reads one: its first element as a double. */
static int emit_fill_any_like(EmitCtx *e) {
  Var *out = tu_out(e, "Out", 0), *x = tu_in(e, "X", 0);
  if (!out || !x) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  const Var *t = ctx_attr_tensor(&c, "value");
  if (t || attr_is_var(e->op, "value")) {
    if (!t || shape_numel(&t->shape) != 1 || (t->dtype != RT_DT_FP64 && !like_range(t->dtype)))
      return em_fail(e, "value's tensor '%s' must be one number", t ? t->name : "?");
    if (out->dtype != RT_DT_FP64 && !like_range(out->dtype))
      return em_fail(e, "a value from a tensor filling %s is not supported", rt_dtype_name(out->dtype));
    const char *ptr = em_ptr(e, out, 0);
    fill_print_c(e->p, &(FillCall){.kind = FILL_VALUE, .type = em_ctype(out->dtype), .out = ptr,
                                   .n = em_numel(e, out), .from = em_ptr(e, t, 1),
                                   .check = like_check(out->dtype)});
    if (like_check(out->dtype))
      em_fault(e, pool_printf("value ('%s') is out of range for %s (Paddle raises)", t->name, rt_dtype_name(out->dtype)));
    return 0;
  }
  const double d = attr_float(e->op, "value", 0);
  if (!like_in_range(out->dtype, d))
    return em_fail(e, "value %g is out of range for %s (Paddle's kernel raises)", d, rt_dtype_name(out->dtype));
  const char *v = tu_literal(out->dtype, d);
  return v ? fill(e, out, v, NULL) : em_fail(e, "value does not convert to %s", rt_dtype_name(out->dtype));
}

static int emit_fill_zeros(EmitCtx *e) {
  Var *out = tu_out(e, "Out", 0);
  return out ? fill(e, out, tu_literal(out->dtype, 0), NULL) : -1;
}

const OpDef op_fill_any_like = {.type = "fill_any_like", .infer = infer_fill_any_like, .emit_c = emit_fill_any_like,
                                .runtime_extents = 2};
/* force_cpu: keep Out in host memory on a GPU place (fluid's LR counters
 * and scalars); every tensor of a CPU program already is there. */
static const char *const fill_attr_ignores[] = {"force_cpu", NULL};
/* An integer fill with no tensor inputs: n copies of the value. */
static void fold_fill_constant(OpCtx *c) {
  if (ctx_in(c, "ValueTensor", 0) || ctx_in(c, "ShapeTensor", 0) || ctx_in(c, "ShapeTensorList", 0)) return;
  Var *out = ctx_out(c, "Out", 0);
  int64_t n = out ? shape_numel(&out->shape) : -1, v[CONST_MAX];
  const char *sv = attr_str(c->op, "str_value", "");
  double d = *sv ? strtod(sv, NULL) : attr_float(c->op, "value", 0);
  if (n < 0 || n > CONST_MAX || !(d > -9e18 && d < 9e18)) return;
  for (int64_t i = 0; i < n; i++) v[i] = (int64_t)d;
  consteval_set(out, v, (int)n, consteval_all_known((int)n));
}

const OpDef op_fill_constant = {.type = "fill_constant", .infer = infer_fill_constant, .emit_c = emit_fill_constant,
                                .fold = fold_fill_constant, .attr_ignores = fill_attr_ignores, .max_shape = 1};
const OpDef op_fill_constant_batch_size_like = {.type = "fill_constant_batch_size_like",
                                                .infer = infer_fill_batch_like, .emit_c = emit_fill_constant,
                                                .attr_ignores = fill_attr_ignores};
/* empty: Out of `shape` / ShapeTensor / ShapeTensorList (fill_constant's
 * rule) and `dtype`, its values unspecified (Paddle leaves the memory as it
 * finds it): zeros here, so that a run is deterministic. */
static int emit_empty(EmitCtx *e) {
  Var *out = tu_out(e, "Out", 0);
  if (!out || (tu_max_shaped(e, out) && tu_shape_extents(e, out))) return -1;
  const char *zero = tu_literal(out->dtype, 0);
  return zero ? fill(e, out, zero, NULL) : em_fail(e, "empty of %s is not supported", rt_dtype_name(out->dtype));
}

const OpDef op_empty = {.type = "empty", .infer = infer_fill_constant, .emit_c = emit_empty, .max_shape = 1};
const OpDef op_fill_zeros_like = {.type = "fill_zeros_like", .infer = infer_fill_zeros_like, .emit_c = emit_fill_zeros};
const OpDef op_fill_zeros_like2 = {.type = "fill_zeros_like2", .infer = infer_fill_zeros_like2,
                                   .emit_c = emit_fill_zeros};

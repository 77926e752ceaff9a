/* bincount (paddle.bincount): X, Weights? -> Out; minlength:INT=0 (a
 * tensor's value too: paddle.bincount(x, minlength=t)).
 * Shape rule (phi BincountInferMeta): X is 1-D of int32 or int64, Weights
 * (when given) X's shape; Out is 1-D of X's largest value plus one, at
 * least minlength: a size only the run knows, so Out takes a --max-shape
 * bound (ctx_max_shape), and without one the build is refused naming the
 * option.  Out's dtype, as phi BincountKernel allocates it: int64 without
 * Weights, float32 with float32 Weights, float64 with any other (float64,
 * int32, int64: the counts of integer weights are doubles, measured on
 * 2.6.2).
 * Emission (IndexCall): the size found by a scan of X (a negative value
 * stops the run: Paddle raises), checked against the bound and written as
 * Out's extent; Out zeroed, then each value's count, or its weights' sum
 * in X's order, in Out's type.  X of the run's length is read whole. */
#include "../util.h"
#include "index_call.h"
#include "ops.h"
#include "tensor_util.h"

/* minlength: the attribute, or the value of the tensor holding it where
 * the compiler knows it; -1 after ctx_fail (a value only the run knows:
 * only with `known`, as the shape rule may run before the compiler knows
 * the value; Out's shape does not depend on it). */
static int minlength(OpCtx *c, int known, int64_t *ml) {
  if (ctx_attr_int(c, "minlength", 0, ml)) {
    *ml = 0;
    return known ? ctx_fail(c, "minlength is held in a tensor whose value only the run knows, which is not "
                               "supported") : 0;
  }
  return *ml < 0 ? ctx_fail(c, "minlength %lld is negative (Paddle raises)", (long long)*ml) : 0;
}

/* Out's dtype for Weights w (NULL: none). */
static int out_dtype(const Var *w) { return !w ? RT_DT_INT64 : w->dtype == RT_DT_FP32 ? RT_DT_FP32 : RT_DT_FP64; }

static int infer_bincount(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *w = ctx_in(c, "Weights", 0);
  int64_t ml;
  if (!x) return -1;
  if (x->dtype != RT_DT_INT32 && x->dtype != RT_DT_INT64)
    return ctx_fail(c, "X ('%s') is %s; bincount counts int32 or int64 values", x->name, rt_dtype_name(x->dtype));
  if (x->shape.rank != 1) return ctx_fail(c, "X %s must be 1-D", shape_str(&x->shape));
  if (w && (w->shape.rank != 1 || (w->shape.d[0] >= 0 && x->shape.d[0] >= 0 && w->shape.d[0] != x->shape.d[0])))
    return ctx_fail(c, "Weights %s must have X's shape %s", shape_str(&w->shape), shape_str(&x->shape));
  if (w && w->dtype != RT_DT_FP32 && w->dtype != RT_DT_FP64 && w->dtype != RT_DT_INT32 && w->dtype != RT_DT_INT64)
    return ctx_fail(c, "Weights ('%s') is %s; Paddle's kernel takes float32, float64, int32 or int64", w->name,
                    rt_dtype_name(w->dtype));
  if (minlength(c, 0, &ml)) return -1;
  const int b = ctx_max_shape(c, "Out", 0, 1, out_dtype(w), "X's largest value");
  if (b) return b < 0 ? -1 : 0;
  const Shape s = {1, {DIM_UNKNOWN}};
  ctx_set(c, "Out", 0, &s, out_dtype(w));
  return 0;
}

static int emit_bincount(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X", 0), *w = ctx_in(&c, "Weights", 0), *out = tu_out(e, "Out", 0);
  int64_t ml;
  if (!x || !out || minlength(&c, 1, &ml)) return -1;
  if (!tu_max_shaped(e, out)) return em_fail(e, "Out's size is the run's: bound it with --max-shape");
  if (out->dtype != out_dtype(w)) return em_fail(e, "Out must be %s", rt_dtype_name(out_dtype(w)));
  const char *count = em_numel(e, x);
  index_print_c(e->p, &(IndexCall){.kind = INDEX_BINCOUNT_SIZE, .index_type = em_ctype(x->dtype),
                                   .index = em_ptr(e, x, 1), .count = count,
                                   .depth = pool_printf("%lld", (long long)ml)});
  tu_set_extents(e, out, (const char *const[]){"size"}, 1,
                 pool_printf("X's largest value plus one past --max-shape %s, or a negative value (Paddle raises)",
                             shape_str(&out->shape)));
  index_print_c(e->p, &(IndexCall){.kind = INDEX_BINCOUNT, .type = em_ctype(out->dtype), .dst = em_ptr(e, out, 0),
                                   .src = w ? em_ptr(e, w, 1) : NULL, .wtype = w ? em_ctype(w->dtype) : NULL,
                                   .numel = em_numel(e, out), .count = count});
  return 0;
}

const OpDef op_bincount = {.type = "bincount", .infer = infer_bincount, .emit_c = emit_bincount, .max_shape = 1,
                           .runtime_extents = 2};

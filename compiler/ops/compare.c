/* Comparison ops: less_than, less_equal, greater_than, greater_equal, equal,
 * not_equal.
 *   inputs:  X, Y
 *   outputs: Out (bool)
 *   attrs:   axis:INT=-1 (never used for the shape: Paddle's compile-time
 *            rule always aligns the trailing dims), force_cpu:BOOLEAN=false
 *            (legacy, placement only)
 * Dims known only at run time pass to Out as for elementwise ops
 * (binary_pass_extents, right-aligned).
 * Shape rule (phi CompareRawInferMeta, fluid compare_op since 1.8): equal
 * shapes pass through; otherwise numpy-style right-aligned broadcasting where
 * a pair gives max(a, b) when either is > 1 or both are 1, else -1.
 * Emission: ew_binary with the C comparison; equal / not_equal on floating
 * types follow phi's EqualFunctor: with an infinity the values must be
 * equal, otherwise |a - b| < 1e-8 (so NaN is never equal).
 *
 * equal_all: X, Y -> Out, one bool (phi CompareAllInferMeta: [] from Paddle
 * 2.5 on, [1] before): false when the dims differ, else whether equal holds
 * for every element (phi EqualAllKernel with EqualFunctor). */
#include <string.h>

#include "../emit_ew.h"
#include "../util.h"
#include "flat_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_compare(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  Shape out;
  if (shape_broadcast(c, &x->shape, &y->shape, -1, &out)) return -1; /* right-aligned */
  ctx_set(c, "Out", 0, &out, RT_DT_BOOL);
  return binary_pass_extents(c, x, y, -1);
}

static int emit_compare(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *y = tu_in(e, "Y", 0), *out = tu_out(e, "Out", 0);
  if (!x || !y || !out) return -1;
  static const struct {
    const char *type, *expr;
  } ops[] = {{"less_than", "a < b"}, {"less_equal", "a <= b"}, {"greater_than", "a > b"},
             {"greater_equal", "a >= b"}, {"equal", "a == b"}, {"not_equal", "a != b"}};
  const char *expr = NULL;
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (!strcmp(ops[i].type, e->op->type)) expr = ops[i].expr;
  int fp = x->dtype == RT_DT_FP32 || x->dtype == RT_DT_FP64;
  const char *near = "(isinf(a) || isinf(b)) ? a == b : fabs((double)(a - b)) < 1e-8";
  if (fp && !strcmp(e->op->type, "equal")) expr = near;
  if (fp && !strcmp(e->op->type, "not_equal")) expr = pool_printf("!(%s)", near);
  if (!expr) return em_fail(e, "unknown comparison");
  binary_write_extents(e, x, y, out, -1); /* the loop runs over the run's extents */
  return ew_binary(e, x, y, out, attr_int(e->op, "axis", -1), expr);
}

/* force_cpu: where the result lives on a GPU place (kept in host memory);
 * every tensor of a CPU program already is there. */
static const char *const compare_attr_ignores[] = {"force_cpu", NULL};
#define OP_COMPARE(name)                                                                 \
  const OpDef op_##name = {.type = #name, .infer = infer_compare, .emit_c = emit_compare, \
                           .attr_ignores = compare_attr_ignores, .runtime_extents = 2};
OP_COMPARE(equal)
OP_COMPARE(greater_equal)
OP_COMPARE(greater_than)
OP_COMPARE(less_equal)
OP_COMPARE(less_than)
OP_COMPARE(not_equal)

static int infer_equal_all(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  Shape out = shape_scalar(c);
  ctx_set(c, "Out", 0, &out, RT_DT_BOOL);
  return 0;
}

static int emit_equal_all(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *y = tu_in(e, "Y", 0), *out = tu_out(e, "Out", 0);
  if (!x || !y || !out) return -1;
  if (x->dtype != y->dtype) return em_fail(e, "X is %s but Y is %s", rt_dtype_name(x->dtype), rt_dtype_name(y->dtype));
  const char *same = "1";
  if (x->shape.rank != y->shape.rank) same = "0";
  for (int d = 0; d < x->shape.rank && x->shape.rank == y->shape.rank; d++) {
    const char *a = em_dim(e, x, d), *b = em_dim(e, y, d);
    if (strcmp(a, b)) same = pool_printf("%s && %s == %s", same, a, b); /* equal expressions: the same dim */
  }
  FlatCall call = {.kind = FLAT_EQUAL_ALL, .dtype = x->dtype, .same = same};
  call.x = em_ptr(e, x, 1);
  call.y = em_ptr(e, y, 1);
  call.numel = em_numel(e, x);
  call.out = em_ptr(e, out, 0);
  flat_print_c(e->p, &call);
  return 0;
}

const OpDef op_equal_all = {.type = "equal_all", .infer = infer_equal_all, .emit_c = emit_equal_all};

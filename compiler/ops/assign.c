/* assign, assign_value, share_data, rnn_memory_helper.
 *   assign: X -> Out, a copy (X's dims and dtype).  A LoDTensorArray X has
 *     no shape to give.
 *   assign_value: -> Out; shape:INTS, dtype:INT=5, and the data in one of
 *     bool_values:INTS, fp32_values:FLOATS, int32_values:INTS,
 *     int64_values:LONGS (2.6+: values:SCALARS).  Out = shape, dtype.
 *   share_data: X -> Out, X's dims and dtype.
 *   rnn_memory_helper: X -> Out, X's dims and dtype (1.x StaticRNN writes it
 *     for its memories and step outputs; RNNMemoryHelperOp shares X's data
 *     and LoD); dtype:INT=5, which only its grad reads.  Paddle 2.6 no
 *     longer registers it: its cases are checked with assign's numbers
 *     (tests/oracle/e2e_recurrent.py).
 * Emission: assign and share_data copy X; assign_value stores its values
 * from a static array (the attribute that matches `dtype`, or the 2.6+
 * `values`), which must hold exactly numel(Out) of them. */
#include <string.h>

#include "../consteval.h"
#include "../util.h"
#include "fill_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_assign(OpCtx *c) {
  Var *x = ctx_in(c, "X", 0);
  if (x && x->vtype == VT_LOD_TENSOR_ARRAY) return 0;
  x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  if (!strcmp(c->op->type, "assign")) ctx_pass_runtime_extent(c, x, "Out", 0); /* a copy: X's run-time extents */
  return 0;
}

static int infer_assign_value(OpCtx *c) {
  int64_t *v;
  int n = attr_ints(c->op, "shape", &v);
  if (n > RT_MAX_RANK) return ctx_fail(c, "attribute shape has %d dims", n);
  Shape s = shape_make(n, v);
  ctx_set(c, "Out", 0, &s, (int)attr_int(c->op, "dtype", RT_DT_FP32));
  return 0;
}

static int emit_assign(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  return tu_copy(e, x, out);
}

/* The values of assign_value as C literals of dtype dt, in *lits; their
 * count, or -1 after em_fail(). */
static int value_literals(EmitCtx *e, int dt, const char ***lits) {
  const char *name = dt == RT_DT_BOOL    ? "bool_values"
                     : dt == RT_DT_FP32  ? "fp32_values"
                     : dt == RT_DT_INT32 ? "int32_values"
                     : dt == RT_DT_INT64 ? "int64_values"
                     : dt == RT_DT_FP64  ? "fp64_values"
                                         : NULL;
  if (!name) return em_fail(e, "dtype %s is not supported", rt_dtype_name(dt));
  if (!attr_has(e->op, name)) name = "values";
  int is_float = dt == RT_DT_FP32 || dt == RT_DT_FP64;
  int64_t *iv = NULL;
  double *fv = NULL;
  int n = is_float ? attr_floats(e->op, name, &fv) : attr_ints(e->op, name, &iv);
  *lits = pool_alloc(sizeof **lits * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) {
    if (is_float) (*lits)[i] = tu_literal(dt, fv[i]);
    else if (dt == RT_DT_BOOL) (*lits)[i] = iv[i] ? "true" : "false";
    else if (dt == RT_DT_INT32) (*lits)[i] = pool_printf("%d", (int32_t)iv[i]);
    else (*lits)[i] = iv[i] == INT64_MIN ? "INT64_MIN" : pool_printf("INT64_C(%lld)", (long long)iv[i]);
  }
  return n;
}

static int emit_assign_value(EmitCtx *e) {
  Var *out = tu_out(e, "Out", 0);
  if (!out) return -1;
  const char **lits = NULL;
  int n = value_literals(e, out->dtype, &lits);
  if (n < 0) return -1;
  SymDim ne = spec_numel(em_spec(e, out));
  if (ne.a != 0 || ne.c != n) return em_fail(e, "%d values for Out of %s elements", n, em_numel(e, out));
  if (n == 0) return 0;
  fill_print_c(e->p, &(FillCall){.kind = FILL_VALUES, .type = em_ctype(out->dtype), .values = lits, .nvalues = n,
                                 .out = em_ptr(e, out, 0)});
  return 0;
}

static void fold_assign_value(OpCtx *c) {
  int64_t *iv;
  int n = attr_ints(c->op, "int32_values", &iv);
  if (!n) n = attr_ints(c->op, "int64_values", &iv);
  if (n > 0 && n <= CONST_MAX) consteval_set(ctx_out(c, "Out", 0), iv, n, consteval_all_known(n));
}

const OpDef op_assign = {.type = "assign", .infer = infer_assign, .emit_c = emit_assign, .fold = consteval_fold_copy,
                         .inplace = "X:Out", .runtime_extents = 2};
const OpDef op_assign_value = {
    .type = "assign_value", .infer = infer_assign_value, .emit_c = emit_assign_value, .fold = fold_assign_value};
const OpDef op_share_data = {.type = "share_data", .infer = infer_assign, .emit_c = emit_assign};
/* dtype: the type of the zeros rnn_memory_helper_grad makes when no grad
 * reaches Out; the forward shares X as it is. */
static const char *const rnn_memory_helper_attr_ignores[] = {"dtype", NULL};
const OpDef op_rnn_memory_helper = {.type = "rnn_memory_helper", .infer = infer_assign, .emit_c = emit_assign,
                                    .fold = consteval_fold_copy,
                                    .attr_ignores = rnn_memory_helper_attr_ignores};

/* eye: no inputs -> Out; num_rows:LONG, num_columns:LONG=-1 (= num_rows),
 * dtype:INT=5 (float32).  Either count may be a tensor (a VAR attribute in
 * 2.5+ files), unknown at compile time.
 * Shape rule (phi EyeInferMeta): Out = [num_rows, num_columns] of `dtype`.
 * A count from a tensor the compiler knows the value of is that value;
 * one only the run knows, from a feed, takes a --max-shape bound for Out:
 * the kernel reads it (num_columns -1 taking num_rows, as phi's EyeKernel)
 * and stops on a negative count or one past the bound.
 * Emission: zeros with ones on the main diagonal, from Out's dims. */
#include "../util.h"
#include "fill_call.h"
#include "ops.h"
#include "tensor_util.h"

/* A count: the attribute's, a tensor's value the compiler knows, or
 * DIM_UNKNOWN; *run set when the tensor is a feed only the run knows. */
static int64_t eye_count(const OpCtx *c, const char *name, int *run) {
  if (!attr_is_var(c->op, name)) return attr_int(c->op, name, -1);
  Var *t = ctx_attr_tensor(c, name);
  int64_t v;
  if (t && ctx_int_values(c, t, &v, 1) == 1) return v;
  if (t && (t->flags & VAR_FEED) && shape_numel(&t->shape) == 1) *run = 1;
  else *run = -1; /* a tensor other ops write: not read at run time here */
  return DIM_UNKNOWN;
}

static int infer_eye(OpCtx *c) {
  int run_rows = 0, run_cols = 0;
  int64_t rows = eye_count(c, "num_rows", &run_rows), cols = eye_count(c, "num_columns", &run_cols);
  if (cols == -1 && !run_cols) cols = rows;
  if (c->g->specializing && (run_rows < 0 || run_cols < 0)) /* no edge orders eye after the tensor's writer */
    return ctx_fail(c, "%s comes from a tensor another op writes, whose value only the run knows; eye takes a "
                    "count from a feed, or one the compiler knows", run_rows < 0 ? "num_rows" : "num_columns");
  if ((run_rows || run_cols) && run_rows >= 0 && run_cols >= 0) { /* the run's counts, within a bound? */
    int b = ctx_max_shape(c, "Out", 0, 2, (int)attr_int(c->op, "dtype", RT_DT_FP32), "num_rows' tensor's value");
    if (b) return b < 0 ? -1 : 0;
  }
  if (rows < DIM_UNKNOWN || cols < DIM_UNKNOWN)
    return ctx_fail(c, "num_rows %lld and num_columns %lld must not be negative", (long long)rows, (long long)cols);
  Shape s = {2, {rows, cols}};
  ctx_set(c, "Out", 0, &s, (int)attr_int(c->op, "dtype", RT_DT_FP32));
  return 0;
}

/* A count the run gives, as C: the tensor's value, or the attribute's. */
static const char *run_count(EmitCtx *e, const char *name) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *t = ctx_attr_tensor(&c, name);
  if (!t) return pool_printf("INT64_C(%lld)", (long long)attr_int(e->op, name, -1));
  if (t->dtype != RT_DT_INT32 && t->dtype != RT_DT_INT64) {
    em_fail(e, "%s's tensor '%s' is %s (int32 or int64)", name, t->name, rt_dtype_name(t->dtype));
    return NULL;
  }
  return pool_printf("(int64_t)%s[0]", em_ptr(e, t, 1));
}

static int emit_eye(EmitCtx *e) {
  Var *out = tu_out(e, "Out", 0);
  if (!out) return -1;
  if (tu_max_shaped(e, out)) {
    const char *rows = run_count(e, "num_rows"), *cols = run_count(e, "num_columns");
    if (!rows || !cols) return -1;
    pr_line(e->p, "/* the counts Paddle's kernel takes when it runs (num_columns -1: num_rows) */");
    pr_line(e->p, "const int64_t num_rows = %s, num_columns = %s;", rows, cols);
    tu_set_extents(e, out, (const char *[]){"num_rows", "num_columns == -1 ? num_rows : num_columns"}, 2,
                   pool_printf("a negative count, or Out past --max-shape %s", shape_str(&out->shape)));
  }
  const char *ptr = em_ptr(e, out, 0); /* Out is 2-D: infer_eye */
  fill_print_c(e->p, &(FillCall){.kind = FILL_EYE, .type = em_ctype(out->dtype), .out = ptr,
                                 .rows = em_dim(e, out, 0), .cols = em_dim(e, out, 1),
                                 .zero = tu_literal(out->dtype, 0), .one = tu_literal(out->dtype, 1)});
  return 0;
}

const OpDef op_eye = {.type = "eye", .infer = infer_eye, .emit_c = emit_eye, .max_shape = 1};

/* tril_indices (paddle.tril_indices): -> out; rows:INT, cols:INT,
 * offset:INT=0, dtype:INT=3.  triu_indices (paddle.triu_indices): -> out;
 * row:INT, col:INT, offset:INT=0, dtype:INT=3.
 * Shape rule (phi TrilIndicesInferMeta, TriuIndicesInferMeta): out is
 * [2, n], n the entries (r, c) of a rows x cols matrix with c <= r + offset
 * (lower) or c >= r + offset (upper), counted here row by row; rows and
 * cols must not be negative.  Paddle's kernels take int32 and int64.
 * Emission: FILL_TRI_INDICES, the entries' rows then their columns in
 * row-major order, as the kernels walk them. */
#include <string.h>

#include "../util.h"
#include "fill_call.h"
#include "ops.h"
#include "tensor_util.h"

typedef struct Tri {
  int64_t rows, cols, offset;
  int upper;
} Tri;

static Tri tri_of(const Op *op) {
  const int upper = !strcmp(op->type, "triu_indices");
  return (Tri){attr_int(op, upper ? "row" : "rows", 0), attr_int(op, upper ? "col" : "cols", 0),
               attr_int(op, "offset", 0), upper};
}

/* The triangle's entries, row by row. */
static int64_t tri_count(Tri t) {
  int64_t n = 0;
  for (int64_t r = 0; r < t.rows; r++) {
    const int64_t lo = t.upper ? (r + t.offset > 0 ? r + t.offset : 0) : 0;
    const int64_t hi = t.upper ? t.cols : (r + t.offset + 1 < t.cols ? r + t.offset + 1 : t.cols);
    n += hi > lo ? hi - lo : 0;
  }
  return n;
}

static int infer_tri_indices(OpCtx *c) {
  const Tri t = tri_of(c->op);
  const int dt = (int)attr_int(c->op, "dtype", RT_DT_INT64);
  if (t.rows < 0 || t.cols < 0)
    return ctx_fail(c, "the matrix %lld x %lld must not have negative sides", (long long)t.rows, (long long)t.cols);
  if (dt != RT_DT_INT32 && dt != RT_DT_INT64)
    return ctx_fail(c, "dtype %s: Paddle's kernels write int32 or int64", rt_dtype_name(dt));
  const Shape s = {2, {2, tri_count(t)}};
  ctx_set(c, "out", 0, &s, dt);
  return 0;
}

static int emit_tri_indices(EmitCtx *e) {
  Var *out = tu_out(e, "out", 0);
  if (!out) return -1;
  const Tri t = tri_of(e->op);
  fill_print_c(e->p, &(FillCall){.kind = FILL_TRI_INDICES, .type = em_ctype(out->dtype), .out = em_ptr(e, out, 0),
                                 .n = em_dim(e, out, 1), .rows = pool_printf("%lld", (long long)t.rows),
                                 .cols = pool_printf("%lld", (long long)t.cols), .offset = (long long)t.offset,
                                 .upper = t.upper});
  return 0;
}

const OpDef op_tril_indices = {.type = "tril_indices", .infer = infer_tri_indices, .emit_c = emit_tri_indices};
const OpDef op_triu_indices = {.type = "triu_indices", .infer = infer_tri_indices, .emit_c = emit_tri_indices};

/* cumprod: X -> Out (X's dims and dtype); dim:INT (no default).
 * Shape rule (phi UnchangedInferMetaCheckAxis): dim in [-rank, rank) (0 or
 * -1 for a 0-D X).
 * Emission: along `dim`, Out[j] = Out[j - 1] * X[j] in X's type, the first
 * element copied (phi CumprodKernel's order of products). */
#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_cumprod(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t dim = attr_int(c->op, "dim", -1);
  int r = x->shape.rank;
  if (r > 0 ? dim < -r || dim >= r : dim != 0 && dim != -1)
    return ctx_fail(c, "dim %lld is out of range for X %s", (long long)dim, shape_str(&x->shape));
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  return 0;
}

static int emit_cumprod(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (x->dtype != out->dtype || x->dtype == RT_DT_BOOL)
    return em_fail(e, "cumprod of %s tensors is not supported", rt_dtype_name(x->dtype));
  int r = tu_rank(e, x);
  if (r == 0) return tu_copy(e, x, out);
  int dim = axis_norm(attr_int(e->op, "dim", -1), r);
  if (dim < 0) return em_fail(e, "dim is out of range");
  const char *t = em_ctype(x->dtype);
  pr_line(e->p, "const %s *x = %s;", t, em_ptr(e, x, 1));
  pr_line(e->p, "%s *out = %s;", t, em_ptr(e, out, 0));
  pr_line(e->p, "const int64_t n = %s, inner = %s;", em_dim(e, x, dim), em_prod(e, x, dim + 1, r));
  pr_line(e->p, "for (int64_t i = 0; i < %s; i++) {", em_prod(e, x, 0, dim));
  pr_line(e->p, "for (int64_t j = 0; j < n; j++) {");
  pr_line(e->p, "for (int64_t k = 0; k < inner; k++) {");
  pr_line(e->p, "const int64_t at = (i * n + j) * inner + k;");
  pr_line(e->p, "out[at] = j == 0 ? x[at] : out[at - inner] * x[at];");
  pr_line(e->p, "}");
  pr_line(e->p, "}");
  pr_line(e->p, "}");
  return 0;
}

const OpDef op_cumprod = {.type = "cumprod", .infer = infer_cumprod, .emit_c = emit_cumprod};

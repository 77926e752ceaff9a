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

/* cumprod_grad: X, Out, Out@GRAD -> X@GRAD (X's shape); dim.  phi
 * CumprodGradKernel's direct sum, in the element type, for each element j
 * of a line along `dim` (positions n = j .. len-1 in order):
 *   dX[j] = sum over n >= j of (j == 0 ? dOut[n] : dOut[n] * Out[j - 1])
 *           * X[j + 1] * ... * X[n]   (multiplied left to right)
 * which stays exact where X holds zeros.  A 0-D X: dX = dOut.
 * float32, float64, int32, int64 (Paddle's kernels). */
static int emit_cumprod_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_in(e, "Out", 0), *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !out || !dout || !dx) return -1;
  Var *const all[3] = {out, dout, dx};
  for (int k = 0; k < 3; k++)
    if (all[k]->dtype != x->dtype || !(x->dtype == RT_DT_FP32 || x->dtype == RT_DT_FP64 ||
                                       x->dtype == RT_DT_INT32 || x->dtype == RT_DT_INT64))
      return em_fail(e, "cumprod_grad of %s tensors is not supported", rt_dtype_name(all[k]->dtype));
  int r = tu_rank(e, x);
  int64_t d = attr_int(e->op, "dim", -1);
  int dim = r ? axis_norm(d, r) : d == 0 || d == -1 ? 0 : -1;
  if (dim < 0) return em_fail(e, "dim is out of range");
  if (r == 0) return tu_copy(e, dout, dx);
  const char *t = em_ctype(x->dtype);
  pr_line(e->p, "const %s *x = %s;", t, em_ptr(e, x, 1));
  pr_line(e->p, "const %s *out = %s;", t, em_ptr(e, out, 1));
  pr_line(e->p, "const %s *dout = %s;", t, em_ptr(e, dout, 1));
  pr_line(e->p, "%s *dx = %s;", t, em_ptr(e, dx, 0));
  pr_line(e->p, "const int64_t len = %s, inner = %s;", em_dim(e, x, dim), em_prod(e, x, dim + 1, r));
  pr_line(e->p, "for (int64_t i = 0; i < %s; i++) {", em_prod(e, x, 0, dim));
  pr_line(e->p, "for (int64_t k = 0; k < inner; k++) {");
  pr_line(e->p, "const int64_t line = i * len * inner + k;");
  pr_line(e->p, "for (int64_t j = 0; j < len; j++) {");
  pr_line(e->p, "const int64_t at = line + j * inner;");
  pr_line(e->p, "%s acc = 0;", t);
  pr_line(e->p, "for (int64_t n = j; n < len; n++) {");
  pr_line(e->p, "%s elem = j == 0 ? dout[line + n * inner] : dout[line + n * inner] * out[at - inner];", t);
  pr_line(e->p, "for (int64_t m = j + 1; m <= n; m++) elem *= x[line + m * inner];");
  pr_line(e->p, "acc += elem;");
  pr_line(e->p, "}");
  pr_line(e->p, "dx[at] = acc;");
  pr_line(e->p, "}");
  pr_line(e->p, "}");
  pr_line(e->p, "}");
  return 0;
}

const OpDef op_cumprod_grad = {.type = "cumprod_grad", .infer = grad_infer, .emit_c = emit_cumprod_grad};

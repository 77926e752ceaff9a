/* cross (paddle.cross): X, Y -> Out; dim:INT=9 (DDim::kMaxRank: the first
 * dim of size 3).
 * Shape rule (phi CrossInferMeta): X and Y have the same dims; an explicit
 * dim is in [-rank, rank) and both have 3 there; Out is X.
 * Emission (float32/64, int32/64): phi CrossKernel, with X viewed as
 * [outer, 3, slice] around the dim:
 *   out[i, j, k] = x[i, j+1, k] * y[i, j+2, k] - x[i, j+2, k] * y[i, j+1, k]
 * (indices mod 3).  With the default dim the kernel takes the first dim
 * equal to 3 at run time, which can be the batch: when a dim that depends
 * on the batch comes before the first constant 3, the generated code
 * searches the dims as the kernel does. */
#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

enum { CROSS_FIRST_3 = 9 }; /* Paddle's DDim::kMaxRank */

static int infer_cross(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  const Shape *xs = &x->shape, *ys = &y->shape;
  int same = xs->rank == ys->rank;
  for (int i = 0; same && i < xs->rank; i++)
    same = xs->d[i] == ys->d[i] || xs->d[i] == DIM_UNKNOWN || ys->d[i] == DIM_UNKNOWN;
  if (!same) return ctx_fail(c, "X %s and Y %s must have the same shape", shape_str(xs), shape_str(ys));
  int64_t dim = attr_int(c->op, "dim", CROSS_FIRST_3);
  if (dim != CROSS_FIRST_3) {
    int a = axis_norm(dim, xs->rank);
    if (a < 0) return ctx_fail(c, "dim %lld is out of range for X %s", (long long)dim, shape_str(xs));
    if ((xs->d[a] >= 0 && xs->d[a] != 3) || (ys->d[a] >= 0 && ys->d[a] != 3))
      return ctx_fail(c, "X %s and Y %s must have 3 in dim %d", shape_str(xs), shape_str(ys), a);
  }
  ctx_set(c, "Out", 0, xs, x->dtype);
  return 0;
}

/* Declares `outer` and `slice`: X (and Y, of the same dims) viewed as
 * [outer, 3, slice] around the cross dim, searched for at run time when a
 * batch-dependent dim comes before the first constant 3.  -1 after em_fail. */
static int cross_view(EmitCtx *e, const Var *x, const Var *y) {
  int r = tu_rank(e, x), axis = -1, search = 0;
  for (int i = 0; i < r; i++) {
    SymDim a = em_spec(e, x)->d[i], b = em_spec(e, y)->d[i];
    if (a.a != b.a || a.c != b.c) return em_fail(e, "X and Y differ in dim %d", i);
  }
  int64_t dim = attr_int(e->op, "dim", CROSS_FIRST_3);
  if (dim != CROSS_FIRST_3) {
    axis = axis_norm(dim, r);
    if (axis < 0 || em_const_dim(e, x, axis) != 3) return em_fail(e, "dim %lld is not a dim of size 3", (long long)dim);
  } else {
    for (int i = 0; i < r && axis < 0; i++) {
      if (em_const_dim(e, x, i) == 3) axis = i;
      else if (em_const_dim(e, x, i) < 0) search = 1; /* the batch may be 3 */
    }
    if (axis < 0) return em_fail(e, "X has no dim of size 3 known at compile time");
  }
  if (search) {
    const char *dims = "";
    for (int i = 0; i <= axis; i++) dims = pool_printf("%s%s%s", dims, i ? ", " : "", em_dim(e, x, i));
    pr_line(e->p, "/* the first dim of size 3, as Paddle's kernel looks for it at run time */");
    pr_line(e->p, "const int64_t dims[%d] = {%s};", axis + 1, dims);
    pr_line(e->p, "int axis = 0;");
    pr_line(e->p, "while (dims[axis] != 3) axis++;");
    pr_line(e->p, "int64_t outer = 1;");
    pr_line(e->p, "for (int d = 0; d < axis; d++) outer *= dims[d];");
    pr_line(e->p, "const int64_t slice = %s / (outer * 3);", em_numel(e, x));
  } else {
    pr_line(e->p, "const int64_t outer = %s, slice = %s;", em_prod(e, x, 0, axis), em_prod(e, x, axis + 1, r));
  }
  return 0;
}

static int emit_cross(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *y = tu_in(e, "Y", 0), *out = tu_out(e, "Out", 0);
  if (!x || !y || !out) return -1;
  if (y->dtype != x->dtype || out->dtype != x->dtype || x->dtype == RT_DT_BOOL)
    return em_fail(e, "cross of %s and %s into %s is not supported", rt_dtype_name(x->dtype), rt_dtype_name(y->dtype),
                   rt_dtype_name(out->dtype));
  if (x == out || y == out) return em_fail(e, "Out is an input (an in-place cross), which is not supported");
  const char *t = em_ctype(x->dtype);
  pr_line(e->p, "const %s *x = %s;", t, em_ptr(e, x, 1));
  pr_line(e->p, "const %s *y = %s;", t, em_ptr(e, y, 1));
  pr_line(e->p, "%s *out = %s;", t, em_ptr(e, out, 0));
  if (cross_view(e, x, y)) return -1;
  pr_line(e->p, "for (int64_t i = 0; i < outer; i++) {");
  pr_line(e->p, "for (int j = 0; j < 3; j++) {");
  pr_line(e->p, "const int64_t dst = (3 * i + j) * slice, p1 = (3 * i + (j + 1) %% 3) * slice,");
  pr_line(e->p, "              p2 = (3 * i + (j + 2) %% 3) * slice;");
  pr_line(e->p, "for (int64_t k = 0; k < slice; k++) out[dst + k] = x[p1 + k] * y[p2 + k] - x[p2 + k] * y[p1 + k];");
  pr_line(e->p, "}");
  pr_line(e->p, "}");
  return 0;
}

const OpDef op_cross = {.type = "cross", .infer = infer_cross, .emit_c = emit_cross};

/* cross_grad: X, Y, Out@GRAD -> X@GRAD, Y@GRAD (each optional); dim.
 * phi CrossGradKernel, over the same [outer, 3, slice] view (j + 1 and
 * j + 2 taken mod 3):
 *   dX[j] = dOut[j+2] * Y[j+1] - dOut[j+1] * Y[j+2]
 *   dY[j] = dOut[j+1] * X[j+2] - dOut[j+2] * X[j+1]
 * each product rounded before the difference.  float32, float64, int32,
 * int64. */
static int emit_cross_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X", 0), *y = tu_in(e, "Y", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *dy = ctx_out(&c, "Y@GRAD", 0);
  if (!x || !y || !dout) return -1;
  Var *const all[5] = {x, y, dout, dx, dy};
  for (int k = 0; k < 5; k++)
    if (all[k] && (all[k]->dtype != x->dtype || x->dtype == RT_DT_BOOL))
      return em_fail(e, "cross_grad of %s tensors is not supported", rt_dtype_name(all[k]->dtype));
  const char *t = em_ctype(x->dtype);
  pr_line(e->p, "const %s *dout = %s;", t, em_ptr(e, dout, 1));
  if (dx) pr_line(e->p, "const %s *y = %s;", t, em_ptr(e, y, 1));
  if (dy) pr_line(e->p, "const %s *x = %s;", t, em_ptr(e, x, 1));
  if (dx) pr_line(e->p, "%s *dx = %s;", t, em_ptr(e, dx, 0));
  if (dy) pr_line(e->p, "%s *dy = %s;", t, em_ptr(e, dy, 0));
  if (cross_view(e, x, y)) return -1;
  pr_line(e->p, "for (int64_t i = 0; i < outer; i++) {");
  pr_line(e->p, "for (int j = 0; j < 3; j++) {");
  pr_line(e->p, "const int64_t dst = (3 * i + j) * slice, p1 = (3 * i + (j + 1) %% 3) * slice,");
  pr_line(e->p, "              p2 = (3 * i + (j + 2) %% 3) * slice;");
  pr_line(e->p, "for (int64_t k = 0; k < slice; k++) {");
  if (dx) {
    pr_line(e->p, "const %s ax = dout[p2 + k] * y[p1 + k];", t);
    pr_line(e->p, "const %s bx = dout[p1 + k] * y[p2 + k];", t);
    pr_line(e->p, "dx[dst + k] = ax - bx;");
  }
  if (dy) {
    pr_line(e->p, "const %s ay = dout[p1 + k] * x[p2 + k];", t);
    pr_line(e->p, "const %s by = dout[p2 + k] * x[p1 + k];", t);
    pr_line(e->p, "dy[dst + k] = ay - by;");
  }
  pr_line(e->p, "}");
  pr_line(e->p, "}");
  pr_line(e->p, "}");
  return 0;
}

const OpDef op_cross_grad = {.type = "cross_grad", .infer = grad_infer, .emit_c = emit_cross_grad};

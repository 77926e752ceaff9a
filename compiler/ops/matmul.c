/* Matrix products.
 *   mul: X, Y -> Out; x_num_col_dims:INT=1, y_num_col_dims:INT=1; extra
 *        use_mkldnn, scale_x, scale_y, scale_out, force_fp32_output
 *        Out = X.dims[:x_ncd] ++ Y.dims[y_ncd:]
 *   matmul (v1): X, Y -> Out; transpose_X:BOOLEAN=false,
 *        transpose_Y:BOOLEAN=false, alpha:FLOAT=1; extra head_number:INT=1,
 *        fused_reshape_X/Y/Out:INTS=[], fused_transpose_X/Y/Out:INTS=[],
 *        use_mkldnn, Scale_x, Scale_y, Scale_out, force_fp32_output
 *   matmul_v2: X, Y -> Out; trans_x:BOOLEAN=false, trans_y:BOOLEAN=false;
 *        extra use_mkldnn, mkldnn_data_type, force_fp32_output
 *   bmm: X [B, M, K], Y [B, K, N] -> Out [B, M, N]
 * Out has X's dtype.  Neither matmul broadcasts batch dims at compile time:
 * they come from the operand of higher rank (dim-wise max for matmul_v2 when
 * ranks are equal, X's for matmul v1 whenever X is batched). */
#include <string.h>

#include "../util.h"
#include "gemm_call.h"
#include "ops.h"
#include "rt_kernels.h"

static int infer_mul(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  int64_t xn = attr_int(c->op, "x_num_col_dims", 1), yn = attr_int(c->op, "y_num_col_dims", 1);
  if (xn < 1 || xn >= x->shape.rank || yn < 1 || yn >= y->shape.rank)
    return ctx_fail(c, "num_col_dims %lld/%lld do not fit X %s and Y %s", (long long)xn,
                    (long long)yn, shape_str(&x->shape), shape_str(&y->shape));
  Shape s = {0, {0}};
  for (int i = 0; i < xn; i++) s.d[s.rank++] = x->shape.d[i];
  for (int i = (int)yn; i < y->shape.rank; i++) s.d[s.rank++] = y->shape.d[i];
  ctx_set(c, "Out", 0, &s, x->dtype);
  return 0;
}

static int infer_matmul_v2(OpCtx *c) {
  Var *xv = ctx_need(c, "X", 0), *yv = ctx_need(c, "Y", 0);
  if (!xv || !yv) return -1;
  Shape x = xv->shape, y = yv->shape;
  if (x.rank < 1 || y.rank < 1)
    return ctx_fail(c, "X %s and Y %s must have rank >= 1", shape_str(&x), shape_str(&y));
  int xvec = x.rank == 1, yvec = y.rank == 1;
  if (xvec) x = (Shape){2, {1, x.d[0]}};
  if (yvec) y = (Shape){2, {y.d[0], 1}};
  int64_t m = attr_bool(c->op, "trans_x", 0) ? x.d[x.rank - 1] : x.d[x.rank - 2];
  int64_t n = attr_bool(c->op, "trans_y", 0) ? y.d[y.rank - 2] : y.d[y.rank - 1];
  Shape s = {0, {0}};
  if (x.rank != y.rank) {
    const Shape *big = x.rank > y.rank ? &x : &y;
    for (int i = 0; i < big->rank - 2; i++) s.d[s.rank++] = big->d[i];
  } else {
    for (int i = 0; i < x.rank - 2; i++) s.d[s.rank++] = x.d[i] > y.d[i] ? x.d[i] : y.d[i];
  }
  if (!xvec) s.d[s.rank++] = m;
  if (!yvec) s.d[s.rank++] = n;
  ctx_set(c, "Out", 0, &s, xv->dtype);
  return 0;
}

/* DDim::reshape (0 copies, one -1 takes the rest) then transpose, as the
 * oneDNN fusion attributes fused_reshape_* / fused_transpose_* ask. */
static int fused_reshape(OpCtx *c, const char *in, const char *tr, Shape *s, int out_side) {
  int64_t *shape, *perm;
  int ns = attr_ints(c->op, in, &shape), np = attr_ints(c->op, tr, &perm);
  if (!ns || !np) return 0;
  if (ns > RT_MAX_RANK || np > RT_MAX_RANK) return ctx_fail(c, "%s/%s are too long", in, tr);
  for (int i = 0; i < np; i++)
    if (perm[i] < 0 || perm[i] >= np) return ctx_fail(c, "%s[%d] = %lld is not an axis", tr, i, (long long)perm[i]);
  Shape r = *s;
  if (out_side) { /* Out: transpose first, then reshape */
    if (np != s->rank) return ctx_fail(c, "%s has %d entries for rank %d", tr, np, s->rank);
    for (int i = 0; i < np; i++) r.d[i] = s->d[perm[i]];
  }
  Shape t = {ns, {0}};
  int64_t known = -1, unk = -1;
  for (int i = 0; i < ns; i++) {
    t.d[i] = shape[i] == 0 ? r.d[i] : shape[i];
    if (t.d[i] == -1) unk = i;
    known *= t.d[i];
  }
  if (unk >= 0 && !known) return ctx_fail(c, "%s has a -1 beside a dim of 0", in);
  if (unk >= 0) t.d[unk] = shape_numel(&r) / known;
  if (out_side) {
    *s = t;
    return 0;
  }
  if (np != t.rank) return ctx_fail(c, "%s has %d entries for rank %d", tr, np, t.rank);
  for (int i = 0; i < np; i++) s->d[i] = t.d[perm[i]];
  s->rank = np;
  return 0;
}

static int infer_matmul(OpCtx *c) {
  Var *xv = ctx_need(c, "X", 0), *yv = ctx_need(c, "Y", 0);
  if (!xv || !yv) return -1;
  Shape x = xv->shape, y = yv->shape;
  if (fused_reshape(c, "fused_reshape_X", "fused_transpose_X", &x, 0) ||
      fused_reshape(c, "fused_reshape_Y", "fused_transpose_Y", &y, 0))
    return -1;
  if (x.rank < 1 || y.rank < 1)
    return ctx_fail(c, "X %s and Y %s must have rank >= 1", shape_str(&x), shape_str(&y));
  /* Matrix descriptors: rank 1 X is a row [1, K], rank 1 Y a column [K, 1];
   * a rank > 2 operand is batched (batch = product of the leading dims). */
  Shape xm = x.rank == 1 ? (Shape){2, {1, x.d[0]}} : x;
  Shape ym = y.rank == 1 ? (Shape){2, {y.d[0], 1}} : y;
  int64_t xh = xm.d[xm.rank - 2], xw = xm.d[xm.rank - 1];
  int64_t yh = ym.d[ym.rank - 2], yw = ym.d[ym.rank - 1];
  if (attr_bool(c->op, "transpose_X", 0)) xh = xw;
  if (attr_bool(c->op, "transpose_Y", 0)) yw = yh;
  int64_t xbatch = xm.rank > 2 ? dims_prod(&xm, 0, xm.rank - 2) : 0;
  int64_t ybatch = ym.rank > 2 ? dims_prod(&ym, 0, ym.rank - 2) : 0;
  int64_t heads = attr_int(c->op, "head_number", 1);
  if (heads > 1) yw *= heads;
  Shape s = {2, {xh, yw}};
  if (xbatch != 0 || ybatch != 0) {
    s = xbatch != 0 ? x : y;
    s.d[s.rank - 2] = xh;
    s.d[s.rank - 1] = yw;
  }
  /* Squeeze the dims a vector operand added (kept when not 1). */
  if (x.rank == 1 && s.d[s.rank - 2] == 1) {
    s.d[s.rank - 2] = s.d[s.rank - 1];
    s.rank--;
  }
  if (y.rank == 1 && s.d[s.rank - 1] == 1) s.rank--;
  if (s.rank == 0) s = shape_scalar(c);
  if (fused_reshape(c, "fused_reshape_Out", "fused_transpose_Out", &s, 1)) return -1;
  ctx_set(c, "Out", 0, &s, xv->dtype);
  return 0;
}

static int infer_bmm(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  if (x->shape.rank != 3 || y->shape.rank != 3)
    return ctx_fail(c, "X %s and Y %s must have rank 3", shape_str(&x->shape),
                    shape_str(&y->shape));
  Shape s = {3, {x->shape.d[0], x->shape.d[1], y->shape.d[2]}};
  ctx_set(c, "Out", 0, &s, x->dtype);
  return 0;
}

/* ---- C emission: every product is one or more rt_sgemm calls ---- */

typedef struct Operand {
  const VarSpec *s; /* shape */
  int vec;          /* rank 1, viewed as [1, K] (X) or [K, 1] (Y) */
  int trans;        /* last two dims swapped */
} Operand;

/* The matrix dims of an operand: rows and cols of the stored matrix. */
static SymDim mat_dim(const Operand *o, int which, int is_y) {
  if (o->vec) return which == (is_y ? 0 : 1) ? o->s->d[0] : (SymDim){0, 1};
  return o->s->d[o->s->rank - 2 + which];
}

static int nbatch(const Operand *o) { return o->vec ? 0 : o->s->rank - 2; }

/* Emits Out = alpha * op(X) @ op(Y) with numpy batch broadcasting. */
static int emit_gemm(EmitCtx *e, const Var *xv, const Var *yv, const Var *ov, int tx, int ty, double alpha) {
  const int f64 = xv->dtype == RT_DT_FP64;
  if ((xv->dtype != RT_DT_FP32 && !f64) || yv->dtype != xv->dtype)
    return em_fail(e, "matrix products of %s and %s tensors are not supported", rt_dtype_name(xv->dtype),
                   rt_dtype_name(yv->dtype));
  const char *T = f64 ? "double" : "float";
  Operand x = {em_spec(e, xv), em_spec(e, xv)->rank == 1, tx}, y = {em_spec(e, yv), em_spec(e, yv)->rank == 1, ty};
  if (x.vec) x.trans = 0;
  if (y.vec) y.trans = 0;
  SymDim xr = mat_dim(&x, 0, 0), xc = mat_dim(&x, 1, 0), yr = mat_dim(&y, 0, 1), yc = mat_dim(&y, 1, 1);
  SymDim m = x.trans ? xc : xr, k = x.trans ? xr : xc, n = y.trans ? yr : yc;
  int nbx = nbatch(&x), nby = nbatch(&y), nb = nbx > nby ? nbx : nby;
  pr_line(e->p, "const %s *x = %s;", T, em_ptr(e, xv, 1));
  pr_line(e->p, "const %s *y = %s;", T, em_ptr(e, yv, 1));
  pr_line(e->p, "%s *out = %s;", T, em_ptr(e, ov, 0));
  pr_line(e->p, "const int64_t M = %s, N = %s, K = %s;", em_sym(m), em_sym(n), em_sym(k));
  const char *lda = x.trans ? "M" : "K", *ldb = y.trans ? "K" : "N", *al = em_float(alpha);
  int y_batched = 0;
  for (int i = 0; i < nby; i++) y_batched |= !(y.s->d[i].a == 0 && y.s->d[i].c == 1);
  if (!y_batched && !x.trans) { /* X's batch dims fold into M: one product */
    const char *rows = nbx ? pool_printf("%s * M", em_prod(e, xv, 0, nbx)) : "M";
    SymDim rows_bound = nbx ? em_sym_prod(e, xv, 0, nbx + 1) : m;
    gemm_print_c(e->p, &(GemmCall){.f64 = f64, .trans_b = y.trans, .m = rows, .n = "N", .k = "K", .alpha = al,
                                    .a = "x", .lda = "K", .b = "y", .ldb = ldb, .c = "out", .ldc = "N",
                                    .beta = f64 ? "0.0" : "0.0f", .ws = f64 ? "" : em_gemm_ws(e, rows_bound, n, k)});
    return 0;
  }
  /* batch dims of the output, right-aligned; each operand's stride is 0 where
   * its dim is 1 (broadcast) */
  for (int i = 0; i < nb; i++) {
    int jx = i - (nb - nbx), jy = i - (nb - nby);
    SymDim dx = jx >= 0 ? x.s->d[jx] : (SymDim){0, 1}, dy = jy >= 0 ? y.s->d[jy] : (SymDim){0, 1};
    SymDim d = (dx.a == 0 && dx.c == 1) ? dy : dx;
    pr_line(e->p, "const int64_t n%d = %s;", i, em_sym(d));
    pr_line(e->p, "const int64_t xs%d = %s, ys%d = %s;", i, (dx.a == 0 && dx.c == 1) ? "0" : "1", i,
            (dy.a == 0 && dy.c == 1) ? "0" : "1");
  }
  const char *xo = "0", *yo = "0", *oo = "0";
  const char *xstride = "M * K", *ystride = "K * N", *ostride = "M * N";
  for (int i = nb - 1; i >= 0; i--) {
    xo = pool_printf("%s + i%d * xs%d * (%s)", xo, i, i, xstride);
    yo = pool_printf("%s + i%d * ys%d * (%s)", yo, i, i, ystride);
    oo = pool_printf("%s + i%d * (%s)", oo, i, ostride);
    xstride = pool_printf("%s * (xs%d ? n%d : 1)", xstride, i, i);
    ystride = pool_printf("%s * (ys%d ? n%d : 1)", ystride, i, i);
    ostride = pool_printf("%s * n%d", ostride, i);
  }
  for (int i = 0; i < nb; i++) pr_line(e->p, "for (int64_t i%d = 0; i%d < n%d; i%d++) {", i, i, i, i);
  gemm_print_c(e->p, &(GemmCall){.f64 = f64, .trans_a = x.trans, .trans_b = y.trans, .m = "M", .n = "N", .k = "K",
                                  .alpha = al, .a = pool_printf("x + (%s)", xo), .lda = lda,
                                  .b = pool_printf("y + (%s)", yo), .ldb = ldb, .c = pool_printf("out + (%s)", oo),
                                  .ldc = "N", .beta = f64 ? "0.0" : "0.0f", .ws = f64 ? "" : em_gemm_ws(e, m, n, k)});
  for (int i = 0; i < nb; i++) pr_line(e->p, "}");
  return 0;
}

static int emit_matmul_v2(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  return emit_gemm(e, ctx_in(&c, "X", 0), ctx_in(&c, "Y", 0), ctx_out(&c, "Out", 0),
                   attr_bool(e->op, "trans_x", 0), attr_bool(e->op, "trans_y", 0), 1.0);
}

/* matmul (v1) and its grad: the oneDNN fusion attributes and head_number
 * are refused. */
static int matmul_v1_check(EmitCtx *e) {
  static const char *const fused[] = {"fused_reshape_X", "fused_reshape_Y", "fused_reshape_Out",
                                      "fused_transpose_X", "fused_transpose_Y", "fused_transpose_Out"};
  for (size_t i = 0; i < sizeof fused / sizeof fused[0]; i++) {
    int64_t *v;
    if (attr_ints(e->op, fused[i], &v)) return em_fail(e, "the oneDNN attribute %s is not supported", fused[i]);
  }
  if (attr_int(e->op, "head_number", 1) != 1) return em_fail(e, "head_number > 1 is not supported");
  return 0;
}

static int emit_matmul(EmitCtx *e) {
  if (matmul_v1_check(e)) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  return emit_gemm(e, ctx_in(&c, "X", 0), ctx_in(&c, "Y", 0), ctx_out(&c, "Out", 0),
                   attr_bool(e->op, "transpose_X", 0), attr_bool(e->op, "transpose_Y", 0),
                   attr_float(e->op, "alpha", 1.0));
}

static int emit_bmm(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  return emit_gemm(e, ctx_in(&c, "X", 0), ctx_in(&c, "Y", 0), ctx_out(&c, "Out", 0), 0, 0, 1.0);
}

/* mul: X and Y flattened to matrices at x/y_num_col_dims. */
static int emit_mul(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *y = ctx_in(&c, "Y", 0), *out = ctx_out(&c, "Out", 0);
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || y->dtype != x->dtype)
    return em_fail(e, "mul of %s and %s tensors is not supported yet", rt_dtype_name(x->dtype), rt_dtype_name(y->dtype));
  int xn = (int)attr_int(e->op, "x_num_col_dims", 1), yn = (int)attr_int(e->op, "y_num_col_dims", 1);
  int xr = em_spec(e, x)->rank, yr = em_spec(e, y)->rank;
  pr_line(e->p, "const int64_t M = %s, K = %s, N = %s;", em_prod(e, x, 0, xn), em_prod(e, x, xn, xr),
          em_prod(e, y, yn, yr));
  const int f64 = x->dtype == RT_DT_FP64;
  const char *ws = f64 ? "" : em_gemm_ws(e, em_sym_prod(e, x, 0, xn), em_sym_prod(e, y, yn, yr), em_sym_prod(e, x, xn, xr));
  gemm_print_c(e->p, &(GemmCall){.f64 = f64, .m = "M", .n = "N", .k = "K", .alpha = f64 ? "1.0" : "1.0f",
                                  .a = em_ptr(e, x, 1), .lda = "K", .b = em_ptr(e, y, 1), .ldb = "N",
                                  .c = em_ptr(e, out, 0), .ldc = "N", .beta = f64 ? "0.0" : "0.0f", .ws = ws});
  return 0;
}

/* ---- gradients: X@GRAD and Y@GRAD of Out = alpha * op(X) @ op(Y) ----
 * Paddle 2.6's MatmulGradKernel (matmul_v2_grad, bmm_grad) and fluid's
 * MatMulGradKernel (matmul_grad, with alpha), per matrix of a batch:
 *   dX = dOut op(Y)^T (stored transposed when trans_x: op(Y) dOut^T),
 *   dY = op(X)^T dOut (stored transposed when trans_y: dOut^T op(X)),
 * each scaled by alpha; an operand broadcast along a batch dim of Out
 * (its dim 1 or absent) gets the sum over that dim (Paddle's ReduceSum).
 * Rank-1 operands are the row [1, K] (X) and the column [K, 1] (Y) and
 * take no transpose; two of them are the dot product's dX = dOut * Y,
 * dY = dOut * X.  When Y is one matrix and X is not transposed, X's batch
 * folds into the rows (one product each, as Paddle's FoldInitDims);
 * otherwise one product per batch matrix of Out, accumulated in batch
 * order into a zeroed gradient where that operand is broadcast. */

/* One product C = alpha * op(A) op(B) (+ C when acc). */
static void pr_gemm(EmitCtx *e, int f64, int ta, int tb, const char *m, const char *n, const char *k,
                    const char *alpha, const char *a, const char *lda, const char *b, const char *ldb, int acc,
                    const char *c, const char *ldc, const char *ws) {
  const char *beta = f64 ? (acc ? "1.0" : "0.0") : (acc ? "1.0f" : "0.0f");
  gemm_print_c(e->p, &(GemmCall){.f64 = f64, .trans_a = ta, .trans_b = tb, .m = m, .n = n, .k = k, .alpha = alpha,
                                  .a = a, .lda = lda, .b = b, .ldb = ldb, .c = c, .ldc = ldc, .beta = beta, .ws = ws});
}

static int is_one(SymDim d) { return d.a == 0 && d.c == 1; }

static int emit_gemm_grad(EmitCtx *e, int tx, int ty, double alpha) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *xv = ctx_in(&c, "X", 0), *yv = ctx_in(&c, "Y", 0), *dov = ctx_in(&c, "Out@GRAD", 0);
  Var *dxv = ctx_out(&c, "X@GRAD", 0), *dyv = ctx_out(&c, "Y@GRAD", 0);
  if (!xv || !yv || !dov) return em_fail(e, "needs X, Y and Out@GRAD");
  const int f64 = xv->dtype == RT_DT_FP64;
  if ((xv->dtype != RT_DT_FP32 && !f64) || yv->dtype != xv->dtype || dov->dtype != xv->dtype)
    return em_fail(e, "gradients of matrix products of %s and %s tensors are not supported",
                   rt_dtype_name(xv->dtype), rt_dtype_name(yv->dtype));
  const char *T = f64 ? "double" : "float";
  Operand x = {em_spec(e, xv), em_spec(e, xv)->rank == 1, tx}, y = {em_spec(e, yv), em_spec(e, yv)->rank == 1, ty};
  /* Paddle's grad reads a rank-1 operand's transpose flag as a [1, K]
   * matrix's, while its forward ignores it: no answer to reproduce */
  if (x.vec && tx) return em_fail(e, "a transposed rank-1 X is not supported");
  if (y.vec && ty) return em_fail(e, "a transposed rank-1 Y is not supported");
  SymDim xr = mat_dim(&x, 0, 0), xc = mat_dim(&x, 1, 0), yr = mat_dim(&y, 0, 1), yc = mat_dim(&y, 1, 1);
  SymDim m = tx ? xc : xr, k = tx ? xr : xc, n = ty ? yr : yc;
  int nbx = nbatch(&x), nby = nbatch(&y), nb = nbx > nby ? nbx : nby;
  /* dX reads Y, dY reads X: a gradient nobody asked for names nothing */
  if (dyv) pr_line(e->p, "const %s *x = %s;", T, em_ptr(e, xv, 1));
  if (dxv) pr_line(e->p, "const %s *y = %s;", T, em_ptr(e, yv, 1));
  pr_line(e->p, "const %s *dout = %s;", T, em_ptr(e, dov, 1));
  if (dxv) pr_line(e->p, "%s *dx = %s;", T, em_ptr(e, dxv, 0));
  if (dyv) pr_line(e->p, "%s *dy = %s;", T, em_ptr(e, dyv, 0));
  pr_line(e->p, "const int64_t M = %s, N = %s, K = %s;", em_sym(m), em_sym(n), em_sym(k));
  const char *ldx = tx ? "M" : "K", *ldy = ty ? "K" : "N", *al = em_float(alpha);
  int y_batched = 0;
  for (int i = 0; i < nby; i++) y_batched |= !is_one(y.s->d[i]);
  if (!y_batched && !tx) { /* X's batch dims fold into M */
    const char *rows = nbx ? pool_printf("%s * M", em_prod(e, xv, 0, nbx)) : "M";
    SymDim rb = nbx ? em_sym_prod(e, xv, 0, nbx + 1) : m;
    if (dxv) pr_gemm(e, f64, 0, !ty, rows, "K", "N", al, "dout", "N", "y", ldy, 0, "dx", "K", f64 ? "" : em_gemm_ws(e, rb, k, n));
    if (dyv && !ty) pr_gemm(e, f64, 1, 0, "K", "N", rows, al, "x", "K", "dout", "N", 0, "dy", "N", f64 ? "" : em_gemm_ws(e, k, n, rb));
    if (dyv && ty) pr_gemm(e, f64, 1, 0, "N", "K", rows, al, "dout", "N", "x", "K", 0, "dy", "K", f64 ? "" : em_gemm_ws(e, n, k, rb));
    return 0;
  }
  /* batch dims of Out, right-aligned; an operand's stride is 0 where its
   * dim is 1 (broadcast), and its gradient sums over such dims of Out */
  int x_red = 0, y_red = 0;
  for (int i = 0; i < nb; i++) {
    int jx = i - (nb - nbx), jy = i - (nb - nby);
    SymDim dx = jx >= 0 ? x.s->d[jx] : (SymDim){0, 1}, dy = jy >= 0 ? y.s->d[jy] : (SymDim){0, 1};
    SymDim d = is_one(dx) ? dy : dx;
    x_red |= is_one(dx) && !is_one(d);
    y_red |= is_one(dy) && !is_one(d);
    pr_line(e->p, "const int64_t n%d = %s;", i, em_sym(d));
    pr_line(e->p, "const int64_t xs%d = %s, ys%d = %s;", i, is_one(dx) ? "0" : "1", i, is_one(dy) ? "0" : "1");
  }
  const char *xo = "0", *yo = "0", *oo = "0";
  const char *xstride = "M * K", *ystride = "K * N", *ostride = "M * N";
  for (int i = nb - 1; i >= 0; i--) {
    xo = pool_printf("%s + i%d * xs%d * (%s)", xo, i, i, xstride);
    yo = pool_printf("%s + i%d * ys%d * (%s)", yo, i, i, ystride);
    oo = pool_printf("%s + i%d * (%s)", oo, i, ostride);
    xstride = pool_printf("%s * (xs%d ? n%d : 1)", xstride, i, i);
    ystride = pool_printf("%s * (ys%d ? n%d : 1)", ystride, i, i);
    ostride = pool_printf("%s * n%d", ostride, i);
  }
  if (dxv && x_red) pr_line(e->p, "for (int64_t i = 0; i < %s; i++) dx[i] = 0;", em_numel(e, dxv));
  if (dyv && y_red) pr_line(e->p, "for (int64_t i = 0; i < %s; i++) dy[i] = 0;", em_numel(e, dyv));
  const char *ws_dx = dxv && !f64 ? em_gemm_ws_as(e, "ws_dx", tx ? k : m, tx ? m : k, n) : "NULL";
  const char *ws_dy = dyv && !f64 ? em_gemm_ws_as(e, "ws_dy", ty ? n : k, ty ? k : n, m) : "NULL";
  for (int i = 0; i < nb; i++) pr_line(e->p, "for (int64_t i%d = 0; i%d < n%d; i%d++) {", i, i, i, i);
  const char *X = pool_printf("x + (%s)", xo), *Y = pool_printf("y + (%s)", yo), *D = pool_printf("dout + (%s)", oo);
  const char *DX = pool_printf("dx + (%s)", xo), *DY = pool_printf("dy + (%s)", yo);
  if (dxv && !tx) pr_gemm(e, f64, 0, !ty, "M", "K", "N", al, D, "N", Y, ldy, x_red, DX, "K", ws_dx);
  if (dxv && tx) pr_gemm(e, f64, ty, 1, "K", "M", "N", al, Y, ldy, D, "N", x_red, DX, "M", ws_dx);
  if (dyv && !ty) pr_gemm(e, f64, !tx, 0, "K", "N", "M", al, X, ldx, D, "N", y_red, DY, "N", ws_dy);
  if (dyv && ty) pr_gemm(e, f64, 1, tx, "N", "K", "M", al, D, "N", X, ldx, y_red, DY, "K", ws_dy);
  for (int i = 0; i < nb; i++) pr_line(e->p, "}");
  return 0;
}

const OpDef op_bmm = {.type = "bmm", .infer = infer_bmm, .emit_c = emit_bmm};
const OpDef op_matmul = {.type = "matmul", .infer = infer_matmul, .emit_c = emit_matmul};
const OpDef op_matmul_v2 = {.type = "matmul_v2", .infer = infer_matmul_v2, .emit_c = emit_matmul_v2};
const OpDef op_mul = {.type = "mul", .infer = infer_mul, .emit_c = emit_mul};

static int emit_matmul_v2_grad(EmitCtx *e) {
  return emit_gemm_grad(e, attr_bool(e->op, "trans_x", 0), attr_bool(e->op, "trans_y", 0), 1.0);
}

static int emit_matmul_grad(EmitCtx *e) {
  if (matmul_v1_check(e)) return -1;
  return emit_gemm_grad(e, attr_bool(e->op, "transpose_X", 0), attr_bool(e->op, "transpose_Y", 0),
                        attr_float(e->op, "alpha", 1.0));
}

static int emit_bmm_grad(EmitCtx *e) { return emit_gemm_grad(e, 0, 0, 1.0); }

/* mul_grad: with X [M, K] and Y [K, N] flattened at x/y_num_col_dims,
 * dX = dOut Y^T and dY = X^T dOut (Paddle's MatmulWithFlattenGradKernel);
 * float32 or float64 (rt_dgemm). */
static int emit_mul_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *y = ctx_in(&c, "Y", 0), *dout = ctx_in(&c, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *dy = ctx_out(&c, "Y@GRAD", 0);
  if (!x || !y || !dout) return em_fail(e, "needs X, Y and Out@GRAD");
  const int f64 = x->dtype == RT_DT_FP64;
  if ((x->dtype != RT_DT_FP32 && !f64) || y->dtype != x->dtype || dout->dtype != x->dtype)
    return em_fail(e, "mul_grad of %s tensors is not supported yet", rt_dtype_name(x->dtype));
  int xn = (int)attr_int(e->op, "x_num_col_dims", 1), yn = (int)attr_int(e->op, "y_num_col_dims", 1);
  int xr = em_spec(e, x)->rank, yr = em_spec(e, y)->rank;
  if (xn < 1 || xn >= xr || yn < 1 || yn >= yr) return em_fail(e, "num_col_dims do not fit X and Y");
  SymDim m = em_sym_prod(e, x, 0, xn), k = em_sym_prod(e, x, xn, xr), n = em_sym_prod(e, y, yn, yr);
  pr_line(e->p, "const int64_t M = %s, K = %s, N = %s;", em_prod(e, x, 0, xn), em_prod(e, x, xn, xr),
          em_prod(e, y, yn, yr));
  if (dx)
    pr_gemm(e, f64, 0, 1, "M", "K", "N", f64 ? "1.0" : "1.0f", em_ptr(e, dout, 1), "N", em_ptr(e, y, 1), "N", 0,
            em_ptr(e, dx, 0), "K", f64 ? "" : em_gemm_ws(e, m, k, n));
  if (dy)
    pr_gemm(e, f64, 1, 0, "K", "N", "M", f64 ? "1.0" : "1.0f", em_ptr(e, x, 1), "K", em_ptr(e, dout, 1), "N", 0,
            em_ptr(e, dy, 0), "N", f64 ? "" : em_gemm_ws(e, k, n, m));
  return 0;
}

const OpDef op_bmm_grad = {.type = "bmm_grad", .infer = grad_infer, .emit_c = emit_bmm_grad};
const OpDef op_matmul_grad = {.type = "matmul_grad", .infer = grad_infer, .emit_c = emit_matmul_grad};
const OpDef op_matmul_v2_grad = {.type = "matmul_v2_grad", .infer = grad_infer, .emit_c = emit_matmul_v2_grad};
const OpDef op_mul_grad = {.type = "mul_grad", .infer = grad_infer, .emit_c = emit_mul_grad};

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
 * ranks are equal, X's for matmul v1 whenever X is batched).
 * mul takes X with dims known only at run time among its rows (the RoIs
 * of a box head, the sequences of a text CNN): M is the run's, Out's dims
 * the same extents; among its columns (a map of the run's size flattened
 * into a fc made for one size, in Paddle 1.x programs), K the run's,
 * checked against Y's fixed rows by the run as Paddle's kernel checks it;
 * in Y, refused.  matmul_v2 takes
 * them in M, N, K and the batch dims (matmul_v2_extents: attention over a
 * sequence length the run gives), a K or batch dim of both not known to be
 * one extent checked by the run (Paddle's kernel checks them too). */
#include <string.h>

#include "../util.h"
#include "gemm_call.h"
#include "ops.h"
#include "rt_kernels.h"
#include "tensor_util.h"

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
  /* run-time extents among X's row dims (the RoIs of a box head) are
   * Out's: M is the run's; among its columns K is, which the run checks
   * against Y's rows (emit_mul); in Y, refused */
  if (var_runtime_axis(y) >= 0) return ctx_refuse_runtime_extents(c);
  int64_t yk = 1;
  for (int i = 0; i < yn; i++) yk = y->shape.d[i] < 0 || yk < 0 ? -1 : yk * y->shape.d[i];
  if (var_runtime_mask(x) >> xn && yk < 0)
    return ctx_fail(c, "X ('%s') has columns only the run knows, Y ('%s') rows not known here (%s): the two "
                    "cannot be checked", x->name, y->name, shape_str(&y->shape));
  int to[RT_MAX_RANK];
  for (int d = 0; d < RT_MAX_RANK; d++) to[d] = d < xn ? d : -1;
  ctx_pass_runtime_extents_to(c, x, "Out", 0, to);
  return 0;
}

/* matmul_v2's run-time extents (a sequence length: the rows of X, the
 * scores Q K^T of attention and their product with V): M of X and N of Y
 * and the batch dims are Out's; K one extent in both, fixed in both, or
 * the run's in one and fixed in the other (a map of the run's size
 * flattened into a Linear made for one size: checked by the run, as
 * Paddle's kernel checks it), and a batch dim of one operand a run-time
 * extent the other broadcasts (1) or has too (same_runtime_dims).  Vectors with them are
 * refused.  Out's root is the operands' when they share one, else its own. */
static int matmul_v2_extents(OpCtx *c, const Var *xv, const Var *yv, int out_rank) {
  const unsigned mx = var_runtime_mask(xv), my = var_runtime_mask(yv);
  if (!mx && !my) return 0;
  const int xr = xv->shape.rank, yr = yv->shape.rank;
  if (xr < 2 || yr < 2) return ctx_refuse_runtime_extents(c);
  const int tx = attr_bool(c->op, "trans_x", 0), ty = attr_bool(c->op, "trans_y", 0);
  const int xm = tx ? xr - 1 : xr - 2, xk = tx ? xr - 2 : xr - 1, yk = ty ? yr - 1 : yr - 2, yn = ty ? yr - 2 : yr - 1;
  if ((mx >> xk & 1) != (my >> yk & 1) && (mx >> xk & 1 ? yv->shape.d[yk] : xv->shape.d[xk]) < 0)
    return ctx_fail(c, "the contracted dim of X ('%s', dim %d) and of Y ('%s', dim %d) must both be fixed or both "
                    "run-time extents, or one fixed at a known size", xv->name, xk, yv->name, yk);
  int checked = mx >> xk & 1 && !same_runtime_dims(xv, xk, yv, yk); /* the run checks them (write_extents) */
  unsigned mo = 0;
  const int nb = out_rank - 2;
  for (int i = 0; i < nb; i++) { /* Out's batch dims, right-aligned */
    const int jx = i - (nb - (xr - 2)), jy = i - (nb - (yr - 2));
    const int rx = jx >= 0 && mx >> jx & 1, ry = jy >= 0 && my >> jy & 1;
    const int64_t dx = jx >= 0 ? xv->shape.d[jx] : 1, dy = jy >= 0 ? yv->shape.d[jy] : 1;
    if ((rx && !ry && dy != 1) || (ry && !rx && dx != 1))
      return ctx_fail(c, "batch dim %d of Out: a run-time extent of X ('%s') or Y ('%s') against a fixed dim that "
                      "is not 1", i, xv->name, yv->name);
    checked |= rx && ry && !same_runtime_dims(xv, jx, yv, jy);
    if (rx || ry) mo |= 1u << i;
  }
  if (mx >> xm & 1) mo |= 1u << nb;
  if (my >> yn & 1) mo |= 1u << (nb + 1);
  ctx_set_runtime_extents(c, "Out", 0, mo, (mx ? xv : yv)->runtime_from);
  Var *out = ctx_out(c, "Out", 0);
  const int shared = !(mx && my) || ((same_runtime_extent(xv, yv) || checked) && xv->runtime_same && yv->runtime_same);
  if (out && shared) {
    out->runtime_root = (mx ? xv : yv)->runtime_root;
    out->runtime_same = mx && my ? 1 : (mx ? xv : yv)->runtime_same || !(mo & (mo - 1));
  }
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
  return matmul_v2_extents(c, xv, yv, s.rank);
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
  const Var *v;     /* the var */
  const VarSpec *s; /* its shape */
  int vec;          /* rank 1, viewed as [1, K] (X) or [K, 1] (Y) */
  int trans;        /* last two dims swapped */
} Operand;

/* The matrix dims of an operand: rows and cols of the stored matrix. */
static SymDim mat_dim(const Operand *o, int which, int is_y) {
  if (o->vec) return which == (is_y ? 0 : 1) ? o->s->d[0] : (SymDim){0, 1};
  return o->s->d[o->s->rank - 2 + which];
}

static int nbatch(const Operand *o) { return o->vec ? 0 : o->s->rank - 2; }

/* One product of the kernel (matmul_print_c), C = alpha * op(A) op(B)
 * (+ C when acc). */
static void add_product(MatmulCall *mc, int ta, int tb, const char *m, const char *n, const char *k,
                        const char *alpha, GemmOperand a, const char *lda, GemmOperand b, const char *ldb, int acc,
                        GemmOperand c, const char *ldc, const char *ws) {
  mc->prod[mc->nprod++] = (GemmProduct){.trans_a = ta, .trans_b = tb, .m = m, .n = n, .k = k, .alpha = alpha, .a = a,
                                        .lda = lda, .b = b, .ldb = ldb, .acc = acc, .c = c, .ldc = ldc, .ws = ws};
}

void matmul_grad_products(EmitCtx *e, MatmulCall *mc, const Var *x, const Var *y, const Var *dout, const Var *dx,
                          const Var *dy, SymDim m, SymDim k, SymDim n) {
  const char *one = mc->f64 ? "1.0" : "1.0f";
  if (dx) {
    mc->ptr[GEMM_DOUT] = em_ptr(e, dout, 1);
    mc->ptr[GEMM_Y] = em_ptr(e, y, 1);
    mc->ptr[GEMM_DX] = em_ptr(e, dx, 0);
    add_product(mc, 0, 1, "M", "K", "N", one, GEMM_DOUT, "N", GEMM_Y, "N", 0, GEMM_DX, "K",
                mc->f64 ? "" : em_gemm_ws(e, m, k, n));
  }
  if (dy) {
    mc->ptr[GEMM_X] = em_ptr(e, x, 1);
    mc->ptr[GEMM_DOUT] = em_ptr(e, dout, 1);
    mc->ptr[GEMM_DY] = em_ptr(e, dy, 0);
    add_product(mc, 1, 0, "K", "N", "M", one, GEMM_X, "K", GEMM_DOUT, "N", 0, GEMM_DY, "N",
                mc->f64 ? "" : em_gemm_ws(e, k, n, m));
  }
}

static int is_one(SymDim d) { return d.a == 0 && d.c == 1; }

/* The batch dims of Out, right-aligned: X's and Y's dims there (1 where
 * absent), Out's the one that is not 1; an operand is broadcast (stride
 * 0) where its dim is 1.  x_red / y_red: X / Y is broadcast where Out's
 * dim is not 1 (its gradient sums over it). */
static void batch_walk(EmitCtx *e, MatmulCall *mc, const Operand *x, const Operand *y, int *x_red, int *y_red) {
  int nbx = nbatch(x), nby = nbatch(y), nb = nbx > nby ? nbx : nby;
  for (int i = 0; i < nb; i++) {
    int jx = i - (nb - nbx), jy = i - (nb - nby);
    SymDim dx = jx >= 0 ? x->s->d[jx] : (SymDim){0, 1}, dy = jy >= 0 ? y->s->d[jy] : (SymDim){0, 1};
    SymDim d = is_one(dx) ? dy : dx;
    if (x_red) *x_red |= is_one(dx) && !is_one(d);
    if (y_red) *y_red |= is_one(dy) && !is_one(d);
    /* a run-time extent is the run's (matmul_v2_extents) */
    mc->bdim[i] = !is_one(dx) ? em_dim(e, x->v, jx) : !is_one(dy) ? em_dim(e, y->v, jy) : em_sym(d);
    mc->xbcast[i] = is_one(dx);
    mc->ybcast[i] = is_one(dy);
  }
  mc->batched = 1;
  mc->nbatch = nb;
}

/* The lines writing Out's run-time extents (matmul_v2_extents): its batch
 * dims from X or Y, M from X, N from Y. */
static void write_extents(EmitCtx *e, const Var *xv, const Var *yv, const Var *ov, const Operand *x,
                          const Operand *y) {
  const int orank = em_spec(e, ov)->rank, nb = orank - 2;
  int tx[RT_MAX_RANK], ty[RT_MAX_RANK];
  for (int d = 0; d < RT_MAX_RANK; d++) tx[d] = ty[d] = -1;
  if (x->vec || y->vec || orank < 2) return; /* vectors take none (matmul_v2_extents) */
  for (int d = 0; d < x->s->rank - 2; d++) tx[d] = d + nb - (x->s->rank - 2);
  for (int d = 0; d < y->s->rank - 2; d++) ty[d] = d + nb - (y->s->rank - 2);
  tx[x->s->rank - (x->trans ? 1 : 2)] = nb;
  ty[y->s->rank - (y->trans ? 2 : 1)] = nb + 1;
  tu_pass_extents_to(e, xv, ov, tx);
  tu_pass_extents_to(e, yv, ov, ty);
  /* the contracted dims and the batch dims both have as run-time extents
   * not known to be one (matmul_v2_extents): the run checks them */
  const char *differ = NULL;
  const int xk = x->s->rank - (x->trans ? 2 : 1), yk = y->s->rank - (y->trans ? 1 : 2);
  for (int o = -1; o < nb; o++) {
    const int dx = o < 0 ? xk : o - (nb - (x->s->rank - 2)), dy = o < 0 ? yk : o - (nb - (y->s->rank - 2));
    /* K the run's in one operand only is checked against the other's fixed K; a batch dim only where both are
     * the run's */
    const int rx = dx >= 0 && x->s->runtime_mask >> dx & 1, ry = dy >= 0 && y->s->runtime_mask >> dy & 1;
    if (dx < 0 || dy < 0 || !(o < 0 ? rx || ry : rx && ry) || (rx && ry && same_runtime_dims(xv, dx, yv, dy)))
      continue;
    pr_line(e->p, "if (%s != %s) return 1; /* '%s' and '%s' differ in %s */", em_dim(e, xv, dx), em_dim(e, yv, dy),
            xv->name, yv->name, o < 0 ? "the contracted dim" : pool_printf("batch dim %d", o));
    differ = pool_printf("'%s' and '%s' differ in %s in this run (Paddle raises an error)", xv->name, yv->name,
                         o < 0 ? "the contracted dim" : pool_printf("batch dim %d", o));
  }
  if (differ) em_fault(e, differ);
}

/* Emits Out = alpha * op(X) @ op(Y) with numpy batch broadcasting. */
static int emit_gemm(EmitCtx *e, const Var *xv, const Var *yv, const Var *ov, int tx, int ty, double alpha) {
  const int f64 = xv->dtype == RT_DT_FP64;
  if ((xv->dtype != RT_DT_FP32 && !f64) || yv->dtype != xv->dtype)
    return em_fail(e, "matrix products of %s and %s tensors are not supported", rt_dtype_name(xv->dtype),
                   rt_dtype_name(yv->dtype));
  Operand x = {xv, em_spec(e, xv), em_spec(e, xv)->rank == 1, tx};
  Operand y = {yv, em_spec(e, yv), em_spec(e, yv)->rank == 1, ty};
  if (x.vec) x.trans = 0;
  if (y.vec) y.trans = 0;
  SymDim xr = mat_dim(&x, 0, 0), xc = mat_dim(&x, 1, 0), yr = mat_dim(&y, 0, 1), yc = mat_dim(&y, 1, 1);
  SymDim m = x.trans ? xc : xr, k = x.trans ? xr : xc, n = y.trans ? yr : yc;
  int nbx = nbatch(&x), nby = nbatch(&y);
  /* M, N and K as em_dim gives them: run-time extents are the run's (the
   * scratch keeps the bounds) */
  const char *mm = x.vec ? em_sym(m) : em_dim(e, xv, x.s->rank - (x.trans ? 1 : 2));
  const char *nn = y.vec ? em_sym(n) : em_dim(e, yv, y.s->rank - (y.trans ? 2 : 1));
  const char *kk = x.vec ? em_dim(e, xv, 0) : em_dim(e, xv, x.s->rank - (x.trans ? 2 : 1));
  MatmulCall mc = {.f64 = f64, .named = 1, .m = mm, .n = nn, .k = kk};
  mc.ptr[GEMM_X] = em_ptr(e, xv, 1);
  mc.ptr[GEMM_Y] = em_ptr(e, yv, 1);
  mc.ptr[GEMM_OUT] = em_ptr(e, ov, 0);
  write_extents(e, xv, yv, ov, &x, &y);
  const char *lda = x.trans ? "M" : "K", *ldb = y.trans ? "K" : "N", *al = em_float(alpha);
  int y_batched = 0;
  for (int i = 0; i < nby; i++) y_batched |= !is_one(y.s->d[i]);
  if (!y_batched && !x.trans) { /* X's batch dims fold into M: one product */
    const char *rows = nbx ? pool_printf("%s * M", em_prod(e, xv, 0, nbx)) : "M";
    SymDim rows_bound = nbx ? em_sym_prod(e, xv, 0, nbx + 1) : m;
    add_product(&mc, 0, y.trans, rows, "N", "K", al, GEMM_X, "K", GEMM_Y, ldb, 0, GEMM_OUT, "N",
                f64 ? "" : em_gemm_ws(e, rows_bound, n, k));
  } else { /* one product per batch matrix of Out */
    batch_walk(e, &mc, &x, &y, NULL, NULL);
    add_product(&mc, x.trans, y.trans, "M", "N", "K", al, GEMM_X, lda, GEMM_Y, ldb, 0, GEMM_OUT, "N",
                f64 ? "" : em_gemm_ws(e, m, n, k));
  }
  matmul_print_c(e->p, &mc);
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

/* Y's rows as mul flattens it: its dims before y_num_col_dims yn. */
static SymDim k_of_y(EmitCtx *e, const Var *y, int yn) { return em_sym_prod(e, y, 0, yn); }

/* mul: X and Y flattened to matrices at x/y_num_col_dims. */
static int emit_mul(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *y = ctx_in(&c, "Y", 0), *out = ctx_out(&c, "Out", 0);
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || y->dtype != x->dtype)
    return em_fail(e, "mul of %s and %s tensors is not supported yet", rt_dtype_name(x->dtype), rt_dtype_name(y->dtype));
  int xn = (int)attr_int(e->op, "x_num_col_dims", 1), yn = (int)attr_int(e->op, "y_num_col_dims", 1);
  int xr = em_spec(e, x)->rank, yr = em_spec(e, y)->rank;
  const int f64 = x->dtype == RT_DT_FP64;
  SymDim m = em_sym_prod(e, x, 0, xn), k = em_sym_prod(e, x, xn, xr), n = em_sym_prod(e, y, yn, yr);
  MatmulCall mc = {.f64 = f64, .mkn = 1, .m = em_prod(e, x, 0, xn), .n = em_prod(e, y, yn, yr),
                   .k = em_prod(e, x, xn, xr)};
  const char *ws = f64 ? "" : em_gemm_ws(e, m, n, k);
  mc.ptr[GEMM_X] = em_ptr(e, x, 1);
  mc.ptr[GEMM_Y] = em_ptr(e, y, 1);
  mc.ptr[GEMM_OUT] = em_ptr(e, out, 0);
  if (em_spec(e, x)->runtime_mask >> xn) { /* K the run's (infer_mul) */
    pr_line(e->p, "if (%s != %s) return 1; /* the columns of '%s' and the rows of '%s' */", mc.k,
            em_sym(k_of_y(e, y, yn)), x->name, y->name);
    em_fault(e, pool_printf("the columns of '%s' (its dims from %d on) are not the rows of '%s' in this run (Paddle "
                            "raises an error)", x->name, xn, y->name));
  }
  add_product(&mc, 0, 0, "M", "N", "K", f64 ? "1.0" : "1.0f", GEMM_X, "K", GEMM_Y, "N", 0, GEMM_OUT, "N", ws);
  matmul_print_c(e->p, &mc);
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

static int emit_gemm_grad(EmitCtx *e, int tx, int ty, double alpha) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *xv = ctx_in(&c, "X", 0), *yv = ctx_in(&c, "Y", 0), *dov = ctx_in(&c, "Out@GRAD", 0);
  Var *dxv = ctx_out(&c, "X@GRAD", 0), *dyv = ctx_out(&c, "Y@GRAD", 0);
  if (!xv || !yv || !dov) return em_fail(e, "needs X, Y and Out@GRAD");
  const int f64 = xv->dtype == RT_DT_FP64;
  if ((xv->dtype != RT_DT_FP32 && !f64) || yv->dtype != xv->dtype || dov->dtype != xv->dtype)
    return em_fail(e, "gradients of matrix products of %s and %s tensors are not supported",
                   rt_dtype_name(xv->dtype), rt_dtype_name(yv->dtype));
  Operand x = {xv, em_spec(e, xv), em_spec(e, xv)->rank == 1, tx};
  Operand y = {yv, em_spec(e, yv), em_spec(e, yv)->rank == 1, ty};
  /* Paddle's grad reads a rank-1 operand's transpose flag as a [1, K]
   * matrix's, while its forward ignores it: no answer to reproduce */
  if (x.vec && tx) return em_fail(e, "a transposed rank-1 X is not supported");
  if (y.vec && ty) return em_fail(e, "a transposed rank-1 Y is not supported");
  SymDim xr = mat_dim(&x, 0, 0), xc = mat_dim(&x, 1, 0), yr = mat_dim(&y, 0, 1), yc = mat_dim(&y, 1, 1);
  SymDim m = tx ? xc : xr, k = tx ? xr : xc, n = ty ? yr : yc;
  int nbx = nbatch(&x), nby = nbatch(&y);
  /* M, N and K the run's where they are run-time extents (matmul_v2's, as
   * emit_gemm); each gradient takes its operand's */
  const char *mm = x.vec ? em_sym(m) : em_dim(e, xv, x.s->rank - (tx ? 1 : 2));
  const char *nn = y.vec ? em_sym(n) : em_dim(e, yv, y.s->rank - (ty ? 2 : 1));
  const char *kk = x.vec ? em_dim(e, xv, 0) : em_dim(e, xv, x.s->rank - (tx ? 2 : 1));
  MatmulCall mc = {.f64 = f64, .named = 1, .m = mm, .n = nn, .k = kk};
  /* dX reads Y, dY reads X: a gradient nobody asked for names nothing */
  if (dyv) mc.ptr[GEMM_X] = em_ptr(e, xv, 1);
  if (dxv) mc.ptr[GEMM_Y] = em_ptr(e, yv, 1);
  mc.ptr[GEMM_DOUT] = em_ptr(e, dov, 1);
  if (dxv) mc.ptr[GEMM_DX] = em_ptr(e, dxv, 0);
  if (dyv) mc.ptr[GEMM_DY] = em_ptr(e, dyv, 0);
  const char *ldx = tx ? "M" : "K", *ldy = ty ? "K" : "N", *al = em_float(alpha);
  int y_batched = 0;
  for (int i = 0; i < nby; i++) y_batched |= !is_one(y.s->d[i]);
  if (!y_batched && !tx) { /* X's batch dims fold into M */
    const char *rows = nbx ? pool_printf("%s * M", em_prod(e, xv, 0, nbx)) : "M";
    SymDim rb = nbx ? em_sym_prod(e, xv, 0, nbx + 1) : m;
    if (dxv)
      add_product(&mc, 0, !ty, rows, "K", "N", al, GEMM_DOUT, "N", GEMM_Y, ldy, 0, GEMM_DX, "K",
                  f64 ? "" : em_gemm_ws(e, rb, k, n));
    if (dyv && !ty)
      add_product(&mc, 1, 0, "K", "N", rows, al, GEMM_X, "K", GEMM_DOUT, "N", 0, GEMM_DY, "N",
                  f64 ? "" : em_gemm_ws(e, k, n, rb));
    if (dyv && ty)
      add_product(&mc, 1, 0, "N", "K", rows, al, GEMM_DOUT, "N", GEMM_X, "K", 0, GEMM_DY, "K",
                  f64 ? "" : em_gemm_ws(e, n, k, rb));
    matmul_print_c(e->p, &mc);
    return 0;
  }
  /* one product per batch matrix of Out; a gradient summed over Out's
   * batch dims where its operand is broadcast is zeroed first */
  int x_red = 0, y_red = 0;
  batch_walk(e, &mc, &x, &y, &x_red, &y_red);
  if (dxv && x_red) mc.zero_dx = em_numel(e, dxv);
  if (dyv && y_red) mc.zero_dy = em_numel(e, dyv);
  const char *ws_dx = dxv && !f64 ? em_gemm_ws_as(e, "ws_dx", tx ? k : m, tx ? m : k, n) : "NULL";
  const char *ws_dy = dyv && !f64 ? em_gemm_ws_as(e, "ws_dy", ty ? n : k, ty ? k : n, m) : "NULL";
  if (dxv && !tx) add_product(&mc, 0, !ty, "M", "K", "N", al, GEMM_DOUT, "N", GEMM_Y, ldy, x_red, GEMM_DX, "K", ws_dx);
  if (dxv && tx) add_product(&mc, ty, 1, "K", "M", "N", al, GEMM_Y, ldy, GEMM_DOUT, "N", x_red, GEMM_DX, "M", ws_dx);
  if (dyv && !ty) add_product(&mc, !tx, 0, "K", "N", "M", al, GEMM_X, ldx, GEMM_DOUT, "N", y_red, GEMM_DY, "N", ws_dy);
  if (dyv && ty) add_product(&mc, 1, tx, "N", "K", "M", al, GEMM_DOUT, "N", GEMM_X, ldx, y_red, GEMM_DY, "K", ws_dy);
  matmul_print_c(e->p, &mc);
  return 0;
}

const OpDef op_bmm = {.type = "bmm", .infer = infer_bmm, .emit_c = emit_bmm};
const OpDef op_matmul = {.type = "matmul", .infer = infer_matmul, .emit_c = emit_matmul};
const OpDef op_matmul_v2 = {.type = "matmul_v2", .infer = infer_matmul_v2, .emit_c = emit_matmul_v2,
                            .runtime_extents = 2};
const OpDef op_mul = {.type = "mul", .infer = infer_mul, .emit_c = emit_mul, .runtime_extents = 2};

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
  MatmulCall mc = {.f64 = f64, .mkn = 1, .m = em_prod(e, x, 0, xn), .n = em_prod(e, y, yn, yr),
                   .k = em_prod(e, x, xn, xr)};
  matmul_grad_products(e, &mc, x, y, dout, dx, dy, m, k, n);
  matmul_print_c(e->p, &mc);
  return 0;
}

const OpDef op_bmm_grad = {.type = "bmm_grad", .infer = grad_infer, .emit_c = emit_bmm_grad};
const OpDef op_matmul_grad = {.type = "matmul_grad", .infer = grad_infer, .emit_c = emit_matmul_grad};
const OpDef op_matmul_v2_grad = {.type = "matmul_v2_grad", .infer = grad_infer, .emit_c = emit_matmul_v2_grad,
                                 .runtime_extents = 2}; /* matmul_v2's (infer_matmul_v2 refused the rest) */
const OpDef op_mul_grad = {.type = "mul_grad", .infer = grad_infer, .emit_c = emit_mul_grad, .runtime_extents = 2};

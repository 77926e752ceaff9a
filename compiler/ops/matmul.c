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
#include "ops.h"

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

const OpDef op_bmm = {.type = "bmm", .infer = infer_bmm};
const OpDef op_matmul = {.type = "matmul", .infer = infer_matmul};
const OpDef op_matmul_v2 = {.type = "matmul_v2", .infer = infer_matmul_v2};
const OpDef op_mul = {.type = "mul", .infer = infer_mul};

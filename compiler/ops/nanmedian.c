/* nanmedian (paddle.nanmedian): X -> Out (X's dtype), MedianIndex (int64,
 * intermediate); axis:INTS=[] (all dims), keepdim:BOOLEAN=true (the Python
 * API passes false by default).
 * Out is the median of the values that are not NaN over the reduced dims:
 * the middle one of k sorted values, or the mean (l + r) / 2 of the two
 * middle ones (integer division for integer X) when k is even; NaN when
 * every value is NaN.
 * Shape rule (phi NanmedianInferMeta): the reduced dims are dropped, or kept
 * as 1 with keepdim; no axis reduces everything to a scalar ([] from Paddle
 * 2.5 on, [1] before; keepdim: all 1).  MedianIndex is [2 * element size]
 * at compile time (Paddle takes numel() of the VarDesc, which is its
 * element size there) and [2 * numel(X)] at run time.
 * Emission (float32/64, int32/64): the values of each output element are
 * gathered into kernel scratch (reduced dims last), sorted ascending with NaN
 * last (rt_argsort_*), and the median is read from the first k.
 * MedianIndex (the positions Paddle's top_k picks) is not written; a
 * program that reads it is refused. */
#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

/* reduced[i] = 1 for each dim reduced; -1 after ctx_fail. */
static int median_axes(OpCtx *c, int rank, int reduced[RT_MAX_RANK]) {
  int64_t *ax;
  int n = attr_ints(c->op, "axis", &ax);
  for (int i = 0; i < rank; i++) reduced[i] = n == 0;
  for (int i = 0; i < n; i++) {
    int a = axis_norm(ax[i], rank);
    if (a < 0) return ctx_fail(c, "axis %lld is out of range for rank %d", (long long)ax[i], rank);
    if (reduced[a]) return ctx_fail(c, "axis lists dim %d twice", a);
    reduced[a] = 1;
  }
  return 0;
}

static int infer_nanmedian(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  int reduced[RT_MAX_RANK], keep = attr_bool(c->op, "keepdim", 1);
  int64_t *ax;
  int nax = attr_ints(c->op, "axis", &ax);
  if (median_axes(c, xs->rank, reduced)) return -1;
  Shape o = {0, {0}};
  if (nax == 0 && !keep) {
    o = shape_scalar(c);
  } else {
    for (int i = 0; i < xs->rank; i++)
      if (!reduced[i]) o.d[o.rank++] = xs->d[i];
      else if (keep) o.d[o.rank++] = 1;
  }
  ctx_set(c, "Out", 0, &o, x->dtype);
  Shape mi = {1, {2 * (int64_t)rt_dtype_size(x->dtype)}};
  ctx_set(c, "MedianIndex", 0, &mi, RT_DT_INT64);
  return 0;
}

static int emit_nanmedian(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  Var *mi = ctx_out(&c, "MedianIndex", 0);
  if (mi && (mi->nusers > 0 || (mi->flags & VAR_FETCH)))
    return em_fail(e, "MedianIndex is read by the program, which is not supported (it is not computed)");
  const char *fn = tu_typed_fn("rt_argsort", x->dtype);
  if (!fn || out->dtype != x->dtype)
    return em_fail(e, "nanmedian of %s tensors is not supported", rt_dtype_name(x->dtype));
  int r = tu_rank(e, x), reduced[RT_MAX_RANK];
  if (median_axes(&c, r, reduced)) return em_fail(e, "bad axis");
  if (r <= 1)
    for (int i = 0; i < r; i++) reduced[i] = 1;
  /* the gather: kept dims, then reduced dims, in order */
  const char *xs[RT_MAX_RANK], *dims[RT_MAX_RANK], *st[RT_MAX_RANK], *stride = "1";
  int n = 0;
  tu_strides(e, x, xs);
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < r; i++)
      if (reduced[i] == pass) {
        dims[n] = em_dim(e, x, i), st[n++] = xs[i];
        if (pass) stride = tu_mul(stride, em_dim(e, x, i));
      }
  SymDim len = {0, 1}; /* the values per output element, a * B + c */
  for (int i = 0; i < r; i++)
    if (reduced[i]) {
      SymDim d = em_spec(e, x)->d[i];
      if ((d.a && len.a) || (d.a && d.c))
        return em_fail(e, "two reduced dims grow with the batch, or one is not a multiple of it");
      len = d.a ? (SymDim){d.a * len.c, 0} : (SymDim){len.a * d.c, len.c * d.c};
    }
  if (len.a == 0 && len.c == 0) return em_fail(e, "the reduced dims are empty");
  const int fp = x->dtype == RT_DT_FP32 || x->dtype == RT_DT_FP64;
  const char *t = em_ctype(x->dtype);
  SymDim all = spec_numel(em_spec(e, x));
  int64_t es = (int64_t)rt_dtype_size(x->dtype);
  pr_line(e->p, "%s *rows = (%s *)%s;", t, t, em_scratch(e, (SymDim){all.a * es, all.c * es}));
  pr_line(e->p, "%s *sorted = (%s *)%s;", t, t, em_scratch(e, (SymDim){all.a * es, all.c * es}));
  pr_line(e->p, "int64_t *pos = (int64_t *)%s;", em_scratch(e, (SymDim){all.a * 8, all.c * 8}));
  pr_line(e->p, "%s *out = %s;", t, em_ptr(e, out, 0));
  const char *d = "", *s = "";
  for (int k = 0; k < n; k++) {
    d = pool_printf("%s%s%s", d, k ? ", " : "", dims[k]);
    s = pool_printf("%s%s%s", s, k ? ", " : "", st[k]);
  }
  pr_line(e->p, "const int64_t len = %s, count = %s;", stride, em_numel(e, out));
  if (n > 0) {
    pr_line(e->p, "{");
    pr_line(e->p, "const int64_t dims[%d] = {%s};", n, d);
    pr_line(e->p, "const int64_t strides[%d] = {%s};", n, s);
    pr_line(e->p, "rt_copy_strided(%s, rows, sizeof *rows, %d, dims, strides);", em_ptr(e, x, 1), n);
    pr_line(e->p, "}");
  } else {
    pr_line(e->p, "rows[0] = %s[0];", em_ptr(e, x, 1));
  }
  pr_line(e->p, "%s(rows, count, len, 1, 0, sorted, pos, %s);", fn, em_scratch(e, (SymDim){len.a * 16, len.c * 16}));
  pr_line(e->p, "for (int64_t o = 0; o < count; o++) {");
  pr_line(e->p, "const %s *v = sorted + o * len;", t);
  pr_line(e->p, "int64_t k = len; /* values that are not NaN (sorted first) */");
  if (fp) {
    pr_line(e->p, "while (k > 0 && isnan(v[k - 1])) k--;");
    pr_line(e->p, "if (k == 0) {");
    pr_line(e->p, "out[o] = (%s)NAN;", t);
    pr_line(e->p, "} else if (k %% 2) {");
  } else {
    pr_line(e->p, "if (k %% 2) {");
  }
  pr_line(e->p, "out[o] = v[k / 2];");
  pr_line(e->p, "} else {");
  pr_line(e->p, "out[o] = (v[k / 2 - 1] + v[k / 2]) / (%s)2;", t);
  pr_line(e->p, "}");
  pr_line(e->p, "}");
  return 0;
}

const OpDef op_nanmedian = {.type = "nanmedian", .infer = infer_nanmedian, .emit_c = emit_nanmedian};

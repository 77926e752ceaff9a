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
 * program that reads it is refused, but for nanmedian_grad, which finds
 * the positions again from X (at the end of this file). */
#include <string.h>

#include "median_call.h"
#include "ops.h"
#include "sort_call.h"
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

/* The rows a median is taken over: X gathered with its kept dims first,
 * then its reduced dims, each in order (Paddle's PreprocessMedianKernel
 * transpose; every dim reduced for no axis or rank <= 1), one row of `len`
 * values per output element. */
typedef struct MedianRows {
  int n;                        /* dims of the gather */
  const char *dims[RT_MAX_RANK]; /* their sizes (C expressions) */
  const char *st[RT_MAX_RANK];  /* X's strides along them */
  const char *len;              /* values per row (C expression) */
  SymDim len_sym;               /* the same as a * B + c */
} MedianRows;

/* Fills *mr for X; -1 after em_fail. */
static int median_rows(EmitCtx *e, const Var *x, MedianRows *mr) {
  OpCtx c = {e->g, (Op *)e->op};
  int r = tu_rank(e, x), reduced[RT_MAX_RANK];
  if (median_axes(&c, r, reduced)) return em_fail(e, "bad axis");
  if (r <= 1)
    for (int i = 0; i < r; i++) reduced[i] = 1;
  const char *xs[RT_MAX_RANK];
  tu_strides(e, x, xs);
  mr->n = 0;
  mr->len = "1";
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < r; i++)
      if (reduced[i] == pass) {
        mr->dims[mr->n] = em_dim(e, x, i), mr->st[mr->n++] = xs[i];
        if (pass) mr->len = tu_mul(mr->len, em_dim(e, x, i));
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
  mr->len_sym = len;
  return 0;
}

/* The element type, the gather of mr and the kernel scratch into *call
 * (MEDIAN_GRAD: two arrays more), taken in this order. */
static void median_layout(EmitCtx *e, const Var *x, const MedianRows *mr, MedianCall *call) {
  const SymDim all = spec_numel(em_spec(e, x)), len = mr->len_sym;
  const int64_t es = (int64_t)rt_dtype_size(x->dtype);
  call->dtype = x->dtype, call->type = em_ctype(x->dtype);
  call->rank = mr->n, call->dims = mr->dims, call->strides = mr->st, call->len = mr->len;
  call->rows = em_scratch_at(e, "rows", (SymDim){all.a * es, all.c * es});
  call->vals = em_scratch_at(e, "vals", (SymDim){all.a * es, all.c * es});
  call->idx = em_scratch_at(e, "idx", (SymDim){all.a * 8, all.c * 8});
  if (call->kind == MEDIAN_GRAD) {
    call->at = em_scratch_at(e, "at", (SymDim){all.a * 8, all.c * 8});
    call->nans = em_scratch_at(e, "nans", (SymDim){all.a * 8, all.c * 8});
  }
  call->work = em_scratch_named(e, "unsigned char", "work", (SymDim){len.a * 16, len.c * 16});
}

/* 1 when every op reading MedianIndex (mi) is a nanmedian_grad, which
 * finds the median positions again from X (see nanmedian_grad below). */
static int median_index_unread(const Graph *g, const Var *mi) {
  if (mi->flags & VAR_FETCH) return 0;
  for (int u = 0; u < mi->nusers; u++)
    if (strcmp(g->ops[mi->users[u]].type, "nanmedian_grad")) return 0;
  return 1;
}

static int emit_nanmedian(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  Var *mi = ctx_out(&c, "MedianIndex", 0);
  if (mi && !median_index_unread(e->g, mi))
    return em_fail(e, "MedianIndex is read by the program, which is not supported (it is not computed)");
  if (!sort_dtype_ok(x->dtype) || out->dtype != x->dtype)
    return em_fail(e, "nanmedian of %s tensors is not supported", rt_dtype_name(x->dtype));
  MedianRows mr;
  if (median_rows(e, x, &mr)) return -1;
  MedianCall call = {.kind = MEDIAN_FORWARD, .count = em_numel(e, out), .x = em_ptr(e, x, 1),
                     .out = em_ptr(e, out, 0)};
  median_layout(e, x, &mr, &call);
  median_print_c(e->p, &call);
  return 0;
}

const OpDef op_nanmedian = {.type = "nanmedian", .infer = infer_nanmedian, .emit_c = emit_nanmedian};

/* nanmedian_grad (X, MedianIndex, Out@GRAD -> X@GRAD; phi
 * NanmedianGradKernel): X@GRAD is 0 but at the median's positions in each
 * row, which take Out@GRAD, or Out@GRAD / 2 each when the median is the
 * mean of two values; a row of NaN gives nothing.
 * MedianIndex holds those positions as Paddle's forward kernel found them;
 * paddlec's nanmedian does not write it, so this kernel finds them again
 * from X by the same steps (ProcessMedianKernel, CalcMedianFunc): NaN
 * counted per row; no gradient at all when X is all NaN; else
 * phi FullTopK of the k smallest (rt_topk_*, libstdc++'s order among
 * equal values, which decides which of several equal values gets the
 * gradient), k = the most non-NaN values of a row when X holds a NaN and
 * len / 2 + 1 when not; then the middle one (odd count) or the two middle
 * ones of the row's values that are not NaN.  float32, float64, int32,
 * int64 (integer halves truncate, as Paddle's T division does). */
static int emit_nanmedian_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !dout || !dx) return -1;
  if (!sort_dtype_ok(x->dtype) || dout->dtype != x->dtype || dx->dtype != x->dtype)
    return em_fail(e, "nanmedian_grad of %s tensors is not supported", rt_dtype_name(x->dtype));
  if (em_same_buffer(e, dx, dout) || em_same_buffer(e, dx, x)) return em_fail(e, "X@GRAD must not share a buffer");
  MedianRows mr;
  if (median_rows(e, x, &mr)) return -1;
  MedianCall call = {.kind = MEDIAN_GRAD, .count = em_numel(e, dout), .numel = em_numel(e, x),
                     .x = em_ptr(e, x, 1), .dout = em_ptr(e, dout, 1), .dx = em_ptr(e, dx, 0)};
  median_layout(e, x, &mr, &call);
  median_print_c(e->p, &call);
  return 0;
}

/* MedianIndex: found again from X (see above); keepdim only shaped Out,
 * whose elements Out@GRAD holds in the same order either way. */
static const char *const nanmedian_grad_ignores[] = {"MedianIndex", NULL};
static const char *const nanmedian_grad_attr_ignores[] = {"keepdim", NULL};
const OpDef op_nanmedian_grad = {.type = "nanmedian_grad", .infer = grad_infer, .emit_c = emit_nanmedian_grad,
                                 .ignores = nanmedian_grad_ignores, .attr_ignores = nanmedian_grad_attr_ignores};

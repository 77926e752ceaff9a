/* Diagonals of tensors:
 *   diagonal (paddle.diagonal): Input -> Out; offset:INT=0, axis1:INT=0,
 *     axis2:INT=1.  Out drops axis1 and axis2 and appends the diagonal:
 *     Out[..., i] = Input[.., i + max(-offset, 0) at axis1, ..,
 *     i + max(offset, 0) at axis2, ..].
 *   trace (paddle.trace): Input -> Out, the same attributes; Out[...] = the
 *     sum of that diagonal (0 for an empty one), except that Paddle 2.6's
 *     kernel takes the two axes in increasing order, so the offset always
 *     moves along the later one.
 *   diag_embed (paddle.nn.functional.diag_embed): Input -> Out; offset:INT=0,
 *     dim1:INT=-2, dim2:INT=-1.  The inverse: Out has Input's dims with the
 *     last replaced by two of size |offset| + last, inserted at dim1 and
 *     dim2 (of Out's rank); zero but for the diagonal, which holds Input.
 * Shape rules (phi DiagonalInferMeta, TraceInferMeta, DiagEmbedInferMeta):
 * the two axes differ after normalization; the diagonal's length is
 * min(d1, d2 - offset) (offset > 0) or min(d1 + offset, d2) (offset < 0),
 * 0 when not positive, with unknown (-1) dims taking part in that
 * arithmetic as in Paddle; trace of a 2-D Input is a scalar ([] from Paddle
 * 2.5 on, [1] before).
 * Emission (any element type; trace: not bool): diagonal is one strided
 * copy (the diagonal walks the sum of the two axes' strides; over an
 * Input of the run's sizes, the length the run's: diag_run_len, as its
 * grad's scatter walks it); trace copies
 * the diagonals into kernel scratch the same way and sums each in order;
 * diag_embed zeroes Out and writes each element of Input at its place. */
#include "../util.h"
#include "diag_call.h"
#include "ops.h"
#include "run_hw.h"
#include "tensor_util.h"

/* The two axes of diagonal / trace, normalized; -1 after ctx_fail. */
static int diag_axes(OpCtx *c, int rank, int *a1, int *a2) {
  int64_t v1 = attr_int(c->op, "axis1", 0), v2 = attr_int(c->op, "axis2", 1);
  *a1 = axis_norm(v1, rank), *a2 = axis_norm(v2, rank);
  if (*a1 < 0 || *a2 < 0) return ctx_fail(c, "axis1 %lld or axis2 %lld is out of range", (long long)v1, (long long)v2);
  if (*a1 == *a2) return ctx_fail(c, "axis1 and axis2 are the same dim %d", *a1);
  return 0;
}

/* DiagonalInferMeta's length of the diagonal of dims d1 x d2. */
static int64_t diag_len(int64_t d1, int64_t d2, int64_t offset) {
  if (offset == 0) return d1 < d2 ? d1 : d2;
  if (offset > 0) return d2 - offset > 0 ? (d1 < d2 - offset ? d1 : d2 - offset) : 0;
  return d1 + offset > 0 ? (d1 + offset < d2 ? d1 + offset : d2) : 0;
}

/* Input's dims without a1 and a2. */
static Shape drop_axes(const Shape *s, int a1, int a2) {
  Shape o = {0, {0}};
  for (int i = 0; i < s->rank; i++)
    if (i != a1 && i != a2) o.d[o.rank++] = s->d[i];
  return o;
}

/* Where Input's dim d goes in diagonal's Out (-1: a1 or a2, whose sizes
 * make the last dim, the diagonal's length). */
static void diagonal_to(int rank, int a1, int a2, int *to) {
  for (int i = 0, n = 0; i < RT_MAX_RANK; i++) to[i] = i < rank && i != a1 && i != a2 ? n++ : -1;
}

/* Input of the run's sizes: Out's other dims keep theirs, its length is
 * the run's where a1 or a2 is (at most diag_len of the bounds, as the
 * length grows with either size).  The length of the main diagonal of two
 * dims of one extent (the scores of a sequence with itself) is that extent. */
static void diagonal_runtime(OpCtx *c, const Var *x, int a1, int a2, int64_t offset) {
  const unsigned run = var_runtime_mask(x);
  int to[RT_MAX_RANK];
  diagonal_to(x->shape.rank, a1, a2, to);
  const int last = x->shape.rank - 2;
  unsigned mask = (run >> a1 & 1) || (run >> a2 & 1) ? 1u << last : 0;
  for (int d = 0; d < x->shape.rank; d++) mask |= to[d] >= 0 && (run >> d & 1) ? 1u << to[d] : 0;
  if (!mask) return;
  ctx_set_runtime_extents(c, "Out", 0, mask, x->runtime_from);
  Var *o = ctx_out(c, "Out", 0);
  if (o && x->runtime_same && offset == 0 && same_runtime_dims(x, a1, x, a2)) /* one extent throughout */
    ctx_inherit_root(o, x, 1);
  else if (o)
    run_hw_share_root(c->g, o, pool_printf("diagonal %d %d %lld of r%d", a1, a2, (long long)offset, x->runtime_root));
}

static int infer_diagonal(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0);
  int a1, a2;
  if (!x) return -1;
  if (x->shape.rank < 2) return ctx_fail(c, "Input %s must have rank >= 2", shape_str(&x->shape));
  if (diag_axes(c, x->shape.rank, &a1, &a2)) return -1;
  Shape o = drop_axes(&x->shape, a1, a2);
  o.d[o.rank++] = diag_len(x->shape.d[a1], x->shape.d[a2], attr_int(c->op, "offset", 0));
  ctx_set(c, "Out", 0, &o, x->dtype);
  diagonal_runtime(c, x, a1, a2, attr_int(c->op, "offset", 0));
  return 0;
}

static int infer_trace(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0);
  int a1, a2;
  if (!x) return -1;
  if (x->shape.rank < 2) return ctx_fail(c, "Input %s must have rank >= 2", shape_str(&x->shape));
  if (diag_axes(c, x->shape.rank, &a1, &a2)) return -1;
  Shape o = x->shape.rank == 2 ? shape_scalar(c) : drop_axes(&x->shape, a1, a2);
  ctx_set(c, "Out", 0, &o, x->dtype);
  return 0;
}

/* The view of Input's diagonals as [other dims..., L]: C expressions for
 * the dims and Input strides, and the offset of the first element.
 * Returns the view's rank. */
static int diag_view(EmitCtx *e, const Var *x, int a1, int a2, int64_t offset, int64_t len, const char **dims,
                     const char **st, const char **start) {
  const char *xs[RT_MAX_RANK];
  int r = tu_rank(e, x), n = 0;
  tu_strides(e, x, xs);
  for (int i = 0; i < r; i++)
    if (i != a1 && i != a2) dims[n] = em_dim(e, x, i), st[n++] = xs[i];
  dims[n] = pool_printf("%lld", (long long)len);
  st[n++] = tu_add(xs[a1], xs[a2]);
  *start = offset > 0 ? tu_mul(pool_printf("%lld", (long long)offset), xs[a2])
                      : offset < 0 ? tu_mul(pool_printf("%lld", (long long)-offset), xs[a1]) : "0";
  return n;
}

/* Checks shared by diagonal and trace: the axes and the diagonal's length
 * (into *len, known at compile time: for sizes the run gives, the
 * bound's). */
static int diag_setup(EmitCtx *e, const Var *x, int *a1, int *a2, int64_t *len) {
  OpCtx c = {e->g, (Op *)e->op};
  int r = tu_rank(e, x);
  if (r < 2 || diag_axes(&c, r, a1, a2)) return em_fail(e, "bad axes");
  int64_t d1 = em_bound_dim(e, x, *a1), d2 = em_bound_dim(e, x, *a2);
  if (d1 < 0 || d2 < 0) return em_fail(e, "the diagonal's dims must not depend on the batch");
  *len = diag_len(d1, d2, attr_int(e->op, "offset", 0));
  return 0;
}

/* The diagonal's length over the sizes the run gives x (diag_len as C);
 * returns the length's C name. */
static const char *diag_run_len(EmitCtx *e, const Var *x, int a1, int a2, int64_t off) {
  pr_line(e->p, "/* the diagonal's length over the run's sizes */");
  pr_line(e->p, "const int64_t d1 = %s, d2 = %s;", em_dim(e, x, a1), em_dim(e, x, a2));
  if (off == 0)
    pr_line(e->p, "const int64_t len = d1 < d2 ? d1 : d2;");
  else if (off > 0)
    pr_line(e->p, "const int64_t len = d2 - %lld > 0 ? (d1 < d2 - %lld ? d1 : d2 - %lld) : 0;", (long long)off,
            (long long)off, (long long)off);
  else
    pr_line(e->p, "const int64_t len = d1 - %lld > 0 ? (d1 - %lld < d2 ? d1 - %lld : d2) : 0;", (long long)-off,
            (long long)-off, (long long)-off);
  return "len";
}

/* diag_run_len, written as Out's last extent where that is the run's, and
 * Out's other extents Input's (diagonal_runtime). */
static const char *diag_run_extents(EmitCtx *e, const Var *x, const Var *out, int a1, int a2, int64_t off) {
  int to[RT_MAX_RANK];
  diagonal_to(tu_rank(e, x), a1, a2, to);
  tu_pass_extents_to(e, x, out, to);
  const char *len = diag_run_len(e, x, a1, a2, off);
  const int last = tu_rank(e, out) - 1;
  if (em_spec(e, out)->runtime_mask >> last & 1) pr_line(e->p, "%s = %s;", em_dim(e, out, last), len);
  return len;
}

static int emit_diagonal(EmitCtx *e) {
  Var *x = tu_in(e, "Input", 0), *out = tu_out(e, "Out", 0);
  int a1, a2;
  int64_t len;
  if (!x || !out || diag_setup(e, x, &a1, &a2, &len)) return -1;
  if (x->dtype != out->dtype) return em_fail(e, "Input and Out differ in dtype");
  if (x == out) return em_fail(e, "Out is Input itself, which is not supported");
  const int64_t off = attr_int(e->op, "offset", 0);
  const char *run_len = em_spec(e, x)->runtime_mask ? diag_run_extents(e, x, out, a1, a2, off) : NULL;
  if (len == 0) return 0; /* an empty Out (at the bound: at every size) */
  const char *dims[RT_MAX_RANK], *st[RT_MAX_RANK], *start;
  int n = diag_view(e, x, a1, a2, off, len, dims, st, &start);
  if (run_len) dims[n - 1] = run_len;
  return tu_strided_copy(e, x, start, out, n, dims, st);
}

static int emit_trace(EmitCtx *e) {
  Var *x = tu_in(e, "Input", 0), *out = tu_out(e, "Out", 0);
  int a1, a2;
  int64_t len;
  if (!x || !out || diag_setup(e, x, &a1, &a2, &len)) return -1;
  if (a1 > a2) { /* Paddle 2.6's funcs::Diagonal takes the two axes in order */
    int t = a1;
    a1 = a2, a2 = t;
    len = diag_len(em_const_dim(e, x, a1), em_const_dim(e, x, a2), attr_int(e->op, "offset", 0));
  }
  if (x->dtype != out->dtype || x->dtype == RT_DT_BOOL)
    return em_fail(e, "trace of %s tensors is not supported", rt_dtype_name(x->dtype));
  const char *dims[RT_MAX_RANK], *st[RT_MAX_RANK], *start;
  int n = diag_view(e, x, a1, a2, attr_int(e->op, "offset", 0), len, dims, st, &start);
  DiagCall call = {.kind = DIAG_TRACE, .type = em_ctype(x->dtype), .dst = em_ptr(e, out, 0),
                   .numel = em_numel(e, out), .dlen = len, .rank = n, .dims = dims, .strides = st, .start = start};
  if (len > 0) {
    SymDim nd = spec_numel(em_spec(e, out));
    int64_t esize = rt_dtype_size(x->dtype);
    call.scratch = em_scratch_at(e, "diag", (SymDim){nd.a * len * esize, nd.c * len * esize});
    call.src = em_ptr(e, x, 1);
  }
  diag_print_c(e->p, &call);
  return 0;
}

/* dX = 0 but for the diagonals of the (a1, a2) view (diag_view), which
 * take Out@GRAD: element i of the diagonal at other-dims position o gets
 * dout[o * len + i] (per_elem, diagonal_grad) or dout[o] (trace_grad). */
static int emit_diag_scatter(EmitCtx *e, int per_elem) {
  Var *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "Input@GRAD", 0);
  int a1, a2;
  int64_t len;
  if (!dout || !dx || diag_setup(e, dx, &a1, &a2, &len)) return -1;
  if (!per_elem && a1 > a2) { /* as emit_trace */
    int t = a1;
    a1 = a2, a2 = t;
    len = diag_len(em_const_dim(e, dx, a1), em_const_dim(e, dx, a2), attr_int(e->op, "offset", 0));
  }
  if (dout->dtype != dx->dtype || dx->dtype == RT_DT_BOOL)
    return em_fail(e, "%s of %s tensors is not supported", e->op->type, rt_dtype_name(dx->dtype));
  const char *dims[RT_MAX_RANK], *st[RT_MAX_RANK], *start;
  DiagCall call = {.kind = DIAG_SCATTER_ND, .type = em_ctype(dx->dtype), .dst = em_ptr(e, dx, 0),
                   .numel = em_numel(e, dx), .dlen = len, .per_elem = per_elem};
  if (len > 0) { /* else empty diagonals: zeros (at the bound: at every size) */
    const int64_t off = attr_int(e->op, "offset", 0);
    call.rank = diag_view(e, dx, a1, a2, off, len, dims, st, &start);
    if (em_spec(e, dx)->runtime_mask) dims[call.rank - 1] = diag_run_len(e, dx, a1, a2, off); /* Input's run sizes */
    call.dims = dims, call.strides = st, call.start = start;
    call.src = em_ptr(e, dout, 1);
  }
  diag_print_c(e->p, &call);
  return 0;
}

/* diagonal_grad: Input, Out@GRAD -> Input@GRAD (Input's shape); the
 * forward's attributes.  phi DiagonalGradKernel: zeros, and the diagonal
 * (axis1, axis2 as given) takes Out@GRAD.  Input is read for its shape. */
static int emit_diagonal_grad(EmitCtx *e) { return emit_diag_scatter(e, 1); }

/* trace_grad: Input, Out@GRAD -> Input@GRAD; the forward's attributes.
 * phi TraceGradKernel: zeros, and every element of a diagonal (the axes
 * in increasing order, as the forward) takes its Out@GRAD element. */
static int emit_trace_grad(EmitCtx *e) { return emit_diag_scatter(e, 0); }

/* diag_embed's dim1 and dim2, normalized for Out's rank; -1 after
 * ctx_fail. */
static int embed_dims(OpCtx *c, int in_rank, int *d1, int *d2) {
  int64_t v1 = attr_int(c->op, "dim1", -2), v2 = attr_int(c->op, "dim2", -1);
  if (v1 < -(in_rank + 1) || v1 > in_rank || v2 < -(in_rank + 1) || v2 > in_rank)
    return ctx_fail(c, "dim1 %lld or dim2 %lld is out of range", (long long)v1, (long long)v2);
  *d1 = (int)(v1 < 0 ? in_rank + v1 + 1 : v1), *d2 = (int)(v2 < 0 ? in_rank + v2 + 1 : v2);
  if (*d1 == *d2) return ctx_fail(c, "dim1 and dim2 are the same dim %d", *d1);
  return 0;
}

static int infer_diag_embed(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0);
  int d1, d2;
  if (!x) return -1;
  const Shape *xs = &x->shape;
  if (xs->rank < 1 || xs->rank + 1 > RT_MAX_RANK) return ctx_fail(c, "Input %s must have rank >= 1", shape_str(xs));
  if (embed_dims(c, xs->rank, &d1, &d2)) return -1;
  int64_t off = attr_int(c->op, "offset", 0), len = (off < 0 ? -off : off) + xs->d[xs->rank - 1];
  int lo = d1 < d2 ? d1 : d2, hi = d1 < d2 ? d2 : d1;
  Shape o = {0, {0}};
  int to[RT_MAX_RANK]; /* Input's dim j is Out's to[j] (the last: lo and hi, |offset| + its size) */
  for (int j = 0; j < RT_MAX_RANK; j++) to[j] = -1;
  for (int j = 0; o.rank < xs->rank + 1; o.rank++) {
    if (o.rank != lo && o.rank != hi) to[j] = o.rank;
    o.d[o.rank] = o.rank == lo || o.rank == hi ? len : xs->d[j++];
  }
  ctx_set(c, "Out", 0, &o, x->dtype);
  const unsigned run = var_runtime_mask(x);
  if (!run) return 0; /* Input of the run's sizes: Out's follow */
  unsigned mask = run >> (xs->rank - 1) & 1 ? 1u << lo | 1u << hi : 0;
  for (int j = 0; j < xs->rank - 1; j++) mask |= run >> j & 1 && to[j] >= 0 ? 1u << to[j] : 0;
  ctx_set_runtime_extents(c, "Out", 0, mask, x->runtime_from);
  Var *ov = ctx_out(c, "Out", 0);
  if (ov && off == 0 && x->runtime_same) /* every run-time dim the one extent of Input's */
    ctx_inherit_root(ov, x, 1);
  else if (ov)
    run_hw_share_root(c->g, ov, pool_printf("diag_embed %d %d %lld of r%d", lo, hi, (long long)off, x->runtime_root));
  return 0;
}

static int emit_diag_embed(EmitCtx *e) {
  Var *x = tu_in(e, "Input", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (x->dtype != out->dtype) return em_fail(e, "Input and Out differ in dtype");
  if (x == out) return em_fail(e, "Out is Input itself, which is not supported");
  OpCtx c = {e->g, (Op *)e->op};
  int r = tu_rank(e, x), d1, d2;
  if (r < 1 || r > RT_MAX_RANK - 1) return em_fail(e, "Input of rank %d: diag_embed needs 1 to %d", r, RT_MAX_RANK - 1);
  if (embed_dims(&c, r, &d1, &d2)) return em_fail(e, "bad dim1 or dim2");
  int64_t off = attr_int(e->op, "offset", 0);
  const char *os[RT_MAX_RANK], *xd[RT_MAX_RANK];
  if (em_spec(e, x)->runtime_mask) { /* Out's extents from Input's sizes the run gives */
    const char *last = em_dim(e, x, r - 1), *side = off ? pool_printf("%lld + %s", (long long)(off < 0 ? -off : off),
                                                                      last) : last;
    for (int i = 0, j = 0; i < r + 1; i++) {
      const char *v = i == d1 || i == d2 ? side : em_dim(e, x, j++);
      if (em_spec(e, out)->runtime_mask >> i & 1) pr_line(e->p, "%s = %s;", em_dim(e, out, i), v);
    }
  }
  tu_strides(e, out, os);
  for (int i = 0; i < r; i++) xd[i] = em_dim(e, x, i);
  /* Out's stride for each dim of Input but the last, in order */
  const char *walk[RT_MAX_RANK];
  for (int i = 0, j = 0; i < r + 1; i++)
    if (i != d1 && i != d2) walk[j++] = os[i];
  walk[r - 1] = tu_add(os[d1], os[d2]);
  const char *start = off > 0 ? tu_mul(pool_printf("%lld", (long long)off), os[d2])
                              : off < 0 ? tu_mul(pool_printf("%lld", (long long)-off), os[d1]) : "0";
  diag_print_c(e->p, &(DiagCall){.kind = DIAG_EMBED_ND, .type = em_ctype(x->dtype), .src = em_ptr(e, x, 1),
                                 .dst = em_ptr(e, out, 0), .numel = em_numel(e, out), .len = em_numel(e, x),
                                 .start = start, .rank = r, .dims = xd, .strides = walk});
  return 0;
}

const OpDef op_diag_embed = {.type = "diag_embed", .infer = infer_diag_embed, .emit_c = emit_diag_embed,
                             .runtime_extents = 2};
const OpDef op_diagonal = {.type = "diagonal", .infer = infer_diagonal, .emit_c = emit_diagonal,
                           .runtime_extents = 2};
const OpDef op_diagonal_grad = {.type = "diagonal_grad", .infer = grad_infer, .emit_c = emit_diagonal_grad,
                                .runtime_extents = 2};
const OpDef op_trace = {.type = "trace", .infer = infer_trace, .emit_c = emit_trace};
const OpDef op_trace_grad = {.type = "trace_grad", .infer = grad_infer, .emit_c = emit_trace_grad};

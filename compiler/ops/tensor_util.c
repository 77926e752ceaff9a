/* Emission helpers of the tensor-family ops (see tensor_util.h). */
#include "tensor_util.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util.h"
#include "move_call.h"
#include "rt_tensor.h"

/* s in parentheses when it has a + or - outside any (so a product keeps its
 * meaning). */
static const char *paren(const char *s) {
  int depth = 0;
  for (const char *p = s; *p; p++) {
    if (*p == '(') depth++;
    else if (*p == ')') depth--;
    else if (!depth && p > s && (*p == '+' || *p == '-') && p[-1] == ' ') return pool_printf("(%s)", s);
  }
  return s;
}

/* 1 when s is a decimal integer, in *v. */
static int number(const char *s, long long *v) {
  char *end;
  *v = strtoll(s, &end, 10);
  return *s && !*end;
}

const char *tu_mul(const char *a, const char *b) {
  long long x, y;
  if (number(a, &x) && number(b, &y)) return pool_printf("%lld", x * y);
  if (!strcmp(a, "0") || !strcmp(b, "0")) return "0";
  if (!strcmp(a, "1")) return b;
  if (!strcmp(b, "1")) return a;
  return pool_printf("%s * %s", paren(a), paren(b));
}

const char *tu_add(const char *a, const char *b) {
  long long x, y;
  if (number(a, &x) && number(b, &y)) return pool_printf("%lld", x + y);
  if (!strcmp(a, "0")) return b;
  if (!strcmp(b, "0")) return a;
  return pool_printf("%s + %s", a, b);
}

int tu_is_one(SymDim d) { return d.a == 0 && d.c == 1; }

/* v checked: concrete shape and a C element type. */
static Var *checked(EmitCtx *e, Var *v, const char *slot, int i) {
  if (!v) {
    em_fail(e, "slot %s[%d] is missing", slot, i);
    return NULL;
  }
  if (!em_spec(e, v)->known) {
    em_fail(e, "%s ('%s') has no concrete shape", slot, v->name);
    return NULL;
  }
  if (!em_ctype(v->dtype)) {
    const char *n = rt_dtype_name(v->dtype);
    em_fail(e, "%s ('%s') is %s, which is not supported", slot, v->name, n ? n : "not a tensor");
    return NULL;
  }
  return v;
}

Var *tu_in(EmitCtx *e, const char *slot, int i) {
  OpCtx c = {e->g, (Op *)e->op};
  return checked(e, ctx_in(&c, slot, i), slot, i);
}

Var *tu_out(EmitCtx *e, const char *slot, int i) {
  OpCtx c = {e->g, (Op *)e->op};
  return checked(e, ctx_out(&c, slot, i), slot, i);
}

int tu_rank(EmitCtx *e, const Var *v) { return em_spec(e, v)->rank; }

void tu_strides(EmitCtx *e, const Var *v, const char **st) {
  int r = tu_rank(e, v);
  for (int k = 0; k < r; k++) st[k] = em_prod(e, v, k + 1, r);
}

/* Element counts as a*B + c, or as text when not affine. */
static int same_numel(EmitCtx *e, const Var *a, const Var *b) {
  SymDim na = spec_numel(em_spec(e, a)), nb = spec_numel(em_spec(e, b));
  if (na.a < 0 || nb.a < 0) return !strcmp(em_numel(e, a), em_numel(e, b));
  return na.a == nb.a && na.c == nb.c;
}

/* dst = src, once: the kernel's start has the moves its op's shape rule
 * recorded (tu_pass_recorded_extents), which an emitter may name again. */
static void move_extent(EmitCtx *e, const char *dst, const char *src) {
  const char *line = pool_printf("%s = %s;", dst, src);
  if (!e->p->buf || !strstr(e->p->buf, line)) move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = dst, .src = src});
}

void tu_pass_extent(EmitCtx *e, const Var *x, const Var *out) {
  const VarSpec *xs = em_spec(e, x), *os = em_spec(e, out);
  if (xs->runtime_mask & (xs->runtime_mask - 1)) { /* several: Out has X's dims */
    for (int k = 0; k < xs->rank && xs->runtime_mask == os->runtime_mask; k++)
      if (xs->runtime_mask >> k & 1) move_extent(e, em_dim(e, out, k), em_dim(e, x, k));
    return;
  }
  const int d = xs->runtime_dim - 1, od = os->runtime_dim - 1;
  if (d < 0 || od < 0) return;
  move_extent(e, em_dim(e, out, od), em_dim(e, x, d));
}

void tu_pass_extents_to(EmitCtx *e, const Var *x, const Var *out, const int *to) {
  const VarSpec *xs = em_spec(e, x), *os = em_spec(e, out);
  for (int d = 0; d < xs->rank; d++)
    if (xs->runtime_mask >> d & 1 && to[d] >= 0 && os->runtime_mask >> to[d] & 1)
      move_extent(e, em_dim(e, out, to[d]), em_dim(e, x, d));
}

/* 1 when var v is an output of op (its extents are the kernel's to write). */
static int writes(const Op *op, int v) {
  for (int s = 0; s < op->nout; s++)
    for (int a = 0; a < op->out[s].n; a++)
      if (op->out[s].vars[a] == v) return 1;
  return 0;
}

void tu_pass_recorded_extents(EmitCtx *e) {
  const Op *op = e->op;
  for (int k = 0; k < op->nmoves; k++) {
    const ExtentMove *m = &op->moves[k];
    const Var *x = &e->g->vars[m->src], *out = &e->g->vars[m->dst];
    /* not from an output: its extents are the kernel's to write first (its emitter moves them on); an input's,
     * or a var's before it (reshape2_grad's forward X, infer_grad_xshape) */
    if (writes(op, m->src) || !em_spec(e, x)->known || !em_spec(e, out)->known) continue;
    int to[RT_MAX_RANK];
    for (int d = 0; d < RT_MAX_RANK; d++) to[d] = m->to[d];
    tu_pass_extents_to(e, x, out, to);
  }
}

void tu_bcast_extents(EmitCtx *e, const Var *out, int n, const Var *const *in, const int64_t *axis) {
  const VarSpec *os = em_spec(e, out);
  const char *differ = NULL;
  for (int o = 0; o < os->rank; o++) {
    if (!(os->runtime_mask >> o & 1)) continue;
    const Var *src = NULL;
    int sd = 0;
    unsigned s_out = 0;
    for (int k = 0; k < n; k++) {
      const int d = o - bcast_shift(in[k]->shape.rank, os->rank, axis[k]);
      if (d < 0 || !(em_spec(e, in[k])->runtime_mask >> d & 1)) continue;
      const unsigned k_out = bcast_run_mask(in[k], os->rank, axis[k]);
      if (!src) {
        src = in[k], sd = d, s_out = k_out;
        move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = em_dim(e, out, o), .src = em_dim(e, src, sd)});
      } else if (!bcast_extents_one(src, sd, s_out, in[k], d, k_out)) {
        pr_line(e->p, "if (%s != %s) return 1; /* '%s' and '%s' differ along dim %d of '%s' */", em_dim(e, src, sd),
                em_dim(e, in[k], d), src->name, in[k]->name, o, out->name);
        const char *pair = pool_printf("'%s' and '%s' have different sizes along dim %d", src->name, in[k]->name, o);
        differ = differ ? pool_printf("%s, or %s", differ, pair) : pair; /* every check the kernel may stop at */
      }
    }
  }
  if (differ) em_fault(e, pool_printf("%s of '%s' in this run (Paddle raises an error)", differ, out->name));
}

int tu_copy(EmitCtx *e, const Var *x, const Var *out) {
  if (!same_numel(e, x, out) && x->dtype == out->dtype) return em_fail(e, "X and Out differ in element count");
  return tu_copy_count(e, x, out, em_numel(e, out));
}

int tu_copy_count(EmitCtx *e, const Var *x, const Var *out, const char *count) {
  if (x->dtype != out->dtype)
    return em_fail(e, "X is %s but Out is %s", rt_dtype_name(x->dtype), rt_dtype_name(out->dtype));
  MoveCall call = {.kind = MOVE_COPY, .type = em_ctype(out->dtype), .count = count};
  if (x == out) {
    call.alias = 1;
  } else if (em_same_buffer(e, x, out)) {
    em_wrote(e, out);
    call.alias = 2;
  } else {
    call.src = em_ptr(e, x, 1);
    call.dst = em_ptr(e, out, 0);
  }
  move_print_c(e->p, &call);
  return 0;
}

int tu_strided_call(EmitCtx *e, const Var *x, const char *offset, const Var *out, int rank,
                    const char *const *dims, const char *const *strides, MoveCall *call) {
  if (rank > RT_COPY_MAX_RANK) return em_fail(e, "the copy has %d dims (at most %d)", rank, RT_COPY_MAX_RANK);
  const char *t = em_ctype(out->dtype);
  const char *src = strcmp(offset, "0") ? pool_printf("%s + %s", em_ptr(e, x, 1), offset) : em_ptr(e, x, 1);
  const char **d = pool_alloc(sizeof *d * RT_COPY_MAX_RANK), **s = pool_alloc(sizeof *s * RT_COPY_MAX_RANK);
  int n = 0;
  for (int k = 0; k < rank; k++)
    if (strcmp(dims[k], "1")) d[n] = dims[k], s[n++] = strides[k];
  if (n == 0) { /* one element */
    *call = (MoveCall){.kind = MOVE_ONE, .src = src, .dst = em_ptr(e, out, 0)};
    return 0;
  }
  *call = (MoveCall){.kind = MOVE_COPY_STRIDED, .src = src, .dst = em_ptr(e, out, 0),
                     .esize = pool_printf("sizeof(%s)", t), .rank = n, .dims = d, .strides = s};
  return 0;
}

int tu_strided_copy(EmitCtx *e, const Var *x, const char *offset, const Var *out, int rank,
                    const char *const *dims, const char *const *strides) {
  MoveCall call;
  if (tu_strided_call(e, x, offset, out, rank, dims, strides, &call)) return -1;
  move_print_c(e->p, &call);
  return 0;
}

const char *tu_sum(int n, const char *const *terms) {
  long long k = 0;
  const char *sym = "0";
  for (int i = 0; i < n; i++) {
    long long v;
    if (number(terms[i], &v)) k += v;
    else sym = tu_add(sym, terms[i]);
  }
  return k ? tu_add(sym, pool_printf("%lld", k)) : sym;
}

int tu_grad_copy(EmitCtx *e) {
  Var *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!dout || !dx) return -1;
  return tu_copy(e, dout, dx); /* X@GRAD's run-time extents: the shape rule's (infer_grad_xshape) */
}

int tu_pieces(EmitCtx *e, const Var *whole, int n, Var *const *pieces, const char *outer,
              const char *const *inner, int join) {
  for (int i = 0; i < n; i++)
    if (pieces[i] && pieces[i]->dtype != whole->dtype)
      return em_fail(e, "piece %d is %s, not %s", i, rt_dtype_name(pieces[i]->dtype), rt_dtype_name(whole->dtype));
  MoveCall call = {.kind = MOVE_PIECES, .type = em_ctype(whole->dtype), .npieces = n, .cols = inner,
                   .width = tu_sum(n, inner), .outer = outer, .join = join};
  if (strcmp(call.width, "0")) { /* else every piece is empty: no buffer is touched */
    const char **ptr = pool_alloc(sizeof *ptr * (size_t)(n ? n : 1));
    call.whole = em_ptr(e, whole, !join);
    for (int i = 0; i < n; i++) ptr[i] = pieces[i] && strcmp(inner[i], "0") ? em_ptr(e, pieces[i], join) : NULL;
    call.pieces = ptr;
  }
  move_print_c(e->p, &call);
  return 0;
}

const char *tu_line_start(const char *line, const char *n, const char *inner) {
  if (!strcmp(inner, "1")) return tu_mul(line, n);
  return tu_add(tu_mul(tu_mul(pool_printf("(%s / %s)", line, inner), n), inner), pool_printf("%s %% %s", line, inner));
}

int tu_index_grad(EmitCtx *e, const char *dx_slot, const char *idx_slot, const char *dout_slot, int axis,
                  int dropped, const char *scalar) {
  Var *idx = tu_in(e, idx_slot, 0), *dout = tu_in(e, dout_slot, 0), *dx = tu_out(e, dx_slot, 0);
  if (!idx || !dout || !dx) return -1;
  const int dt = dx->dtype;
  if (dout->dtype != dt || !(dt == RT_DT_FP32 || dt == RT_DT_FP64 || dt == RT_DT_INT32 || dt == RT_DT_INT64))
    return em_fail(e, "%s of %s (%s %s) is not supported", e->op->type, rt_dtype_name(dt), dout_slot,
                   rt_dtype_name(dout->dtype));
  if (idx->dtype != RT_DT_INT64 && idx->dtype != RT_DT_INT32)
    return em_fail(e, "%s is %s (int32 or int64 supported)", idx_slot, rt_dtype_name(idx->dtype));
  SymDim ni = spec_numel(em_spec(e, idx)), nd = spec_numel(em_spec(e, dout));
  if (ni.a != nd.a || ni.c != nd.c) return em_fail(e, "%s and %s differ in element count", idx_slot, dout_slot);
  MoveCall call = {.kind = MOVE_TAKE_GRAD, .type = em_ctype(dt), .itype = em_ctype(idx->dtype)};
  call.idx = em_ptr(e, idx, 1);
  call.dout = em_ptr(e, dout, 1);
  call.dx = em_ptr(e, dx, 0);
  call.dx_numel = em_numel(e, dx);
  int r = tu_rank(e, dx);
  if (r == 0) { /* one element */
    call.scalar = scalar;
  } else {
    call.n = em_dim(e, dx, axis), call.len = dropped ? "1" : em_dim(e, dout, axis);
    call.post = em_prod(e, dx, axis + 1, r), call.outer = em_prod(e, dx, 0, axis);
  }
  move_print_c(e->p, &call);
  return 0;
}

void tu_run_equal(EmitCtx *e, const Var *v, const Var *other, const char *have, const char *want, const char *why) {
  if (!strcmp(have, want) || (!em_spec(e, v)->runtime_mask && (!other || !em_spec(e, other)->runtime_mask))) return;
  em_fault(e, why);
  pr_line(e->p, "if ((%s) != (%s)) return 1; /* sizes the run gives: %s */", have, want, why);
}

int tu_max_shaped(EmitCtx *e, const Var *out) {
  const VarSpec *vs = em_spec(e, out);
  return vs->rank > 0 && vs->runtime_mask == (1u << vs->rank) - 1 && (out->flags & VAR_MAX_SHAPED);
}

void tu_set_extents(EmitCtx *e, const Var *out, const char *const *dims, int n, const char *why) {
  const VarSpec *vs = em_spec(e, out);
  /* a bound the compiler proved in a model of size classes: one per class, not checked */
  const int proved = e->size_classes && !(out->flags & VAR_MAX_SHAPED);
  if (proved) pr_line(e->p, "/* '%s' has the run's dims, within its class's bounds */", out->name);
  else pr_line(e->p, "/* '%s' has the run's dims, at most its bound %s */", out->name, shape_str(&out->shape));
  for (int d = 0; d < n && d < vs->rank; d++) {
    if (!(vs->runtime_mask >> d & 1)) continue;
    pr_line(e->p, "const int64_t ext%d = (int64_t)(%s);", d, dims[d]);
    if (proved) pr_line(e->p, "if (ext%d < 0) return 1;", d);
    else if (vs->d[d].a) pr_line(e->p, "if (ext%d < 0 || ext%d > %s) return 1;", d, d, em_sym(vs->d[d])); /* the batch's */
    else pr_line(e->p, "if (ext%d < 0 || ext%d > INT64_C(%lld)) return 1;", d, d, (long long)vs->d[d].c);
    pr_line(e->p, "%s = ext%d;", em_dim(e, out, d), d);
  }
  em_fault(e, why);
}

int tu_run_values(EmitCtx *e, const char *tensor, const char *list, const char *what, const char **vals) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *t = ctx_in(&c, tensor, 0);
  int64_t n = t ? shape_numel(&t->shape) : ctx_nin(&c, list);
  if (n < 0 || n > RT_MAX_RANK) return em_fail(e, "%s gives %lld values", what, (long long)n);
  for (int i = 0; i < n; i++) {
    Var *v = t ? t : ctx_in(&c, list, i);
    if (!v || (v->dtype != RT_DT_INT32 && v->dtype != RT_DT_INT64))
      return em_fail(e, "%s must be int32 or int64", what);
    vals[i] = pool_printf("(int64_t)%s[%d]", em_ptr(e, v, 1), t ? i : 0);
  }
  return (int)n;
}

int tu_run_attr_values(EmitCtx *e, const char *name, const char **vals) {
  const OpAttr *a = attr_is_var(e->op, name) ? attr_find(e->op, name) : NULL;
  if (!a) return em_fail(e, "attribute %s is not given as tensors", name);
  const int list = a->type == AT_VARS;
  const Var *one = NULL;
  if (!list) {
    const OpCtx c = {e->g, (Op *)e->op};
    if (!(one = ctx_attr_tensor(&c, name))) return em_fail(e, "attribute %s names no tensor", name);
  }
  const int64_t n = list ? (int64_t)a->n_vars_name : shape_numel(&one->shape);
  if (n < 0 || n > RT_MAX_RANK) return em_fail(e, "attribute %s gives %lld values", name, (long long)n);
  for (int i = 0; i < n; i++) {
    const int id = list && a->vars_name[i] ? graph_find_var(e->g, e->op->block, a->vars_name[i]) : -1;
    const Var *v = list ? (id < 0 ? NULL : &e->g->vars[id]) : one;
    if (!v || (v->dtype != RT_DT_INT32 && v->dtype != RT_DT_INT64))
      return em_fail(e, "attribute %s's tensors must be int32 or int64", name);
    vals[i] = pool_printf("(int64_t)%s[%d]", em_ptr(e, v, 1), list ? 0 : i);
  }
  return (int)n;
}

void tu_print_run_axis(EmitCtx *e, const char *value, const Var *v, int r, const char *unless) {
  const char *dims = "";
  for (int i = 0; i < r; i++) dims = pool_printf("%s%s%s", dims, i ? ", " : "", em_dim(e, v, i));
  pr_line(e->p, "int64_t axis = %s;", value);
  pr_line(e->p, "if (axis < 0) axis += %d;", r);
  if (unless) {
    pr_line(e->p, "if (axis < 0 || axis >= %d) {", r);
    pr_line(e->p, "if (!(%s)) return 1;", unless);
    pr_line(e->p, "axis = 0;");
    pr_line(e->p, "}");
  } else {
    pr_line(e->p, "if (axis < 0 || axis >= %d) return 1;", r);
  }
  pr_line(e->p, "const int64_t axis_dims[%d] = {%s};", r, dims);
  pr_line(e->p, "int64_t axis_outer = 1, axis_inner = 1;");
  pr_line(e->p, "for (int64_t i = 0; i < %d; i++) {", r);
  pr_line(e->p, "if (i < axis) axis_outer *= axis_dims[i];");
  pr_line(e->p, "if (i > axis) axis_inner *= axis_dims[i];");
  pr_line(e->p, "}");
  pr_line(e->p, "const int64_t axis_n = axis_dims[axis];");
}

const char *tu_run_axis(EmitCtx *e, const char *slot) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *t = ctx_in(&c, slot, 0);
  if (!t || (t->dtype != RT_DT_INT32 && t->dtype != RT_DT_INT64) || shape_numel(&t->shape) != 1) {
    em_fail(e, "%s must be one int32 or int64", slot);
    return NULL;
  }
  return pool_printf("(int64_t)%s[0]", em_ptr(e, t, 1));
}

int tu_shape_extents(EmitCtx *e, const Var *out) {
  OpCtx c = {e->g, (Op *)e->op};
  const char *dims[RT_MAX_RANK], *slot = ctx_in(&c, "ShapeTensor", 0) ? "ShapeTensor" : "ShapeTensorList";
  int n = tu_run_values(e, "ShapeTensor", "ShapeTensorList", "a shape tensor", dims);
  if (n < 0) return -1;
  tu_set_extents(e, out, dims, n,
                 pool_printf("a shape from %s below 0 or past --max-shape %s", slot, shape_str(&out->shape)));
  return 0;
}

int tu_slot_values(OpCtx *c, const char *slot, int list, int64_t *out, int max) {
  const int64_t *v;
  int n = ctx_in(c, slot, 0) ? ctx_nin(c, slot) : 0;
  if (n == 0) return -1;
  if (list) {
    if (n > max) return -1;
    for (int i = 0; i < n; i++) {
      if (ctx_values(c, ctx_in(c, slot, i), &v) != 1) return -1;
      out[i] = v[0];
    }
    return n;
  }
  int k = ctx_values(c, ctx_in(c, slot, 0), &v);
  if (k < 0 || k > max) return -1;
  for (int i = 0; i < k; i++) out[i] = v[i];
  return k;
}

const char *tu_literal(int dtype, double v) {
  if (dtype == RT_DT_FP32) return em_float(v);
  if (dtype == RT_DT_FP64) {
    if (isnan(v)) return "(double)NAN";
    if (isinf(v)) return v > 0 ? "(double)INFINITY" : "-(double)INFINITY";
    const char *s = pool_printf("%.17g", v);
    return strpbrk(s, ".eEn") ? s : pool_printf("%s.0", s);
  }
  if (dtype == RT_DT_BOOL) return v != 0 ? "true" : "false"; /* NaN is true, as static_cast<bool> */
  if (!(v > -9223372036854775808.0 && v < 9223372036854775808.0)) return NULL;
  long long i = (long long)v; /* truncation toward zero, as static_cast */
  switch (dtype) {
    case RT_DT_INT64: return i == INT64_MIN ? "INT64_MIN" : pool_printf("INT64_C(%lld)", i);
    case RT_DT_INT32: /* x86's conversion: out of range is the most negative value */
      return i <= INT32_MIN || i > INT32_MAX ? "INT32_MIN" : pool_printf("%d", (int32_t)i);
    case RT_DT_INT16: return pool_printf("%d", (int16_t)i);
    case RT_DT_INT8: return pool_printf("%d", (int8_t)i);
    case RT_DT_UINT8: return pool_printf("%d", (uint8_t)i);
    default: return NULL;
  }
}

int tu_float_dtype(EmitCtx *e, Var *const *vs, int n) {
  const int dt = vs[0]->dtype;
  if (dt != RT_DT_FP32 && dt != RT_DT_FP64)
    return em_fail(e, "'%s' is %s: %s is supported for float32 or float64 tensors (Paddle's CPU kernels)",
                   vs[0]->name, rt_dtype_name(dt), e->op->type);
  for (int i = 1; i < n; i++)
    if (vs[i] && vs[i]->dtype != dt)
      return em_fail(e, "'%s' is %s but '%s' is %s: %s computes in one dtype throughout (all float32 or all float64)",
                     vs[0]->name, rt_dtype_name(dt), vs[i]->name, rt_dtype_name(vs[i]->dtype), e->op->type);
  return dt;
}

const char *tu_scratch_like(EmitCtx *e, const Var *v, const char *role) {
  SymDim bytes = em_sym_prod(e, v, 0, tu_rank(e, v));
  const int64_t size = (int64_t)rt_dtype_size(v->dtype);
  bytes.a *= size, bytes.c *= size;
  return em_scratch_named(e, v->dtype == RT_DT_FP64 ? "double" : "float", role, bytes);
}

const char *tu_respell(int dtype, const char *line) {
  static const char *const words[][2] = {{"float", "double"}, {"fmaf", "fma"},   {"sqrtf", "sqrt"},
                                         {"fabsf", "fabs"},   {"logf", "log"},   {"expf", "exp"}};
  if (!line || dtype != RT_DT_FP64) return line;
  char *out = pool_alloc(2 * strlen(line) + 1), *o = out; /* "float" -> "double" at most doubles */
  for (const char *s = line; *s;) {
    const char *w = s;
    if (isalpha((unsigned char)*s) || *s == '_') { /* a word: copied, or respelled whole */
      while (isalnum((unsigned char)*s) || *s == '_') s++;
      const size_t len = (size_t)(s - w);
      const char *rep = NULL;
      for (size_t k = 0; k < sizeof words / sizeof words[0] && !rep; k++)
        if (strlen(words[k][0]) == len && !strncmp(w, words[k][0], len)) rep = words[k][1];
      if (!rep) memcpy(o, w, len), o += len;
      else o = strcpy(o, rep) + strlen(rep);
    } else if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) { /* a number */
      while (isdigit((unsigned char)*s) || *s == '.' || *s == 'e' || *s == 'E' ||
             ((*s == '-' || *s == '+') && (s[-1] == 'e' || s[-1] == 'E')))
        *o++ = *s++;
      if (*s == 'f' && !isalnum((unsigned char)s[1]) && s[1] != '_') s++; /* the float suffix */
    } else {
      *o++ = *s++;
    }
  }
  *o = 0;
  return out;
}

static void pr_respelled(Printer *p, int dtype, const char *fmt, va_list ap) {
  pr_line(p, "%s", tu_respell(dtype, pool_vprintf(fmt, ap)));
}

void tu_pr(EmitCtx *e, int dtype, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  pr_respelled(e->p, dtype, fmt, ap);
  va_end(ap);
}

void tu_pr_to(Printer *p, int dtype, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  pr_respelled(p, dtype, fmt, ap);
  va_end(ap);
}

int tu_seq_types(EmitCtx *e, const Var *x, const Var *out) {
  if (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64 && x->dtype != RT_DT_INT32 && x->dtype != RT_DT_INT64)
    return em_fail(e, "X ('%s') is %s; Paddle's CPU kernel takes float32, float64, int32 and int64", x->name,
                   rt_dtype_name(x->dtype));
  if (out->dtype != x->dtype)
    return em_fail(e, "Out ('%s') is %s, X %s", out->name, rt_dtype_name(out->dtype), rt_dtype_name(x->dtype));
  return 0;
}

/* Broadcasting loops: NumPy-style, and the sums of broadcast gradients
 * (see bcast_util.h). */
#include "bcast_util.h"

#include <string.h>

#include "../util.h"
#include "tensor_util.h"

static int same(SymDim a, SymDim b) { return a.a == b.a && a.c == b.c; }

/* Dim j of v counted from the right (0 = last), 1 beyond its rank. */
static SymDim from_right(EmitCtx *e, const Var *v, int j) {
  const VarSpec *s = em_spec(e, v);
  return j < s->rank ? s->d[s->rank - 1 - j] : (SymDim){0, 1};
}

int bc_shape(EmitCtx *e, int n, Var *const *in, int max_rank, int *rank, SymDim *dims) {
  int r = 0;
  for (int k = 0; k < n; k++)
    if (tu_rank(e, in[k]) > r) r = tu_rank(e, in[k]);
  SymDim d[RT_MAX_RANK];
  for (int j = 0; j < r; j++) {
    d[j] = (SymDim){0, 1};
    for (int k = 0; k < n; k++) {
      SymDim v = from_right(e, in[k], j);
      if (tu_is_one(v)) continue;
      if (!tu_is_one(d[j]) && !same(d[j], v))
        return em_fail(e, "the inputs do not broadcast: %s against %s", em_sym(d[j]), em_sym(v));
      d[j] = v;
    }
  }
  while (r > max_rank && r > 0 && tu_is_one(d[r - 1])) r--;
  if (r > max_rank) return em_fail(e, "the inputs broadcast to more than %d dims", max_rank);
  for (int j = 0; j < r; j++) dims[j] = d[r - 1 - j];
  *rank = r;
  return 0;
}

int bc_open(EmitCtx *e, int rank, const SymDim *dims, int n, Var *const *in, const char *const *idx, int want_o) {
  enum { MAX_IN = 16 };
  if (n > MAX_IN) return em_fail(e, "%d inputs to broadcast (at most %d)", n, MAX_IN);
  const char *ix[MAX_IN], *o = "0", *step = "1";
  for (int k = 0; k < n; k++) ix[k] = "0";
  /* strides from the last dim on: the output's, and each input's (0 where it broadcasts) */
  const char *ist[MAX_IN];
  for (int k = 0; k < n; k++) ist[k] = "1";
  const char *loop_var[RT_MAX_RANK];
  for (int d = rank - 1; d >= 0; d--) {
    const char *ext = em_sym(dims[d]);
    loop_var[d] = NULL;
    if (tu_is_one(dims[d])) continue;
    loop_var[d] = pool_printf("i%d", d);
    o = tu_add(tu_mul(loop_var[d], step), o);
    step = tu_mul(step, ext);
    for (int k = 0; k < n; k++) {
      SymDim v = from_right(e, in[k], rank - 1 - d);
      if (tu_is_one(v)) continue;
      ix[k] = tu_add(tu_mul(loop_var[d], ist[k]), ix[k]);
      ist[k] = tu_mul(ist[k], em_sym(v));
    }
  }
  int open = 0;
  for (int d = 0; d < rank; d++) {
    if (!loop_var[d]) continue;
    pr_line(e->p, "for (int64_t %s = 0; %s < %s; %s++) {", loop_var[d], loop_var[d], em_sym(dims[d]), loop_var[d]);
    open++;
  }
  if (want_o) pr_line(e->p, "const int64_t o = %s;", o);
  for (int k = 0; k < n; k++) pr_line(e->p, "const int64_t %s = %s;", idx[k], ix[k]);
  return open;
}

enum { GRAD_MAX_IN = 8 };

/* Tensor v's dims padded with 1s to rank r around `axis` (emit_ew.h's
 * rule), into d[r]; -1 after em_fail when v does not fit full's dims `fd`. */
static int grad_pad(EmitCtx *e, const EwIn *t, int r, const SymDim *fd, SymDim *d) {
  const VarSpec *s = em_spec(e, t->v);
  int64_t axis = t->axis < 0 || s->rank >= r ? r - s->rank : t->axis;
  if (s->rank > r || axis + s->rank > r) return em_fail(e, "'%s' has more dims than the output at axis %lld", t->v->name, (long long)t->axis);
  for (int i = 0; i < r; i++) {
    int j = i - (int)axis;
    d[i] = j >= 0 && j < s->rank ? s->d[j] : (SymDim){0, 1};
    if (!tu_is_one(d[i]) && !same(d[i], fd[i]))
      return em_fail(e, "'%s' dim %d (%s) does not broadcast to %s", t->v->name, j, em_sym(d[i]), em_sym(fd[i]));
  }
  return 0;
}

int bc_grad_named(EmitCtx *e, const Var *full, const EwIn *g, int nall, const EwIn *all, const char *body,
                  const char *term) {
  EwIn in[GRAD_MAX_IN];
  int n = 0;
  for (int k = 0; k < nall; k++)
    if (all[k].v && (ew_names(term, all[k].elem) || (body && ew_names(body, all[k].elem)))) {
      if (n == GRAD_MAX_IN) return em_fail(e, "more than %d operands in a gradient loop", GRAD_MAX_IN);
      in[n++] = all[k];
    }
  return bc_grad(e, full, g, n, in, body, term);
}

int bc_grad(EmitCtx *e, const Var *full, const EwIn *g, int n, const EwIn *in, const char *body, const char *term) {
  if (n + 1 > GRAD_MAX_IN) return em_fail(e, "%d operands in a gradient loop (at most %d)", n, GRAD_MAX_IN - 1);
  if (g->v->dtype != RT_DT_FP32 && g->v->dtype != RT_DT_FP64)
    return em_fail(e, "%s gradients are not supported", rt_dtype_name(g->v->dtype));
  const char *gt = em_ctype(g->v->dtype);
  const VarSpec *fs = em_spec(e, full);
  const int r = fs->rank;
  /* operand k < n is in[k]; k == n is g */
  SymDim d[GRAD_MAX_IN][RT_MAX_RANK];
  for (int k = 0; k <= n; k++) {
    const EwIn *t = k < n ? &in[k] : g;
    if (!em_ctype(t->v->dtype)) return em_fail(e, "dtype %s is not supported", rt_dtype_name(t->v->dtype));
    if (grad_pad(e, t, r, fs->d, d[k])) return -1;
  }
  /* collapsed loop dims: extent and which tensors move along them */
  const char *ext[RT_MAX_RANK];
  int varies[RT_MAX_RANK][GRAD_MAX_IN], nd = 0, reduce = 0;
  for (int i = 0; i < r; i++) {
    if (tu_is_one(fs->d[i])) continue;
    int v[GRAD_MAX_IN] = {0}, alike = nd > 0;
    for (int k = 0; k <= n; k++) {
      v[k] = !tu_is_one(d[k][i]);
      alike = alike && v[k] == varies[nd - 1][k];
    }
    reduce |= !v[n];
    if (alike) {
      ext[nd - 1] = tu_mul(ext[nd - 1], em_sym(fs->d[i]));
    } else {
      ext[nd] = em_sym(fs->d[i]);
      memcpy(varies[nd], v, sizeof v);
      nd++;
    }
  }
  /* each tensor's index: the loop counters times its strides (the product
   * of the later extents it moves along); gsz = g's elements per row of
   * the outermost dim */
  const char *idx[GRAD_MAX_IN], *gsz = "1";
  for (int k = 0; k <= n; k++) {
    const char *acc = "1";
    idx[k] = "0";
    for (int i = nd - 1; i >= 0; i--) {
      if (!varies[i][k]) continue;
      if (i == 0 && k == n) gsz = acc;
      idx[k] = tu_add(tu_mul(pool_printf("i%d", i), acc), idx[k]);
      acc = tu_mul(acc, i ? pool_printf("n%d", i) : "rows");
    }
  }
  int split = nd > 0 && varies[0][n]; /* tasks own rows of g */
  pr_line(e->p, "{"); /* a scope for the task's arguments: a kernel may run several */
  em_task_begin(e, em_numel(e, full), split ? ext[0] : "1");
  for (int k = 0; k < n; k++)
    pr_line(e->p, "const %s *%s = %s;", em_ctype(in[k].v->dtype), in[k].ptr, em_ptr(e, in[k].v, 1));
  pr_line(e->p, "%s *%s = %s;", gt, g->ptr, em_ptr(e, g->v, 0));
  for (int i = 1; i < nd; i++) pr_line(e->p, "const int64_t n%d = %s;", i, ext[i]);
  if (reduce) {
    if (split)
      pr_line(e->p, "for (int64_t j = lo * %s; j < hi * %s; j++) %s[j] = 0.0f;", gsz, gsz, g->ptr);
    else
      pr_line(e->p, "for (int64_t j = 0; j < %s; j++) %s[j] = 0.0f;", em_numel(e, g->v), g->ptr);
  }
  if (nd == 0) { /* one element */
    pr_line(e->p, "(void)lo, (void)hi;");
  } else if (split) {
    pr_line(e->p, "for (int64_t i0 = lo; i0 < hi; i0++) {");
  } else {
    pr_line(e->p, "(void)lo, (void)hi; /* one task: the sums run along the outermost dim */");
    pr_line(e->p, "for (int64_t i0 = 0; i0 < %s; i0++) {", ext[0]);
  }
  for (int i = 1; i < nd; i++) pr_line(e->p, "for (int64_t i%d = 0; i%d < n%d; i%d++) {", i, i, i, i);
  for (int k = 0; k < n; k++)
    pr_line(e->p, "const %s %s = %s[%s];", em_ctype(in[k].v->dtype), in[k].elem, in[k].ptr, idx[k]);
  for (const char *l = body; l && *l;) { /* one pr_line per line, so braces indent */
    const char *nl = strchr(l, '\n');
    int len = nl ? (int)(nl - l) : (int)strlen(l);
    pr_line(e->p, "%.*s", len, l);
    l = nl ? nl + 1 : l + len;
  }
  if (reduce) { /* the term first, as its own statement: no multiply-add contracted into one rounding */
    pr_line(e->p, "const %s t = %s;", gt, term);
    pr_line(e->p, "%s[%s] += t;", g->ptr, idx[n]);
  } else {
    pr_line(e->p, "%s[%s] = %s;", g->ptr, idx[n], term);
  }
  for (int i = 0; i < nd; i++) pr_line(e->p, "}");
  em_task_end(e);
  pr_line(e->p, "}");
  return 0;
}

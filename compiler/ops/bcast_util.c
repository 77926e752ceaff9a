/* Broadcasting loops: NumPy-style, and the sums of broadcast gradients
 * (see bcast_util.h), as records (bcast_call.h). */
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

/* v's j-th dim from the right as the run's extent (em_dim), or NULL when
 * it is not a run-time one. */
static const char *run_dim_from_right(EmitCtx *e, const Var *v, int j) {
  const VarSpec *s = em_spec(e, v);
  return j < s->rank && s->runtime_mask >> (s->rank - 1 - j) & 1 ? em_dim(e, v, s->rank - 1 - j) : NULL;
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

int bc_loop(EmitCtx *e, int rank, const SymDim *dims, int n, Var *const *in, BcLoop *l) {
  if (n > BC_MAX_IN) return em_fail(e, "%d inputs to broadcast (at most %d)", n, BC_MAX_IN);
  *l = (BcLoop){.rank = rank, .n = n};
  /* strides from the last dim on: each input's (0 where it broadcasts) */
  const char *ist[BC_MAX_IN];
  for (int k = 0; k < n; k++) ist[k] = "1";
  for (int d = rank - 1; d >= 0; d--) {
    l->ext[d] = em_sym(dims[d]);
    for (int k = 0; k < n; k++) /* a run-time extent there: the loop's, the run's (tu_bcast_extents checks them) */
      if (run_dim_from_right(e, in[k], rank - 1 - d)) l->ext[d] = run_dim_from_right(e, in[k], rank - 1 - d);
    for (int k = 0; k < n; k++) {
      SymDim v = from_right(e, in[k], rank - 1 - d);
      const char *run = run_dim_from_right(e, in[k], rank - 1 - d);
      l->stride[k][d] = "0";
      if (!run && (tu_is_one(dims[d]) || tu_is_one(v))) continue; /* a run-time extent always moves */
      l->stride[k][d] = ist[k];
      ist[k] = tu_mul(ist[k], run ? run : em_sym(v));
    }
  }
  return 0;
}

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
  EwIn in[BC_GRAD_MAX_IN - 1]; /* g takes the last of bc_grad's BC_GRAD_MAX_IN */
  int n = 0;
  for (int k = 0; k < nall; k++)
    if (all[k].v && (ew_names(term, all[k].elem) || (body && ew_names(body, all[k].elem)))) {
      if (n == BC_GRAD_MAX_IN - 1)
        return em_fail(e, "more than %d operands in a gradient loop", BC_GRAD_MAX_IN - 1);
      in[n++] = all[k];
    }
  return bc_grad(e, full, g, n, in, body, term);
}

int bc_grad(EmitCtx *e, const Var *full, const EwIn *g, int n, const EwIn *in, const char *body, const char *term) {
  if (n + 1 > BC_GRAD_MAX_IN) return em_fail(e, "%d operands in a gradient loop (at most %d)", n, BC_GRAD_MAX_IN - 1);
  if (g->v->dtype != RT_DT_FP32 && g->v->dtype != RT_DT_FP64)
    return em_fail(e, "%s gradients are not supported", rt_dtype_name(g->v->dtype));
  const char *gt = em_ctype(g->v->dtype);
  const VarSpec *fs = em_spec(e, full);
  const int r = fs->rank;
  /* operand k < n is in[k]; k == n is g */
  SymDim d[BC_GRAD_MAX_IN][RT_MAX_RANK];
  for (int k = 0; k <= n; k++) {
    const EwIn *t = k < n ? &in[k] : g;
    if (!em_ctype(t->v->dtype)) return em_fail(e, "dtype %s is not supported", rt_dtype_name(t->v->dtype));
    if (grad_pad(e, t, r, fs->d, d[k])) return -1;
  }
  /* collapsed loop dims: extent and which tensors move along them */
  BcastCall c = {.kind = BCAST_GRAD};
  BcGrad *bg = &c.grad;
  int nd = 0, reduce = 0;
  for (int i = 0; i < r; i++) {
    if (tu_is_one(fs->d[i])) continue;
    int v[BC_GRAD_MAX_IN] = {0}, alike = nd > 0;
    for (int k = 0; k <= n; k++) {
      v[k] = !tu_is_one(d[k][i]);
      alike = alike && v[k] == bg->varies[nd - 1][k];
    }
    reduce |= !v[n];
    const char *ext = fs->runtime_mask >> i & 1 ? em_dim(e, full, i) : em_sym(fs->d[i]); /* the run's, or known */
    if (alike) {
      bg->ext[nd - 1] = tu_mul(bg->ext[nd - 1], ext);
    } else {
      bg->ext[nd] = ext;
      memcpy(bg->varies[nd], v, sizeof v);
      nd++;
    }
  }
  bg->n = n;
  bg->nd = nd;
  bg->gtype = gt;
  bg->reduce = reduce;
  bg->split = nd > 0 && bg->varies[0][n]; /* tasks own rows of g */
  bg->body = body;
  bg->term = term;
  bcast_print_c(e->p, &(BcastCall){.kind = BCAST_GRAD_OPEN});
  em_task_begin(e, em_numel(e, full), bg->split ? bg->ext[0] : "1");
  for (int k = 0; k < n; k++) {
    bg->ctype[k] = em_ctype(in[k].v->dtype);
    bg->ptr[k] = in[k].ptr;
    bg->at[k] = em_ptr(e, in[k].v, 1);
    bg->elem[k] = in[k].elem;
  }
  bg->ptr[n] = g->ptr;
  bg->at[n] = em_ptr(e, g->v, 0);
  if (reduce && !bg->split) bg->gnumel = em_numel(e, g->v);
  bcast_print_c(e->p, &c);
  em_task_end(e);
  bcast_print_c(e->p, &(BcastCall){.kind = BCAST_GRAD_CLOSE});
  return 0;
}

/* NumPy-style broadcasting loops (see bcast_util.h). */
#include "bcast_util.h"

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

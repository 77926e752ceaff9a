/* Compile-time values of small integer tensors (see consteval.h). */
#include "consteval.h"

#include <stdlib.h>
#include <string.h>

#include "ops/ops.h"
#include "util.h"

static int is_int(int dtype) { return dtype == RT_DT_INT32 || dtype == RT_DT_INT64; }

uint64_t consteval_all_known(int n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

int consteval_full(const Var *v) { return v && v->nvals >= 0 && v->vmask == consteval_all_known(v->nvals); }

int consteval_tracked(const Var *v) { return v && v->nvals >= 0; }

void consteval_set(Var *out, const int64_t *vals, int n, uint64_t mask) {
  if (!out || n < 0 || n > CONST_MAX || !is_int(out->dtype) || shape_numel(&out->shape) != n) return;
  if (!(mask & consteval_all_known(n)) && n) return; /* nothing known */
  out->vals = pool_alloc(sizeof(int64_t) * (size_t)(n ? n : 1));
  memcpy(out->vals, vals, sizeof(int64_t) * (size_t)n);
  out->nvals = n;
  out->vmask = mask & consteval_all_known(n);
}

int consteval_bit(const Var *v, int i) { return (int)(v->vmask >> (v->nvals == 1 ? 0 : i) & 1); }

void consteval_fold_copy(OpCtx *c) {
  Var *x = ctx_in(c, "X", 0);
  if (consteval_tracked(x)) consteval_set(ctx_out(c, "Out", 0), x->vals, x->nvals, x->vmask);
}

void consteval_join(OpCtx *c, const char *out_slot) {
  int64_t v[CONST_MAX];
  int k = 0, n = ctx_nin(c, "X");
  uint64_t mask = 0;
  if (attr_int(c->op, "axis", 0) != 0) return;
  for (int i = 0; i < n; i++) {
    const Var *x = ctx_in(c, "X", i);
    if (!consteval_tracked(x) || k + x->nvals > CONST_MAX) return;
    for (int j = 0; j < x->nvals; j++, k++) {
      v[k] = x->vals[j];
      mask |= (x->vmask >> j & 1) << k;
    }
  }
  consteval_set(ctx_out(c, out_slot, 0), v, k, mask);
}

void consteval_params(Graph *g) {
  for (int i = 0; i < g->nparams; i++) {
    Var *p = &g->vars[g->params[i]];
    int64_t n = shape_numel(&p->shape), v[CONST_MAX];
    if (!(p->flags & VAR_LOADED) || !p->param_data || !is_int(p->dtype) || n < 0 || n > CONST_MAX) continue;
    if (p->producer >= 0) continue; /* written by an op (a step counter): not a constant */
    for (int64_t k = 0; k < n; k++) {
      if (p->dtype == RT_DT_INT64) {
        memcpy(&v[k], p->param_data + k * 8, 8);
      } else {
        int32_t x;
        memcpy(&x, p->param_data + k * 4, 4);
        v[k] = x;
      }
    }
    consteval_set(p, v, (int)n, consteval_all_known((int)n));
  }
}

void consteval_op(Graph *g, Op *op) {
  if (!g->specializing || !op->def || !op->def->fold) return;
  OpCtx c = {g, op};
  op->def->fold(&c);
}

/* Exported for rules (declared in ops/ops.h as ctx_values). */
int consteval_values(const Graph *g, const Var *v, const int64_t **vals) {
  if (!g->specializing || !consteval_full(v)) return -1;
  *vals = v->vals;
  return v->nvals;
}

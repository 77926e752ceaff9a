/* Input checks and attribute rules shared by the sliding-window ops (conv.c,
 * conv_transpose.c, pool.c); declared and documented in ops.h. */
#include <string.h>

#include "ops.h"

Var *conv_input(OpCtx *c, const char *slot, Var **w) {
  Var *x = ctx_need(c, slot, 0);
  Var *f = w ? ctx_need(c, "Filter", 0) : NULL;
  if (!x || (w && !f)) return NULL;
  const Shape *xs = &x->shape;
  if (xs->rank != 4 && xs->rank != 5) {
    ctx_fail(c, "%s has rank %d (shape %s), expected 4 or 5", slot, xs->rank, shape_str(xs));
    return NULL;
  }
  if (f && f->shape.rank != xs->rank) {
    ctx_fail(c, "Filter %s and %s %s differ in rank", shape_str(&f->shape), slot, shape_str(xs));
    return NULL;
  }
  if (w) *w = f;
  return x;
}

void attr_ints_fill(const Op *op, const char *name, int n, int64_t dflt, int64_t *out) {
  int64_t *v;
  int k = attr_ints(op, name, &v);
  for (int i = 0; i < n; i++) out[i] = i < k ? v[i] : dflt;
}

int conv_padding(OpCtx *c, int nsp, const int64_t *in, const int64_t *k, const int64_t *stride,
                 int64_t *pad, int64_t *dil) {
  int64_t *p;
  int np = attr_ints(c->op, "paddings", &p);
  if (np == nsp) {
    for (int i = 0; i < nsp; i++) pad[2 * i] = pad[2 * i + 1] = p[i];
  } else if (np == 2 * nsp) {
    for (int i = 0; i < 2 * nsp; i++) pad[i] = p[i];
  } else if (np == 0) {
    for (int i = 0; i < 2 * nsp; i++) pad[i] = 0;
  } else {
    return ctx_fail(c, "paddings has %d values, expected %d or %d", np, nsp, 2 * nsp);
  }
  const char *alg = attr_str(c->op, "padding_algorithm", "EXPLICIT");
  if (strcmp(alg, "SAME") == 0) {
    for (int i = 0; i < nsp; i++) {
      if (stride[i] <= 0) continue; /* the caller rejects it (pool does so after this call) */
      /* C division truncates like C++'s; unknown dims give garbage padding
       * that is never used (their output dim is unknown). */
      int64_t out = (in[i] + stride[i] - 1) / stride[i];
      int64_t sum = (out - 1) * stride[i] + k[i] - in[i];
      if (sum < 0) sum = 0;
      pad[2 * i] = sum / 2;
      pad[2 * i + 1] = sum - sum / 2;
      if (dil) dil[i] = 1;
    }
  } else if (strcmp(alg, "VALID") == 0) {
    for (int i = 0; i < 2 * nsp; i++) pad[i] = 0;
  }
  return 0;
}

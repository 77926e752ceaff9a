/* constant_folding: ops of block 0 whose outputs are known at compile time
 * for every batch become parameters holding those values, and their readers
 * read the parameters.
 *
 * Known: small integer tensors that compiler/consteval.c evaluates (shape of
 * a tensor with static dims, fill_constant, assign_value, cast, scale,
 * slice, concat, stack and arithmetic of known values; parameters are known
 * too); float fill_constant / assign_value with a static shape and
 * attribute values; and reshape-like views, assign, scale and transpose2 of
 * a parameter (Paddle 2.x reshapes every conv bias to [1, C, 1, 1] in the
 * program).  Nothing that depends on the batch is folded, since the
 * batch stays unknown here.  Fetched and persistable outputs are kept as
 * they are; the ops left without readers go in dead_code_elimination.
 * Requires: shapes inferred.  Invalidates: the folded ops (removed). */
#include <stdlib.h>
#include <string.h>

#include "attr.h"
#include "consteval.h"
#include "infer.h"
#include "pass.h"
#include "rewrite.h"
#include "util.h"

enum { FOLD_MAX = 4096 }; /* float constants with more elements stay ops */

/* The float values of a fill_constant / assign_value output, or NULL. */
static float *float_values(const Graph *g, const Op *op, int out) {
  const Var *v = &g->vars[out];
  int64_t n = shape_numel(&v->shape);
  if (v->dtype != RT_DT_FP32 || n < 0 || n > FOLD_MAX) return NULL;
  float *f = pool_alloc(sizeof(float) * ((size_t)n + 1));
  if (!strcmp(op->type, "fill_constant")) {
    for (int s = 0; s < op->nin; s++)
      if (op->in[s].n > 0) return NULL; /* ValueTensor, ShapeTensor, ... */
    const char *sv = attr_str(op, "str_value", "");
    double d = *sv ? strtod(sv, NULL) : attr_float(op, "value", 0);
    for (int64_t i = 0; i < n; i++) f[i] = (float)d;
    return f;
  }
  if (!strcmp(op->type, "assign_value")) {
    double *vals;
    if (attr_floats(op, "fp32_values", &vals) != n) return NULL;
    for (int64_t i = 0; i < n; i++) f[i] = (float)vals[i];
    return f;
  }
  return NULL;
}

/* Ops that only rename their input's data. */
static int is_view(const char *t) {
  static const char *const views[] = {"reshape2", "reshape", "squeeze2", "squeeze", "unsqueeze2", "unsqueeze",
                                      "flatten2", "flatten", "flatten_contiguous_range", "assign", NULL};
  for (int i = 0; views[i]; i++)
    if (!strcmp(t, views[i])) return 1;
  return 0;
}

/* Output `out` of an op computed from a parameter X: a view of X, scale,
 * or transpose2 of float32 X.  A pool copy of the data, or NULL. */
static void *from_param(const Graph *g, const Op *op, int out) {
  int id = (int)(op - g->ops), x = rw_in(g, id, "X");
  const Var *v = &g->vars[out];
  /* a parameter that some op writes (training) holds other values later */
  if (!rw_is_param(g, x) || !(g->vars[x].flags & VAR_LOADED) || g->vars[x].producer >= 0) return NULL;
  for (int s = 0; s < op->nin; s++) /* tensors giving a shape or a scale at run time */
    if (strcmp(op->in[s].name, "X") && op->in[s].n > 0) return NULL;
  const Var *xv = &g->vars[x];
  int64_t n = shape_numel(&v->shape);
  if (n < 0 || n != shape_numel(&xv->shape) || v->dtype != xv->dtype) return NULL;
  if (is_view(op->type)) {
    size_t bytes = (size_t)n * rt_dtype_size(v->dtype);
    void *d = pool_alloc(bytes + 1);
    memcpy(d, xv->param_data, bytes);
    return d;
  }
  float *f = rw_param_f32(g, x);
  if (!f) return NULL;
  if (!strcmp(op->type, "scale")) {
    const double sc = attr_float(op, "scale", 1), b = attr_float(op, "bias", 0);
    const int after = attr_bool(op, "bias_after_scale", 1);
    for (int64_t i = 0; i < n; i++) f[i] = (float)(after ? sc * f[i] + b : sc * (f[i] + b));
    return f;
  }
  if (!strcmp(op->type, "transpose2") || !strcmp(op->type, "transpose")) {
    int64_t *perm;
    const int r = xv->shape.rank;
    if (attr_ints(op, "axis", &perm) != r) return NULL;
    float *t = pool_alloc(sizeof(float) * ((size_t)n + 1));
    int64_t idx[RT_MAX_RANK] = {0}, stride[RT_MAX_RANK];
    for (int d = r - 1, acc = 1; d >= 0; d--) stride[d] = acc, acc *= (int)xv->shape.d[d];
    for (int64_t o = 0; o < n; o++) { /* idx: the output element's index, row-major */
      int64_t src = 0;
      /* cppcheck-suppress uninitvar ; perm holds r distinct axes in [-r, r): transpose's infer checked them */
      for (int d = 0; d < r; d++) src += idx[d] * stride[perm[d] < 0 ? perm[d] + r : perm[d]]; /* -1: the last */
      t[o] = f[src];
      for (int d = r - 1; d >= 0 && ++idx[d] == v->shape.d[d]; d--) idx[d] = 0;
    }
    return t;
  }
  return NULL;
}

/* The parameter holding output `out`'s known value, or -1. */
static int constant_of(Graph *g, const Op *op, int out) {
  const Var *v = &g->vars[out];
  if (v->vtype != VT_LOD_TENSOR || (v->flags & (VAR_FETCH | VAR_PERSISTABLE)) || v->shape.rank < 0) return -1;
  int64_t n = shape_numel(&v->shape);
  if (n < 0) return -1;
  if (consteval_full(v) && v->nvals == n && (v->dtype == RT_DT_INT64 || v->dtype == RT_DT_INT32)) {
    void *data = pool_alloc((size_t)n * 8 + 8);
    for (int64_t i = 0; i < n; i++) {
      if (v->dtype == RT_DT_INT64) ((int64_t *)data)[i] = v->vals[i];
      else ((int32_t *)data)[i] = (int32_t)v->vals[i];
    }
    return rw_new_param(g, v->name, v->dtype, &v->shape, data);
  }
  void *d = float_values(g, op, out);
  if (!d) d = from_param(g, op, out);
  return d ? rw_new_param(g, v->name, v->dtype, &v->shape, d) : -1;
}

/* Folds op `id` when every output is a known constant.  Returns 1 if so. */
static int fold(Graph *g, int id) {
  const Op *op = &g->ops[id];
  if (!strcmp(op->type, "feed") || !strcmp(op->type, "fetch") || op->sub_block >= 0 || op->nout == 0) return 0;
  int outs[8], consts[8], n = 0;
  for (int s = 0; s < op->nout; s++)
    for (int a = 0; a < op->out[s].n; a++) {
      int v = op->out[s].vars[a];
      if (v < 0) continue;
      if (n == 8) return 0;
      if (!g->vars[v].nusers) continue; /* XShape and other unread outputs */
      if (g->vars[v].producer != id) return 0; /* another op writes it later (a loop's state) */
      outs[n++] = v;
    }
  if (!n) return 0;
  for (int i = 0; i < n; i++) {
    op = &g->ops[id];
    if ((consts[i] = constant_of(g, op, outs[i])) < 0) return 0;
  }
  for (int i = 0; i < n; i++) rw_replace_uses(g, outs[i], consts[i]);
  return 1;
}

int pass_constant_folding(Graph *g, PassCtx *c) {
  /* evaluate the known integer values (consteval.h), as when specializing,
   * with the batch still unknown */
  InferReport r;
  g->specializing = 1;
  int bad = infer_program(g, &r);
  const Block *b = &g->blocks[0];
  int n = b->nops, *ops = pool_alloc(sizeof(int) * ((size_t)n + 1));
  memcpy(ops, b->ops, sizeof(int) * (size_t)n);
  for (int k = 0; k < n && !bad; k++)
    if (fold(g, ops[k])) c->changes++;
  g->specializing = 0;
  for (int i = 0; i < g->nvars; i++) g->vars[i].nvals = -1;
  graph_relink(g);
  /* back to the shapes Paddle's compile-time rules give */
  return bad || infer_program(g, &r) ? -1 : 0;
}

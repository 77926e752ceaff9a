/* Helpers shared by op rules (see ops.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../consteval.h"
#include "../diag.h"
#include "../util.h"
#include "ops.h"

/* The slot `name`, or NULL; every look-up marks the slot as seen. */
static Slot *find_slot(Slot *s, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (strcmp(s[i].name, name) == 0) {
      s[i].seen = 1;
      return &s[i];
    }
  return NULL;
}

int op_def_ignores(const OpDef *def, const char *slot) {
  for (const char *const *i = def && def->ignores ? def->ignores : NULL; i && *i; i++)
    if (!strcmp(*i, slot)) return 1;
  return 0;
}

/* 1 when slot s binds a var that is not "@EMPTY@". */
static int bound(const Slot *s) {
  for (int i = 0; i < s->n; i++)
    if (s->vars[i] >= 0) return 1;
  return 0;
}

/* The inputs of op that nothing looked up: errors, -1 when there is one. */
static int check_inputs(Graph *g, Op *op) {
  int bad = 0;
  for (int i = 0; i < op->nin; i++) {
    const Slot *s = &op->in[i];
    if (s->seen || !bound(s) || op_def_ignores(op->def, s->name)) continue;
    int v = 0;
    while (s->vars[v] < 0) v++;
    OpCtx c = {g, op};
    bad = ctx_fail(&c, "input %s ('%s') is not implemented by paddlec's %s: refused rather than ignored", s->name,
                   g->vars[s->vars[v]].name, op->type);
  }
  return bad;
}

int op_check_slots(Graph *g, Op *op) {
  /* the op, and the ops a pass merged into it (what they compute is now
   * this op's emitter's, from what their rules and the pass looked up) */
  int bad = check_inputs(g, op);
  for (int f = 0; f < op->nfused; f++) bad |= check_inputs(g, &g->ops[op->fused[f]]);
  return bad ? -1 : 0;
}

int ctx_nin(const OpCtx *c, const char *slot) {
  Slot *s = find_slot(c->op->in, c->op->nin, slot);
  return s ? s->n : 0;
}

int ctx_nout(const OpCtx *c, const char *slot) {
  Slot *s = find_slot(c->op->out, c->op->nout, slot);
  return s ? s->n : 0;
}

Var *ctx_in(const OpCtx *c, const char *slot, int i) {
  Slot *s = find_slot(c->op->in, c->op->nin, slot);
  if (!s || i >= s->n || s->vars[i] < 0) return NULL;
  return &c->g->vars[s->vars[i]];
}

Var *ctx_out(const OpCtx *c, const char *slot, int i) {
  Slot *s = find_slot(c->op->out, c->op->nout, slot);
  if (!s || i >= s->n || s->vars[i] < 0) return NULL;
  return &c->g->vars[s->vars[i]];
}

Var *ctx_need(OpCtx *c, const char *slot, int i) {
  Var *v = ctx_in(c, slot, i);
  if (!v) {
    ctx_fail(c, "input %s is missing", slot);
    return NULL;
  }
  if (v->shape.rank < 0) {
    ctx_fail(c, "input %s ('%s') has no known shape", slot, v->name);
    return NULL;
  }
  return v;
}

void ctx_set(OpCtx *c, const char *slot, int i, const Shape *s, int dtype) {
  Var *v = ctx_out(c, slot, i);
  if (!v) return;
  v->shape = *s;
  v->dtype = dtype;
  v->flags |= VAR_INFERRED;
}

void ctx_set_all(OpCtx *c, const char *slot, const Shape *s, int dtype) {
  for (int i = 0; i < ctx_nout(c, slot); i++) ctx_set(c, slot, i, s, dtype);
}

int (ctx_fail)(OpCtx *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = graph_op_verror(c->g, c->op, fmt, ap);
  va_end(ap);
  return r;
}

int axis_norm(int64_t axis, int rank) {
  if (rank == 0) return axis == 0 || axis == -1 ? 0 : -1; /* 0-D: Paddle accepts -1 and 0 */
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= (rank ? rank : 1)) return -1;
  return (int)axis;
}

/* Paddle's compile-time elementwise broadcast (GetBroadcastDimsArrays): a
 * negative axis counts from |rank(X) - rank(Y)| + 1; dims of the smaller
 * operand align at `axis`; an unknown (-1) or 0 dim against 1 or -1 stays
 * unknown, and against a known dim > 1 takes that dim. */
int shape_broadcast(OpCtx *c, const Shape *x, const Shape *y, int64_t axis, Shape *out) {
  if (shape_equal(x, y)) {
    *out = *x;
    return 0;
  }
  int max_rank = x->rank > y->rank ? x->rank : y->rank;
  int diff = abs(x->rank - y->rank);
  if (x->rank == y->rank && axis != -1 && axis != 0)
    return ctx_fail(c, "axis %lld must be -1 or 0 when X and Y have the same rank",
                    (long long)axis);
  if (axis < -max_rank || axis >= (max_rank ? max_rank : 1))
    return ctx_fail(c, "axis %lld is out of range for rank %d", (long long)axis, max_rank);
  if (axis < 0) axis += diff + 1;
  const Shape *small = x->rank < y->rank ? x : y;
  if (axis + small->rank > max_rank)
    return ctx_fail(c, "axis %lld does not fit shapes %s and %s", (long long)axis, shape_str(x),
                    shape_str(y));
  int64_t xa[RT_MAX_RANK], ya[RT_MAX_RANK];
  for (int i = 0; i < max_rank; i++) {
    int j = i - (int)axis; /* index into the smaller operand */
    int64_t pad = (j >= 0 && j < small->rank) ? small->d[j] : 1;
    xa[i] = small == x ? pad : x->d[i];
    ya[i] = small == y ? pad : y->d[i];
  }
  Shape s = {max_rank, {0}};
  for (int i = 0; i < max_rank; i++) {
    int64_t a = xa[i], b = ya[i];
    if (a != b && a > 1 && b > 1)
      return ctx_fail(c, "shapes %s and %s do not broadcast (axis %lld)", shape_str(x),
                      shape_str(y), (long long)axis);
    s.d[i] = (a > 1 || b > 1 || (a == 1 && b == 1)) ? (a > b ? a : b) : DIM_UNKNOWN;
  }
  *out = s;
  return 0;
}

int64_t dims_prod(const Shape *s, int from, int to) {
  int64_t p = 1;
  for (int i = from; i < to; i++) {
    if (s->d[i] < 0) return DIM_UNKNOWN;
    p *= s->d[i];
  }
  return p;
}

Shape shape_make(int n, const int64_t *d) {
  Shape s = {n, {0}};
  for (int i = 0; i < n && i < RT_MAX_RANK; i++) s.d[i] = d[i];
  return s;
}

Shape shape_scalar(const OpCtx *c) {
  Shape s = {0, {0}};
  if (!c->g->zero_d) s = (Shape){1, {1}};
  return s;
}

int ctx_set_xshape(OpCtx *c, const Var *x) {
  if (!ctx_out(c, "XShape", 0)) return 0;
  if (x->shape.rank + 1 > RT_MAX_RANK) return ctx_fail(c, "X has too many dims for XShape");
  Shape xs = {x->shape.rank + 1, {0}};
  for (int i = 0; i < x->shape.rank; i++) xs.d[i + 1] = x->shape.d[i];
  ctx_set(c, "XShape", 0, &xs, x->dtype);
  return 0;
}

int64_t tensor_list_len(const Shape *first, int n) {
  if (n != 1) return n;
  int64_t numel = shape_numel(first);
  return numel > 0 ? numel : first->rank;
}

int ctx_shape_from_tensor(OpCtx *c, const char *slot, Shape *out) {
  const Var *v = ctx_in(c, slot, 0);
  if (!v) return ctx_fail(c, "input %s is missing", slot);
  if (v->shape.rank < 0) return ctx_fail(c, "input %s has no known shape", slot);
  int64_t k = shape_numel(&v->shape);
  if (k < 0 || k > RT_MAX_RANK) return ctx_fail(c, "%s %s is not usable", slot, shape_str(&v->shape));
  Shape s = {(int)k, {0}};
  for (int i = 0; i < s.rank; i++) s.d[i] = DIM_UNKNOWN;
  *out = s;
  return 0;
}

int ctx_version_before(const OpCtx *c, int64_t version) {
  int64_t v = c->g->version;
  return v < 0 || (v == 0 && !c->g->zero_d) || (v > 0 && v < version);
}

int ctx_values(const OpCtx *c, const Var *v, const int64_t **vals) { return consteval_values(c->g, v, vals); }

int ctx_param_scalar(const OpCtx *c, const Var *v, double *out) {
  (void)c;
  if (!v || !(v->flags & VAR_PARAM) || !(v->flags & VAR_LOADED) || !v->param_data || shape_numel(&v->shape) != 1)
    return 0;
  union {
    float f;
    double d;
    int64_t l;
    int32_t i;
  } x;
  switch (v->dtype) {
    case RT_DT_FP32: memcpy(&x.f, v->param_data, 4), *out = x.f; return 1;
    case RT_DT_FP64: memcpy(&x.d, v->param_data, 8), *out = x.d; return 1;
    case RT_DT_INT64: memcpy(&x.l, v->param_data, 8), *out = (double)x.l; return 1;
    case RT_DT_INT32: memcpy(&x.i, v->param_data, 4), *out = x.i; return 1;
    default: return 0;
  }
}

int ctx_int_values(const OpCtx *c, const Var *v, int64_t *out, int max) {
  const int64_t *vals;
  int n = v ? consteval_values(c->g, v, &vals) : -1;
  if (n >= 0 && n <= max) {
    memcpy(out, vals, sizeof(int64_t) * (size_t)n);
    return n;
  }
  if (!v || !(v->flags & VAR_PARAM) || !(v->flags & VAR_LOADED) || !v->param_data) return -1;
  int64_t k = shape_numel(&v->shape);
  if (k < 0 || k > max || (v->dtype != RT_DT_INT64 && v->dtype != RT_DT_INT32)) return -1;
  for (int64_t i = 0; i < k; i++) {
    if (v->dtype == RT_DT_INT64) {
      memcpy(&out[i], v->param_data + i * 8, 8);
    } else {
      int32_t x;
      memcpy(&x, v->param_data + i * 4, 4);
      out[i] = x;
    }
  }
  return (int)k;
}

int ctx_bounds(const OpCtx *c, const char *tensor, const char *list, int64_t *out, int max) {
  Var *t = ctx_in(c, tensor, 0);
  if (t) return ctx_int_values(c, t, out, max);
  int n = ctx_in(c, list, 0) ? ctx_nin(c, list) : 0;
  for (int i = 0; i < n; i++) {
    int64_t v[1];
    if (i >= max || ctx_int_values(c, ctx_in(c, list, i), v, 1) != 1) return -1;
    out[i] = v[0];
  }
  return n;
}

/* Helpers shared by op rules (see ops.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../diag.h"
#include "../util.h"
#include "ops.h"

static const Slot *find_slot(const Slot *s, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (strcmp(s[i].name, name) == 0) return &s[i];
  return NULL;
}

int ctx_nin(const OpCtx *c, const char *slot) {
  const Slot *s = find_slot(c->op->in, c->op->nin, slot);
  return s ? s->n : 0;
}

int ctx_nout(const OpCtx *c, const char *slot) {
  const Slot *s = find_slot(c->op->out, c->op->nout, slot);
  return s ? s->n : 0;
}

Var *ctx_in(const OpCtx *c, const char *slot, int i) {
  const Slot *s = find_slot(c->op->in, c->op->nin, slot);
  if (!s || i >= s->n || s->vars[i] < 0) return NULL;
  return &c->g->vars[s->vars[i]];
}

Var *ctx_out(const OpCtx *c, const char *slot, int i) {
  const Slot *s = find_slot(c->op->out, c->op->nout, slot);
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

int ctx_fail(OpCtx *c, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return diag_error("%s: %s: %s", c->g->file, graph_op_where(c->g, c->op), msg);
}

int axis_norm(int64_t axis, int rank) {
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= (rank ? rank : 1)) return -1;
  return (int)axis;
}

/* Broadcasts one dim pair; -1 (unknown) against a known dim d > 1 gives d,
 * as Paddle's compile-time InferShape does. */
static int bcast_dim(int64_t a, int64_t b, int64_t *out) {
  if (a == b) *out = a;
  else if (a == 1) *out = b;
  else if (b == 1) *out = a;
  else if (a < 0) *out = b;
  else if (b < 0) *out = a;
  else return -1;
  return 0;
}

int shape_broadcast(OpCtx *c, const Shape *x, const Shape *y, int64_t axis, Shape *out) {
  const Shape *big = x->rank >= y->rank ? x : y;
  const Shape *small = x->rank >= y->rank ? y : x;
  int diff = big->rank - small->rank;
  if (axis == -1 || x->rank == y->rank) axis = diff;
  if (axis < 0 || axis > diff)
    return ctx_fail(c, "axis %lld is out of range for shapes %s and %s", (long long)axis,
                    shape_str(x), shape_str(y));
  Shape s = {big->rank, {0}};
  for (int i = 0; i < big->rank; i++) {
    int j = i - (int)axis;
    int64_t sd = (j >= 0 && j < small->rank) ? small->d[j] : 1;
    if (bcast_dim(big->d[i], sd, &s.d[i]))
      return ctx_fail(c, "shapes %s and %s do not broadcast (axis %lld)", shape_str(x),
                      shape_str(y), (long long)axis);
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

/* Helpers shared by op rules (see ops.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../consteval.h"
#include "../diag.h"
#include "../ir_text.h"
#include "../paddle_attrs.h"
#include "../util.h"
#include "ops.h"

int op_def_ignores(const OpDef *def, const char *slot) { return def && str_in(slot, def->ignores); }

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

/* Attributes that choose how Paddle computes, never what: a backend
 * (use_mkldnn, use_cudnn: oneDNN's and cuDNN's kernels compute the same op;
 * the oneDNN fusions they enable have attributes of their own, checked),
 * its number format and quantizer hints (mkldnn_data_type, use_quantizer),
 * cuDNN's algorithm search and workspace (exhaustive_search,
 * workspace_size_MB). */
static int attr_is_backend_hint(const char *name) {
  static const char *const names[] = {"use_mkldnn", "use_cudnn", "mkldnn_data_type", "use_quantizer",
                                      "exhaustive_search", "workspace_size_MB", NULL};
  return str_in(name, names);
}

/* Attributes only Paddle's oneDNN kernels read: the int8 scales, Paddle
 * 1.x's elementwise layouts, the activations oneDNN's fusion passes write
 * into plain ops.  Without use_mkldnn Paddle runs its own CPU kernel, which
 * does not read them; with it they are checked like any other. */
static int attr_is_onednn_only(const Op *op, const char *name) {
  static const char *const names[] = {"Scale_in", "Scale_in_eltwise", "Scale_out", "Scale_weights", "Scale_x",
                                      "Scale_y", "force_fp32_output", "fuse_activation", "fuse_alpha", "fuse_beta",
                                      "fuse_brelu", "fuse_brelu_threshold", "fuse_relu", "fuse_residual_connection",
                                      "fuse_with_relu", "x_data_format", "y_data_format", NULL};
  Op quiet = *op;
  quiet.marks = NULL; /* reading use_mkldnn here does not implement it */
  return !attr_bool(&quiet, "use_mkldnn", 0) && str_in(name, names);
}

int op_def_ignores_attr(const OpDef *def, const char *name) { return def && str_in(name, def->attr_ignores); }

static int same_float(double a, double b) { return a == b || (float)a == (float)b || (a != a && b != b); }

/* 1 when attribute `a` of op holds Paddle's default `d` (read without
 * marking: comparing is not implementing). */
static int holds_default(const Op *op, const OpAttr *a, const PaddleAttr *d) {
  Op quiet = *op;
  quiet.marks = NULL;
  const char *name = a->name;
  int64_t *iv;
  double *fv;
  int n;
  switch (d->kind) {
    case PA_REQUIRED: return 0;
    case PA_BOOL:
    case PA_INT: return attr_int(&quiet, name, d->i + 1) == d->i;
    case PA_FLOAT: return same_float(attr_float(&quiet, name, d->f + 1), d->f);
    case PA_STR: return !strcmp(attr_str(&quiet, name, ""), d->s) && a->type == AT_STRING;
    case PA_LIST:
      return (a->type == AT_INTS && !a->n_ints) || (a->type == AT_LONGS && !a->n_longs) ||
             (a->type == AT_FLOATS && !a->n_floats) || (a->type == AT_FLOAT64S && !a->n_float64s) ||
             (a->type == AT_STRINGS && !a->n_strings) || (a->type == AT_BOOLEANS && !a->n_bools) ||
             (a->type == AT_SCALARS && !a->n_scalars) || (a->type == AT_VARS && !a->n_vars_name);
    case PA_INTS:
      if ((n = attr_ints(&quiet, name, &iv)) != d->n) return 0;
      for (int i = 0; i < n; i++)
        if (iv[i] != d->ints[i]) return 0;
      return 1;
    case PA_FLOATS:
      if ((n = attr_floats(&quiet, name, &fv)) != d->n) return 0;
      for (int i = 0; i < n; i++)
        if (!same_float(fv[i], d->floats[i])) return 0;
      return 1;
    default: return 0;
  }
}

static const char *attr_text(const OpAttr *a) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return "?";
  ir_attr_write(f, a);
  fclose(f);
  const char *s = pool_strdup(buf ? buf : "?");
  free(buf);
  return s;
}

/* Paddle's entry for attribute `name` of op type `type`; a grad op
 * (`<forward>_grad`, `cross_entropy_grad2`) has no op maker of its own and
 * carries its forward op's attributes (the grad op makers copy them), so it
 * takes the forward op's entry.  *known: whether Paddle 2.6 knows the op
 * (for a grad op, its forward op). */
static const PaddleAttr *paddle_attr_of(const char *type, const char *name, int *known) {
  const PaddleAttr *d = paddle_attr_find(type, name);
  *known = paddle_knows_op(type);
  const char *g = strstr(type, "_grad");
  if (d || *known || !g || strspn(g + 5, "0123456789") != strlen(g + 5)) return d;
  const char *fwd = pool_printf("%.*s%s", (int)(g - type), type, g + 5);
  *known = paddle_knows_op(fwd);
  return paddle_attr_find(fwd, name);
}

/* The attributes of op that nothing read and that do not hold Paddle's
 * default: errors, -1 when there is one. */
static int check_attrs(Graph *g, Op *op) {
  int bad = 0;
  for (size_t i = 0; i < op->desc->n_attrs; i++) {
    const OpAttr *a = op->desc->attrs[i];
    if (!a->name || attr_marked(op, a) || attr_is_bookkeeping(a->name) || attr_is_backend_hint(a->name) ||
        attr_is_onednn_only(op, a->name) || op_def_ignores_attr(op->def, a->name))
      continue;
    int known;
    const PaddleAttr *d = paddle_attr_of(op->type, a->name, &known);
    if (d && holds_default(op, a, d)) continue;
    /* Paddle 2.6 does not declare it for this op (an attribute of Paddle
     * 1.x), or declares it extra and only its oneDNN kernels read it
     * (is_test: "some layers may run faster"): its kernel does not read it */
    if ((!d && known) || (d && d->extra && !strcmp(a->name, "is_test"))) continue;
    OpCtx c = {g, op};
    if (a->type == AT_VAR || a->type == AT_VARS) {
      bad = ctx_fail(&c, "attribute %s takes its value from %s at run time (a tensor passed as the attribute), "
                     "which paddlec's %s does not support: refused rather than read as a constant", a->name,
                     a->type == AT_VAR ? pool_printf("tensor '%s'", a->var_name ? a->var_name : "")
                                       : pool_printf("%d tensors ('%s', ...)", (int)a->n_vars_name,
                                                     a->n_vars_name ? a->vars_name[0] : ""),
                     op->type);
      continue;
    }
    bad = ctx_fail(&c, "attribute %s = %s is not implemented by paddlec's %s%s: refused rather than ignored",
                   a->name, attr_text(a), op->type, d ? " (only Paddle's default)" : "");
  }
  return bad;
}

int op_check_slots(Graph *g, Op *op) {
  /* the op, and the ops a pass merged into it (what they compute is now
   * this op's emitter's, from what their rules and the pass looked up);
   * the attributes of an op a pass made are paddlec's own */
  int bad = check_inputs(g, op);
  if (!op->from_pass) bad |= check_attrs(g, op);
  for (int f = 0; f < op->nfused; f++) {
    Op *m = &g->ops[op->fused[f]];
    bad |= check_inputs(g, m);
    if (!m->from_pass) bad |= check_attrs(g, m);
  }
  return bad ? -1 : 0;
}

int ctx_nin(const OpCtx *c, const char *slot) {
  Slot *s = slot_use(c->op->in, c->op->nin, slot);
  return s ? s->n : 0;
}

int ctx_nout(const OpCtx *c, const char *slot) {
  Slot *s = slot_use(c->op->out, c->op->nout, slot);
  return s ? s->n : 0;
}

Var *ctx_in(const OpCtx *c, const char *slot, int i) {
  Slot *s = slot_use(c->op->in, c->op->nin, slot);
  if (!s || i >= s->n || s->vars[i] < 0) return NULL;
  return &c->g->vars[s->vars[i]];
}

Var *ctx_out(const OpCtx *c, const char *slot, int i) {
  Slot *s = slot_use(c->op->out, c->op->nout, slot);
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
  v->flags = (v->flags | VAR_INFERRED) & ~(unsigned)(VAR_RUNTIME_EXTENT | VAR_MAX_SHAPED);
  v->runtime_more = 0;
}

void ctx_set_runtime_extent(OpCtx *c, const char *slot, int i, int axis, const char *from) {
  ctx_set_runtime_extents(c, slot, i, 1u << axis, from);
}

void ctx_set_runtime_extents(OpCtx *c, const char *slot, int i, unsigned dims, const char *from) {
  Var *v = ctx_out(c, slot, i);
  if (v && (dims & ((1u << RT_MAX_RANK) - 1))) var_set_runtime_extents(v, (int)(v - c->g->vars), dims, from);
}

int ctx_feeds_fixed(const OpCtx *c) {
  if (!c->g->specializing) return 0;
  for (int i = 0; i < c->g->nfeeds; i++) {
    const Shape *s = &c->g->vars[c->g->feeds[i]].shape;
    for (int d = 0; d < s->rank; d++)
      if (s->d[d] < 0) return 0;
  }
  return 1;
}

/* The --max-shape option naming var v while specializing: its index, or -1. */
static int max_shape_of(const OpCtx *c, const Var *v) {
  for (int k = 0; v && c->g->specializing && k < c->g->nmax_shapes; k++)
    if (!strcmp(c->g->max_shapes[k].name, v->name)) return k;
  return -1;
}

int ctx_has_max_shape(const OpCtx *c, const char *slot, int i) { return max_shape_of(c, ctx_out(c, slot, i)) >= 0; }

int ctx_class_bound(const OpCtx *c, const char *slot, int i) {
  return max_shape_of(c, ctx_out(c, slot, i)) >= c->g->nmax_shapes - c->g->nclass_shapes;
}

int ctx_max_shape(OpCtx *c, const char *slot, int i, int rank, int dtype, const char *from) {
  Var *v = ctx_out(c, slot, i);
  int k = max_shape_of(c, v);
  if (k < 0) return 0;
  const ShapeArg *m = &c->g->max_shapes[k];
  if (m->rank != rank)
    return ctx_fail(c, "--max-shape %s gives %d dims; %s ('%s') has %d", m->name, m->rank, slot, v->name, rank);
  c->g->max_shape_used[k] = 1;
  Shape s = {rank, {0}};
  for (int d = 0; d < rank; d++) s.d[d] = m->d[d];
  ctx_set(c, slot, i, &s, dtype);
  ctx_set_runtime_extents(c, slot, i, (1u << rank) - 1, from);
  v->flags |= VAR_MAX_SHAPED;
  return 1;
}

int ctx_proven_shape(OpCtx *c, const char *slot, int i, const Shape *bound, int dtype, const char *from) {
  if (!c->g->specializing || !ctx_out(c, slot, i) || bound->rank < 1) return 0;
  ctx_set(c, slot, i, bound, dtype);
  ctx_set_runtime_extents(c, slot, i, (1u << bound->rank) - 1, from);
  ctx_out(c, slot, i)->flags |= VAR_MAX_SHAPED;
  return 1;
}

int ctx_square_matrices(OpCtx *c, const char *slot, const Shape *s) {
  if (s->rank < 2) return ctx_fail(c, "%s %s must have rank 2 or more", slot, shape_str(s));
  const int64_t a = s->d[s->rank - 2], b = s->d[s->rank - 1];
  if (a >= 0 && b >= 0 && a != b) return ctx_fail(c, "%s %s must hold square matrices", slot, shape_str(s));
  return 0;
}

Var *ctx_attr_tensor(const OpCtx *c, const char *name) {
  const OpAttr *a = attr_is_var(c->op, name) ? attr_find(c->op, name) : NULL;
  int id = a && a->type == AT_VAR && a->var_name ? graph_find_var(c->g, c->op->block, a->var_name) : -1;
  return id < 0 ? NULL : &c->g->vars[id];
}

int ctx_attr_values(const OpCtx *c, const char *name, int64_t *out, int max) {
  const OpAttr *a = attr_is_var(c->op, name) ? attr_find(c->op, name) : NULL;
  if (!a) return -1;
  if (a->type == AT_VAR) return ctx_int_values(c, ctx_attr_tensor(c, name), out, max);
  if ((int)a->n_vars_name > max) return -1;
  for (int i = 0; i < (int)a->n_vars_name; i++) {
    const int id = a->vars_name[i] ? graph_find_var(c->g, c->op->block, a->vars_name[i]) : -1;
    if (id < 0 || ctx_int_values(c, &c->g->vars[id], out + i, 1) != 1) return -1;
  }
  return (int)a->n_vars_name;
}

int ctx_attr_int(const OpCtx *c, const char *name, int64_t dflt, int64_t *v) {
  if (!attr_is_var(c->op, name)) {
    *v = attr_int(c->op, name, dflt);
    return 0;
  }
  return ctx_attr_values(c, name, v, 1) == 1 ? 0 : -1;
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

int ctx_refuse_runtime_extents(OpCtx *c) {
  for (int s = 0; s < c->op->nin; s++)
    for (int a = 0; a < c->op->in[s].n; a++) {
      const int id = c->op->in[s].vars[a];
      const Var *v = id >= 0 ? &c->g->vars[id] : NULL;
      if (var_runtime_axis(v) < 0) continue;
      return ctx_fail(c, "dim %d of input %s ('%s') is only known at run time (%s makes it from its %s); %s does "
                      "not take such an input yet", v->runtime_axis, c->op->in[s].name, v->name,
                      v->producer >= 0 ? graph_op_where(c->g, &c->g->ops[v->producer])
                                       : "the op before it in its fusion_group",
                      v->runtime_from ? v->runtime_from : "inputs", c->op->type);
    }
  return 0;
}

int ctx_refuse_runtime_more(OpCtx *c) {
  for (int s = 0; s < c->op->nin; s++)
    for (int a = 0; a < c->op->in[s].n; a++) {
      const int id = c->op->in[s].vars[a];
      const Var *v = id >= 0 ? &c->g->vars[id] : NULL;
      if (var_runtime_axis(v) < 0 || !v->runtime_more) continue;
      return ctx_fail(c, "several dims of input %s ('%s') are only known at run time (%s makes them from its %s); "
                      "%s does not take such an input yet", c->op->in[s].name, v->name,
                      v->producer >= 0 ? graph_op_where(c->g, &c->g->ops[v->producer]) : "an op",
                      v->runtime_from ? v->runtime_from : "inputs", c->op->type);
    }
  return 0;
}

/* Op.moves: x's run-time dim d is v's dim to[d] (to[d] < 0: not passed). */
static void record_move(OpCtx *c, const Var *x, const Var *v, const int *to) {
  if (!v || v == x) return;
  ExtentMove m = {.src = (int)(x - c->g->vars), .dst = (int)(v - c->g->vars)};
  for (int d = 0; d < RT_MAX_RANK; d++) m.to[d] = (signed char)(var_runtime_mask(x) >> d & 1 ? to[d] : -1);
  Op *op = c->op;
  for (int k = 0; k < op->nmoves; k++)
    if (op->moves[k].src == m.src && op->moves[k].dst == m.dst) {
      op->moves[k] = m;
      return;
    }
  VEC_PUSH(op->moves, op->nmoves, op->moves_cap, m);
}

void ctx_pass_runtime_extent(OpCtx *c, const Var *x, const char *slot, int i) {
  ctx_pass_runtime_extent_at(c, x, slot, i, var_runtime_axis(x));
  Var *v = ctx_out(c, slot, i);
  if (v && var_runtime_axis(x) >= 0) { /* the same dims */
    v->runtime_more = x->runtime_more;
    v->runtime_same = x->runtime_same;
    int to[RT_MAX_RANK];
    for (int d = 0; d < RT_MAX_RANK; d++) to[d] = d;
    record_move(c, x, v, to);
  }
}

void ctx_pass_runtime_extent_at(OpCtx *c, const Var *x, const char *slot, int i, int axis) {
  if (var_runtime_axis(x) < 0) return;
  ctx_set_runtime_extent(c, slot, i, axis, x->runtime_from);
  Var *v = ctx_out(c, slot, i);
  if (!v) return;
  v->runtime_root = x->runtime_root;
  int to[RT_MAX_RANK];
  for (int d = 0; d < RT_MAX_RANK; d++) to[d] = d == x->runtime_axis ? axis : -1;
  record_move(c, x, v, to);
}

void ctx_pass_runtime_extents_to(OpCtx *c, const Var *x, const char *slot, int i, const int *to) {
  unsigned mask = 0;
  for (int d = 0; d < RT_MAX_RANK; d++)
    if (var_runtime_mask(x) >> d & 1 && to[d] >= 0) mask |= 1u << to[d];
  if (!mask) return;
  ctx_set_runtime_extents(c, slot, i, mask, x->runtime_from);
  record_move(c, x, ctx_out(c, slot, i), to);
  int in_order = 1, last = -1;
  for (int d = 0; d < RT_MAX_RANK; d++)
    if (var_runtime_mask(x) >> d & 1) {
      in_order &= to[d] > last;
      last = to[d];
    }
  ctx_inherit_root(ctx_out(c, slot, i), x, in_order);
}

void ctx_inherit_root(Var *v, const Var *x, int all_in_order) {
  if (!v || (!x->runtime_same && !all_in_order)) return; /* its own, from ctx_set_runtime_extent(s) */
  v->runtime_root = x->runtime_root;
  v->runtime_same = x->runtime_same;
}

/* The single input var of op's `slot`, or NULL. */
static const Var *only_in(const Graph *g, const Op *op, const char *slot) {
  const Slot *s = slot_find(op->in, op->nin, slot);
  return s && s->n == 1 && s->vars[0] >= 0 ? &g->vars[s->vars[0]] : NULL;
}

/* The op's attribute ints `name` (n of them), 0 when a tensor may set them
 * instead (slot_t or slot_l bound). */
static int static_ints(const Graph *g, const Op *op, const char *name, const char *slot_t, const char *slot_l,
                       int64_t **v) {
  const Slot *l = slot_find(op->in, op->nin, slot_l);
  if (only_in(g, op, slot_t) || (l && l->n)) return 0;
  return attr_ints(op, name, v);
}

int ctx_run_dim_of(const Graph *g, const Var *t, int i, const Var **v, int *d) {
  return ctx_shape_dim_of(g, t, i, v, d) && var_runtime_mask(*v) >> *d & 1;
}

int ctx_run_extent_of(const Graph *g, const Var *t, int i, const Var **v, int *d) {
  return ctx_run_dim_of(g, t, i, v, d) && (*v)->runtime_same;
}

/* The input element that element i of op's output t is, for the ops that
 * pass small integer values on (cast, assign, the reshapes; slice of 1-D
 * values; concat of 1-D pieces and stack of one-element ones along 0):
 * its tensor and index into *src, *at; 0 when op is none of them. */
static int picked_element(const Graph *g, const Op *op, int i, const Var **src, int *at) {
  if (!strcmp(op->type, "cast") || !strcmp(op->type, "assign") || !strcmp(op->type, "reshape2") ||
      !strcmp(op->type, "squeeze2") || !strcmp(op->type, "unsqueeze2")) {
    *src = only_in(g, op, "X"), *at = i;
    return *src != NULL;
  }
  if (!strcmp(op->type, "stack") || !strcmp(op->type, "concat")) { /* of one-element pieces, or 1-D along 0 */
    const Slot *xs = slot_find(op->in, op->nin, "X");
    if (!xs || only_in(g, op, "AxisTensor") || attr_int(op, "axis", 0) != 0) return 0;
    for (int k = 0; k < xs->n; k++) {
      const Var *p = xs->vars[k] >= 0 ? &g->vars[xs->vars[k]] : NULL;
      const int64_t n = p ? shape_numel(&p->shape) : -1;
      if (!p || n < 0 || p->shape.rank > 1 || (!strcmp(op->type, "stack") && n != 1)) return 0;
      if (i < n) {
        *src = p, *at = i;
        return 1;
      }
      i -= (int)n;
    }
    return 0;
  }
  if (!strcmp(op->type, "slice")) { /* of 1-D values: element starts[0] + i */
    const Var *x = only_in(g, op, "Input");
    int64_t *axes, *starts;
    if (!x || x->shape.rank != 1 || x->shape.d[0] < 0 || attr_ints(op, "axes", &axes) != 1 || axes[0] != 0 ||
        static_ints(g, op, "starts", "StartsTensor", "StartsTensorList", &starts) != 1)
      return 0;
    int64_t from = starts[0] < 0 ? starts[0] + x->shape.d[0] : starts[0];
    *src = x, *at = i + (int)(from < 0 ? 0 : from);
    return 1;
  }
  return 0;
}

int ctx_shape_dim_of(const Graph *g, const Var *t, int i, const Var **v, int *d) {
  for (int hops = 0; t && t->producer >= 0 && hops < 32; hops++) {
    const Op *op = &g->ops[t->producer];
    if (!strcmp(op->type, "shape")) {
      const Var *x = only_in(g, op, "Input");
      if (!x || i < 0 || i >= x->shape.rank) return 0;
      *v = x, *d = i;
      return 1;
    }
    if (!picked_element(g, op, i, &t, &i)) return 0;
  }
  return 0;
}

/* The operands of a binary element-wise op on small integer values (1-D
 * of its output t's length, or one of them a single value) for element i
 * of t: each tensor and the element of it.  0 when they are not such. */
static int scalar_operands(const Graph *g, const Op *op, const Var *t, int i, const Var **x, int *xi, const Var **y,
                           int *yi) {
  *x = only_in(g, op, "X"), *y = only_in(g, op, "Y");
  const int64_t nt = shape_numel(&t->shape);
  if (!*x || !*y || (*x)->shape.rank > 1 || (*y)->shape.rank > 1 || t->shape.rank > 1) return 0;
  const int64_t nx = shape_numel(&(*x)->shape), ny = shape_numel(&(*y)->shape);
  if ((nx != 1 && nx != nt) || (ny != 1 && ny != nt)) return 0;
  *xi = nx == 1 ? 0 : i, *yi = ny == 1 ? 0 : i;
  return 1;
}

/* ctx_size_expr's walk of element i of t, `depth` producers deep at most;
 * 0 when it is none. */
static int size_expr_at(const OpCtx *c, const Var *t, int i, SizeExpr *s, int depth) {
  const int64_t *vals;
  const Var *v;
  int d;
  *s = (SizeExpr){.k = 1};
  if (!t || depth <= 0 || i < 0 || shape_numel(&t->shape) <= i) return 0;
  if (t->dtype != RT_DT_INT32 && t->dtype != RT_DT_INT64) { /* a float cast from such a size (arange's End) */
    const Op *op = t->producer >= 0 ? &c->g->ops[t->producer] : NULL;
    return (t->dtype == RT_DT_FP32 || t->dtype == RT_DT_FP64) && op && !strcmp(op->type, "cast") &&
           size_expr_at(c, only_in(c->g, op, "X"), i, s, depth - 1);
  }
  if (ctx_values(c, t, &vals) > i) {
    s->k = vals[i];
    return vals[i] >= 0;
  }
  if (ctx_shape_dim_of(c->g, t, i, &v, &d)) {
    if (!(var_runtime_mask(v) >> d & 1)) { /* a fixed dim */
      s->k = v->shape.d[d];
      return s->k >= 0;
    }
    s->n = 1, s->v[0] = v, s->d[0] = d;
    return 1;
  }
  if (t->producer < 0) return 0;
  const Op *op = &c->g->ops[t->producer];
  if (!strcmp(op->type, "cast") || !strcmp(op->type, "assign") || !strcmp(op->type, "reshape2") ||
      !strcmp(op->type, "squeeze2") || !strcmp(op->type, "unsqueeze2"))
    return size_expr_at(c, only_in(c->g, op, "X"), i, s, depth - 1);
  if (!strcmp(op->type, "scale")) {
    const double k = attr_float(op, "scale", 1);
    if (only_in(c->g, op, "ScaleTensor") || attr_float(op, "bias", 0) != 0 || k < 0 || k != (double)(int64_t)k ||
        !size_expr_at(c, only_in(c->g, op, "X"), i, s, depth - 1))
      return 0;
    s->k *= (int64_t)k;
    return 1;
  }
  const Var *x, *y;
  int xi, yi;
  if (!strcmp(op->type, "elementwise_mul") && scalar_operands(c->g, op, t, i, &x, &xi, &y, &yi)) {
    SizeExpr a, b;
    if (!size_expr_at(c, x, xi, &a, depth - 1) || !size_expr_at(c, y, yi, &b, depth - 1) ||
        a.n + b.n > SIZE_EXPR_MAX)
      return 0;
    *s = a;
    s->k *= b.k;
    for (int f = 0; f < b.n; f++) s->v[s->n] = b.v[f], s->d[s->n++] = b.d[f];
    return 1;
  }
  return 0;
}

int ctx_size_expr(const OpCtx *c, const Var *t, int i, SizeExpr *s) { return size_expr_at(c, t, i, s, 16) && s->n > 0; }

/* a op b over intervals, with the key "name(a,b)"; 0 past 64 bits or
 * where floordiv / mod would see a negative value or a divisor not known
 * and above 0 (Paddle's integer floordiv truncates, its mod takes the
 * divisor's sign: alike only there). */
static int range_op(const char *name, const IntRange *a, const IntRange *b, IntRange *r) {
  int64_t c[4];
  r->key = pool_printf("%s(%s,%s)", name, a->key, b->key);
  if (!strcmp(name, "add"))
    return !__builtin_add_overflow(a->lo, b->lo, &r->lo) && !__builtin_add_overflow(a->hi, b->hi, &r->hi);
  if (!strcmp(name, "sub"))
    return !__builtin_sub_overflow(a->lo, b->hi, &r->lo) && !__builtin_sub_overflow(a->hi, b->lo, &r->hi);
  if (!strcmp(name, "mul")) {
    if (__builtin_mul_overflow(a->lo, b->lo, &c[0]) || __builtin_mul_overflow(a->lo, b->hi, &c[1]) ||
        __builtin_mul_overflow(a->hi, b->lo, &c[2]) || __builtin_mul_overflow(a->hi, b->hi, &c[3]))
      return 0;
    r->lo = r->hi = c[0];
    for (int k = 1; k < 4; k++) r->lo = c[k] < r->lo ? c[k] : r->lo, r->hi = c[k] > r->hi ? c[k] : r->hi;
    return 1;
  }
  if (!strcmp(name, "max") || !strcmp(name, "min")) { /* each end's max (min) */
    const int mx = !strcmp(name, "max");
    r->lo = (a->lo > b->lo) == mx ? a->lo : b->lo, r->hi = (a->hi > b->hi) == mx ? a->hi : b->hi;
    return 1;
  }
  if (a->lo < 0 || b->lo != b->hi || b->lo <= 0) return 0;
  if (!strcmp(name, "div")) {
    r->lo = a->lo / b->lo, r->hi = a->hi / b->lo;
    return 1;
  }
  if (a->hi < b->lo) r->lo = a->lo, r->hi = a->hi; /* mod: x itself below the divisor */
  else r->lo = 0, r->hi = b->lo - 1;
  return 1;
}

static int int_range_at(const OpCtx *c, const Var *t, int i, IntRange *r, int depth);

/* `rounding` (floor, ceil, or trunc: a cast's) of v * s + b (with after 0,
 * (v + b) * s), as a float32 (f64: float64) kernel computes it, at the
 * least (most) the two orders of rounding give (a product rounded, or one
 * fused multiply-add: Paddle's build may contract them), for `most`. */
static double scaled_rounded(int64_t v, double s, double b, int after, int f64, const char *rounding, int most) {
  double r[2];
  if (f64) {
    r[0] = after ? (double)v * s + b : ((double)v + b) * s;
    r[1] = after ? fma((double)v, s, b) : r[0];
  } else {
    const float x = (float)v, sf = (float)s, bf = (float)b;
    const float p = x * sf, q = x + bf;
    r[0] = after ? (double)(p + bf) : (double)(q * sf);
    r[1] = after ? (double)fmaf(x, sf, bf) : r[0];
  }
  for (int k = 0; k < 2; k++)
    r[k] = !strcmp(rounding, "floor") ? floor(r[k]) : !strcmp(rounding, "ceil") ? ceil(r[k]) : trunc(r[k]);
  return most ? fmax(r[0], r[1]) : fmin(r[0], r[1]);
}

/* Element i of t, an integer cast of a float computed from an integer
 * value (size // 2 written h / 2 in Python): cast(floor|ceil(scale(cast(
 * int)))), the floor, ceil and scale each optional.  Each step is monotone
 * in the integer (increasing, or decreasing for a negative scale), so the
 * range is the ends' values. */
static int float_cast_range(const OpCtx *c, const Op *op, int i, IntRange *r, int depth) {
  const Var *f = only_in(c->g, op, "X");
  if (!f || (f->dtype != RT_DT_FP32 && f->dtype != RT_DT_FP64) || f->producer < 0) return 0;
  const Op *fo = &c->g->ops[f->producer];
  const char *rounding = "trunc";
  if (!strcmp(fo->type, "floor") || !strcmp(fo->type, "ceil")) {
    rounding = fo->type;
    f = only_in(c->g, fo, "X");
    if (!f || f->producer < 0) return 0;
    fo = &c->g->ops[f->producer];
  }
  double s = 1, b = 0;
  int after = 1;
  if (!strcmp(fo->type, "scale")) {
    if (only_in(c->g, fo, "ScaleTensor")) return 0;
    s = attr_float(fo, "scale", 1), b = attr_float(fo, "bias", 0), after = attr_bool(fo, "bias_after_scale", 1);
    f = only_in(c->g, fo, "X");
    if (!f || f->producer < 0) return 0;
    fo = &c->g->ops[f->producer];
  }
  const Var *src = only_in(c->g, fo, "X");
  IntRange x;
  if (strcmp(fo->type, "cast") || !int_range_at(c, src, i, &x, depth - 1) || llabs(x.lo) > (1 << 24) ||
      llabs(x.hi) > (1 << 24))
    return 0; /* an integer exactly a float */
  const int f64 = f->dtype == RT_DT_FP64;
  const double lo = scaled_rounded(s >= 0 ? x.lo : x.hi, s, b, after, f64, rounding, 0);
  const double hi = scaled_rounded(s >= 0 ? x.hi : x.lo, s, b, after, f64, rounding, 1);
  if (!(lo >= -9e15 && hi <= 9e15)) return 0;
  r->lo = (int64_t)lo, r->hi = (int64_t)hi;
  r->key = pool_printf("%s(%s*%.17g+%.17g:%d:%d)", rounding, x.key, s, b, after, f64);
  return 1;
}

/* ctx_int_range's walk, `depth` producers deep at most. */
static int int_range_at(const OpCtx *c, const Var *t, int i, IntRange *r, int depth) {
  const int64_t *vals;
  const Var *v;
  int d;
  if (!t || depth <= 0 || i < 0 || shape_numel(&t->shape) <= i || (t->dtype != RT_DT_INT32 && t->dtype != RT_DT_INT64))
    return 0;
  if (ctx_values(c, t, &vals) > i) {
    r->lo = r->hi = vals[i], r->key = pool_printf("%lld", (long long)vals[i]);
    return 1;
  }
  if (ctx_shape_dim_of(c->g, t, i, &v, &d)) {
    if (v->shape.d[d] < 0) return 0;
    if (!(var_runtime_mask(v) >> d & 1)) { /* a fixed dim */
      r->lo = r->hi = v->shape.d[d], r->key = pool_printf("%lld", (long long)v->shape.d[d]);
      return 1;
    }
    r->lo = 0, r->hi = v->shape.d[d], r->key = pool_printf("r%d.%d", v->runtime_root, d);
    return 1;
  }
  if (t->producer < 0) return 0;
  const Op *op = &c->g->ops[t->producer];
  const Var *src;
  int at;
  const Var *cx = !strcmp(op->type, "cast") ? only_in(c->g, op, "X") : NULL;
  if (cx && (cx->dtype == RT_DT_FP32 || cx->dtype == RT_DT_FP64)) return float_cast_range(c, op, i, r, depth);
  if (picked_element(c->g, op, i, &src, &at)) return int_range_at(c, src, at, r, depth - 1);
  if (!strcmp(op->type, "scale")) { /* whole numbers: Paddle's kernel takes them in the integer type */
    const double k = attr_float(op, "scale", 1), b = attr_float(op, "bias", 0);
    IntRange x, kr = {.lo = (int64_t)k, .hi = (int64_t)k, .key = pool_printf("%lld", (long long)k)};
    IntRange br = {.lo = (int64_t)b, .hi = (int64_t)b, .key = pool_printf("%lld", (long long)b)}, y;
    if (only_in(c->g, op, "ScaleTensor") || k != (double)(int64_t)k || b != (double)(int64_t)b ||
        !int_range_at(c, only_in(c->g, op, "X"), i, &x, depth - 1))
      return 0;
    if (attr_bool(op, "bias_after_scale", 1)) return range_op("mul", &x, &kr, &y) && range_op("add", &y, &br, r);
    return range_op("add", &x, &br, &y) && range_op("mul", &y, &kr, r);
  }
  if (!strcmp(op->type, "clip")) { /* Paddle's kernel clamps to (T)min and (T)max: monotone where min <= max */
    IntRange x;
    const int64_t lo = (int64_t)attr_float(op, "min", 0), hi = (int64_t)attr_float(op, "max", 0);
    if (only_in(c->g, op, "Min") || only_in(c->g, op, "Max") || lo > hi ||
        !int_range_at(c, only_in(c->g, op, "X"), i, &x, depth - 1))
      return 0;
    r->lo = x.lo < lo ? lo : x.lo > hi ? hi : x.lo, r->hi = x.hi < lo ? lo : x.hi > hi ? hi : x.hi;
    r->key = pool_printf("clip(%s,%lld,%lld)", x.key, (long long)lo, (long long)hi);
    return 1;
  }
  if (!strcmp(op->type, "abs")) {
    IntRange x;
    if (!int_range_at(c, only_in(c->g, op, "X"), i, &x, depth - 1) || x.lo == INT64_MIN) return 0;
    r->lo = x.lo >= 0 ? x.lo : x.hi <= 0 ? -x.hi : 0;
    r->hi = x.lo >= 0 ? x.hi : x.hi <= 0 ? -x.lo : (-x.lo > x.hi ? -x.lo : x.hi);
    r->key = pool_printf("abs(%s)", x.key);
    return 1;
  }
  static const char *const ew[][2] = {{"elementwise_add", "add"}, {"elementwise_sub", "sub"},
                                      {"elementwise_mul", "mul"}, {"elementwise_floordiv", "div"},
                                      {"elementwise_mod", "mod"}, {"elementwise_max", "max"},
                                      {"elementwise_min", "min"}};
  for (size_t k = 0; k < sizeof ew / sizeof ew[0]; k++) {
    if (strcmp(op->type, ew[k][0])) continue;
    const Var *x, *y;
    int xi, yi;
    IntRange a, b;
    if (!scalar_operands(c->g, op, t, i, &x, &xi, &y, &yi) || !int_range_at(c, x, xi, &a, depth - 1) ||
        !int_range_at(c, y, yi, &b, depth - 1))
      return 0;
    return range_op(ew[k][1], &a, &b, r);
  }
  return 0;
}

int ctx_int_range(const OpCtx *c, const Var *t, int i, IntRange *r) { return int_range_at(c, t, i, r, 24); }

int same_runtime_extent(const Var *a, const Var *b) {
  return var_runtime_axis(a) >= 0 && var_runtime_axis(b) >= 0 && a->runtime_root && a->runtime_root == b->runtime_root;
}

int bcast_shift(int rank, int out_rank, int64_t axis) {
  return rank >= out_rank ? 0 : (int)(axis < 0 ? axis + out_rank - rank + 1 : axis);
}

unsigned bcast_run_mask(const Var *v, int out_rank, int64_t axis) {
  const int shift = bcast_shift(v->shape.rank, out_rank, axis);
  unsigned o = 0;
  for (int d = 0; d < RT_MAX_RANK; d++)
    if (var_runtime_mask(v) >> d & 1) o |= 1u << (d + shift);
  return o;
}

int bcast_extents_one(const Var *a, int da, unsigned a_out, const Var *b, int db, unsigned b_out) {
  return same_runtime_dims(a, da, b, db) || (same_runtime_extent(a, b) && a_out == b_out);
}

int same_runtime_dims(const Var *a, int da, const Var *b, int db) {
  if (!(var_runtime_mask(a) >> da & 1) || !(var_runtime_mask(b) >> db & 1) || !same_runtime_extent(a, b)) return 0;
  return (a == b && da == db) || (a->runtime_same && b->runtime_same);
}

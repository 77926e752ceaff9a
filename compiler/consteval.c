/* Compile-time values of small integer tensors (see consteval.h). */
#include "consteval.h"

#include <stdlib.h>
#include <string.h>

#include "attr.h"
#include "util.h"

static const Slot *slot_of(const Slot *s, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(s[i].name, name)) return &s[i];
  return NULL;
}

static Var *in_var(Graph *g, Op *op, const char *slot, int i) {
  const Slot *s = slot_of(op->in, op->nin, slot);
  return s && i < s->n && s->vars[i] >= 0 ? &g->vars[s->vars[i]] : NULL;
}

static Var *out_var(Graph *g, Op *op, const char *slot) {
  const Slot *s = slot_of(op->out, op->nout, slot);
  return s && s->n > 0 && s->vars[0] >= 0 ? &g->vars[s->vars[0]] : NULL;
}

static int is_int(int dtype) { return dtype == RT_DT_INT32 || dtype == RT_DT_INT64; }

static uint64_t all_known(int n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

int consteval_full(const Var *v) { return v && v->nvals >= 0 && v->vmask == all_known(v->nvals); }

static int known(const Var *v) { return consteval_full(v); }
static int tracked(const Var *v) { return v && v->nvals >= 0; }

/* Records n values of which those with their bit in `mask` are known. */
static void set_partial(Var *out, const int64_t *vals, int n, uint64_t mask) {
  if (!out || n < 0 || n > CONST_MAX || !is_int(out->dtype) || shape_numel(&out->shape) != n) return;
  if (!(mask & all_known(n)) && n) return; /* nothing known */
  out->vals = pool_alloc(sizeof(int64_t) * (size_t)(n ? n : 1));
  memcpy(out->vals, vals, sizeof(int64_t) * (size_t)n);
  out->nvals = n;
  out->vmask = mask & all_known(n);
}

static void set_vals(Var *out, const int64_t *vals, int n) { set_partial(out, vals, n, all_known(n)); }

/* The known bit of element i of v (a single value broadcasts). */
static int bit(const Var *v, int i) { return (int)(v->vmask >> (v->nvals == 1 ? 0 : i) & 1); }

/* Element-wise integer arithmetic, with broadcasting of a single value;
 * *mask gets the elements whose operands are both known. */
static int arith(const char *type, const Var *x, const Var *y, int64_t *out, uint64_t *mask) {
  int n = x->nvals > y->nvals ? x->nvals : y->nvals;
  if ((x->nvals != n && x->nvals != 1) || (y->nvals != n && y->nvals != 1)) return -1;
  *mask = 0;
  for (int i = 0; i < n; i++) {
    if (!bit(x, i) || !bit(y, i)) {
      out[i] = 0;
      continue;
    }
    *mask |= 1ull << i;
    int64_t a = x->vals[x->nvals == 1 ? 0 : i], b = y->vals[y->nvals == 1 ? 0 : i];
    if (!strcmp(type, "elementwise_add")) out[i] = a + b;
    else if (!strcmp(type, "elementwise_sub")) out[i] = a - b;
    else if (!strcmp(type, "elementwise_mul")) out[i] = a * b;
    else if (b == 0) return -1;
    else if (!strcmp(type, "elementwise_div")) out[i] = a / b;
    else if (!strcmp(type, "elementwise_floordiv")) out[i] = a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
    else return -1;
  }
  return n;
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
    set_vals(p, v, (int)n);
  }
}

void consteval_op(Graph *g, Op *op) {
  if (!g->specializing) return;
  const char *t = op->type;
  int64_t v[CONST_MAX];
  Var *x = in_var(g, op, "X", 0), *out = out_var(g, op, "Out");
  if (!strcmp(t, "shape")) {
    Var *in = in_var(g, op, "Input", 0);
    if (!in || in->shape.rank < 0) return;
    uint64_t mask = 0; /* a dim unknown at compile time (the batch) stays unknown */
    for (int i = 0; i < in->shape.rank; i++) {
      v[i] = in->shape.d[i] < 0 ? 0 : in->shape.d[i];
      if (in->shape.d[i] >= 0) mask |= 1ull << i;
    }
    set_partial(out, v, in->shape.rank, mask);
  } else if (!strcmp(t, "fill_constant")) {
    if (in_var(g, op, "ValueTensor", 0) || in_var(g, op, "ShapeTensor", 0) || in_var(g, op, "ShapeTensorList", 0))
      return;
    int64_t n = out ? shape_numel(&out->shape) : -1;
    const char *sv = attr_str(op, "str_value", "");
    double d = *sv ? strtod(sv, NULL) : attr_float(op, "value", 0);
    if (n < 0 || n > CONST_MAX || !is_int(out->dtype) || !(d > -9e18 && d < 9e18)) return;
    int64_t val = (int64_t)d;
    for (int64_t i = 0; i < n; i++) v[i] = val;
    set_vals(out, v, (int)n);
  } else if (!strcmp(t, "assign_value")) {
    int64_t *iv;
    int n = attr_ints(op, "int32_values", &iv);
    if (!n) n = attr_ints(op, "int64_values", &iv);
    if (n > 0 && n <= CONST_MAX) set_vals(out, iv, n);
  } else if (!strcmp(t, "assign") || !strcmp(t, "reshape2") || !strcmp(t, "reshape") || !strcmp(t, "squeeze2") ||
             !strcmp(t, "unsqueeze2") || !strcmp(t, "flatten_contiguous_range") || !strcmp(t, "cast")) {
    if (tracked(x)) set_partial(out, x->vals, x->nvals, x->vmask);
  } else if (!strcmp(t, "scale")) {
    double s = attr_float(op, "scale", 1), b = attr_float(op, "bias", 0);
    if (!tracked(x) || in_var(g, op, "ScaleTensor", 0)) return;
    for (int i = 0; i < x->nvals; i++)
      v[i] = attr_bool(op, "bias_after_scale", 1) ? (int64_t)(s * (double)x->vals[i] + b)
                                                  : (int64_t)(s * ((double)x->vals[i] + b));
    set_partial(out, v, x->nvals, x->vmask);
  } else if (!strncmp(t, "elementwise_", 12)) {
    Var *y = in_var(g, op, "Y", 0);
    int n;
    uint64_t mask;
    if (tracked(x) && tracked(y) && (n = arith(t, x, y, v, &mask)) >= 0) set_partial(out, v, n, mask);
  } else if (!strcmp(t, "slice")) {
    /* a 1-D slice with attribute bounds (the form `shape(x)[i:j]` takes) */
    Var *in = in_var(g, op, "Input", 0);
    int64_t *axes, *st, *en;
    int na = attr_ints(op, "axes", &axes), ns = attr_ints(op, "starts", &st), ne = attr_ints(op, "ends", &en);
    if (!tracked(in) || in->shape.rank != 1 || na != 1 || ns != 1 || ne != 1 || axes[0] != 0) return;
    if (in_var(g, op, "StartsTensor", 0) || in_var(g, op, "EndsTensor", 0) ||
        in_var(g, op, "StartsTensorList", 0) || in_var(g, op, "EndsTensorList", 0))
      return;
    int64_t n = in->nvals, s0 = st[0] < 0 ? st[0] + n : st[0], e0 = en[0] < 0 ? en[0] + n : en[0];
    s0 = s0 < 0 ? 0 : (s0 > n ? n : s0);
    e0 = e0 < 0 ? 0 : (e0 > n ? n : e0);
    int k = 0;
    uint64_t mask = 0;
    for (int64_t i = s0; i < e0; i++, k++) {
      v[k] = in->vals[i];
      mask |= (in->vmask >> i & 1) << k;
    }
    set_partial(out, v, k, mask);
  } else if (!strcmp(t, "concat") || !strcmp(t, "stack")) {
    const Slot *s = slot_of(op->in, op->nin, "X");
    int k = 0;
    uint64_t mask = 0;
    if (!s || attr_int(op, "axis", 0) != 0) return;
    for (int i = 0; i < s->n; i++) {
      Var *p = s->vars[i] >= 0 ? &g->vars[s->vars[i]] : NULL;
      if (!tracked(p) || k + p->nvals > CONST_MAX) return;
      for (int j = 0; j < p->nvals; j++, k++) {
        v[k] = p->vals[j];
        mask |= (p->vmask >> j & 1) << k;
      }
    }
    if (!strcmp(t, "stack")) out = out_var(g, op, "Y");
    set_partial(out, v, k, mask);
  }
}

/* Exported for rules (declared in ops/ops.h as ctx_values). */
int consteval_values(const Graph *g, const Var *v, const int64_t **vals) {
  if (!g->specializing || !known(v)) return -1;
  *vals = v->vals;
  return v->nvals;
}

/* Compile-time lengths of tensor arrays (see array_len.h). */
#include "array_len.h"

#include <string.h>

#include "attr.h"
#include "consteval.h"
#include "subblock.h"
#include "util.h"

enum { MAX_TRIPS = 1 << 20 }; /* a longer loop is not counted */

void array_len_reset(Graph *g) {
  for (int i = 0; i < g->nvars; i++) {
    Var *v = &g->vars[i];
    if (v->vtype != VT_LOD_TENSOR_ARRAY) continue;
    v->arr_len = 0;
    v->arr_bounded = 0;
    v->arr_why = NULL;
    v->arr_rows = 0;
    v->arr_lod = 0;
    v->shape = v->decl;
    v->dtype = v->decl_dtype;
    v->flags &= ~(unsigned)VAR_INFERRED;
  }
}

void array_len_unknown(Var *a, const char *why) {
  if (a->arr_len < 0) return;
  a->arr_len = -1;
  a->arr_why = why;
}

/* The one known compile-time value of a one-element integer tensor. */
static int known1(const Var *v, int64_t *out) {
  if (!consteval_tracked(v) || v->nvals != 1 || !(v->vmask & 1) || shape_numel(&v->shape) != 1) return 0;
  *out = v->vals[0];
  return 1;
}

/* The op whose sub-block b is, or NULL. */
static const Op *block_owner(const Graph *g, int b) {
  for (int i = 0; i < g->nops; i++)
    if (!g->ops[i].removed && g->ops[i].sub_block == b && op_runs_block(g, &g->ops[i])) return &g->ops[i];
  return NULL;
}

static void grow(Var *a, int64_t index) {
  if (a->arr_len >= 0 && index + 1 > a->arr_len) a->arr_len = index + 1;
}

void array_len_write(Graph *g, const Op *op, Var *arr, const Var *index) {
  int64_t i;
  if (op->block == 0) {
    if (!g->specializing) return;
    if (!index || !known1(index, &i))
      array_len_unknown(arr, pool_printf("%s writes it at an index not known at compile time", graph_op_where(g, op)));
    else if (i < 0)
      array_len_unknown(arr, pool_printf("%s writes it at index %lld", graph_op_where(g, op), (long long)i));
    else
      grow(arr, i);
    return;
  }
  const Op *owner = block_owner(g, op->block);
  /* the grad of a loop's array, which while_grad's rule gave the length
   * of the forward's (the kernel checks each index) */
  if (owner && !strcmp(owner->type, "while_grad") && arr->arr_len > 0) return;
  if (!owner || strcmp(owner->type, "while"))
    array_len_unknown(arr, pool_printf("%s writes it inside a branch, which may or may not run",
                                       graph_op_where(g, op)));
}

/* ---- counted loops ---- */

/* A value in the loop body: that of var `base` at the top of the
 * iteration plus `off`; base CONSTANT: the value off; UNKNOWN: none. */
enum { UNKNOWN = -1, CONSTANT = -2 };
typedef struct Aff {
  int base;
  int64_t off;
} Aff;

typedef struct Loop {
  Graph *g;
  const int *carried;
  const Var *before;
  int ncarried;
  Aff *aff;      /* per var, where set[] */
  char *set;     /* 1: written by the body so far (or a carried var) */
  int *cmp;      /* per var: the compare op whose result it holds, -1, */
  char *partial; /* and 1 when it holds that compare and'ed with more (a bound) */
} Loop;

static int carried_index(const Loop *l, int v) {
  for (int k = 0; k < l->ncarried; k++)
    if (l->carried[k] == v) return k;
  return -1;
}

static Aff aff_of(const Loop *l, int v) {
  int64_t k;
  if (v < 0) return (Aff){UNKNOWN, 0};
  if (l->set[v]) return l->aff[v];
  if (carried_index(l, v) < 0 && known1(&l->g->vars[v], &k)) return (Aff){CONSTANT, k};
  return (Aff){UNKNOWN, 0};
}

/* The integer a floating attribute holds, when it holds one. */
static int int_attr(const Op *op, const char *name, double dflt, int64_t *out) {
  double v = attr_float(op, name, dflt);
  if (v != v || v < -1e15 || v > 1e15 || (double)(int64_t)v != v) return 0;
  *out = (int64_t)v;
  return 1;
}

static Aff shifted(Aff a, int64_t by) {
  if (a.base == UNKNOWN) return a;
  return (Aff){a.base, a.off + by};
}

/* What a top-level op of the body gives its one output. */
static Aff step_value(const Loop *l, const Op *op) {
  const Aff none = {UNKNOWN, 0};
  int x = slot_first(op->in, op->nin, "X"), y = slot_first(op->in, op->nin, "Y");
  int64_t k;
  if (!strcmp(op->type, "assign") || !strcmp(op->type, "cast")) return aff_of(l, x);
  if (!strcmp(op->type, "increment")) return int_attr(op, "step", 1, &k) ? shifted(aff_of(l, x), k) : none;
  if (!strcmp(op->type, "scale")) {
    if (slot_first(op->in, op->nin, "ScaleTensor") >= 0 || attr_float(op, "scale", 1) != 1) return none;
    return int_attr(op, "bias", 0, &k) ? shifted(aff_of(l, x), k) : none;
  }
  if (!strcmp(op->type, "elementwise_add") || !strcmp(op->type, "elementwise_sub")) {
    Aff a = aff_of(l, x), b = aff_of(l, y);
    const int sub = op->type[12] == 's';
    if (b.base == CONSTANT) return shifted(a, sub ? -b.off : b.off);
    if (a.base == CONSTANT && !sub) return shifted(b, a.off);
  }
  return none;
}

static void mark_written(void *ctx, int v, int write) {
  Loop *l = ctx;
  if (!write) return;
  l->set[v] = 1;
  l->aff[v] = (Aff){UNKNOWN, 0};
  l->cmp[v] = -1;
  l->partial[v] = 0;
}

static int is_counted_compare(const Op *op) {
  return !strcmp(op->type, "less_than") || !strcmp(op->type, "less_equal");
}

/* The one output var of op, or -1. */
static int only_out(const Op *op) {
  int n = 0, v = -1;
  for (int s = 0; s < op->nout; s++)
    for (int a = 0; a < op->out[s].n; a++)
      if (op->out[s].vars[a] >= 0) n++, v = op->out[s].vars[a];
  return n == 1 ? v : -1;
}

/* 1 when var v holds a compare of a carried counter (plus a constant)
 * with a constant: `i < n`, not `sum(h) < 4`. */
static int counts(const Loop *l, int v) {
  if (l->cmp[v] < 0) return 0;
  const Op *cmp = &l->g->ops[l->cmp[v]];
  const Aff a = aff_of(l, slot_first(cmp->in, cmp->nin, "X")), n = aff_of(l, slot_first(cmp->in, cmp->nin, "Y"));
  return a.base >= 0 && carried_index(l, a.base) >= 0 && n.base == CONSTANT;
}

/* Runs the body's top-level ops over the affine values; records each
 * write_to_array's array and index in arrs/idx (n of them). */
static void walk_body(Loop *l, const Block *b, int *arrs, Aff *idx, int *n) {
  Graph *g = l->g;
  for (int k = 0; k < b->nops; k++) {
    const Op *op = &g->ops[b->ops[k]];
    if (op->removed) continue;
    if (!strcmp(op->type, "write_to_array")) {
      int a = slot_first(op->out, op->nout, "Out");
      if (a >= 0) {
        arrs[*n] = a;
        idx[(*n)++] = aff_of(l, slot_first(op->in, op->nin, "I"));
      }
      continue;
    }
    int out = only_out(op);
    if (out >= 0 && !op_runs_block(g, op)) {
      Aff v = step_value(l, op);
      int64_t known;
      if (v.base == UNKNOWN && carried_index(l, out) < 0 && known1(&g->vars[out], &known))
        v = (Aff){CONSTANT, known}; /* a constant the body makes (fill_constant) */
      int c = -1, partial = 0;
      const int x = slot_first(op->in, op->nin, "X"), y = slot_first(op->in, op->nin, "Y");
      if (is_counted_compare(op)) {
        c = b->ops[k];
      } else if (!strcmp(op->type, "assign") && x >= 0) {
        c = l->cmp[x], partial = l->partial[x];
      } else if (!strcmp(op->type, "logical_and") && x >= 0 && y >= 0 && counts(l, x) != counts(l, y)) {
        c = counts(l, x) ? l->cmp[x] : l->cmp[y]; /* `data and counter < n`: n bounds the loop */
        partial = 1;
      }
      l->set[out] = 1;
      l->aff[out] = v;
      l->cmp[out] = c;
      l->partial[out] = (char)partial;
      continue;
    }
    op_each_var(g, op, mark_written, l);
  }
}

/* The value of var v where the loop starts: a carried var's from before. */
static int entry_value(const Loop *l, int v, int64_t *out) {
  int k = carried_index(l, v);
  return k >= 0 ? known1(&l->before[k], out) : known1(&l->g->vars[v], out);
}

static int compare(const Op *cmp, int64_t x, int64_t y) { return cmp->type[5] == 't' ? x < y : x <= y; }

/* Whether the loop runs at all: the condition's last compare before w in
 * its block, on the values its operands have on entry.  -1: not known. */
static int entry_condition(const Loop *l, const Op *w, int cond) {
  const Graph *g = l->g;
  const Block *b = &g->blocks[w->block];
  int pos = -1;
  for (int k = 0; k < b->nops; k++)
    if (&g->ops[b->ops[k]] == w) pos = k;
  for (int k = pos - 1; k >= 0; k--) {
    const Op *op = &g->ops[b->ops[k]];
    if (op->removed || !block_writes(g, b, k, k + 1, cond)) continue;
    if (only_out(op) != cond) return -1;
    if (!strcmp(op->type, "assign")) {
      cond = slot_first(op->in, op->nin, "X");
      pos = k;
      continue;
    }
    int x = slot_first(op->in, op->nin, "X"), y = slot_first(op->in, op->nin, "Y");
    int64_t xv, yv;
    if (!is_counted_compare(op) || x < 0 || y < 0 || block_writes(g, b, k + 1, pos, x) ||
        block_writes(g, b, k + 1, pos, y) || !entry_value(l, x, &xv) || !entry_value(l, y, &yv))
      return -1;
    return compare(op, xv, yv);
  }
  return -1;
}

/* The trip count of while w, or -1 with *why set; its counter, the
 * counter's value on entry and its step in *ctr, *i0, *step. */
typedef struct Count {
  int ctr;
  int64_t i0, step;
} Count;

static int64_t trip_count(Loop *l, const Op *w, Count *cnt, const char **why) {
  /* with a partial condition (`data and counter < n`) the count is a bound */
  Graph *g = l->g;
  int cond = slot_first(w->in, w->nin, "Condition");
  *why = "its condition is not `counter < n` of a counter the loop steps by a constant and an n known at compile time";
  if (cond < 0 || !l->set[cond] || l->cmp[cond] < 0) return -1;
  const Op *cmp = &g->ops[l->cmp[cond]];
  int x = slot_first(cmp->in, cmp->nin, "X"), y = slot_first(cmp->in, cmp->nin, "Y");
  Aff a = aff_of(l, x), n = aff_of(l, y);
  if (a.base < 0 || n.base != CONSTANT || carried_index(l, a.base) < 0) return -1;
  Aff end = l->set[a.base] ? l->aff[a.base] : (Aff){a.base, 0};
  int64_t i0;
  if (end.base != a.base || end.off <= 0) return -1;
  if (!entry_value(l, a.base, &i0)) {
    *why = pool_printf("the value of its counter '%s' on entry is not known at compile time", g->vars[a.base].name);
    return -1;
  }
  int run = entry_condition(l, w, cond);
  if (run < 0 && l->partial[cond]) run = 1; /* a bound: the loop may run */
  if (run < 0) {
    *why = "whether it runs at all is not known at compile time";
    return -1;
  }
  int64_t trips = 0;
  while (run) {
    const int64_t top = i0 + trips * end.off;
    if (++trips > MAX_TRIPS) {
      *why = pool_printf("it runs more than %d times", MAX_TRIPS);
      return -1;
    }
    run = compare(cmp, top + a.off, n.off);
  }
  *cnt = (Count){a.base, i0, end.off};
  return trips;
}

/* For a loop the compiler cannot count, var v as a counter: carried, set
 * to itself plus a constant above 0 by the body, its value on entry known
 * (into *c).  1 when it is one. */
static int counter_of(const Loop *l, int v, Count *c) {
  int64_t i0;
  if (v < 0 || carried_index(l, v) < 0 || !l->set[v] || l->aff[v].base != v || l->aff[v].off <= 0 ||
      !entry_value(l, v, &i0))
    return 0;
  *c = (Count){v, i0, l->aff[v].off};
  return 1;
}

/* The arrays a training program's while keeps its iterations' values in
 * (while_steps.h): L = the iterations (a bound when the data may end the
 * loop sooner; --max-iterations for a loop the compiler cannot count), one
 * more for a var of the while's block. */
static void keep_steps(Graph *g, const Op *w, const Slot *kept, int64_t trips, const char *why) {
  const Op *wg = kept ? while_steps_grad(g, w) : NULL;
  const Slot *vars = wg ? slot_find(wg->out, wg->nout, "StepVars") : NULL;
  if (trips < 0 && g->max_iterations > 0) trips = g->max_iterations; /* the run stops past it (emit_while) */
  for (int k = 0; vars && k < kept->n && k < vars->n; k++) {
    Var *a = &g->vars[kept->vars[k]];
    if (trips < 0)
      array_len_unknown(a, pool_printf("%s keeps each iteration's '%s' for its while_grad, and paddlec cannot count "
                                       "its iterations: %s (bound them with --max-iterations N)",
                                       graph_op_where(g, w), g->vars[vars->vars[k]].name, why));
    else
      grow(a, trips - 1 + !block_inside(g, g->vars[vars->vars[k]].block, w->sub_block)); /* an outer var: one more */
  }
}

void array_len_loop(Graph *g, const Op *w, const int *carried, const Var *before, int ncarried) {
  if (!g->specializing || strcmp(w->type, "while") || !op_runs_block(g, w)) return;
  const Block *b = &g->blocks[w->sub_block];
  Loop l = {g, carried, before, ncarried, pool_alloc(sizeof(Aff) * ((size_t)g->nvars + 1)),
            pool_alloc((size_t)g->nvars + 1), pool_alloc(sizeof(int) * ((size_t)g->nvars + 1)),
            pool_alloc((size_t)g->nvars + 1)};
  memset(l.set, 0, (size_t)g->nvars + 1);
  memset(l.partial, 0, (size_t)g->nvars + 1);
  for (int v = 0; v < g->nvars; v++) l.cmp[v] = -1;
  for (int k = 0; k < ncarried; k++) {
    l.set[carried[k]] = 1;
    l.aff[carried[k]] = (Aff){carried[k], 0};
  }
  int *arrs = pool_alloc(sizeof(int) * ((size_t)b->nops + 1)), n = 0;
  Aff *idx = pool_alloc(sizeof(Aff) * ((size_t)b->nops + 1));
  walk_body(&l, b, arrs, idx, &n);
  const Slot *kept = slot_find(w->out, w->nout, "StepValues");
  if (!n && !(kept && kept->n)) return;
  const char *why;
  Count cnt = {-1, 0, 0};
  const int64_t trips = trip_count(&l, w, &cnt, &why);
  const int cond = slot_first(w->in, w->nin, "Condition");
  const int bounded = trips > 0 && cond >= 0 && l.partial[cond];
  keep_steps(g, w, kept, trips, why);
  for (int k = 0; k < n; k++) {
    Var *a = &g->vars[arrs[k]];
    Count at = cnt;
    int64_t upto = trips, most = trips > 0 && bounded;
    if (trips < 0 && g->max_iterations > 0 && (idx[k].base == CONSTANT || counter_of(&l, idx[k].base, &at)))
      upto = g->max_iterations, most = 1; /* --max-iterations: a write past the bound stops the run */
    if (upto < 0) {
      array_len_unknown(a, pool_printf("%s writes it in a loop paddlec cannot count: %s (with a counter, "
                                       "--max-iterations N bounds it)", graph_op_where(g, w), why));
      continue;
    }
    if (!upto) continue;
    int64_t first, last;
    if (idx[k].base == CONSTANT) {
      first = last = idx[k].off;
    } else if (idx[k].base == at.ctr) {
      first = at.i0 + idx[k].off;
      last = first + (upto - 1) * at.step;
    } else {
      array_len_unknown(a, pool_printf("the loop of %s writes it at an index that does not follow the loop's "
                                       "counter", graph_op_where(g, w)));
      continue;
    }
    if (first < 0)
      array_len_unknown(a, pool_printf("the loop of %s writes it at index %lld", graph_op_where(g, w),
                                       (long long)first));
    else
      grow(a, last);
    if (most) a->arr_bounded = 1;
  }
}

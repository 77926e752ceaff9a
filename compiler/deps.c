/* Dependencies between kernels (deps.h). */
#include "deps.h"

#include <stdint.h>
#include <string.h>

#include "emit.h"
#include "ops/ops.h"
#include "subblock.h"
#include "util.h"

/* One piece of memory a kernel touches. */
typedef struct Access {
  PlanKind kind;      /* PLAN_ARENA, PLAN_FEED or PLAN_PARAM */
  int index;          /* feed or parameter index; arena: the buffer */
  int write;          /* 1: written */
} Access;

typedef struct Accesses {
  int n;
  Access *a;
  int rng; /* 1: draws from the global generator (reads and advances it) */
  int comm; /* 1: a collective (OpDef.collective) */
} Accesses;

/* Collecting one kernel's accesses. */
typedef struct Collect {
  const Plan *pl;
  Accesses *out;
  int cap;
} Collect;

static void count_var(void *ctx, int vid, int write) {
  (void)vid;
  (void)write;
  ((Collect *)ctx)->cap++;
}

static void add_var(void *ctx, int vid, int write) {
  Collect *c = ctx;
  if (c->pl->vars[vid].kind == PLAN_NONE || c->out->n >= c->cap) return;
  const PlanVar *pv = &c->pl->vars[vid];
  if (pv->kind == PLAN_ARENA && pv->bytes.a == 0 && pv->bytes.c == 0) return; /* empty */
  c->out->a[c->out->n++] = (Access){pv->kind, pv->index, write};
}

static int draws(const Graph *g, const Op *op) { return op_global_rng(g, op); }

static int communicates(const Graph *g, const Op *op) {
  (void)g;
  return op->def && op->def->collective;
}

/* What op touches; a control-flow op, what its sub-block's ops touch too
 * (subblock.h). */
static void collect(const Graph *g, const Plan *pl, const Op *op, Accesses *out) {
  Collect c = {pl, out, 0};
  op_each_var(g, op, count_var, &c);
  out->a = pool_alloc(sizeof *out->a * (size_t)(c.cap ? c.cap : 1));
  out->n = 0;
  out->rng = draws(g, op) || op_block_any(g, op, draws);
  out->comm = communicates(g, op) || op_block_any(g, op, communicates);
  op_each_var(g, op, add_var, &c);
}

/* x and y touch the same memory under one of the plans. */
static int overlap(const Plan *const *pls, int npl, const Access *x, const Access *y) {
  if (x->kind != y->kind) return 0;
  if (x->kind != PLAN_ARENA) return x->index == y->index;
  for (int k = 0; k < npl; k++)
    if (plan_overlap(pls[k], x->index, y->index)) return 1; /* the buffers x->index and y->index */
  return 0;
}

static int conflict(const Plan *const *pls, int npl, const Accesses *x, const Accesses *y) {
  if (x->rng && y->rng) return 1; /* the generator's draws go in program order */
  if (x->comm && y->comm) return 1; /* so do the collectives */
  for (int i = 0; i < x->n; i++)
    for (int j = 0; j < y->n; j++)
      if ((x->a[i].write || y->a[j].write) && overlap(pls, npl, &x->a[i], &y->a[j])) return 1;
  return 0;
}

void deps_build(const Graph *g, const Plan *const *pls, int npl, const Op *const *ops, int n, Deps *d) {
  Accesses *acc = pool_alloc(sizeof *acc * (size_t)(n ? n : 1));
  for (int k = 0; k < n; k++) collect(g, pls[0], ops[k], &acc[k]);
  /* reach[i]: the kernels after i that a chain of edges leads to */
  const int words = (n + 63) / 64;
  uint64_t *reach = pool_alloc(sizeof *reach * (size_t)(words ? words : 1) * (size_t)(n ? n : 1));
  memset(reach, 0, sizeof *reach * (size_t)words * (size_t)n);
  int *keep = pool_alloc(sizeof *keep * (size_t)(n ? n : 1)); /* kept successors of the current i */
  int *nsucc = pool_alloc(sizeof *nsucc * (size_t)(n ? n : 1));
  int **succ = pool_alloc(sizeof *succ * (size_t)(n ? n : 1));
  int edges = 0;
  for (int i = n - 1; i >= 0; i--) {
    uint64_t *r = reach + (size_t)i * (size_t)words;
    int nk = 0;
    /* successors in ascending order: j is implied when an earlier kept one reaches it */
    for (int j = i + 1; j < n; j++) {
      if (r[j / 64] >> (j % 64) & 1) continue;
      if (!conflict(pls, npl, &acc[i], &acc[j])) continue;
      keep[nk++] = j;
      r[j / 64] |= 1ull << (j % 64);
      const uint64_t *rj = reach + (size_t)j * (size_t)words;
      for (int w = 0; w < words; w++) r[w] |= rj[w];
    }
    nsucc[i] = nk;
    succ[i] = pool_alloc(sizeof **succ * (size_t)(nk ? nk : 1));
    memcpy(succ[i], keep, sizeof *keep * (size_t)nk);
    edges += nk;
  }
  d->n = n;
  d->npred = pool_alloc(sizeof *d->npred * (size_t)(n ? n : 1));
  d->succ_off = pool_alloc(sizeof *d->succ_off * (size_t)(n + 1));
  d->succ = pool_alloc(sizeof *d->succ * (size_t)(edges ? edges : 1));
  d->pred_off = pool_alloc(sizeof *d->pred_off * (size_t)(n + 1));
  d->pred = pool_alloc(sizeof *d->pred * (size_t)(edges ? edges : 1));
  memset(d->npred, 0, sizeof *d->npred * (size_t)n);
  int e = 0;
  for (int i = 0; i < n; i++) {
    d->succ_off[i] = e;
    for (int k = 0; k < nsucc[i]; k++) d->succ[e++] = succ[i][k], d->npred[succ[i][k]]++;
  }
  d->succ_off[n] = e;
  d->pred_off[0] = 0;
  for (int j = 0; j < n; j++) d->pred_off[j + 1] = d->pred_off[j] + d->npred[j];
  int *fill = pool_alloc(sizeof *fill * (size_t)(n ? n : 1));
  memcpy(fill, d->pred_off, sizeof *fill * (size_t)n);
  for (int i = 0; i < n; i++) /* i ascending: each pred list comes out ascending */
    for (int k = d->succ_off[i]; k < d->succ_off[i + 1]; k++) d->pred[fill[d->succ[k]]++] = i;
}

int deps_depth(const Deps *d) {
  int *depth = pool_alloc(sizeof *depth * (size_t)(d->n ? d->n : 1)), best = 0;
  for (int j = 0; j < d->n; j++) {
    depth[j] = 1;
    for (int k = d->pred_off[j]; k < d->pred_off[j + 1]; k++)
      if (depth[d->pred[k]] + 1 > depth[j]) depth[j] = depth[d->pred[k]] + 1;
    if (depth[j] > best) best = depth[j];
  }
  return best;
}

static void int_table(Printer *p, const char *name, const int *v, int n) {
  pr_raw(p, "static const int32_t %s[%d] = {", name, n ? n : 1);
  for (int i = 0; i < n; i++) pr_raw(p, "%s%s%d", i ? "," : "", i % 16 ? " " : "\n  ", v[i]);
  pr_raw(p, "%s};\n", n ? "\n" : "0");
}

const char *deps_tables(const Deps *d, const char *prefix) {
  Printer p;
  pr_init(&p);
  pr_line(&p, "/* The kernels' dependencies (rt_sched.h): %d kernels, %d edges, longest chain %d. */", d->n,
          d->succ_off[d->n], deps_depth(d));
  int_table(&p, pool_printf("%s_npred", prefix), d->npred, d->n);
  int_table(&p, pool_printf("%s_succ_off", prefix), d->succ_off, d->n + 1);
  int_table(&p, pool_printf("%s_succ", prefix), d->succ, d->succ_off[d->n]);
  pr_line(&p, "static const RtGraph %s_graph = {%d, %s_npred, %s_succ_off, %s_succ};", prefix, d->n, prefix, prefix,
          prefix);
  char *t = pool_strdup(p.buf);
  pr_free(&p);
  return t;
}

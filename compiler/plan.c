/* Memory plan (see plan.h).
 *
 * Every arena buffer gets a lifetime [first op that writes it, last op that
 * reads it] in program order (fetched tensors live to the end of the run).
 * With enable_inplace an op's output joins the buffer of an input that dies
 * at that op, when the op's definition allows it and the sizes agree.  With
 * memory_optimize, buffers are placed greedily, largest first, at the lowest
 * offset that overlaps no already-placed buffer whose lifetime intersects
 * theirs.  Offsets and sizes are affine in the batch, a*B + c with a, c >= 0,
 * and B >= 1, so x <= y for every batch exactly when it holds at B = 1 and
 * for B growing (x.a <= y.a): placements compared that way are valid for
 * every batch; the plan is verified after placing.  The arena is the
 * tightest affine bound of the buffers' ends: exact at B = 1, with the
 * largest slope. */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "ops/ops.h"
#include "util.h"

/* x rounded up to PLAN_ALIGN into *out; -1 when it does not fit. */
static int round_up(int64_t x, int64_t *out) {
  if (rt_size_add(x, PLAN_ALIGN - 1, out)) return -1;
  *out = *out / PLAN_ALIGN * PLAN_ALIGN;
  return 0;
}

/* x.a * b + x.c, saturated at INT64_MAX (statistics only). */
static int64_t at_sat(SymDim x, int64_t b) {
  int64_t n;
  return rt_size_mul(x.a, b, &n) || rt_size_add(n, x.c, &n) ? INT64_MAX : n;
}

static int64_t add_sat(int64_t x, int64_t y) {
  int64_t n;
  return rt_size_add(x, y, &n) ? INT64_MAX : n;
}

static int64_t at_ref(SymDim d) { return d.a * 8 + d.c; } /* size at a reference batch of 8 */

static int cmp_size_desc(const void *x, const void *y) {
  const PlanBuf *a = x, *b = y;
  int64_t sa = at_ref(a->bytes), sb = at_ref(b->bytes);
  if (sa != sb) return sa > sb ? -1 : 1;
  return a->first - b->first; /* stable, deterministic */
}

static int live_together(const PlanBuf *a, const PlanBuf *b) { return !(a->last < b->first || b->last < a->first); }

/* a + b <= c for every batch B >= 1. */
static int ends_before(SymDim a, SymDim b, SymDim c) {
  return a.a + b.a <= c.a && a.a + b.a + a.c + b.c <= c.a + c.c;
}

/* The tightest affine bound, valid for every B >= 1, of x and end. */
static SymDim bound(SymDim x, SymDim end) {
  const int64_t a = x.a > end.a ? x.a : end.a, at1 = x.a + x.c > end.a + end.c ? x.a + x.c : end.a + end.c;
  return (SymDim){a, at1 - a};
}

/* Orders candidate offsets: smaller at batch 1, then at batch 8. */
static int lower(SymDim x, SymDim y) {
  if (x.a + x.c != y.a + y.c) return x.a + x.c < y.a + y.c;
  return at_ref(x) < at_ref(y);
}

/* Lowest placement for `b` avoiding every placed buffer alive at the same time. */
static SymDim place(const PlanBuf *b, const PlanBuf *placed, int n) {
  SymDim best = {-1, -1}, top = {0, 0};
  for (int k = 0; k < n; k++) { /* above everything alive: always valid */
    if (!live_together(&placed[k], b)) continue;
    top = bound(top, (SymDim){placed[k].offset.a + placed[k].bytes.a, placed[k].offset.c + placed[k].bytes.c});
  }
  for (int cand = -1; cand <= n; cand++) {
    SymDim o = cand == n ? top : (SymDim){0, 0};
    if (cand >= 0 && cand < n) {
      if (!live_together(&placed[cand], b)) continue;
      o = (SymDim){placed[cand].offset.a + placed[cand].bytes.a, placed[cand].offset.c + placed[cand].bytes.c};
    }
    int ok = 1;
    for (int k = 0; k < n && ok; k++) {
      if (!live_together(&placed[k], b)) continue;
      ok = ends_before(o, b->bytes, placed[k].offset) || ends_before(placed[k].offset, placed[k].bytes, o);
    }
    if (ok && (best.a < 0 || lower(o, best))) best = o;
  }
  return best;
}

PlanOpts plan_options(const BuildStrategy *bs) {
  return (PlanOpts){.reuse = bs->memory_optimize != 0, .inplace = bs->enable_inplace != 0};
}

/* The var of slot `name` on one side of an op (first argument), or -1. */
static int slot_var(const Slot *slots, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(slots[i].name, name) && slots[i].n == 1) return slots[i].vars[0];
  return -1;
}

/* The input var whose buffer output `out` of op may take ("X:Out" in the
 * op's definition), or -1; never one that another input slot also reads. */
static int inplace_input(const Op *op, int out) {
  const char *rule = op->def ? op->def->inplace : NULL;
  if (!rule) return -1;
  const char *colon = strchr(rule, ':');
  if (!colon || slot_var(op->out, op->nout, colon + 1) != out) return -1;
  const char *slot = pool_printf("%.*s", (int)(colon - rule), rule);
  int in = slot_var(op->in, op->nin, slot);
  for (int s = 0; s < op->nin && in >= 0; s++)
    for (int a = 0; a < op->in[s].n; a++)
      if (strcmp(op->in[s].name, slot) && op->in[s].vars[a] == in) return -1;
  return in;
}

typedef struct Builder {
  Graph *g;          /* the program */
  const Spec *s;     /* shapes */
  Plan *p;           /* being built */
  int *buf_of;       /* per var: its buffer, -1 */
  int *last_use;     /* per var: position of its last reader (nops: fetched) */
  int cap;           /* capacity of p->bufs */
  int bad;           /* an error was printed */
} Builder;

static void buf_add_var(PlanBuf *b, int var) {
  int *vars = pool_alloc(sizeof(int) * ((size_t)b->nvars + 1));
  if (b->nvars) memcpy(vars, b->vars, sizeof(int) * (size_t)b->nvars);
  vars[b->nvars++] = var;
  b->vars = vars;
}

/* Output `id` of the op at position k: a buffer of its own, or the dying
 * input's buffer. */
static void take_output(Builder *bd, const Op *op, int k, int id, int inplace) {
  Graph *g = bd->g;
  const Var *v = &g->vars[id];
  const VarSpec *vs = &bd->s->vars[id];
  size_t es = rt_dtype_size(v->dtype);
  SymDim ne = spec_numel(vs);
  if (v->vtype != VT_LOD_TENSOR || !vs->known || !es || ne.a < 0) return;
  /* a*B + c elements with c < 0 (x[1:] on the batch dim: B - 1 rows) take
   * a*B - |c| rounded down: the sum still rounds up */
  SymDim bytes;
  const int64_t cmag = ne.c < 0 ? -ne.c : ne.c;
  if (ne.a + ne.c < 0 || rt_size_mul(ne.a, (int64_t)es, &bytes.a) || round_up(bytes.a, &bytes.a) ||
      rt_size_mul(cmag, (int64_t)es, &bytes.c) || round_up(bytes.c, &bytes.c)) {
    bd->bad = diag_error("%s: variable '%s': %lld*B + %lld elements of %s: no arena size (negative at batch 1, or "
                         "more bytes than fit in 64 bits)",
                         g->file, v->name, (long long)ne.a, (long long)ne.c, rt_dtype_name(v->dtype));
    return;
  }
  if (ne.c < 0) bytes.c = -(cmag * (int64_t)es / PLAN_ALIGN * PLAN_ALIGN);
  int in = inplace ? inplace_input(op, id) : -1;
  /* the same element count, not only the same rounded bytes: an input that
   * broadcasts ([B, 1] -> [B, 6]) would be overwritten before it is read */
  SymDim ni = in >= 0 ? spec_numel(&bd->s->vars[in]) : (SymDim){-1, -1};
  if (in >= 0 && bd->buf_of[in] >= 0 && bd->last_use[in] == k && !(g->vars[in].flags & VAR_FETCH) &&
      g->vars[in].dtype == v->dtype && ni.a == ne.a && ni.c == ne.c) {
    PlanBuf *b = &bd->p->bufs[bd->buf_of[in]];
    if (b->bytes.a == bytes.a && b->bytes.c == bytes.c && b->vars[b->nvars - 1] == in) {
      buf_add_var(b, id);
      bd->buf_of[id] = bd->buf_of[in];
      return;
    }
  }
  PlanBuf nb = {.first = k, .last = k, .bytes = bytes};
  buf_add_var(&nb, id);
  VEC_PUSH(bd->p->bufs, bd->p->nbufs, bd->cap, nb);
  bd->buf_of[id] = bd->p->nbufs - 1;
}

int plan_build(Graph *g, const Spec *s, Plan *p, PlanOpts o) {
  memset(p, 0, sizeof *p);
  p->vars = pool_alloc(sizeof *p->vars * ((size_t)g->nvars + 1));
  p->reuse = o.reuse;
  p->inplace = o.inplace;
  for (int i = 0; i < g->nfeeds; i++) p->vars[g->feeds[i]] = (PlanVar){.kind = PLAN_FEED, .index = i};
  for (int i = 0; i < g->nparams; i++) p->vars[g->params[i]] = (PlanVar){.kind = PLAN_PARAM, .index = i};
  Builder bd = {g, s, p, pool_alloc(sizeof(int) * ((size_t)g->nvars + 1)),
                pool_alloc(sizeof(int) * ((size_t)g->nvars + 1)), 0, 0};
  const int nops = g->blocks[0].nops;
  for (int i = 0; i < g->nvars; i++) bd.buf_of[i] = bd.last_use[i] = -1;
  for (int k = 0; k < nops; k++) {
    const Op *op = &g->ops[g->blocks[0].ops[k]];
    for (int si = 0; si < op->nin; si++)
      for (int a = 0; a < op->in[si].n; a++)
        if (op->in[si].vars[a] >= 0) bd.last_use[op->in[si].vars[a]] = k;
  }
  for (int i = 0; i < g->nfetches; i++) bd.last_use[g->fetches[i]] = nops;
  for (int k = 0; k < nops; k++) {
    const Op *op = &g->ops[g->blocks[0].ops[k]];
    for (int side = 0; side < 2; side++) {
      const Slot *slots = side ? op->out : op->in;
      for (int si = 0; si < (side ? op->nout : op->nin); si++)
        for (int a = 0; a < slots[si].n; a++) {
          int id = slots[si].vars[a];
          if (id < 0 || p->vars[id].kind != PLAN_NONE) continue;
          if (bd.buf_of[id] < 0) take_output(&bd, op, k, id, o.inplace);
          if (bd.buf_of[id] >= 0) {
            PlanBuf *b = &p->bufs[bd.buf_of[id]];
            b->last = bd.last_use[id] > b->last ? bd.last_use[id] : b->last;
          }
        }
    }
  }
  if (bd.bad) return -1;
  /* every offset and end below is at most the sum of all buffers, at batch
   * 8 (the reference of cmp_size_desc) too: when that fits, they all do */
  int64_t total_a = 0, total_c = 0, total8;
  for (int i = 0; i < p->nbufs; i++)
    if (rt_size_add(total_a, p->bufs[i].bytes.a, &total_a) ||
        rt_size_add(total_c, p->bufs[i].bytes.c < 0 ? -p->bufs[i].bytes.c : p->bufs[i].bytes.c, &total_c) ||
        rt_size_mul(total_a, 8, &total8) || rt_size_add(total8, total_c, &total8))
      return diag_error("%s: variable '%s': the tensors up to it need more arena bytes than fit in 64 bits", g->file,
                        g->vars[p->bufs[i].vars[0]].name);
  /* a fetch nothing gives storage: no op writes it with a known shape (an
   * output its rule leaves unset, such as batch_norm's SavedMean in test mode) */
  int bad = 0;
  for (int i = 0; i < g->nfetches; i++) {
    const Var *v = &g->vars[g->fetches[i]];
    if (p->vars[g->fetches[i]].kind == PLAN_NONE && bd.buf_of[g->fetches[i]] < 0)
      bad = diag_error("%s: fetch %d '%s' is not computed by the generated code: no op writes it with a known "
                       "shape (a training-only output?)", g->file, v->fetch_col, v->name);
  }
  if (bad) return -1;
  if (o.reuse && p->nbufs) qsort(p->bufs, (size_t)p->nbufs, sizeof *p->bufs, cmp_size_desc);
  for (int i = 0; i < p->nbufs; i++) {
    PlanBuf *b = &p->bufs[i];
    b->offset = o.reuse ? place(b, p->bufs, i) : p->arena;
    p->arena = bound(p->arena, (SymDim){b->offset.a + b->bytes.a, b->offset.c + b->bytes.c});
    for (int v = 0; v < b->nvars; v++) {
      p->vars[b->vars[v]] = (PlanVar){.kind = PLAN_ARENA, .index = i, .offset = b->offset, .bytes = b->bytes};
      p->nslots++;
    }
  }
  /* verify: no two buffers alive at the same time overlap, for any batch */
  for (int i = 0; i < p->nbufs; i++)
    for (int k = i + 1; k < p->nbufs; k++) {
      const PlanBuf *a = &p->bufs[i], *b = &p->bufs[k];
      if (!live_together(a, b)) continue;
      if (!ends_before(a->offset, a->bytes, b->offset) && !ends_before(b->offset, b->bytes, a->offset))
        diag_internal("memory plan: '%s' and '%s' overlap while both are alive", g->vars[a->vars[0]].name,
                      g->vars[b->vars[0]].name);
    }
  return 0;
}

PlanStats plan_stats(const Plan *p, int64_t b) {
  PlanStats st = {at_sat(p->arena, b), 0, 0};
  int last = 0;
  for (int i = 0; i < p->nbufs; i++) {
    int64_t n;
    st.naive = add_sat(st.naive, rt_size_mul(at_sat(p->bufs[i].bytes, b), p->bufs[i].nvars, &n) ? INT64_MAX : n);
    last = p->bufs[i].last > last ? p->bufs[i].last : last;
  }
  for (int k = 0; k <= last; k++) {
    int64_t live = 0;
    for (int i = 0; i < p->nbufs; i++)
      if (p->bufs[i].first <= k && k <= p->bufs[i].last) live = add_sat(live, at_sat(p->bufs[i].bytes, b));
    st.lower_bound = live > st.lower_bound ? live : st.lower_bound;
  }
  return st;
}

const char *plan_summary(const Graph *g, const Plan *p) {
  (void)g;
  PlanStats st = plan_stats(p, 1);
  return pool_printf("%d tensors in %d buffers (memory_optimize=%s, enable_inplace=%s); at batch 1: arena %lld bytes, "
                     "lower bound %lld, naive %lld",
                     p->nslots, p->nbufs, p->reuse ? "true" : "false", p->inplace ? "true" : "false",
                     (long long)st.arena, (long long)st.lower_bound, (long long)st.naive);
}

/* "a*B + c", "c" or "a*B". */
static const char *sym_text(SymDim d) {
  if (!d.a) return pool_printf("%lld", (long long)d.c);
  if (!d.c) return pool_printf("%lld*B", (long long)d.a);
  return pool_printf("%lld*B + %lld", (long long)d.a, (long long)d.c);
}

void plan_dump(const Graph *g, const Plan *p, FILE *f) {
  fprintf(f, "# memory plan: %s\n", plan_summary(g, p));
  fprintf(f, "# arena bytes = %s\n", sym_text(p->arena));
  fprintf(f, "# %-4s %-22s %-22s %-11s %s\n", "buf", "offset", "bytes", "ops", "vars");
  for (int i = 0; i < p->nbufs; i++) {
    const PlanBuf *b = &p->bufs[i];
    fprintf(f, "  %-4d %-22s %-22s %4d..%-5d", i, sym_text(b->offset), sym_text(b->bytes), b->first, b->last);
    for (int v = 0; v < b->nvars; v++) fprintf(f, " %s", g->vars[b->vars[v]].name);
    fputc('\n', f);
  }
}

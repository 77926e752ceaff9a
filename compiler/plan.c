/* Memory plan (see plan.h).
 *
 * Every arena tensor gets a lifetime [first op that writes it, last op that
 * reads it] in program order (fetched tensors live to the end of the run).
 * With `reuse` (memory_optimize), tensors are placed greedily, largest
 * first, at the lowest offset that overlaps no already-placed tensor whose
 * lifetime intersects theirs.  Offsets and sizes are affine in the batch,
 * a*B + c with a, c >= 0, so "ends before" is checked coefficient-wise,
 * which makes the placement valid for every batch. */
#include "plan.h"

#include <stdlib.h>

#include "diag.h"
#include "util.h"

static int64_t round_up(int64_t x) { return (x + PLAN_ALIGN - 1) / PLAN_ALIGN * PLAN_ALIGN; }

typedef struct Buf {
  int var;       /* var id */
  int first;     /* op position of its first write */
  int last;      /* op position of its last read */
  SymDim bytes;  /* size */
} Buf;

static int64_t at_ref(SymDim d) { return d.a * 8 + d.c; } /* size at a reference batch of 8 */

static int cmp_size_desc(const void *x, const void *y) {
  const Buf *a = x, *b = y;
  int64_t sa = at_ref(a->bytes), sb = at_ref(b->bytes);
  if (sa != sb) return sa > sb ? -1 : 1;
  return a->first - b->first; /* stable, deterministic */
}

/* a + b <= c for every batch (coefficient-wise). */
static int ends_before(SymDim a, SymDim b, SymDim c) { return a.a + b.a <= c.a && a.c + b.c <= c.c; }

/* Lowest placement for `b` avoiding every placed buffer alive at the same time. */
static SymDim place(const Buf *b, const Buf *placed, const SymDim *off, int n) {
  SymDim best = {-1, -1}, top = {0, 0};
  for (int k = 0; k < n; k++) { /* above everything alive: always valid */
    if (placed[k].last < b->first || b->last < placed[k].first) continue;
    SymDim end = {off[k].a + placed[k].bytes.a, off[k].c + placed[k].bytes.c};
    top = (SymDim){end.a > top.a ? end.a : top.a, end.c > top.c ? end.c : top.c};
  }
  for (int cand = -1; cand <= n; cand++) {
    SymDim o = cand == n ? top : (SymDim){0, 0};
    if (cand >= 0 && cand < n) {
      if (placed[cand].last < b->first || b->last < placed[cand].first) continue;
      o = (SymDim){off[cand].a + placed[cand].bytes.a, off[cand].c + placed[cand].bytes.c};
    }
    int ok = 1;
    for (int k = 0; k < n && ok; k++) {
      if (placed[k].last < b->first || b->last < placed[k].first) continue;
      ok = ends_before(o, b->bytes, off[k]) || ends_before(off[k], placed[k].bytes, o);
    }
    if (ok && (best.a < 0 || at_ref(o) < at_ref(best))) best = o;
  }
  return best;
}

int plan_build(Graph *g, const Spec *s, Plan *p, int reuse) {
  p->vars = pool_alloc(sizeof *p->vars * ((size_t)g->nvars + 1));
  p->arena = (SymDim){0, 0};
  p->nslots = 0;
  for (int i = 0; i < g->nfeeds; i++) p->vars[g->feeds[i]] = (PlanVar){.kind = PLAN_FEED, .index = i};
  for (int i = 0; i < g->nparams; i++) p->vars[g->params[i]] = (PlanVar){.kind = PLAN_PARAM, .index = i};
  int *slot_of = pool_alloc(sizeof(int) * ((size_t)g->nvars + 1));
  Buf *bufs = pool_alloc(sizeof *bufs * ((size_t)g->nvars + 1));
  int nb = 0, nops = g->blocks[0].nops;
  for (int i = 0; i < g->nvars; i++) slot_of[i] = -1;
  for (int k = 0; k < nops; k++) {
    const Op *op = &g->ops[g->blocks[0].ops[k]];
    for (int side = 0; side < 2; side++) {
      const Slot *slots = side ? op->out : op->in;
      int n = side ? op->nout : op->nin;
      for (int si = 0; si < n; si++)
        for (int a = 0; a < slots[si].n; a++) {
          int id = slots[si].vars[a];
          if (id < 0) continue;
          if (slot_of[id] >= 0) {
            bufs[slot_of[id]].last = k;
            continue;
          }
          if (p->vars[id].kind != PLAN_NONE) continue;
          const Var *v = &g->vars[id];
          const VarSpec *vs = &s->vars[id];
          if (v->vtype != VT_LOD_TENSOR || !vs->known) continue;
          size_t es = rt_dtype_size(v->dtype);
          SymDim ne = spec_numel(vs);
          if (!es || ne.a < 0) continue;
          slot_of[id] = nb;
          bufs[nb++] = (Buf){id, k, k, {round_up(ne.a * (int64_t)es), round_up(ne.c * (int64_t)es)}};
        }
    }
  }
  for (int i = 0; i < g->nfetches; i++)
    if (slot_of[g->fetches[i]] >= 0) bufs[slot_of[g->fetches[i]]].last = nops; /* copied out at the end */
  if (reuse) qsort(bufs, (size_t)nb, sizeof *bufs, cmp_size_desc);
  SymDim *off = pool_alloc(sizeof *off * ((size_t)nb + 1));
  for (int i = 0; i < nb; i++) {
    if (reuse) {
      off[i] = place(&bufs[i], bufs, off, i);
    } else {
      off[i] = p->arena;
    }
    SymDim end = {off[i].a + bufs[i].bytes.a, off[i].c + bufs[i].bytes.c};
    p->arena.a = end.a > p->arena.a ? end.a : p->arena.a; /* coefficient-wise: a bound for every B */
    p->arena.c = end.c > p->arena.c ? end.c : p->arena.c;
    p->vars[bufs[i].var] = (PlanVar){.kind = PLAN_ARENA, .offset = off[i], .bytes = bufs[i].bytes};
    p->nslots++;
  }
  /* verify: no two tensors alive at the same time overlap, for any batch */
  for (int i = 0; i < nb; i++)
    for (int k = i + 1; k < nb; k++) {
      if (bufs[i].last < bufs[k].first || bufs[k].last < bufs[i].first) continue;
      if (!ends_before(off[i], bufs[i].bytes, off[k]) && !ends_before(off[k], bufs[k].bytes, off[i]))
        diag_internal("memory plan: '%s' and '%s' overlap while both are alive", g->vars[bufs[i].var].name,
                      g->vars[bufs[k].var].name);
    }
  return 0;
}

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
#include "subblock.h"
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

/* A range of batches lo..hi (hi 0: no upper end). */
typedef struct Range {
  int64_t lo, hi;
} Range;

static SymDim end_of(SymDim o, SymDim bytes) { return (SymDim){o.a + bytes.a, o.c + bytes.c}; }

/* x <= y for every batch of r (both affine: at the ends of r suffices). */
static int le_on(SymDim x, SymDim y, Range r) {
  const int64_t a = x.a - y.a, c = x.c - y.c;
  if (a * r.lo + c > 0) return 0;
  return r.hi ? a * r.hi + c <= 0 : a <= 0;
}

/* The tightest affine bound of x and e on r: through the larger values at
 * both ends of r (the maximum of affine functions lies below that chord),
 * or with the larger slope when r has no upper end.  Values at the ends
 * of r are multiples of PLAN_ALIGN, and so stays the bound. */
static SymDim bound_on(SymDim x, SymDim e, Range r) {
  const int64_t xl = x.a * r.lo + x.c, el = e.a * r.lo + e.c, lo = xl > el ? xl : el;
  if (!r.hi) {
    const int64_t a = x.a > e.a ? x.a : e.a;
    return (SymDim){a, lo - a * r.lo};
  }
  const int64_t xh = x.a * r.hi + x.c, eh = e.a * r.hi + e.c, hi = xh > eh ? xh : eh;
  const int64_t rise = hi - lo, run = r.hi - r.lo;
  /* the slope rounded up to PLAN_ALIGN keeps every value a multiple of it
   * (scratch starts where the tensors end) */
  const int64_t a = rise <= 0 || !run ? 0 : (rise + run * PLAN_ALIGN - 1) / (run * PLAN_ALIGN) * PLAN_ALIGN;
  return (SymDim){a, lo - a * r.lo};
}

/* Orders candidate offsets: smaller at batch 1, then at batch 8. */
static int lower(SymDim x, SymDim y) {
  if (x.a + x.c != y.a + y.c) return x.a + x.c < y.a + y.c;
  return at_ref(x) < at_ref(y);
}

/* The most bytes of buffers alive at one time at batch b (INT64_MAX when
 * that does not fit). */
static int64_t live_peak(const PlanBuf *bufs, int n, int64_t b) {
  int last = 0;
  for (int i = 0; i < n; i++) last = bufs[i].last > last ? bufs[i].last : last;
  int64_t *born = calloc((size_t)last + 2, sizeof *born), *dead = calloc((size_t)last + 2, sizeof *dead);
  int64_t live = 0, peak = 0;
  if (!born || !dead) diag_internal("memory plan: out of memory");
  for (int i = 0; i < n; i++) {
    const int64_t bytes = at_sat(bufs[i].bytes, b);
    born[bufs[i].first] = add_sat(born[bufs[i].first], bytes);
    dead[bufs[i].last + 1] = add_sat(dead[bufs[i].last + 1], bytes);
  }
  for (int k = 0; k <= last && peak < INT64_MAX; k++) {
    live = add_sat(live, born[k]) - dead[k]; /* what died was counted before */
    peak = live > peak ? live : peak;
  }
  free(born);
  free(dead);
  return peak;
}

/* One packing of the buffers for the batches of `r`.  The legacy packing
 * (the only one before plans had pieces; kept first, so that a plan it
 * already packs tightly does not change) takes the buffers largest at
 * batch 8 first, each at the lowest offset at batch 1, then at 8.  The
 * others take them in the order of their size at `ref` times a weight
 * (1, or a deterministic jitter in [0.5, 1.5): greedy packing is sensitive
 * to the order, and a few orders find what one misses), each at the offset
 * smallest relative to the lower bound at both ends of the range. */
typedef struct Packing {
  Range r;           /* batches it must hold for */
  int64_t ref;       /* the upper batch it is judged at (r.hi, or beyond r.lo) */
  double lb_lo, lb_ref; /* the lower bound at r.lo and at ref */
  const double *w;   /* order weights; NULL: the legacy packing */
  SymDim *off;       /* out: per buffer */
  SymDim arena;      /* out */
  long work;         /* out: candidate checks made */
} Packing;

typedef struct OrderKey {
  double key;
  int first, index;
} OrderKey;

static int cmp_key(const void *x, const void *y) {
  const OrderKey *a = x, *b = y;
  if (a->key != b->key) return a->key > b->key ? -1 : 1;
  if (a->first != b->first) return a->first - b->first;
  return a->index - b->index;
}

static void pack(const PlanBuf *bufs, int n, Packing *k) {
  OrderKey *order = pool_alloc(sizeof *order * (size_t)(n ? n : 1));
  int *placed = pool_alloc(sizeof *placed * (size_t)(n ? n : 1)), *live = pool_alloc(sizeof *live * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++)
    order[i] = (OrderKey){k->w ? (double)at_sat(bufs[i].bytes, k->ref) * k->w[i] : (double)-i, bufs[i].first, i};
  if (k->w) qsort(order, (size_t)n, sizeof *order, cmp_key);
  k->arena = (SymDim){0, 0};
  k->work = 0;
  for (int i = 0; i < n; i++) {
    const int b = order[i].index;
    int nl = 0;
    SymDim top = {0, 0}, best = {-1, -1};
    double best_score = 0;
    for (int j = 0; j < i; j++)
      if (live_together(&bufs[placed[j]], &bufs[b])) {
        live[nl++] = placed[j];
        top = bound_on(top, end_of(k->off[placed[j]], bufs[placed[j]].bytes), k->r);
      }
    for (int cand = -1; cand <= nl; cand++) { /* 0, the end of each live buffer, above them all */
      const SymDim o = cand < 0 ? (SymDim){0, 0} : cand == nl ? top : end_of(k->off[live[cand]], bufs[live[cand]].bytes);
      int ok = 1;
      for (int j = 0; j < nl && ok; j++) {
        const SymDim po = k->off[live[j]];
        ok = le_on(end_of(o, bufs[b].bytes), po, k->r) || le_on(end_of(po, bufs[live[j]].bytes), o, k->r);
      }
      k->work += nl + 1;
      if (!ok) continue;
      const double score = (double)(o.a * k->ref + o.c) / k->lb_ref + (double)(o.a * k->r.lo + o.c) / k->lb_lo;
      if (best.a < 0 || (k->w ? score < best_score : lower(o, best))) best = o, best_score = score;
    }
    k->off[b] = best;
    k->arena = bound_on(k->arena, end_of(best, bufs[b].bytes), k->r);
    placed[i] = b;
  }
}

/* How far the packing is from the lower bound: the larger ratio of its
 * arena to the bound at the two batches it is judged at. */
static double packing_ratio(const Packing *k) {
  const double lo = (double)(k->arena.a * k->r.lo + k->arena.c) / k->lb_lo;
  const double ref = (double)(k->arena.a * k->ref + k->arena.c) / k->lb_ref;
  return lo > ref ? lo : ref;
}

enum { PACK_TRIES = 256 };       /* orders tried for one range at most */
static const long PACK_WORK = 4000000;  /* candidate checks one range may spend */

/* The best of several packings for r: the legacy one when `legacy`, then
 * (with `tries`) weighted orders while the work allows. */
static Packing best_packing(const PlanBuf *bufs, int n, Range r, int legacy, int tries) {
  const int64_t ref = r.hi ? r.hi : (r.lo * 4 > 1024 ? r.lo * 4 : 1024);
  const int64_t lb_lo = live_peak(bufs, n, r.lo), lb_ref = live_peak(bufs, n, ref);
  Packing best = {0}, k = {r, ref, lb_lo > 0 ? (double)lb_lo : 1, lb_ref > 0 ? (double)lb_ref : 1, NULL, NULL, {0, 0}, 0};
  double *w = pool_alloc(sizeof *w * (size_t)(n ? n : 1));
  uint64_t state = 0x9E3779B97F4A7C15u; /* xorshift64: the same orders on every run */
  long spent = 0;
  for (int t = legacy ? 0 : 1; t <= PACK_TRIES; t++) {
    for (int i = 0; i < n; i++) {
      state ^= state << 13, state ^= state >> 7, state ^= state << 17;
      w[i] = t == 1 ? 1.0 : 0.5 + (double)(state >> 11) / 9007199254740992.0;
    }
    k.w = t ? w : NULL;
    k.off = pool_alloc(sizeof *k.off * (size_t)(n ? n : 1));
    pack(bufs, n, &k);
    spent += k.work;
    if (!best.off || packing_ratio(&k) < packing_ratio(&best)) best = k;
    if (!tries || spent + k.work > PACK_WORK) break;
  }
  best.w = NULL;
  return best;
}

/* The ranges of batches a plan in pieces packs for separately.  One
 * packing that holds for every batch is exact at batch 1 but can be far from
 * the lower bound where the batch-sized buffers and the fixed-size ones
 * (parameter gradients, say) are of a size: a training MLP at batch 8 took
 * 1.5x its lower bound.  Single batches up to 8, then ranges 1.2x as wide
 * as the one before (the lower bound is convex in the batch: the wider the
 * range, the more an affine arena exceeds it inside). */
static const Range piece_ranges[] = {
    {1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}, {6, 6}, {7, 7}, {8, 8}, {9, 10}, {11, 13}, {14, 16}, {17, 20},
    {21, 25}, {26, 31}, {32, 38}, {39, 46}, {47, 56}, {57, 68}, {69, 82}, {83, 99}, {100, 120}, {121, 145},
    {146, 175}, {176, 211}, {212, 254}, {255, 306}, {307, 368}, {369, 442}, {443, 531}, {532, 0}};
enum { NRANGES = sizeof piece_ranges / sizeof piece_ranges[0] };

/* The arena of `off` on r. */
static SymDim arena_on(const Plan *p, const SymDim *off, Range r) {
  SymDim a = {0, 0};
  for (int i = 0; i < p->nbufs; i++) a = bound_on(a, end_of(off[i], p->bufs[i].bytes), r);
  return a;
}

/* 1 when no two buffers alive at the same time overlap at `off` on r. */
static int holds_on(const Plan *p, const SymDim *off, Range r) {
  for (int i = 0; i < p->nbufs; i++)
    for (int k = i + 1; k < p->nbufs; k++)
      if (live_together(&p->bufs[i], &p->bufs[k]) && !le_on(end_of(off[i], p->bufs[i].bytes), off[k], r) &&
          !le_on(end_of(off[k], p->bufs[k].bytes), off[i], r))
        return 0;
  return 1;
}

/* Packs p's buffers (p->pieces, p->npieces) and returns the offsets of the
 * last piece.  One packing for every batch (the legacy order first, others
 * when `tries`); with `pieces`, one for each range too, kept for a range
 * where it beats the one for every batch by more than 2% at either end (and
 * the one of the range before by more than 1%: fewer pieces). */
static SymDim *place_pieces(Plan *p, int tries, int pieces) {
  const int n = p->nbufs;
  Packing all = best_packing(p->bufs, n, (Range){1, 0}, 1, tries);
  SymDim *chosen[NRANGES];
  int own = 0;
  for (int r = 0; r < NRANGES; r++) {
    chosen[r] = all.off;
    if (!pieces) continue;
    Packing k = best_packing(p->bufs, n, piece_ranges[r], 0, 1);
    /* the offsets of the range before (or of every batch) where they hold
     * for this range too and do as well, within `slack` */
    SymDim *prev = r ? chosen[r - 1] : all.off;
    const double slack = prev == all.off ? 1.02 : 1.01;
    const SymDim a = arena_on(p, prev, k.r);
    if (!holds_on(p, prev, k.r) || (double)(a.a * k.r.lo + a.c) > slack * (double)(k.arena.a * k.r.lo + k.arena.c) ||
        (double)(a.a * k.ref + a.c) > slack * (double)(k.arena.a * k.ref + k.arena.c))
      prev = k.off;
    chosen[r] = prev;
    own |= prev != all.off;
  }
  if (!own) {
    p->npieces = 1;
    p->pieces = pool_alloc(sizeof *p->pieces);
    p->pieces[0] = (PlanPiece){1, 0, all.arena, all.off};
    return all.off;
  }
  /* neighbours with the same offsets become one piece */
  p->pieces = pool_alloc(sizeof *p->pieces * NRANGES);
  p->npieces = 0;
  for (int r = 0; r < NRANGES; r++) {
    PlanPiece *last = p->npieces ? &p->pieces[p->npieces - 1] : NULL;
    if (last && (last->offset == chosen[r] || !memcmp(last->offset, chosen[r], sizeof(SymDim) * (size_t)n)))
      last->hi = piece_ranges[r].hi;
    else
      p->pieces[p->npieces++] = (PlanPiece){piece_ranges[r].lo, piece_ranges[r].hi, {0, 0}, chosen[r]};
  }
  /* each piece's arena on its range, never below the one before at its end */
  for (int k = 0; k < p->npieces; k++) {
    PlanPiece *pc = &p->pieces[k];
    pc->arena = arena_on(p, pc->offset, (Range){pc->lo, pc->hi});
    if (k) {
      const PlanPiece *prev = &p->pieces[k - 1];
      const int64_t top = prev->arena.a * prev->hi + prev->arena.c, at_lo = pc->arena.a * pc->lo + pc->arena.c;
      if (at_lo < top) pc->arena.c += top - at_lo;
    }
  }
  return p->pieces[p->npieces - 1].offset;
}

PlanOpts plan_options(const BuildStrategy *bs) {
  return (PlanOpts){.reuse = bs->memory_optimize != 0, .inplace = bs->enable_inplace != 0};
}

/* The var of slot `name` on one side of an op when it binds exactly one,
 * or -1. */
static int slot_var(const Slot *slots, int n, const char *name) {
  const Slot *s = slot_find(slots, n, name);
  return s && s->n == 1 ? s->vars[0] : -1;
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

/* Whether in and out, of one element count, keep their run-time dims in
 * the same places, each the same extent (same_runtime_dims): an input
 * whose run-time dims are broadcast ([B, C, 1, 1] to [B, C, H, W]) may
 * have as many elements as the output at one bound (H, W at most 1) and
 * not at another, and the plans of size classes must agree. */
static int same_layout(const Graph *g, const Spec *s, int in, int out) {
  const VarSpec *a = &s->vars[in], *b = &s->vars[out];
  if (!a->runtime_mask && !b->runtime_mask) return 1;
  if (a->rank != b->rank) return 0;
  for (int d = 0; d < a->rank; d++) {
    const int ra = a->runtime_mask >> d & 1, rb = b->runtime_mask >> d & 1;
    if (ra != rb || (ra && !same_runtime_dims(&g->vars[in], d, &g->vars[out], d)) ||
        (!ra && (a->d[d].a != b->d[d].a || a->d[d].c != b->d[d].c)))
      return 0;
  }
  return 1;
}

/* Output `id` of the op at position k: a buffer of its own, or the dying
 * input's buffer. */
static void take_output(Builder *bd, const Op *op, int k, int id, int inplace) {
  Graph *g = bd->g;
  const Var *v = &g->vars[id];
  const VarSpec *vs = &bd->s->vars[id];
  size_t es = rt_dtype_size(v->dtype);
  SymDim ne = spec_numel(vs);
  if ((v->vtype != VT_LOD_TENSOR && v->vtype != VT_LOD_TENSOR_ARRAY) || !vs->known || !es || ne.a < 0) return;
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
      g->vars[in].dtype == v->dtype && ni.a == ne.a && ni.c == ne.c && same_layout(g, bd->s, in, id)) {
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

/* A control-flow op at position k and the vars of its sub-block. */
typedef struct BlockUse {
  Builder *bd;
  int k;
  const Op *op;
} BlockUse;

static void block_use(void *ctx, int id, int write) {
  (void)write;
  BlockUse *u = ctx;
  u->bd->last_use[id] = u->k;
}

static void attr_use(void *ctx, int id, const char *attr) {
  (void)attr;
  block_use(ctx, id, 0);
}

/* A var the sub-block touches: a buffer of its own when it has none yet
 * (never an input's: the loop may read that input again), alive to its
 * last use. */
static void block_take(void *ctx, int id, int write) {
  (void)write;
  BlockUse *u = ctx;
  Builder *bd = u->bd;
  if (bd->p->vars[id].kind != PLAN_NONE) return;
  if (bd->buf_of[id] < 0) take_output(bd, u->op, u->k, id, 0);
  if (bd->buf_of[id] >= 0) {
    PlanBuf *b = &bd->p->bufs[bd->buf_of[id]];
    b->last = bd->last_use[id] > b->last ? bd->last_use[id] : b->last;
  }
}

/* Buffer a is made before buffer b: at an earlier op, or at the same op
 * for an earlier var. */
static int made_before(const PlanBuf *a, const PlanBuf *b) {
  return a->first != b->first ? a->first < b->first : a->vars[0] < b->vars[0];
}

/* Numbers the placed buffers in the order the program makes them: p->bufs,
 * every piece's offsets and all[] (the last piece's) follow. */
static void renumber(Plan *p, SymDim *all) {
  const int n = p->nbufs;
  int *order = pool_alloc(sizeof *order * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) { /* insertion: buffers are few, the order stable */
    int j = i;
    while (j > 0 && made_before(&p->bufs[i], &p->bufs[order[j - 1]])) {
      order[j] = order[j - 1];
      j--;
    }
    order[j] = i;
  }
  PlanBuf *bufs = pool_alloc(sizeof *bufs * (size_t)(n ? n : 1));
  SymDim *last = pool_alloc(sizeof *last * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) bufs[i] = p->bufs[order[i]], last[i] = all[order[i]];
  for (int k = 0; k < p->npieces; k++) {
    SymDim *off = pool_alloc(sizeof *off * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) off[i] = p->pieces[k].offset[order[i]];
    p->pieces[k].offset = off;
  }
  if (n) memcpy(p->bufs, bufs, sizeof *bufs * (size_t)n);
  if (n) memcpy(all, last, sizeof *last * (size_t)n);
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
    BlockUse attrs = {&bd, k, op}; /* a tensor passed as an attribute is read when the op runs */
    op_each_attr_var(g, op, attr_use, &attrs);
    if (op_runs_block(g, op)) { /* its sub-block's vars, read or written, are alive while it runs */
      BlockUse u = {&bd, k, op};
      op_each_var(g, op, block_use, &u);
    }
  }
  for (int i = 0; i < g->nfetches; i++) bd.last_use[g->fetches[i]] = nops;
  for (int k = 0; k < nops; k++) {
    const Op *op = &g->ops[g->blocks[0].ops[k]];
    if (op_runs_block(g, op)) {
      BlockUse u = {&bd, k, op};
      op_each_var(g, op, block_take, &u);
      continue;
    }
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
  /* the packings judge sizes up to 4x the last range's start: when those do
   * not fit in 64 bits, only the legacy packing runs */
  int64_t top;
  const int wide = !rt_size_mul(total_a, 4 * piece_ranges[NRANGES - 1].lo, &top) && !rt_size_add(top, total_c, &top);
  int sloped = 0;
  for (int i = 0; i < p->nbufs; i++) sloped |= p->bufs[i].bytes.a != 0;
  SymDim *all;
  if (o.reuse) {
    all = place_pieces(p, wide && !o.quick, wide && sloped && !o.quick);
  } else { /* every buffer its own slot, in program order */
    all = pool_alloc(sizeof *all * (size_t)(p->nbufs ? p->nbufs : 1));
    SymDim end = {0, 0};
    for (int i = 0; i < p->nbufs; i++) {
      all[i] = end;
      end = bound_on(end, end_of(all[i], p->bufs[i].bytes), (Range){1, 0});
    }
    p->npieces = 1;
    p->pieces = pool_alloc(sizeof *p->pieces);
    p->pieces[0] = (PlanPiece){1, 0, end, all};
  }
  if (o.program_order) renumber(p, all);
  p->arena = p->pieces[p->npieces - 1].arena;
  for (int i = 0; i < p->nbufs; i++) {
    PlanBuf *b = &p->bufs[i];
    b->offset = all[i];
    for (int v = 0; v < b->nvars; v++) {
      p->vars[b->vars[v]] = (PlanVar){.kind = PLAN_ARENA, .index = i, .offset = b->offset, .bytes = b->bytes};
      p->nslots++;
    }
  }
  /* verify: no two buffers alive at the same time overlap, in any piece */
  for (int pc = 0; pc < p->npieces; pc++) {
    const PlanPiece *pp = &p->pieces[pc];
    const Range r = {pp->lo, pp->hi};
    for (int i = 0; i < p->nbufs; i++)
      for (int k = i + 1; k < p->nbufs; k++) {
        const PlanBuf *a = &p->bufs[i], *b = &p->bufs[k];
        if (!live_together(a, b)) continue;
        if (!le_on(end_of(pp->offset[i], a->bytes), pp->offset[k], r) &&
            !le_on(end_of(pp->offset[k], b->bytes), pp->offset[i], r))
          diag_internal("memory plan: '%s' and '%s' overlap while both are alive", g->vars[a->vars[0]].name,
                        g->vars[b->vars[0]].name);
      }
  }
  return 0;
}

const PlanPiece *plan_piece(const Plan *p, int64_t b) {
  int k = 0;
  while (k + 1 < p->npieces && p->pieces[k].hi && b > p->pieces[k].hi) k++;
  return &p->pieces[k];
}

int plan_overlap(const Plan *p, int i, int j) {
  if (i == j) return 1;
  for (int k = 0; k < p->npieces; k++) {
    const PlanPiece *pp = &p->pieces[k];
    const Range r = {pp->lo, pp->hi};
    if (!le_on(end_of(pp->offset[i], p->bufs[i].bytes), pp->offset[j], r) &&
        !le_on(end_of(pp->offset[j], p->bufs[j].bytes), pp->offset[i], r))
      return 1;
  }
  return 0;
}

PlanStats plan_stats(const Plan *p, int64_t b) {
  PlanStats st = {at_sat(plan_piece(p, b)->arena, b), live_peak(p->bufs, p->nbufs, b), 0};
  for (int i = 0; i < p->nbufs; i++) {
    int64_t n;
    st.naive = add_sat(st.naive, rt_size_mul(at_sat(p->bufs[i].bytes, b), p->bufs[i].nvars, &n) ? INT64_MAX : n);
  }
  return st;
}

const char *plan_summary(const Graph *g, const Plan *p) {
  (void)g;
  PlanStats st = plan_stats(p, 1);
  return pool_printf("%d tensors in %d buffers (memory_optimize=%s, enable_inplace=%s%s); at batch 1: arena %lld "
                     "bytes, lower bound %lld, naive %lld",
                     p->nslots, p->nbufs, p->reuse ? "true" : "false", p->inplace ? "true" : "false",
                     p->npieces > 1 ? pool_printf("; %d pieces by batch", p->npieces) : "", (long long)st.arena,
                     (long long)st.lower_bound, (long long)st.naive);
}

/* "a*B + c", "c" or "a*B". */
static const char *sym_text(SymDim d) {
  if (!d.a) return pool_printf("%lld", (long long)d.c);
  if (!d.c) return pool_printf("%lld*B", (long long)d.a);
  return pool_printf("%lld*B + %lld", (long long)d.a, (long long)d.c);
}

void plan_dump(const Graph *g, const Plan *p, FILE *f) {
  fprintf(f, "# memory plan: %s\n", plan_summary(g, p));
  for (int k = 0; k < p->npieces; k++) {
    const PlanPiece *pc = &p->pieces[k];
    if (p->npieces > 1)
      fprintf(f, "# piece %d: batch %lld..%s\n", k, (long long)pc->lo,
              pc->hi ? pool_printf("%lld", (long long)pc->hi) : "");
    fprintf(f, "# arena bytes = %s\n", sym_text(pc->arena));
    fprintf(f, "# %-4s %-22s %-22s %-11s %s\n", "buf", "offset", "bytes", "ops", "vars");
    for (int i = 0; i < p->nbufs; i++) {
      const PlanBuf *b = &p->bufs[i];
      fprintf(f, "  %-4d %-22s %-22s %4d..%-5d", i, sym_text(pc->offset[i]), sym_text(b->bytes), b->first, b->last);
      for (int v = 0; v < b->nvars; v++) fprintf(f, " %s", g->vars[b->vars[v]].name);
      fputc('\n', f);
    }
  }
}

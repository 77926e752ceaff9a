/* The op scheduler (rt_sched.h): a min-heap of ready kernels and a count of
 * unfinished predecessors per kernel, under one mutex.  Threads take a
 * ready kernel only while fewer than max_ops run; finishing one releases its
 * successors and moves the pool's epoch, which wakes idle threads. */
#include "rt_pool_impl.h"

/* Kernels in program order, for a graph that runs one kernel at a time. */
static int run_in_order(const RtGraph *g, RtOpFn fn, void *ctx) {
  for (int32_t k = 0; k < g->n; k++) {
    int st = fn(ctx, k, 0);
    if (st) return st;
  }
  return 0;
}

#ifdef PADDLEC_NO_THREADS

int rt_graph_run(const RtGraph *g, int max_ops, RtOpFn fn, void *ctx, int32_t *work) {
  (void)max_ops;
  (void)work;
  return run_in_order(g, fn, ctx);
}

#else

int rt_sched_init(RtSchedState *s) { return pthread_mutex_init(&s->mu, NULL) ? -1 : 0; }
void rt_sched_destroy(RtSchedState *s) { pthread_mutex_destroy(&s->mu); }

static void heap_push(RtSchedState *s, int32_t k) {
  int32_t i = s->nready++;
  while (i > 0 && s->ready[(i - 1) / 2] > k) {
    s->ready[i] = s->ready[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  s->ready[i] = k;
}

static int32_t heap_pop(RtSchedState *s) {
  const int32_t top = s->ready[0], last = s->ready[--s->nready];
  int32_t i = 0;
  for (;;) {
    int32_t c = 2 * i + 1;
    if (c >= s->nready) break;
    if (c + 1 < s->nready && s->ready[c + 1] < s->ready[c]) c++;
    if (s->ready[c] >= last) break;
    s->ready[i] = s->ready[c];
    i = c;
  }
  if (s->nready) s->ready[i] = last;
  return top;
}

static int lowest_bit(uint64_t x) {
  int b = 0;
  while (!(x >> b & 1)) b++;
  return b;
}

int rt_sched_step(RtPool *p) {
  RtSchedState *s = &p->sched;
  if (atomic_load(&s->nready_hint) <= 0) return 0;
  pthread_mutex_lock(&s->mu);
  if (!s->active || !s->nready || s->in_flight >= s->max_ops || s->status) {
    pthread_mutex_unlock(&s->mu);
    return 0;
  }
  const int32_t k = heap_pop(s);
  const int slot = lowest_bit(s->free_slots);
  s->free_slots &= ~(1ull << slot);
  s->in_flight++;
  atomic_store(&s->nready_hint, s->nready);
  pthread_mutex_unlock(&s->mu);

  /* the kernel runs as this thread's own: its tasks go to this thread's slot */
  RtPool *prev_pool = rt_tls_pool;
  const int prev_depth = rt_tls_depth;
  rt_tls_pool = p;
  rt_tls_depth = 0;
  const int st = s->fn(s->ctx, k, slot);
  rt_tls_pool = prev_pool;
  rt_tls_depth = prev_depth;

  pthread_mutex_lock(&s->mu);
  s->in_flight--;
  s->free_slots |= 1ull << slot;
  s->done++;
  if (st && k < s->err_kernel) s->err_kernel = k, s->status = st;
  const RtGraph *g = s->g;
  for (int32_t e = g->succ_off[k]; e < g->succ_off[k + 1]; e++)
    if (--s->pending[g->succ[e]] == 0) heap_push(s, g->succ[e]);
  atomic_store(&s->nready_hint, s->nready);
  if (s->done == g->n || (s->status && s->in_flight == 0)) atomic_store(&s->finished, 1);
  pthread_mutex_unlock(&s->mu);
  rt_pool_wake(p);
  return 1;
}

int rt_graph_run(const RtGraph *g, int max_ops, RtOpFn fn, void *ctx, int32_t *work) {
  RtPool *p = rt_tls_pool;
  if (!p || p->threads == 1 || max_ops <= 1 || rt_tls_depth > 0 || g->n <= 1) return run_in_order(g, fn, ctx);
  if (max_ops > p->threads) max_ops = p->threads;
  if (max_ops > 64) max_ops = 64;
  RtSchedState *s = &p->sched;
  pthread_mutex_lock(&s->mu);
  s->g = g;
  s->fn = fn;
  s->ctx = ctx;
  s->pending = work;
  s->ready = work + g->n;
  s->nready = 0;
  s->done = 0;
  s->err_kernel = g->n;
  s->status = 0;
  s->max_ops = max_ops;
  s->in_flight = 0;
  s->free_slots = max_ops == 64 ? ~0ull : (1ull << max_ops) - 1;
  for (int32_t k = 0; k < g->n; k++)
    if ((s->pending[k] = g->npred[k]) == 0) heap_push(s, k);
  atomic_store(&s->finished, 0);
  atomic_store(&s->nready_hint, s->nready);
  s->active = 1;
  pthread_mutex_unlock(&s->mu);
  rt_pool_wake(p);

  /* this thread works like the others until the last kernel is done */
  for (;;) {
    const unsigned seen = atomic_load(&p->epoch);
    if (atomic_load(&s->finished)) break;
    if (rt_sched_step(p) || rt_pool_help(p, rt_tls_self)) continue;
    rt_pool_wait(p, seen);
  }
  pthread_mutex_lock(&s->mu);
  s->active = 0;
  atomic_store(&s->nready_hint, 0);
  const int st = s->status;
  pthread_mutex_unlock(&s->mu);
  return st;
}

#endif

/* The worker pool behind rt_parallel (rt_parallel.h); rt_pool_impl.h says
 * how its threads share work.
 *
 * A kernel's tasks: the thread running the kernel publishes (fn, ctx,
 * ntasks) in its job slot under a new generation number, moves the epoch,
 * and claims tasks itself; idle threads claim from the same slot.  The claim
 * word holds (generation << 32 | next index), so a thread that wakes late
 * can never take a task of a later job with the arguments of an earlier
 * one.  Idle threads spin briefly on the epoch (kernels come back to back
 * within microseconds), then sleep on a condition variable; a kernel waits
 * for its done count by spinning (its own share of tasks came first). */
#include <stdlib.h>

#include "rt_alloc.h"
#include "rt_pool_impl.h"

RT_TLS RtPool *rt_tls_pool;
RT_TLS int rt_tls_self;
RT_TLS int rt_tls_depth;

RtPool *rt_pool_enter(RtPool *pool) {
  RtPool *prev = rt_tls_pool;
  rt_tls_pool = pool;
  return prev;
}

typedef struct RangeJob {
  RtRange fn;        /* the rows' function */
  void *ctx;         /* its argument */
  int64_t rows, nt;  /* rows, tasks */
} RangeJob;

static void range_task(void *ctx, int64_t t, int tid) {
  const RangeJob *j = ctx;
  (void)tid;
  j->fn(j->ctx, t * j->rows / j->nt, (t + 1) * j->rows / j->nt);
}

void rt_parallel_range(int64_t rows, int64_t work, RtRange fn, void *ctx) {
  if (rows <= 0) return;
  RangeJob j = {fn, ctx, rows, rt_split_tasks(work, rows)};
  rt_parallel(j.nt, range_task, &j);
}

static void run_serial(int64_t ntasks, RtTask fn, void *ctx) {
  rt_tls_depth++;
  for (int64_t i = 0; i < ntasks; i++) fn(ctx, i, 0);
  rt_tls_depth--;
}

#ifdef PADDLEC_NO_THREADS

struct RtPool {
  int threads; /* always 1 */
};

int rt_pool_create(RtPool **out, int threads, size_t scratch_bytes) {
  (void)scratch_bytes;
  *out = NULL;
  if (threads != 1) return -1;
  *out = rt_calloc(1, sizeof **out);
  if (!*out) return -1;
  (*out)->threads = 1;
  return 0;
}

void rt_pool_destroy(RtPool *pool) { rt_free(pool); }
int rt_pool_threads(const RtPool *pool) { return pool ? pool->threads : 1; }
void rt_parallel(int64_t ntasks, RtTask fn, void *ctx) { run_serial(ntasks, fn, ctx); }
float *rt_task_scratch(int tid, float *own) {
  (void)tid;
  return own;
}

#else

#include <sched.h>

enum { RT_SPIN = 1 << 16 }; /* epoch polls before a thread sleeps */

float *rt_task_scratch(int tid, float *own) { return tid == 0 ? own : rt_tls_pool->scratch[tid - 1]; }

void rt_pool_wake(RtPool *p) {
  atomic_fetch_add(&p->epoch, 1);
  if (atomic_load(&p->sleepers) > 0) {
    pthread_mutex_lock(&p->mu);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
  }
}

void rt_pool_wait(RtPool *p, unsigned seen) {
  for (int i = 0; i < RT_SPIN; i++)
    if (atomic_load(&p->epoch) != seen || atomic_load(&p->stop)) return;
  pthread_mutex_lock(&p->mu);
  atomic_fetch_add(&p->sleepers, 1);
  while (atomic_load(&p->epoch) == seen && !atomic_load(&p->stop)) pthread_cond_wait(&p->wake, &p->mu);
  atomic_fetch_sub(&p->sleepers, 1);
  pthread_mutex_unlock(&p->mu);
}

/* Claims one task of job j's generation `gen`: 1 with its index and
 * function, 0 when none is left (or the job moved on).  The fields are
 * read before the claim: a successful claim of generation `gen` proves they
 * were still that job's (a new job resets the claim word first). */
static int claim(RtJob *j, uint64_t gen, int64_t *task, RtTask *fn, void **ctx) {
  uint64_t cur = atomic_load(&j->claim);
  for (;;) {
    *fn = atomic_load(&j->fn);
    *ctx = atomic_load(&j->ctx);
    const int64_t n = atomic_load(&j->ntasks);
    if (cur >> 32 != gen || (int64_t)(cur & 0xffffffffu) >= n) return 0;
    if (atomic_compare_exchange_weak(&j->claim, &cur, cur + 1)) {
      *task = (int64_t)(cur & 0xffffffffu);
      return 1;
    }
  }
}

int rt_pool_help(RtPool *p, int self) {
  for (int i = 1; i < p->threads; i++) {
    RtJob *j = &p->jobs[(self + i) % p->threads];
    int64_t task;
    RtTask fn;
    void *ctx;
    if (!claim(j, atomic_load(&j->gen), &task, &fn, &ctx)) continue;
    rt_tls_depth++;
    fn(ctx, task, self + 1); /* tid != 0: the task uses this thread's scratch */
    rt_tls_depth--;
    atomic_fetch_add(&j->done, 1);
    return 1;
  }
  return 0;
}

static void *worker_main(void *arg) {
  RtWorker *w = arg;
  RtPool *p = w->pool;
  rt_tls_pool = p;
  rt_tls_self = w->self;
  rt_tls_depth = 1; /* only a kernel this thread starts publishes tasks */
  for (;;) {
    const unsigned seen = atomic_load(&p->epoch);
    if (atomic_load(&p->stop)) return NULL;
    if (rt_sched_step(p) || rt_pool_help(p, w->self)) continue;
    rt_pool_wait(p, seen);
  }
}

static void stop_workers(RtPool *p, int started) {
  pthread_mutex_lock(&p->mu);
  atomic_store(&p->stop, 1);
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < started; i++) pthread_join(p->workers[i].thread, NULL);
}

/* Frees what rt_pool_create allocated; `inited` says which of the
 * synchronization objects exist (0 none, 1 mu, 2 also wake, 3 also sched). */
static void free_pool(RtPool *p, int inited) {
  if (p->scratch)
    for (int i = 0; i < p->threads; i++) rt_free(p->scratch[i]);
  rt_free(p->scratch);
  rt_free(p->jobs);
  rt_free(p->workers);
  if (inited >= 3) rt_sched_destroy(&p->sched);
  if (inited >= 2) pthread_cond_destroy(&p->wake);
  if (inited >= 1) pthread_mutex_destroy(&p->mu);
  rt_free(p);
}

int rt_pool_create(RtPool **out, int threads, size_t scratch_bytes) {
  *out = NULL;
  if (threads < 1) return -1;
  RtPool *p = rt_calloc(1, sizeof *p);
  if (!p) return -1;
  p->threads = threads;
  if (pthread_mutex_init(&p->mu, NULL)) return free_pool(p, 0), -1;
  if (pthread_cond_init(&p->wake, NULL)) return free_pool(p, 1), -1;
  if (rt_sched_init(&p->sched)) return free_pool(p, 2), -1;
  p->workers = rt_calloc((size_t)threads, sizeof *p->workers);
  p->jobs = rt_calloc((size_t)threads, sizeof *p->jobs);
  p->scratch = rt_calloc((size_t)threads, sizeof *p->scratch);
  if (!p->workers || !p->jobs || !p->scratch) return free_pool(p, 3), -1;
  for (int i = 0; i < threads && scratch_bytes; i++)
    if (!(p->scratch[i] = rt_alloc(scratch_bytes))) return free_pool(p, 3), -1;
  for (int i = 0; i < threads - 1; i++) {
    RtWorker *w = &p->workers[i];
    w->pool = p;
    w->self = i + 1;
    if (pthread_create(&w->thread, NULL, worker_main, w)) {
      stop_workers(p, i);
      free_pool(p, 3);
      return -1;
    }
  }
  *out = p;
  return 0;
}

void rt_pool_destroy(RtPool *p) {
  if (!p) return;
  stop_workers(p, p->threads - 1);
  free_pool(p, 3);
}

int rt_pool_threads(const RtPool *pool) { return pool ? pool->threads : 1; }

void rt_parallel(int64_t ntasks, RtTask fn, void *ctx) {
  RtPool *p = rt_tls_pool;
  if (!p || p->threads == 1 || rt_tls_depth > 0 || ntasks <= 1) {
    run_serial(ntasks, fn, ctx);
    return;
  }
  /* the claim word first (no late thread can claim from here on), then the
   * job, then the generation, then the epoch that wakes the threads */
  RtJob *j = &p->jobs[rt_tls_self];
  const uint64_t g = (atomic_load(&j->gen) + 1) & 0xffffffffu;
  atomic_store(&j->claim, g << 32);
  atomic_store(&j->fn, fn);
  atomic_store(&j->ctx, ctx);
  atomic_store(&j->ntasks, ntasks);
  atomic_store(&j->done, 0);
  atomic_store(&j->gen, g);
  rt_pool_wake(p);
  int64_t task;
  RtTask f;
  void *c;
  rt_tls_depth++;
  while (claim(j, g, &task, &f, &c)) {
    f(c, task, 0);
    atomic_fetch_add(&j->done, 1);
  }
  rt_tls_depth--;
  for (int spin = 0; atomic_load(&j->done) < ntasks; spin++)
    if (spin >= RT_SPIN) sched_yield(); /* more threads than cores */
}

#endif

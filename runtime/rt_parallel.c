/* The worker pool behind rt_parallel (rt_parallel.h).
 *
 * One job at a time: the caller publishes (fn, ctx, ntasks) under a new
 * generation number, then it and the workers claim task indices from one
 * 64-bit counter that holds (generation << 32 | next index), so a worker that
 * wakes late can never take a task of a later job with the arguments of an
 * earlier one.  Workers spin briefly on the generation (kernels come back to
 * back within microseconds), then sleep on a condition variable; the caller
 * waits for the done count by spinning (its own share of tasks came first). */
#include <stdlib.h>

#include "rt_parallel.h"

/* Thread-local state: the pool kernels of this thread run on, the depth of
 * task nesting (tasks run their inner kernels serially), and a worker's
 * scratch buffer. */
#ifdef PADDLEC_NO_THREADS
#define RT_TLS
#else
#define RT_TLS _Thread_local
#endif
static RT_TLS RtPool *tls_pool;
static RT_TLS int tls_depth;
static RT_TLS float *tls_scratch;

RtPool *rt_pool_enter(RtPool *pool) {
  RtPool *prev = tls_pool;
  tls_pool = pool;
  return prev;
}

float *rt_task_scratch(int tid, float *own) { return tid == 0 ? own : tls_scratch; }

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
  tls_depth++;
  for (int64_t i = 0; i < ntasks; i++) fn(ctx, i, 0);
  tls_depth--;
}

#ifdef PADDLEC_NO_THREADS

struct RtPool {
  int threads; /* always 1 */
};

int rt_pool_create(RtPool **out, int threads, size_t scratch_bytes) {
  (void)scratch_bytes;
  *out = NULL;
  if (threads != 1) return -1;
  *out = calloc(1, sizeof **out);
  if (!*out) return -1;
  (*out)->threads = 1;
  return 0;
}

void rt_pool_destroy(RtPool *pool) { free(pool); }
int rt_pool_threads(const RtPool *pool) { return pool ? pool->threads : 1; }
void rt_parallel(int64_t ntasks, RtTask fn, void *ctx) { run_serial(ntasks, fn, ctx); }

#else

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

enum { RT_SPIN = 1 << 16 }; /* generation polls before a worker sleeps */

typedef struct RtWorker {
  RtPool *pool;     /* the pool it serves */
  int tid;          /* 1..threads-1 */
  float *scratch;   /* its private scratch */
  pthread_t thread; /* the thread */
} RtWorker;

struct RtPool {
  int threads;                 /* workers + the caller */
  RtWorker *workers;           /* threads - 1 of them */
  pthread_mutex_t mu;          /* guards sleeping and waking */
  pthread_cond_t wake;         /* signalled on a new generation or stop */
  atomic_int sleepers;         /* workers inside (or about to enter) cond_wait */
  atomic_uint_fast32_t gen;    /* the current job's generation */
  atomic_uint_fast64_t claim;  /* gen << 32 | the next unclaimed task */
  atomic_int_fast64_t done;    /* tasks of the current job finished */
  atomic_int stop;             /* set to end the workers */
  _Atomic(RtTask) fn;          /* the current job (atomic: a worker that wakes */
  _Atomic(void *) ctx;         /* late may read them while the next job is */
  atomic_int_fast64_t ntasks;  /* being published; its claim then fails) */
};

/* Claims and runs tasks of job `gen` until none is left.  The job's fields
 * are read before the claim: a successful claim of job `gen` proves they
 * were still that job's (the next job resets the claim word first). */
static void run_tasks(RtPool *p, uint64_t gen, int tid) {
  uint64_t cur = atomic_load(&p->claim);
  for (;;) {
    RtTask fn = atomic_load(&p->fn);
    void *ctx = atomic_load(&p->ctx);
    const int64_t n = atomic_load(&p->ntasks);
    if (cur >> 32 != gen || (int64_t)(cur & 0xffffffffu) >= n) return;
    if (!atomic_compare_exchange_weak(&p->claim, &cur, cur + 1)) continue;
    fn(ctx, (int64_t)(cur & 0xffffffffu), tid);
    atomic_fetch_add(&p->done, 1);
    cur = atomic_load(&p->claim);
  }
}

static void *worker_main(void *arg) {
  RtWorker *w = arg;
  RtPool *p = w->pool;
  tls_scratch = w->scratch;
  tls_depth = 1; /* kernels called from tasks run serially */
  uint64_t seen = atomic_load(&p->gen);
  for (;;) {
    uint64_t g = atomic_load(&p->gen);
    for (int i = 0; g == seen && i < RT_SPIN && !atomic_load(&p->stop); i++) g = atomic_load(&p->gen);
    if (g == seen) {
      pthread_mutex_lock(&p->mu);
      atomic_fetch_add(&p->sleepers, 1);
      while ((g = atomic_load(&p->gen)) == seen && !atomic_load(&p->stop)) pthread_cond_wait(&p->wake, &p->mu);
      atomic_fetch_sub(&p->sleepers, 1);
      pthread_mutex_unlock(&p->mu);
    }
    if (atomic_load(&p->stop)) return NULL;
    seen = g;
    run_tasks(p, g & 0xffffffffu, w->tid);
  }
}

static void stop_workers(RtPool *p, int started) {
  pthread_mutex_lock(&p->mu);
  atomic_store(&p->stop, 1);
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < started; i++) pthread_join(p->workers[i].thread, NULL);
}

static void free_pool(RtPool *p) {
  for (int i = 0; i < p->threads - 1; i++) free(p->workers[i].scratch);
  free(p->workers);
  pthread_cond_destroy(&p->wake);
  pthread_mutex_destroy(&p->mu);
  free(p);
}

int rt_pool_create(RtPool **out, int threads, size_t scratch_bytes) {
  *out = NULL;
  if (threads < 1) return -1;
  RtPool *p = calloc(1, sizeof *p);
  if (!p) return -1;
  p->threads = threads;
  if (pthread_mutex_init(&p->mu, NULL)) return free(p), -1;
  if (pthread_cond_init(&p->wake, NULL)) return pthread_mutex_destroy(&p->mu), free(p), -1;
  p->workers = calloc((size_t)threads, sizeof *p->workers);
  const size_t bytes = (scratch_bytes + 63) / 64 * 64;
  for (int i = 0; p->workers && i < threads - 1; i++)
    if (bytes && !(p->workers[i].scratch = aligned_alloc(64, bytes))) return free_pool(p), -1;
  if (!p->workers) return free_pool(p), -1;
  for (int i = 0; i < threads - 1; i++) {
    RtWorker *w = &p->workers[i];
    w->pool = p;
    w->tid = i + 1;
    if (pthread_create(&w->thread, NULL, worker_main, w)) {
      stop_workers(p, i);
      free_pool(p);
      return -1;
    }
  }
  *out = p;
  return 0;
}

void rt_pool_destroy(RtPool *p) {
  if (!p) return;
  stop_workers(p, p->threads - 1);
  free_pool(p);
}

int rt_pool_threads(const RtPool *pool) { return pool ? pool->threads : 1; }

void rt_parallel(int64_t ntasks, RtTask fn, void *ctx) {
  RtPool *p = tls_pool;
  if (!p || p->threads == 1 || tls_depth > 0 || ntasks <= 1) {
    run_serial(ntasks, fn, ctx);
    return;
  }
  /* the claim word first (no late worker can claim from here on), then the
   * job, then the generation that wakes the workers */
  const uint64_t g = (atomic_load(&p->gen) + 1) & 0xffffffffu;
  atomic_store(&p->claim, g << 32);
  atomic_store(&p->fn, fn);
  atomic_store(&p->ctx, ctx);
  atomic_store(&p->ntasks, ntasks);
  atomic_store(&p->done, 0);
  atomic_store(&p->gen, g);
  if (atomic_load(&p->sleepers) > 0) {
    pthread_mutex_lock(&p->mu);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
  }
  tls_depth++;
  run_tasks(p, g, 0);
  tls_depth--;
  for (int spin = 0; atomic_load(&p->done) < ntasks; spin++)
    if (spin >= RT_SPIN) sched_yield(); /* more threads than cores */
}

#endif

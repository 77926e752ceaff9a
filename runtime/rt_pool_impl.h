/* Internals of the thread pool, shared by rt_parallel.c (threads and the
 * tasks of kernels) and rt_sched.c (which kernels run when); generated code
 * never includes this.
 *
 * Every thread of a pool has an index `self`: 0 for the thread that called
 * the model (any thread that is not a worker), 1..threads-1 for the workers.
 * A thread that runs a kernel publishes that kernel's tasks in its own job
 * slot, jobs[self]; a thread with nothing to do first starts a ready kernel
 * (rt_sched_step), else helps with another slot's tasks (rt_pool_help), else
 * waits for the pool's epoch to move (rt_pool_wait): every new job and every
 * finished kernel moves it (rt_pool_wake). */
#ifndef PADDLEC_RT_POOL_IMPL_H
#define PADDLEC_RT_POOL_IMPL_H

#include "rt_parallel.h"
#include "rt_sched.h"

#ifdef PADDLEC_NO_THREADS
#define RT_TLS
#else
#define RT_TLS _Thread_local
#endif

/* The calling thread's pool (rt_pool_enter), its index in it, and how deep
 * in tasks it is (kernels called from a task run their tasks serially). */
extern RT_TLS RtPool *rt_tls_pool;
extern RT_TLS int rt_tls_self;
extern RT_TLS int rt_tls_depth;

#ifndef PADDLEC_NO_THREADS

#include <pthread.h>
#include <stdatomic.h>

/* The tasks of the kernel one thread is running.  Claims go through one
 * 64-bit word, generation << 32 | next task, so a thread that read an older
 * job's fields can never claim a task of a newer one. */
typedef struct RtJob {
  _Alignas(64) atomic_uint_fast32_t gen; /* the job's generation, stored last */
  atomic_uint_fast64_t claim;            /* gen << 32 | the next unclaimed task */
  _Atomic(RtTask) fn;                    /* the task function */
  _Atomic(void *) ctx;                   /* its argument */
  atomic_int_fast64_t ntasks;            /* tasks in all */
  atomic_int_fast64_t done;              /* tasks finished */
} RtJob;

/* A graph run in progress (rt_sched.c); `mu` guards every field but the
 * atomics. */
typedef struct RtSchedState {
  pthread_mutex_t mu;
  int active;              /* a graph is running */
  const RtGraph *g;        /* its kernels' dependencies */
  RtOpFn fn;               /* runs kernel k */
  void *ctx;               /* fn's argument */
  int32_t *pending;        /* kernels each one still waits for */
  int32_t *ready;          /* min-heap of the kernels that can start */
  int32_t nready;          /* its size */
  int32_t done;            /* kernels finished */
  int32_t err_kernel;      /* the lowest kernel that failed (n if none) */
  int status;              /* its status */
  int max_ops, in_flight;  /* kernels that may run, and do run, at once */
  uint64_t free_slots;     /* bit s: scratch slot s is free */
  atomic_int nready_hint;  /* nready, for a look without the lock */
  atomic_int finished;     /* every kernel done, or stopped by an error */
} RtSchedState;

typedef struct RtWorker {
  RtPool *pool;     /* the pool it serves */
  int self;         /* its index, 1..threads-1 */
  pthread_t thread; /* the thread */
} RtWorker;

struct RtPool {
  int threads;              /* workers + the caller */
  RtWorker *workers;        /* threads - 1 of them */
  RtJob *jobs;              /* one per thread, by index */
  float **scratch;          /* each thread's scratch for the tasks it helps with */
  pthread_mutex_t mu;       /* guards sleeping and waking */
  pthread_cond_t wake;      /* signalled when the epoch moves or on stop */
  atomic_int sleepers;      /* threads inside (or about to enter) cond_wait */
  atomic_uint epoch;        /* moves whenever there may be new work */
  atomic_int stop;          /* set to end the workers */
  RtSchedState sched;       /* the graph being run, if any */
};

/* Moves the epoch and wakes the sleeping threads. */
void rt_pool_wake(RtPool *p);
/* Spins, then sleeps, until the epoch is no longer `seen` or the pool stops. */
void rt_pool_wait(RtPool *p, unsigned seen);
/* Runs one unclaimed task of another thread's job; 1 if there was one. */
int rt_pool_help(RtPool *p, int self);
/* Starts and runs one ready kernel of the graph being run; 1 if there was one. */
int rt_sched_step(RtPool *p);
int rt_sched_init(RtSchedState *s);
void rt_sched_destroy(RtSchedState *s);

#endif
#endif

/* Intra-op parallelism: a fixed pool of threads that run the tasks of the
 * kernels in flight.
 *
 * A kernel splits its work into tasks 0..n-1 that write disjoint outputs and
 * calls rt_parallel(n, fn, ctx); fn(ctx, task, tid) runs once per task,
 * tasks handed out in order from a shared counter, on the kernel's own
 * thread (tid 0) or on an idle thread of the pool (tid != 0).  How a kernel
 * splits its work never depends on the thread count, and each output element
 * is computed by the same code whichever thread runs it, so the results are
 * bitwise the same for every thread count.
 *
 * The pool a kernel runs on is the calling thread's current pool
 * (rt_pool_enter, set by the generated run function around the kernels);
 * with none, or inside a task, rt_parallel runs the tasks itself, in order.
 * Several kernels may be in flight at once (rt_sched.h); idle threads help
 * with any of them.  Each thread has private scratch memory for its tasks
 * (rt_task_scratch): the kernel's own thread uses the workspace the compiler
 * planned for the kernel, the helpers buffers the pool allocated once.
 *
 * Build with -DPADDLEC_NO_THREADS for targets without POSIX threads: every
 * kernel then runs on the calling thread and rt_pool_create accepts only 1. */
#ifndef PADDLEC_RT_PARALLEL_H
#define PADDLEC_RT_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

typedef struct RtPool RtPool;

/* One task of a kernel: `task` in [0, ntasks), on thread `tid`. */
typedef void (*RtTask)(void *ctx, int64_t task, int tid);

/* Starts threads - 1 workers and gives every thread, the caller's included,
 * scratch_bytes of scratch memory for the tasks it helps with (64-byte
 * aligned, from rt_alloc).  Returns 0, or -1 when a thread or an allocation
 * cannot be had (nothing is left behind then) or threads is below 1. */
int rt_pool_create(RtPool **out, int threads, size_t scratch_bytes);
/* Stops the workers and frees the pool (NULL is fine). */
void rt_pool_destroy(RtPool *pool);
/* The number of threads, the caller included (1 for NULL). */
int rt_pool_threads(const RtPool *pool);
/* Makes `pool` (may be NULL) the calling thread's pool; returns the one it
 * replaces, to be restored afterwards. */
RtPool *rt_pool_enter(RtPool *pool);

/* Runs fn for every task in [0, ntasks) and returns when all are done. */
void rt_parallel(int64_t ntasks, RtTask fn, void *ctx);
/* A range of independent rows [lo, hi) of a kernel's loop. */
typedef void (*RtRange)(void *ctx, int64_t lo, int64_t hi);
/* Runs fn over rows [0, rows) as rt_split_tasks(work, rows) tasks. */
void rt_parallel_range(int64_t rows, int64_t work, RtRange fn, void *ctx);
/* The scratch memory for a task run with `tid`: `own` (the kernel's
 * workspace) for tid 0, the helping thread's buffer otherwise. */
float *rt_task_scratch(int tid, float *own);

/* What a generated kernel's task function receives: the model, the batch
 * and the kernel's workspace. */
typedef struct RtKernelArgs {
  void *m;           /* the model */
  int64_t batch;     /* B */
  unsigned char *ws; /* the kernel's scratch slot */
} RtKernelArgs;

/* Tasks for `rows` independent rows of `work` elements in all: about one
 * per 32768 elements, at most 16 and at most rows, at least 1.  A function
 * of the sizes only, so a split never depends on the thread count. */
static inline int64_t rt_split_tasks(int64_t work, int64_t rows) {
  int64_t n = work / 32768;
  n = n > 16 ? 16 : n;
  n = n > rows ? rows : n;
  return n < 1 ? 1 : n;
}

/* ceil(a / b) for positive b. */
static inline int64_t rt_div_up(int64_t a, int64_t b) { return (a + b - 1) / b; }

#endif

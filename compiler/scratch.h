/* Scratch: the working memory of the kernels beside the tensors (an im2col
 * buffer, a GEMM's packing workspace, a sort's pairs, a strided copy).
 *
 * Lowering asks for each region a kernel needs by role and size (a*B + c
 * bytes); the plan lays a kernel's regions one after another, each on a
 * 64-byte boundary (they are all alive while the kernel runs), and sizes one
 * scratch slot as the most any kernel takes.  The arena holds one slot per
 * kernel that may run at once (rt_sched.h), after every tensor slot.  Worker
 * threads that run a kernel's tasks (rt_parallel.h) have private scratch of
 * their own, sized here too: the most floats any kernel's tasks need. */
#ifndef PADDLEC_SCRATCH_H
#define PADDLEC_SCRATCH_H

#include <stdio.h>

#include "spec.h"

/* One region of a kernel's scratch. */
typedef struct ScratchRegion {
  const char *role; /* what it holds ("col", "gemm_ws") */
  SymDim bytes;     /* its size as asked */
  SymDim offset;    /* where it starts in the slot */
} ScratchRegion;

/* One kernel's scratch. */
typedef struct ScratchKernel {
  const char *name;       /* the kernel's function */
  int nregions, cap;
  ScratchRegion *regions; /* in the order lowering asked for them */
  SymDim bytes;           /* their extent in the slot */
  int64_t task_floats;    /* the most one worker thread's tasks need */
} ScratchKernel;

typedef struct ScratchPlan {
  int nkernels, cap;
  ScratchKernel *kernels;
  int nregions;        /* regions of every kernel, counted in the order asked */
  SymDim slot;         /* bytes of one slot: per part, the most any kernel takes */
  int64_t task_floats; /* private floats of each worker thread */
} ScratchPlan;

/* Opens the next kernel's scratch (its regions start at the slot's start). */
void scratch_kernel(ScratchPlan *s, const char *name);
/* A region of the current kernel: its offset in the slot. */
SymDim scratch_region(ScratchPlan *s, const char *role, SymDim bytes);
/* 1 when the region just asked for is the current kernel's first. */
int scratch_first(const ScratchPlan *s);
/* The current kernel's tasks need `floats` of private scratch per thread. */
void scratch_tasks(ScratchPlan *s, int64_t floats);
/* The kernel that takes the most scratch at batch b (NULL when none takes any). */
const ScratchKernel *scratch_largest(const ScratchPlan *s, int64_t b);
/* The slot, the threads' scratch and the kernel that takes the most, as
 * `inspect --memory` lines. */
void scratch_print(const ScratchPlan *s, FILE *f);

#endif

/* Helpers for the scheduler's host programs (tests/test_sched.py): the
 * model under test is compiled with --name model, and a second one, for the
 * two-model test, with --name other. */
#ifndef HOST_UTIL_H
#define HOST_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paddlec_rt/rt_alloc.h"

/* Deterministic inputs in [-1, 1). */
static inline void fill(float *x, int64_t n, uint32_t seed) {
  for (int64_t i = 0; i < n; i++) {
    seed = seed * 1664525u + 1013904223u;
    x[i] = (float)(seed >> 8) / (float)(1u << 23) - 1.0f;
  }
}

/* An allocator that counts, and with fail_after >= 0 lets that many
 * allocations succeed and fails every later one. */
typedef struct Counting {
  long allocs, frees, live, failed, fail_after;
} Counting;

static inline void *counting_alloc(void *ctx, size_t bytes, size_t align) {
  Counting *c = ctx;
  if (c->fail_after >= 0 && c->allocs >= c->fail_after) {
    c->failed++;
    return NULL;
  }
  void *p = aligned_alloc(align, (bytes + align - 1) / align * align);
  if (p) c->allocs++, c->live++;
  return p;
}

static inline void counting_release(void *ctx, void *p) {
  Counting *c = ctx;
  c->frees++, c->live--;
  free(p);
}

static inline void use_counting(Counting *c, long fail_after) {
  memset(c, 0, sizeof *c);
  c->fail_after = fail_after;
  RtAllocator a = {counting_alloc, counting_release, c};
  rt_set_allocator(&a);
}

/* Resident memory of this process in KiB (Linux), or -1. */
static inline long rss_kib(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long size, res;
  if (!f) return -1;
  int ok = fscanf(f, "%ld %ld", &size, &res) == 2;
  fclose(f);
  return ok ? res * 4 : -1;
}

#endif

/* The kernels' scratch: regions laid out per kernel, one slot for all (see
 * scratch.h). */
#include "scratch.h"

#include <string.h>

#include "diag.h"
#include "util.h"

enum { SCRATCH_ALIGN = 64 };

static int64_t align_up(int64_t n) { return (n + SCRATCH_ALIGN - 1) / SCRATCH_ALIGN * SCRATCH_ALIGN; }

void scratch_kernel(ScratchPlan *s, const char *name) {
  if (s->nkernels == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 64;
    ScratchKernel *k = pool_alloc(sizeof *k * (size_t)s->cap);
    if (s->nkernels) memcpy(k, s->kernels, sizeof *k * (size_t)s->nkernels);
    s->kernels = k;
  }
  s->kernels[s->nkernels++] = (ScratchKernel){.name = name};
}

static ScratchKernel *current(ScratchPlan *s) {
  if (!s || !s->nkernels) diag_internal("scratch asked for outside a kernel");
  return &s->kernels[s->nkernels - 1];
}

SymDim scratch_region(ScratchPlan *s, const char *role, SymDim bytes) {
  ScratchKernel *k = current(s);
  if (k->nregions == k->cap) {
    k->cap = k->cap ? 2 * k->cap : 4;
    ScratchRegion *r = pool_alloc(sizeof *r * (size_t)k->cap);
    if (k->nregions) memcpy(r, k->regions, sizeof *r * (size_t)k->nregions);
    k->regions = r;
  }
  const SymDim at = k->bytes;
  k->regions[k->nregions++] = (ScratchRegion){.role = role, .bytes = bytes, .offset = at};
  s->nregions++;
  /* each part on its own boundary, so that the region is aligned at every batch */
  k->bytes.a += align_up(bytes.a);
  k->bytes.c += align_up(bytes.c);
  if (k->bytes.a > s->slot.a) s->slot.a = k->bytes.a;
  if (k->bytes.c > s->slot.c) s->slot.c = k->bytes.c;
  return at;
}

int scratch_first(const ScratchPlan *s) { return s->nkernels && s->kernels[s->nkernels - 1].nregions == 1; }

void scratch_tasks(ScratchPlan *s, int64_t floats) {
  ScratchKernel *k = current(s);
  if (floats > k->task_floats) k->task_floats = floats;
  if (floats > s->task_floats) s->task_floats = floats;
}

const ScratchKernel *scratch_largest(const ScratchPlan *s, int64_t b) {
  const ScratchKernel *best = NULL;
  for (int i = 0; i < s->nkernels; i++) {
    const ScratchKernel *k = &s->kernels[i];
    if (symdim_at(k->bytes, b) > 0 && (!best || symdim_at(k->bytes, b) > symdim_at(best->bytes, b))) best = k;
  }
  return best;
}

void scratch_print(const ScratchPlan *s, FILE *f) {
  fprintf(f, "  %-12s %14lld %14lld  bytes per kernel that runs at once", "scratch slot",
          (long long)symdim_at(s->slot, 1), (long long)symdim_at(s->slot, 8));
  const ScratchKernel *k = scratch_largest(s, 8);
  if (k) {
    fprintf(f, " (largest at batch 8: %s:", k->name);
    for (int i = 0; i < k->nregions; i++)
      fprintf(f, "%s %s %lld", i ? "," : "", k->regions[i].role,
              (long long)symdim_at(k->regions[i].bytes, 8));
    fprintf(f, ")");
  }
  fprintf(f, "\n  %-12s %14lld %14s  bytes per worker thread (num_threads > 1)\n", "thread",
          (long long)(s->task_floats * (int64_t)sizeof(float)), "");
}

/* The allocation hook (rt_alloc.h). */
#include "rt_alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef PADDLEC_NO_MALLOC
/* Built for no heap (MALLOC=0, firmware): until rt_set_allocator installs
 * an allocator every allocation fails, and nothing here links malloc. */
static void *default_alloc(void *ctx, size_t bytes, size_t align) {
  (void)ctx, (void)bytes, (void)align;
  return NULL;
}

static void default_release(void *ctx, void *p) { (void)ctx, (void)p; }
#else
static void *default_alloc(void *ctx, size_t bytes, size_t align) {
  (void)ctx;
  return aligned_alloc(align, (bytes + align - 1) / align * align);
}

static void default_release(void *ctx, void *p) {
  (void)ctx;
  free(p);
}
#endif

static RtAllocator hook = {default_alloc, default_release, NULL};

void rt_set_allocator(const RtAllocator *a) {
  if (a) hook = *a;
  else hook = (RtAllocator){default_alloc, default_release, NULL};
}

void *rt_alloc(size_t bytes) { return bytes ? hook.alloc(hook.ctx, bytes, 64) : NULL; }

void *rt_calloc(size_t n, size_t size) {
  if (size && n > SIZE_MAX / size) return NULL;
  void *p = rt_alloc(n * size);
  if (p) memset(p, 0, n * size);
  return p;
}

void rt_free(void *p) {
  if (p) hook.release(hook.ctx, p);
}

/* The one allocation hook of the runtime and of generated models.
 *
 * Every allocation the runtime and generated code make (a model's memory
 * block, the temporaries of its local scope, the thread pool, weight files
 * read at create) goes through rt_alloc / rt_free, which call the allocator
 * installed with rt_set_allocator (malloc/free until then; built with
 * PADDLEC_NO_MALLOC, none: allocations fail and no allocator is linked, for
 * firmware that only calls *_init).  Firmware can hand out pieces of a
 * static buffer; tests inject failures.  It is the one
 * piece of process-wide state in libpaddlec_rt: install it before creating
 * models and leave it while any model lives.  (OpenBLAS and the C library's
 * threads allocate on their own; the hook does not see them.) */
#ifndef PADDLEC_RT_ALLOC_H
#define PADDLEC_RT_ALLOC_H

#include <stddef.h>

typedef struct RtAllocator {
  /* `bytes` (> 0) aligned to `align` (a power of two, at most 64), or NULL. */
  void *(*alloc)(void *ctx, size_t bytes, size_t align);
  /* Frees what alloc returned (never called with NULL). */
  void (*release)(void *ctx, void *p);
  void *ctx; /* passed to both */
} RtAllocator;

/* Installs `a` (copied), or malloc/free again for NULL. */
void rt_set_allocator(const RtAllocator *a);

/* `bytes` aligned to 64, or NULL (bytes 0 gives NULL too). */
void *rt_alloc(size_t bytes);
/* rt_alloc of n * size bytes, zeroed; NULL on overflow. */
void *rt_calloc(size_t n, size_t size);
/* Frees what rt_alloc returned; NULL is fine. */
void rt_free(void *p);

#endif

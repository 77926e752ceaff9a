/* Tensor arrays of LoD tensors (compiler/ops/tensor_array.c): beside its
 * elements such an array keeps one slot of RT_LOD_SLOT_WORDS(cap) int64
 * words per element: [0] its rows, [1] the count of its level-1 offsets,
 * [2] of its level-0 ones (0: one level), then room for cap offsets of
 * level 1 and cap of level 0. */
#ifndef PADDLEC_RT_LOD_ARRAY_H
#define PADDLEC_RT_LOD_ARRAY_H

#include <stdint.h>

#define RT_LOD_SLOT_WORDS(cap) (3 + 2 * (cap))

/* Such an array as a kernel reads it. */
typedef struct RtLodArray {
  const void *data;    /* element s at data + s * stride elements */
  int64_t stride;      /* elements a slot of data holds */
  const int64_t *meta; /* element s's slot at meta + s * RT_LOD_SLOT_WORDS(cap) */
  int64_t cap;         /* offsets a level of a slot has room for */
  int64_t len;         /* elements written */
} RtLodArray;

/* Writes an element's rows and LoD (level 1: n1 offsets; level 0: n0, or
 * none with lod0 NULL) into its slot; 1 when a level has more offsets
 * than cap (the slot's room), 0 once written. */
int rt_lod_slot_put(int64_t *slot, int64_t cap, int64_t rows, const int64_t *lod1, int64_t n1, const int64_t *lod0,
                    int64_t n0);

/* Reads an element's LoD from its slot: level 1 (the only level of a LoD
 * of one) into lod1 and its count into *n1, level 0 into lod0 and *n0 (a
 * LoD of two levels; lod0 NULL for one); 1 when a level has more offsets
 * than room or the slot's levels are not the reader's, 0 once read. */
int rt_lod_slot_get(const int64_t *slot, int64_t cap, int64_t *lod1, int64_t *n1, int64_t *lod0, int64_t *n0,
                    int64_t room);

#endif

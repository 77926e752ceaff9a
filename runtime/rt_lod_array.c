/* Slots of tensor arrays of LoD tensors (see rt_lod_array.h). */
#include "rt_lod_array.h"

#include <string.h>

int rt_lod_slot_put(int64_t *slot, int64_t cap, int64_t rows, const int64_t *lod1, int64_t n1, const int64_t *lod0,
                    int64_t n0) {
  if (!lod0) n0 = 0;
  if (n1 < 0 || n1 > cap || n0 < 0 || n0 > cap || (n1 && !lod1)) return 1;
  slot[0] = rows, slot[1] = n1, slot[2] = n0;
  if (n1) memcpy(slot + 3, lod1, (size_t)n1 * sizeof *slot);
  if (n0) memcpy(slot + 3 + cap, lod0, (size_t)n0 * sizeof *slot);
  return 0;
}

int rt_lod_slot_get(const int64_t *slot, int64_t cap, int64_t *lod1, int64_t *n1, int64_t *lod0, int64_t *n0,
                    int64_t room) {
  const int64_t c1 = slot[1], c0 = slot[2];
  if (c1 < 0 || c1 > cap || c1 > room || c0 < 0 || c0 > cap || c0 > room || !lod0 != !c0) return 1;
  if (c1) memcpy(lod1, slot + 3, (size_t)c1 * sizeof *slot);
  *n1 = c1;
  if (lod0) {
    memcpy(lod0, slot + 3 + cap, (size_t)c0 * sizeof *slot);
    *n0 = c0;
  }
  return 0;
}

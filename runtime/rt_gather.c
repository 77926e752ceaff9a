/* Gathers by index: gather, index_select, embedding lookups, gather_nd (see
 * rt_tensor.h). */
#include <string.h>

#include "rt_tensor.h"

/* The i-th entry of an int32 or int64 index tensor. */
static int64_t index_at(const void *index, int index_bytes, int64_t i) {
  return index_bytes == 4 ? ((const int32_t *)index)[i] : ((const int64_t *)index)[i];
}

int rt_gather(const void *src, int64_t outer, int64_t n, int64_t inner_bytes, const void *index,
              int index_bytes, int64_t nindex, int64_t pad, void *dst) {
  const char *s = src;
  char *d = dst;
  size_t row = (size_t)inner_bytes;
  int outside = 0;
  for (int64_t o = 0; o < outer; o++, s += n * inner_bytes)
    for (int64_t j = 0; j < nindex; j++, d += row) {
      int64_t id = index_at(index, index_bytes, j);
      if (id != pad && (id < 0 || id >= n)) outside = 1;
      if (id == pad || id < 0 || id >= n) memset(d, 0, row);
      else memcpy(d, s + id * inner_bytes, row);
    }
  return outside;
}

int rt_gather_nd(const void *src, const int64_t *dims, int k, int64_t slice_bytes, const void *index,
                 int index_bytes, int64_t nrows, void *dst) {
  const char *s = src;
  char *d = dst;
  size_t row = (size_t)slice_bytes;
  int outside = 0;
  for (int64_t r = 0; r < nrows; r++, d += row) {
    int64_t off = 0;
    int inside = 1;
    for (int i = 0; i < k; i++) {
      int64_t c = index_at(index, index_bytes, r * k + i);
      inside &= c >= 0 && c < dims[i];
      off = off * dims[i] + c;
    }
    if (inside) memcpy(d, s + off * slice_bytes, row);
    else memset(d, 0, row), outside = 1;
  }
  return outside;
}

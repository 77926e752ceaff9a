/* Strided copies: transpose, slicing, broadcasting (see rt_tensor.h). */
#include <string.h>

#include "rt_tensor.h"

/* Odometer over the outer `n` dims of a view; `off` is the source offset
 * (in elements) of the current index. */
typedef struct Walk {
  int n;                           /* dims walked */
  const int64_t *dims, *strides;   /* their extents and source strides */
  int64_t idx[RT_COPY_MAX_RANK];   /* the current index */
  int64_t off;                     /* its source offset */
} Walk;

static void walk_init(Walk *w, int n, const int64_t *dims, const int64_t *strides) {
  w->n = n;
  w->dims = dims;
  w->strides = strides;
  w->off = 0;
  for (int k = 0; k < n; k++) w->idx[k] = 0;
}

/* Steps to the next index in row-major order (wraps to 0 after the last). */
static void walk_next(Walk *w) {
  for (int k = w->n - 1; k >= 0; k--) {
    w->off += w->strides[k];
    if (++w->idx[k] < w->dims[k]) return;
    w->off -= w->strides[k] * w->dims[k];
    w->idx[k] = 0;
  }
}

/* Number of outer positions: the product of the first n dims. */
static int64_t count(int n, const int64_t *dims) {
  int64_t c = 1;
  for (int k = 0; k < n; k++) c *= dims[k];
  return c;
}

/* Drops size-1 dims and merges a dim into the previous one when the two are
 * contiguous in the source.  Returns the new rank, or -1 for an empty view. */
static int simplify(int rank, const int64_t *dims, const int64_t *strides, int64_t *d, int64_t *s) {
  int r = 0;
  for (int k = 0; k < rank; k++) {
    if (dims[k] == 0) return -1;
    if (dims[k] == 1) continue;
    if (r > 0 && s[r - 1] == strides[k] * dims[k]) {
      d[r - 1] *= dims[k];
      s[r - 1] = strides[k];
      continue;
    }
    d[r] = dims[k];
    s[r] = strides[k];
    r++;
  }
  return r;
}

/* One destination row of n elements read with source stride `st`. */
#define ROW_LOOP(T)                                          \
  do {                                                       \
    const T *sp = (const T *)src;                            \
    T *dp = (T *)dst;                                        \
    for (int64_t i = 0; i < n; i++) dp[i] = sp[i * st];      \
  } while (0)

static void strided_row(const char *src, char *dst, size_t esize, int64_t n, int64_t st) {
  switch (esize) {
    case 1: ROW_LOOP(uint8_t); break;
    case 2: ROW_LOOP(uint16_t); break;
    case 4: ROW_LOOP(uint32_t); break;
    case 8: ROW_LOOP(uint64_t); break;
    default:
      for (int64_t i = 0; i < n; i++) memcpy(dst + (size_t)i * esize, src + i * st * (int64_t)esize, esize);
  }
}

/* n copies of the element at src, by doubling. */
static void fill_row(const char *src, char *dst, size_t esize, int64_t n) {
  size_t have = esize, total = (size_t)n * esize;
  memcpy(dst, src, esize);
  while (have < total) {
    size_t step = have < total - have ? have : total - have;
    memcpy(dst + have, dst, step);
    have += step;
  }
}

enum { TILE = 32 }; /* transpose tile edge, in elements */

/* dst[a][b] = src[a + b * sb] for a < na, b < nb, in TILE x TILE blocks so
 * both sides stay in cache. */
#define TILE_LOOP(T)                                                        \
  do {                                                                      \
    const T *sp = (const T *)src;                                           \
    T *dp = (T *)dst;                                                       \
    for (int64_t a0 = 0; a0 < na; a0 += TILE)                               \
      for (int64_t b0 = 0; b0 < nb; b0 += TILE) {                           \
        int64_t a1 = a0 + TILE < na ? a0 + TILE : na;                       \
        int64_t b1 = b0 + TILE < nb ? b0 + TILE : nb;                       \
        for (int64_t a = a0; a < a1; a++)                                   \
          for (int64_t b = b0; b < b1; b++) dp[a * nb + b] = sp[a + b * sb]; \
      }                                                                     \
  } while (0)

static void transpose_2d(const char *src, char *dst, size_t esize, int64_t na, int64_t nb, int64_t sb) {
  switch (esize) {
    case 1: TILE_LOOP(uint8_t); break;
    case 2: TILE_LOOP(uint16_t); break;
    case 4: TILE_LOOP(uint32_t); break;
    case 8: TILE_LOOP(uint64_t); break;
    default:
      for (int64_t a = 0; a < na; a++)
        strided_row(src + a * (int64_t)esize, dst + (size_t)(a * nb) * esize, esize, nb, sb);
  }
}

void rt_copy_strided(const void *src, void *dst, size_t esize, int rank, const int64_t *dims,
                     const int64_t *strides) {
  int64_t d[RT_COPY_MAX_RANK], s[RT_COPY_MAX_RANK];
  int r = simplify(rank, dims, strides, d, s);
  const char *sp = src;
  char *dp = dst;
  if (r < 0) return;
  if (r == 0) {
    memcpy(dp, sp, esize);
    return;
  }
  const int64_t es = (int64_t)esize, n = d[r - 1], st = s[r - 1];
  Walk w;
  if (r >= 2 && s[r - 2] == 1 && st != 0) { /* the last two dims are transposed */
    int64_t na = d[r - 2], block = na * n * es;
    walk_init(&w, r - 2, d, s);
    for (int64_t o = count(r - 2, d); o > 0; o--, walk_next(&w), dp += block)
      transpose_2d(sp + w.off * es, dp, esize, na, n, st);
    return;
  }
  walk_init(&w, r - 1, d, s);
  int64_t rows = count(r - 1, d), row = n * es;
  for (int64_t o = 0; o < rows; o++, walk_next(&w), dp += row) {
    if (st == 1) memcpy(dp, sp + w.off * es, (size_t)row);
    else if (st == 0) fill_row(sp + w.off * es, dp, esize, n);
    else strided_row(sp + w.off * es, dp, esize, n, st);
  }
}

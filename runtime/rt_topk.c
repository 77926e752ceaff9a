/* Top-k along the middle dim of [outer, n, inner] (see rt_tensor.h).
 *
 * Each (outer, inner) line keeps a heap of its k best elements in the
 * output itself (the worst of them at the root), so nothing is allocated;
 * a final heap sort leaves them best first.  "Better" is Paddle's order:
 * for the largest, NaN first, then greater values; for the smallest, smaller
 * values, NaN last; ties go to the lower position. */
#include <math.h>

#include "rt_tensor.h"

/* TOPK(name, T, ISNAN): rt_topk_<name> for element type T. */
#define TOPK(name, T, ISNAN)                                                                        \
  static int better_##name(T a, int64_t ia, T b, int64_t ib, int largest) {                         \
    int na = ISNAN(a), nb = ISNAN(b);                                                               \
    if (na != nb) return largest ? na : nb;                                                         \
    if (!na && a != b) return largest ? a > b : a < b;                                              \
    return ia < ib;                                                                                 \
  }                                                                                                 \
  /* Restores the heap below position j (size entries, stride `inner`). */                         \
  static void sift_##name(T *v, int64_t *ix, int64_t inner, int64_t j, int64_t size, int largest) { \
    for (;;) {                                                                                      \
      int64_t c = 2 * j + 1;                                                                        \
      if (c >= size) return;                                                                        \
      if (c + 1 < size && better_##name(v[c * inner], ix[c * inner], v[(c + 1) * inner],            \
                                        ix[(c + 1) * inner], largest))                              \
        c++; /* the worse child */                                                                  \
      if (!better_##name(v[j * inner], ix[j * inner], v[c * inner], ix[c * inner], largest)) return; \
      T tv = v[j * inner];                                                                          \
      int64_t ti = ix[j * inner];                                                                   \
      v[j * inner] = v[c * inner];                                                                  \
      ix[j * inner] = ix[c * inner];                                                                \
      v[c * inner] = tv;                                                                            \
      ix[c * inner] = ti;                                                                           \
      j = c;                                                                                        \
    }                                                                                               \
  }                                                                                                 \
  static void line_##name(const T *x, int64_t n, int64_t inner, int64_t k, int largest, T *v,      \
                          int64_t *ix) {                                                            \
    for (int64_t i = 0; i < n; i++) {                                                               \
      T xv = x[i * inner];                                                                          \
      int64_t j;                                                                                    \
      if (i < k) { /* grow the heap: sift the new entry up */                                      \
        for (j = i; j > 0; j = (j - 1) / 2) {                                                       \
          int64_t p = (j - 1) / 2;                                                                  \
          if (!better_##name(v[p * inner], ix[p * inner], xv, i, largest)) break;                   \
          v[j * inner] = v[p * inner];                                                              \
          ix[j * inner] = ix[p * inner];                                                            \
        }                                                                                           \
        v[j * inner] = xv;                                                                          \
        ix[j * inner] = i;                                                                          \
      } else if (better_##name(xv, i, v[0], ix[0], largest)) { /* replace the worst */             \
        v[0] = xv;                                                                                  \
        ix[0] = i;                                                                                  \
        sift_##name(v, ix, inner, 0, k, largest);                                                   \
      }                                                                                             \
    }                                                                                               \
    for (int64_t size = k - 1; size > 0; size--) { /* heap sort: worst to the back */              \
      T tv = v[0];                                                                                  \
      int64_t ti = ix[0];                                                                           \
      v[0] = v[size * inner];                                                                       \
      ix[0] = ix[size * inner];                                                                     \
      v[size * inner] = tv;                                                                         \
      ix[size * inner] = ti;                                                                        \
      sift_##name(v, ix, inner, 0, size, largest);                                                  \
    }                                                                                               \
  }                                                                                                 \
  void rt_topk_##name(const T *x, int64_t outer, int64_t n, int64_t inner, int64_t k, int largest,  \
                      T *vals, int64_t *idx) {                                                      \
    for (int64_t o = 0; o < outer; o++)                                                             \
      for (int64_t i = 0; i < inner; i++)                                                           \
        line_##name(x + o * n * inner + i, n, inner, k, largest, vals + o * k * inner + i,          \
                    idx + o * k * inner + i);                                                       \
  }

#define FLOAT_NAN(v) isnan(v)
#define INT_NAN(v) 0

TOPK(f32, float, FLOAT_NAN)
TOPK(f64, double, FLOAT_NAN)
TOPK(i32, int32_t, INT_NAN)
TOPK(i64, int64_t, INT_NAN)

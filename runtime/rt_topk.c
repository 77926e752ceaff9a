/* Top-k along the middle dim of [outer, n, inner] (declared in rt_tensor.h).
 *
 * Each (outer, inner) line goes through the steps of Paddle's CPU kernels,
 * whose results among equal values (and, unsorted, their order) come from
 * libstdc++'s algorithms, reproduced in rt_sort.c:
 *   top_k_v2 (phi FullTopK, paddle/phi/kernels/cpu/top_k_kernel.cc): the
 *     line's (value, position) pairs; when k * 64 < n,
 *     std::partial_sort(first, first + k, last); otherwise
 *     std::nth_element(first, first + k - 1, last) and, when `sorted` is
 *     set, std::sort(first, first + k - 1) -- the first k - 1 pairs only,
 *     the kth stays where nth_element put it.  The comparator is on the
 *     value: largest "isnan(a) && !isnan(b) || a > b" (NaN first), smallest
 *     "!isnan(a) && isnan(b) || a < b" (NaN last).
 *   top_k v1 (fluid TopkKernel, paddle/fluid/operators/top_k_op.h): always
 *     std::partial_sort(first, first + k, last) with "a > b", under which a
 *     NaN is neither before nor after anything.
 * The first k pairs are the result.  (For another axis Paddle first
 * transposes it last; each line still holds the same values in the same
 * order.) */
#include "rt_sort.h"
#include "rt_tensor.h"

/* TOPK(name, NAME, T): rt_topk_<name> for element type T. */
#define TOPK(name, NAME, T)                                                                           \
  void rt_topk_##name(const T *x, int64_t outer, int64_t n, int64_t inner, int64_t k, int flags, T *vals, \
                      int64_t *idx, void *work) {                                                     \
    RtSortPair##NAME *line = work;                                                                    \
    const RtSortOrder order = (flags & RT_TOPK_V1)        ? RT_SORT_GT                                \
                              : (flags & RT_TOPK_LARGEST) ? RT_SORT_DESC                              \
                                                          : RT_SORT_ASC;                              \
    const int64_t kk = k < n ? k : n; /* Paddle rejects k > n; the rest is left zero */               \
    for (int64_t o = 0; o < outer; o++)                                                               \
      for (int64_t i = 0; i < inner; i++) {                                                           \
        const T *src = x + o * n * inner + i;                                                         \
        T *dv = vals + o * k * inner + i;                                                             \
        int64_t *di = idx + o * k * inner + i;                                                        \
        for (int64_t j = 0; j < n; j++) line[j] = (RtSortPair##NAME){src[j * inner], j};              \
        if ((flags & RT_TOPK_V1) || kk * 64 < n) {                                                    \
          rt_stl_partial_sort_##name(line, kk, n, order);                                             \
        } else if (kk > 0) {                                                                          \
          rt_stl_nth_element_##name(line, kk - 1, n, order);                                          \
          if (flags & RT_TOPK_SORTED) rt_stl_sort_##name(line, kk - 1, order);                        \
        }                                                                                             \
        for (int64_t j = 0; j < k; j++) {                                                             \
          dv[j * inner] = j < kk ? line[j].v : 0;                                                     \
          di[j * inner] = j < kk ? line[j].i : 0;                                                     \
        }                                                                                             \
      }                                                                                               \
  }

TOPK(f32, F32, float)
TOPK(f64, F64, double)
TOPK(i32, I32, int32_t)
TOPK(i64, I64, int64_t)

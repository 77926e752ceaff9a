/* kthvalue along the middle dim of [outer, n, inner] (see rt_kthvalue.h).
 *
 * Paddle 2.6's CPU kernel (phi kthvalue_kernel.cc) picks pair k-1 of the
 * line after std::partial_sort(first, first + k, last) when 64 * k < n, or
 * after std::nth_element(first, first + k - 1, last) otherwise, both with
 * the comparator "a is not NaN and b is, or a < b" on the value: RT_SORT_ASC
 * of rt_sort.h, whose rt_stl_partial_sort / rt_stl_nth_element take
 * libstdc++'s steps one for one, so that among equal values the position
 * reported is Paddle's. */
#include "rt_kthvalue.h"
#include "rt_sort.h"

/* KTH(name, NAME, T): rt_kthvalue_<name> for element type T. */
#define KTH(name, NAME, T)                                                                            \
  _Static_assert(RT_KTHVALUE_WORK_BYTES(1) >= sizeof(RtSortPair##NAME), "RT_KTHVALUE_WORK_BYTES is too small"); \
  void rt_kthvalue_##name(const T *x, int64_t outer, int64_t n, int64_t inner, int64_t k, T *vals,    \
                          int64_t *idx, void *work) {                                                 \
    RtSortPair##NAME *line = work;                                                                    \
    for (int64_t o = 0; o < outer; o++)                                                               \
      for (int64_t i = 0; i < inner; i++) {                                                           \
        const int64_t base = o * n * inner + i;                                                       \
        for (int64_t j = 0; j < n; j++) line[j] = (RtSortPair##NAME){x[base + j * inner], j};         \
        if (k * 64 < n) rt_stl_partial_sort_##name(line, k, n, RT_SORT_ASC);                          \
        else rt_stl_nth_element_##name(line, k - 1, n, RT_SORT_ASC);                                  \
        vals[o * inner + i] = line[k - 1].v;                                                          \
        idx[o * inner + i] = line[k - 1].i;                                                           \
      }                                                                                               \
  }

KTH(f32, F32, float)
KTH(f64, F64, double)
KTH(i32, I32, int32_t)
KTH(i64, I64, int64_t)

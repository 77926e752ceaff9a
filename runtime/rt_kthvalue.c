/* kthvalue along the middle dim of [outer, n, inner] (see rt_kthvalue.h).
 *
 * Paddle 2.6's CPU kernel (phi kthvalue_kernel.cc) picks pair k-1 of the
 * line after std::partial_sort(first, first + k, last) when 64 * k < n, or
 * after std::nth_element(first, first + k - 1, last) otherwise, both with
 * the comparator "a is not NaN and b is, or a < b" on the value.  Among
 * equal values the position reported is decided by libstdc++'s steps
 * (bits/stl_algo.h, bits/stl_heap.h), which KTH() below takes one for one:
 *   nth_element    __introselect: while more than 3 pairs remain, the
 *                  median of first+1, middle and last-1 becomes the pivot
 *                  at first, an unguarded Hoare partition splits the rest
 *                  and the part holding nth is kept; after 2*floor(log2(n))
 *                  rounds a heap select finishes; an insertion sort ends;
 *   partial_sort   __heap_select (a max-heap of the first k pairs, each
 *                  later smaller pair popped in), then __sort_heap. */
#include <math.h>
#include <string.h>

#include "rt_kthvalue.h"

/* KTH(name, T, ISNAN): rt_kthvalue_<name> for element type T. */
#define KTH(name, T, ISNAN)                                                                           \
  typedef struct {                                                                                    \
    T v;       /* the value */                                                                        \
    int64_t i; /* its position in the line */                                                         \
  } Pair_##name;                                                                                      \
  _Static_assert(sizeof(Pair_##name) <= 16, "RT_KTHVALUE_WORK_BYTES is too small");                  \
  /* Paddle's comparator: a before b. */                                                              \
  static int lt_##name(Pair_##name a, Pair_##name b) { return (!ISNAN(a.v) && ISNAN(b.v)) || a.v < b.v; } \
  static void swap_##name(Pair_##name *a, Pair_##name *b) {                                           \
    Pair_##name t = *a;                                                                               \
    *a = *b;                                                                                          \
    *b = t;                                                                                           \
  }                                                                                                   \
  /* __insertion_sort (with __unguarded_linear_insert) */                                             \
  static void insertion_##name(Pair_##name *first, Pair_##name *last) {                               \
    if (first == last) return;                                                                        \
    for (Pair_##name *i = first + 1; i != last; i++) {                                                \
      Pair_##name val = *i;                                                                           \
      if (lt_##name(val, *first)) {                                                                   \
        memmove(first + 1, first, (size_t)(i - first) * sizeof *i);                                   \
        *first = val;                                                                                 \
      } else {                                                                                        \
        Pair_##name *hole = i, *next = i - 1;                                                         \
        while (lt_##name(val, *next)) {                                                               \
          *hole = *next;                                                                              \
          hole = next--;                                                                              \
        }                                                                                             \
        *hole = val;                                                                                  \
      }                                                                                               \
    }                                                                                                 \
  }                                                                                                   \
  /* __adjust_heap with its __push_heap */                                                            \
  static void adjust_heap_##name(Pair_##name *first, int64_t hole, int64_t len, Pair_##name val) {   \
    const int64_t top = hole;                                                                         \
    int64_t child = hole;                                                                             \
    while (child < (len - 1) / 2) {                                                                   \
      child = 2 * (child + 1);                                                                        \
      if (lt_##name(first[child], first[child - 1])) child--;                                         \
      first[hole] = first[child];                                                                     \
      hole = child;                                                                                   \
    }                                                                                                 \
    if ((len & 1) == 0 && child == (len - 2) / 2) {                                                   \
      child = 2 * (child + 1);                                                                        \
      first[hole] = first[child - 1];                                                                 \
      hole = child - 1;                                                                               \
    }                                                                                                 \
    int64_t parent = (hole - 1) / 2;                                                                  \
    while (hole > top && lt_##name(first[parent], val)) {                                             \
      first[hole] = first[parent];                                                                    \
      hole = parent;                                                                                  \
      parent = (hole - 1) / 2;                                                                        \
    }                                                                                                 \
    first[hole] = val;                                                                                \
  }                                                                                                   \
  /* __pop_heap(first, last, result) */                                                               \
  static void pop_heap_##name(Pair_##name *first, Pair_##name *last, Pair_##name *result) {           \
    Pair_##name val = *result;                                                                        \
    *result = *first;                                                                                 \
    adjust_heap_##name(first, 0, last - first, val);                                                  \
  }                                                                                                   \
  /* __heap_select: __make_heap of [first, middle), then each smaller later pair popped in */         \
  static void heap_select_##name(Pair_##name *first, Pair_##name *middle, Pair_##name *last) {        \
    const int64_t len = middle - first;                                                               \
    if (len >= 2)                                                                                     \
      for (int64_t parent = (len - 2) / 2;; parent--) {                                               \
        adjust_heap_##name(first, parent, len, first[parent]);                                        \
        if (parent == 0) break;                                                                       \
      }                                                                                               \
    for (Pair_##name *i = middle; i < last; i++)                                                      \
      if (lt_##name(*i, *first)) pop_heap_##name(first, middle, i);                                   \
  }                                                                                                   \
  /* std::partial_sort: __heap_select then __sort_heap */                                             \
  static void partial_sort_##name(Pair_##name *first, Pair_##name *middle, Pair_##name *last) {       \
    heap_select_##name(first, middle, last);                                                          \
    while (middle - first > 1) {                                                                      \
      middle--;                                                                                       \
      pop_heap_##name(first, middle, middle);                                                         \
    }                                                                                                 \
  }                                                                                                   \
  /* __move_median_to_first */                                                                        \
  static void median_to_first_##name(Pair_##name *result, Pair_##name *a, Pair_##name *b, Pair_##name *c) { \
    if (lt_##name(*a, *b)) {                                                                          \
      if (lt_##name(*b, *c)) swap_##name(result, b);                                                  \
      else if (lt_##name(*a, *c)) swap_##name(result, c);                                             \
      else swap_##name(result, a);                                                                    \
    } else if (lt_##name(*a, *c)) {                                                                   \
      swap_##name(result, a);                                                                         \
    } else if (lt_##name(*b, *c)) {                                                                   \
      swap_##name(result, c);                                                                         \
    } else {                                                                                          \
      swap_##name(result, b);                                                                         \
    }                                                                                                 \
  }                                                                                                   \
  /* __unguarded_partition around *pivot */                                                           \
  static Pair_##name *partition_##name(Pair_##name *first, Pair_##name *last, const Pair_##name *pivot) { \
    for (;;) {                                                                                        \
      while (lt_##name(*first, *pivot)) first++;                                                      \
      last--;                                                                                         \
      while (lt_##name(*pivot, *last)) last--;                                                        \
      if (!(first < last)) return first;                                                              \
      swap_##name(first, last);                                                                       \
      first++;                                                                                        \
    }                                                                                                 \
  }                                                                                                   \
  /* std::nth_element (__introselect) */                                                              \
  static void nth_element_##name(Pair_##name *first, Pair_##name *nth, Pair_##name *last) {           \
    if (first == last || nth == last) return;                                                         \
    int depth = 2 * floor_log2(last - first);                                                         \
    while (last - first > 3) {                                                                        \
      if (depth == 0) {                                                                               \
        heap_select_##name(first, nth + 1, last);                                                     \
        swap_##name(first, nth);                                                                      \
        return;                                                                                       \
      }                                                                                               \
      depth--;                                                                                        \
      median_to_first_##name(first, first + 1, first + (last - first) / 2, last - 1);                 \
      Pair_##name *cut = partition_##name(first + 1, last, first);                                    \
      if (cut <= nth) first = cut;                                                                    \
      else last = cut;                                                                                \
    }                                                                                                 \
    insertion_##name(first, last);                                                                    \
  }                                                                                                   \
  void rt_kthvalue_##name(const T *x, int64_t outer, int64_t n, int64_t inner, int64_t k, T *vals,    \
                          int64_t *idx, void *work) {                                                 \
    Pair_##name *line = work;                                                                         \
    for (int64_t o = 0; o < outer; o++)                                                               \
      for (int64_t i = 0; i < inner; i++) {                                                           \
        const int64_t base = o * n * inner + i;                                                       \
        for (int64_t j = 0; j < n; j++) line[j] = (Pair_##name){x[base + j * inner], j};              \
        if (k * 64 < n) partial_sort_##name(line, line + k, line + n);                                \
        else nth_element_##name(line, line + k - 1, line + n);                                        \
        vals[o * inner + i] = line[k - 1].v;                                                          \
        idx[o * inner + i] = line[k - 1].i;                                                           \
      }                                                                                               \
  }

/* std::__lg: floor(log2(n)) for n > 0. */
static int floor_log2(int64_t n) {
  int k = 0;
  while (n > 1) {
    n >>= 1;
    k++;
  }
  return k;
}

#define FLOAT_NAN(v) isnan(v)
#define INT_NAN(v) 0

/* cppcheck's cross-file check takes the heap index 0 (an int64_t) given to
 * adjust_heap for a null pointer that lt_ would dereference; lt_ takes its
 * Pairs by value and dereferences nothing. */
/* cppcheck-suppress ctunullpointer ; see above */
KTH(f32, float, FLOAT_NAN)
/* cppcheck-suppress ctunullpointer ; as above */
KTH(f64, double, FLOAT_NAN)
/* cppcheck-suppress ctunullpointer ; as above */
KTH(i32, int32_t, INT_NAN)
/* cppcheck-suppress ctunullpointer ; as above */
KTH(i64, int64_t, INT_NAN)
